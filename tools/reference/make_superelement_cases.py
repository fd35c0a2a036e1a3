"""Exudyn 1.13.6 reference cases for superelements: ObjectGenericODE2 and ObjectFFRFreducedOrder with
MarkerSuperElementPosition / MarkerSuperElementRigid, spherical joints, springs and loads.

Writes tests/reference/own_cases/se_NAME.json (model) and se_NAME.ref.json (Exudyn's results).
Run from the repository root:  python3 tools/reference/make_superelement_cases.py [CASE ...]
(with CASE names, e.g. `sensor_super_element`, only those cases are written)
Needs scipy (exudyn.FEM builds the FFRF data from a small lumped-mass spring lattice).

Notes on the written files:
* exudyn_export._plain does not know exudyn.MatrixContainer (it would write the tail of its repr), so every
  MatrixContainer value of an object is rewritten here after export(), as model-format.md says:
  dense -> array of rows, sparse -> {"numberOfRows", "numberOfColumns", "triplets": [[row, col, value], ...]}
  (rows/cols as integers, duplicates kept as Exudyn stores them), empty -> [].
* roundtrip_check() rebuilds each model from the written JSON alone in a fresh Exudyn system, solves it
  again and asserts bit-identical final ODE2 coordinates (and sensor data).
"""
import copy
import itertools
import json
import os
import sys

import numpy as np
import scipy.sparse
import exudyn as exu
from exudyn.itemInterface import *
from exudyn.utilities import *
from exudyn.FEM import FEMinterface, ObjectFFRFreducedOrderInterface, HCBstaticModeSelection

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..'))
from exudyn_export import export, settings_from_dict, run_reference, rebuild, json_mc, tree_from_json  # noqa: E402,F401

OUT = os.path.join(os.path.dirname(__file__), '..', '..', 'tests', 'reference', 'own_cases')
os.makedirs(OUT, exist_ok=True)
OVT = exu.OutputVariableType
REF = exu.ConfigurationType.Reference
INIT = exu.ConfigurationType.Initial
SUMMARY = []


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
    s.solution.file.write = False  # = solutionSettings.writeSolutionToFile (deprecated name)
    s.solution.sensors.writePeriod = 0.01
    return s


def sensors(mbs, nodes=(), objects=(), markers=(), loads=(), bodies=(), mesh_nodes=()):
    for b, n, v in mesh_nodes:
        mbs.AddSensor(SensorSuperElement(bodyNumber=b, meshNodeNumber=n, outputVariableType=v, storeInternal=True,
                                         writeToFile=False))
    for n, v in nodes:
        mbs.AddSensor(SensorNode(nodeNumber=n, outputVariableType=v, storeInternal=True, writeToFile=False))
    for o, v in objects:
        mbs.AddSensor(SensorObject(objectNumber=o, outputVariableType=v, storeInternal=True, writeToFile=False))
    for b, p, v in bodies:
        mbs.AddSensor(SensorBody(bodyNumber=b, localPosition=p, outputVariableType=v, storeInternal=True,
                                 writeToFile=False))
    for m, v in markers:
        mbs.AddSensor(SensorMarker(markerNumber=m, outputVariableType=v, storeInternal=True, writeToFile=False))
    for l in loads:
        mbs.AddSensor(SensorLoad(loadNumber=l, storeInternal=True, writeToFile=False))


RIGID_MARKER_OUTPUTS = [OVT.Position, OVT.Velocity, OVT.Rotation, OVT.RotationMatrix, OVT.AngularVelocity,
                        OVT.AngularVelocityLocal]


def marker_pos(mbs, m, configuration=REF):
    """Global position of marker m (assembles the system first)."""
    mbs.Assemble()
    return np.array(mbs.GetMarkerOutput(m, OVT.Position, configuration=configuration))


def marker_vel(mbs, m):
    mbs.Assemble()
    return np.array(mbs.GetMarkerOutput(m, OVT.Velocity, configuration=INIT))


def ground_point(mbs, ground, m):
    """A ground MarkerBodyPosition at the reference position of marker m (ground at the origin, unrotated)."""
    return mbs.AddMarker(MarkerBodyPosition(bodyNumber=ground, localPosition=marker_pos(mbs, m)))


# ------------------------------------------------------------------------------------------------
# MatrixContainer <-> JSON

def mc_json(mc):
    """A MatrixContainer as the JSON value of model-format.md."""
    v = mc.GetPythonObject()
    if isinstance(v, dict):
        return {'numberOfRows': int(v['numberOfRows']), 'numberOfColumns': int(v['numberOfColumns']),
                'triplets': [[int(r), int(c), float(x)] for r, c, x in np.asarray(v['triplets']).reshape(-1, 3)]}
    a = np.asarray(v, dtype=float)
    if a.size == 0:
        return []
    return a.tolist()




def fix_matrix_containers(mbs, path):
    """Rewrite the MatrixContainer values export() could not write; returns {(object, key): JSON shape}."""
    with open(path) as f:
        model = json.load(f)
    shapes = {}
    for i in range(mbs.systemData.NumberOfObjects()):
        for key, value in mbs.GetObject(i).items():
            if isinstance(value, exu.MatrixContainer):
                model['objects'][i][key] = mc_json(value)
                j = model['objects'][i][key]
                shapes[(i, key)] = ('sparse %dx%d, %d triplets' % (j['numberOfRows'], j['numberOfColumns'],
                                                                  len(j['triplets']))
                                    if isinstance(j, dict) else
                                    ('dense %dx%d' % (len(j), len(j[0])) if j else 'empty []'))
    with open(path, 'w') as f:
        json.dump(model, f, indent=1)
    return shapes


def check_plain(mbs):
    """Every value of every item must be a type export() writes faithfully (MatrixContainer is fixed later)."""
    getters = [(mbs.GetNode, mbs.systemData.NumberOfNodes()), (mbs.GetObject, mbs.systemData.NumberOfObjects()),
               (mbs.GetMarker, mbs.systemData.NumberOfMarkers()), (mbs.GetLoad, mbs.systemData.NumberOfLoads()),
               (mbs.GetSensor, mbs.systemData.NumberOfSensors())]
    ok = (dict, list, tuple, np.ndarray, bool, np.bool_, int, np.integer, float, np.floating, str, exu.MatrixContainer,
          exu.OutputVariableType, exu.NodeIndex, exu.ObjectIndex, exu.MarkerIndex, exu.LoadIndex, exu.SensorIndex)
    for get, n in getters:
        for i in range(n):
            for k, v in get(i).items():
                if not isinstance(v, ok) and not callable(v) and v is not None:
                    raise TypeError('%s %d key %s: unexpected type %s' % (get.__name__, i, k, type(v)))


# ------------------------------------------------------------------------------------------------
# round trip: rebuild the model from the JSON alone and solve again




def roundtrip_check(name, ref):
    """Read se_NAME.json back, rebuild a fresh system from its dicts, solve, compare with Exudyn's first run."""
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
    assert np.array_equal(np.array(mbs.systemData.GetAECoordinates()), np.array(ref['aeCoordinates']))
    for i, sen in enumerate(ref['sensors']):
        assert np.array_equal(mbs.GetSensorStoredData(i), np.array(sen['values'])), (name, 'sensor', i)
    return True


def write(name, mbs, s, solve='dynamic', covers=''):
    name = 'se_' + name
    mbs.Assemble()
    check_plain(mbs)
    path = os.path.join(OUT, name + '.json')
    export(mbs, s, path, solve=solve)
    shapes = fix_matrix_containers(mbs, path)
    r = run_reference(mbs, s, os.path.join(OUT, name + '.ref.json'), solve=solve, case=name)
    for x in r['ode2Coordinates'] + r['aeCoordinates']:
        assert np.isfinite(x), name
    if solve != 'static':
        assert abs(r['time'] - s.timeIntegration.endTime) < 1e-12, (name, r['time'])
    roundtrip_check(name, r)
    st = r['statistics']
    sd = mbs.systemData
    types = lambda get, n, key: sorted(set(get(i)[key] for i in range(n)))
    SUMMARY.append({
        'name': name, 'covers': covers, 'solve': solve,
        'steps': st['steps'], 'newton': st['newtonIterations'], 'jacobians': st['jacobianEvaluations'],
        'nODE2': len(r['ode2Coordinates']), 'nAE': len(r['aeCoordinates']),
        'nodes': types(mbs.GetNode, sd.NumberOfNodes(), 'nodeType'),
        'objects': types(mbs.GetObject, sd.NumberOfObjects(), 'objectType'),
        'markers': types(mbs.GetMarker, sd.NumberOfMarkers(), 'markerType'),
        'loads': types(mbs.GetLoad, sd.NumberOfLoads(), 'loadType'),
        'sensors': sd.NumberOfSensors(), 'matrices': shapes,
    })
    print('%-40s newton %5d  jacobians %4d  steps %s  (round trip identical)'
          % (name, st['newtonIterations'], st['jacobianEvaluations'], st['steps']))
    return r


# ------------------------------------------------------------------------------------------------
# the tetrahedron GenericODE2 of spec 9 (a)

TET_X = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0.2, 0.3, 0.8]], dtype=float)
TET_EDGES = list(itertools.combinations(range(4), 2))


def spring_blocks(X, edges, k):
    """[(p, q, k e e^T)] for linear axial springs between the points X[p], X[q]."""
    out = []
    for p, q in edges:
        e = X[q] - X[p]
        e = e / np.linalg.norm(e)
        out.append((p, q, k * np.outer(e, e)))
    return out


def spring_stiffness(X, edges, k):
    n = len(X)
    K = np.zeros((3 * n, 3 * n))
    for p, q, kk in spring_blocks(X, edges, k):
        for r, c, sg in ((p, p, 1), (q, q, 1), (p, q, -1), (q, p, -1)):
            K[3 * r:3 * r + 3, 3 * c:3 * c + 3] += sg * kk
    return K


def spring_triplets(X, edges, k, scale=1.0):
    """Unsummed triplets of the spring stiffness (one 3x3 block per edge end: duplicates add up)."""
    t = []
    for p, q, kk in spring_blocks(X, edges, k):
        for r, c, sg in ((p, p, 1), (q, q, 1), (p, q, -1), (q, p, -1)):
            for a in range(3):
                for b in range(3):
                    if kk[a, b] != 0:
                        t.append([3 * r + a, 3 * c + b, scale * sg * kk[a, b]])
    return t


def add_tetra(mbs, origin=(0, 0, 0), R=np.eye(3), masses=(0.5, 0.5, 0.5, 0.5), k=2000., d=1e-3,
              gravity=(0, -9.81, 0), sparse=False, velocities=None, X=TET_X):
    """GenericODE2 on 4 NodePoints (lumped masses, axial springs on all 6 edges, D = d K,
    gravity in forceVector); returns (object, node list, global reference positions)."""
    Xg = np.array([np.array(origin) + R @ x for x in X])
    nodes = []
    for i, x in enumerate(Xg):
        v0 = [0, 0, 0] if velocities is None else list(velocities[i])
        nodes.append(mbs.AddNode(NodePoint(referenceCoordinates=list(x), initialVelocities=v0)))
    mdiag = np.repeat(np.array(masses, dtype=float), 3)
    f = np.concatenate([m * np.array(gravity) for m in masses])
    if sparse:
        M = exu.MatrixContainer()
        M.SetWithSparseMatrixCSR(12, 12, [[i, i, mdiag[i]] for i in range(12)], useDenseMatrix=False)
        K = exu.MatrixContainer()
        K.SetWithSparseMatrixCSR(12, 12, spring_triplets(Xg, TET_EDGES, k), useDenseMatrix=False)
        D = exu.MatrixContainer()
        D.SetWithSparseMatrixCSR(12, 12, spring_triplets(Xg, TET_EDGES, k, scale=d), useDenseMatrix=False)
    else:
        Kd = spring_stiffness(Xg, TET_EDGES, k)
        M = exu.MatrixContainer(np.diag(mdiag))
        K = exu.MatrixContainer(Kd)
        D = exu.MatrixContainer(d * Kd)
    o = mbs.AddObject(ObjectGenericODE2(nodeNumbers=nodes, massMatrix=M, stiffnessMatrix=K, dampingMatrix=D,
                                        forceVector=list(f)))
    return o, nodes, Xg


def rigid_velocities(X, pivot, omega, v_pivot=(0, 0, 0)):
    return [np.array(v_pivot) + np.cross(omega, x - pivot) for x in X]


# ------------------------------------------------------------------------------------------------
# FFRF: a 2 x 2 x NX lattice of lumped masses and axial springs (all edges, face and body diagonals of
# every cell), free-free eigenmodes or Hurty-Craig-Bampton modes via exudyn.FEM

def brick_lattice(nx=5, L=0.8, ay=0.1, az=0.14, EA=1500., nodeMass=0.1):
    X = np.array([[L * i / (nx - 1), ay * j, az * k] for i in range(nx) for j in range(2) for k in range(2)])
    edges = set()
    for c in range(nx - 1):
        for p, q in itertools.combinations(range(4 * c, 4 * c + 8), 2):
            edges.add((p, q))
    n = len(X)
    K = np.zeros((3 * n, 3 * n))
    for p, q in sorted(edges):
        e = X[q] - X[p]
        l = np.linalg.norm(e)
        e = e / l
        kk = EA / l * np.outer(e, e)
        for r, c, sg in ((p, p, 1), (q, q, 1), (p, q, -1), (q, p, -1)):
            K[3 * r:3 * r + 3, 3 * c:3 * c + 3] += sg * kk
    m = np.full(n, nodeMass)
    m[:4] *= 0.5
    m[-4:] *= 0.5
    m[4:8] *= 1.3  # slightly uneven mass distribution
    M = np.diag(np.repeat(m, 3))
    return X, M, K


def face(i):
    """The 4 mesh nodes of cross section i of the lattice."""
    return [4 * i, 4 * i + 1, 4 * i + 2, 4 * i + 3]


def ffrf_interface(modes='eigen', nModes=4, nx=5, EA=1500.):
    X, M, K = brick_lattice(nx=nx, EA=EA)
    fem = FEMinterface()
    fem.nodes = {'Position': X}
    fem.massMatrix = scipy.sparse.csr_matrix(M)
    fem.stiffnessMatrix = scipy.sparse.csr_matrix(K)
    if modes == 'eigen':
        fem.ComputeEigenmodes(nModes, excludeRigidBodyModes=6, useSparseSolver=False)
        ev = np.array(fem.eigenValues)
        assert np.all(ev[:6] < 1e-6 * ev[6]) and ev[6] > 1, ev[:8]  # 6 rigid-body modes were removed
    else:  # Hurty-Craig-Bampton, RBE2 interfaces at both end faces: 6 static modes of the far face
        fem.ComputeHurtyCraigBamptonModes(boundaryNodesList=[face(0), face(nx - 1)], nEigenModes=nModes,
                                          useSparseSolver=False, computationMode=HCBstaticModeSelection.RBE2)
    cms = ObjectFFRFreducedOrderInterface(fem)
    return cms, fem


def add_ffrf(mbs, cms, position=(0, 0, 0), R=np.eye(3), velocity=(0, 0, 0), omega=(0, 0, 0), gravity=(0, 0, 0),
             stiffnessDamping=0.):
    """FFRF object via exudyn.FEM (EP reference node, sparse reduced matrices, C++ FFRF terms);
    gravity as MarkerBodyMass + LoadMassProportional; returns (object, reference node, modal node, load)."""
    d = cms.AddObjectFFRFreducedOrder(mbs, positionRef=list(position), initialVelocity=list(velocity),
                                      rotationMatrixRef=np.array(R), initialAngularVelocity=list(omega),
                                      stiffnessProportionalDamping=stiffnessDamping, gravity=list(gravity))
    return d['oFFRFreducedOrder'], d['nRigidBody'], d['nGenericODE2'], d['loadGravity']


def add_ffrf_dense(mbs, cms, position=(0, 0, 0), R=np.eye(3), velocity=(0, 0, 0), omega=(0, 0, 0),
                   massDamping=0., stiffnessDamping=0., outputModeBasis=None, outputModeBasisType=OVT._None):
    """The same FFRF object built by hand from the interface's data, with DENSE MatrixContainers."""
    ep0 = RotationMatrix2EulerParameters(np.array(R))
    ep_t = AngularVelocity2EulerParameters_t(np.array(omega), ep0)
    n0 = mbs.AddNode(NodeRigidBodyEP(referenceCoordinates=list(position) + list(ep0),
                                     initialVelocities=list(velocity) + list(ep_t)))
    nm = cms.nModes
    n1 = mbs.AddNode(NodeGenericODE2(numberOfODE2Coordinates=nm, referenceCoordinates=[0] * nm,
                                     initialCoordinates=[0] * nm, initialCoordinates_t=[0] * nm))
    Mr = np.array(cms.massMatrixReduced)
    Kr = np.array(cms.stiffnessMatrixReduced)
    o = mbs.AddObject(ObjectFFRFreducedOrder(
        nodeNumbers=[n0, n1], massMatrixReduced=exu.MatrixContainer(Mr), stiffnessMatrixReduced=exu.MatrixContainer(Kr),
        dampingMatrixReduced=exu.MatrixContainer(massDamping * Mr + stiffnessDamping * Kr),
        modeBasis=cms.modeBasis, referencePositions=cms.xRef, mass=cms.totalMass, inertia=cms.inertiaLocal,
        centerOfMass=cms.chiU, mPsiTildePsi=cms.mPsiTildePsi, mPsiTildePsiTilde=cms.mPsiTildePsiTilde,
        mPhitTPsi=cms.mPhitTPsi, mPhitTPsiTilde=cms.mPhitTPsiTilde, mXRefTildePsi=cms.mXRefTildePsi,
        mXRefTildePsiTilde=cms.mXRefTildePsiTilde, computeFFRFterms=True,
        outputVariableModeBasis=[] if outputModeBasis is None else outputModeBasis,
        outputVariableTypeModeBasis=outputModeBasisType))
    return o, n0, n1


def pivot_velocity(position, omega, pivot):
    """Frame origin velocity so that the material point at `pivot` is at rest (rigid motion about the pivot)."""
    return list(np.cross(omega, np.array(position) - np.array(pivot)))


def sp_joint(mbs, m0, m1, axes=(1, 1, 1), active=True):
    return mbs.AddObject(ObjectJointSpherical(markerNumbers=[m0, m1], constrainedAxes=list(axes),
                                              activeConnector=active))


# ================================================================================================
# the cases

def case_tetra_uneven_weights():
    """(1) the public case (spec 9 (a)) with MarkerSuperElementPosition on 3 nodes, weights [0.2,0.3,0.5]."""
    SC, mbs = new_system()
    oT, nT, X = add_tetra(mbs)
    ground = mbs.AddObject(ObjectGround())
    mSE = mbs.AddMarker(MarkerSuperElementPosition(bodyNumber=oT, meshNodeNumbers=[0, 1, 3],
                                                   weightingFactors=[0.2, 0.3, 0.5]))
    p = marker_pos(mbs, mSE)
    assert np.allclose(p, 0.2 * X[0] + 0.3 * X[1] + 0.5 * X[3])
    mG = mbs.AddMarker(MarkerBodyPosition(bodyNumber=ground, localPosition=list(p)))
    j = sp_joint(mbs, mG, mSE)
    sensors(mbs, objects=[(j, OVT.Force)], nodes=[(nT[2], OVT.Position), (nT[2], OVT.Velocity)],
            markers=[(mSE, OVT.Position), (mSE, OVT.Velocity)])
    write('tetra_uneven_weights', mbs, settings(500, 0.5),
          covers='public case (a) with SE position marker on nodes [0,1,3], w=[0.2,0.3,0.5]')


def case_sparse_generic_ode2():
    """(2) GenericODE2 with sparse M, K, D (unsummed triplets with duplicates), uneven masses, a rotated and
    shifted tetrahedron with an initial rigid spin about the pivot; a mass point on a spring-damper below."""
    SC, mbs = new_system()
    R = RotationMatrixZ(0.3) @ RotationMatrixX(0.5)
    origin = np.array([0.2, 0.5, -0.1])
    X = np.array([origin + R @ x for x in TET_X])
    pivot = 0.5 * (X[1] + X[2])
    omega = np.array([0.5, -1.0, 2.0])
    oT, nT, X = add_tetra(mbs, origin=origin, R=R, masses=(0.4, 0.6, 0.5, 0.8), k=3000., d=2e-3,
                          gravity=(0, 0, -9.81), sparse=True, velocities=rigid_velocities(X, pivot, omega))
    ground = mbs.AddObject(ObjectGround())
    mSE = mbs.AddMarker(MarkerSuperElementPosition(bodyNumber=oT, meshNodeNumbers=[1, 2], weightingFactors=[0.5, 0.5]))
    mG = ground_point(mbs, ground, mSE)
    assert np.allclose(marker_pos(mbs, mSE), pivot) and np.allclose(marker_vel(mbs, mSE), 0)
    j = sp_joint(mbs, mG, mSE)
    # a mass point hanging from node 3 (SE position marker on one node) on a spring-damper
    mTip = mbs.AddMarker(MarkerSuperElementPosition(bodyNumber=oT, meshNodeNumbers=[3], weightingFactors=[1.0]))
    pTip = marker_pos(mbs, mTip)
    pMP = pTip + np.array([0, 0, -0.3])
    oMP = mbs.AddObject(ObjectMassPoint(mass=0.3, nodeNumber=mbs.AddNode(
        NodePoint(referenceCoordinates=list(pMP), initialVelocities=list(np.cross(omega, pMP - pivot))))))
    mMP = mbs.AddMarker(MarkerBodyPosition(bodyNumber=oMP, localPosition=[0, 0, 0]))
    mbs.AddLoad(LoadMassProportional(markerNumber=mbs.AddMarker(MarkerBodyMass(bodyNumber=oMP)),
                                     loadVector=[0, 0, -9.81]))
    sd = mbs.AddObject(ObjectConnectorSpringDamper(markerNumbers=[mTip, mMP], stiffness=800., damping=1.,
                                                   referenceLength=0.3))
    sensors(mbs, objects=[(j, OVT.Force), (sd, OVT.Force), (sd, OVT.Distance)],
            markers=[(mSE, OVT.Position), (mSE, OVT.Velocity), (mTip, OVT.Position), (mTip, OVT.Velocity)],
            nodes=[(nT[0], OVT.Displacement)], bodies=[(oMP, [0, 0, 0], OVT.Position)])
    write('sparse_generic_ode2', mbs, settings(400, 0.4),
          covers='GenericODE2 sparse M/K/D with duplicate triplets, rotated mesh, initial spin; SE marker on 1 '
                 'node + ConnectorSpringDamper to a MassPoint')


def case_rigid_pendulum(name, alternative, mode, weights, offset, omega, nodesMarked, extraModes=()):
    """(3) GenericODE2 tetrahedron hanging from ground by a spherical joint at a MarkerSuperElementRigid
    with offset; initial rigid spin about the joint point; all rigid-marker outputs as sensors."""
    SC, mbs = new_system()
    # the joint point = sum w x + offset. On a GenericODE2 (no frame) the offset only shifts the position:
    # marker velocity = sum w v_i (no omega x offset term), so the consistent initial rigid spin is about xbar
    xbar = sum(w * TET_X[k] for w, k in zip(weights, nodesMarked))
    pivot = xbar + np.array(offset)
    oT, nT, X = add_tetra(mbs, velocities=rigid_velocities(TET_X, xbar, omega), masses=(0.5, 0.4, 0.6, 0.5))
    ground = mbs.AddObject(ObjectGround())
    mSE = mbs.AddMarker(MarkerSuperElementRigid(bodyNumber=oT, meshNodeNumbers=list(nodesMarked),
                                                weightingFactors=list(weights), offset=list(offset),
                                                useAlternativeApproach=alternative, rotationsExponentialMap=mode))
    assert np.allclose(marker_pos(mbs, mSE), pivot) and np.allclose(marker_vel(mbs, mSE), 0)
    mG = ground_point(mbs, ground, mSE)
    j = sp_joint(mbs, mG, mSE)
    extra = []
    for alt2, mode2 in extraModes:  # further SE rigid markers (sensors only) with other settings
        extra.append(mbs.AddMarker(MarkerSuperElementRigid(bodyNumber=oT, meshNodeNumbers=[0, 1, 2, 3],
                                                           weightingFactors=[0.25] * 4, offset=[0.1, -0.2, 0.05],
                                                           useAlternativeApproach=alt2, rotationsExponentialMap=mode2)))
    sensors(mbs, objects=[(j, OVT.Force), (j, OVT.Position)],
            markers=[(mSE, v) for v in RIGID_MARKER_OUTPUTS] +
                    [(m, v) for m in extra for v in (OVT.Rotation, OVT.AngularVelocityLocal, OVT.Position)],
            nodes=[(nT[3], OVT.Position)])
    write(name, mbs, settings(500, 0.5),
          covers='SE rigid pendulum on GenericODE2: useAlternativeApproach=%s, rotationsExponentialMap=%d, offset %s, '
                 'weights %s' % (alternative, mode, list(offset), list(weights)) +
                 ('; extra sensor-only SE rigid markers %s' % list(extraModes) if extraModes else ''))


def case_ffrf_eigen_spin():
    """(4) FFRF from the lattice (4 free-free eigenmodes), held at the centre of its end face by a spherical
    joint (MarkerSuperElementPosition, 4 nodes), no gravity, fast initial spin -> centrifugal deformation."""
    cms, fem = ffrf_interface('eigen', nModes=4, EA=400.)
    SC, mbs = new_system()
    pivot = np.mean(cms.xRef.reshape(-1, 3)[face(0)], axis=0)
    omega = np.array([0.0, 3.0, 12.0])
    oF, n0, n1, _ = add_ffrf(mbs, cms, velocity=pivot_velocity([0, 0, 0], omega, pivot), omega=omega)
    ground = mbs.AddObject(ObjectGround())
    mSE = mbs.AddMarker(MarkerSuperElementPosition(bodyNumber=oF, meshNodeNumbers=face(0), weightingFactors=[0.25] * 4))
    assert np.allclose(marker_pos(mbs, mSE), pivot) and np.allclose(marker_vel(mbs, mSE), 0, atol=1e-12)
    mG = ground_point(mbs, ground, mSE)
    j = sp_joint(mbs, mG, mSE)
    mTip = mbs.AddMarker(MarkerSuperElementPosition(bodyNumber=oF, meshNodeNumbers=face(4), weightingFactors=[0.25] * 4))
    mTipRigid = mbs.AddMarker(MarkerSuperElementRigid(bodyNumber=oF, meshNodeNumbers=face(4), weightingFactors=[0.25] * 4,
                                                      offset=[0.05, 0, 0]))
    sensors(mbs, objects=[(j, OVT.Force)],
            markers=[(mSE, OVT.Position), (mSE, OVT.Velocity), (mTip, OVT.Position), (mTip, OVT.Velocity),
                     (mTipRigid, OVT.Rotation), (mTipRigid, OVT.AngularVelocity)],
            nodes=[(n1, OVT.Coordinates), (n1, OVT.Coordinates_t), (n0, OVT.Position), (n0, OVT.RotationMatrix),
                   (n0, OVT.AngularVelocity)])
    write('ffrf_eigenmodes_spin', mbs, settings(500, 0.5),
          covers='FFRF (FEM.ObjectFFRFreducedOrderInterface, 4 free-free eigenmodes of a 2x2x5 spring lattice, '
                 'sparse reduced matrices), SE position marker on an end face to ground, initial spin, no gravity')


def case_ffrf_pendulum_gravity():
    """(5) flexible pendulum: FFRF (3 eigenmodes, stiffness-proportional damping) on a spherical joint at a
    MarkerSuperElementPosition (2 corner nodes, uneven weights), gravity by MarkerBodyMass+LoadMassProportional."""
    cms, fem = ffrf_interface('eigen', nModes=3, EA=1000.)
    SC, mbs = new_system()
    R = RotationMatrixY(-0.3)
    pos = np.array([0.1, 0.0, 0.2])
    oF, n0, n1, lG = add_ffrf(mbs, cms, position=pos, R=R, gravity=[0, 0, -9.81], stiffnessDamping=2e-3)
    assert lG is not None
    ground = mbs.AddObject(ObjectGround())
    mSE = mbs.AddMarker(MarkerSuperElementPosition(bodyNumber=oF, meshNodeNumbers=[0, 3], weightingFactors=[0.4, 0.6]))
    mG = ground_point(mbs, ground, mSE)
    j = sp_joint(mbs, mG, mSE)
    mTip = mbs.AddMarker(MarkerSuperElementPosition(bodyNumber=oF, meshNodeNumbers=face(4) + face(3),
                                                    weightingFactors=[0.15] * 4 + [0.1] * 4))
    sensors(mbs, objects=[(j, OVT.Force)], loads=[lG],
            markers=[(mSE, OVT.Position), (mSE, OVT.Velocity), (mTip, OVT.Position), (mTip, OVT.Velocity)],
            nodes=[(n1, OVT.Coordinates), (n0, OVT.Position), (n0, OVT.Velocity), (n0, OVT.Rotation)])
    write('ffrf_pendulum_gravity', mbs, settings(500, 0.5),
          covers='FFRF flexible pendulum (3 eigenmodes, Rayleigh damping, rotated reference frame), SE position '
                 'marker (2 nodes, w=[0.4,0.6]) to ground, gravity via MarkerBodyMass + LoadMassProportional')


def case_ffrf_rigid_marker_hcb():
    """(6a) FFRF with 6 Hurty-Craig-Bampton (RBE2) modes, MarkerSuperElementRigid on the far face with offset,
    alternative approach, mode 2, spherical joint to ground, rotated frame, gravity."""
    cms, fem = ffrf_interface('hcb', nModes=0)
    assert cms.nModes == 6, cms.nModes
    SC, mbs = new_system()
    R = RotationMatrixZ(0.4) @ RotationMatrixX(0.2)
    oF, n0, n1, lG = add_ffrf(mbs, cms, position=[0, 0.1, 0], R=R, gravity=[0, -9.81, 0], omega=[0, 0, 0])
    ground = mbs.AddObject(ObjectGround())
    mSE = mbs.AddMarker(MarkerSuperElementRigid(bodyNumber=oF, meshNodeNumbers=face(4), weightingFactors=[0.25] * 4,
                                                offset=[0.06, 0.02, -0.03], useAlternativeApproach=True,
                                                rotationsExponentialMap=2))
    mG = ground_point(mbs, ground, mSE)
    j = sp_joint(mbs, mG, mSE)
    sensors(mbs, objects=[(j, OVT.Force)], markers=[(mSE, v) for v in RIGID_MARKER_OUTPUTS],
            nodes=[(n1, OVT.Coordinates), (n0, OVT.Position), (n0, OVT.AngularVelocityLocal)])
    write('ffrf_rigid_marker_hcb_alt', mbs, settings(500, 0.5),
          covers='FFRF with 6 Craig-Bampton RBE2 static modes (ComputeHurtyCraigBamptonModes), SE rigid marker '
                 '(alternative, mode 2, offset) on the far face to ground, rotated frame, gravity')


def case_ffrf_rigid_marker_std_dense():
    """(6b) FFRF built by hand with dense reduced matrices (5 eigenmodes, Rayleigh damping),
    MarkerSuperElementRigid with useAlternativeApproach=False, rotationsExponentialMap=1, offset, on a middle
    cross section, joint to ground; initial spin about the joint point; gravity by LoadMassProportional."""
    cms, fem = ffrf_interface('eigen', nModes=5, EA=2000.)
    SC, mbs = new_system()
    marked = face(2) + [0, 19]
    w = [0.2, 0.2, 0.2, 0.2, 0.1, 0.1]
    offset = np.array([0.0, 0.05, 0.2])
    Xr = cms.xRef.reshape(-1, 3)
    pivot = sum(wi * Xr[k] for wi, k in zip(w, marked)) + offset
    omega = np.array([1.5, 0.0, -2.0])
    oF, n0, n1 = add_ffrf_dense(mbs, cms, velocity=pivot_velocity([0, 0, 0], omega, pivot), omega=omega,
                                massDamping=0.5, stiffnessDamping=1e-3)
    ground = mbs.AddObject(ObjectGround())
    mSE = mbs.AddMarker(MarkerSuperElementRigid(bodyNumber=oF, meshNodeNumbers=marked, weightingFactors=w,
                                                offset=list(offset), useAlternativeApproach=False,
                                                rotationsExponentialMap=1))
    assert np.allclose(marker_pos(mbs, mSE), pivot) and np.allclose(marker_vel(mbs, mSE), 0, atol=1e-12)
    mG = ground_point(mbs, ground, mSE)
    j = sp_joint(mbs, mG, mSE)
    lG = mbs.AddLoad(LoadMassProportional(markerNumber=mbs.AddMarker(MarkerBodyMass(bodyNumber=oF)),
                                          loadVector=[0, 0, -9.81]))
    # a second rigid marker with mode 0 (sensors only)
    m0 = mbs.AddMarker(MarkerSuperElementRigid(bodyNumber=oF, meshNodeNumbers=face(4), weightingFactors=[0.25] * 4,
                                               useAlternativeApproach=True, rotationsExponentialMap=0))
    sensors(mbs, objects=[(j, OVT.Force)], loads=[lG],
            markers=[(mSE, v) for v in RIGID_MARKER_OUTPUTS] + [(m0, OVT.Rotation), (m0, OVT.AngularVelocityLocal)],
            nodes=[(n1, OVT.Coordinates), (n0, OVT.Rotation)])
    write('ffrf_rigid_marker_std_dense', mbs, settings(400, 0.4),
          covers='FFRF added by hand with DENSE reduced M/K/D (5 eigenmodes), SE rigid marker (standard approach, '
                 'mode 1, offset, 6 nodes uneven weights) to ground, initial spin, gravity; extra mode-0 marker')


def case_rigid_body_to_generic_ode2():
    """(7) a rigid bar (NodeRigidBodyEP) hanging from ground; a GenericODE2 tetrahedron hanging at the bar's
    other end by MarkerBodyPosition <-> MarkerSuperElementPosition."""
    SC, mbs = new_system()
    ground = mbs.AddObject(ObjectGround())
    L = 0.6
    inertia = InertiaCuboid(density=500, sideLengths=[L, 0.08, 0.08])
    nB = mbs.AddNode(NodeRigidBodyEP(referenceCoordinates=[L / 2, 0, 0] + list(eulerParameters0)))
    oB = mbs.AddObject(ObjectRigidBody(nodeNumber=nB, mass=inertia.Mass(), inertia=inertia.GetInertia6D()))
    mbs.AddLoad(LoadMassProportional(markerNumber=mbs.AddMarker(MarkerBodyMass(bodyNumber=oB)),
                                     loadVector=[0, -9.81, 0]))
    mG = mbs.AddMarker(MarkerBodyPosition(bodyNumber=ground, localPosition=[0, 0, 0]))
    mB0 = mbs.AddMarker(MarkerBodyPosition(bodyNumber=oB, localPosition=[-L / 2, 0, 0]))
    j0 = sp_joint(mbs, mG, mB0)
    mB1 = mbs.AddMarker(MarkerBodyPosition(bodyNumber=oB, localPosition=[L / 2, 0, 0]))
    # tetrahedron scaled by 0.5 and shifted so that the SE marker (nodes [0,1,2], w=[0.5,0.25,0.25]) is at the bar end
    X = 0.5 * TET_X
    w = [0.5, 0.25, 0.25]
    xbar = sum(wi * X[k] for wi, k in zip(w, [0, 1, 2]))
    oT, nT, Xg = add_tetra(mbs, origin=np.array([L, 0, 0]) - xbar, X=X, masses=(0.3, 0.3, 0.3, 0.4), k=1500.)
    mSE = mbs.AddMarker(MarkerSuperElementPosition(bodyNumber=oT, meshNodeNumbers=[0, 1, 2], weightingFactors=w))
    assert np.allclose(marker_pos(mbs, mSE), [L, 0, 0])
    j1 = sp_joint(mbs, mB1, mSE)
    sensors(mbs, objects=[(j0, OVT.Force), (j1, OVT.Force)],
            markers=[(mSE, OVT.Position), (mSE, OVT.Velocity), (mB1, OVT.Position)],
            nodes=[(nB, OVT.Position), (nB, OVT.AngularVelocity), (nT[3], OVT.Position)],
            bodies=[(oB, [L / 2, 0, 0], OVT.Velocity)])
    write('rigid_body_to_generic_ode2', mbs, settings(500, 0.5),
          covers='RigidBody(EP) hung from ground; GenericODE2 hung at the bar end (MarkerBodyPosition <-> SE position)')


def case_loads_generic_ode2():
    """(8a) loads on SE markers of a GenericODE2: LoadForceVector on a MarkerSuperElementPosition,
    LoadTorqueVector bodyFixed False / True and LoadForceVector bodyFixed True on MarkerSuperElementRigid."""
    SC, mbs = new_system()
    oT, nT, X = add_tetra(mbs, gravity=(0, 0, 0), k=2500.)
    ground = mbs.AddObject(ObjectGround())
    mPiv = mbs.AddMarker(MarkerSuperElementPosition(bodyNumber=oT, meshNodeNumbers=[0], weightingFactors=[1.]))
    j = sp_joint(mbs, ground_point(mbs, ground, mPiv), mPiv)
    mF = mbs.AddMarker(MarkerSuperElementPosition(bodyNumber=oT, meshNodeNumbers=[1, 3], weightingFactors=[0.5, 0.5]))
    mRa = mbs.AddMarker(MarkerSuperElementRigid(bodyNumber=oT, meshNodeNumbers=[0, 1, 2, 3], weightingFactors=[0.25] * 4,
                                                offset=[0.1, 0.1, 0.0], useAlternativeApproach=True,
                                                rotationsExponentialMap=2))
    mRb = mbs.AddMarker(MarkerSuperElementRigid(bodyNumber=oT, meshNodeNumbers=[1, 2, 3], weightingFactors=[0.3, 0.3, 0.4],
                                                useAlternativeApproach=False, rotationsExponentialMap=1))
    l0 = mbs.AddLoad(LoadForceVector(markerNumber=mF, loadVector=[0, 0, -4.0]))
    l1 = mbs.AddLoad(LoadTorqueVector(markerNumber=mRa, loadVector=[0.5, 0, 1.0], bodyFixed=False))
    l2 = mbs.AddLoad(LoadTorqueVector(markerNumber=mRb, loadVector=[0, -0.8, 0.3], bodyFixed=True))
    l3 = mbs.AddLoad(LoadForceVector(markerNumber=mRb, loadVector=[1.0, 0.5, 0], bodyFixed=True))
    sensors(mbs, objects=[(j, OVT.Force)], loads=[l0, l1, l2, l3],
            markers=[(mF, OVT.Position), (mRa, OVT.Rotation), (mRa, OVT.AngularVelocity), (mRb, OVT.RotationMatrix),
                     (mRb, OVT.AngularVelocityLocal), (mRb, OVT.Position)])
    write('loads_generic_ode2', mbs, settings(300, 0.3),
          covers='GenericODE2 pinned at node 0; LoadForceVector on SE position, LoadTorqueVector bodyFixed False '
                 '(SE rigid alt/mode 2) and True (SE rigid std/mode 1), LoadForceVector bodyFixed True on SE rigid')


def case_loads_ffrf():
    """(8b) loads on SE markers of an FFRF object: torque (bodyFixed False and True) on MarkerSuperElementRigid,
    force on MarkerSuperElementPosition; the object pinned at its reference node (MarkerNodeRigid)."""
    cms, fem = ffrf_interface('eigen', nModes=4)
    SC, mbs = new_system()
    oF, n0, n1, _ = add_ffrf(mbs, cms, position=[0, 0, 0.3])
    ground = mbs.AddObject(ObjectGround())
    mN = mbs.AddMarker(MarkerNodeRigid(nodeNumber=n0))
    j = sp_joint(mbs, ground_point(mbs, ground, mN), mN)
    mTip = mbs.AddMarker(MarkerSuperElementPosition(bodyNumber=oF, meshNodeNumbers=face(4), weightingFactors=[0.25] * 4))
    mR1 = mbs.AddMarker(MarkerSuperElementRigid(bodyNumber=oF, meshNodeNumbers=face(3), weightingFactors=[0.25] * 4,
                                                offset=[0, 0.1, 0]))
    mR2 = mbs.AddMarker(MarkerSuperElementRigid(bodyNumber=oF, meshNodeNumbers=face(1) + face(2),
                                                weightingFactors=[0.125] * 8, useAlternativeApproach=False,
                                                rotationsExponentialMap=2))
    l0 = mbs.AddLoad(LoadForceVector(markerNumber=mTip, loadVector=[0, 2.0, -1.0]))
    l1 = mbs.AddLoad(LoadTorqueVector(markerNumber=mR1, loadVector=[0.3, 0.0, 0.2], bodyFixed=False))
    l2 = mbs.AddLoad(LoadTorqueVector(markerNumber=mR2, loadVector=[0.0, 0.2, -0.1], bodyFixed=True))
    sd = mbs.AddObject(ObjectConnectorCartesianSpringDamper(markerNumbers=[ground_point(mbs, ground, mTip), mTip],
                                                            stiffness=[0, 50, 50], damping=[0, 0.5, 0.5]))
    sensors(mbs, objects=[(j, OVT.Force), (sd, OVT.Force)], loads=[l0, l1, l2],
            markers=[(mTip, OVT.Position), (mTip, OVT.Velocity), (mR1, OVT.Rotation), (mR1, OVT.AngularVelocity),
                     (mR2, OVT.AngularVelocityLocal), (mR2, OVT.RotationMatrix)],
            nodes=[(n1, OVT.Coordinates), (n0, OVT.AngularVelocity)])
    write('loads_ffrf', mbs, settings(300, 0.3),
          covers='FFRF pinned at its EP reference node (MarkerNodeRigid); LoadForceVector on SE position, '
                 'LoadTorqueVector bodyFixed False/True on SE rigid (alt and std), Cartesian spring on SE position')


def case_two_superelements():
    """(9) GenericODE2 hanging from ground; FFRF hanging from the GenericODE2 by a spherical joint with
    constrainedAxes [1,0,1] between a MarkerSuperElementPosition (GenericODE2) and a MarkerSuperElementRigid
    (FFRF); the free y direction is held by a Cartesian spring to ground."""
    cms, fem = ffrf_interface('eigen', nModes=3)
    SC, mbs = new_system()
    ground = mbs.AddObject(ObjectGround())
    oT, nT, X = add_tetra(mbs, origin=[0, 0, 0], X=0.5 * TET_X, gravity=(0, 0, -9.81), masses=(0.3, 0.3, 0.3, 0.3),
                          k=3000.)
    mTop = mbs.AddMarker(MarkerSuperElementPosition(bodyNumber=oT, meshNodeNumbers=[3], weightingFactors=[1.]))
    j0 = sp_joint(mbs, ground_point(mbs, ground, mTop), mTop)
    mLow = mbs.AddMarker(MarkerSuperElementPosition(bodyNumber=oT, meshNodeNumbers=[0, 1, 2],
                                                    weightingFactors=[0.3, 0.3, 0.4]))
    pLow = marker_pos(mbs, mLow)
    # FFRF bar placed so that its face-0 rigid marker (with offset) is at pLow
    # (rotated about z, so the swing in its vertical plane pushes the joint along the free y axis)
    offset = np.array([-0.02, 0.0, 0.0])
    Xr = cms.xRef.reshape(-1, 3)
    xbar = np.mean(Xr[face(0)], axis=0) + offset
    R = RotationMatrixZ(0.6)
    oF, n0, n1, lG = add_ffrf(mbs, cms, position=pLow - R @ xbar, R=R, gravity=[0, 0, -9.81])
    mF = mbs.AddMarker(MarkerSuperElementRigid(bodyNumber=oF, meshNodeNumbers=face(0), weightingFactors=[0.25] * 4,
                                               offset=list(offset)))
    assert np.allclose(marker_pos(mbs, mF), pLow)
    j1 = sp_joint(mbs, mLow, mF, axes=(1, 0, 1))
    mFtip = mbs.AddMarker(MarkerSuperElementPosition(bodyNumber=oF, meshNodeNumbers=face(4), weightingFactors=[0.25] * 4))
    cs = mbs.AddObject(ObjectConnectorCartesianSpringDamper(markerNumbers=[ground_point(mbs, ground, mF), mF],
                                                            stiffness=[0, 400, 0], damping=[0, 2, 0]))
    sensors(mbs, objects=[(j0, OVT.Force), (j1, OVT.Force), (j1, OVT.Displacement), (cs, OVT.Force)],
            markers=[(mLow, OVT.Position), (mF, OVT.Position), (mF, OVT.Velocity), (mF, OVT.Rotation),
                     (mF, OVT.AngularVelocityLocal), (mFtip, OVT.Position)],
            nodes=[(n1, OVT.Coordinates), (nT[0], OVT.Position)])
    write('two_superelements_free_axis', mbs, settings(400, 0.4),
          covers='GenericODE2 on ground (SE position, 1 node); spherical constrainedAxes [1,0,1] between SE '
                 'position of GenericODE2 and SE rigid (offset) of FFRF; Cartesian spring holds the free y axis')


def case_static_hanging():
    """(10) static: GenericODE2 hanging on a spherical joint (SE position marker), rotation held by two
    Cartesian springs to ground, gravity + a LoadForceVector on an SE position marker, 3 load steps."""
    SC, mbs = new_system()
    oT, nT, X = add_tetra(mbs, gravity=(0, 0, -9.81), k=2000., masses=(0.5, 0.6, 0.7, 0.4))
    ground = mbs.AddObject(ObjectGround())
    mSE = mbs.AddMarker(MarkerSuperElementPosition(bodyNumber=oT, meshNodeNumbers=[0, 1, 3],
                                                   weightingFactors=[0.2, 0.3, 0.5]))
    j = sp_joint(mbs, ground_point(mbs, ground, mSE), mSE)
    springs = []
    for k in (2, 3):
        mN = mbs.AddMarker(MarkerNodePosition(nodeNumber=nT[k]))
        springs.append(mbs.AddObject(ObjectConnectorCartesianSpringDamper(
            markerNumbers=[mbs.AddMarker(MarkerBodyPosition(bodyNumber=ground, localPosition=list(X[k]))), mN],
            stiffness=[300, 400, 500], damping=[0, 0, 0])))
    mF = mbs.AddMarker(MarkerSuperElementRigid(bodyNumber=oT, meshNodeNumbers=[1, 2, 3], weightingFactors=[1 / 3] * 3,
                                               offset=[0, 0, 0.1]))
    l0 = mbs.AddLoad(LoadForceVector(markerNumber=mF, loadVector=[3.0, 0, -2.0]))
    l1 = mbs.AddLoad(LoadTorqueVector(markerNumber=mF, loadVector=[0, 0, 0.5]))
    sensors(mbs, objects=[(j, OVT.Force), (springs[0], OVT.Force), (springs[1], OVT.Force)], loads=[l0],
            markers=[(mSE, OVT.Position), (mF, OVT.Position), (mF, OVT.Rotation), (mF, OVT.RotationMatrix)],
            nodes=[(nT[2], OVT.Displacement)])
    s = settings()
    s.staticSolver.numberOfLoadSteps = 3
    write('static_generic_ode2_hanging', mbs, s, solve='static',
          covers='SolveStatic, 3 load steps: GenericODE2 on a spherical joint at an SE position marker, two '
                 'Cartesian springs, force + torque on an SE rigid marker')


def case_static_ffrf():
    """(11) static FFRF (6 HCB modes): spherical joint at the centre of face 0 (SE position marker), Cartesian
    springs to ground at SE position markers on node 1 and on nodes [4,7]; gravity; 3 load steps."""
    cms, fem = ffrf_interface('hcb', nModes=0)
    SC, mbs = new_system()
    oF, n0, n1, lG = add_ffrf(mbs, cms, gravity=[0, 0, -9.81])
    ground = mbs.AddObject(ObjectGround())
    mSE = mbs.AddMarker(MarkerSuperElementPosition(bodyNumber=oF, meshNodeNumbers=face(0), weightingFactors=[0.25] * 4))
    j = sp_joint(mbs, ground_point(mbs, ground, mSE), mSE)
    cs = []
    for nodes in ([1], [4, 7]):
        m = mbs.AddMarker(MarkerSuperElementPosition(bodyNumber=oF, meshNodeNumbers=nodes,
                                                     weightingFactors=[1 / len(nodes)] * len(nodes)))
        cs.append(mbs.AddObject(ObjectConnectorCartesianSpringDamper(markerNumbers=[ground_point(mbs, ground, m), m],
                                                                     stiffness=[2000, 2000, 2000], damping=[0, 0, 0])))
    mTip = mbs.AddMarker(MarkerSuperElementRigid(bodyNumber=oF, meshNodeNumbers=face(4), weightingFactors=[0.25] * 4))
    sensors(mbs, objects=[(j, OVT.Force), (cs[0], OVT.Force), (cs[1], OVT.Force)], loads=[lG],
            markers=[(mSE, OVT.Position), (mTip, OVT.Position), (mTip, OVT.Rotation)],
            nodes=[(n1, OVT.Coordinates), (n0, OVT.Position)])
    s = settings()
    s.staticSolver.numberOfLoadSteps = 3
    write('static_ffrf_supported', mbs, s, solve='static',
          covers='SolveStatic, 3 load steps: FFRF (6 HCB modes) on a spherical joint at an SE position marker + '
                 'Cartesian springs at SE position markers, gravity via LoadMassProportional')


def case_sensor_super_element():
    """(11) SensorSuperElement on every output Exudyn gives it: a GenericODE2 tetrahedron (its mesh nodes'
    node outputs) hung from an FFRF pendulum (3 eigenmodes, rotated frame, gravity, spin) whose
    outputVariableModeBasis (an arbitrary 6-per-mode matrix, typed StressLocal) gives StressLocal."""
    cms, fem = ffrf_interface('eigen', nModes=3, EA=800.)
    SC, mbs = new_system()
    n_mesh = len(cms.xRef) // 3
    rng = np.random.default_rng(11)
    psi_s = rng.uniform(-1e4, 1e4, size=(n_mesh, 6 * cms.nModes))
    R = RotationMatrixZ(0.4) @ RotationMatrixX(-0.2)
    oF, n0, n1 = add_ffrf_dense(mbs, cms, position=[0.05, 0.0, 0.1], R=R, omega=[0.3, -0.5, 2.0],
                                stiffnessDamping=1e-3, outputModeBasis=psi_s, outputModeBasisType=OVT.StressLocal)
    mbs.AddLoad(LoadMassProportional(markerNumber=mbs.AddMarker(MarkerBodyMass(bodyNumber=oF)),
                                     loadVector=[0, -9.81, 0]))
    ground = mbs.AddObject(ObjectGround())
    mSE = mbs.AddMarker(MarkerSuperElementPosition(bodyNumber=oF, meshNodeNumbers=face(0), weightingFactors=[0.25] * 4))
    sp_joint(mbs, ground_point(mbs, ground, mSE), mSE)
    mTip = mbs.AddMarker(MarkerSuperElementPosition(bodyNumber=oF, meshNodeNumbers=face(4), weightingFactors=[0.25] * 4))
    tip = marker_pos(mbs, mTip)
    X = 0.3 * TET_X
    oT, nT, Xg = add_tetra(mbs, origin=tip - X[0], X=X, masses=(0.2, 0.2, 0.3, 0.3), k=900., d=2e-3)
    mT0 = mbs.AddMarker(MarkerSuperElementPosition(bodyNumber=oT, meshNodeNumbers=[0], weightingFactors=[1.]))
    sp_joint(mbs, mTip, mT0)
    ffrf_outputs = [OVT.Position, OVT.Displacement, OVT.Velocity, OVT.Acceleration, OVT.DisplacementLocal,
                    OVT.VelocityLocal, OVT.StressLocal]
    generic_outputs = [OVT.Position, OVT.Displacement, OVT.Velocity, OVT.Acceleration, OVT.Coordinates,
                       OVT.Coordinates_t, OVT.Coordinates_tt]
    sensors(mbs, mesh_nodes=[(oF, 17, v) for v in ffrf_outputs] + [(oF, 0, OVT.Displacement)]
            + [(oT, 3, v) for v in generic_outputs] + [(oT, 1, OVT.Position)])
    write('sensor_super_element', mbs, settings(400, 0.4),
          covers='SensorSuperElement: FFRF (Position, Displacement, Velocity, Acceleration, DisplacementLocal, '
                 'VelocityLocal, StressLocal from outputVariableModeBasis) and GenericODE2 (node outputs)')


def case_generic_joint_ffrf(alternative=False):
    """(6c) Exudyn's rigid joints on superelement rigid markers: the FFRF body of (6b) turns
    about a tilted axis through its MarkerSuperElementRigid (standard approach, mode 1), held
    by a JointGeneric that locks the translations and two rotations (constrainedAxes
    [1, 1, 1, 1, 1, 0], the axis by rotationMarker0/1); a GenericODE2 tetrahedron hangs from
    ground on a JointRevoluteZ at an SE rigid marker (standard approach, mode 2; with
    `alternative`: alternative approach, mode 1), turning about its z axis; gravity on both.
    Joint outputs as sensors."""
    cms, fem = ffrf_interface('eigen', nModes=5, EA=2000.)
    SC, mbs = new_system()
    marked = face(2) + [0, 19]
    w = [0.2, 0.2, 0.2, 0.2, 0.1, 0.1]
    offset = np.array([0.0, 0.05, 0.2])
    Xr = cms.xRef.reshape(-1, 3)
    pivot = sum(wi * Xr[k] for wi, k in zip(w, marked)) + offset
    axis = np.array([0.3, -0.2, 1.0]) / np.linalg.norm([0.3, -0.2, 1.0])
    omega = 2.0 * axis
    oF, n0, n1 = add_ffrf_dense(mbs, cms, velocity=pivot_velocity([0, 0, 0], omega, pivot), omega=omega,
                                massDamping=0.5, stiffnessDamping=1e-3)
    ground = mbs.AddObject(ObjectGround())
    mSE = mbs.AddMarker(MarkerSuperElementRigid(bodyNumber=oF, meshNodeNumbers=marked, weightingFactors=w,
                                                offset=list(offset), useAlternativeApproach=False,
                                                rotationsExponentialMap=1))
    mG = mbs.AddMarker(MarkerBodyRigid(bodyNumber=ground, localPosition=marker_pos(mbs, mSE)))
    # joint frames with z along the turning axis (the marker frame is the identity at the start)
    x = np.cross(axis, [1.0, 0.0, 0.0]); x /= np.linalg.norm(x)
    R = np.column_stack([x, np.cross(axis, x), axis])
    jG = mbs.AddObject(ObjectJointGeneric(markerNumbers=[mG, mSE], constrainedAxes=[1, 1, 1, 1, 1, 0],
                                          rotationMarker0=R, rotationMarker1=R))
    mbs.AddLoad(LoadMassProportional(markerNumber=mbs.AddMarker(MarkerBodyMass(bodyNumber=oF)),
                                     loadVector=[0, 0, -9.81]))
    # the tetrahedron on a revolute joint about global z at its marker, spinning about it
    weights, nodes = [0.25, 0.25, 0.2, 0.3], [0, 1, 2, 3]
    xbar = sum(wk * TET_X[k] for wk, k in zip(weights, nodes)) + np.array([2.0, 0.0, 0.0])
    oT, nT, X = add_tetra(mbs, origin=(2.0, 0.0, 0.0), masses=(0.5, 0.4, 0.6, 0.5),
                          velocities=rigid_velocities(TET_X + np.array([2.0, 0.0, 0.0]), xbar, [0, 0, 1.5]))
    mT = mbs.AddMarker(MarkerSuperElementRigid(bodyNumber=oT, meshNodeNumbers=nodes, weightingFactors=weights,
                                               useAlternativeApproach=alternative,
                                               rotationsExponentialMap=1 if alternative else 2))
    mGT = mbs.AddMarker(MarkerBodyRigid(bodyNumber=ground, localPosition=marker_pos(mbs, mT)))
    jR = mbs.AddObject(ObjectJointRevoluteZ(markerNumbers=[mGT, mT]))
    sensors(mbs, objects=[(jG, OVT.ForceLocal), (jG, OVT.TorqueLocal), (jG, OVT.Rotation),
                          (jR, OVT.ForceLocal), (jR, OVT.AngularVelocityLocal)],
            markers=[(mSE, OVT.Rotation), (mT, OVT.AngularVelocity)], nodes=[(n1, OVT.Coordinates)])
    write('generic_joint_ffrf' + ('_alternative' if alternative else ''), mbs, settings(400, 0.4),
          covers='JointGeneric (revolute-like, tilted axis) on an FFRF SE rigid marker; JointRevoluteZ on a '
                 'GenericODE2 SE rigid marker (%s); gravity'
                 % ('alternative approach, mode 1' if alternative else 'standard approach, mode 2'))


if __name__ == '__main__':
    if len(sys.argv) > 1:  # only the named cases, e.g. `sensor_super_element`
        for name in sys.argv[1:]:
            globals()['case_' + name]()
        sys.exit(0)
    case_tetra_uneven_weights()
    case_sparse_generic_ode2()
    case_rigid_pendulum('rigid_pendulum_alt_mode2', True, 2, weights=[0.2, 0.3, 0.5], offset=[0.15, -0.1, 0.05],
                        omega=[1.0, 0.5, -2.0], nodesMarked=[0, 1, 2])
    case_rigid_pendulum('rigid_pendulum_std_mode1', False, 1, weights=[0.25, 0.25, 0.2, 0.3],
                        offset=[-0.1, 0.2, 0.3], omega=[-0.5, 1.5, 1.0], nodesMarked=[0, 1, 2, 3],
                        extraModes=[(True, 0), (False, 0), (False, 2), (True, 1)])
    case_ffrf_eigen_spin()
    case_ffrf_pendulum_gravity()
    case_ffrf_rigid_marker_hcb()
    case_ffrf_rigid_marker_std_dense()
    case_generic_joint_ffrf()
    case_generic_joint_ffrf(alternative=True)
    case_rigid_body_to_generic_ode2()
    case_loads_generic_ode2()
    case_loads_ffrf()
    case_two_superelements()
    case_static_hanging()
    case_static_ffrf()
    case_sensor_super_element()
    print()
    for c in SUMMARY:
        print('%s: %s' % (c['name'], c['covers']))
        print('   solve=%s steps=%s newton=%d jacobians=%d nODE2=%d nAE=%d sensors=%d'
              % (c['solve'], c['steps'], c['newton'], c['jacobians'], c['nODE2'], c['nAE'], c['sensors']))
        print('   nodes %s; objects %s; markers %s; loads %s' % (c['nodes'], c['objects'], c['markers'], c['loads']))
        if c['matrices']:
            print('   matrices %s' % {'%d.%s' % k: v for k, v in c['matrices'].items()})
