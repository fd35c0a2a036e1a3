"""Exudyn's Newton path of a model file, step by step: after each completed step the time and the
cumulative Newton iterations and Jacobian evaluations, as JSON rows [t, iterations, jacobians]
(the rows of `cargo run --release --example newton_steps -- MODEL.json`, to find the first step
where the two paths part).

Usage:  python3 tools/reference/exudyn_newton_steps.py MODEL.json > exudyn.json
Compare:
    python3 - <<'PY'
    import json
    e, o = json.load(open('exudyn.json')), json.load(open('ours.json'))
    k = next((k for k in range(min(len(e), len(o))) if e[k][1:] != o[k][1:]), None)
    print('same path' if k is None else ('first difference after step', k, o[k], e[k]))
    PY
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
# rebuild turns the JSON matrices of GenericODE2 and FFRF objects back into MatrixContainers and
# kinematic trees into their lists (model-format.md), so every model file of the corpus can be replayed
from exudyn_export import rebuild  # noqa: E402


def main():
    SC, mbs, settings = rebuild(json.load(open(sys.argv[1])))
    mbs.Assemble()
    rows = []

    # Called before each step, with the counts of the steps before it: row k is after step k.
    def pre_step(mbs, t):
        it = mbs.sys['dynamicSolver'].it
        rows.append([t, int(it.newtonStepsCount), int(it.newtonJacobiCount)])
        return True

    mbs.SetPreStepUserFunction(pre_step)
    mbs.SolveDynamic(settings)
    it = mbs.sys['dynamicSolver'].it
    rows.append([float(mbs.systemData.GetTime()), int(it.newtonStepsCount), int(it.newtonJacobiCount)])
    # the pre-step rows carry the step's end time; ours carry the completed step's: shift them
    times = [0.0] + [r[0] for r in rows[:-1]]
    print(json.dumps([[t] + r[1:] for t, r in zip(times, rows)]))


if __name__ == '__main__':
    main()
