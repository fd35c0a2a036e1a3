"""Exudyn 1.13.6 reference cases for ObjectJointRevoluteZ, ObjectJointPrismaticX, ObjectJointGeneric and
ObjectConnectorDistance (formulas: docs/joint-formulas.md).

Writes tests/reference/own_cases/joint_NAME.json (model) and joint_NAME.ref.json (Exudyn's results).
Run from the repository root:  python3 tools/reference/make_joint_cases.py

Every case
* starts from a consistent configuration: all position- and velocity-level constraint equations of every
  constraint (joints and the Euler-parameter constraints) are checked to be < 1e-12 at t0 with Exudyn's
  own residual (solver.ComputeAlgebraicEquations, velocityLevel False/True);
* uses default solver settings except endTime / numberOfSteps (and solve='static' where noted);
* is solved by Exudyn (finite results, endTime reached);
* is rebuilt from the written JSON alone (AddNode/AddObject/AddMarker/AddLoad/AddSensor with the dicts,
  SimulationSettings.SetDictionary) and solved again; final ODE2/AE coordinates, velocities and every
  sensor row must be bit-identical.

Marker frames: all cases but two use identity localHT rotations and identity rotationMarker0/1, so the
joint frames are the body (or ground) frames. joint_revolute_localht_frames turns the marker frames with
a localHT rotation, joint_prismatic_rotation_marker and joint_generic_rotation_marker use the deprecated
rotationMarker0/1 parameters (Exudyn prints a DeprecationWarning); docs/joint-formulas.md gives the exact
semantics (J = A_marker * rotationMarker, A_marker = A_body * R_localHT).
"""
import copy
import json
import os
import sys
import warnings

import numpy as np
import exudyn as exu
from exudyn.itemInterface import *  # noqa: F401,F403
from exudyn.utilities import *  # noqa: F401,F403

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..'))
from exudyn_export import export, settings_from_dict, run_reference, rebuild, json_mc, tree_from_json  # noqa: E402,F401

warnings.simplefilter('ignore', DeprecationWarning)  # rotationMarker0/1 in two cases

OUT = os.path.join(os.path.dirname(__file__), '..', '..', 'tests', 'reference', 'own_cases')
os.makedirs(OUT, exist_ok=True)
OVT = exu.OutputVariableType
EP = exu.NodeType.RotationEulerParameters
RXYZ = exu.NodeType.RotationRxyz
G = [0, 0, -9.81]
SUMMARY = []


def new_system():
    SC = exu.SystemContainer()
    return SC, SC.AddSystem()


def settings(steps=500, end=1.0):
    s = exu.SimulationSettings()
    s.timeIntegration.numberOfSteps = steps
    s.timeIntegration.endTime = end
    s.timeIntegration.verboseMode = 0
    s.staticSolver.verboseMode = 0
    s.solution.file.write = False
    s.solution.sensors.writePeriod = 0.01
    return s


def sensors(mbs, nodes=(), objects=(), bodies=(), markers=(), loads=()):
    for n, v in nodes:
        mbs.AddSensor(SensorNode(nodeNumber=n, outputVariableType=v, storeInternal=True, writeToFile=False))
    for o, v in objects:
        mbs.AddSensor(SensorObject(objectNumber=o, outputVariableType=v, storeInternal=True, writeToFile=False))
    for b, p, v in bodies:
        mbs.AddSensor(SensorBody(bodyNumber=b, localPosition=list(p), outputVariableType=v, storeInternal=True,
                                 writeToFile=False))
    for m, v in markers:
        mbs.AddSensor(SensorMarker(markerNumber=m, outputVariableType=v, storeInternal=True, writeToFile=False))
    for ld in loads:
        mbs.AddSensor(SensorLoad(loadNumber=ld, storeInternal=True, writeToFile=False))


JOINT_OUT = [OVT.ForceLocal, OVT.TorqueLocal, OVT.Rotation, OVT.DisplacementLocal, OVT.VelocityLocal,
             OVT.AngularVelocityLocal, OVT.Position, OVT.Velocity]
DIST_OUT = [OVT.Force, OVT.Distance, OVT.Displacement, OVT.Velocity]


def joint_sensors(mbs, j, which=None):
    sensors(mbs, objects=[(j, v) for v in (which or JOINT_OUT)])


def node_of(mbs, body):
    return mbs.GetObject(body)['nodeNumber']


def body(mbs, inertia, p, A=np.eye(3), omega=(0, 0, 0), v=(0, 0, 0), nodeType=EP, gravity=G):
    """A rigid body with global initial velocity v (of the body reference point) and angular velocity omega."""
    return mbs.CreateRigidBody(inertia=inertia, referencePosition=list(p), referenceRotationMatrix=np.array(A),
                               initialVelocity=list(v), initialAngularVelocity=list(omega), gravity=list(gravity),
                               nodeType=nodeType)


def mass_point(mbs, p, m, v=(0, 0, 0), gravity=G):
    return mbs.CreateMassPoint(referencePosition=list(p), physicsMass=m, initialVelocity=list(v),
                               gravity=list(gravity))


def rigid(mbs, b, local=(0, 0, 0)):
    return mbs.AddMarker(MarkerBodyRigid(bodyNumber=b, localPosition=list(local)))


def position(mbs, b, local=(0, 0, 0)):
    return mbs.AddMarker(MarkerBodyPosition(bodyNumber=b, localPosition=list(local)))


# ------------------------------------------------------------------------------------------------
# checks

def constraint_residuals(mbs, s):
    """Max |g| at position and velocity level of all AE equations at the initial state."""
    s2 = exu.SimulationSettings()
    s2.SetDictionary(s.GetDictionary())
    s2.timeIntegration.generalizedAlpha.computeInitialAccelerations = False
    solver = exu.MainSolverImplicitSecondOrder()
    solver.InitializeSolver(mbs, s2)
    n2, nA = solver.GetODE2size(), solver.GetAEsize()
    out = []
    for vel in (False, True):
        solver.ComputeAlgebraicEquations(mbs, vel)
        r = np.array(solver.GetSystemResidual())[n2:n2 + nA]
        out.append(float(np.max(np.abs(r))) if nA else 0.)
    mbs.systemData.SetAECoordinates(np.zeros(nA))
    return out




def roundtrip_check(name, ref):
    with open(os.path.join(OUT, name + '.json')) as f:
        model = json.load(f)
    SC, mbs, s = rebuild(model)
    mbs.Assemble()
    if model['solve'] == 'static':
        mbs.SolveStatic(s)
    else:
        mbs.SolveDynamic(s)
    sd = mbs.systemData
    for get, key in ((sd.GetODE2Coordinates, 'ode2Coordinates'), (sd.GetODE2Coordinates_t, 'ode2Velocities'),
                     (sd.GetAECoordinates, 'aeCoordinates')):
        a, b = np.array(get()), np.array(ref[key])
        assert a.shape == b.shape and np.array_equal(a, b), (name, key, 'round trip differs')
    assert len(ref['sensors']) == sd.NumberOfSensors()
    for i, sen in enumerate(ref['sensors']):
        assert np.array_equal(mbs.GetSensorStoredData(i), np.array(sen['values'])), (name, 'sensor', i)


def write(name, mbs, s, solve='dynamic', covers=''):
    name = 'joint_' + name
    mbs.Assemble()
    res = constraint_residuals(mbs, s)
    assert res[0] < 1e-12 and res[1] < 1e-12, (name, 'inconsistent initial state', res)
    path = os.path.join(OUT, name + '.json')
    export(mbs, s, path, solve=solve)
    r = run_reference(mbs, s, os.path.join(OUT, name + '.ref.json'), solve=solve, case=name)
    for x in r['ode2Coordinates'] + r['aeCoordinates']:
        assert np.isfinite(x), name
    for sen in r['sensors']:
        assert np.all(np.isfinite(np.array(sen['values']))), (name, sen['name'])
    if solve != 'static':
        assert abs(r['time'] - s.timeIntegration.endTime) < 1e-12, (name, r['time'])
    roundtrip_check(name, r)
    st = r['statistics']
    sd = mbs.systemData
    objs = sorted(set(mbs.GetObject(i)['objectType'] for i in range(sd.NumberOfObjects())))
    SUMMARY.append((name, solve, st['steps'], st['newtonIterations'], st['jacobianEvaluations'],
                    len(r['ode2Coordinates']), len(r['aeCoordinates']), covers, objs))
    print('%-42s %-7s steps %4s  newton %5d  jacobians %3d  nODE2 %2d nAE %2d  init |g| %.0e/%.0e  '
          '(round trip identical)' % (name, solve, st['steps'], st['newtonIterations'], st['jacobianEvaluations'],
                                      len(r['ode2Coordinates']), len(r['aeCoordinates']), res[0], res[1]))
    return r


# ------------------------------------------------------------------------------------------------
# RevoluteZ

def revolute_pendulum_ep():
    """EP cuboid pendulum on a tilted ground frame (revolute axis = R_g e_z), spinning about the axis."""
    SC, mbs = new_system()
    Rg = RotationMatrixX(0.5) @ RotationMatrixZ(0.2)
    pg = np.array([0.1, 0.0, 0.2])
    ground = mbs.AddObject(ObjectGround(referencePosition=list(pg), referenceRotation=Rg))
    inertia = InertiaCuboid(density=1000, sideLengths=[1, 0.1, 0.1])
    pJ = pg
    pB = pJ + Rg @ [0.5, 0, 0]
    w = 2. * Rg[:, 2]
    b = body(mbs, inertia, pB, Rg, omega=w, v=np.cross(w, pB - pJ))
    mG = rigid(mbs, ground)
    mB = rigid(mbs, b, [-0.5, 0, 0])
    j = mbs.AddObject(ObjectJointRevoluteZ(markerNumbers=[mG, mB]))
    joint_sensors(mbs, j, JOINT_OUT + [OVT.HomogeneousTransformation, OVT.HomogeneousTransformationLocal])
    n = node_of(mbs, b)
    sensors(mbs, nodes=[(n, OVT.Position), (n, OVT.AngularVelocity)],
            bodies=[(b, [0.5, 0, 0], OVT.Position)])
    write('revolute_pendulum_ep', mbs, settings(1000, 1.0),
          covers='EP body, BodyRigid ground (rotated, shifted) / BodyRigid body, gravity oblique to the axis')


def revolute_chain_rxyz():
    """3-link Rxyz chain with parallel z axes, zig-zag initial angles, initial joint rates, tip spring."""
    SC, mbs = new_system()
    ground = mbs.AddObject(ObjectGround())
    L = [0.6, 0.5, 0.4]
    phi = [-0.3, 0.4, -0.2]          # absolute link angles about z
    rates = [1.0, -2.0, 1.5]         # joint rates
    pJ = np.zeros(3)
    w = np.zeros(3)
    vJ = np.zeros(3)
    bodies = []
    markers = [rigid(mbs, ground, [0, 0, 0])]
    joints = []
    for i in range(3):
        A = RotationMatrixZ(phi[i])
        w = w + rates[i] * np.array([0, 0, 1.])
        pB = pJ + A @ [L[i] / 2, 0, 0]
        vB = vJ + np.cross(w, pB - pJ)
        inertia = InertiaCuboid(density=800, sideLengths=[L[i], 0.06, 0.04])
        b = body(mbs, inertia, pB, A, omega=w, v=vB, nodeType=RXYZ, gravity=[0, -9.81, -2.0])
        bodies.append(b)
        m0 = markers[-1]
        m1 = rigid(mbs, b, [-L[i] / 2, 0, 0])
        joints.append(mbs.AddObject(ObjectJointRevoluteZ(markerNumbers=[m0, m1])))
        markers.append(rigid(mbs, b, [L[i] / 2, 0, 0]))
        vJ = vJ + np.cross(w, A @ [L[i], 0, 0])
        pJ = pJ + A @ [L[i], 0, 0]
    mTip = markers[-1]
    mGs = position(mbs, ground, pJ + np.array([0, -0.3, 0]))
    sp = mbs.AddObject(ObjectConnectorSpringDamper(markerNumbers=[mGs, mTip], stiffness=30, damping=0.2,
                                                    referenceLength=0.3))
    for j in joints:
        joint_sensors(mbs, j, [OVT.ForceLocal, OVT.TorqueLocal, OVT.Rotation, OVT.AngularVelocityLocal])
    sensors(mbs, nodes=[(node_of(mbs, bodies[2]), OVT.Position), (node_of(mbs, bodies[1]), OVT.Rotation)],
            markers=[(mTip, OVT.Position), (mTip, OVT.Velocity)], objects=[(sp, OVT.Force)])
    write('revolute_chain_rxyz', mbs, settings(800, 1.0),
          covers='3 Rxyz links, 3 revolute joints (ground + body-body), zig-zag angles (Rotation output), '
                 'out-of-plane gravity (locked-axis torques), spring at the tip')


def revolute_node_rigid_torque():
    """Rotated ground; body 1 (EP, node at the joint, COM offset) with MarkerNodeRigid and a body-fixed
    torque about the joint axis; body 2 (Rxyz) attached to body 1 by a second revolute joint."""
    SC, mbs = new_system()
    Rg = RotationMatrixY(0.3) @ RotationMatrixX(-0.2)
    pg = np.array([0, 0.1, 0.5])
    ground = mbs.AddObject(ObjectGround(referencePosition=list(pg), referenceRotation=Rg))
    i1 = RigidBodyInertia(mass=2., inertiaTensor=np.diag([0.01, 0.05, 0.05]), com=[0.25, 0, 0],
                          inertiaTensorAtCOM=True)
    w1 = 1.5 * Rg[:, 2]
    b1 = body(mbs, i1, pg, Rg, omega=w1, v=[0, 0, 0])           # node at the joint: zero initial velocity
    n1 = node_of(mbs, b1)
    mG = rigid(mbs, ground)
    mN1 = mbs.AddMarker(MarkerNodeRigid(nodeNumber=n1))
    j1 = mbs.AddObject(ObjectJointRevoluteZ(markerNumbers=[mG, mN1]))
    tq = mbs.AddLoad(LoadTorqueVector(markerNumber=mN1, loadVector=[0, 0, 0.5], bodyFixed=True))
    # body 2 at the tip of body 1, rotated about the common z axis by 0.7
    A2 = Rg @ RotationMatrixZ(0.7)
    pJ2 = pg + Rg @ [0.5, 0, 0]
    pB2 = pJ2 + A2 @ [0.2, 0, 0]
    w2 = w1 + (-1.0) * Rg[:, 2]
    i2 = InertiaCuboid(density=500, sideLengths=[0.4, 0.05, 0.05])
    b2 = body(mbs, i2, pB2, A2, omega=w2, v=np.cross(w1, pJ2 - pg) + np.cross(w2, pB2 - pJ2), nodeType=RXYZ)
    m1b = rigid(mbs, b1, [0.5, 0, 0])
    m2a = rigid(mbs, b2, [-0.2, 0, 0])
    j2 = mbs.AddObject(ObjectJointRevoluteZ(markerNumbers=[m1b, m2a]))
    fl = mbs.AddLoad(LoadForceVector(markerNumber=rigid(mbs, b2, [0.2, 0, 0]), loadVector=[0, 0.5, 0],
                                     bodyFixed=True))
    joint_sensors(mbs, j1)
    joint_sensors(mbs, j2, [OVT.ForceLocal, OVT.TorqueLocal, OVT.Rotation, OVT.VelocityLocal, OVT.Position])
    sensors(mbs, nodes=[(n1, OVT.AngularVelocityLocal), (node_of(mbs, b2), OVT.Velocity)],
            markers=[(mN1, OVT.RotationMatrix), (m2a, OVT.AngularVelocity)], loads=[tq, fl])
    write('revolute_node_rigid_torque', mbs, settings(600, 1.2),
          covers='MarkerNodeRigid (EP node at the joint, COM offset), rotated ground, bodyFixed torque and force, '
                 'body-body joint EP -> Rxyz with relative angle 0.7')


def revolute_localht_frames():
    """Joint frames turned against the bodies by localHT rotations (J = A_body R_localHT): axis = -global y."""
    SC, mbs = new_system()
    ground = mbs.AddObject(ObjectGround())
    RJ = RotationMatrixX(np.pi / 2)                      # joint z axis = -global y
    Ab = RotationMatrixZ(0.3) @ RotationMatrixY(0.2)    # body frame, not aligned with the joint
    R1 = Ab.T @ RJ                                       # marker 1 rotation so that J1 = J0 at t0
    b1 = np.array([-0.3, 0.1, 0.])                       # joint point in the body frame
    pB = -Ab @ b1                                        # joint point at the origin
    w = -2.0 * RJ[:, 2]
    inertia = InertiaCuboid(density=700, sideLengths=[0.6, 0.2, 0.1])
    b = body(mbs, inertia, pB, Ab, omega=w, v=np.cross(w, pB))
    mG = mbs.AddMarker(MarkerBodyRigid(bodyNumber=ground, localHT=exu.HT(rotation=RJ, translation=[0, 0, 0])))
    mB = mbs.AddMarker(MarkerBodyRigid(bodyNumber=b, localHT=exu.HT(rotation=R1, translation=list(b1))))
    j = mbs.AddObject(ObjectJointRevoluteZ(markerNumbers=[mG, mB]))
    joint_sensors(mbs, j)
    sensors(mbs, nodes=[(node_of(mbs, b), OVT.Position)], markers=[(mB, OVT.RotationMatrix)])
    write('revolute_localht_frames', mbs, settings(500, 1.0),
          covers='marker frames turned by localHT rotations (ground and body), body frame not aligned with the joint')


# ------------------------------------------------------------------------------------------------
# PrismaticX

def prismatic_slider_ep():
    """EP body sliding along an inclined, rotated ground x axis, with a spring-damper along the axis."""
    SC, mbs = new_system()
    Rg = RotationMatrixY(-0.4) @ RotationMatrixZ(0.3)
    pg = np.array([0.2, -0.1, 0.0])
    ground = mbs.AddObject(ObjectGround(referencePosition=list(pg), referenceRotation=Rg))
    inertia = InertiaCuboid(density=600, sideLengths=[0.2, 0.1, 0.1])
    pB = pg + Rg @ [0.5, 0, 0]
    b = body(mbs, inertia, pB, Rg, v=0.8 * Rg[:, 0])
    mG = rigid(mbs, ground)
    mB = rigid(mbs, b)
    j = mbs.AddObject(ObjectJointPrismaticX(markerNumbers=[mG, mB]))
    sp = mbs.AddObject(ObjectConnectorSpringDamper(markerNumbers=[position(mbs, ground), position(mbs, b)],
                                                    stiffness=60, damping=0.5, referenceLength=0.4))
    joint_sensors(mbs, j, JOINT_OUT + [OVT.HomogeneousTransformationLocal])
    sensors(mbs, objects=[(sp, OVT.Force), (sp, OVT.Distance)], nodes=[(node_of(mbs, b), OVT.Position)])
    write('prismatic_slider_ep', mbs, settings(500, 1.0),
          covers='EP slider on a rotated/shifted ground, spring-damper along the axis, gravity oblique')


def prismatic_on_pendulum():
    """Rxyz pendulum (revolute to ground) with an EP slider moving along its x axis (MarkerNodeRigid)."""
    SC, mbs = new_system()
    ground = mbs.AddObject(ObjectGround())
    A1 = RotationMatrixZ(-0.5)
    w = np.array([0, 0, 1.2])
    i1 = InertiaCuboid(density=700, sideLengths=[1.0, 0.08, 0.08])
    p1 = A1 @ [0.5, 0, 0]
    b1 = body(mbs, i1, p1, A1, omega=w, v=np.cross(w, p1), nodeType=RXYZ, gravity=[0, -9.81, -1.0])
    j1 = mbs.AddObject(ObjectJointRevoluteZ(markerNumbers=[rigid(mbs, ground), rigid(mbs, b1, [-0.5, 0, 0])]))
    off = np.array([0, 0, 0.05])                          # slider track 5 cm above the link axis
    u0, s0 = 0.3, 0.25                                   # slider speed along the track, position from COM
    i2 = InertiaCuboid(density=900, sideLengths=[0.1, 0.06, 0.06])
    p2 = p1 + A1 @ (np.array([s0, 0, 0]) + off)
    b2 = body(mbs, i2, p2, A1, omega=w, v=np.cross(w, p2) + u0 * A1[:, 0], gravity=[0, -9.81, -1.0])
    mTrack = rigid(mbs, b1, off)
    mS = mbs.AddMarker(MarkerNodeRigid(nodeNumber=node_of(mbs, b2)))
    j2 = mbs.AddObject(ObjectJointPrismaticX(markerNumbers=[mTrack, mS]))
    sp = mbs.AddObject(ObjectConnectorSpringDamper(markerNumbers=[position(mbs, b1, off), position(mbs, b2)],
                                                    stiffness=40, damping=0.3, referenceLength=0.2))
    joint_sensors(mbs, j2)
    joint_sensors(mbs, j1, [OVT.ForceLocal, OVT.TorqueLocal, OVT.Rotation])
    sensors(mbs, nodes=[(node_of(mbs, b2), OVT.Position), (node_of(mbs, b2), OVT.Velocity)],
            objects=[(sp, OVT.Force)])
    write('prismatic_on_pendulum', mbs, settings(800, 1.0),
          covers='moving marker-0 frame (prismatic on a swinging Rxyz link), MarkerNodeRigid on an EP node, '
                 'revolute to ground, spring along the slide')


def prismatic_static_spring():
    """Static equilibrium of an Rxyz slider on an inclined axis held by a spring; COM offset."""
    SC, mbs = new_system()
    Rg = RotationMatrixY(-0.6)
    ground = mbs.AddObject(ObjectGround(referenceRotation=Rg))
    inertia = RigidBodyInertia(mass=1.5, inertiaTensor=np.diag([0.01, 0.02, 0.02]), com=[0.0, 0.02, -0.03],
                               inertiaTensorAtCOM=True)
    pB = Rg @ [0.6, 0, 0]
    b = body(mbs, inertia, pB, Rg, nodeType=RXYZ)
    j = mbs.AddObject(ObjectJointPrismaticX(markerNumbers=[rigid(mbs, ground), rigid(mbs, b)]))
    sp = mbs.AddObject(ObjectConnectorCartesianSpringDamper(
        markerNumbers=[position(mbs, ground, [0.3, 0, 0]), position(mbs, b)], stiffness=[200, 200, 200],
        damping=[0, 0, 0], offset=list(Rg @ [0.3, 0, 0])))
    fl = mbs.AddLoad(LoadForceVector(markerNumber=rigid(mbs, b, [0.05, 0, 0]), loadVector=[0.5, 0.2, 0]))
    # a spring from a point off the axis makes the problem nonlinear
    sp2 = mbs.AddObject(ObjectConnectorSpringDamper(markerNumbers=[position(mbs, ground, [0.8, 0, 0.3]),
                                                                   position(mbs, b, [0, 0, 0.05])],
                                                     stiffness=150, damping=0, referenceLength=0.1))
    joint_sensors(mbs, j, [OVT.ForceLocal, OVT.TorqueLocal, OVT.DisplacementLocal, OVT.Rotation])
    sensors(mbs, nodes=[(node_of(mbs, b), OVT.Position), (node_of(mbs, b), OVT.Rotation)],
            objects=[(sp, OVT.Force), (sp2, OVT.Force), (sp2, OVT.Distance)], loads=[fl])
    write('prismatic_static_spring', mbs, settings(), solve='static',
          covers='static solve, Rxyz slider with COM offset on an inclined axis, Cartesian spring, off-axis spring '
                 '(nonlinear), force load')


def prismatic_rotation_marker():
    """Slide axis given by the deprecated rotationMarker0/1: J0 = A_g R0, J1 = A_b R1 (R1 = A_b^T A_g R0)."""
    SC, mbs = new_system()
    ground = mbs.AddObject(ObjectGround())
    R0 = RotationMatrixZ(0.5) @ RotationMatrixY(0.3)
    Ab = RotationMatrixX(0.2)
    R1 = Ab.T @ R0
    inertia = InertiaCuboid(density=600, sideLengths=[0.2, 0.1, 0.1])
    b1 = np.array([0.05, 0.02, 0])
    pJ1 = R0 @ [0.4, 0, 0]                                 # marker 1 on the slide axis
    pB = pJ1 - Ab @ b1
    b = body(mbs, inertia, pB, Ab, v=-0.5 * R0[:, 0])
    j = mbs.AddObject(ObjectJointPrismaticX(markerNumbers=[rigid(mbs, ground), rigid(mbs, b, b1)],
                                            rotationMarker0=R0, rotationMarker1=R1))
    sp = mbs.AddObject(ObjectConnectorSpringDamper(markerNumbers=[position(mbs, ground), position(mbs, b, b1)],
                                                    stiffness=80, damping=1.0, referenceLength=0.35))
    joint_sensors(mbs, j)
    sensors(mbs, nodes=[(node_of(mbs, b), OVT.Position)], objects=[(sp, OVT.Force)])
    write('prismatic_rotation_marker', mbs, settings(400, 0.8),
          covers='rotationMarker0/1 non-identity (deprecated parameters), marker 1 off the COM')


# ------------------------------------------------------------------------------------------------
# Generic

def generic_weld_ep(tight=False):
    """Body 1 (EP) hanging on a spherical joint; body 2 (EP) welded to it by a 6-axis generic joint.

    With `tight`, solved with Newton tolerances 1e-13 (relative) / 1e-14 (absolute): at the default
    tolerances Exudyn's own multipliers of this stiff welded pair are up to 7.5e-4 (relative) away from
    its converged ones (t = 0.76), so the tight case is the one that pins λ closely."""
    SC, mbs = new_system()
    ground = mbs.AddObject(ObjectGround())
    A = RotationMatrixX(0.3) @ RotationMatrixZ(0.2)
    w = np.array([0.5, -1.0, 1.5])
    i1 = InertiaCuboid(density=800, sideLengths=[0.6, 0.1, 0.1])
    p1 = A @ [0.3, 0, 0]
    b1 = body(mbs, i1, p1, A, omega=w, v=np.cross(w, p1))
    js = mbs.AddObject(ObjectJointSpherical(markerNumbers=[position(mbs, ground), position(mbs, b1, [-0.3, 0, 0])]))
    i2 = InertiaCuboid(density=500, sideLengths=[0.3, 0.2, 0.05])
    pW = A @ [0.6, 0, 0]                                   # weld point = tip of body 1
    p2 = pW + A @ [0.15, 0.05, 0]
    b2 = body(mbs, i2, p2, A, omega=w, v=np.cross(w, p2))
    jw = mbs.AddObject(ObjectJointGeneric(markerNumbers=[rigid(mbs, b1, [0.3, 0, 0]),
                                                         rigid(mbs, b2, [-0.15, -0.05, 0])]))
    joint_sensors(mbs, jw)
    sensors(mbs, objects=[(js, OVT.Force)], nodes=[(node_of(mbs, b2), OVT.Position),
                                                    (node_of(mbs, b2), OVT.AngularVelocity)])
    s = settings(600, 1.0)
    if tight:
        s.timeIntegration.newton.relativeTolerance = 1e-13
        s.timeIntegration.newton.absoluteTolerance = 1e-14
    write('generic_weld_ep_tight' if tight else 'generic_weld_ep', mbs, s,
          covers='constrainedAxes [1,1,1,1,1,1] between two EP bodies (global translation rows), '
                 'spherical joint to ground, spatial spin' + (', Newton tolerances 1e-13/1e-14' if tight else ''))


def generic_weld_ep_tight():
    generic_weld_ep(tight=True)


def generic_free_axes_rxyz():
    """Rxyz body on a rotated ground: slide along J0 y and rotate about J0 z ([1,0,1,1,1,0], local
    translation rows, 2-rotation case), Cartesian spring, force at an offset (NodeRigid load)."""
    SC, mbs = new_system()
    Rg = RotationMatrixZ(0.3) @ RotationMatrixX(0.25)
    pg = np.array([0.0, 0.2, 0.1])
    ground = mbs.AddObject(ObjectGround(referencePosition=list(pg), referenceRotation=Rg))
    inertia = InertiaCuboid(density=700, sideLengths=[0.3, 0.15, 0.1]).Translated([0.02, 0, 0])
    b1 = np.array([0.1, 0, 0])
    u, wz = 0.4, 1.5
    w = wz * Rg[:, 2]
    pB = pg + Rg @ [0, 0.2, 0]                              # marker 1 at pg + Rg [0.1, 0.2, 0]
    vP1 = u * Rg[:, 1]
    vB = vP1 - np.cross(w, Rg @ b1)
    b = body(mbs, inertia, pB, Rg, omega=w, v=vB, nodeType=RXYZ, gravity=[0, -9.81, 0])
    mG = rigid(mbs, ground, [0.1, 0, 0])
    mB = rigid(mbs, b, b1)
    j = mbs.AddObject(ObjectJointGeneric(markerNumbers=[mG, mB], constrainedAxes=[1, 0, 1, 1, 1, 0]))
    sp = mbs.AddObject(ObjectConnectorCartesianSpringDamper(
        markerNumbers=[position(mbs, ground, [0.1, 0, 0]), position(mbs, b, b1)], stiffness=[100, 100, 100],
        damping=[0.5, 0.5, 0.5], offset=list(Rg @ [0, 0.2, 0])))
    mN = mbs.AddMarker(MarkerNodeRigid(nodeNumber=node_of(mbs, b)))
    fl = mbs.AddLoad(LoadForceVector(markerNumber=rigid(mbs, b, [0, 0.1, 0]), loadVector=[0.3, 0, 0],
                                     bodyFixed=True))
    tl = mbs.AddLoad(LoadTorqueVector(markerNumber=mN, loadVector=[0.02, 0.03, 0.05]))
    joint_sensors(mbs, j, JOINT_OUT + [OVT.HomogeneousTransformation])
    sensors(mbs, nodes=[(node_of(mbs, b), OVT.Coordinates)], objects=[(sp, OVT.Force)], loads=[fl, tl],
            markers=[(mN, OVT.AngularVelocityLocal)])
    write('generic_free_axes_rxyz', mbs, settings(600, 1.0),
          covers='constrainedAxes [1,0,1,1,1,0]: local translation rows, revolute-type rotation rows (free z), '
                 'free rows g = lambda, Rxyz body with COM offset, torque on NodeRigid')


def generic_universal_ep():
    """Universal joint [1,1,1,1,0,0] (locked: t_y0 . t_z1 = 0) hanging an EP body from a tilted ground."""
    SC, mbs = new_system()
    Rg = RotationMatrixY(0.2)
    ground = mbs.AddObject(ObjectGround(referenceRotation=Rg))
    inertia = InertiaCuboid(density=800, sideLengths=[0.1, 0.15, 0.8])
    pB = Rg @ [0, 0, -0.4]
    w = 1.2 * Rg[:, 1] + 2.0 * Rg[:, 2]
    b = body(mbs, inertia, pB, Rg, omega=w, v=np.cross(w, pB))
    j = mbs.AddObject(ObjectJointGeneric(markerNumbers=[rigid(mbs, ground), rigid(mbs, b, [0, 0, 0.4])],
                                         constrainedAxes=[1, 1, 1, 1, 0, 0]))
    joint_sensors(mbs, j)
    sensors(mbs, nodes=[(node_of(mbs, b), OVT.Position), (node_of(mbs, b), OVT.AngularVelocity)],
            bodies=[(b, [0, 0, -0.4], OVT.Velocity)])
    write('generic_universal_ep', mbs, settings(800, 1.0),
          covers='constrainedAxes [1,1,1,1,0,0]: one-rotation (universal) row t_y0.t_z1, EP body, '
                 'initial spin about both free axes')


def generic_revolute_x_chain():
    """Two Rxyz links on generic joints free about x ([1,1,1,0,1,1]); an inactive generic joint."""
    SC, mbs = new_system()
    ground = mbs.AddObject(ObjectGround())
    L = [0.5, 0.4]
    ang = [0.3, -0.5]              # absolute link angles about x
    rates = [1.0, -1.5]
    pJ = np.zeros(3)
    vJ = np.zeros(3)
    w = np.zeros(3)
    m0 = rigid(mbs, ground)
    bodies, joints = [], []
    for i in range(2):
        A = RotationMatrixX(ang[i])
        w = w + rates[i] * np.array([1., 0, 0])
        pB = pJ + A @ [0, -L[i] / 2, 0]
        vB = vJ + np.cross(w, pB - pJ)
        inertia = InertiaCuboid(density=900, sideLengths=[0.05, L[i], 0.05])
        b = body(mbs, inertia, pB, A, omega=w, v=vB, nodeType=RXYZ, gravity=[0.5, 0, -9.81])
        bodies.append(b)
        joints.append(mbs.AddObject(ObjectJointGeneric(markerNumbers=[m0, rigid(mbs, b, [0, L[i] / 2, 0])],
                                                       constrainedAxes=[1, 1, 1, 0, 1, 1])))
        m0 = rigid(mbs, b, [0, -L[i] / 2, 0])
        vJ = vJ + np.cross(w, A @ [0, -L[i], 0])
        pJ = pJ + A @ [0, -L[i], 0]
    jOff = mbs.AddObject(ObjectJointGeneric(markerNumbers=[rigid(mbs, ground, [0, 0, -1]), m0],
                                            constrainedAxes=[1, 1, 1, 0, 0, 0], activeConnector=False))
    for j in joints:
        joint_sensors(mbs, j, [OVT.ForceLocal, OVT.TorqueLocal, OVT.Rotation, OVT.AngularVelocityLocal])
    joint_sensors(mbs, jOff, [OVT.ForceLocal, OVT.DisplacementLocal])
    sensors(mbs, markers=[(m0, OVT.Position)], nodes=[(node_of(mbs, bodies[1]), OVT.AngularVelocityLocal)])
    write('generic_revolute_x_chain', mbs, settings(600, 1.0),
          covers='constrainedAxes [1,1,1,0,1,1] (2-rotation case with free x: rows t_x0.t_y1, t_x0.t_z1), '
                 'body-body joint, inactive generic joint (g = lambda)')


def generic_planar_sliding():
    """Planar joint [0,0,1,1,1,0]: an EP block sliding and spinning on a tilted plane, tethered by a spring."""
    SC, mbs = new_system()
    Rg = RotationMatrixX(0.35) @ RotationMatrixY(0.15)
    ground = mbs.AddObject(ObjectGround(referenceRotation=Rg))
    inertia = InertiaCuboid(density=500, sideLengths=[0.3, 0.2, 0.1])
    bz = np.array([0, 0, -0.05])                           # contact point below the COM
    pC = Rg @ [0.3, 0.1, 0]
    pB = pC - Rg @ bz
    w = 3.0 * Rg[:, 2]
    vC = Rg @ [0.2, -0.4, 0]
    b = body(mbs, inertia, pB, Rg, omega=w, v=vC + np.cross(w, pB - pC))
    j = mbs.AddObject(ObjectJointGeneric(markerNumbers=[rigid(mbs, ground), rigid(mbs, b, bz)],
                                         constrainedAxes=[0, 0, 1, 1, 1, 0]))
    sp = mbs.AddObject(ObjectConnectorSpringDamper(markerNumbers=[position(mbs, ground), position(mbs, b, [0.1, 0, 0])],
                                                    stiffness=20, damping=0.2, referenceLength=0.2))
    joint_sensors(mbs, j)
    sensors(mbs, nodes=[(node_of(mbs, b), OVT.Position)], objects=[(sp, OVT.Force)])
    write('generic_planar_sliding', mbs, settings(600, 1.2),
          covers='constrainedAxes [0,0,1,1,1,0]: two free local translations, one local translation row, free z '
                 'rotation, EP block on a tilted plane')


def generic_rotation_marker():
    """Generic joint [1,1,1,1,1,0] whose axes come from rotationMarker0/1 (deprecated): revolute about
    J0 z = A_g R0 e_z, with J1 = A_b R1 equal to J0 at t0."""
    SC, mbs = new_system()
    Rg = RotationMatrixZ(0.4)
    ground = mbs.AddObject(ObjectGround(referenceRotation=Rg))
    R0 = RotationMatrixX(1.1)
    Ab = RotationMatrixY(-0.3)
    R1 = Ab.T @ Rg @ R0
    b1 = np.array([-0.25, 0.05, 0])
    pB = -Ab @ b1
    axis = Rg @ R0[:, 2]
    w = 1.8 * axis
    inertia = InertiaCuboid(density=700, sideLengths=[0.5, 0.1, 0.08])
    b = body(mbs, inertia, pB, Ab, omega=w, v=np.cross(w, pB), nodeType=RXYZ)
    j = mbs.AddObject(ObjectJointGeneric(markerNumbers=[rigid(mbs, ground), rigid(mbs, b, b1)],
                                         constrainedAxes=[1, 1, 1, 1, 1, 0], rotationMarker0=R0, rotationMarker1=R1))
    joint_sensors(mbs, j)
    sensors(mbs, nodes=[(node_of(mbs, b), OVT.Rotation)])
    write('generic_rotation_marker', mbs, settings(500, 1.0),
          covers='rotationMarker0/1 non-identity (deprecated parameters) with a rotated ground, Rxyz body')


# ------------------------------------------------------------------------------------------------
# Distance

def distance_mass_points():
    """Spatial double pendulum of two mass points on distance constraints (NodePosition/BodyPosition)."""
    SC, mbs = new_system()
    ground = mbs.AddObject(ObjectGround(referencePosition=[0, 0, 1.0]))
    pA = np.array([0.5, 0.2, 1.0 - 0.3])
    pB = pA + np.array([0.3, -0.2, -0.35])
    dA = pA - np.array([0, 0, 1.0])
    dB = pB - pA
    vA = np.cross(dA, [0.3, 1.0, 0.2])                     # perpendicular to rod A
    vrel = np.cross(dB, [-0.5, 0.4, 1.0])                  # perpendicular to rod B
    p1 = mass_point(mbs, pA, 1.5, vA)
    p2 = mass_point(mbs, pB, 0.7, vA + vrel)
    n1, n2 = node_of(mbs, p1), node_of(mbs, p2)
    mG = position(mbs, ground)
    d1 = mbs.AddObject(ObjectConnectorDistance(markerNumbers=[mG, mbs.AddMarker(MarkerNodePosition(nodeNumber=n1))],
                                               distance=float(np.linalg.norm(dA))))
    d2 = mbs.AddObject(ObjectConnectorDistance(markerNumbers=[position(mbs, p1),
                                                              mbs.AddMarker(MarkerNodePosition(nodeNumber=n2))],
                                               distance=float(np.linalg.norm(dB))))
    for d in (d1, d2):
        joint_sensors(mbs, d, DIST_OUT)
    sensors(mbs, nodes=[(n2, OVT.Position), (n1, OVT.Velocity)], bodies=[(p2, [0, 0, 0], OVT.Acceleration)])
    write('distance_mass_points', mbs, settings(1000, 1.0),
          covers='distance constraints ground-mass point and mass point-mass point, NodePosition/BodyPosition, '
                 'shifted ground')


def distance_rigid_bodies():
    """EP body on a spherical joint; Rxyz body attached to it and to ground by distance constraints
    (BodyPosition and BodyRigid markers), a spring to ground."""
    SC, mbs = new_system()
    ground = mbs.AddObject(ObjectGround())
    A1 = RotationMatrixZ(0.4)
    i1 = InertiaCuboid(density=800, sideLengths=[0.6, 0.1, 0.1])
    p1 = A1 @ [0.3, 0, 0]
    a_loc = np.array([0.3, 0, 0])
    pa = p1 + A1 @ a_loc
    A2 = RotationMatrixX(0.3)
    i2 = InertiaCuboid(density=600, sideLengths=[0.1, 0.4, 0.1])
    p2 = pa + np.array([0.1, 0.05, -0.4])
    b_loc = np.array([0, 0.2, 0])
    pb = p2 + A2 @ b_loc
    d = pb - pa
    n = np.cross(pa, d)                                    # w1 . n = 0 keeps (pb-pa).(vb-va) = 0 with body 2 at rest
    w1 = np.array([0.3, -0.8, 1.5])
    w1 = w1 - (w1 @ n) / (n @ n) * n
    b1 = body(mbs, i1, p1, A1, omega=w1, v=np.cross(w1, p1))
    b2 = body(mbs, i2, p2, A2, nodeType=RXYZ)
    js = mbs.AddObject(ObjectJointSpherical(markerNumbers=[position(mbs, ground), position(mbs, b1, [-0.3, 0, 0])]))
    dc1 = mbs.AddObject(ObjectConnectorDistance(markerNumbers=[position(mbs, b1, a_loc), rigid(mbs, b2, b_loc)],
                                                distance=float(np.linalg.norm(d))))
    c_loc = np.array([0, -0.2, 0])
    pc = p2 + A2 @ c_loc
    pg = np.array([0.5, 0.6, -0.2])
    dc2 = mbs.AddObject(ObjectConnectorDistance(markerNumbers=[position(mbs, ground, pg), position(mbs, b2, c_loc)],
                                                distance=float(np.linalg.norm(pc - pg))))
    sp = mbs.AddObject(ObjectConnectorSpringDamper(
        markerNumbers=[position(mbs, ground, p2 + np.array([0, 0, 0.5])), position(mbs, b2)],
        stiffness=50, damping=0.5, referenceLength=0.5))
    for dc in (dc1, dc2):
        joint_sensors(mbs, dc, DIST_OUT)
    sensors(mbs, objects=[(js, OVT.Force), (sp, OVT.Force)],
            nodes=[(node_of(mbs, b2), OVT.Position), (node_of(mbs, b2), OVT.Rotation)])
    write('distance_rigid_bodies', mbs, settings(800, 1.0),
          covers='distance constraints rigid EP body - rigid Rxyz body (BodyPosition/BodyRigid) and '
                 'ground - Rxyz body, spherical joint, spring')


def distance_node_markers_inactive():
    """Distance constraints on MarkerNodeRigid (EP) and MarkerNodePosition (mass point and Rxyz node);
    one inactive distance constraint."""
    SC, mbs = new_system()
    ground = mbs.AddObject(ObjectGround())
    iB = RigidBodyInertia(mass=1.0, inertiaTensor=np.diag([0.01, 0.01, 0.01]), com=[0, 0, 0],
                          inertiaTensorAtCOM=True)
    pB = np.array([0.4, 0.0, 0.0])
    wB = np.array([0.0, 0.7, 0.3])
    vB = np.cross([0, 0, 1.0], pB)                          # perpendicular to the rod ground -> body
    bE = body(mbs, iB, pB, RotationMatrixZ(0.2), omega=wB, v=vB)
    pP = pB + np.array([0.0, 0.3, -0.2])
    vP = vB + np.cross(pP - pB, [1.0, 0, 0])
    mp = mass_point(mbs, pP, 0.4, vP)
    pR = np.array([-0.3, 0.2, -0.1])
    bR = body(mbs, InertiaCuboid(density=500, sideLengths=[0.1, 0.1, 0.1]), pR, np.eye(3), nodeType=RXYZ)
    mNE = mbs.AddMarker(MarkerNodeRigid(nodeNumber=node_of(mbs, bE)))
    mNP = mbs.AddMarker(MarkerNodePosition(nodeNumber=node_of(mbs, mp)))
    mNR = mbs.AddMarker(MarkerNodePosition(nodeNumber=node_of(mbs, bR)))
    d1 = mbs.AddObject(ObjectConnectorDistance(markerNumbers=[position(mbs, ground), mNE],
                                               distance=float(np.linalg.norm(pB))))
    d2 = mbs.AddObject(ObjectConnectorDistance(markerNumbers=[mNE, mNP], distance=float(np.linalg.norm(pP - pB))))
    d3 = mbs.AddObject(ObjectConnectorDistance(markerNumbers=[position(mbs, ground, [-0.3, 0.2, 0.3]), mNR],
                                               distance=0.4))
    d4 = mbs.AddObject(ObjectConnectorDistance(markerNumbers=[mNP, mNR], distance=1.0, activeConnector=False))
    sp = mbs.AddObject(ObjectConnectorSpringDamper(markerNumbers=[mNP, mNR], stiffness=10, damping=0.1,
                                                    referenceLength=float(np.linalg.norm(pP - pR))))
    for d in (d1, d2, d3, d4):
        joint_sensors(mbs, d, DIST_OUT)
    sensors(mbs, nodes=[(node_of(mbs, mp), OVT.Position), (node_of(mbs, bR), OVT.Position)],
            objects=[(sp, OVT.Force)])
    write('distance_node_markers_inactive', mbs, settings(600, 1.0),
          covers='distance on MarkerNodeRigid (EP) and MarkerNodePosition (mass point, Rxyz node), '
                 'inactive distance constraint (g = lambda), spring')


def mixed_slider_crank():
    """Slider crank: Rxyz crank (revolute to ground), EP slider (prismatic to ground along x), connecting
    rod = distance constraint crank pin -> slider node; driving torque on the crank."""
    SC, mbs = new_system()
    ground = mbs.AddObject(ObjectGround())
    r, L, phi, w = 0.2, 0.6, 0.4, 2.0
    Ac = RotationMatrixZ(phi)
    ic = InertiaCuboid(density=800, sideLengths=[r, 0.04, 0.04])
    pc = Ac @ [r / 2, 0, 0]
    wc = np.array([0, 0, w])
    crank = body(mbs, ic, pc, Ac, omega=wc, v=np.cross(wc, pc), nodeType=RXYZ, gravity=[0, -9.81, 0])
    pin = Ac @ [r, 0, 0]
    x = r * np.cos(phi) + np.sqrt(L ** 2 - (r * np.sin(phi)) ** 2)
    xd = -r * w * np.sin(phi) - r ** 2 * w * np.sin(phi) * np.cos(phi) / (x - r * np.cos(phi))
    isl = InertiaCuboid(density=1000, sideLengths=[0.1, 0.05, 0.05])
    slider = body(mbs, isl, [x, 0, 0], np.eye(3), v=[xd, 0, 0], gravity=[0, -9.81, 0])
    jc = mbs.AddObject(ObjectJointRevoluteZ(markerNumbers=[rigid(mbs, ground), rigid(mbs, crank, [-r / 2, 0, 0])]))
    js = mbs.AddObject(ObjectJointPrismaticX(markerNumbers=[rigid(mbs, ground), rigid(mbs, slider)]))
    dr = mbs.AddObject(ObjectConnectorDistance(markerNumbers=[position(mbs, crank, [r / 2, 0, 0]),
                                                              mbs.AddMarker(MarkerNodePosition(nodeNumber=node_of(mbs, slider)))],
                                               distance=L))
    tq = mbs.AddLoad(LoadTorqueVector(markerNumber=rigid(mbs, crank), loadVector=[0, 0, 0.2]))
    sp = mbs.AddObject(ObjectConnectorSpringDamper(markerNumbers=[position(mbs, ground, [1.2, 0, 0]),
                                                                  position(mbs, slider)],
                                                    stiffness=30, damping=0.3, referenceLength=0.4))
    assert abs(np.linalg.norm(np.array([x, 0, 0]) - pin) - L) < 1e-14
    joint_sensors(mbs, jc, [OVT.ForceLocal, OVT.TorqueLocal, OVT.Rotation, OVT.AngularVelocityLocal])
    joint_sensors(mbs, js, [OVT.ForceLocal, OVT.TorqueLocal, OVT.DisplacementLocal, OVT.VelocityLocal])
    joint_sensors(mbs, dr, DIST_OUT)
    sensors(mbs, nodes=[(node_of(mbs, slider), OVT.Position)], objects=[(sp, OVT.Force)], loads=[tq])
    write('mixed_slider_crank', mbs, settings(1000, 2.0),
          covers='closed loop: RevoluteZ + PrismaticX + distance constraint, driving torque, spring')


CASES = [revolute_pendulum_ep, revolute_chain_rxyz, revolute_node_rigid_torque, revolute_localht_frames,
         prismatic_slider_ep, prismatic_on_pendulum, prismatic_static_spring, prismatic_rotation_marker,
         generic_weld_ep, generic_weld_ep_tight, generic_free_axes_rxyz, generic_universal_ep, generic_revolute_x_chain,
         generic_planar_sliding, generic_rotation_marker,
         distance_mass_points, distance_rigid_bodies, distance_node_markers_inactive, mixed_slider_crank]

if __name__ == '__main__':
    only = sys.argv[1:]
    for case in CASES:
        if not only or case.__name__ in only:
            case()
    print()
    print('| case | solve | steps | Newton iterations | Jacobians | nODE2 | nAE | covers |')
    print('|---|---|---|---|---|---|---|---|')
    for name, solve, steps, newton, jacs, n2, nae, covers, objs in SUMMARY:
        print(f'| {name} | {solve} | {steps} | {newton} | {jacs} | {n2} | {nae} | {covers} |')
