"""Tightly converged reference solutions for the fast solver path (issue 18).

The fast path (`jointsim run --solver fast`) solves the same generalized-alpha step equations as
Exudyn, but with its own Newton control; it is judged by accuracy, not by Exudyn's iteration
path. For every dynamic model file of the test corpus (tests/reference/exudyn_cases,
tests/reference/own_cases) and the benchmark models (tests/reference/benchmarks: the chains of
tools/bench/chain_benchmark.py and Exudyn's perf3DRigidBodies), this script solves the file with
pip Exudyn 1.13.6 twice:

  1. as the file says (Exudyn's default run): final ODE2 coordinates q_default;
  2. tightly: full Newton (useModifiedNewton = False), relativeTolerance = 1e-11 (or 1000 times
     the file's relativeTolerance where that is smaller), and
     absoluteTolerance lowered to 1e-14 (with Exudyn's 1e-10 the absolute test, not the relative
     one, would stop the iteration on small residuals); maxIterations 50.

It writes tests/reference/tight_solutions.json: per model file (path relative to tests/reference)
the tight final coordinates, max |q_default - q_tight| (how far Exudyn's own default run is from
the converged solution of the same discretization) and both runs' statistics. The test
tests/fast_solver.rs requires the fast path's final coordinates to be no further from q_tight
than 1.5 times Exudyn's distance.

A model whose tight run fails (Newton does not reach 1e-11) is recorded with "tightFailed" and
the settings that failed; the test skips nothing silently: it reports such models. Where
round-off keeps the residual above the absolute tolerance 1e-14, the absolute tolerance is raised
by factors of 100 (up to Exudyn's 1e-10) and the one used is recorded.

Usage (from the repository root; several minutes, most of it perf3DRigidBodies and chain_1000):

    python3 tools/reference/make_tight_references.py [--only SUBSTRING] [--missing]
"""
import argparse
import glob
import json
import os
import sys
import time

import numpy as np
import exudyn as exu

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..'))
sys.path.insert(0, HERE)
from exudyn_export import rebuild  # noqa: E402

REPO = os.path.normpath(os.path.join(HERE, '..', '..'))
REFERENCE = os.path.join(REPO, 'tests', 'reference')
OUT = os.path.join(REFERENCE, 'tight_solutions.json')
TIGHT_RELATIVE, TIGHT_ABSOLUTE = 1e-11, 1e-14




def solve(model, tight, absolute=TIGHT_ABSOLUTE):
    """(success, final q, final y (ODE1), final time, statistics); Exudyn's SolverError counts as
    no success."""
    SC, mbs, s = rebuild(model)
    mbs.Assemble()
    s.solution.file.write = False  # the model files do not ask for one either
    s.timeIntegration.verboseMode = 0
    if tight:
        n = s.timeIntegration.newton
        n.useModifiedNewton = False
        # at least 1000 times tighter than the file asks
        n.relativeTolerance = min(TIGHT_RELATIVE, 1e-3 * n.relativeTolerance)
        n.absoluteTolerance = absolute
        n.maxIterations = 50
    # the solver the file asks for (TrapezoidalIndex2 is generalized-α with other settings)
    solver_type = model.get('dynamicSolverType')
    kwargs = {'solverType': getattr(exu.DynamicSolverType, solver_type)} if solver_type else {}
    start = time.perf_counter()
    try:
        ok = mbs.SolveDynamic(s, **kwargs)
    except exu.SolverError:
        ok = False
    seconds = time.perf_counter() - start
    it = mbs.sys['dynamicSolver'].it
    stats = {'steps': int(it.currentStepIndex) - 1, 'newtonIterations': int(it.newtonStepsCount),
             'jacobianEvaluations': int(it.newtonJacobiCount), 'seconds': round(seconds, 3)}
    return (bool(ok), np.array(mbs.systemData.GetODE2Coordinates()), np.array(mbs.systemData.GetODE1Coordinates()),
            float(mbs.systemData.GetTime()), stats)


def dynamic_models():
    paths = sorted(glob.glob(os.path.join(REFERENCE, '*', '*.json')))
    for path in paths:
        if path.endswith('.ref.json') or path.endswith('.jointsim.json'):
            continue
        with open(path) as f:
            model = json.load(f)
        if model.get('solve', 'dynamic') != 'dynamic':
            continue
        yield os.path.relpath(path, REFERENCE), model


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--only', help='only model files whose path contains this')
    parser.add_argument('--missing', action='store_true', help='only model files not in the output yet')
    args = parser.parse_args()
    exu.config.printToConsole = False
    results = {}
    if os.path.exists(OUT):
        with open(OUT) as f:
            results = json.load(f)
    for rel, model in dynamic_models():
        if (args.only and args.only not in rel) or (args.missing and rel in results):
            continue
        ok_d, q_d, y_d, t_d, st_d = solve(model, tight=False)
        absolute = TIGHT_ABSOLUTE
        ok_t, q_t, y_t, t_t, st_t = solve(model, tight=True)
        while not ok_t and absolute < 1e-10:
            # round-off keeps some residuals above 1e-14: loosen the absolute test only
            absolute *= 100
            ok_t, q_t, y_t, t_t, st_t = solve(model, tight=True, absolute=absolute)
        # the distance over all solved coordinates, ODE2 and ODE1
        x_d, x_t = np.concatenate([q_d, y_d]), np.concatenate([q_t, y_t])
        st_t['absoluteTolerance'] = absolute
        entry = {
            'time': t_t,
            'ode2Coordinates': q_t.tolist(),
            'exudynDefaultDistance': float(np.max(np.abs(x_d - x_t))) if x_t.size else 0.0,
            'exudynDefault': st_d,
            'tight': st_t,
        }
        if y_t.size:
            entry['ode1Coordinates'] = y_t.tolist()
        if not (ok_d and ok_t) or abs(t_d - t_t) > 1e-12:
            entry['tightFailed'] = {'default': ok_d, 'tight': ok_t, 'timeDefault': t_d, 'timeTight': t_t,
                                    'relativeTolerance': TIGHT_RELATIVE, 'absoluteTolerance': absolute}
        results[rel] = entry
        print(f"{rel:60s} default-tight {entry['exudynDefaultDistance']:9.2e}  iterations "
              f"{st_d['newtonIterations']:6d} / {st_t['newtonIterations']:6d}"
              + ('  FAILED' if 'tightFailed' in entry else ''), flush=True)
        write(results)


def write(results):
    with open(OUT, 'w') as f:
        json.dump({k: results[k] for k in sorted(results)}, f, indent=0)
        f.write('\n')


if __name__ == '__main__':
    main()
