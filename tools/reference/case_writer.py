"""What the reference-case scripts share: simulation settings for a case, and writing a case
(the model file and Exudyn's results) into tests/reference/own_cases/."""
import os
import sys

import exudyn as exu

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..'))
from exudyn_export import export, run_reference  # noqa: E402

OUT = os.path.join(os.path.dirname(__file__), '..', '..', 'tests', 'reference', 'own_cases')


def settings(steps=500, end=0.5):
    """Dynamic settings: `steps` steps to `end`, sensors every 0.01, no solution file."""
    s = exu.SimulationSettings()
    s.timeIntegration.numberOfSteps = steps
    s.timeIntegration.endTime = end
    s.timeIntegration.verboseMode = 0
    s.staticSolver.verboseMode = 0
    s.solutionSettings.writeSolutionToFile = False
    s.solutionSettings.sensorsWritePeriod = 0.01
    return s


def write(name, mbs, s, solve='dynamic', solver_type=None):
    """Assemble, export NAME.json, solve with Exudyn (with SolveDynamic's `solverType`, if
    given) and write NAME.ref.json."""
    os.makedirs(OUT, exist_ok=True)
    mbs.Assemble()
    export(mbs, s, os.path.join(OUT, name + '.json'), solve=solve, solver_type=solver_type)
    r = run_reference(mbs, s, os.path.join(OUT, name + '.ref.json'), solve=solve, case=name,
                      solver_type=solver_type)
    print(name, r['statistics']['newtonIterations'], r['statistics']['jacobianEvaluations'])
