"""Check a solution file written by `jointsim run MODEL.json --solution-file F --out R.json`.

    python3 tools/check_solution_file.py F MODEL.json --result R.json [--no-exudyn-run]

1. Loads F with pip Exudyn's LoadSolutionFile (exudyn.utilities) and checks its column counts
   against the model (nODE2, velocities/accelerations per solution.file.export and solver, nODE1
   and its velocities, nAE),
   the number of rows and their times against solution.file.writePeriod (writeInitialValues,
   the final step always written), and the last row against R.json's final coordinates
   (ode2Coordinates, ode2Velocities, ode2Accelerations, ode1Coordinates, ode1Velocities,
   aeCoordinates).
2. Unless --no-exudyn-run: rebuilds the system from MODEL.json (as tools/bench/chain_benchmark.py
   does), lets Exudyn write its own solution file for it, and compares the two header and footer
   line by line (except the date, version and cpuTime lines/fields), and the values: time,
   coordinates and velocities to 1e-9 relative to max(1, |value|) (one unit in the 10th
   significant digit written), accelerations and AE coordinates to 1e-4 (see TOL_CONVERGED).

Exits 1 with a message on the first mismatch; needs pip exudyn==1.13.6.
"""
import argparse
import json
import os
import sys
import tempfile

import numpy as np

try:
    import exudyn as exu
    from exudyn.utilities import LoadSolutionFile
except ImportError as e:  # pragma: no cover
    sys.exit(f'check_solution_file: cannot import exudyn ({e}); install it with: '
             'python3 -m pip install exudyn==1.13.6')

HERE = os.path.dirname(os.path.abspath(__file__))
TOL = 1e-9
# Accelerations and λ are only as converged as Newton's tolerances make them (relativeTolerance
# 1e-8 with modified Newton): jointsim and Exudyn take the same iterations, but these differ
# by up to 2e-5 on the seed pendulum (tests/reference_cases/: TOL_AE 1e-5 at the end time,
# accelerations reported only). Time, coordinates and velocities agree to the written digits.
TOL_CONVERGED = 1e-4


def fail(message):
    sys.exit('check_solution_file: ' + message)


def nested(d, *keys, default=None):
    for k in keys:
        if not isinstance(d, dict) or k not in d:
            return default
        d = d[k]
    return d


def expected_times(model):
    """The row times Exudyn writes for the model: the same rule as the sensors' rows."""
    s = model['simulationSettings']
    static = model.get('solve') == 'static'
    if static:
        ss = s.get('staticSolver', {})
        start = ss.get('loadStepStart', 0.0)
        end = start + ss.get('loadStepDuration', 1.0)
        n = int(ss.get('numberOfLoadSteps', 1))
    else:
        ti = s.get('timeIntegration', {})
        start = ti.get('startTime', 0.0)
        end = ti.get('endTime', 1.0)
        n = int(ti.get('numberOfSteps', 100))
    period = nested(s, 'solution', 'file', 'writePeriod', default=0.01)
    initial = nested(s, 'solution', 'file', 'writeInitialValues', default=True)
    return start, end, n, period, initial, static


def check_times(times, model):
    """The row times against the writing rule applied to the constant step grid
    t_k = start + k (end - start) / numberOfSteps (a run whose steps were adapted fails here)."""
    start, end, n, period, initial, _ = expected_times(model)
    h = (end - start) / n
    want = [start] if initial else []
    due = start + period if initial else start
    for k in range(1, n + 1):
        t = start + k * h
        if abs(t - end) <= 1e-10:
            due = end - h  # the final step is always written
        if t - due >= -1e-10:
            want.append(t)
            due = max(due + period, t)
    if len(times) != len(want):
        fail(f'{len(times)} rows, expected {len(want)} (write period {period}, {n} steps of {h}, '
             f'writeInitialValues {initial})')
    err = np.abs(np.array(times) - np.array(want))
    if err.max() > 1e-9 * max(1.0, abs(end)):
        i = int(err.argmax())
        fail(f'row {i} at t = {times[i]!r}, expected {want[i]!r}')


def load(path):
    sol = LoadSolutionFile(path, verbose=False)
    data = np.atleast_2d(sol['data'])
    return sol, data


def header_lines(path):
    with open(path) as f:
        lines = [line.rstrip('\n') for line in f if line.startswith('#')]
    skip = ('#simulation started=', '#simulation finished=', '#Exudyn version =', '#jointsim version =')
    out = []
    for line in lines:
        if line.startswith(skip):
            continue
        if line.startswith('#Solver Info: cpuTime='):
            line = '#Solver Info: ' + line.split(',', 1)[1]
        out.append(line)
    return out


def exudyn_solution_file(model, path):
    """Let Exudyn solve the model and write its own solution file to `path`."""
    sys.path.insert(0, HERE)
    from exudyn_export import rebuild
    SC, mbs, s = rebuild(json.loads(json.dumps(model)), assemble=True)
    s.solution.file.write = True
    s.solution.file.binary = False
    s.solution.file.name = path
    s.timeIntegration.verboseMode = 0
    s.staticSolver.verboseMode = 0
    if model.get('solve') == 'static':
        mbs.SolveStatic(s)
    else:
        mbs.SolveDynamic(s)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('solution_file')
    ap.add_argument('model')
    ap.add_argument('--result', help="jointsim's result file of the same run")
    ap.add_argument('--no-exudyn-run', action='store_true',
                    help='skip the comparison with a solution file written by Exudyn')
    args = ap.parse_args()

    model = json.load(open(args.model))
    sol, data = load(args.solution_file)
    cols = sol['columnsExported']
    start, end, n, period, initial, static = expected_times(model)
    export = nested(model, 'simulationSettings', 'solution', 'file', 'export', default={})

    # 1. columns
    ode1 = ('GenericODE1', 'NodeGenericODE1')
    no_ode2 = ode1 + ('PointGround', 'NodePointGround', 'GenericData', 'NodeGenericData')
    n2 = sum(len(nd.get('referenceCoordinates', [])) for nd in model['nodes']
             if nd.get('nodeType') not in no_ode2)
    n1 = sum(len(nd.get('referenceCoordinates', [])) for nd in model['nodes']
             if nd.get('nodeType') in ode1)
    if cols[0] != n2:
        fail(f'nODE2 = {cols[0]} in the header, the model has {n2} ODE2 coordinates')
    want_vel = 0 if static or not export.get('velocities', True) else n2
    want_acc = 0 if static or not export.get('accelerations', True) else n2
    if cols[1] != want_vel or cols[2] != want_acc:
        fail(f'nVel2, nAcc2 = {cols[1]}, {cols[2]}, expected {want_vel}, {want_acc}')
    # Exudyn's header counts ẏ by export.velocities (its rows by export.ODE1Velocities)
    want_vel1 = 0 if static or not export.get('velocities', True) else n1
    if cols[3] != n1 or cols[4] != want_vel1:
        fail(f'nODE1, nVel1 = {cols[3]}, {cols[4]}, expected {n1}, {want_vel1}')
    want_data = sum(n.get('numberOfDataCoordinates', 0) for n in model['nodes']
                    if n.get('nodeType') in ('GenericData', 'NodeGenericData'))
    if not export.get('dataCoordinates', True):
        want_data = 0
    if cols[6] != want_data:
        fail(f'nData = {cols[6]}, expected {want_data}')
    if data.shape[1] != sum(cols) + 1:
        fail(f'{data.shape[1]} columns, header says {sum(cols)} + time')
    times = data[:, 0]
    check_times(times, model)

    # 2. the last row against the result file
    if args.result:
        r = json.load(open(args.result))
        if abs(times[-1] - r['time']) > 1e-9 * max(1.0, abs(r['time'])):
            fail(f"last row at t = {times[-1]!r}, result file's time {r['time']!r}")
        last = data[-1, 1:]
        parts = [('ode2Coordinates', cols[0]), ('ode2Velocities', cols[1]),
                 ('ode2Accelerations', cols[2]), ('ode1Coordinates', cols[3]),
                 ('ode1Velocities', cols[4]), ('aeCoordinates', cols[5]),
                 (None, cols[6])]
        k = 0
        for key, width in parts:
            if key is not None and width:
                want = np.array(r[key], dtype=float)
                got = last[k:k + width]
                if want.shape != got.shape:
                    fail(f'{key}: {got.size} values in the last row, {want.size} in the result file')
                err = np.abs(got - want) / np.maximum(1.0, np.abs(want))
                if err.max() > TOL:
                    i = int(err.argmax())
                    fail(f'{key}[{i}]: last row {got[i]!r}, result file {want[i]!r}')
            k += width
        print(f'check_solution_file: last row at t = {times[-1]} matches {args.result}')

    # 3. against Exudyn's own file
    if not args.no_exudyn_run:
        with tempfile.TemporaryDirectory() as tmp:
            ref_path = os.path.join(tmp, 'coordinatesSolution.txt')
            exudyn_solution_file(model, ref_path)
            ours_h, ref_h = header_lines(args.solution_file), header_lines(ref_path)
            if len(ours_h) != len(ref_h):
                fail(f'{len(ours_h)} header/footer lines, Exudyn writes {len(ref_h)}:\n'
                     + '\n'.join(ref_h))
            for a, b in zip(ours_h, ref_h):
                if a != b:
                    fail(f'header line differs:\n  ours:   {a}\n  Exudyn: {b}')
            ref_sol, ref = load(ref_path)
            if ref.shape != data.shape:
                fail(f'{data.shape[0]}×{data.shape[1]} values, Exudyn wrote {ref.shape[0]}×{ref.shape[1]}')
            err = np.abs(data - ref) / np.maximum(1.0, np.abs(ref))
            # column groups: time, q, v, a, y, ẏ, λ, data
            edges = np.cumsum([1, cols[0], cols[1], cols[2], cols[3], cols[4], cols[5], cols[6]])
            groups = [('time', 0, 1, TOL), ('ODE2 coordinates', 1, edges[1], TOL),
                      ('ODE2 velocities', edges[1], edges[2], TOL),
                      ('ODE2 accelerations', edges[2], edges[3], TOL_CONVERGED),
                      ('ODE1 coordinates', edges[3], edges[4], TOL),
                      ('ODE1 velocities', edges[4], edges[5], TOL),
                      ('AE coordinates', edges[5], edges[6], TOL_CONVERGED),
                      ('data coordinates', edges[6], edges[7], TOL)]
            report = []
            for name, a, b, tol in groups:
                if b <= a:
                    continue
                e = err[:, a:b]
                report.append(f'{name} {e.max():.2g}')
                if e.max() > tol:
                    i, j = np.unravel_index(int(e.argmax()), e.shape)
                    j += a
                    fail(f'{name}: row {i} (t = {ref[i, 0]}), column {j}: ours {data[i, j]!r}, '
                         f'Exudyn {ref[i, j]!r} (relative difference {err[i, j]:.3g} > {tol})')
        print(f'check_solution_file: {data.shape[0]} rows × {data.shape[1]} columns and '
              f'{len(ours_h)} header/footer lines match Exudyn {exu.__version__}\'s solution file '
              f'(largest differences relative to max(1, |value|): {", ".join(report)})')
    print('check_solution_file: OK')


if __name__ == '__main__':
    main()
