"""Exudyn 1.13.6 reference cases for ObjectConnectorCoordinateVector (issue 19) on
MarkerNodeCoordinates and MarkerObjectODE2Coordinates, without user functions.

Writes tests/reference/own_cases/NAME.json (model) and NAME.ref.json (Exudyn's results).
Run from the repository root:  python3 tools/reference/make_coordinate_vector_cases.py [NAME ...]
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
L = 0.8
G = 9.81


def sensors(mbs, objects, variables=(OVT.Displacement, OVT.Velocity, OVT.Force, OVT.ConstraintEquation)):
    for o in objects:
        for v in variables:
            mbs.AddSensor(SensorObject(objectNumber=o, outputVariableType=v, storeInternal=True, writeToFile=False))


def quadratic_pendulum(with_spring=False):
    """A planar mass point on the circle x² + y² = L² (the quadratic term on the node's total
    coordinates against a ground node's empty coordinates), and a second mass point held at a
    fixed offset from it by the linear terms (2 rows); gravity, an inactive connector."""
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    nGround = mbs.AddNode(NodePointGround(referenceCoordinates=[0, 0, 0]))
    mG = mbs.AddMarker(MarkerNodeCoordinates(nodeNumber=nGround))
    n0 = mbs.AddNode(Point2D(referenceCoordinates=[L, 0], initialVelocities=[0, 0.4]))
    mbs.AddObject(MassPoint2D(nodeNumber=n0, mass=2.5))
    n1 = mbs.AddNode(Point2D(referenceCoordinates=[L + 0.3, 0.1]))
    mbs.AddObject(MassPoint2D(nodeNumber=n1, mass=1.5))
    mc0 = mbs.AddMarker(MarkerNodeCoordinates(nodeNumber=n0))
    mc1 = mbs.AddMarker(MarkerNodeCoordinates(nodeNumber=n1))
    for n, m in [(n0, 2.5), (n1, 1.5)]:
        mp = mbs.AddMarker(MarkerNodePosition(nodeNumber=n))
        mbs.AddLoad(Force(markerNumber=mp, loadVector=[0, -m * G, 0]))
    circle = mbs.AddObject(CoordinateVectorConstraint(markerNumbers=[mG, mc0],
                                                      quadraticTermMarker1=np.array([[1.0, 1.0]]),
                                                      offset=[L * L]))
    offset = mbs.AddObject(CoordinateVectorConstraint(markerNumbers=[mc0, mc1],
                                                      scalingMarker0=np.eye(2),
                                                      scalingMarker1=np.eye(2),
                                                      offset=[0.3, 0.1]))
    mbs.AddObject(CoordinateVectorConstraint(markerNumbers=[mc0, mc1], scalingMarker0=np.array([[1.0, 0.0]]),
                                             scalingMarker1=np.array([[2.0, 0.0]]), activeConnector=False))
    if with_spring:
        mp = mbs.AddMarker(MarkerNodePosition(nodeNumber=n1))
        mGp = mbs.AddMarker(MarkerNodePosition(nodeNumber=nGround))
        mbs.AddObject(SpringDamper(markerNumbers=[mGp, mp], stiffness=200, referenceLength=0.5))
    sensors(mbs, [circle, offset])
    mbs.AddSensor(SensorNode(nodeNumber=n0, outputVariableType=OVT.Position, storeInternal=True, writeToFile=False))
    return mbs


def body_coordinates():
    """MarkerObjectODE2Coordinates: a mass point held at an offset from a free Euler-parameter
    rigid body's position coordinates (X0 picks the body's 3 of its 7 coordinates), and a
    second mass point whose x follows 2× the first's y (a 1-row linear coupling of two bodies'
    coordinate vectors); gravity and an initial spin."""
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    inertia = InertiaCuboid(density=500, sideLengths=[0.4, 0.2, 0.1])
    body = mbs.CreateRigidBody(inertia=inertia, referencePosition=[0, 0, 0], gravity=[0, -G, 0],
                               initialVelocity=[0.2, 0.5, 0], initialAngularVelocity=[0.3, 0, 2.0])
    p0 = mbs.CreateMassPoint(mass=0.5, referencePosition=[0.3, 0, 0], initialVelocity=[0.2, 0.5, 0],
                             gravity=[0, -G, 0])
    p1 = mbs.CreateMassPoint(mass=0.7, referencePosition=[1.0, 0, 0], gravity=[0, -G, 0])
    mB = mbs.AddMarker(MarkerObjectODE2Coordinates(objectNumber=body))
    m0 = mbs.AddMarker(MarkerObjectODE2Coordinates(objectNumber=p0))
    m1 = mbs.AddMarker(MarkerObjectODE2Coordinates(objectNumber=p1))
    X0 = np.zeros((3, 7))
    X0[0:3, 0:3] = np.eye(3)
    held = mbs.AddObject(CoordinateVectorConstraint(markerNumbers=[mB, m0], scalingMarker0=X0,
                                                    scalingMarker1=np.eye(3), offset=[0.3, 0, 0]))
    coupled = mbs.AddObject(CoordinateVectorConstraint(markerNumbers=[m0, m1],
                                                       scalingMarker0=np.array([[0, 2.0, 0]]),
                                                       scalingMarker1=np.array([[1.0, 0, 0]]),
                                                       offset=[1.0]))
    # Displacement and Velocity need equally long vectors (Exudyn throws for 7 and 3)
    sensors(mbs, [held], (OVT.Force, OVT.ConstraintEquation))
    sensors(mbs, [coupled])
    return mbs


def prescribed_velocity():
    """velocityLevel = True: a mass point's x velocity held at 0.5 against a ground node (linear
    terms; Exudyn's velocity-level Jacobian agrees with the derivative for Y = 0), its y on a
    spring under gravity."""
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    nGround = mbs.AddNode(NodePointGround(referenceCoordinates=[0, 0, 0]))
    mG = mbs.AddMarker(MarkerNodeCoordinates(nodeNumber=nGround))
    p = mbs.CreateMassPoint(mass=0.5, referencePosition=[0.1, 0, 0], initialVelocity=[0.2, 0, 0],
                            gravity=[0, -G, 0])
    n = mbs.GetObject(p)['nodeNumber']
    mc = mbs.AddMarker(MarkerNodeCoordinates(nodeNumber=n))
    c = mbs.AddObject(CoordinateVectorConstraint(markerNumbers=[mG, mc], scalingMarker1=np.array([[1.0, 0, 0]]),
                                                 offset=[0.5], velocityLevel=True))
    my = mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=n, coordinate=1))
    mGy = mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=nGround, coordinate=0))
    mbs.AddObject(CoordinateSpringDamper(markerNumbers=[mGy, my], stiffness=100, damping=1))
    sensors(mbs, [c])
    return mbs


CASES = {}


def case(f):
    CASES[f.__name__] = f
    return f


@case
def coordinate_vector_pendulum():
    write('coordinate_vector_pendulum', quadratic_pendulum(), settings())


@case
def coordinate_vector_static():
    s = settings()
    s.staticSolver.numberOfLoadSteps = 4
    write('coordinate_vector_static', quadratic_pendulum(with_spring=True), s, solve='static')


@case
def coordinate_vector_body_coordinates():
    write('coordinate_vector_body_coordinates', body_coordinates(), settings())


@case
def coordinate_vector_body_coordinates_index2():
    write('coordinate_vector_body_coordinates_index2', body_coordinates(), settings(),
          solver_type=exu.DynamicSolverType.TrapezoidalIndex2)


@case
def coordinate_vector_velocity_level():
    write('coordinate_vector_velocity_level', prescribed_velocity(), settings())


if __name__ == '__main__':
    for n in sys.argv[1:] or list(CASES):
        CASES[n]()
