"""Largest scaled errors per reference case against Exudyn, from the reference tests' report.

    cargo test --release --test reference_cases -- --nocapture --test-threads 1 2>&1 | python3 tools/agreement_table.py
"""
import re
import sys

rows = {}
case = None
keys = ['ode2Coordinates', 'ode2Velocities', 'aeCoordinates', 'sensor values', 'sensor values (Force)']
for line in sys.stdin:
    m = re.match(r'(\S+): largest errors', line)
    if m:
        case = m.group(1)
        rows.setdefault(case, {})
        continue
    m = re.match(r'\s+(ode2Coordinates|ode2Velocities|aeCoordinates|sensor values \(Force\)|sensor values): ([0-9.e+-]+)', line)
    if m and case:
        rows[case][m.group(1)] = float(m.group(2))
print('| case | ODE2 q | velocities | AE | sensors | Force sensors |')
print('|---|---|---|---|---|---|')
for c in sorted(rows):
    r = rows[c]
    print(f"| {c} | " + ' | '.join(f"{r.get(k, 0):.1e}" for k in keys) + ' |')
