"""Exudyn 1.13.6 reference cases for the coordinate connectors of issue 19
(ObjectConnectorCoordinateSpringDamper, ObjectConnectorCoordinate).

Writes tests/reference/own_cases/NAME.json (model) and NAME.ref.json (Exudyn's results).
Run from the repository root:  python3 tools/reference/make_coordinate_connector_cases.py [NAME ...]
(no names: every case).
"""
import os
import sys

import exudyn as exu
from exudyn.itemInterface import *
from exudyn.utilities import *

sys.path.insert(0, os.path.dirname(__file__))
from case_writer import settings, write  # noqa: E402

OVT = exu.OutputVariableType


def coordinate_springs():
    """CoordinateSpringDampers: a mass point's x on a ground node's 'coordinate' (with offset),
    its y coupled to a Tait-Bryan rigid body's rotation angle, two mass points' z coupled, and
    an inactive one; a LoadCoordinate; the connectors' Displacement, Velocity and Force."""
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    nGround = mbs.AddNode(NodePointGround(referenceCoordinates=[0, 0, 0]))
    m0 = mbs.CreateMassPoint(physicsMass=0.5, referencePosition=[1, 0, 0], initialVelocity=[0.2, 0.1, 0.3],
                             gravity=[0, -9.81, 0])
    m1 = mbs.CreateMassPoint(physicsMass=0.8, referencePosition=[2, 0, 0], gravity=[0, -9.81, 0])
    n0 = mbs.GetObject(m0)['nodeNumber']
    n1 = mbs.GetObject(m1)['nodeNumber']
    inertia = InertiaCuboid(density=500, sideLengths=[0.4, 0.1, 0.1])
    body = mbs.CreateRigidBody(inertia=inertia, referencePosition=[0, 1, 0], nodeType=exu.NodeType.RotationRxyz,
                               initialAngularVelocity=[0, 0, 1.0])
    nB = mbs.GetObject(body)['nodeNumber']
    mG = mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=nGround, coordinate=0))
    mx0 = mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=n0, coordinate=0))
    my0 = mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=n0, coordinate=1))
    mz0 = mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=n0, coordinate=2))
    mz1 = mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=n1, coordinate=2))
    my1 = mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=n1, coordinate=1))
    mRot = mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=nB, coordinate=5))
    mx1 = mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=n1, coordinate=0))
    sX = mbs.AddObject(CoordinateSpringDamper(markerNumbers=[mG, mx0], stiffness=300, damping=2, offset=0.05))
    sY = mbs.AddObject(CoordinateSpringDamper(markerNumbers=[mRot, my0], stiffness=100, damping=0.5))
    sZ = mbs.AddObject(CoordinateSpringDamper(markerNumbers=[mz0, mz1], stiffness=50, damping=0.1, offset=-0.02))
    mbs.AddObject(CoordinateSpringDamper(markerNumbers=[mx0, mx1], stiffness=1e3, activeConnector=False))
    mbs.AddObject(CoordinateSpringDamper(markerNumbers=[mG, my1], stiffness=80, damping=1))
    mbs.AddObject(CoordinateSpringDamper(markerNumbers=[mG, mx1], stiffness=40))
    mbs.AddLoad(LoadCoordinate(markerNumber=mRot, load=0.3))
    for o in [sX, sY, sZ]:
        for v in [OVT.Displacement, OVT.Velocity, OVT.Force]:
            mbs.AddSensor(SensorObject(objectNumber=o, outputVariableType=v, storeInternal=True, writeToFile=False))
    mbs.AddSensor(SensorNode(nodeNumber=n0, outputVariableType=OVT.Position, storeInternal=True, writeToFile=False))
    # a ground node's coordinate marker reads zero (regression: its empty column panicked)
    mbs.AddSensor(SensorMarker(markerNumber=mG, outputVariableType=OVT.Coordinates, storeInternal=True,
                               writeToFile=False))
    return mbs


def coordinate_springs_static():
    """Two mass points held in every coordinate by CoordinateSpringDampers to a ground node
    (offsets on some) and coupled in x, under gravity and a LoadCoordinate."""
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    nGround = mbs.AddNode(NodePointGround(referenceCoordinates=[0, 0, 0]))
    mG = mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=nGround, coordinate=0))
    coords = []
    for i, (m, k) in enumerate([(0.5, 200.0), (0.8, 120.0)]):
        body = mbs.CreateMassPoint(physicsMass=m, referencePosition=[i, 0, 0], gravity=[0, -9.81, 0])
        n = mbs.GetObject(body)['nodeNumber']
        for c in range(3):
            mc = mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=n, coordinate=c))
            coords.append(mc)
            mbs.AddObject(CoordinateSpringDamper(markerNumbers=[mG, mc], stiffness=k * (1 + c), offset=0.01 * c))
    s = mbs.AddObject(CoordinateSpringDamper(markerNumbers=[coords[0], coords[3]], stiffness=500, offset=0.1))
    mbs.AddLoad(LoadCoordinate(markerNumber=coords[5], load=2.0))
    for v in [OVT.Displacement, OVT.Force]:
        mbs.AddSensor(SensorObject(objectNumber=s, outputVariableType=v, storeInternal=True, writeToFile=False))
    return mbs


def coordinate_constraints(springs=False):
    """ConnectorCoordinates: a mass point's x fixed to a ground node's coordinate, its y
    coupled to a second mass point's y with factor1 and offset, its z to a Tait-Bryan body's
    rotation angle, an inactive one; with `springs`, CoordinateSpringDampers holding every
    other coordinate (a static solve needs them). Sensors: Displacement, Velocity, Force,
    ConstraintEquation."""
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    nG = mbs.AddNode(NodePointGround(referenceCoordinates=[0, 0, 0]))
    mG = mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=nG, coordinate=0))
    m0 = mbs.CreateMassPoint(physicsMass=0.5, referencePosition=[1, 0, 0], initialVelocity=[0, 0.2, 0.1],
                             gravity=[0, -9.81, 0])
    m1 = mbs.CreateMassPoint(physicsMass=0.8, referencePosition=[2, 0.5, 0], gravity=[0, -9.81, 0])
    n0 = mbs.GetObject(m0)['nodeNumber']
    n1 = mbs.GetObject(m1)['nodeNumber']
    inertia = InertiaCuboid(density=500, sideLengths=[0.4, 0.1, 0.1])
    body = mbs.CreateRigidBody(inertia=inertia, referencePosition=[0, 1, 0], nodeType=exu.NodeType.RotationRxyz,
                               initialAngularVelocity=[0, 0, 0.5], gravity=[0, -9.81, 0])
    nB = mbs.GetObject(body)['nodeNumber']
    c = {}
    for name, n, k in [('x0', n0, 0), ('y0', n0, 1), ('z0', n0, 2), ('x1', n1, 0), ('y1', n1, 1), ('z1', n1, 2),
                       ('rz', nB, 5)] + [('b%d' % k, nB, k) for k in range(5)]:
        c[name] = mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=n, coordinate=k))
    cx = mbs.AddObject(CoordinateConstraint(markerNumbers=[mG, c['x0']], offset=0.1))
    cy = mbs.AddObject(CoordinateConstraint(markerNumbers=[c['y0'], c['y1']], factorValue1=2.0, offset=-0.05))
    cz = mbs.AddObject(CoordinateConstraint(markerNumbers=[c['rz'], c['z0']], factorValue1=0.5))
    mbs.AddObject(CoordinateConstraint(markerNumbers=[c['x0'], c['x1']], activeConnector=False))
    if springs:
        for name in ['x1', 'z1', 'y1', 'b0', 'b1', 'b2', 'b3', 'b4', 'rz']:
            mbs.AddObject(CoordinateSpringDamper(markerNumbers=[mG, c[name]], stiffness=200))
    for o in [cx, cy, cz]:
        for v in [OVT.Displacement, OVT.Velocity, OVT.Force, OVT.ConstraintEquation]:
            mbs.AddSensor(SensorObject(objectNumber=o, outputVariableType=v, storeInternal=True, writeToFile=False))
    return mbs


def coordinates_fixed_to_ground():
    """Mass points on springs with coordinates fixed to a ground node's coordinate: what
    Exudyn's explicit solvers eliminate."""
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    nG = mbs.AddNode(NodePointGround(referenceCoordinates=[0, 0, 0]))
    mG = mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=nG, coordinate=0))
    ground = mbs.AddObject(ObjectGround())
    mk = mbs.AddMarker(MarkerBodyPosition(bodyNumber=ground))
    m0 = mbs.CreateMassPoint(physicsMass=0.5, referencePosition=[1, 0, 0], initialVelocity=[0.3, 0.2, 0.1],
                             gravity=[0, -9.81, 0])
    n0 = mbs.GetObject(m0)['nodeNumber']
    mb = mbs.AddMarker(MarkerNodePosition(nodeNumber=n0))
    mbs.AddObject(ObjectConnectorSpringDamper(markerNumbers=[mk, mb], stiffness=300, referenceLength=0.9))
    for k in [0, 2]:
        mc = mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=n0, coordinate=k))
        mbs.AddObject(CoordinateConstraint(markerNumbers=[mG, mc] if k == 0 else [mc, mG]))
    mbs.AddSensor(SensorNode(nodeNumber=n0, outputVariableType=OVT.Position, storeInternal=True, writeToFile=False))
    return mbs


CASES = {}


def case(f):
    CASES[f.__name__] = f
    return f


@case
def coordinate_spring_damper():
    write('coordinate_spring_damper', coordinate_springs(), settings())


@case
def coordinate_spring_damper_static():
    s = settings()
    s.staticSolver.numberOfLoadSteps = 5
    write('coordinate_spring_damper_static', coordinate_springs_static(), s, solve='static')


@case
def coordinate_spring_damper_rk44():
    write('coordinate_spring_damper_rk44', coordinate_springs(), settings(2000, 0.5),
          solver_type=exu.DynamicSolverType.RK44)


@case
def coordinate_constraint():
    write('coordinate_constraint', coordinate_constraints(), settings())


@case
def coordinate_constraint_index2():
    write('coordinate_constraint_index2', coordinate_constraints(), settings(),
          solver_type=exu.DynamicSolverType.TrapezoidalIndex2)


@case
def coordinate_constraint_static():
    s = settings()
    s.staticSolver.numberOfLoadSteps = 4
    write('coordinate_constraint_static', coordinate_constraints(springs=True), s, solve='static')


@case
def coordinate_constraint_eliminated_rk44():
    write('coordinate_constraint_eliminated_rk44', coordinates_fixed_to_ground(), settings(),
          solver_type=exu.DynamicSolverType.RK44)


if __name__ == '__main__':
    for n in sys.argv[1:] or list(CASES):
        CASES[n]()
