"""Exudyn 1.13.6 reference cases for MarkerNodeRotationCoordinate (with ConnectorCoordinate,
CoordinateSpringDamper and LoadCoordinate) and for NodeRigidBodyRotVecLG with Exudyn's Lie-group
integration (explicit Runge-Kutta solvers and GeneralizedAlpha / TrapezoidalIndex2).
Research notes: docs/research/rotation_coordinate_and_rotvec_lie_group.md.

Writes DIR/NAME.json (model) and DIR/NAME.ref.json (Exudyn's results), DIR from --out
(default /tmp/rotcoord_lg_cases).  It does NOT write into tests/reference/own_cases: the runtime
does not read these items yet and the tests iterate that directory.
Run from the repository root:
    python3 tools/reference/make_rotation_coordinate_and_lie_group_cases.py [--out DIR] [NAME ...]
(no names: every case).
"""
import argparse
import os
import sys

import numpy as np
import exudyn as exu
from exudyn.itemInterface import *
from exudyn.utilities import *

sys.path.insert(0, os.path.dirname(__file__))
import case_writer  # noqa: E402
from case_writer import settings, write  # noqa: E402

OVT = exu.OutputVariableType
DST = exu.DynamicSolverType
DEFAULT_OUT = '/tmp/rotcoord_lg_cases'


def sensor(mbs, kind, number, v, **kw):
    item = {'node': SensorNode, 'object': SensorObject, 'body': SensorBody, 'marker': SensorMarker}[kind]
    key = {'node': 'nodeNumber', 'object': 'objectNumber', 'body': 'bodyNumber', 'marker': 'markerNumber'}[kind]
    mbs.AddSensor(item(**{key: number}, outputVariableType=v, storeInternal=True, writeToFile=False, **kw))


def node_sensors(mbs, n, lie=False):
    for v in [OVT.Position, OVT.Velocity, OVT.Rotation, OVT.RotationMatrix, OVT.AngularVelocity,
              OVT.AngularVelocityLocal, OVT.Coordinates, OVT.Coordinates_t]:
        sensor(mbs, 'node', n, v)
    if not lie:  # RotVecLG has no AngularAcceleration / Coordinates_tt output
        sensor(mbs, 'node', n, OVT.AngularAcceleration)


# ------------------------------------------------------------------------------------------------
# (1) MarkerNodeRotationCoordinate

def rotation_coordinate_constraint(node_type, velocity_level=False):
    """A free rigid body (gravity, a force at an offset point, initial angular velocity about all
    axes) whose Tait-Bryan angle z (RotationMatrix2RotXYZ(A)[2], recomputed from A) is held by a
    ConnectorCoordinate against a ground node's coordinate, factor1 = 2, offset = 0.1:
    g = 2*rotZ - 0 - 0.1 (position level; velocityLevel: 2*omega_z - 0.1, omega global).
    The marker's Jacobian is row 2 of the node's GLOBAL rotation Jacobian G, not d(rotZ)/dq."""
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    inertia = InertiaCuboid(density=500, sideLengths=[0.4, 0.2, 0.1])
    b = mbs.CreateRigidBody(inertia=inertia, referencePosition=[0, 0, 0],
                            referenceRotationMatrix=RotXYZ2RotationMatrix([0.2, -0.3, 0.05]),
                            nodeType=node_type, initialAngularVelocity=[1., -2., 0.5], gravity=[0, -9.81, 0])
    n = mbs.GetObject(b)['nodeNumber']
    nG = mbs.AddNode(NodePointGround())
    mG = mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=nG, coordinate=0))
    mR = mbs.AddMarker(MarkerNodeRotationCoordinate(nodeNumber=n, rotationCoordinate=2))
    mP = mbs.AddMarker(MarkerBodyPosition(bodyNumber=b, localPosition=[0.2, 0.1, 0.]))
    mbs.AddLoad(LoadForceVector(markerNumber=mP, loadVector=[0., 0., 3.]))
    c = mbs.AddObject(ObjectConnectorCoordinate(markerNumbers=[mG, mR], factor1=2., offset=0.1,
                                                velocityLevel=velocity_level))
    for v in [OVT.Force, OVT.Displacement, OVT.Velocity, OVT.ConstraintEquation]:
        sensor(mbs, 'object', c, v)
    sensor(mbs, 'marker', mR, OVT.Coordinates)
    sensor(mbs, 'marker', mR, OVT.Coordinates_t)
    node_sensors(mbs, n)
    return mbs


def rotation_coordinate_springs():
    """CoordinateSpringDamper between rotation coordinates of two bodies (Rxyz rotZ and EP rotY,
    offset 0.3) and between a ground coordinate and a RotVecLG body's rotX, a LoadCoordinate
    (a global torque about x: Q = load * G[0,:]^T) on the Rxyz body.  The spring's Jacobian is
    Exudyn's object-wise forward difference (the marker has no Jacobian derivative)."""
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    inertia = InertiaCuboid(density=500, sideLengths=[0.4, 0.2, 0.1])
    b0 = mbs.CreateRigidBody(inertia=inertia, referencePosition=[0, 0, 0],
                             referenceRotationMatrix=RotXYZ2RotationMatrix([0.2, -0.3, 0.05]),
                             nodeType=exu.NodeType.RotationRxyz, initialAngularVelocity=[1., -2., 0.5])
    b1 = mbs.CreateRigidBody(inertia=inertia, referencePosition=[1, 0, 0],
                             referenceRotationMatrix=RotXYZ2RotationMatrix([-0.1, 0.3, 1.05]),
                             nodeType=exu.NodeType.RotationEulerParameters, initialAngularVelocity=[0.3, 0.2, -0.5])
    b2 = mbs.CreateRigidBody(inertia=inertia, referencePosition=[0, 1, 0],
                             referenceRotationMatrix=RotXYZ2RotationMatrix([0.5, 0.1, -0.2]),
                             nodeType=exu.NodeType.RotationRotationVector, initialAngularVelocity=[-1., 0.5, 0.2])
    n0, n1, n2 = [mbs.GetObject(b)['nodeNumber'] for b in [b0, b1, b2]]
    nG = mbs.AddNode(NodePointGround())
    mG = mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=nG, coordinate=0))
    m0 = mbs.AddMarker(MarkerNodeRotationCoordinate(nodeNumber=n0, rotationCoordinate=2))
    m1 = mbs.AddMarker(MarkerNodeRotationCoordinate(nodeNumber=n1, rotationCoordinate=1))
    m2 = mbs.AddMarker(MarkerNodeRotationCoordinate(nodeNumber=n2, rotationCoordinate=0))
    mx0 = mbs.AddMarker(MarkerNodeRotationCoordinate(nodeNumber=n0, rotationCoordinate=0))
    s0 = mbs.AddObject(CoordinateSpringDamper(markerNumbers=[m0, m1], stiffness=50., damping=2., offset=0.3))
    s1 = mbs.AddObject(CoordinateSpringDamper(markerNumbers=[mG, m2], stiffness=20., damping=0.5, offset=-0.1))
    mbs.AddLoad(LoadCoordinate(markerNumber=mx0, load=1.7))
    for s in [s0, s1]:
        for v in [OVT.Displacement, OVT.Velocity, OVT.Force]:
            sensor(mbs, 'object', s, v)
    for m in [m0, m1, m2]:
        sensor(mbs, 'marker', m, OVT.Coordinates)
        sensor(mbs, 'marker', m, OVT.Coordinates_t)
    for n in [n0, n1]:
        node_sensors(mbs, n)
    node_sensors(mbs, n2, lie=True)
    return mbs


def rotation_coordinate_gears():
    """Two Tait-Bryan discs on spherical joints (no gravity) coupled like gears by a
    ConnectorCoordinate between their rotation-z markers, factor1 = -0.5; disc 0 driven by a
    LoadCoordinate on its rotation-z marker.  (With gravity the discs swing as pendulums, the
    marker Jacobian G[2,:] departs far from d(rotZ)/dq and Newton fails at t = 0.26.)"""
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    ground = mbs.AddObject(ObjectGround())
    inertia = InertiaCylinder(density=500, length=0.05, outerRadius=0.2, axis=2)
    bodies = []
    for i, (x, w) in enumerate([(0., 1.), (0.3, -2.)]):
        b = mbs.CreateRigidBody(inertia=inertia, referencePosition=[x, 0, 0], nodeType=exu.NodeType.RotationRxyz,
                                initialAngularVelocity=[0.1 * i, 0.2, w])
        mB = mbs.AddMarker(MarkerBodyPosition(bodyNumber=b, localPosition=[0, 0, -0.1]))
        mGr = mbs.AddMarker(MarkerBodyPosition(bodyNumber=ground, localPosition=[x, 0, -0.1]))
        j = mbs.AddObject(ObjectJointSpherical(markerNumbers=[mGr, mB]))
        sensor(mbs, 'object', j, OVT.Force)
        bodies.append(b)
    n0, n1 = [mbs.GetObject(b)['nodeNumber'] for b in bodies]
    m0 = mbs.AddMarker(MarkerNodeRotationCoordinate(nodeNumber=n0, rotationCoordinate=2))
    m1 = mbs.AddMarker(MarkerNodeRotationCoordinate(nodeNumber=n1, rotationCoordinate=2))
    c = mbs.AddObject(ObjectConnectorCoordinate(markerNumbers=[m0, m1], factor1=-0.5))
    mbs.AddLoad(LoadCoordinate(markerNumber=m0, load=0.5))
    for v in [OVT.Force, OVT.Displacement, OVT.Velocity, OVT.ConstraintEquation]:
        sensor(mbs, 'object', c, v)
    for n in [n0, n1]:
        node_sensors(mbs, n)
    return mbs


CASES = {}


def case(f):
    CASES[f.__name__] = f
    return f


@case
def rotcoord_constraint_ep():
    write('rotcoord_constraint_ep', rotation_coordinate_constraint(exu.NodeType.RotationEulerParameters),
          settings(200, 0.2))


@case
def rotcoord_constraint_rxyz():
    write('rotcoord_constraint_rxyz', rotation_coordinate_constraint(exu.NodeType.RotationRxyz), settings(200, 0.2))


@case
def rotcoord_constraint_velocity_level():
    write('rotcoord_constraint_velocity_level',
          rotation_coordinate_constraint(exu.NodeType.RotationRxyz, velocity_level=True), settings(200, 0.2))


@case
def rotcoord_constraint_ep_index2():
    """TrapezoidalIndex2: the constraint becomes 2*omega_z = 0 (offset dropped)."""
    write('rotcoord_constraint_ep_index2', rotation_coordinate_constraint(exu.NodeType.RotationEulerParameters),
          settings(200, 0.2), solver_type=DST.TrapezoidalIndex2)


@case
def rotcoord_springs():
    write('rotcoord_springs', rotation_coordinate_springs(), settings(500, 0.5))


@case
def rotcoord_gears():
    write('rotcoord_gears', rotation_coordinate_gears(), settings(500, 0.5))


# ------------------------------------------------------------------------------------------------
# (2), (3) NodeRigidBodyRotVecLG with Lie-group integration

SPH_B = [-0.3, 0.2, 0.1]


def rotvec_body(joint=False, top=False):
    """top: Exudyn's TestModels/explicitLieGroupIntegratorTest.py model (heavy top as a free body,
    omega0 = [0,150,-4.61538], its weight at local [0,1,0]).  Otherwise a general RotVecLG body:
    reference rotation, COM offset (non-constant mass matrix), a force at a point, a torque,
    gravity, a LoadCoordinate on a MarkerNodeRotationCoordinate; with `joint`, a spherical joint
    at local SPH_B to ground (closed at t = 0, consistent initial velocities)."""
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    ground = mbs.AddObject(ObjectGround())
    if top:
        m = 15.
        rp = [0., 1., 0.]
        rpt = np.array(Skew(rp))
        J = np.diag([0.234375, 0.46875, 0.234375]) - m * rpt @ rpt
        n = mbs.AddNode(NodeRigidBodyRotVecLG(referenceCoordinates=[0] * 6,
                                              initialVelocities=[0, 0, 0, 0, 150, -4.61538]))
        b = mbs.AddObject(ObjectRigidBody(mass=m, inertia=[J[0][0], J[1][1], J[2][2], J[1][2], J[0][2], J[0][1]],
                                          nodeNumber=n))
        mP = mbs.AddMarker(MarkerBodyPosition(bodyNumber=b, localPosition=rp))
        mbs.AddLoad(LoadForceVector(markerNumber=mP, loadVector=[0, 0, -m * 9.81]))
        sensor(mbs, 'body', b, OVT.Position, localPosition=rp)
        node_sensors(mbs, n, lie=True)
        return mbs
    ref = [0.1, 0.2, 0.3, 0.4, -0.5, 2.0]
    q0 = [0.01, 0, 0, 0.1, 0.2, -0.3]
    omega_bar = np.array([3., -7., 11.])
    v0 = [0.1, 0.2, -0.3]
    if joint:
        q0 = [0] * 6
        omega_bar = np.array([2., -1., 4.])
        A = RotationVector2RotationMatrix(np.array(ref[3:]))
        v0 = list(-A @ np.cross(omega_bar, SPH_B))
    n = mbs.AddNode(NodeRigidBodyRotVecLG(referenceCoordinates=ref, initialCoordinates=q0,
                                          initialVelocities=v0 + list(omega_bar)))
    b = mbs.AddObject(ObjectRigidBody(mass=2.5, inertia=[0.3, 0.2, 0.4, 0.01, -0.02, 0.03],
                                      centerOfMass=[0.05, -0.02, 0.1], nodeNumber=n))
    mP = mbs.AddMarker(MarkerBodyPosition(bodyNumber=b, localPosition=[0.2, 0.1, -0.1]))
    mbs.AddLoad(LoadForceVector(markerNumber=mP, loadVector=[1., -2., 0.5]))
    mT = mbs.AddMarker(MarkerBodyRigid(bodyNumber=b))
    mbs.AddLoad(LoadTorqueVector(markerNumber=mT, loadVector=[0.3, -0.1, 0.2]))
    mM = mbs.AddMarker(MarkerBodyMass(bodyNumber=b))
    mbs.AddLoad(LoadMassProportional(markerNumber=mM, loadVector=[0, -9.81, 0]))
    mR = mbs.AddMarker(MarkerNodeRotationCoordinate(nodeNumber=n, rotationCoordinate=2))
    mbs.AddLoad(LoadCoordinate(markerNumber=mR, load=0.7))
    if joint:
        p0 = np.array(ref[:3]) + RotationVector2RotationMatrix(np.array(ref[3:])) @ np.array(SPH_B)
        mG = mbs.AddMarker(MarkerBodyPosition(bodyNumber=ground, localPosition=list(p0)))
        mJ = mbs.AddMarker(MarkerBodyPosition(bodyNumber=b, localPosition=SPH_B))
        j = mbs.AddObject(ObjectJointSpherical(markerNumbers=[mG, mJ]))
        sensor(mbs, 'object', j, OVT.Force)
    sensor(mbs, 'body', b, OVT.Position, localPosition=[0.2, 0.1, -0.1])
    sensor(mbs, 'marker', mR, OVT.Coordinates)
    node_sensors(mbs, n, lie=True)
    return mbs


def _explicit_case(name, solver_type, top=False, steps=500, end=0.5, **tol):
    def make():
        s = settings(steps, end)
        for k, v in tol.items():
            setattr(s.timeIntegration, k, v)
        write(name, rotvec_body(top=top), s, solver_type=solver_type)
    make.__name__ = name
    CASES[name] = make


for _t in ['ExplicitEuler', 'ExplicitMidpoint', 'RK44', 'RK67', 'DOPRI5', 'ODE23']:
    _explicit_case('rotvec_lg_' + _t.lower(), getattr(DST, _t))
# the test model (2000 steps to 2 s; DOPRI5 with atol 1e-10, rtol 0 takes 8517 steps)
_explicit_case('rotvec_lg_top_rk44', DST.RK44, top=True, steps=2000, end=2.)
_explicit_case('rotvec_lg_top_dopri5', DST.DOPRI5, top=True, steps=2000, end=2., absoluteTolerance=1e-10,
               relativeTolerance=0.)


@case
def rotvec_lg_rk44_no_lie():
    """explicit.useLieGroupIntegration = False: the rotation vector is integrated additively with
    d(nu)/dt := omegaBar (wrong kinematics, but what Exudyn does); 0.2 s only (later |nu| > 2 pi)."""
    s = settings(100, 0.2)
    s.timeIntegration.explicit.useLieGroupIntegration = False
    write('rotvec_lg_rk44_no_lie', rotvec_body(), s, solver_type=DST.RK44)


@case
def rotvec_lg_genalpha():
    """Default implicit Lie-group variant (lieGroupSimplifiedKinematicRelations = False)."""
    write('rotvec_lg_genalpha', rotvec_body(), settings(500, 0.5))


@case
def rotvec_lg_genalpha_simplified():
    """lieGroupSimplifiedKinematicRelations = True with the tangent operator (default True)."""
    s = settings(500, 0.5)
    s.timeIntegration.generalizedAlpha.lieGroupSimplifiedKinematicRelations = True
    write('rotvec_lg_genalpha_simplified', rotvec_body(joint=True), s)


@case
def rotvec_lg_genalpha_spherical():
    write('rotvec_lg_genalpha_spherical', rotvec_body(joint=True), settings(500, 0.5))


@case
def rotvec_lg_trapezoidal_index2_spherical():
    write('rotvec_lg_trapezoidal_index2_spherical', rotvec_body(joint=True), settings(500, 0.5),
          solver_type=DST.TrapezoidalIndex2)


if __name__ == '__main__':
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--out', default=DEFAULT_OUT, help='output directory (default %(default)s)')
    ap.add_argument('names', nargs='*', help='cases (default: all): ' + ', '.join(CASES))
    args = ap.parse_args()
    case_writer.OUT = os.path.abspath(args.out)  # write() reads the module's OUT at call time
    for nm in args.names or list(CASES):
        CASES[nm]()
