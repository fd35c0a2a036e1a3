"""Side-by-side benchmark of pip Exudyn 1.13.6 and jointsim on chains of Euler-parameter rigid
bodies hanging from ground by spherical joints (issue 7).

Model (per chain length N): N rigid bodies with Euler-parameter nodes, mass and inertia of a
0.5 x 0.05 x 0.05 cuboid of density 1000 (InertiaCuboid, m = 1.25), initially at rest and lying
along the global x axis (body i centred at x = 0.5 i + 0.25, like the seed pendulum); a spherical
joint between ground and the left end of body 0 at the origin and between the right end of body i
and the left end of body i+1 (mbs.CreateSphericalJoint, global position, all axes constrained);
gravity [0, 0, -9.81] (mbs.CreateRigidBody(gravity=...)). Default simulation settings except
numberOfSteps = STEPS, endTime = STEPS * 1 ms, no output files, and
linearSolver.solverType = EigenSparse for N > 20 (EXUdense otherwise). The seed pendulum
(../shared/seeds/004_ba031ab6d4a6230c.txt: one 1 x 0.1 x 0.1 cuboid, mass 10, spherical joint at
its end) is run as the first row.

For every model the script
  1. builds it with Exudyn's Python API and writes NAME.json with tools/exudyn_export.py into
     --out-dir (seed_pendulum.json, chain_1.json, chain_10.json, ...). These files are the
     machine-independent part and are byte-identical from run to run;
  2. rebuilds an Exudyn system from NAME.json (AddNode/AddObject/... with the file's dictionaries,
     SimulationSettings.SetDictionary), so that both programs solve the same file, and times
     mbs.SolveDynamic: wall time (time.perf_counter) around the SolveDynamic call only, best of
     --exudyn-runs runs, or of more while those runs took less than --min-seconds together
     (Exudyn's own solver.timer.total is printed beside it);
  3. runs `JOINTSIM run NAME.json --solver exact` and `--solver fast` (issue 18), best of --runs
     runs (or more, as for Exudyn) each of statistics.solverSeconds (jointsim's time for initial
     accelerations plus the step loop, model reading and assembly excluded);
  4. compares the final ODE2 coordinates of Exudyn and the exact mode (max |q_exudyn - q_jointsim|)
     and flags a difference above --tolerance (default 1e-8, see below);
  5. prints the accuracy of all three runs: the largest difference of their final coordinates from
     the solution converged tightly (Exudyn with full Newton at relative tolerance 1e-11; from
     tests/reference/tight_solutions.json when the file equals the committed
     tests/reference/benchmarks/NAME.json, else solved here), and flags a fast run further from
     it than 1.5 times Exudyn's run.

With --perf3d, Exudyn's own TestModel perf3DRigidBodies (tests/reference/benchmarks, a copy of
../shared/reference/benchmarks/perf3DRigidBodies.json) is the last row.

With --copies KxN (repeatable), a row of K equal chains of N bodies side by side, 1 m apart, each
hanging from ground as chain N does, and t(KxN)/t(N) beside t(1000)/t(100). Chain N = 1000 does
not move as chain N = 100 does (the tension that pulls the falling chain toward its anchor runs
along 500 m of chain against 50, and its Newton steps start further from their solution);
10x100 has the bodies, joints and sparse system of N = 1000 with the motion of N = 100, so the
quotient measures what the size alone costs.

Usage, from the repository root, after
`cargo build --release -p jointsim`:

    python3 tools/bench/chain_benchmark.py [--sizes 1,10,100,1000] [--steps 1000] [--runs 3]
        [--exudyn-runs 3] [--out-dir DIR] [--jointsim target/release/jointsim]
        [--timeout SECONDS] [--tolerance 1e-8] [--no-seed] [--perf3d] [--copies KxN ...]
        [--min-seconds 0.5]

Without --out-dir the files go to a temporary directory that is removed at the end. A jointsim
run that fails (for example a model reader that does not accept linearSolver.solverType =
EigenSparse) or that exceeds --timeout (per run) is reported in its row; the other rows still run.

Tolerance: both programs run the same generalized-alpha steps with modified Newton and the same
convergence tests (relative tolerance 1e-8 on the scaled residual), so the final coordinates
differ by floating-point rounding in residuals and linear solves, amplified by the motion, and by
where Newton stops when the two take different iteration or Jacobian-update histories (the "jac"
column gives Exudyn's and jointsim's Jacobian counts). That second part is bounded by the Newton
tolerance, 1e-8 relative on coordinates of order 1; different physics (a wrong Jacobian term, a
different step sequence) shows far above it. Measured: 2e-14 .. 2e-11 for the seed pendulum and
N = 1, 10, 100 (equal Jacobian counts), 4.5e-11 for N = 1000 (516 vs 525 Jacobians). --tolerance
1e-8 thus accepts every "same algorithm" difference allowed by the Newton tolerance and flags
anything else; the difference is printed for every row.

Reference (issue 7, the issue author's machine, pip Exudyn 1.13.6, wall time per step):
N = 1: 17 us, N = 10: 181 us, N = 100: 1.65 ms, N = 1000: 20.4 ms.
"""
import argparse
import copy
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np
import exudyn as exu
from exudyn.itemInterface import *  # noqa: F401,F403
from exudyn.utilities import *  # noqa: F401,F403

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from exudyn_export import export, rebuild  # noqa: E402

STEP_SIZE = 1e-3
LENGTH, WIDTH, DENSITY = 0.5, 0.05, 1000.
GRAVITY = [0., 0., -9.81]
SPARSE_ABOVE = 20  # bodies
COPY_SPACING = 1.  # m between the chains of --copies
MAX_RUNS = 100  # timed runs per model and program at most (--min-seconds)
ISSUE_US_PER_STEP = {1: 17., 10: 181., 100: 1650., 1000: 20400.}
REPO = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
SEED_REFERENCE = os.path.normpath(os.path.join(REPO, '..', 'shared', 'reference', 'cases', 'seed_mini_pendulum.json'))


def settings(steps, sparse):
    s = exu.SimulationSettings()
    s.timeIntegration.numberOfSteps = steps
    s.timeIntegration.endTime = steps * STEP_SIZE
    s.timeIntegration.verboseMode = 0
    s.solution.file.write = False
    if sparse:
        s.linearSolver.solverType = exu.LinearSolverType.EigenSparse
    return s


def chain(n, steps, copies=1):
    """The chain of n bodies, built with Exudyn's Python API (assembled); with copies > 1, that many
    equal chains side by side (chain c hangs from ground at y = COPY_SPACING * c), each moving
    as the single chain does."""
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    ground = mbs.CreateGround()
    inertia = InertiaCuboid(density=DENSITY, sideLengths=[LENGTH, WIDTH, WIDTH])
    for c in range(copies):
        y = COPY_SPACING * c
        previous = ground
        for i in range(n):
            body = mbs.CreateRigidBody(inertia=inertia, referencePosition=[LENGTH * (i + 0.5), y, 0.],
                                       gravity=GRAVITY, nodeType=exu.NodeType.RotationEulerParameters)
            mbs.CreateSphericalJoint(itemNumbers=[previous, body], position=[LENGTH * i, y, 0.],
                                     constrainedAxes=[1, 1, 1], useGlobalFrame=True)
            previous = body
    mbs.Assemble()
    return SC, mbs, settings(steps, n * copies > SPARSE_ABOVE)


def seed_pendulum(steps):
    """The seed page's mini example (spherical pendulum, 1 x 0.1 x 0.1 cuboid of density 1000)."""
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    oGround = mbs.AddObject(ObjectGround())
    inertia = InertiaCuboid(density=1000, sideLengths=[1, 0.1, 0.1])
    node = mbs.AddNode(NodeRigidBodyEP(referenceCoordinates=[0.5, 0, 0] + eulerParameters0))
    body = mbs.AddObject(ObjectRigidBody(nodeNumber=node, mass=inertia.Mass(), inertia=inertia.GetInertia6D()))
    mbs.AddLoad(LoadMassProportional(markerNumber=mbs.AddMarker(MarkerBodyMass(bodyNumber=body)),
                                     loadVector=[0, 0, -9.81]))
    mGround = mbs.AddMarker(MarkerBodyPosition(bodyNumber=oGround, localPosition=[0, 0, 0]))
    mBody = mbs.AddMarker(MarkerBodyPosition(bodyNumber=body, localPosition=[-0.5, 0, 0]))
    mbs.AddObject(ObjectJointSpherical(markerNumbers=[mGround, mBody]))
    mbs.Assemble()
    return SC, mbs, settings(steps, False)


def seed_matches_reference(path):
    """Whether the seed model's items equal those of ../shared/reference/cases/seed_mini_pendulum.json
    (sensors and settings are not compared: the reference case adds sensors)."""
    if not os.path.exists(SEED_REFERENCE):
        return None
    ours, ref = json.load(open(path)), json.load(open(SEED_REFERENCE))
    return all(ours[k] == ref[k] for k in ('nodes', 'objects', 'markers', 'loads'))


# ------------------------------------------------------------------------------------------------
# Exudyn on the written file




def repeats(runs, min_seconds):
    """Best-of timing runs: at least `runs`, and more while the runs so far took less than
    `min_seconds` together (at most MAX_RUNS): a solve of a millisecond or two is otherwise timed
    on whatever the machine did in those few runs. Yields, once per run, the list to which the
    caller appends that run's seconds."""
    spent = []
    while len(spent) < runs or (sum(spent) < min_seconds and len(spent) < MAX_RUNS):
        yield spent


def run_exudyn(path, runs, min_seconds=0.):
    """Best wall time around SolveDynamic, Exudyn's timer.total of that run, final state, statistics."""
    SC, mbs, s = rebuild(json.load(open(path)), assemble=True)
    best = None
    q_first = None
    for spent in repeats(runs, min_seconds):
        start = time.perf_counter()
        mbs.SolveDynamic(s)
        wall = time.perf_counter() - start
        spent.append(wall)
        solver = mbs.sys['dynamicSolver']
        q = np.array(mbs.systemData.GetODE2Coordinates())
        if q_first is None:
            q_first = q
        elif not np.array_equal(q, q_first):
            print(f'  warning: Exudyn repeated solve of {os.path.basename(path)} ended elsewhere '
                  f'(max diff {np.max(np.abs(q - q_first)):.1e})')
        if best is None or wall < best['wall']:
            it = solver.it
            best = {'wall': wall, 'timer': float(solver.timer.total), 'steps': int(it.currentStepIndex) - 1,
                    'newton': int(it.newtonStepsCount), 'jacobians': int(it.newtonJacobiCount),
                    'time': float(mbs.systemData.GetTime())}
    best['q'] = q_first
    best['ode2'] = mbs.systemData.GetODE2Coordinates().size
    best['ae'] = mbs.systemData.GetAECoordinates().size
    return best


# ------------------------------------------------------------------------------------------------
# jointsim on the written file

def run_jointsim(exe, path, runs, timeout, mode='exact', min_seconds=0.):
    """Best statistics.solverSeconds of `runs` runs (more for short solves: `repeats`) of
    `jointsim run --solver MODE`, or {'error': message}."""
    out = os.path.join(tempfile.gettempdir(), f'{os.path.basename(path)[:-len(".json")]}.{mode}.jointsim.json')
    best = None
    for spent in repeats(runs, min_seconds):
        try:
            p = subprocess.run([exe, 'run', path, '--out', out, '--quiet', '--solver', mode], capture_output=True,
                               text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return {'error': f'timed out after {timeout:g} s (--timeout)'}
        if p.returncode != 0:
            msg = (p.stderr.strip() or p.stdout.strip() or f'exit status {p.returncode}').splitlines()
            text = ' / '.join(msg[:3])
            if 'linearSolver' in text or 'EigenSparse' in text:
                text = 'jointsim does not accept this linear solver type yet: ' + text
            return {'error': text}
        r = json.load(open(out))
        st = r['statistics']
        spent.append(st['solverSeconds'])
        if best is None or st['solverSeconds'] < best['seconds']:
            best = {'seconds': st['solverSeconds'], 'steps': st['steps'], 'newton': st.get('newtonIterations'),
                    'jacobians': st.get('jacobianEvaluations'), 'time': r['time']}
    best['q'] = np.array(r['ode2Coordinates'])
    return best


# ------------------------------------------------------------------------------------------------
# the tightly converged solution (the fast path's accuracy reference)

TIGHT = os.path.join(REPO, 'tests', 'reference', 'tight_solutions.json')
BENCHMARKS = os.path.join(REPO, 'tests', 'reference', 'benchmarks')


def tight_solution(path):
    """Final coordinates of Exudyn with full Newton and relative tolerance 1e-11 on this file: from
    tests/reference/tight_solutions.json when the file equals a committed benchmark model, else solved
    here (as tools/reference/make_tight_references.py does)."""
    name = os.path.basename(path)
    committed = os.path.join(BENCHMARKS, name)
    if os.path.exists(committed) and os.path.exists(TIGHT) and open(committed).read() == open(path).read():
        entry = json.load(open(TIGHT)).get('benchmarks/' + name)
        if entry and 'tightFailed' not in entry:
            return np.array(entry['ode2Coordinates'])
    SC, mbs, s = rebuild(json.load(open(path)), assemble=True)
    n = s.timeIntegration.newton
    n.useModifiedNewton = False
    n.relativeTolerance = 1e-11
    n.absoluteTolerance = 1e-14
    n.maxIterations = 50
    mbs.SolveDynamic(s)
    return np.array(mbs.systemData.GetODE2Coordinates())


# ------------------------------------------------------------------------------------------------

def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--sizes', default='1,10,100,1000', help='chain lengths, comma separated')
    parser.add_argument('--steps', type=int, default=1000, help='time steps of 1 ms')
    parser.add_argument('--runs', type=int, default=3, help='jointsim runs per model (best is shown)')
    parser.add_argument('--exudyn-runs', type=int, default=3, help='Exudyn solves per model (best is shown)')
    parser.add_argument('--out-dir', help='where the model and result files go (default: a temporary directory)')
    parser.add_argument('--jointsim', default=os.path.join('target', 'release', 'jointsim'),
                        help='the jointsim binary (default: target/release/jointsim)')
    parser.add_argument('--timeout', type=float, default=None, help='seconds per jointsim run')
    parser.add_argument('--tolerance', type=float, default=1e-8, help='flag max |dq| above this')
    parser.add_argument('--no-seed', action='store_true', help='leave out the seed pendulum')
    parser.add_argument('--perf3d', action='store_true',
                        help="also run Exudyn's TestModel perf3DRigidBodies (tests/reference/benchmarks)")
    parser.add_argument('--min-seconds', type=float, default=0.5,
                        help='repeat a short solve beyond --runs / --exudyn-runs until its runs took this '
                             'long together (at most %d runs); 0: exactly --runs' % MAX_RUNS)
    parser.add_argument('--copies', action='append', default=[], metavar='KxN',
                        help='also run K equal chains of N bodies side by side (e.g. 10x100: the bodies of '
                             'chain N = 1000 with the motion of N = 100); repeatable')
    args = parser.parse_args()
    sizes = [int(x) for x in args.sizes.split(',') if x.strip()]
    copies = []
    for c in args.copies:
        k, _, n = c.lower().partition('x')
        if not (k.isdigit() and n.isdigit() and int(k) >= 1 and int(n) >= 1):
            sys.exit(f'--copies expects KxN with K, N >= 1 (e.g. 10x100), got {c!r}')
        copies.append((int(k), int(n)))
    if not os.path.exists(args.jointsim):
        sys.exit(f'{args.jointsim} not found: cargo build --release -p jointsim '
                 f'(or give --jointsim PATH)')
    exe = os.path.abspath(args.jointsim)

    tmp = None
    if args.out_dir:
        out_dir = args.out_dir
        os.makedirs(out_dir, exist_ok=True)
    else:
        out_dir = tmp = tempfile.mkdtemp(prefix='chain_benchmark_')

    models = []
    if not args.no_seed:
        models.append(('seed_pendulum', 1, seed_pendulum))
    models += [(f'chain_{n}', n, chain) for n in sizes]
    models += [(f'chains_{k}x{n}', (k, n), chain) for k, n in copies]
    if args.perf3d:
        models.append(('perf3DRigidBodies', 400, None))

    print(f'Exudyn {exu.__version__}, jointsim {args.jointsim}; {args.steps} steps of '
          f'{STEP_SIZE * 1e3:g} ms; files in {out_dir}{" (removed at the end)" if tmp else ""}')
    print('Exudyn: wall time around SolveDynamic (best of %d; timer = solver.timer.total of that run); '
          'ours: statistics.solverSeconds (best of %d); short solves repeated until they took %g s '
          '(at most %d runs)' % (args.exudyn_runs, args.runs, args.min_seconds, MAX_RUNS))
    head = (f"{'model':>17s} {'N':>5s} {'unknowns':>8s} {'Exudyn µs/step':>14s} {'exact µs':>9s} {'ratio':>6s} "
            f"{'fast µs':>9s} {'ratio':>6s} | {'|q-q*| Exudyn':>13s} {'exact':>8s} {'fast':>8s} | "
            f"{'iterations Ex/exact/fast':>24s} {'Jacobians Ex/exact/fast':>23s}")
    rows = []
    for name, n, build in models:
        if build is None:
            path = os.path.join(BENCHMARKS, name + '.json')
        else:
            if build is chain:
                k, bodies = n if isinstance(n, tuple) else (1, n)
                SC, mbs, s = chain(bodies, args.steps, k)
            else:
                SC, mbs, s = build(args.steps)
            path = os.path.join(out_dir, name + '.json')
            export(mbs, s, path)
            del SC, mbs
        note = ''
        if build is seed_pendulum:
            same = seed_matches_reference(path)
            if same is not None:
                note = ('items equal ' if same else 'items DIFFER from ') + os.path.relpath(SEED_REFERENCE)
        ex = run_exudyn(path, args.exudyn_runs, args.min_seconds)
        q_tight = tight_solution(path)
        ours = {mode: run_jointsim(exe, path, args.runs, args.timeout, mode, args.min_seconds)
                for mode in ('exact', 'fast')}
        steps = ex['steps']
        ex_us = ex['wall'] / steps * 1e6
        row = {'name': name, 'n': n, 'exudyn_us': ex_us}
        bodies = n[0] * n[1] if isinstance(n, tuple) else n

        def dist(q):
            return float(np.max(np.abs(q - q_tight))) if q.shape == q_tight.shape else float('inf')
        cells = {}
        for mode, r in ours.items():
            if 'error' in r:
                note = (note + '; ' if note else '') + f'jointsim --solver {mode}: ' + r['error']
                cells[mode] = ('—', '—', '—', '—', '—')
                row[mode + '_us'] = None
                continue
            us = r['seconds'] / max(1, r['steps']) * 1e6
            row[mode + '_us'] = us
            row[mode + '_dq'] = dist(r['q'])
            cells[mode] = (f'{us:9.1f}', f'{ex_us / us:6.2f}', f'{dist(r["q"]):8.1e}', str(r['newton']),
                           str(r['jacobians']))
            if r['steps'] != steps or abs(r['time'] - ex['time']) > 1e-12:
                note += f"; {mode}: steps/end time differ: Exudyn {steps} / {ex['time']}, ours {r['steps']} / {r['time']}"
        row['exudyn_dq'] = dist(ex['q'])
        if row.get('exact_us') is not None:
            row['dq'] = float(np.max(np.abs(ex['q'] - ours['exact']['q'])))
            if not row['dq'] <= args.tolerance:
                note += f"; exact mode's final coordinates differ from Exudyn's by {row['dq']:.1e} (> {args.tolerance:g})"
        if row.get('fast_us') is not None and not row['fast_dq'] <= 1.5 * row['exudyn_dq']:
            note += "; the fast path is further from the converged solution than 1.5 x Exudyn's"
        e, f = cells['exact'], cells['fast']
        line = (f"{name:>17s} {bodies:5d} {ex['ode2'] + ex['ae']:8d} {ex_us:14.1f} {e[0]:>9s} {e[1]:>6s} {f[0]:>9s} "
                f"{f[1]:>6s} | {row['exudyn_dq']:13.1e} {e[2]:>8s} {f[2]:>8s} | "
                f"{str(ex['newton']) + '/' + e[3] + '/' + f[3]:>24s} {str(ex['jacobians']) + '/' + e[4] + '/' + f[4]:>23s}")
        rows.append(row)
        if len(rows) == 1:
            print(head)
        note = note.strip('; ')
        print(line + (f'   [{note}]' if note else ''), flush=True)

    if rows:
        print('ratio = Exudyn µs/step / jointsim µs/step (> 1: jointsim faster), exact = --solver exact '
              "(Exudyn's Newton path), fast = --solver fast; |q-q*| = largest difference of the final coordinates "
              'from the solution converged with full Newton at relative tolerance 1e-11')
        for mode in ('exact', 'fast'):
            chain_rows = {r['n']: r[mode + '_us'] for r in rows if r['name'].startswith('chain_') and r.get(mode + '_us')}
            if 100 in chain_rows and 1000 in chain_rows:
                print(f'{mode}: t(1000)/t(100) = {chain_rows[1000] / chain_rows[100]:.2f}')
            for r in rows:
                if isinstance(r['n'], tuple) and r['n'][1] in chain_rows and r.get(mode + '_us'):
                    k, n = r['n']
                    print(f'{mode}: t({k}x{n})/t({n}) = {r[mode + "_us"] / chain_rows[n]:.2f} '
                          f'({k} times the bodies, each moving as in chain N = {n})')
    issue = [f'N = {r["n"]}: {ISSUE_US_PER_STEP[r["n"]]:g} µs here {r["exudyn_us"]:.1f} µs'
             for r in rows if r['name'].startswith('chain_') and r['n'] in ISSUE_US_PER_STEP]
    if issue:
        print("Exudyn per step, issue author's machine vs this one: " + '; '.join(issue))
    if tmp:
        shutil.rmtree(tmp)
    bad = [r for r in rows if r.get('exact_us') is None or r.get('fast_us') is None
           or not r.get('dq', 0) <= args.tolerance or not r['fast_dq'] <= 1.5 * r['exudyn_dq']]
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
