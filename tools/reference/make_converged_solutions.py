"""Converged solutions in time of the corpus's dynamic models, for the accurate mode's test
(tests/accurate_mode.rs, issue 50).

tests/reference/tight_solutions.json holds, per dynamic model file, the solution of the model's
own discretization (its step size) with Newton converged tightly; Exudyn's default run is within
`exudynDefaultDistance` of it. The accurate mode (`jointsim run --solver accurate`) is another
integrator, so it is judged against the solution converged in time instead, and Exudyn's run's
error is then the distance of the tight solution from that one.

For every model of tight_solutions.json this computes that solution twice, by two independent
methods, and keeps it only where they agree:

  1. `jointsim run --solver accurate --tolerance 1e-12` (Dormand–Prince 5(4) on the index-1
     equations, projected onto the constraints);
  2. `jointsim run --solver fast` (generalized-alpha, second order) with the model's step count
     times 16 and times 32, extrapolated: x = (4·x₃₂ − x₁₆)/3 (Richardson).

It writes tests/reference/converged_solutions.json: per model, `ode2Coordinates` (and
`ode1Coordinates`) of method 1, `methodsDistance` (max |x₁ − x₂| over the coordinates),
`exudynDistance` (max |tight − x₁|: the error of Exudyn's discretization) and the settings
used; or `failed` with the reason where method 1 or 2 fails or exceeds the time limit.

Usage, from the repository root after `cargo build --release -p jointsim` (or with the
environment variable JOINTSIM naming another binary):

    python3 tools/reference/make_converged_solutions.py [--only SUBSTRING] [--timeout 120]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

REPO = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
REFERENCE = os.path.join(REPO, 'tests', 'reference')
OUT = os.path.join(REFERENCE, 'converged_solutions.json')
JOINTSIM = os.environ.get('JOINTSIM', os.path.join(REPO, 'target', 'release', 'jointsim'))
TOLERANCE = 1e-12
REFINEMENTS = (16, 32)


def run(model_path, args, timeout):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, 'result.json')
        proc = subprocess.run([JOINTSIM, 'run', model_path, '--quiet', '--out', out] + args,
                              capture_output=True, text=True, timeout=timeout)
        if proc.returncode != 0:
            raise RuntimeError(proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else
                               f'exit {proc.returncode}')
        with open(out) as f:
            result = json.load(f)
    return result['ode2Coordinates'] + result.get('ode1Coordinates', [])


def refined(model_path, factor, timeout):
    with open(model_path) as f:
        model = json.load(f)
    ti = model['simulationSettings']['timeIntegration']
    ti['numberOfSteps'] = int(ti['numberOfSteps']) * factor
    # the refined runs keep their steps: no adaptive step changes
    with tempfile.NamedTemporaryFile('w', suffix='.json', delete=False,
                                     dir=os.path.dirname(model_path)) as f:
        json.dump(model, f)
        path = f.name
    try:
        return run(path, ['--solver', 'fast', '--storage-limit', '4'], timeout)
    finally:
        os.unlink(path)


def distance(a, b):
    return max((abs(x - y) for x, y in zip(a, b)), default=0.0)


IMPLICIT = (None, 'GeneralizedAlpha', 'TrapezoidalIndex2')


def converge(rel, entry, timeout):
    path = os.path.join(REFERENCE, rel)
    with open(path) as f:
        solver_type = json.load(f)['simulationSettings'].get('timeIntegration', {}).get('solverType')
    if solver_type not in IMPLICIT:
        return {'failed': f'an explicit solverType ({solver_type}) runs as Exudyn\'s'}
    try:
        accurate = run(path, ['--solver', 'accurate', '--tolerance', str(TOLERANCE)], timeout)
    except subprocess.TimeoutExpired:
        return {'failed': f'the accurate mode took longer than {timeout} s'}
    except RuntimeError as e:
        return {'failed': f'the accurate mode: {e}'}
    try:
        coarse, fine = (refined(path, k, timeout) for k in REFINEMENTS)
    except subprocess.TimeoutExpired:
        return {'failed': f'a refined fast run took longer than {timeout} s'}
    except RuntimeError as e:
        return {'failed': f'a refined fast run: {e}'}
    richardson = [(4 * f - c) / 3 for c, f in zip(coarse, fine)]
    tight = entry['ode2Coordinates'] + entry.get('ode1Coordinates', [])
    n2 = len(entry['ode2Coordinates'])
    result = {
        'time': entry['time'],
        'ode2Coordinates': accurate[:n2],
        'methodsDistance': distance(accurate, richardson),
        'refinementChange': distance(coarse, fine),
        'exudynDistance': distance(tight, accurate),
        'tolerance': TOLERANCE,
        'refinements': list(REFINEMENTS),
    }
    if len(accurate) > n2:
        result['ode1Coordinates'] = accurate[n2:]
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--only', default='')
    parser.add_argument('--timeout', type=float, default=120.)
    args = parser.parse_args()
    with open(os.path.join(REFERENCE, 'tight_solutions.json')) as f:
        tight = json.load(f)
    existing = {}
    if os.path.exists(OUT):
        with open(OUT) as f:
            existing = json.load(f)
    for rel, entry in sorted(tight.items()):
        if args.only not in rel:
            continue
        if 'tightFailed' in entry:
            existing[rel] = {'failed': 'no tight solution'}
            continue
        existing[rel] = converge(rel, entry, args.timeout)
        e = existing[rel]
        print(f"{rel:60} " + (e['failed'] if 'failed' in e else
              f"methods {e['methodsDistance']:.1e} Exudyn {e['exudynDistance']:.1e}"), flush=True)
        with open(OUT, 'w') as f:
            json.dump(existing, f, indent=1, sort_keys=True)
            f.write('\n')


if __name__ == '__main__':
    sys.exit(main())
