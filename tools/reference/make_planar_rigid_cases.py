"""Exudyn 1.13.6 reference cases for the planar items of issue 19: NodeRigidBody2D,
ObjectRigidBody2D (centre of mass at the node and off it), ObjectJointRevolute2D and
ObjectJointPrismatic2D (with and without constrainRotation), ObjectBeamGeometricallyExact2D,
their markers and outputs.

Writes tests/reference/own_cases/NAME.json (model) and NAME.ref.json (Exudyn's results).
Run from the repository root:  python3 tools/reference/make_planar_rigid_cases.py [NAME ...]
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


def sensor(mbs, kind, **kw):
    mbs.AddSensor(kind(storeInternal=True, writeToFile=False, **kw))


def gravity(mbs, body):
    m = mbs.AddMarker(MarkerBodyMass(bodyNumber=body))
    mbs.AddLoad(LoadMassProportional(markerNumber=m, loadVector=[0, -9.81, 0]))


def double_pendulum_system():
    """A double pendulum of planar rigid bodies on RevoluteJoint2D: the first centred at its
    node, hung from ground at a body marker; the second with its centre of mass off the node
    (Exudyn's extra mass-matrix and quadratic-velocity terms), hung from the first through node
    markers and a body marker; gravity on both (MarkerBodyMass), a torque and a force load, a
    spring-damper from ground to the second body; every node, body and joint output. The initial
    positions and velocities meet both joints."""
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    ground = mbs.AddObject(ObjectGround(referencePosition=[0.1, 0.2, 0]))
    # initial velocities that meet both joints: body 0 turns at 1.5 rad/s about its ground
    # point, body 1 at −2 rad/s about the joint point between them (ω × r = ω·[−r_y, r_x])
    cross = lambda w, r: w * np.array([-r[1], r[0]])
    w0, w1 = 1.5, -2.0
    v0 = -cross(w0, RotationMatrixZ(0.1)[:2, :2] @ np.array([-0.3, 0.0]))
    p0 = np.array([0.5, 0.2]) + RotationMatrixZ(0.1)[:2, :2] @ np.array([0.3, 0.0])
    v_p0 = v0 + cross(w0, p0 - np.array([0.5, 0.2]))
    v1 = v_p0 - cross(w1, p0 - np.array([1.2, 0.25]))
    n0 = mbs.AddNode(NodeRigidBody2D(referenceCoordinates=[0.5, 0.2, 0.1], initialVelocities=[v0[0], v0[1], w0]))
    n1 = mbs.AddNode(NodeRigidBody2D(referenceCoordinates=[1.2, 0.25, -0.3], initialCoordinates=[0, 0, 0.05],
                                     initialVelocities=[v1[0], v1[1], w1]))
    b0 = mbs.AddObject(RigidBody2D(physicsMass=1.2, physicsInertia=0.1, nodeNumber=n0))
    b1 = mbs.AddObject(RigidBody2D(physicsMass=0.8, physicsInertia=0.09, physicsCenterOfMass=[0.15, -0.05],
                                   nodeNumber=n1))
    # the ground point where body 0's marker is at the start
    mG_local = np.array([0.5, 0.2]) + RotationMatrixZ(0.1)[:2, :2] @ np.array([-0.3, 0.0]) - np.array([0.1, 0.2])
    mG = mbs.AddMarker(MarkerBodyPosition(bodyNumber=ground, localPosition=[mG_local[0], mG_local[1], 0]))
    mA = mbs.AddMarker(MarkerBodyPosition(bodyNumber=b0, localPosition=[-0.3, 0.0, 0]))
    j0 = mbs.AddObject(RevoluteJoint2D(markerNumbers=[mG, mA]))
    # the second joint: body 0's point p0 (a rigid marker) to body 1's point at p0 (where its
    # local position puts it at the start)
    local1 = RotationMatrixZ(-0.25).T @ (np.append(p0, 0) - np.array([1.2, 0.25, 0]))
    mB = mbs.AddMarker(MarkerBodyRigid(bodyNumber=b0, localPosition=[0.3, 0.0, 0]))
    mC = mbs.AddMarker(MarkerBodyRigid(bodyNumber=b1, localPosition=list(local1)))
    j1 = mbs.AddObject(RevoluteJoint2D(markerNumbers=[mB, mC]))
    for b in [b0, b1]:
        gravity(mbs, b)
    mN0 = mbs.AddMarker(MarkerNodeRigid(nodeNumber=n0))
    mbs.AddLoad(LoadTorqueVector(markerNumber=mN0, loadVector=[0, 0, 0.3]))
    mN1 = mbs.AddMarker(MarkerNodePosition(nodeNumber=n1))
    mbs.AddLoad(LoadForceVector(markerNumber=mN1, loadVector=[0.5, 0.2, 3.0]))
    mG2 = mbs.AddMarker(MarkerBodyPosition(bodyNumber=ground, localPosition=[1.5, 0.5, 0]))
    mD = mbs.AddMarker(MarkerBodyPosition(bodyNumber=b1, localPosition=[0.2, 0.1, 0]))
    mbs.AddObject(ObjectConnectorSpringDamper(markerNumbers=[mG2, mD], stiffness=40, damping=0.3,
                                              referenceLength=0.4))
    for v in [OVT.Position, OVT.Displacement, OVT.Velocity, OVT.Acceleration, OVT.AngularVelocity,
              OVT.AngularVelocityLocal, OVT.AngularAcceleration, OVT.Rotation, OVT.RotationMatrix,
              OVT.Coordinates, OVT.Coordinates_t, OVT.Coordinates_tt, OVT.CoordinatesTotal]:
        sensor(mbs, SensorNode, nodeNumber=n1, outputVariableType=v)
    for v in [OVT.Position, OVT.Displacement, OVT.Velocity, OVT.VelocityLocal, OVT.Acceleration,
              OVT.AccelerationLocal, OVT.Rotation, OVT.RotationMatrix, OVT.AngularVelocity,
              OVT.AngularVelocityLocal, OVT.AngularAcceleration, OVT.AngularAccelerationLocal]:
        sensor(mbs, SensorBody, bodyNumber=b1, localPosition=[0.1, 0.2, 0.0], outputVariableType=v)
    for j in [j0, j1]:
        for v in [OVT.Position, OVT.Velocity, OVT.Displacement, OVT.Force]:
            sensor(mbs, SensorObject, objectNumber=j, outputVariableType=v)
    for v in [OVT.Position, OVT.Velocity, OVT.Rotation, OVT.AngularVelocity]:
        sensor(mbs, SensorMarker, markerNumber=mC, outputVariableType=v)
    return mbs


def planar_double_pendulum():
    write('planar_double_pendulum', double_pendulum_system(), settings())


def planar_double_pendulum_index2():
    s = settings()
    s.timeIntegration.generalizedAlpha.useIndex2Constraints = True
    s.timeIntegration.generalizedAlpha.useNewmark = True
    write('planar_double_pendulum_index2', double_pendulum_system(), s)


def slider_crank_system():
    """A slider-crank: crank on RevoluteJoint2D to ground (a NodePointGround marker), driven by
    a torque, conrod between crank and slider, slider on PrismaticJoint2D along a tilted ground
    axis; a second slider on the conrod on PrismaticJoint2D with constrainRotation = False (it
    turns freely; its normalMarker1 turns with it) pulled by a spring-damper; a coordinate
    load on the crank angle; joint outputs Distance and Rotation. The initial configuration
    meets every constraint."""
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    ground = mbs.AddObject(ObjectGround())
    nG = mbs.AddNode(NodePointGround(referenceCoordinates=[0, 0, 0]))
    r, l = 0.2, 0.6
    phi = 0.3
    a = np.array([r * np.cos(phi), r * np.sin(phi)])
    # slider on the x axis turned by 0.1: s·[cos 0.1, sin 0.1] with |s·e − a| = l
    e = np.array([np.cos(0.1), np.sin(0.1)])
    ae = a @ e
    s = ae + np.sqrt(ae ** 2 - a @ a + l * l)
    c = s * e
    beta = np.arctan2(c[1] - a[1], c[0] - a[0])
    nCrank = mbs.AddNode(NodeRigidBody2D(referenceCoordinates=[a[0] / 2, a[1] / 2, phi],
                                         initialVelocities=[-a[1] / 2 * 4, a[0] / 2 * 4, 4.0]))
    crank = mbs.AddObject(RigidBody2D(physicsMass=0.5, physicsInertia=0.002, nodeNumber=nCrank))
    mid = (a + c) / 2
    nRod = mbs.AddNode(NodeRigidBody2D(referenceCoordinates=[mid[0], mid[1], beta]))
    rod = mbs.AddObject(RigidBody2D(physicsMass=0.8, physicsInertia=0.025, physicsCenterOfMass=[0.02, 0.0],
                                    nodeNumber=nRod))
    nSl = mbs.AddNode(NodeRigidBody2D(referenceCoordinates=[c[0], c[1], 0.1]))
    slider = mbs.AddObject(RigidBody2D(physicsMass=1.0, physicsInertia=0.01, nodeNumber=nSl))
    mGn = mbs.AddMarker(MarkerNodePosition(nodeNumber=nG))
    mC0 = mbs.AddMarker(MarkerBodyPosition(bodyNumber=crank, localPosition=[-r / 2, 0, 0]))
    mbs.AddObject(RevoluteJoint2D(markerNumbers=[mGn, mC0]))
    mC1 = mbs.AddMarker(MarkerBodyPosition(bodyNumber=crank, localPosition=[r / 2, 0, 0]))
    mR0 = mbs.AddMarker(MarkerBodyPosition(bodyNumber=rod, localPosition=[-l / 2, 0, 0]))
    mbs.AddObject(RevoluteJoint2D(markerNumbers=[mC1, mR0]))
    mR1 = mbs.AddMarker(MarkerBodyPosition(bodyNumber=rod, localPosition=[l / 2, 0, 0]))
    mS = mbs.AddMarker(MarkerNodeRigid(nodeNumber=nSl))
    mbs.AddObject(RevoluteJoint2D(markerNumbers=[mR1, mS]))
    mGr = mbs.AddMarker(MarkerBodyRigid(bodyNumber=ground, localPosition=[0, 0, 0]))
    mSr = mbs.AddMarker(MarkerBodyRigid(bodyNumber=slider, localPosition=[0, 0, 0]))
    pj = mbs.AddObject(PrismaticJoint2D(markerNumbers=[mGr, mSr], axisMarker0=[np.cos(0.1), np.sin(0.1), 0],
                                        normalMarker1=[0, 1, 0], constrainRotation=True))
    # a ring on the rod, turned by 0.4: slides along it and turns freely, pulled by a spring;
    # its local normal Rz(−0.4)·e_y is the rod's normal at the start
    ring_at = mid + 0.1 * np.array([np.cos(beta), np.sin(beta)])
    nRing = mbs.AddNode(NodeRigidBody2D(referenceCoordinates=[ring_at[0], ring_at[1], beta + 0.4],
                                        initialVelocities=[0, 0, 1.0]))
    ring = mbs.AddObject(RigidBody2D(physicsMass=0.2, physicsInertia=0.001, nodeNumber=nRing))
    mRod = mbs.AddMarker(MarkerBodyRigid(bodyNumber=rod, localPosition=[0, 0, 0]))
    mRing = mbs.AddMarker(MarkerNodeRigid(nodeNumber=nRing))
    fj = mbs.AddObject(PrismaticJoint2D(markerNumbers=[mRod, mRing], axisMarker0=[1, 0, 0],
                                        normalMarker1=[np.sin(0.4), np.cos(0.4), 0], constrainRotation=False))
    mRingP = mbs.AddMarker(MarkerBodyPosition(bodyNumber=ring, localPosition=[0, 0, 0]))
    mbs.AddObject(ObjectConnectorSpringDamper(markerNumbers=[mC0, mRingP], stiffness=20, damping=0.1,
                                              referenceLength=0.3))
    mTheta = mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=nCrank, coordinate=2))
    mbs.AddLoad(LoadCoordinate(markerNumber=mTheta, load=0.05))
    for b in [crank, rod, slider, ring]:
        gravity(mbs, b)
    for j in [pj, fj]:
        for v in [OVT.Position, OVT.Velocity, OVT.Distance, OVT.Rotation]:
            sensor(mbs, SensorObject, objectNumber=j, outputVariableType=v)
    sensor(mbs, SensorNode, nodeNumber=nSl, outputVariableType=OVT.Position)
    sensor(mbs, SensorNode, nodeNumber=nRing, outputVariableType=OVT.Rotation)
    return mbs


def planar_slider_crank():
    write('planar_slider_crank', slider_crank_system(), settings())


def planar_pendulum_static():
    """A planar body with its centre of mass off the node, on a RevoluteJoint2D to ground and a
    rotational spring (a CoordinateSpringDamper on its angle against a ground node), bent by
    gravity and a force: its equilibrium by the static solver in 5 load steps."""
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    ground = mbs.AddObject(ObjectGround())
    nG = mbs.AddNode(NodePointGround())
    n = mbs.AddNode(NodeRigidBody2D(referenceCoordinates=[0.4, 0.0, 0.0]))
    b = mbs.AddObject(RigidBody2D(physicsMass=2.0, physicsInertia=0.1, physicsCenterOfMass=[0.1, 0.05],
                                  nodeNumber=n))
    mG = mbs.AddMarker(MarkerBodyPosition(bodyNumber=ground))
    mB = mbs.AddMarker(MarkerBodyPosition(bodyNumber=b, localPosition=[-0.4, 0, 0]))
    j = mbs.AddObject(RevoluteJoint2D(markerNumbers=[mG, mB]))
    mc0 = mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=nG, coordinate=0))
    mc1 = mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=n, coordinate=2))
    mbs.AddObject(CoordinateSpringDamper(markerNumbers=[mc0, mc1], stiffness=50.0, damping=0.1))
    gravity(mbs, b)
    mbs.AddLoad(LoadForceVector(markerNumber=mbs.AddMarker(MarkerBodyPosition(bodyNumber=b, localPosition=[0.3, 0, 0])),
                                loadVector=[1.0, -2.0, 0]))
    sensor(mbs, SensorObject, objectNumber=j, outputVariableType=OVT.Force)
    sensor(mbs, SensorNode, nodeNumber=n, outputVariableType=OVT.Coordinates)
    s = settings()
    s.staticSolver.numberOfLoadSteps = 5
    write('planar_pendulum_static', mbs, s, solve='static')


def beam_frame_system(dynamic):
    """A frame of ObjectBeamGeometricallyExact2D elements on shared NodeRigidBody2D nodes: a
    clamped column (CoordinateConstraints to a ground node) whose top node turns at a right
    angle into a precurved arm (referenceCurvature; includeReferenceRotations False: the
    section angle follows the reference slope) carrying a planar rigid body on a
    RevoluteJoint2D at its tip; a hinged straight arm with includeReferenceRotations True on
    nodes turned by their reference angles; damping of every kind; gravity on the body, a tip
    force and a torque. Sensors read the tip node. Statically, without the hinged parts."""
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    E, rho, b, h, nu = 2.1e8, 7800.0, 0.05, 0.02, 0.3
    A, I = b * h, b * h ** 3 / 12
    ks = 10 * (1 + nu) / (12 + 11 * nu)
    G = E / (2 * (1 + nu))
    section = dict(physicsMassPerLength=rho * A, physicsCrossSectionInertia=rho * I,
                   physicsBendingStiffness=E * I, physicsAxialStiffness=E * A,
                   physicsShearStiffness=ks * G * A)
    damping = dict(physicsBendingDamping=2.0, physicsAxialDamping=500.0, physicsShearDamping=100.0)
    a = 0.2
    column = [[0, 0, 0], [0, a, 0], [0, 2 * a, 0]]
    arm = [[a * i, 2 * a + 0.002 * i * i, 0] for i in range(1, 4)]
    nodes = [mbs.AddNode(NodeRigidBody2D(referenceCoordinates=p)) for p in column + arm]
    for i in range(len(nodes) - 1):
        curved = i >= 2
        mbs.AddObject(ObjectBeamGeometricallyExact2D(
            nodeNumbers=[nodes[i], nodes[i + 1]], physicsLength=a if i < 2 else float(
                np.hypot(a, 0.002 * ((i - 1) ** 2 - (i - 2) ** 2))),
            physicsReferenceCurvature=0.05 if curved else 0.0, includeReferenceRotations=False,
            **section, **damping))
    if dynamic:
        # a straight arm hinged at the column's middle node (RevoluteJoint2D), its nodes turned
        # by their reference angle π − 0.3, which it uses (includeReferenceRotations); its
        # curvature is N'·ψ, so beams sharing a node need the same reference angles there
        psi = np.pi - 0.3
        turned = [mbs.AddNode(NodeRigidBody2D(referenceCoordinates=[-a * k * np.cos(0.3),
                                                                     a + a * k * np.sin(0.3), psi]))
                  for k in (0, 1)]
        mbs.AddObject(ObjectBeamGeometricallyExact2D(nodeNumbers=turned, physicsLength=a,
                                                     includeReferenceRotations=True, **section, **damping))
        mbs.AddObject(RevoluteJoint2D(markerNumbers=[mbs.AddMarker(MarkerNodePosition(nodeNumber=nodes[1])),
                                                     mbs.AddMarker(MarkerNodePosition(nodeNumber=turned[0]))]))
        mbs.AddLoad(LoadTorqueVector(markerNumber=mbs.AddMarker(MarkerNodeRigid(nodeNumber=turned[1])),
                                     loadVector=[0, 0, 3.0]))
    nG = mbs.AddNode(NodePointGround())
    mG = mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=nG, coordinate=0))
    for c in range(3):
        m = mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=nodes[0], coordinate=c))
        mbs.AddObject(CoordinateConstraint(markerNumbers=[mG, m]))
    tip = nodes[-1]
    mTip = mbs.AddMarker(MarkerNodeRigid(nodeNumber=tip))
    if dynamic:
        # (statically the pendulum's angle would be free)
        nB = mbs.AddNode(NodeRigidBody2D(referenceCoordinates=[3 * a + 0.1, 2 * a + 0.018, 0]))
        body = mbs.AddObject(RigidBody2D(physicsMass=0.5, physicsInertia=0.002, nodeNumber=nB))
        mBody = mbs.AddMarker(MarkerBodyPosition(bodyNumber=body, localPosition=[-0.1, 0, 0]))
        mbs.AddObject(RevoluteJoint2D(markerNumbers=[mTip, mBody]))
        gravity(mbs, body)
    mbs.AddLoad(LoadForceVector(markerNumber=mTip, loadVector=[0, -40.0 if dynamic else -400.0, 0]))
    for v in [OVT.Position, OVT.Displacement, OVT.Velocity, OVT.Rotation, OVT.Coordinates]:
        sensor(mbs, SensorNode, nodeNumber=tip, outputVariableType=v)
    return mbs


def beam_2d_frame():
    s = settings(steps=400, end=0.2)
    write('beam_2d_frame', beam_frame_system(True), s)


def beam_2d_frame_static():
    s = settings()
    s.staticSolver.numberOfLoadSteps = 4
    write('beam_2d_frame_static', beam_frame_system(False), s, solve='static')


CASES = {'planar_double_pendulum': planar_double_pendulum,
         'planar_double_pendulum_index2': planar_double_pendulum_index2,
         'planar_slider_crank': planar_slider_crank,
         'planar_pendulum_static': planar_pendulum_static,
         'beam_2d_frame': beam_2d_frame, 'beam_2d_frame_static': beam_2d_frame_static}

if __name__ == '__main__':
    for name in sys.argv[1:] or list(CASES):
        CASES[name]()
