"""Per-step solver time of jointsim and of Exudyn (from the reference files) for reference
cases, best of N runs of jointsim. Usage (from the repository root, after
`cargo build --release -p jointsim`):

    python3 tools/bench/case_step_times.py [--runs 5] CASE.json ...
"""
import argparse
import json
import os
import subprocess
import tempfile

parser = argparse.ArgumentParser()
parser.add_argument('--runs', type=int, default=5)
parser.add_argument('cases', nargs='+')
args = parser.parse_args()
exe = os.path.join('target', 'release', 'jointsim')
print(f"{'case':45s} {'ODE2':>5s} {'AE':>4s} {'steps':>6s} {'ours µs/step':>13s} {'Exudyn µs/step':>15s} {'ratio':>6s}")
for case in args.cases:
    ref = json.load(open(case.replace('.json', '.ref.json')))
    best = None
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, 'r.json')
        for _ in range(args.runs):
            subprocess.run([exe, 'run', case, '--out', out, '--quiet'], check=True)
            r = json.load(open(out))
            t = r['statistics']['solverSeconds']
            best = t if best is None else min(best, t)
    steps = max(1, r['statistics']['steps'])
    ours = best / steps * 1e6
    theirs = ref['statistics']['solverSeconds'] / steps * 1e6
    name = os.path.basename(case)[:-5]
    print(f"{name:45s} {len(r['ode2Coordinates']):5d} {len(r['aeCoordinates']):4d} {steps:6d} {ours:13.2f} {theirs:15.2f} {theirs / ours:6.1f}")
