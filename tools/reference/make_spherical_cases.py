"""Exudyn 1.13.6 reference cases for the spherical joint and the items of the first slice.

Writes tests/reference/own_cases/NAME.json (model) and NAME.ref.json (Exudyn's results).
Run from the repository root:  python3 tools/reference/make_spherical_cases.py
"""
import os
import sys

import numpy as np
import exudyn as exu
from exudyn.itemInterface import *
from exudyn.utilities import *

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..'))
from exudyn_export import export, run_reference  # noqa: E402

OUT = os.path.join(os.path.dirname(__file__), '..', '..', 'tests', 'reference', 'own_cases')
os.makedirs(OUT, exist_ok=True)


def new_system():
    SC = exu.SystemContainer()
    return SC, SC.AddSystem()


def settings(steps=1000, end=1.0):
    s = exu.SimulationSettings()
    s.timeIntegration.numberOfSteps = steps
    s.timeIntegration.endTime = end
    s.timeIntegration.verboseMode = 0
    s.staticSolver.verboseMode = 0
    s.solutionSettings.writeSolutionToFile = False
    s.solutionSettings.sensorsWritePeriod = 0.01
    return s


def sensors(mbs, nodes=(), objects=(), bodies=(), markers=(), loads=()):
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


def write(name, mbs, s, solve='dynamic'):
    mbs.Assemble()
    export(mbs, s, os.path.join(OUT, name + '.json'), solve=solve)
    r = run_reference(mbs, s, os.path.join(OUT, name + '.ref.json'), solve=solve, case=name)
    print(name, r['statistics']['newtonIterations'], r['statistics']['jacobianEvaluations'])


OVT = exu.OutputVariableType


def seed_pendulum(mbs, omega0=None):
    """The seed's pendulum; returns (node, body, joint)."""
    oGround = mbs.AddObject(ObjectGround())
    inertia = InertiaCuboid(density=1000, sideLengths=[1, 0.1, 0.1])
    v0 = [0] * 7
    if omega0 is not None:
        ep_t = AngularVelocity2EulerParameters_t(omega0, eulerParameters0)
        vcom = np.cross(omega0, [0.5, 0, 0])
        v0 = list(vcom) + list(ep_t)
    node = mbs.AddNode(NodeRigidBodyEP(referenceCoordinates=[0.5, 0, 0] + eulerParameters0, initialVelocities=v0))
    body = mbs.AddObject(ObjectRigidBody(nodeNumber=node, mass=inertia.Mass(), inertia=inertia.GetInertia6D()))
    mbs.AddLoad(LoadMassProportional(markerNumber=mbs.AddMarker(MarkerBodyMass(bodyNumber=body)),
                                     loadVector=[0, 0, -9.81]))
    mGround = mbs.AddMarker(MarkerBodyPosition(bodyNumber=oGround, localPosition=[0, 0, 0]))
    mBody = mbs.AddMarker(MarkerBodyPosition(bodyNumber=body, localPosition=[-0.5, 0, 0]))
    oJoint = mbs.AddObject(ObjectJointSpherical(markerNumbers=[mGround, mBody]))
    sensors(mbs, nodes=[(node, OVT.Position), (node, OVT.AngularVelocity)], objects=[(oJoint, OVT.Force)])
    return node, body, oJoint


# 1-4: solver options on the seed pendulum with an initial angular velocity (consistent COM velocity)
for name, opts in [
    ('pendulum_spin_ga', {}),
    ('pendulum_spin_rho05', {'rho': 0.5}),
    ('pendulum_spin_newmark_index2', {'newmark': True, 'index2': True}),
    ('pendulum_spin_newmark_index3', {'newmark': True, 'beta': 0.3025, 'gamma': 0.6}),
    ('pendulum_spin_full_newton', {'full': True}),
    ('pendulum_spin_jac_per_step', {'perStep': True}),
    ('pendulum_spin_no_initial_acc', {'noInit': True}),
    ('pendulum_spin_large_step', {'steps': 12}),
    ('pendulum_spin_fixed_step', {'steps': 50, 'adaptive': False}),
]:
    SC, mbs = new_system()
    seed_pendulum(mbs, omega0=[1, 2, -3])
    s = settings(steps=opts.get('steps', 1000))
    ga = s.timeIntegration.generalizedAlpha
    if 'rho' in opts:
        ga.spectralRadius = opts['rho']
    if opts.get('newmark'):
        ga.useNewmark = True
        ga.newmarkBeta = opts.get('beta', 0.25)
        ga.newmarkGamma = opts.get('gamma', 0.5)
    if opts.get('index2'):
        ga.useIndex2Constraints = True
    if opts.get('full'):
        s.timeIntegration.newton.useModifiedNewton = False
    if opts.get('perStep'):
        s.timeIntegration.newton.modifiedNewtonJacUpdatePerStep = True
    if opts.get('noInit'):
        ga.computeInitialAccelerations = False
    if 'adaptive' in opts:
        s.timeIntegration.adaptiveStep = opts['adaptive']
    write(name, mbs, s)

# 5: adaptive step reduction and recovery: a stiff pendulum with few steps and tight tolerance
SC, mbs = new_system()
seed_pendulum(mbs, omega0=[0, 3, 0])
s = settings(steps=4, end=4.0)
s.timeIntegration.newton.relativeTolerance = 1e-12
write('pendulum_adaptive_steps', mbs, s)

# 6: Rxyz rigid body with COM offset on BodyRigid markers; rotated and shifted ground
SC, mbs = new_system()
R = RotationMatrixZ(0.4) @ RotationMatrixX(-0.3)
oGround = mbs.AddObject(ObjectGround(referencePosition=[0.1, -0.2, 0.3], referenceRotation=R))
inertia = InertiaCuboid(density=800, sideLengths=[0.6, 0.2, 0.1]).Translated([0.05, 0.02, -0.01])
pB = np.array([0.5, -0.1, 0.3])
AB = RotationMatrixY(0.2)
bLocal = np.array([-0.3, 0.05, 0.02])
pJ = pB + AB @ bLocal                       # the joint point, consistent with both markers
gLocal = R.T @ (pJ - np.array([0.1, -0.2, 0.3]))
omega0 = np.array([0.5, -1, 2])
b = mbs.CreateRigidBody(inertia=inertia, referencePosition=pB,
                        referenceRotationMatrix=AB, initialAngularVelocity=omega0,
                        initialVelocity=np.cross(omega0, pB - pJ), gravity=[0, -9.81, 0],
                        nodeType=exu.NodeType.RotationRxyz)
mG = mbs.AddMarker(MarkerBodyRigid(bodyNumber=oGround, localPosition=gLocal))
mB = mbs.AddMarker(MarkerBodyRigid(bodyNumber=b, localPosition=bLocal))
j = mbs.AddObject(ObjectJointSpherical(markerNumbers=[mG, mB]))
nB = mbs.GetObject(b)['nodeNumber']
sensors(mbs, nodes=[(nB, OVT.Rotation), (nB, OVT.AngularVelocity), (nB, OVT.Coordinates)],
        objects=[(j, OVT.Force), (j, OVT.Displacement), (j, OVT.Position), (j, OVT.Velocity)],
        bodies=[(b, [0.1, 0, 0], OVT.Position), (b, [0.1, 0, 0], OVT.Velocity), (b, [0, 0, 0], OVT.Rotation),
                (b, [0.1, 0.2, 0], OVT.Acceleration), (b, [0, 0, 0], OVT.AngularVelocityLocal)],
        markers=[(mB, OVT.Position), (mB, OVT.RotationMatrix), (mB, OVT.AngularVelocity)])
write('rxyz_com_offset_body_rigid', mbs, settings(steps=500, end=0.5))

# 7: two EP bodies: NodeRigid(EP)-BodyPosition(EP) joint, force and torque loads (bodyFixed),
# a spring-damper between ground and a body point, a Cartesian spring between the bodies
SC, mbs = new_system()
oGround = mbs.AddObject(ObjectGround())
i1 = InertiaCuboid(density=500, sideLengths=[0.4, 0.1, 0.1])
i2 = RigidBodyInertia(mass=2, inertiaTensor=np.diag([0.02, 0.03, 0.04]), com=[0.02, 0, 0.01],
                      inertiaTensorAtCOM=True)
b1 = mbs.CreateRigidBody(inertia=i1, referencePosition=[0.2, 0, 0], gravity=[0, 0, -9.81])
b2 = mbs.CreateRigidBody(inertia=i2, referencePosition=[0.6, 0, 0.05], gravity=[0, 0, -9.81],
                         initialAngularVelocity=[0, 0.5, 0])
n1 = mbs.GetObject(b1)['nodeNumber']
n2 = mbs.GetObject(b2)['nodeNumber']
mG = mbs.AddMarker(MarkerBodyPosition(bodyNumber=oGround, localPosition=[0, 0, 0]))
m1a = mbs.AddMarker(MarkerBodyPosition(bodyNumber=b1, localPosition=[-0.2, 0, 0]))
j1 = mbs.AddObject(ObjectJointSpherical(markerNumbers=[mG, m1a]))
mN2 = mbs.AddMarker(MarkerNodeRigid(nodeNumber=n2))
m1b = mbs.AddMarker(MarkerBodyPosition(bodyNumber=b1, localPosition=[0.2, 0, 0.05]))
j2 = mbs.AddObject(ObjectJointSpherical(markerNumbers=[mN2, m1b]))
mR2 = mbs.AddMarker(MarkerBodyRigid(bodyNumber=b2, localPosition=[0.1, 0.0, 0.0]))
l1 = mbs.AddLoad(LoadForceVector(markerNumber=mR2, loadVector=[0, 2, 0], bodyFixed=True))
l2 = mbs.AddLoad(LoadTorqueVector(markerNumber=mN2, loadVector=[0.1, 0, 0.05], bodyFixed=True))
l3 = mbs.AddLoad(LoadTorqueVector(markerNumber=mR2, loadVector=[0, 0.02, 0], bodyFixed=False))
mG2 = mbs.AddMarker(MarkerBodyPosition(bodyNumber=oGround, localPosition=[0.6, 0.3, 0.4]))
s1 = mbs.AddObject(ObjectConnectorSpringDamper(markerNumbers=[mG2, mR2], stiffness=200, damping=2,
                                                referenceLength=0.3))
m1c = mbs.AddMarker(MarkerBodyPosition(bodyNumber=b1, localPosition=[0.0, 0.05, 0]))
m2c = mbs.AddMarker(MarkerBodyPosition(bodyNumber=b2, localPosition=[-0.1, 0.05, 0]))
s2 = mbs.AddObject(ObjectConnectorCartesianSpringDamper(markerNumbers=[m1c, m2c], stiffness=[50, 60, 70],
                                                         damping=[0.5, 0.6, 0.7], offset=[0.2, 0, 0.05]))
sensors(mbs, nodes=[(n2, OVT.Position), (n2, OVT.AngularVelocityLocal), (n1, OVT.Acceleration)],
        objects=[(j1, OVT.Force), (j2, OVT.Force), (s1, OVT.Force), (s1, OVT.Distance), (s2, OVT.Force)],
        loads=[l1, l2])
write('two_bodies_node_rigid_loads_springs', mbs, settings(steps=400, end=0.4))

# 8: mass points: NodePosition and BodyPosition(MassPoint) pairings, free axes, an inactive joint
SC, mbs = new_system()
oGround = mbs.AddObject(ObjectGround())
p1 = mbs.CreateMassPoint(referencePosition=[0.5, 0, 0], physicsMass=1.5, gravity=[0, 0, -9.81])
p2 = mbs.CreateMassPoint(referencePosition=[1.0, 0, 0], physicsMass=0.5, gravity=[0, 0, -9.81],
                         initialVelocity=[0, 0.3, 0])
pn1 = mbs.GetObject(p1)['nodeNumber']
pn2 = mbs.GetObject(p2)['nodeNumber']
mG = mbs.AddMarker(MarkerBodyPosition(bodyNumber=oGround, localPosition=[0, 0, 0]))
mP1 = mbs.AddMarker(MarkerNodePosition(nodeNumber=pn1))
mP1b = mbs.AddMarker(MarkerBodyPosition(bodyNumber=p1, localPosition=[0, 0, 0]))
mP2 = mbs.AddMarker(MarkerBodyPosition(bodyNumber=p2, localPosition=[0, 0, 0]))
ja = mbs.AddObject(ObjectJointSpherical(markerNumbers=[mG, mP1], constrainedAxes=[1, 1, 0]))
sa = mbs.AddObject(ObjectConnectorSpringDamper(markerNumbers=[mG, mP1], stiffness=500, damping=1,
                                                referenceLength=0.5))
jb = mbs.AddObject(ObjectConnectorSpringDamper(markerNumbers=[mP1b, mP2], stiffness=300, damping=0.5,
                                                referenceLength=0.5))
jc = mbs.AddObject(ObjectJointSpherical(markerNumbers=[mP1b, mP2], activeConnector=False))
jd = mbs.AddObject(ObjectJointSpherical(markerNumbers=[mP2, mG], constrainedAxes=[0, 1, 0]))
sensors(mbs, nodes=[(pn1, OVT.Position), (pn2, OVT.Velocity)],
        objects=[(ja, OVT.Force), (jc, OVT.Force), (jd, OVT.Force), (jd, OVT.Displacement)],
        bodies=[(p2, [0, 0, 0], OVT.Position)], markers=[(mP2, OVT.Velocity)])
write('mass_points_free_axes_inactive', mbs, settings(steps=500, end=1.0))

# 9: static: two EP bodies with COM offsets hanging on joints and a spring, 4 load steps
SC, mbs = new_system()
oGround = mbs.AddObject(ObjectGround())
ia = RigidBodyInertia(mass=3, inertiaTensor=np.diag([0.01, 0.05, 0.05]), com=[0, 0, -0.03],
                      inertiaTensorAtCOM=True)
ba = mbs.CreateRigidBody(inertia=ia, referencePosition=[0.3, 0, 0], gravity=[0, 0, -9.81])
bb = mbs.CreateRigidBody(inertia=ia, referencePosition=[0.9, 0, 0], gravity=[0, 0, -9.81],
                         nodeType=exu.NodeType.RotationRxyz)
mG = mbs.AddMarker(MarkerBodyPosition(bodyNumber=oGround, localPosition=[0, 0, 0]))
ma0 = mbs.AddMarker(MarkerBodyPosition(bodyNumber=ba, localPosition=[-0.3, 0, 0]))
ma1 = mbs.AddMarker(MarkerBodyPosition(bodyNumber=ba, localPosition=[0.3, 0, 0.05]))
mb0 = mbs.AddMarker(MarkerBodyRigid(bodyNumber=bb, localPosition=[-0.3, 0, 0.05]))
mb1 = mbs.AddMarker(MarkerBodyPosition(bodyNumber=bb, localPosition=[0.3, 0.05, 0]))
j1 = mbs.AddObject(ObjectJointSpherical(markerNumbers=[mG, ma0]))
j2 = mbs.AddObject(ObjectJointSpherical(markerNumbers=[ma1, mb0]))
springs = []
for body, bodyRef, local in [(ba, [0.3, 0, 0], [0, 0.1, 0]), (bb, [0.9, 0, 0], [0.3, 0.05, 0]),
                             (bb, [0.9, 0, 0], [0, 0, 0.1])]:
    mGs = mbs.AddMarker(MarkerBodyPosition(bodyNumber=oGround, localPosition=np.array(bodyRef) + local))
    mBs = mbs.AddMarker(MarkerBodyPosition(bodyNumber=body, localPosition=local))
    springs.append(mbs.AddObject(ObjectConnectorCartesianSpringDamper(
        markerNumbers=[mGs, mBs], stiffness=[2000, 2500, 3000], damping=[0, 0, 0], offset=[0, 0, 0])))
sp = springs[1]
sensors(mbs, nodes=[(mbs.GetObject(bb)['nodeNumber'], OVT.Position), (mbs.GetObject(ba)['nodeNumber'], OVT.Rotation)],
        objects=[(j1, OVT.Force), (j2, OVT.Force), (sp, OVT.Force)])
s = settings()
s.staticSolver.numberOfLoadSteps = 4
write('static_two_bodies_spring', mbs, s, solve='static')
