"""Run one Exudyn script until its first solve; export that system and Exudyn's results, then stop.

    python3 export_first_solve.py SCRIPT MODEL.json STATUS.json     (run in the script's folder)

Used by measure.py. The first SolveDynamic/SolveStatic (as `mbs.Solve…`, `exu.Solve…` or
`exudyn.solver.Solve…`) writes MODEL.json (tools/exudyn_export.py), solves with Exudyn itself into
MODEL.ref.json, and ends the script. STATUS.json says what happened: exported, or why not.
Graphics are off (the suite's own `exudynTestGlobals.useGraphics = False`) and the renderer is
never started.
"""
import json
import os
import runpy
import sys
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..'))

import exudyn as exu  # noqa: E402
import exudyn.solver  # noqa: E402
from exudyn_export import model_dict, run_reference, solver_type_name  # noqa: E402

script, model_path, status_path = sys.argv[1:4]
ORIGINAL = {'dynamic': exudyn.solver.SolveDynamic, 'static': exudyn.solver.SolveStatic}


class FirstSolveDone(Exception):
    pass


def write_status(d):
    with open(status_path, 'w') as f:
        json.dump(d, f, indent=1)


def first_solve(kind):
    def solve(mbs, simulationSettings=None, solverType=None, *args, **kwargs):
        # restore first: run_reference solves with Exudyn's own functions
        exudyn.solver.SolveDynamic, exudyn.solver.SolveStatic = ORIGINAL['dynamic'], ORIGINAL['static']
        settings = simulationSettings if simulationSettings is not None else exu.SimulationSettings()
        if kind == 'static':
            solverType = None
        if kind == 'dynamic' and solverType is not None:
            # as SolveDynamic does for its run: the argument takes the setting's place
            settings.timeIntegration.solverType = solverType
        try:
            if not mbs.systemIsConsistent:
                mbs.Assemble()
            d = model_dict(mbs, settings, kind, solverType)
        except Exception as e:  # a refusal of the exporter (user functions, ...)
            write_status({'exported': False, 'reason': f'exporter: {e}'})
            raise FirstSolveDone()
        with open(model_path, 'w') as f:
            json.dump(d, f, indent=1)
        status = {'exported': True, 'solve': kind,
                  'solverType': solver_type_name(solverType, settings) if kind == 'dynamic' else None}
        try:
            run_reference(mbs, settings, model_path[:-5] + '.ref.json', solve=kind, case=os.path.basename(script),
                          solver_type=solverType)
        except Exception as e:
            status = {'exported': False, 'reason': f'Exudyn failed to solve: {e}'}
        write_status(status)
        raise FirstSolveDone()
    return solve


def no_op(*args, **kwargs):
    return True


for kind, name in [('dynamic', 'SolveDynamic'), ('static', 'SolveStatic')]:
    f = first_solve(kind)
    setattr(exudyn.solver, name, f)
    setattr(exu, name, f)
    setattr(exu.MainSystem, name, f)
exu.StartRenderer = no_op
exu.StopRenderer = no_op
exu.SystemContainer.WaitForRenderEngineStopFlag = no_op
exu.MainSystem.WaitForUserToContinue = no_op
sys.path.insert(0, os.getcwd())
sys.path.insert(0, os.path.join(os.getcwd(), '..'))  # MiniExamples import modelUnitTests from TestModels
try:
    import modelUnitTests
    modelUnitTests.exudynTestGlobals.useGraphics = False
except Exception:
    pass


def compat_globals():
    """Names that older TestModels (e.g. Exudyn 1.11's) take from star imports that pip Exudyn
    1.13.6 no longer provides: numpy and math functions, the old GraphicsData* helpers, the beam
    generators and basicUtilities' vector helpers. Only added, never changing what the script
    defines itself."""
    import math
    import numpy as np
    import exudyn.basicUtilities as bu
    import exudyn.beams
    import exudyn.graphicsDataUtilities as gdu
    g = {k: getattr(math, k) for k in dir(math) if not k.startswith('_')}
    g.update({k: getattr(gdu, k) for k in dir(gdu) if k.startswith('GraphicsData') or k == 'RefineMesh'})
    g.update({k: getattr(exudyn.beams, k) for k in dir(exudyn.beams) if k.startswith('Generate')})
    vector = {'VAdd': lambda a, b: list(np.add(a, b)), 'VSub': lambda a, b: list(np.subtract(a, b)),
              'VMult': lambda a, b: float(np.dot(a, b)), 'ScalarMult': lambda s, v: list(s * np.asarray(v)),
              'NormL2': lambda v: float(np.linalg.norm(v)), 'Normalize': lambda v: list(np.asarray(v) / np.linalg.norm(v))}
    for k, f in vector.items():
        if not hasattr(bu, k):
            setattr(bu, k, f)
        g[k] = getattr(bu, k)
    g.update({'np': np, 'exudyn': exu, 'exu': exu})
    return g


sys.argv = [script]
try:
    runpy.run_path(script, init_globals=compat_globals(), run_name='__main__')
    write_status({'exported': False, 'reason': 'the script ended without a solve'})
except FirstSolveDone:
    pass
except SystemExit:
    write_status({'exported': False, 'reason': 'the script exited before its first solve'})
except BaseException as e:
    tb = traceback.format_exception_only(type(e), e)[-1].strip()
    write_status({'exported': False, 'reason': f'the script failed before its first solve: {tb}'[:300]})
