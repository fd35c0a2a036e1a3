"""Exudyn 1.13.6 reference cases for constraints written at velocity level only (issue 19):
ObjectJointRollingDisc (non-holonomic) and ObjectConnectorCoordinate with velocityLevel=True.

Writes tests/reference/own_cases/NAME.json (model) and NAME.ref.json (Exudyn's results).
Run from the repository root:  python3 tools/reference/make_velocity_level_cases.py [NAME ...]
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


def coin(node_type, tilt_deg=4.0, spin=12.0, axes=(1, 1, 1)):
    """A thin disc (radius 0.1) standing on the ground, tilted about the global y axis and
    spinning about its own axis and the vertical, rolling without slip: its centre's velocity
    and angular velocity are consistent with rolling at the contact point. Sensors: the joint's
    Position (contact point), Velocity (trail), ForceLocal and RotationMatrix."""
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    r = 0.1
    m = 0.5
    phi = tilt_deg / 180 * np.pi
    A0 = RotationMatrixY(phi)
    p0 = [r * np.sin(phi), 0, r * np.cos(phi)]  # contact point at the origin
    # rolling about the disc axis (local x) and turning about the vertical: ω = spin·w1 + 1.5·e_z
    w1 = A0 @ [1, 0, 0]
    omega = spin * w1 + np.array([0, 0, 1.5])
    contact = np.array([0.0, 0.0, 0.0])
    v0 = np.cross(omega, np.array(p0) - contact)  # v_C = v_centre + ω × (C − centre) = 0
    inertia = RigidBodyInertia(mass=m, inertiaTensor=np.diag([0.5 * m * r ** 2, 0.25 * m * r ** 2,
                                                              0.25 * m * r ** 2]))
    body = mbs.CreateRigidBody(referencePosition=p0, referenceRotationMatrix=A0, initialVelocity=list(v0),
                               initialAngularVelocity=list(omega), inertia=inertia, gravity=[0, 0, -9.81],
                               nodeType=node_type)
    ground = mbs.AddObject(ObjectGround())
    mGround = mbs.AddMarker(MarkerBodyRigid(bodyNumber=ground, localPosition=[0, 0, 0]))
    mDisc = mbs.AddMarker(MarkerBodyRigid(bodyNumber=body, localPosition=[0, 0, 0]))
    joint = mbs.AddObject(ObjectJointRollingDisc(markerNumbers=[mGround, mDisc], constrainedAxes=list(axes),
                                                 discRadius=r,
                                                 visualization=VObjectJointRollingDisc(discWidth=0.01)))
    for v in [OVT.Position, OVT.Velocity, OVT.ForceLocal, OVT.RotationMatrix]:
        mbs.AddSensor(SensorObject(objectNumber=joint, outputVariableType=v, storeInternal=True, writeToFile=False))
    return mbs


def disc_on_turntable():
    """A disc rolling on a turning table (a rigid body on a JointRevoluteZ to ground), whose
    plane normal and disc axis are given in rotated marker frames (planeNormal, discAxis not
    the defaults): the rolling constraint on a moving body, both bodies' velocities in its
    rows. The table turns freely; the disc starts at rest relative to it."""
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    r = 0.08
    m = 0.3
    table_inertia = InertiaCuboid(density=200, sideLengths=[1.0, 1.0, 0.05])
    table = mbs.CreateRigidBody(inertia=table_inertia, referencePosition=[0, 0, 0],
                                initialAngularVelocity=[0, 0, 2.0], nodeType=exu.NodeType.RotationEulerParameters)
    ground = mbs.AddObject(ObjectGround())
    mG = mbs.AddMarker(MarkerBodyRigid(bodyNumber=ground, localPosition=[0, 0, 0]))
    mT = mbs.AddMarker(MarkerBodyRigid(bodyNumber=table, localPosition=[0, 0, 0]))
    mbs.AddObject(ObjectJointRevoluteZ(markerNumbers=[mG, mT]))
    # the disc's axis is its local y (discAxis), standing upright at x = 0.3 on the table top
    # (z = 0.025); the table's plane normal is its local z given as planeNormal
    p0 = [0.3, 0, 0.025 + r]
    omega_table = np.array([0, 0, 2.0])
    v0 = np.cross(omega_table, np.array(p0))  # moving with the table at the start
    inertia = RigidBodyInertia(mass=m, inertiaTensor=np.diag([0.25 * m * r ** 2, 0.5 * m * r ** 2,
                                                              0.25 * m * r ** 2]))
    disc = mbs.CreateRigidBody(referencePosition=p0, initialVelocity=list(v0), initialAngularVelocity=[0, 0, 2.0],
                               inertia=inertia, gravity=[0, 0, -9.81], nodeType=exu.NodeType.RotationRxyz)
    # Exudyn requires marker 0 on a body at the body's origin (localPosition zero)
    mTop = mT
    mDisc = mbs.AddMarker(MarkerBodyRigid(bodyNumber=disc, localPosition=[0, 0, 0]))
    joint = mbs.AddObject(ObjectJointRollingDisc(markerNumbers=[mTop, mDisc], discRadius=r, discAxis=[0, 1, 0],
                                                 planeNormal=[0, 0, 1]))
    mbs.AddLoad(Force(markerNumber=mDisc, loadVector=[0, 0.2, 0]))
    for v in [OVT.Position, OVT.Velocity, OVT.ForceLocal]:
        mbs.AddSensor(SensorObject(objectNumber=joint, outputVariableType=v, storeInternal=True, writeToFile=False))
    return mbs


def coordinate_velocity_constraints():
    """ConnectorCoordinates with velocityLevel=True: a mass point's x driven at a constant
    velocity (offset) against a ground node's coordinate, its y's velocity coupled to a second
    mass point's with factor1, and an inactive one; springs make the multipliers nonzero.
    Sensors: Displacement, Velocity, Force, ConstraintEquation."""
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    nG = mbs.AddNode(NodePointGround(referenceCoordinates=[0, 0, 0]))
    mG = mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=nG, coordinate=0))
    m0 = mbs.CreateMassPoint(physicsMass=0.5, referencePosition=[1, 0, 0], initialVelocity=[0.3, 0.4, 0.1],
                             gravity=[0, -9.81, 0])
    m1 = mbs.CreateMassPoint(physicsMass=0.8, referencePosition=[2, 0.5, 0], initialVelocity=[0, 0.2, 0],
                             gravity=[0, -9.81, 0])
    n0 = mbs.GetObject(m0)['nodeNumber']
    n1 = mbs.GetObject(m1)['nodeNumber']
    c = {}
    for name, n, k in [('x0', n0, 0), ('y0', n0, 1), ('z0', n0, 2), ('x1', n1, 0), ('y1', n1, 1), ('z1', n1, 2)]:
        c[name] = mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=n, coordinate=k))
    cx = mbs.AddObject(CoordinateConstraint(markerNumbers=[mG, c['x0']], offset=0.3, velocityLevel=True))
    cy = mbs.AddObject(CoordinateConstraint(markerNumbers=[c['y1'], c['y0']], factor1=2.0, offset=0.0,
                                            velocityLevel=True))
    mbs.AddObject(CoordinateConstraint(markerNumbers=[c['z0'], c['z1']], velocityLevel=True, activeConnector=False))
    for name in ['x0', 'y0', 'z0', 'x1', 'z1']:
        mbs.AddObject(CoordinateSpringDamper(markerNumbers=[mG, c[name]], stiffness=150, damping=0.5))
    for o in [cx, cy]:
        for v in [OVT.Displacement, OVT.Velocity, OVT.Force, OVT.ConstraintEquation]:
            mbs.AddSensor(SensorObject(objectNumber=o, outputVariableType=v, storeInternal=True, writeToFile=False))
    return mbs


def index2(s):
    s.timeIntegration.generalizedAlpha.useIndex2Constraints = True
    s.timeIntegration.generalizedAlpha.useNewmark = True
    return s


CASES = {}


def case(f):
    CASES[f.__name__] = f
    return f


@case
def rolling_disc_coin():
    write('rolling_disc_coin', coin(exu.NodeType.RotationEulerParameters), settings(500, 0.5))


@case
def rolling_disc_coin_index2():
    # Exudyn's rollingCoinTest's settings: index 2, Newmark, where |θ| of the Euler parameters
    # drifts and A·Ḡ ≠ G matters
    s = index2(settings(500, 0.5))
    s.timeIntegration.generalizedAlpha.spectralRadius = 0.5
    write('rolling_disc_coin_index2', coin(exu.NodeType.RotationEulerParameters), s)


@case
def rolling_disc_skate():
    # the forward row free (constrainedAxes [1, 0, 1]): the disc slides along its rolling
    # direction but not sideways; Tait-Bryan angles
    write('rolling_disc_skate', coin(exu.NodeType.RotationRxyz, tilt_deg=10.0, axes=(1, 0, 1)),
          settings(400, 0.4))


@case
def rolling_disc_turntable():
    write('rolling_disc_turntable', disc_on_turntable(), settings(400, 0.4))


@case
def coordinate_velocity_constraint():
    write('coordinate_velocity_constraint', coordinate_velocity_constraints(), settings(400, 0.8))


@case
def coordinate_velocity_constraint_index2():
    write('coordinate_velocity_constraint_index2', coordinate_velocity_constraints(), settings(400, 0.8),
          solver_type=exu.DynamicSolverType.TrapezoidalIndex2)


if __name__ == '__main__':
    for n in sys.argv[1:] or list(CASES):
        CASES[n]()
