"""Exudyn 1.13.6 reference cases for ObjectKinematicTree (+ NodeGenericODE2) and MarkerKinematicTreeRigid:
serial, prismatic and branched trees, P/D control with offsets, jointForceVector, linkForces/linkTorques,
loads on tree markers, closed loops (spherical joints to ground, to rigid bodies / mass points, between two
trees), a static solve and a 20-link chain for timing.

Writes tests/reference/own_cases/kt_NAME.json (model) and kt_NAME.ref.json (Exudyn's results).
Run from the repository root:  python3 tools/reference/make_kinematic_tree_cases.py

Notes on the written files:
* exudyn_export._plain does not know exudyn.Matrix3DList / Vector3DList (it writes the tail of their repr, a
  string such as "]])]"). After export() every such value (jointTransformations, jointOffsets, linkInertiasCOM,
  linkCOMs, linkForces, linkTorques) is rewritten here from the live mbs.GetObject dict as plain lists, in the
  shape of the public case tests/reference/exudyn_cases/kinematic_tree_tip.json:
      jointTypes            list of n strings ("RevoluteX" ... "PrismaticZ")
      linkParents           list of n ints (-1 = base)
      jointTransformations  list of n 3x3 (array of rows)
      jointOffsets          list of n 3-vectors
      jointHTs              list of n 4x4 (array of rows) = HT(jointTransformations[i], jointOffsets[i])
      linkInertiasCOM       list of n 3x3
      linkCOMs              list of n 3-vectors
      linkMasses            list of n floats
      linkForces/linkTorques  [] or list of n 3-vectors
      jointForceVector, jointPositionOffsetVector, jointVelocityOffsetVector, jointPControlVector,
      jointDControlVector   [] or list of n floats
  (jointTypes and jointHTs are written correctly by export(); they are rewritten as well so that the file does
  not depend on that.)
* roundtrip_check() rebuilds each model from the written JSON dicts alone in a fresh Exudyn system (converting
  the JSON values back: jointTypes -> exu.JointType, 3x3 lists -> exu.Matrix3DList, 3-vector lists ->
  exu.Vector3DList, outputVariableType names -> exu.OutputVariableType), solves it again and asserts
  bit-identical final ODE2/AE coordinates and sensor data.
* Exudyn 1.13.6 has SensorKinematicTree (objectNumber, linkNumber, localPosition, outputVariableType); it
  accepts Position, Displacement, Velocity, VelocityLocal, Acceleration, AccelerationLocal, RotationMatrix,
  Rotation, AngularVelocity, AngularVelocityLocal, AngularAcceleration, AngularAccelerationLocal.
  SensorObject on an ObjectKinematicTree is rejected by Exudyn ("cannot be attached to a body. Use SensorBody
  instead"), and mbs.GetObjectOutput on the tree raises "illegal call to CObject::GetOutputVariable".
"""
import copy
import json
import os
import sys

import numpy as np
import exudyn as exu
from exudyn.itemInterface import *
from exudyn.utilities import *

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..'))
from exudyn_export import (export, settings_from_dict, run_reference, rebuild, tree_from_json,  # noqa: E402,F401
                           KINEMATIC_TREE_M3_KEYS, KINEMATIC_TREE_V3_KEYS)

OUT = os.path.join(os.path.dirname(__file__), '..', '..', 'tests', 'reference', 'own_cases')
PUBLIC = os.path.join(os.path.dirname(__file__), '..', '..', 'tests', 'reference', 'exudyn_cases',
                      'kinematic_tree_tip.json')
os.makedirs(OUT, exist_ok=True)
OVT = exu.OutputVariableType
JT = exu.JointType
REF = exu.ConfigurationType.Reference
INIT = exu.ConfigurationType.Initial
SUMMARY = []
KT_SHAPES = {}

RIGID_MARKER_OUTPUTS = [OVT.Position, OVT.Velocity, OVT.Rotation, OVT.RotationMatrix, OVT.AngularVelocity,
                        OVT.AngularVelocityLocal]
KT_SENSOR_OUTPUTS = [OVT.Position, OVT.Displacement, OVT.Velocity, OVT.VelocityLocal, OVT.RotationMatrix,
                     OVT.Rotation, OVT.AngularVelocity, OVT.AngularVelocityLocal]
KT_SENSOR_ACC_OUTPUTS = [OVT.Acceleration, OVT.AccelerationLocal, OVT.AngularAcceleration,
                         OVT.AngularAccelerationLocal]


# ------------------------------------------------------------------------------------------------
# generic helpers

def new_system():
    SC = exu.SystemContainer()
    return SC, SC.AddSystem()


def settings(steps=500, end=0.5):
    s = exu.SimulationSettings()
    s.timeIntegration.numberOfSteps = steps
    s.timeIntegration.endTime = end
    s.timeIntegration.verboseMode = 0
    s.staticSolver.verboseMode = 0
    s.solution.file.write = False
    s.solution.sensors.writePeriod = 0.01
    return s


def sensors(mbs, nodes=(), objects=(), markers=(), loads=(), trees=()):
    for n, v in nodes:
        mbs.AddSensor(SensorNode(nodeNumber=n, outputVariableType=v, storeInternal=True, writeToFile=False))
    for o, v in objects:
        mbs.AddSensor(SensorObject(objectNumber=o, outputVariableType=v, storeInternal=True, writeToFile=False))
    for m, v in markers:
        mbs.AddSensor(SensorMarker(markerNumber=m, outputVariableType=v, storeInternal=True, writeToFile=False))
    for l in loads:
        mbs.AddSensor(SensorLoad(loadNumber=l, storeInternal=True, writeToFile=False))
    for o, link, p, v in trees:
        mbs.AddSensor(SensorKinematicTree(objectNumber=o, linkNumber=link, localPosition=list(p),
                                          outputVariableType=v, storeInternal=True, writeToFile=False))


def marker_pos(mbs, m, configuration=REF):
    mbs.Assemble()
    return np.array(mbs.GetMarkerOutput(m, OVT.Position, configuration=configuration))


def marker_rot(mbs, m, configuration=REF):
    mbs.Assemble()
    return np.array(mbs.GetMarkerOutput(m, OVT.RotationMatrix, configuration=configuration)).reshape(3, 3)


def marker_vel(mbs, m):
    mbs.Assemble()
    return np.array(mbs.GetMarkerOutput(m, OVT.Velocity, configuration=INIT))


def ground_point(mbs, ground, m, rigid=False):
    """A ground marker (ground at the origin, unrotated) at the reference position of marker m."""
    p = list(marker_pos(mbs, m))
    if rigid:
        return mbs.AddMarker(MarkerBodyRigid(bodyNumber=ground, localPosition=p))
    return mbs.AddMarker(MarkerBodyPosition(bodyNumber=ground, localPosition=p))


def tree_jacobian(mbs, node, m, n):
    """Position Jacobian (3 x n) of marker m w.r.t. the tree's velocities in the initial configuration,
    column j = marker velocity for q_t = e_j (the velocity is linear in q_t)."""
    saved = np.array(mbs.GetNodeParameter(node, 'initialCoordinates_t'), dtype=float)
    cols = []
    for j in range(n):
        e = np.zeros(n)
        e[j] = 1.
        mbs.SetNodeParameter(node, 'initialCoordinates_t', list(e))
        cols.append(marker_vel(mbs, m))
    mbs.SetNodeParameter(node, 'initialCoordinates_t', list(saved))
    mbs.Assemble()
    return np.array(cols).T


def null_space(J, tol=1e-10):
    u, s, vt = np.linalg.svd(J)
    rank = int(np.sum(s > tol * max(1., s[0])))
    return vt[rank:].T, rank


def set_tree_velocity(mbs, node, v):
    mbs.SetNodeParameter(node, 'initialCoordinates_t', [float(x) for x in v])
    mbs.Assemble()


def bar_inertia(m, L, w=0.08, axis=0, R=None):
    """Inertia about the COM of a slender box of length L along `axis` and square section w (link coords),
    optionally rotated (R J R^T) to get off-diagonal terms."""
    d = np.full(3, m * (L * L + w * w) / 12.)
    d[axis] = m * 2 * w * w / 12.
    J = np.diag(d)
    if R is not None:
        J = R @ J @ R.T
    return J


def add_tree(mbs, types, parents, A, offsets, masses, coms, inertias, qref, q0=None, v0=None, **kw):
    """NodeGenericODE2 + ObjectKinematicTree; kw: gravity, baseOffset, jointForceVector,
    jointPositionOffsetVector, jointVelocityOffsetVector, jointPControlVector, jointDControlVector,
    linkForces, linkTorques (lists of 3-vectors)."""
    n = len(types)
    assert all(len(x) == n for x in (parents, A, offsets, masses, coms, inertias, qref))
    node = mbs.AddNode(NodeGenericODE2(referenceCoordinates=[float(x) for x in qref],
                                       initialCoordinates=[float(x) for x in (q0 if q0 is not None else [0.] * n)],
                                       initialCoordinates_t=[float(x) for x in (v0 if v0 is not None else [0.] * n)],
                                       numberOfODE2Coordinates=n))
    for key in ('linkForces', 'linkTorques'):
        if key in kw:
            kw[key] = exu.Vector3DList([list(map(float, x)) for x in kw[key]])
    obj = mbs.AddObject(ObjectKinematicTree(
        nodeNumber=node, jointTypes=[getattr(JT, t) for t in types], linkParents=list(parents),
        jointTransformations=exu.Matrix3DList([np.array(a, dtype=float) for a in A]),
        jointOffsets=exu.Vector3DList([list(map(float, o)) for o in offsets]),
        linkInertiasCOM=exu.Matrix3DList([np.array(J, dtype=float) for J in inertias]),
        linkCOMs=exu.Vector3DList([list(map(float, c)) for c in coms]),
        linkMasses=[float(m) for m in masses], **kw))
    return node, obj


def kt_marker(mbs, obj, link, p=(0, 0, 0)):
    return mbs.AddMarker(MarkerKinematicTreeRigid(objectNumber=obj, linkNumber=link, localPosition=list(p)))


def sp_joint(mbs, m0, m1, axes=(1, 1, 1)):
    return mbs.AddObject(ObjectJointSpherical(markerNumbers=[m0, m1], constrainedAxes=list(axes)))


# ------------------------------------------------------------------------------------------------
# Matrix3DList / Vector3DList / JointType <-> JSON

M3_KEYS, V3_KEYS = KINEMATIC_TREE_M3_KEYS, KINEMATIC_TREE_V3_KEYS
KT_KEYS = ('jointTypes', 'jointHTs') + M3_KEYS + V3_KEYS


def kt_json(key, value):
    """A KinematicTree value as plain JSON (lists of floats; joint types as member names)."""
    if isinstance(value, (exu.Matrix3DList, exu.Vector3DList)):
        return [np.asarray(x, dtype=float).tolist() for x in value.GetPythonObject()]
    if key == 'jointTypes':
        return [str(t).split('.')[-1] for t in value]
    if key == 'jointHTs':
        return [np.asarray(x, dtype=float).tolist() for x in value]
    raise TypeError('%s: %s' % (key, type(value)))


def shape_of(v):
    if isinstance(v, list):
        if not v:
            return '[]'
        inner = shape_of(v[0])
        assert all(shape_of(x) == inner for x in v), v
        return '%d x (%s)' % (len(v), inner)
    return type(v).__name__


def fix_kinematic_trees(mbs, path):
    """Rewrite the Matrix3DList / Vector3DList (and jointTypes / jointHTs) values of every item from the live
    dicts; returns {object index: {key: shape}}."""
    with open(path) as f:
        model = json.load(f)
    shapes = {}
    for section, get, n in (('nodes', mbs.GetNode, mbs.systemData.NumberOfNodes()),
                            ('objects', mbs.GetObject, mbs.systemData.NumberOfObjects()),
                            ('markers', mbs.GetMarker, mbs.systemData.NumberOfMarkers()),
                            ('loads', mbs.GetLoad, mbs.systemData.NumberOfLoads()),
                            ('sensors', mbs.GetSensor, mbs.systemData.NumberOfSensors())):
        for i in range(n):
            d = get(i)
            for key, value in d.items():
                if isinstance(value, (exu.Matrix3DList, exu.Vector3DList)) or \
                        (d.get('objectType') == 'KinematicTree' and key in KT_KEYS):
                    model[section][i][key] = kt_json(key, value)
            if d.get('objectType') == 'KinematicTree':
                o = model[section][i]
                nl = len(o['linkParents'])
                shapes[i] = {k: shape_of(o[k]) for k in o if isinstance(o[k], list)}
                # the JSON shape of the public case
                assert all(isinstance(t, str) and t in JT.__members__ for t in o['jointTypes'])
                for k in M3_KEYS:
                    assert np.array(o[k]).shape == (nl, 3, 3), (k, np.array(o[k]).shape)
                for k in ('jointOffsets', 'linkCOMs'):
                    assert np.array(o[k]).shape == (nl, 3), k
                for k in ('linkForces', 'linkTorques'):
                    assert o[k] == [] or np.array(o[k]).shape == (nl, 3), k
                assert np.array(o['jointHTs']).shape == (nl, 4, 4)
                for a, off, ht in zip(o['jointTransformations'], o['jointOffsets'], o['jointHTs']):
                    assert np.array_equal(np.array(ht)[:3, :3], a) and np.array_equal(np.array(ht)[:3, 3], off)
                    assert np.array_equal(np.array(ht)[3], [0, 0, 0, 1])
    for section in ('nodes', 'objects', 'markers', 'loads', 'sensors'):  # nothing written as a repr tail
        for item in model[section]:
            for k, v in item.items():
                if isinstance(v, str):
                    assert k in ('nodeType', 'objectType', 'markerType', 'loadType', 'sensorType', 'name',
                                 'fileName', 'outputVariableType') or ']' not in v, (section, k, v)
    with open(path, 'w') as f:
        json.dump(model, f, indent=1)
    return shapes


def check_plain(mbs):
    """Every value of every item must be a type written faithfully (KT lists are fixed afterwards)."""
    getters = [(mbs.GetNode, mbs.systemData.NumberOfNodes()), (mbs.GetObject, mbs.systemData.NumberOfObjects()),
               (mbs.GetMarker, mbs.systemData.NumberOfMarkers()), (mbs.GetLoad, mbs.systemData.NumberOfLoads()),
               (mbs.GetSensor, mbs.systemData.NumberOfSensors())]
    ok = (dict, list, tuple, np.ndarray, bool, np.bool_, int, np.integer, float, np.floating, str,
          exu.Matrix3DList, exu.Vector3DList, exu.OutputVariableType, exu.NodeIndex, exu.ObjectIndex,
          exu.MarkerIndex, exu.LoadIndex, exu.SensorIndex)
    for get, n in getters:
        for i in range(n):
            for k, v in get(i).items():
                if not isinstance(v, ok) and not callable(v) and v is not None:
                    raise TypeError('%s %d key %s: unexpected type %s' % (get.__name__, i, k, type(v)))
                if isinstance(v, list) and v and not isinstance(v[0], (int, float, np.ndarray, list, dict, JT,
                                                                        exu.MarkerIndex, exu.NodeIndex)):
                    raise TypeError('%s %d key %s: list of %s' % (get.__name__, i, k, type(v[0])))


# ------------------------------------------------------------------------------------------------
# round trip: rebuild the model from the JSON alone and solve again






def roundtrip_check(name, ref):
    with open(os.path.join(OUT, name + '.json')) as f:
        model = json.load(f)
    SC, mbs, s = rebuild(model)
    mbs.Assemble()
    if model['solve'] == 'static':
        mbs.SolveStatic(s)
    else:
        mbs.SolveDynamic(s)
    q = np.array(mbs.systemData.GetODE2Coordinates())
    q0 = np.array(ref['ode2Coordinates'])
    assert q.shape == q0.shape and np.array_equal(q, q0), \
        '%s: round trip differs by %g' % (name, np.max(np.abs(q - q0)) if q.shape == q0.shape else np.inf)
    assert np.array_equal(np.array(mbs.systemData.GetODE2Coordinates_t()), np.array(ref['ode2Velocities']))
    assert np.array_equal(np.array(mbs.systemData.GetAECoordinates()), np.array(ref['aeCoordinates']))
    assert len(ref['sensors']) == mbs.systemData.NumberOfSensors()
    for i, sen in enumerate(ref['sensors']):
        assert np.array_equal(mbs.GetSensorStoredData(i), np.array(sen['values'])), (name, 'sensor', i)
    return True


def write(name, mbs, s, solve='dynamic', covers=''):
    name = 'kt_' + name
    mbs.Assemble()
    check_plain(mbs)
    path = os.path.join(OUT, name + '.json')
    export(mbs, s, path, solve=solve)
    shapes = fix_kinematic_trees(mbs, path)
    r = run_reference(mbs, s, os.path.join(OUT, name + '.ref.json'), solve=solve, case=name)
    for x in r['ode2Coordinates'] + r['aeCoordinates']:
        assert np.isfinite(x), name
    for sen in r['sensors']:
        assert np.all(np.isfinite(np.array(sen['values']))), (name, sen['name'])
    if solve != 'static':
        assert abs(r['time'] - s.timeIntegration.endTime) < 1e-12, (name, r['time'])
        nRows = int(round(s.timeIntegration.endTime / s.solution.sensors.writePeriod)) + 1
        for sen in r['sensors']:
            assert len(sen['values']) >= nRows - 1, (name, sen['name'], len(sen['values']))
    roundtrip_check(name, r)
    st = r['statistics']
    sd = mbs.systemData
    types = lambda get, n, key: sorted(set(get(i)[key] for i in range(n)))
    sensorTypes = sorted(set('%s:%s' % (mbs.GetSensor(i)['sensorType'],
                                        str(mbs.GetSensor(i).get('outputVariableType', 'Force')).split('.')[-1])
                             for i in range(sd.NumberOfSensors())))
    for i, sh in shapes.items():
        for k, v in sh.items():
            KT_SHAPES.setdefault(k, set()).add(v)
    SUMMARY.append({
        'name': name, 'covers': covers, 'solve': solve,
        'steps': st['steps'], 'newton': st['newtonIterations'], 'jacobians': st['jacobianEvaluations'],
        'seconds': st['solverSeconds'],
        'nODE2': len(r['ode2Coordinates']), 'nAE': len(r['aeCoordinates']),
        'counts': (sd.NumberOfNodes(), sd.NumberOfObjects(), sd.NumberOfMarkers(), sd.NumberOfLoads(),
                   sd.NumberOfSensors()),
        'nodes': types(mbs.GetNode, sd.NumberOfNodes(), 'nodeType'),
        'objects': types(mbs.GetObject, sd.NumberOfObjects(), 'objectType'),
        'markers': types(mbs.GetMarker, sd.NumberOfMarkers(), 'markerType'),
        'loads': types(mbs.GetLoad, sd.NumberOfLoads(), 'loadType'),
        'sensorTypes': sensorTypes,
    })
    print('%-34s newton %5d  jacobians %4d  steps %s  nODE2 %d nAE %d  %.3fs  (round trip identical)'
          % (name, st['newtonIterations'], st['jacobianEvaluations'], st['steps'], len(r['ode2Coordinates']),
             len(r['aeCoordinates']), st['solverSeconds']))
    return r


def full_tree_sensors(obj, node, link, p, acc=False):
    """SensorNode Coordinates/Coordinates_t + SensorKinematicTree outputs at (link, p)."""
    outs = KT_SENSOR_OUTPUTS + (KT_SENSOR_ACC_OUTPUTS if acc else [])
    return dict(nodes=[(node, OVT.Coordinates), (node, OVT.Coordinates_t)],
                trees=[(obj, link, p, v) for v in outs])


# ================================================================================================
# the cases

def case_chain4_revolute_damped():
    """(1) serial chain of 4 revolute joints Z, X, Y, Z (spatial), gravity -z, joint damping D with v_o = 0,
    non-identity jointTransformations, q_ref != 0, initial coordinates and velocities."""
    SC, mbs = new_system()
    L = [0.5, 0.4, 0.35, 0.3]
    m = [1.2, 0.9, 0.7, 0.5]
    types = ['RevoluteZ', 'RevoluteX', 'RevoluteY', 'RevoluteZ']
    A = [np.eye(3), RotationMatrixZ(0.2), RotationMatrixX(-0.3) @ RotationMatrixY(0.1), np.eye(3)]
    offsets = [[0, 0, 0], [L[0], 0, 0], [L[1], 0, 0.05], [L[2], 0, 0]]
    coms = [[l / 2, 0, 0] for l in L]
    inertias = [bar_inertia(mi, li, R=RotationMatrixX(0.2 * i)) for i, (mi, li) in enumerate(zip(m, L))]
    node, obj = add_tree(mbs, types, [-1, 0, 1, 2], A, offsets, m, coms, inertias,
                         qref=[0.3, -0.4, 0.6, 0.2], q0=[0.05, 0.1, -0.05, 0.0], v0=[0.5, -1.0, 0.8, 1.5],
                         gravity=[0, 0, -9.81], jointVelocityOffsetVector=[0.] * 4,
                         jointDControlVector=[0.2, 0.15, 0.1, 0.05])
    mTip = kt_marker(mbs, obj, 3, [L[3], 0, 0])
    mMid = kt_marker(mbs, obj, 1, [0.1, 0.05, -0.02])
    sensors(mbs, markers=[(mTip, v) for v in RIGID_MARKER_OUTPUTS] + [(mMid, OVT.Position)],
            **full_tree_sensors(obj, node, 3, [L[3], 0, 0], acc=True))
    write('chain4_revolute_damped', mbs, settings(500, 0.5),
          covers='serial chain RevoluteZ/X/Y/Z, non-identity A_i, gravity -z, D control (v_o=0), q_ref, q0, '
                 'v0; all KT-marker outputs; SensorKinematicTree incl. accelerations')


def case_prismatic_mixed():
    """(2) PrismaticX/Y/Z mixed with revolute joints, non-identity jointTransformations, gravity -y."""
    SC, mbs = new_system()
    types = ['PrismaticX', 'RevoluteZ', 'PrismaticY', 'RevoluteX', 'PrismaticZ', 'RevoluteY']
    A = [RotationMatrixZ(0.3), RotationMatrixX(0.4) @ RotationMatrixY(-0.2), RotationMatrixZ(-0.5),
         RotationMatrixY(0.6), RotationMatrixX(-0.25), RotationMatrixZ(0.15) @ RotationMatrixX(0.1)]
    offsets = [[0.1, 0, 0], [0.3, 0.05, 0], [0.25, 0, 0.1], [0, 0.2, 0], [0.1, 0.1, 0], [0, 0, 0.2]]
    m = [2.0, 1.0, 0.8, 0.6, 0.5, 0.3]
    coms = [[0.1, 0, 0], [0.15, 0, 0], [0, 0.1, 0], [0, 0.1, 0.02], [0, 0, 0.1], [0.05, 0, 0.1]]
    inertias = [bar_inertia(m[0], 0.2, axis=0), bar_inertia(m[1], 0.3, axis=0, R=RotationMatrixZ(0.3)),
                bar_inertia(m[2], 0.2, axis=1), bar_inertia(m[3], 0.2, axis=1, R=RotationMatrixX(0.5)),
                bar_inertia(m[4], 0.2, axis=2), bar_inertia(m[5], 0.2, axis=2, R=RotationMatrixY(-0.4))]
    node, obj = add_tree(mbs, types, [-1, 0, 1, 2, 3, 4], A, offsets, m, coms, inertias,
                         qref=[0.1, 0.4, -0.05, -0.3, 0.08, 0.5], q0=[0.02, 0, 0.01, 0.1, 0, -0.1],
                         v0=[0.2, -0.5, 0.3, 1.0, -0.2, 0.7], gravity=[0, -9.81, 0])
    mTip = kt_marker(mbs, obj, 5, [0.05, 0.02, 0.2])
    mP = kt_marker(mbs, obj, 2, [0, 0.1, 0])
    sensors(mbs, markers=[(mTip, v) for v in RIGID_MARKER_OUTPUTS] + [(mP, OVT.Position), (mP, OVT.Velocity)],
            **full_tree_sensors(obj, node, 4, [0.02, -0.01, 0.1]))
    write('prismatic_mixed', mbs, settings(1000, 0.5),
          covers='PrismaticX/Y/Z alternating with RevoluteZ/X/Y, all A_i rotated (products), off-diagonal '
                 'inertias, gravity -y, no control; q_ref, q0, v0')


def case_branched_base_offset():
    """(3) branched tree: link 0 has three children (1, 2, 3), link 1 and link 2 have one child each;
    baseOffset != 0, gravity -z, small damping."""
    SC, mbs = new_system()
    parents = [-1, 0, 0, 0, 1, 2]
    types = ['RevoluteZ', 'RevoluteY', 'RevoluteX', 'PrismaticZ', 'RevoluteY', 'RevoluteZ']
    A = [np.eye(3), RotationMatrixZ(0.8), RotationMatrixZ(-0.9) @ RotationMatrixX(0.2), RotationMatrixY(0.3),
         np.eye(3), RotationMatrixX(0.4)]
    offsets = [[0, 0, 0.1], [0.3, 0, 0], [0.2, -0.15, 0], [0, 0.2, 0.05], [0.4, 0, 0], [0.35, 0, 0]]
    m = [1.5, 0.8, 0.7, 0.4, 0.5, 0.45]
    L = [0.3, 0.4, 0.35, 0.2, 0.3, 0.25]
    coms = [[0.15, 0, 0], [0.2, 0, 0], [0.17, 0, 0], [0, 0, 0.1], [0.15, 0, 0.01], [0.12, 0.01, 0]]
    inertias = [bar_inertia(mi, li, axis=(2 if i == 3 else 0)) for i, (mi, li) in enumerate(zip(m, L))]
    node, obj = add_tree(mbs, types, parents, A, offsets, m, coms, inertias,
                         qref=[0.2, 0.3, -0.4, 0.05, -0.5, 0.6], v0=[1.0, 0, -0.5, 0.2, 0.8, -1.2],
                         gravity=[0, 0, -9.81], baseOffset=[0.2, -0.1, 0.3],
                         jointVelocityOffsetVector=[0.] * 6, jointDControlVector=[0.05] * 6)
    leaves = [(3, [0, 0, 0.2]), (4, [0.3, 0, 0]), (5, [0.25, 0, 0])]
    ms = [kt_marker(mbs, obj, link, p) for link, p in leaves]
    mBase = kt_marker(mbs, obj, 0, [0, 0, 0])
    sensors(mbs, markers=[(mk, OVT.Position) for mk in ms] + [(ms[1], v) for v in RIGID_MARKER_OUTPUTS] +
            [(mBase, OVT.Position), (mBase, OVT.RotationMatrix)],
            nodes=[(node, OVT.Coordinates), (node, OVT.Coordinates_t)],
            trees=[(obj, link, p, v) for link, p in leaves for v in (OVT.Position, OVT.Velocity,
                                                                       OVT.AngularVelocityLocal)])
    write('branched_base_offset', mbs, settings(500, 0.5),
          covers='branched tree (link 0 with 3 children, 2 grand-children), RevoluteX/Y/Z + PrismaticZ, '
                 'baseOffset [0.2,-0.1,0.3], gravity -z, D=0.05 (v_o=0)')


def case_pd_control_offsets():
    """(4) P/D control with non-zero position and velocity offset vectors and a jointForceVector."""
    SC, mbs = new_system()
    types = ['RevoluteZ', 'RevoluteY', 'PrismaticX', 'RevoluteY', 'RevoluteX']
    parents = [-1, 0, 1, 2, 2]
    A = [np.eye(3), RotationMatrixX(np.pi / 2), np.eye(3), RotationMatrixZ(0.3), RotationMatrixY(-0.2)]
    offsets = [[0, 0, 0.2], [0, 0, 0.1], [0.4, 0, 0], [0.3, 0, 0], [0.2, 0.1, 0]]
    m = [2.0, 1.5, 1.0, 0.6, 0.4]
    L = [0.2, 0.4, 0.3, 0.3, 0.25]
    coms = [[0, 0, 0.1], [0.2, 0, 0], [0.15, 0, 0], [0.15, 0, 0], [0.12, 0, 0]]
    inertias = [bar_inertia(m[0], L[0], axis=2)] + [bar_inertia(mi, li) for mi, li in zip(m[1:], L[1:])]
    node, obj = add_tree(mbs, types, parents, A, offsets, m, coms, inertias,
                         qref=[0.1, -0.3, 0.05, 0.4, -0.2], v0=[0.5, 0.2, -0.1, 1.0, 0.0],
                         gravity=[0, 0, -9.81],
                         jointPControlVector=[100., 80., 500., 40., 30.],
                         jointDControlVector=[5., 4., 20., 2., 1.5],
                         jointPositionOffsetVector=[0.6, -0.1, 0.15, -0.2, 0.3],
                         jointVelocityOffsetVector=[0.5, 0.0, -0.3, 0.2, 0.4],
                         jointForceVector=[1.0, -2.0, 3.0, 0.5, -0.3])
    mT = kt_marker(mbs, obj, 3, [0.3, 0, 0])
    mU = kt_marker(mbs, obj, 4, [0.25, 0, 0])
    sensors(mbs, markers=[(mT, OVT.Position), (mT, OVT.Velocity), (mU, OVT.Rotation), (mU, OVT.AngularVelocity)],
            **full_tree_sensors(obj, node, 4, [0.25, 0, 0]))
    write('pd_control_offsets', mbs, settings(500, 0.5),
          covers='P and D control with u_o != q_ref and v_o != 0, jointForceVector, branch at link 2, '
                 'prismatic + revolute, gravity')


def case_link_forces_torques():
    """(5) linkForces and linkTorques (non-zero, Exudyn's convention: acting at baseOffset, reversed sign),
    baseOffset != 0, gravity, small damping."""
    SC, mbs = new_system()
    types = ['RevoluteZ', 'RevoluteX', 'PrismaticY', 'RevoluteZ']
    parents = [-1, 0, 1, 1]
    A = [RotationMatrixY(0.2), np.eye(3), RotationMatrixZ(0.4), RotationMatrixX(-0.3)]
    offsets = [[0, 0, 0], [0.4, 0, 0], [0.3, 0, 0.05], [0.3, -0.1, 0]]
    m = [1.0, 0.8, 0.5, 0.6]
    coms = [[0.2, 0, 0], [0.15, 0.0, 0], [0, 0.1, 0], [0.12, 0, 0.01]]
    inertias = [bar_inertia(1.0, 0.4), bar_inertia(0.8, 0.3), bar_inertia(0.5, 0.2, axis=1),
                bar_inertia(0.6, 0.25, R=RotationMatrixZ(0.3))]
    node, obj = add_tree(mbs, types, parents, A, offsets, m, coms, inertias,
                         qref=[0.3, 0.2, 0.1, -0.4], v0=[0.3, -0.6, 0.1, 0.4],
                         gravity=[0, -9.81, 0], baseOffset=[0.1, 0.3, -0.2],
                         jointVelocityOffsetVector=[0.] * 4, jointDControlVector=[0.1, 0.1, 2.0, 0.1],
                         linkForces=[[1.0, 0.5, -2.0], [0, 3.0, 0], [-1.5, 0, 1.0], [0.5, -0.5, 2.0]],
                         linkTorques=[[0, 0, 0.5], [0.3, -0.2, 0], [0.1, 0.1, 0.1], [-0.2, 0, 0.4]])
    mT = kt_marker(mbs, obj, 3, [0.25, 0, 0])
    mP = kt_marker(mbs, obj, 2, [0, 0.2, 0])
    sensors(mbs, markers=[(mT, v) for v in RIGID_MARKER_OUTPUTS] + [(mP, OVT.Position)],
            **full_tree_sensors(obj, node, 2, [0, 0.2, 0]))
    write('link_forces_torques', mbs, settings(500, 0.5),
          covers='non-zero linkForces and linkTorques (Exudyn convention: at baseOffset, reversed sign), '
                 'baseOffset [0.1,0.3,-0.2], branch, gravity -y, D control')


def case_marker_loads():
    """(6) LoadForceVector and LoadTorqueVector on MarkerKinematicTreeRigid, bodyFixed False and True;
    one marker given by localHT (identity rotation)."""
    SC, mbs = new_system()
    types = ['RevoluteZ', 'RevoluteY', 'RevoluteX', 'PrismaticX']
    A = [np.eye(3), RotationMatrixZ(0.5), RotationMatrixY(0.3), RotationMatrixZ(-0.2)]
    offsets = [[0, 0, 0], [0.4, 0, 0], [0.35, 0, 0], [0.3, 0, 0.02]]
    m = [1.0, 0.8, 0.6, 0.4]
    coms = [[0.2, 0, 0], [0.17, 0, 0], [0.15, 0.01, 0], [0.1, 0, 0]]
    inertias = [bar_inertia(mi, 0.35, R=RotationMatrixX(0.3 * i)) for i, mi in enumerate(m)]
    node, obj = add_tree(mbs, types, [-1, 0, 1, 2], A, offsets, m, coms, inertias,
                         qref=[0.2, -0.3, 0.4, 0.05], v0=[0.2, 0.0, -0.4, 0.1], gravity=[0, 0, 0],
                         jointPControlVector=[0, 0, 0, 60.], jointPositionOffsetVector=[0, 0, 0, 0.05],
                         jointDControlVector=[0.1, 0.1, 0.1, 1.0], jointVelocityOffsetVector=[0.] * 4)
    m1 = kt_marker(mbs, obj, 1, [0.2, 0.05, 0])
    m3 = mbs.AddMarker(MarkerKinematicTreeRigid(objectNumber=obj, linkNumber=3,
                                                localHT=HomogeneousTransformation(np.eye(3), [0.15, 0.0, 0.05])))
    assert np.allclose(mbs.GetMarker(m3)['localPosition'], [0.15, 0, 0.05])
    m2 = kt_marker(mbs, obj, 2, [0, 0, 0])
    l0 = mbs.AddLoad(LoadForceVector(markerNumber=m3, loadVector=[0, 0, -3.0], bodyFixed=False))
    l1 = mbs.AddLoad(LoadForceVector(markerNumber=m1, loadVector=[1.0, 2.0, 0], bodyFixed=True))
    l2 = mbs.AddLoad(LoadTorqueVector(markerNumber=m2, loadVector=[0.5, 0, 0.3], bodyFixed=False))
    l3 = mbs.AddLoad(LoadTorqueVector(markerNumber=m3, loadVector=[0, -0.4, 0.2], bodyFixed=True))
    l4 = mbs.AddLoad(LoadForceVector(markerNumber=m3, loadVector=[0.8, 0.0, 0.0], bodyFixed=True))
    sensors(mbs, loads=[l0, l1, l2, l3, l4],
            markers=[(m3, v) for v in RIGID_MARKER_OUTPUTS] + [(m1, OVT.Position), (m2, OVT.AngularVelocity)],
            **full_tree_sensors(obj, node, 3, [0.15, 0, 0.05]))
    write('marker_loads', mbs, settings(400, 0.4),
          covers='LoadForceVector bodyFixed False/True and LoadTorqueVector bodyFixed False/True on '
                 'MarkerKinematicTreeRigid (one marker via localHT with identity rotation), SensorLoad, no gravity, '
                 'P on the prismatic joint')


def case_planar_loop():
    """(7a) planar 4-link RevoluteZ tree (branch at link 1) closed to ground by a spherical joint with
    constrainedAxes [1,1,0] (like spec 9 (c)): 2-DOF closed loop; initial velocities in the loop's null space."""
    SC, mbs = new_system()
    L = [0.8, 0.7, 0.6, 0.5]
    m = [1.0, 0.8, 0.6, 0.5]
    A = [np.eye(3), RotationMatrixZ(0.1), np.eye(3), RotationMatrixZ(-0.4)]
    offsets = [[0, 0, 0], [L[0], 0, 0], [L[1], 0, 0], [L[1] * 0.5, 0, 0]]
    coms = [[l / 2, 0, 0] for l in L]
    inertias = [bar_inertia(mi, li) for mi, li in zip(m, L)]
    node, obj = add_tree(mbs, ['RevoluteZ'] * 4, [-1, 0, 1, 1], A, offsets, m, coms, inertias,
                         qref=[0.5, -0.7, 0.9, -0.6], gravity=[0, -9.81, 0], baseOffset=[0.1, 0.2, 0],
                         jointVelocityOffsetVector=[0.] * 4, jointDControlVector=[1.0, 0.8, 0.8, 0.1])
    ground = mbs.AddObject(ObjectGround())
    mTip = kt_marker(mbs, obj, 2, [L[2], 0, 0])
    mFree = kt_marker(mbs, obj, 3, [L[3], 0, 0])
    J = tree_jacobian(mbs, node, mTip, 4)
    assert np.allclose(J[2], 0)
    N, rank = null_space(J[:2])
    assert rank == 2 and N.shape[1] == 2
    set_tree_velocity(mbs, node, N @ np.array([1.2, -0.8]))
    assert np.allclose(marker_vel(mbs, mTip), 0, atol=1e-12)
    mG = ground_point(mbs, ground, mTip, rigid=True)
    j = sp_joint(mbs, mG, mTip, axes=(1, 1, 0))
    sensors(mbs, objects=[(j, OVT.Force)], markers=[(mTip, OVT.Position), (mTip, OVT.RotationMatrix),
                                                    (mFree, OVT.Position), (mFree, OVT.Velocity)],
            **full_tree_sensors(obj, node, 3, [L[3], 0, 0]))
    write('planar_loop_xy', mbs, settings(1000, 1.0),
          covers='planar RevoluteZ tree (branch) + spherical constrainedAxes [1,1,0] tree marker -> ground '
                 'MarkerBodyRigid (2-DOF loop), baseOffset, gravity, D control, v0 in the loop null space')


def case_spatial_loop():
    """(7b) spatial 5-joint tree closed to ground by a full spherical joint [1,1,1]: 2 free DOF
    (position Jacobian of the tip has rank 3 at t=0, checked)."""
    SC, mbs = new_system()
    types = ['RevoluteZ', 'RevoluteY', 'PrismaticX', 'RevoluteX', 'RevoluteY']
    A = [np.eye(3), RotationMatrixZ(0.2), RotationMatrixY(0.3), np.eye(3), RotationMatrixZ(0.5)]
    offsets = [[0, 0, 0.3], [0.3, 0, 0], [0.35, 0, 0], [0.1, 0, 0], [0.3, 0.05, 0]]
    m = [1.0, 0.8, 0.6, 0.5, 0.4]
    coms = [[0, 0, 0.1], [0.15, 0, 0], [0.1, 0, 0], [0.05, 0, 0], [0.15, 0, 0]]
    inertias = [bar_inertia(1.0, 0.3, axis=2), bar_inertia(0.8, 0.3), bar_inertia(0.6, 0.2),
                bar_inertia(0.5, 0.1), bar_inertia(0.4, 0.3, R=RotationMatrixY(0.3))]
    node, obj = add_tree(mbs, types, [-1, 0, 1, 2, 3], A, offsets, m, coms, inertias,
                         qref=[0.3, -0.5, 0.1, 0.6, 0.8], gravity=[0, 0, -9.81],
                         jointPControlVector=[0, 0, 30., 0, 0], jointPositionOffsetVector=[0, 0, 0.1, 0, 0],
                         jointDControlVector=[0.05, 0.05, 1.0, 0.05, 0.05], jointVelocityOffsetVector=[0.] * 5)
    ground = mbs.AddObject(ObjectGround())
    mTip = kt_marker(mbs, obj, 4, [0.3, 0, 0])
    J = tree_jacobian(mbs, node, mTip, 5)
    N, rank = null_space(J)
    s_min = np.linalg.svd(J, compute_uv=False)[-1]
    assert rank == 3 and N.shape[1] == 2 and s_min > 0.05, (rank, s_min)
    set_tree_velocity(mbs, node, N @ np.array([1.0, 0.7]))
    assert np.allclose(marker_vel(mbs, mTip), 0, atol=1e-12)
    mG = ground_point(mbs, ground, mTip)
    j = sp_joint(mbs, mG, mTip, axes=(1, 1, 1))
    mMid = kt_marker(mbs, obj, 2, [0.1, 0, 0])
    sensors(mbs, objects=[(j, OVT.Force)], markers=[(mTip, OVT.Position), (mTip, OVT.AngularVelocityLocal),
                                                    (mMid, OVT.Position), (mMid, OVT.Velocity)],
            **full_tree_sensors(obj, node, 3, [0.05, 0.02, 0]))
    write('spatial_loop_xyz', mbs, settings(1000, 1.0),
          covers='spatial 5-joint tree (Rz,Ry,Px,Rx,Ry) + full spherical [1,1,1] tip -> ground MarkerBodyPosition '
                 '(2 free DOF, tip Jacobian rank 3, smallest singular value %.3f), P on the prismatic joint' % s_min)


def case_tree_bodies():
    """(8) a tree carrying an EP rigid body (spherical joint tree marker <-> MarkerBodyRigid), a mass point
    (spherical joint [1,1,1] to MarkerNodePosition) and an Rxyz rigid body on springs (ConnectorSpringDamper
    and CartesianSpringDamper at MarkerNodeRigid / MarkerBodyRigid); gravity on the bodies by
    MarkerBodyMass + LoadMassProportional."""
    SC, mbs = new_system()
    g = [0, 0, -9.81]
    types = ['RevoluteZ', 'RevoluteY', 'RevoluteY', 'RevoluteZ']
    A = [np.eye(3), np.eye(3), RotationMatrixZ(0.3), RotationMatrixX(0.4)]
    offsets = [[0, 0, 0.4], [0.1, 0, 0], [0.5, 0, 0], [0.4, 0, 0]]
    m = [2.0, 1.2, 0.8, 0.4]
    coms = [[0, 0, 0.1], [0.25, 0, 0], [0.2, 0, 0], [0.1, 0, 0]]
    inertias = [bar_inertia(2.0, 0.2, axis=2), bar_inertia(1.2, 0.5), bar_inertia(0.8, 0.4), bar_inertia(0.4, 0.2)]
    node, obj = add_tree(mbs, types, [-1, 0, 1, 2], A, offsets, m, coms, inertias,
                         qref=[0.2, 0.3, -0.6, 0.1], v0=[0.8, -0.3, 0.5, 1.0], gravity=g,
                         jointVelocityOffsetVector=[0.] * 4, jointDControlVector=[0.3] * 4)
    ground = mbs.AddObject(ObjectGround())
    # EP rigid body hanging from the tip of link 3 (its marker at the body's top end)
    mTip = kt_marker(mbs, obj, 3, [0.2, 0, 0])
    pTip = marker_pos(mbs, mTip, INIT)
    vTip = marker_vel(mbs, mTip)
    R1 = RotationMatrixX(0.3) @ RotationMatrixY(0.2)
    top1 = np.array([0, 0, 0.15])
    omega1 = np.array([0.5, -1.0, 0.3])
    p1 = pTip - R1 @ top1
    b1 = mbs.CreateRigidBody(inertia=InertiaCuboid(density=800, sideLengths=[0.08, 0.08, 0.3]),
                             referencePosition=list(p1), referenceRotationMatrix=R1,
                             initialVelocity=list(vTip + np.cross(omega1, p1 - pTip)),
                             initialAngularVelocity=list(omega1), gravity=g,
                             nodeType=exu.NodeType.RotationEulerParameters)
    mB1 = mbs.AddMarker(MarkerBodyRigid(bodyNumber=b1, localPosition=list(top1)))
    assert np.allclose(marker_pos(mbs, mB1, INIT), pTip) and np.allclose(marker_vel(mbs, mB1), vTip)
    j1 = sp_joint(mbs, mTip, mB1)
    # mass point pinned to a point of link 2
    m2 = kt_marker(mbs, obj, 2, [0.3, 0.05, -0.05])
    nMP = mbs.AddNode(NodePoint(referenceCoordinates=list(marker_pos(mbs, m2, INIT)),
                                initialVelocities=list(marker_vel(mbs, m2))))
    oMP = mbs.AddObject(ObjectMassPoint(nodeNumber=nMP, mass=0.3))
    mbs.AddLoad(LoadMassProportional(markerNumber=mbs.AddMarker(MarkerBodyMass(bodyNumber=oMP)), loadVector=g))
    mMP = mbs.AddMarker(MarkerNodePosition(nodeNumber=nMP))
    j2 = sp_joint(mbs, m2, mMP)
    # Rxyz body on a spring-damper (to link 1) and a Cartesian spring-damper (to ground)
    m1 = kt_marker(mbs, obj, 1, [0.3, 0, 0])
    p3 = marker_pos(mbs, m1, INIT) + np.array([0, 0.2, -0.3])
    b3 = mbs.CreateRigidBody(inertia=InertiaCuboid(density=600, sideLengths=[0.1, 0.12, 0.14]),
                             referencePosition=list(p3), referenceRotationMatrix=RotationMatrixZ(0.4),
                             initialAngularVelocity=[0, 0, 1.0], gravity=g, nodeType=exu.NodeType.RotationRxyz)
    n3 = mbs.GetObject(b3)['nodeNumber']
    mN3 = mbs.AddMarker(MarkerNodeRigid(nodeNumber=n3))
    mB3 = mbs.AddMarker(MarkerBodyRigid(bodyNumber=b3, localPosition=[0.05, 0, 0]))
    sd = mbs.AddObject(ObjectConnectorSpringDamper(markerNumbers=[m1, mN3], stiffness=400., damping=2.,
                                                   referenceLength=float(np.linalg.norm([0, 0.2, -0.3]))))
    cs = mbs.AddObject(ObjectConnectorCartesianSpringDamper(
        markerNumbers=[ground_point(mbs, ground, mB3), mB3], stiffness=[100., 150., 200.], damping=[1., 1., 1.]))
    # mass point pulled toward the tree tip by a spring-damper as well (connector between MarkerBodyPosition
    # on the mass point and the tree)
    mMPb = mbs.AddMarker(MarkerBodyPosition(bodyNumber=oMP, localPosition=[0, 0, 0]))
    sd2 = mbs.AddObject(ObjectConnectorSpringDamper(markerNumbers=[mMPb, mTip], stiffness=50., damping=0.5,
                                                    referenceLength=0.1))
    nB1 = mbs.GetObject(b1)['nodeNumber']
    sensors(mbs, objects=[(j1, OVT.Force), (j2, OVT.Force), (sd, OVT.Force), (cs, OVT.Force), (sd2, OVT.Force)],
            markers=[(mTip, OVT.Position), (mTip, OVT.Velocity), (mB1, OVT.Position), (m2, OVT.Position),
                     (mN3, OVT.Position), (mN3, OVT.Rotation)],
            nodes=[(node, OVT.Coordinates), (node, OVT.Coordinates_t), (nB1, OVT.Position), (nB1, OVT.Rotation),
                   (nMP, OVT.Position), (n3, OVT.AngularVelocity)],
            trees=[(obj, 3, [0.2, 0, 0], OVT.Position), (obj, 3, [0.2, 0, 0], OVT.AngularVelocity)])
    write('tree_bodies', mbs, settings(500, 0.5),
          covers='tree + EP rigid body (spherical tree marker <-> MarkerBodyRigid, consistent v0/omega0) + '
                 'MassPoint (spherical to MarkerNodePosition) + Rxyz body on ConnectorSpringDamper (tree -> '
                 'MarkerNodeRigid) and CartesianSpringDamper (ground -> MarkerBodyRigid); spring mass point -> tree')


def case_two_trees():
    """(9) two spatial 3-joint trees whose tips are joined by a spherical joint [1,1,1] (3 DOF remain);
    tree B's tip marker is placed at tree A's tip; B's initial velocities match A's tip velocity."""
    SC, mbs = new_system()
    g = [0, 0, -9.81]
    nA, oA = add_tree(mbs, ['RevoluteZ', 'RevoluteY', 'RevoluteY'], [-1, 0, 1],
                      [np.eye(3), np.eye(3), RotationMatrixX(0.2)], [[0, 0, 0.3], [0, 0, 0.1], [0.5, 0, 0]],
                      [1.5, 1.0, 0.7], [[0, 0, 0.05], [0.25, 0, 0], [0.2, 0, 0]],
                      [bar_inertia(1.5, 0.1, axis=2), bar_inertia(1.0, 0.5), bar_inertia(0.7, 0.4)],
                      qref=[0.3, 0.2, 0.6], gravity=g, jointVelocityOffsetVector=[0.] * 3,
                      jointDControlVector=[0.1] * 3)
    nB, oB = add_tree(mbs, ['RevoluteZ', 'RevoluteX', 'RevoluteY'], [-1, 0, 1],
                      [RotationMatrixZ(np.pi), np.eye(3), RotationMatrixZ(0.3)],
                      [[0, 0, 0.2], [0.1, 0, 0], [0.45, 0, 0]], [1.2, 0.9, 0.6],
                      [[0, 0, 0.05], [0.2, 0, 0], [0.2, 0, 0]],
                      [bar_inertia(1.2, 0.1, axis=2), bar_inertia(0.9, 0.45, R=RotationMatrixY(0.2)),
                       bar_inertia(0.6, 0.4)],
                      qref=[0.4, -0.3, 0.5], gravity=g, baseOffset=[1.1, 0.2, 0.0],
                      jointVelocityOffsetVector=[0.] * 3, jointDControlVector=[0.1] * 3)
    mA = kt_marker(mbs, oA, 2, [0.4, 0, 0])
    mB = kt_marker(mbs, oB, 2, [0, 0, 0])
    pA = marker_pos(mbs, mA)
    RB = marker_rot(mbs, mB)
    pB0 = marker_pos(mbs, mB)
    localB = RB.T @ (pA - pB0)
    mbs.SetMarkerParameter(mB, 'localPosition', list(localB))
    assert np.allclose(marker_pos(mbs, mB), pA)
    vA = np.array([0.8, -0.5, 1.0])
    set_tree_velocity(mbs, nA, vA)
    JA = tree_jacobian(mbs, nA, mA, 3)
    JB = tree_jacobian(mbs, nB, mB, 3)
    sB = np.linalg.svd(JB, compute_uv=False)
    assert sB[-1] > 0.05, sB
    vB = np.linalg.solve(JB, JA @ vA)
    set_tree_velocity(mbs, nB, vB)
    assert np.allclose(marker_vel(mbs, mA), marker_vel(mbs, mB), atol=1e-12)
    j = sp_joint(mbs, mA, mB)
    sensors(mbs, objects=[(j, OVT.Force)],
            markers=[(mA, OVT.Position), (mA, OVT.Velocity), (mB, OVT.Position), (mB, OVT.RotationMatrix),
                     (mB, OVT.AngularVelocityLocal)],
            nodes=[(nA, OVT.Coordinates), (nA, OVT.Coordinates_t), (nB, OVT.Coordinates), (nB, OVT.Coordinates_t)],
            trees=[(oA, 1, [0.25, 0, 0], OVT.Position), (oB, 1, [0.2, 0, 0], OVT.Velocity)])
    write('two_trees_joined', mbs, settings(500, 0.5),
          covers='two spatial 3-joint trees (B with baseOffset, rotated A_0), tips joined by a full spherical joint '
                 'between two MarkerKinematicTreeRigid; consistent v0 for both trees; gravity, damping')


def case_static_springs():
    """(10) SolveStatic, 3 load steps: a 4-joint tree under gravity held by joint P control (offsets), a
    CartesianSpringDamper from its tip to ground, a ConnectorSpringDamper from link 1 to ground, a spherical
    joint [0,1,0] to ground; force and torque on tree markers."""
    SC, mbs = new_system()
    types = ['RevoluteZ', 'RevoluteY', 'PrismaticX', 'RevoluteX']
    A = [np.eye(3), RotationMatrixZ(0.2), np.eye(3), RotationMatrixY(0.3)]
    offsets = [[0, 0, 0.2], [0.1, 0, 0], [0.5, 0, 0], [0.2, 0, 0]]
    m = [1.5, 1.0, 0.8, 0.5]
    coms = [[0, 0, 0.05], [0.25, 0, 0], [0.1, 0, 0], [0.1, 0.02, 0]]
    inertias = [bar_inertia(1.5, 0.1, axis=2), bar_inertia(1.0, 0.5), bar_inertia(0.8, 0.2),
                bar_inertia(0.5, 0.2, R=RotationMatrixX(0.4))]
    node, obj = add_tree(mbs, types, [-1, 0, 1, 2], A, offsets, m, coms, inertias,
                         qref=[0.3, -0.2, 0.1, 0.2], gravity=[0, 0, -9.81], baseOffset=[0.05, -0.05, 0],
                         jointPControlVector=[20., 10., 300., 5.], jointPositionOffsetVector=[0.35, -0.1, 0.12, 0.1],
                         jointDControlVector=[0.5] * 4, jointVelocityOffsetVector=[0.] * 4)
    ground = mbs.AddObject(ObjectGround())
    mTip = kt_marker(mbs, obj, 3, [0.2, 0, 0])
    m1 = kt_marker(mbs, obj, 1, [0.4, 0, 0])
    m2 = kt_marker(mbs, obj, 2, [0.1, 0, 0.05])
    cs = mbs.AddObject(ObjectConnectorCartesianSpringDamper(
        markerNumbers=[ground_point(mbs, ground, mTip), mTip], stiffness=[200., 300., 400.], damping=[0., 0., 0.]))
    pG = marker_pos(mbs, m1) + np.array([0, 0, 0.4])
    sd = mbs.AddObject(ObjectConnectorSpringDamper(
        markerNumbers=[mbs.AddMarker(MarkerBodyPosition(bodyNumber=ground, localPosition=list(pG))), m1],
        stiffness=500., damping=0., referenceLength=0.45))
    j = sp_joint(mbs, ground_point(mbs, ground, m2, rigid=True), m2, axes=(0, 1, 0))
    l0 = mbs.AddLoad(LoadForceVector(markerNumber=mTip, loadVector=[2.0, 0, -1.0]))
    l1 = mbs.AddLoad(LoadTorqueVector(markerNumber=m1, loadVector=[0, 0.5, 0.3], bodyFixed=True))
    sensors(mbs, objects=[(cs, OVT.Force), (sd, OVT.Force), (j, OVT.Force)], loads=[l0, l1],
            markers=[(mTip, OVT.Position), (mTip, OVT.Rotation), (m1, OVT.Position), (m2, OVT.RotationMatrix)],
            **full_tree_sensors(obj, node, 3, [0.2, 0, 0]))
    s = settings()
    s.staticSolver.numberOfLoadSteps = 3
    write('static_springs', mbs, s, solve='static',
          covers='SolveStatic, 3 load steps: tree with P control (u_o != q_ref), CartesianSpringDamper and '
                 'ConnectorSpringDamper to ground, spherical [0,1,0] to ground, force + torque (bodyFixed) on markers')


def case_chain20():
    """(11) a 20-link chain (RevoluteZ/Y/X cycling, small twists) with gravity and damping, for timing."""
    SC, mbs = new_system()
    n = 20
    cyc = ['RevoluteZ', 'RevoluteY', 'RevoluteX', 'RevoluteY']
    types = [cyc[i % 4] for i in range(n)]
    L = 0.1
    A = [np.eye(3)] + [RotationMatrixX(0.05 * ((i % 3) - 1)) @ RotationMatrixZ(0.03) for i in range(1, n)]
    offsets = [[0, 0, 0]] + [[L, 0, 0]] * (n - 1)
    m = [0.2 - 0.005 * i for i in range(n)]
    coms = [[L / 2, 0, 0]] * n
    inertias = [bar_inertia(mi, L, w=0.02) for mi in m]
    qref = [0.1 * np.sin(0.7 * i) for i in range(n)]
    v0 = [0.3 * np.cos(1.3 * i) for i in range(n)]
    node, obj = add_tree(mbs, types, [-1] + list(range(n - 1)), A, offsets, m, coms, inertias, qref=qref, v0=v0,
                         gravity=[0, 0, -9.81], jointVelocityOffsetVector=[0.] * n, jointDControlVector=[0.02] * n)
    mTip = kt_marker(mbs, obj, n - 1, [L, 0, 0])
    mMid = kt_marker(mbs, obj, 9, [L, 0, 0])
    sensors(mbs, markers=[(mTip, OVT.Position), (mTip, OVT.Velocity), (mMid, OVT.Position),
                          (mTip, OVT.AngularVelocity)],
            nodes=[(node, OVT.Coordinates), (node, OVT.Coordinates_t)],
            trees=[(obj, n - 1, [L, 0, 0], OVT.Position), (obj, 14, [0.05, 0, 0], OVT.RotationMatrix)])
    write('chain20_timing', mbs, settings(500, 0.5),
          covers='20-link serial chain (Rz/Ry/Rx/Ry cycling, small twists), gravity -z, D=0.02, q_ref, v0')


if __name__ == '__main__':
    with open(PUBLIC) as f:
        public = json.load(f)
    publicKeys = list(next(o for o in public['objects'] if o['objectType'] == 'KinematicTree').keys())
    case_chain4_revolute_damped()
    case_prismatic_mixed()
    case_branched_base_offset()
    case_pd_control_offsets()
    case_link_forces_torques()
    case_marker_loads()
    case_planar_loop()
    case_spatial_loop()
    case_tree_bodies()
    case_two_trees()
    case_static_springs()
    case_chain20()
    # every written tree has exactly the keys (and key order) of the public case
    for c in SUMMARY:
        with open(os.path.join(OUT, c['name'] + '.json')) as f:
            model = json.load(f)
        for o in model['objects']:
            if o['objectType'] == 'KinematicTree':
                assert list(o.keys()) == publicKeys, (c['name'], list(o.keys()))
    print()
    for c in SUMMARY:
        print('%s: %s' % (c['name'], c['covers']))
        print('   solve=%s steps=%s newton=%d jacobians=%d nODE2=%d nAE=%d solver %.3fs; '
              'nodes/objects/markers/loads/sensors = %s'
              % (c['solve'], c['steps'], c['newton'], c['jacobians'], c['nODE2'], c['nAE'], c['seconds'],
                 '/'.join(map(str, c['counts']))))
        print('   nodes %s; objects %s; markers %s; loads %s' % (c['nodes'], c['objects'], c['markers'], c['loads']))
        print('   sensors %s' % c['sensorTypes'])
    print()
    print('JSON shapes of the KinematicTree list keys (n = number of links):')
    for k, v in KT_SHAPES.items():
        print('   %-26s %s' % (k, sorted(v)))
