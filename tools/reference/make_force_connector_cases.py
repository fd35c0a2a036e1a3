"""Exudyn 1.13.6 reference cases for the force connectors of issue 19 (ObjectConnectorGravity,
ObjectConnectorTorsionalSpringDamper, ObjectConnectorLinearSpringDamper,
ObjectConnectorRigidBodySpringDamper so far).

Writes tests/reference/own_cases/NAME.json (model) and NAME.ref.json (Exudyn's results).
Run from the repository root:  python3 tools/reference/make_force_connector_cases.py [NAME ...]
(no names: every case).
"""
import os
import sys

import numpy as np

import exudyn as exu
from exudyn.itemInterface import *
from exudyn.utilities import *

sys.path.insert(0, os.path.dirname(__file__))
from case_writer import settings, write  # noqa: E402

OVT = exu.OutputVariableType


def gravity_bodies():
    """Three mass points and a ground point attracting each other: a heavy centre, a body in
    orbit, one falling through the centre's regularization radius (minDistanceRegularization),
    an inactive pair, and a rigid body's marker (its Jacobian has rotation columns)."""
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    G = 1.0
    bodies = []
    for m, p, v in [(10.0, [0, 0, 0], [0, 0, 0]), (0.1, [1, 0, 0], [0, 3.0, 0.2]),
                    (0.2, [0.3, 0.4, 0], [-2.0, 0.5, 0.0])]:
        o = mbs.CreateMassPoint(physicsMass=m, referencePosition=p, initialVelocity=v)
        n = mbs.GetObject(o)['nodeNumber']
        bodies.append((m, mbs.AddMarker(MarkerNodePosition(nodeNumber=n)), n))
    inertia = InertiaCuboid(density=100, sideLengths=[0.2, 0.1, 0.1])
    rb = mbs.CreateRigidBody(inertia=inertia, referencePosition=[-1, 0.5, 0], nodeType=exu.NodeType.RotationRxyz,
                             initialAngularVelocity=[0, 0, 2.0], initialVelocity=[1.1, 2.2, 0.3])
    mRb = mbs.AddMarker(MarkerBodyPosition(bodyNumber=rb, localPosition=[0.1, 0, 0]))
    c, o1, o2 = bodies
    g1 = mbs.AddObject(ObjectConnectorGravity(markerNumbers=[c[1], o1[1]], gravitationalConstant=G, mass0=c[0],
                                              mass1=o1[0]))
    g2 = mbs.AddObject(ObjectConnectorGravity(markerNumbers=[c[1], o2[1]], gravitationalConstant=G, mass0=c[0],
                                              mass1=o2[0], minDistanceRegularization=0.3))
    mbs.AddObject(ObjectConnectorGravity(markerNumbers=[o1[1], o2[1]], gravitationalConstant=G, mass0=o1[0],
                                         mass1=o2[0], activeConnector=False))
    mbs.AddObject(ObjectConnectorGravity(markerNumbers=[c[1], mRb], gravitationalConstant=G, mass0=c[0],
                                         mass1=inertia.mass))
    for g in [g1, g2]:
        for v in [OVT.Distance, OVT.Displacement, OVT.Force]:
            mbs.AddSensor(SensorObject(objectNumber=g, outputVariableType=v, storeInternal=True, writeToFile=False))
    mbs.AddSensor(SensorNode(nodeNumber=o2[2], outputVariableType=OVT.Position, storeInternal=True,
                             writeToFile=False))
    return mbs


def torsional_bodies():
    """TorsionalSpringDampers: an EP body on a revolute joint to ground with a spring to
    ground (turned joint frames, offset, velocityOffset, constant torque), a free Tait-Bryan
    body coupled to it by a second spring through a marker with a localHT rotation, and an
    inactive one."""
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    ground = mbs.AddObject(ObjectGround())
    inertia = InertiaCuboid(density=500, sideLengths=[0.4, 0.2, 0.1])
    b0 = mbs.CreateRigidBody(inertia=inertia, referencePosition=[0, 0, 0], initialAngularVelocity=[0, 0, 2.0])
    b1 = mbs.CreateRigidBody(inertia=inertia, referencePosition=[1, 0, 0], nodeType=exu.NodeType.RotationRxyz,
                             initialAngularVelocity=[0.3, -0.2, 0.5], initialVelocity=[0, 0.1, 0])
    mG = mbs.AddMarker(MarkerBodyRigid(bodyNumber=ground))
    m0 = mbs.AddMarker(MarkerBodyRigid(bodyNumber=b0))
    m1 = mbs.AddMarker(MarkerBodyRigid(bodyNumber=b1,
                                       localHT=HomogeneousTransformation(RotationMatrixX(0.3), [-0.2, 0, 0])))
    mbs.AddObject(ObjectJointRevoluteZ(markerNumbers=[mG, m0]))
    Rz = RotationMatrixX(0.2) @ RotationMatrixY(-0.1)
    t0 = mbs.AddObject(ObjectConnectorTorsionalSpringDamper(markerNumbers=[mG, m0], stiffness=50, damping=0.5,
                                                            offset=0.3, velocityOffset=0.1, torque=0.4))
    t1 = mbs.AddObject(ObjectConnectorTorsionalSpringDamper(markerNumbers=[m0, m1], stiffness=20, damping=0.2,
                                                            rotationMarker0=Rz, rotationMarker1=RotationMatrixZ(0.2)))
    mbs.AddObject(ObjectConnectorTorsionalSpringDamper(markerNumbers=[mG, m1], stiffness=1e3, activeConnector=False))
    for t in [t0, t1]:
        for v in [OVT.Rotation, OVT.AngularVelocityLocal, OVT.TorqueLocal]:
            mbs.AddSensor(SensorObject(objectNumber=t, outputVariableType=v, storeInternal=True, writeToFile=False))
    return mbs


def torsional_continuous(joints=True):
    """TorsionalSpringDampers whose angle runs past ±π, kept continuous by a NodeGenericData
    (nodeNumber): a flywheel on a revolute joint spinning at 12 rad/s against a weak spring
    and a damper to ground (about two turns in the run), and a second wheel on the first
    turning the other way through a spring with its own data node (initial data coordinate
    not zero: the angle is taken within π of it); a third data node nobody uses. Sensors: the
    springs' Rotation and TorqueLocal, the data nodes' Coordinates."""
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    ground = mbs.AddObject(ObjectGround())
    inertia = InertiaCylinder(density=1000, length=0.05, outerRadius=0.2, axis=2)
    # without joints (explicit solvers: no constraints) both wheels are free Tait-Bryan bodies
    b0 = mbs.CreateRigidBody(inertia=inertia, referencePosition=[0, 0, 0], initialAngularVelocity=[0, 0, 12.0],
                             nodeType=exu.NodeType.RotationEulerParameters if joints else exu.NodeType.RotationRxyz)
    b1 = mbs.CreateRigidBody(inertia=inertia, referencePosition=[0, 0, 0.1], initialAngularVelocity=[0, 0, -3.0],
                             nodeType=exu.NodeType.RotationRxyz)
    mG = mbs.AddMarker(MarkerBodyRigid(bodyNumber=ground))
    m0 = mbs.AddMarker(MarkerBodyRigid(bodyNumber=b0))
    m1 = mbs.AddMarker(MarkerBodyRigid(bodyNumber=b1))
    m0top = mbs.AddMarker(MarkerBodyRigid(bodyNumber=b0, localPosition=[0, 0, 0.1]))
    if joints:
        mbs.AddObject(ObjectJointRevoluteZ(markerNumbers=[mG, m0]))
        mbs.AddObject(ObjectJointRevoluteZ(markerNumbers=[m0top, m1]))
    d0 = mbs.AddNode(NodeGenericData(numberOfDataCoordinates=1, initialCoordinates=[0]))
    d1 = mbs.AddNode(NodeGenericData(numberOfDataCoordinates=2, initialCoordinates=[2 * np.pi, 5.0]))
    d2 = mbs.AddNode(NodeGenericData(numberOfDataCoordinates=0, initialCoordinates=[]))
    t0 = mbs.AddObject(ObjectConnectorTorsionalSpringDamper(markerNumbers=[mG, m0], nodeNumber=d0, stiffness=0.5,
                                                            damping=0.02))
    t1 = mbs.AddObject(ObjectConnectorTorsionalSpringDamper(markerNumbers=[m0, m1], nodeNumber=d1, stiffness=0.3,
                                                            offset=0.5))
    for t in [t0, t1]:
        for v in [OVT.Rotation, OVT.TorqueLocal]:
            mbs.AddSensor(SensorObject(objectNumber=t, outputVariableType=v, storeInternal=True, writeToFile=False))
    for d in [d0, d1]:
        mbs.AddSensor(SensorNode(nodeNumber=d, outputVariableType=OVT.Coordinates, storeInternal=True,
                                 writeToFile=False))
    return mbs


def linear_bodies():
    """LinearSpringDampers: a Tait-Bryan body on a prismatic joint with a spring along the
    joint axis (offset, velocityOffset, force), a free EP body hanging on a spring along a
    turned axis of a marker with a localHT rotation, and an inactive one (force output 0)."""
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    ground = mbs.AddObject(ObjectGround())
    inertia = InertiaCuboid(density=500, sideLengths=[0.4, 0.2, 0.1])
    b0 = mbs.CreateRigidBody(inertia=inertia, referencePosition=[0.2, 0, 0], nodeType=exu.NodeType.RotationRxyz,
                             initialVelocity=[0.5, 0, 0])
    b1 = mbs.CreateRigidBody(inertia=inertia, referencePosition=[0.5, -0.6, 0.1], initialAngularVelocity=[0.2, 0.4, 1.0],
                             gravity=[0, -9.81, 0])
    mG = mbs.AddMarker(MarkerBodyRigid(bodyNumber=ground))
    m0 = mbs.AddMarker(MarkerBodyRigid(bodyNumber=b0))
    m0b = mbs.AddMarker(MarkerBodyRigid(bodyNumber=b0, localHT=HomogeneousTransformation(RotationMatrixZ(0.4),
                                                                                       [0.1, 0, 0])))
    m1 = mbs.AddMarker(MarkerBodyRigid(bodyNumber=b1, localPosition=[-0.1, 0.05, 0]))
    mbs.AddObject(ObjectJointPrismaticX(markerNumbers=[mG, m0]))
    l0 = mbs.AddObject(ObjectConnectorLinearSpringDamper(markerNumbers=[mG, m0], stiffness=100, damping=1,
                                                         axisMarker0=[1, 0, 0], offset=0.25, velocityOffset=0.1,
                                                         force=0.5))
    l1 = mbs.AddObject(ObjectConnectorLinearSpringDamper(markerNumbers=[m0b, m1], stiffness=300, damping=2,
                                                         axisMarker0=[0, 1, 0], offset=-0.55))
    l2 = mbs.AddObject(ObjectConnectorLinearSpringDamper(markerNumbers=[mG, m1], stiffness=1e3, activeConnector=False))
    for l in [l0, l1, l2]:
        for v in [OVT.DisplacementLocal, OVT.VelocityLocal, OVT.ForceLocal]:
            mbs.AddSensor(SensorObject(objectNumber=l, outputVariableType=v, storeInternal=True, writeToFile=False))
    return mbs


def rigid_body_spring_damper_bodies(intrinsic=False):
    """RigidBodySpringDampers: an EP body held to ground by a full, non-symmetric 6 × 6
    stiffness with damping, an offset and turned joint frames (rotationMarker0/1); a
    Tait-Bryan body coupled to it through a marker with a localHT (translation and rotation)
    and a MarkerNodeRigid; an inactive one (ForceLocal and PotentialEnergy 0). Gravity on both."""
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    ground = mbs.AddObject(ObjectGround(referencePosition=[0, 0.1, 0]))
    inertia = InertiaCuboid(density=500, sideLengths=[0.4, 0.2, 0.1])
    b0 = mbs.CreateRigidBody(inertia=inertia, referencePosition=[0.3, 0, 0], gravity=[0, -9.81, 0],
                             initialAngularVelocity=[0.4, -0.3, 1.5], initialVelocity=[0, 0.2, 0.1])
    b1 = mbs.CreateRigidBody(inertia=inertia, referencePosition=[0.9, -0.1, 0.05], nodeType=exu.NodeType.RotationRxyz,
                             gravity=[0, -9.81, 0], initialAngularVelocity=[-0.5, 0.8, 0.2])
    n1 = mbs.GetObject(b1)['nodeNumber']
    mG = mbs.AddMarker(MarkerBodyRigid(bodyNumber=ground, localPosition=[0.1, 0, 0]))
    m0 = mbs.AddMarker(MarkerBodyRigid(bodyNumber=b0, localPosition=[-0.2, 0.05, 0]))
    m0b = mbs.AddMarker(MarkerBodyRigid(bodyNumber=b0, localHT=HomogeneousTransformation(
        RotationMatrixZ(0.3) @ RotationMatrixX(-0.2), [0.2, 0, 0.02])))
    m1 = mbs.AddMarker(MarkerNodeRigid(nodeNumber=n1))
    k = np.diag([2000., 3000., 2500., 40., 60., 50.])
    k[0, 4] = 80.  # couplings, not symmetric
    k[2, 1] = -150.
    k[4, 0] = 30.
    k[3, 5] = 5.
    d = np.diag([5., 6., 4., 0.2, 0.3, 0.25])
    d[1, 3] = 0.4
    c0 = mbs.AddObject(ObjectConnectorRigidBodySpringDamper(
        markerNumbers=[mG, m0], stiffness=k, damping=d, offset=[0.01, -0.02, 0, 0.05, 0, -0.1],
        rotationMarker0=RotationMatrixY(0.2), rotationMarker1=RotationMatrixZ(-0.1),
        useIntrinsicFormulation=intrinsic))
    k1 = np.diag([1500., 1500., 1800., 30., 30., 20.])
    k1[5, 2] = 12.
    c1 = mbs.AddObject(ObjectConnectorRigidBodySpringDamper(
        markerNumbers=[m0b, m1], stiffness=k1, damping=0.01 * k1, offset=[0.4, 0, 0, 0, 0, 0],
        useIntrinsicFormulation=intrinsic))
    c2 = mbs.AddObject(ObjectConnectorRigidBodySpringDamper(markerNumbers=[mG, m1], stiffness=k, activeConnector=False,
                                                            useIntrinsicFormulation=intrinsic))
    for c in [c0, c1, c2]:
        for v in [OVT.DisplacementLocal, OVT.Displacement, OVT.Rotation, OVT.VelocityLocal, OVT.AngularVelocityLocal,
                  OVT.ForceLocal, OVT.TorqueLocal, OVT.PotentialEnergy]:
            mbs.AddSensor(SensorObject(objectNumber=c, outputVariableType=v, storeInternal=True, writeToFile=False))
    mbs.AddSensor(SensorObject(objectNumber=c1, outputVariableType=OVT.HomogeneousTransformationLocal,
                               storeInternal=True, writeToFile=False))
    return mbs


CASES = {}


def case(f):
    CASES[f.__name__] = f
    return f


@case
def connector_gravity():
    write('connector_gravity', gravity_bodies(), settings(1000, 0.5))


@case
def connector_gravity_rk67():
    write('connector_gravity_rk67', gravity_bodies(), settings(1000, 0.5), solver_type=exu.DynamicSolverType.RK67)


@case
def connector_torsional_spring_damper():
    write('connector_torsional_spring_damper', torsional_bodies(), settings(500, 1.0))


@case
def connector_torsional_continuous_angle():
    write('connector_torsional_continuous_angle', torsional_continuous(), settings(1000, 1.0))


@case
def connector_torsional_continuous_angle_rk44():
    # Exudyn's explicit solvers update the data coordinates after each step too
    write('connector_torsional_continuous_angle_rk44', torsional_continuous(joints=False), settings(2000, 1.0),
          solver_type=exu.DynamicSolverType.RK44)


@case
def connector_linear_spring_damper():
    write('connector_linear_spring_damper', linear_bodies(), settings(500, 1.0))


@case
def connector_rigid_body_spring_damper():
    # Exudyn differentiates this formulation analytically
    write('connector_rigid_body_spring_damper', rigid_body_spring_damper_bodies(), settings(500, 1.0))


@case
def connector_rigid_body_spring_damper_intrinsic():
    # and this one by forward differences
    write('connector_rigid_body_spring_damper_intrinsic', rigid_body_spring_damper_bodies(intrinsic=True),
          settings(500, 1.0))


if __name__ == '__main__':
    for n in sys.argv[1:] or list(CASES):
        CASES[n]()
