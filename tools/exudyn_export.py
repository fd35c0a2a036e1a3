"""Export a live Exudyn system as a model file of this project, and write Exudyn's own results
in our result format (see ../shared/spec/model-format.md, README "Exudyn users").

    from exudyn_export import export, run_reference
    export(mbs, simulationSettings, 'model.json', solve='dynamic')      # after mbs.Assemble()
    run_reference(mbs, simulationSettings, 'model.ref.json', solve='dynamic', case='name')

`export` writes Exudyn's item dictionaries (mbs.GetNode(i), ...) and
simulationSettings.GetDictionary() as JSON. `run_reference` solves with Exudyn and writes the
final coordinates, every sensor's stored rows (storeInternal=True is needed) and the solver
statistics. Both need pip Exudyn 1.13.6.
"""
import json
import time

import numpy as np
import exudyn as exu


def _plain(value):
    """Exudyn values as JSON values: numpy arrays as lists, enums as member names, indices as ints."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, np.ndarray):
        return _plain(value.tolist())
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        return float(value)
    if isinstance(value, str):
        return value
    if value is None:
        return 0
    if isinstance(value, (exu.Matrix3DList, exu.Vector3DList)):
        # iterating these runs past their end; their Python object is a list of arrays
        return _plain(value.GetPythonObject())
    if isinstance(value, exu.MatrixContainer):
        # dense: array of rows; sparse: {numberOfRows, numberOfColumns, triplets}; empty: []
        obj = value.GetPythonObject()
        if isinstance(obj, dict):
            return {'numberOfRows': int(obj['numberOfRows']), 'numberOfColumns': int(obj['numberOfColumns']),
                    'triplets': [[int(r), int(c), float(v)] for r, c, v in np.asarray(obj['triplets']).reshape(-1, 3)]}
        arr = np.asarray(obj)
        return [] if arr.size == 0 else _plain(arr)
    if callable(value):
        return 'user function'
    name = str(value)
    if '.' in name:  # exu.OutputVariableType.Position, LinearSolverType.EXUdense, ...
        return name.split('.')[-1]
    try:
        return int(value)  # NodeIndex, ObjectIndex, MarkerIndex, ...
    except (TypeError, ValueError):
        return name


# The system-level Python user functions (mbs.Set…UserFunction): code, which a model file cannot
# hold. Item-level user functions are exported as the string 'user function', which the reader
# refuses with the item and key.
SYSTEM_USER_FUNCTIONS = ['PreStep', 'PostStep', 'PostNewton', 'PreNewtonResidual', 'SystemJacobian']


def check_no_system_user_functions(mbs):
    """Refuse a system with a Python user function set on the system itself, naming it, and a
    system with a GeneralContact (mbs.AddGeneralContact), which is not an item and would be
    silently missing from the file."""
    if mbs.NumberOfGeneralContacts() != 0:
        raise ValueError(f'the system has {mbs.NumberOfGeneralContacts()} GeneralContact(s) (mbs.AddGeneralContact): '
                         'they are not items and a model file cannot hold them')
    for name in SYSTEM_USER_FUNCTIONS:
        if getattr(mbs, 'Get' + name + 'UserFunction')() != 0:
            raise ValueError(f'the system has a {name} user function (mbs.Set{name}UserFunction): '
                             'Python code cannot travel in a model file; export a system without it')


def solver_type_name(solver_type, simulationSettings=None):
    """Exudyn's DynamicSolverType member name of the solver SolveDynamic runs: its `solverType`
    argument, or for None the settings' timeIntegration.solverType (default GeneralizedAlpha)."""
    if solver_type is None:
        if simulationSettings is None:
            return 'GeneralizedAlpha'
        solver_type = simulationSettings.timeIntegration.solverType
    return str(solver_type).split('.')[-1]


def model_dict(mbs, simulationSettings, solve='dynamic', solver_type=None):
    """The model file's dictionary; `solver_type` is SolveDynamic's `solverType` (a dynamic solve
    writes it as `dynamicSolverType`)."""
    check_no_system_user_functions(mbs)
    d = {
        'nodes': [_plain(mbs.GetNode(i)) for i in range(mbs.systemData.NumberOfNodes())],
        'objects': [_plain(mbs.GetObject(i)) for i in range(mbs.systemData.NumberOfObjects())],
        'markers': [_plain(mbs.GetMarker(i)) for i in range(mbs.systemData.NumberOfMarkers())],
        'loads': [_plain(mbs.GetLoad(i)) for i in range(mbs.systemData.NumberOfLoads())],
        'sensors': [_plain(mbs.GetSensor(i)) for i in range(mbs.systemData.NumberOfSensors())],
        'simulationSettings': _plain(simulationSettings.GetDictionary()),
        'solve': solve,
    }
    if solve == 'dynamic':
        d['dynamicSolverType'] = solver_type_name(solver_type, simulationSettings)
    return d


def export(mbs, simulationSettings, path, solve='dynamic', solver_type=None):
    """Write the model file of the assembled system `mbs`."""
    d = model_dict(mbs, simulationSettings, solve, solver_type)  # before opening: a refusal leaves no file
    with open(path, 'w') as f:
        json.dump(d, f, indent=1)


def run_reference(mbs, simulationSettings, path, solve='dynamic', case='', extra=None, solver_type=None):
    """Solve with Exudyn and write its results in our result format (sensors: those that store
    their rows internally)."""
    import exudyn.solver
    start = time.perf_counter()
    if solve == 'static':
        exudyn.solver.SolveStatic(mbs, simulationSettings)
        solver = mbs.sys['staticSolver']
    else:
        exudyn.solver.SolveDynamic(mbs, simulationSettings, solverType=solver_type)
        solver = mbs.sys['dynamicSolver']
    seconds = time.perf_counter() - start
    it = solver.it
    sensors = []
    for i in range(mbs.systemData.NumberOfSensors()):
        s = mbs.GetSensor(i)
        if not s.get('storeInternal', False):
            continue
        sensors.append({
            'index': i,
            'name': s['name'],
            'outputVariableType': _plain(s.get('outputVariableType', 'Force')),
            'values': mbs.GetSensorStoredData(i).tolist(),
        })
    result = {
        'time': float(mbs.systemData.GetTime()),
        'ode2Coordinates': list(mbs.systemData.GetODE2Coordinates()),
        'ode2Velocities': list(mbs.systemData.GetODE2Coordinates_t()),
        'ode2Accelerations': list(mbs.systemData.GetODE2Coordinates_tt()),
        'aeCoordinates': list(mbs.systemData.GetAECoordinates()),
        'sensors': sensors,
        'statistics': {
            'steps': int(it.currentStepIndex) - 1 if solve != 'static' else None,
            'newtonIterations': int(it.newtonStepsCount),
            'jacobianEvaluations': int(it.newtonJacobiCount),
            'rejectedModifiedNewtonSteps': int(it.rejectedModifiedNewtonSteps),
            'rejectedAutomaticStepSizeSteps': int(it.rejectedAutomaticStepSizeSteps),
            'lastStepSize': float(it.currentStepSize),
            'solverSeconds': seconds,
        },
        'case': case,
    }
    if mbs.systemData.GetODE1Coordinates().size:
        result['ode1Coordinates'] = list(mbs.systemData.GetODE1Coordinates())
        result['ode1Velocities'] = list(mbs.systemData.GetODE1Coordinates_t())
    if extra:
        result.update(extra)
    with open(path, 'w') as f:
        json.dump(_plain(result), f, indent=1)
    return result


def settings_from_dict(d):
    """exu.SimulationSettings from a model file's `simulationSettings` (enum members as names)."""
    s = exu.SimulationSettings()
    default = s.GetDictionary()

    def conv(dd, default):
        out = {}
        for k, v in dd.items():
            dv = default[k]
            if isinstance(dv, dict):
                out[k] = conv(v, dv)
            elif isinstance(v, str) and not isinstance(dv, str):  # enum member name
                out[k] = getattr(type(dv), v.split('.')[-1])
            else:
                out[k] = v
        return out
    s.SetDictionary(conv(d, default))
    return s


# ------------------------------------------------------------------------------------------------
# reading a model file back into Exudyn (the inverse of export)

MATRIX_KEYS = ('massMatrix', 'stiffnessMatrix', 'dampingMatrix', 'massMatrixReduced', 'stiffnessMatrixReduced',
               'dampingMatrixReduced')
KINEMATIC_TREE_M3_KEYS = ('jointTransformations', 'linkInertiasCOM')
KINEMATIC_TREE_V3_KEYS = ('jointOffsets', 'linkCOMs', 'linkForces', 'linkTorques')


def json_mc(v):
    """The JSON value of a MatrixContainer back as an exudyn.MatrixContainer."""
    import numpy as np
    mc = exu.MatrixContainer()
    if isinstance(v, dict):
        mc.SetWithSparseMatrixCSR(v['numberOfRows'], v['numberOfColumns'], [list(t) for t in v['triplets']],
                                  useDenseMatrix=False)
    elif len(v) > 0:
        mc.SetWithDenseMatrix(np.array(v, dtype=float), useDenseMatrix=True)
    return mc


def tree_from_json(d):
    """JSON dict of a KinematicTree back to what AddObject accepts."""
    import numpy as np
    d['jointTypes'] = [getattr(exu.JointType, t) for t in d['jointTypes']]
    for k in KINEMATIC_TREE_M3_KEYS:
        d[k] = exu.Matrix3DList([np.array(x, dtype=float) for x in d[k]])
    for k in KINEMATIC_TREE_V3_KEYS:
        d[k] = exu.Vector3DList([list(map(float, x)) for x in d[k]])
    d['jointHTs'] = [np.array(x, dtype=float) for x in d['jointHTs']]
    return d


def rebuild(model, assemble=False):
    """(SystemContainer, system, SimulationSettings) from a model file's dictionaries: every item
    kind the corpus holds (matrix containers of GenericODE2 and FFRF objects, kinematic trees,
    sensors' output variable names), assembled if asked."""
    import copy
    OVT = exu.OutputVariableType
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    for d in model['nodes']:
        mbs.AddNode(copy.deepcopy(d))
    for d in model['objects']:
        d = copy.deepcopy(d)
        d.pop('VgraphicsData', None)  # [{'graphicsData': '<not requested>'}] is rejected by AddObject
        for key in MATRIX_KEYS:
            if key in d:
                d[key] = json_mc(d[key])
        if 'outputVariableTypeModeBasis' in d:
            d['outputVariableTypeModeBasis'] = getattr(OVT, d['outputVariableTypeModeBasis'].split('.')[-1])
        if d['objectType'] == 'KinematicTree':
            d = tree_from_json(d)
        mbs.AddObject(d)
    for d in model['markers']:
        mbs.AddMarker(copy.deepcopy(d))
    for d in model['loads']:
        mbs.AddLoad(copy.deepcopy(d))
    for d in model['sensors']:
        d = copy.deepcopy(d)
        if 'outputVariableType' in d:
            d['outputVariableType'] = getattr(OVT, d['outputVariableType'].split('.')[-1])
        mbs.AddSensor(d)
    if assemble:
        mbs.Assemble()
    return SC, mbs, settings_from_dict(model['simulationSettings'])
