"""How many of Exudyn's own TestModels jointsim runs and matches: the external measure of issue 19.

    python3 tools/testmodels/measure.py --scripts DIR [--out /tmp/testmodels] [--jointsim PATH]

DIR is Exudyn's `main/pythonDev/TestModels` (with its `MiniExamples`), e.g. from a checkout of
github.com/jgerstmayr/EXUDYN. Nothing of those scripts is copied into this repository: each is
run here, in its own process, with pip Exudyn 1.13.6 (`export_first_solve.py`); at its first
SolveDynamic/SolveStatic the system is written as a model file (tools/exudyn_export.py, with the
solver type the script asked for) and solved by Exudyn, whose results are written beside it; the
script then stops. jointsim then checks and runs every exported model, and the final ODE2
coordinates and velocities are compared with Exudyn's (scaled errors, the reference tests'
tolerances 1e-8 and 1e-6), iteration counts reported beside them.

Prints one line per script and the table of first errors; writes OUT/summary.json.
"""
import argparse
import collections
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOL_ODE2 = 1e-8
TOL_VELOCITY = 1e-6


def scripts_in(directory):
    out = []
    for sub in ['', 'MiniExamples']:
        d = os.path.join(directory, sub)
        for name in sorted(os.listdir(d)):
            if name.endswith('.py') and name not in SKIP:
                out.append(os.path.join(d, name))
    return out


# Drivers of the suite itself, not models.
SKIP = {'runTestSuite.py', 'runTestSuiteRefSol.py', 'runUnitTests.py', 'runTestExamples.py',
        'runPerformanceTests.py', 'modelUnitTests.py', 'miniExamplesFileList.py', 'allExudynModulesTest.py'}


def export(script, out_dir, timeout):
    name = os.path.splitext(os.path.basename(script))[0]
    if 'MiniExamples' in script:
        name = 'mini_' + name
    model = os.path.join(out_dir, name + '.json')
    status = os.path.join(out_dir, name + '.status.json')
    if not os.path.exists(status):
        try:
            subprocess.run([sys.executable, os.path.join(HERE, 'export_first_solve.py'), script, model, status],
                           cwd=os.path.dirname(script), timeout=timeout, capture_output=True)
        except subprocess.TimeoutExpired:
            with open(status, 'w') as f:
                json.dump({'exported': False, 'reason': f'timeout after {timeout} s'}, f)
        if not os.path.exists(status):
            with open(status, 'w') as f:
                json.dump({'exported': False, 'reason': 'the script failed before its first solve'}, f)
    with open(status) as f:
        return name, model, json.load(f)


def scaled_error(ours, ref):
    if len(ours) != len(ref):
        return float('inf')
    return max([abs(a - b) / max(1.0, abs(b)) for a, b in zip(ours, ref)] or [0.0])


def run_jointsim(jointsim, model, timeout):
    check = subprocess.run([jointsim, 'check', model], capture_output=True, text=True)
    if check.returncode != 0:
        return {'accepted': False, 'error': check.stderr.strip().splitlines()[-1] if check.stderr.strip() else '?'}
    out = model[:-5] + '.jointsim.json'
    try:
        run = subprocess.run([jointsim, 'run', model, '--quiet', '--out', out], capture_output=True, text=True,
                             timeout=timeout)
    except subprocess.TimeoutExpired:
        return {'accepted': True, 'ran': False, 'error': f'timeout after {timeout} s'}
    if run.returncode != 0:
        return {'accepted': True, 'ran': False, 'error': run.stderr.strip().splitlines()[-1] if run.stderr.strip() else '?'}
    with open(out) as f:
        ours = json.load(f)
    with open(model[:-5] + '.ref.json') as f:
        ref = json.load(f)
    eq = scaled_error(ours['ode2Coordinates'], ref['ode2Coordinates'])
    ev = scaled_error(ours['ode2Velocities'], ref['ode2Velocities'])
    if 'ode1Coordinates' in ref:
        # first-order coordinates count as coordinates, their velocities as velocities
        eq = max(eq, scaled_error(ours.get('ode1Coordinates', []), ref['ode1Coordinates']))
        ev = max(ev, scaled_error(ours.get('ode1Velocities', []), ref['ode1Velocities']))
    its = (ours['statistics'].get('newtonIterations'), ref['statistics'].get('newtonIterations'))
    # Exudyn's counts (steps of dynamic solves: its static solver counts load steps otherwise)
    with open(model) as f:
        dynamic = json.load(f).get('solve', 'dynamic') == 'dynamic'
    keys = ['newtonIterations', 'jacobianEvaluations'] + (['steps'] if dynamic else [])
    counts = all(ours['statistics'].get(k) == ref['statistics'].get(k) for k in keys)
    return {'accepted': True, 'ran': True, 'errorQ': eq, 'errorV': ev, 'iterations': its,
            'matches': eq <= TOL_ODE2 and ev <= TOL_VELOCITY and counts,
            'matchesResults': eq <= TOL_ODE2 and ev <= TOL_VELOCITY}


def first_line_kind(error):
    """A short key of a jointsim error for the table: the item type and what is refused."""
    import re
    error = re.sub(r'^jointsim: error: ', '', error)
    error = re.sub(r' \(supported: .*', '', error)
    error = re.sub(r'\[\d+\]', '[i]', error)
    return re.sub(r' \(supported: .*', '', error)[:120]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--scripts', required=True, help="Exudyn's main/pythonDev/TestModels")
    ap.add_argument('--out', default='/tmp/testmodels')
    ap.add_argument('--jointsim', default=os.path.join(HERE, '..', '..', 'target', 'release', 'jointsim'))
    ap.add_argument('--timeout', type=float, default=600)
    ap.add_argument('--only', help='comma-separated script names (without .py)')
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    scripts = scripts_in(args.scripts)
    if args.only:
        keep = set(args.only.split(','))
        scripts = [s for s in scripts if os.path.splitext(os.path.basename(s))[0] in keep]
    rows = []
    for script in scripts:
        name, model, status = export(script, args.out, args.timeout)
        row = {'name': name, **status}
        if status.get('exported'):
            row.update(run_jointsim(args.jointsim, model, args.timeout))
        rows.append(row)
        if not row.get('exported'):
            what = 'not exported: ' + row.get('reason', '?')
        elif not row['accepted']:
            what = 'refused: ' + row['error']
        elif not row['ran']:
            what = 'failed: ' + row['error']
        else:
            what = (('matches' if row['matches'] else
                     'matches results, not counts' if row['matchesResults'] else 'differs') +
                    f" (q {row['errorQ']:.1e}, v {row['errorV']:.1e}, iterations {row['iterations'][0]} / Exudyn {row['iterations'][1]})")
        print(f'{name:50s} {what[:200]}', flush=True)
    exported = [r for r in rows if r.get('exported')]
    accepted = [r for r in exported if r['accepted']]
    ran = [r for r in accepted if r['ran']]
    matches = [r for r in ran if r['matches']]
    results = [r for r in ran if r['matchesResults']]
    print(f'\n{len(rows)} scripts, {len(exported)} exported, {len(accepted)} accepted, {len(ran)} ran, '
          f'{len(results)} match Exudyn\'s results, {len(matches)} also its counts')
    firsts = collections.Counter(first_line_kind(r['error']) for r in exported if not r['accepted'])
    print('\nfirst refusals:')
    for k, n in firsts.most_common():
        print(f'{n:4d}  {k}')
    with open(os.path.join(args.out, 'summary.json'), 'w') as f:
        json.dump(rows, f, indent=1)


if __name__ == '__main__':
    main()
