"""Exudyn 1.13.6 reference cases for the nodes, markers and loads of issue 19 (NodePointGround,
MarkerNodeCoordinate, LoadCoordinate, Node1D with ObjectMass1D and ObjectRotationalMass1D so far).

Writes tests/reference/own_cases/NAME.json (model) and NAME.ref.json (Exudyn's results).
Run from the repository root:  python3 tools/reference/make_node_cases.py [NAME ...]
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


def node_point_ground():
    """Ground nodes as attachment points: a rigid pendulum on a spherical joint at a
    NodePointGround off the origin, a mass point hanging on a spring from a second one, and an
    unused third (as Exudyn's MiniExamples hold); sensors read the ground nodes and markers."""
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    nG0 = mbs.AddNode(NodePointGround(referenceCoordinates=[0.2, -0.1, 0.3]))
    nG1 = mbs.AddNode(NodePointGround(referenceCoordinates=[1.0, 0.0, 0.0]))
    mbs.AddNode(NodePointGround(referenceCoordinates=[0, 0, 0], visualization=VNodePointGround(show=False)))
    inertia = InertiaCuboid(density=500, sideLengths=[0.4, 0.05, 0.05])
    body = mbs.CreateRigidBody(inertia=inertia, referencePosition=[0.4, -0.1, 0.3],
                               initialAngularVelocity=[0, 1.0, 2.0], gravity=[0, -9.81, 0])
    mG0 = mbs.AddMarker(MarkerNodePosition(nodeNumber=nG0))
    mB = mbs.AddMarker(MarkerBodyPosition(bodyNumber=body, localPosition=[-0.2, 0, 0]))
    joint = mbs.AddObject(ObjectJointSpherical(markerNumbers=[mG0, mB]))
    mass = mbs.CreateMassPoint(physicsMass=0.5, referencePosition=[1.0, -0.5, 0.1], gravity=[0, -9.81, 0])
    mG1 = mbs.AddMarker(MarkerNodePosition(nodeNumber=nG1))
    mM = mbs.AddMarker(MarkerBodyPosition(bodyNumber=mass, localPosition=[0, 0, 0]))
    spring = mbs.AddObject(ObjectConnectorSpringDamper(markerNumbers=[mG1, mM], referenceLength=0.4,
                                                        stiffness=200, damping=2))
    for n, v in [(nG0, OVT.Position), (nG0, OVT.Displacement), (nG1, OVT.Velocity)]:
        mbs.AddSensor(SensorNode(nodeNumber=n, outputVariableType=v, storeInternal=True, writeToFile=False))
    for o, v in [(joint, OVT.Force), (spring, OVT.Force)]:
        mbs.AddSensor(SensorObject(objectNumber=o, outputVariableType=v, storeInternal=True, writeToFile=False))
    mbs.AddSensor(SensorMarker(markerNumber=mG1, outputVariableType=OVT.Position, storeInternal=True,
                               writeToFile=False))
    # a mass point on a ground node: Exudyn accepts it, fixed where the node is
    nG3 = mbs.AddNode(NodePointGround(referenceCoordinates=[0.5, 0.5, 0.5]))
    fixed = mbs.AddObject(MassPoint(physicsMass=2.0, nodeNumber=nG3))
    for v in [OVT.Position, OVT.Displacement, OVT.Velocity]:
        mbs.AddSensor(SensorBody(bodyNumber=fixed, localPosition=[0.1, 0, 0], outputVariableType=v,
                                 storeInternal=True, writeToFile=False))
    write('node_point_ground', mbs, settings())


def coordinate_loads_system():
    """LoadCoordinate on MarkerNodeCoordinate: on a mass point's x and y, on a rigid body's z
    and on a GenericODE2 oscillator's second coordinate."""
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    mass = mbs.CreateMassPoint(physicsMass=0.5, referencePosition=[1.0, 2.0, 0.0],
                               initialVelocity=[0.1, 0.2, 0.3], gravity=[0, -9.81, 0])
    nM = mbs.GetObject(mass)['nodeNumber']
    inertia = InertiaCuboid(density=500, sideLengths=[0.4, 0.1, 0.1])
    body = mbs.CreateRigidBody(inertia=inertia, referencePosition=[0, 0, 1.0],
                               initialAngularVelocity=[0.3, 0.2, 1.0])
    nB = mbs.GetObject(body)['nodeNumber']
    nG = mbs.AddNode(NodeGenericODE2(referenceCoordinates=[0, 0], initialCoordinates=[0.1, 0],
                                     initialCoordinates_t=[0, 0], numberOfODE2Coordinates=2))
    mbs.AddObject(ObjectGenericODE2(nodeNumbers=[nG], massMatrix=np.diag([2.0, 1.0]),
                                    stiffnessMatrix=np.array([[300.0, -100.0], [-100.0, 200.0]]),
                                    dampingMatrix=np.diag([0.5, 0.2])))
    markers = []
    for n, c, load in [(nM, 0, 3.0), (nM, 1, 5.0), (nB, 2, -4.0), (nG, 1, 12.0)]:
        m = mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=n, coordinate=c))
        markers.append((m, mbs.AddLoad(LoadCoordinate(markerNumber=m, load=load))))
    for m, _ in markers[1:]:
        for v in [OVT.Coordinates, OVT.Coordinates_t]:
            mbs.AddSensor(SensorMarker(markerNumber=m, outputVariableType=v, storeInternal=True,
                                       writeToFile=False))
    mbs.AddSensor(SensorLoad(loadNumber=markers[3][1], storeInternal=True, writeToFile=False))
    return SC, mbs


def node_coordinate_loads():
    SC, mbs = coordinate_loads_system()
    write('node_coordinate_loads', mbs, settings())


def node_coordinate_loads_static():
    """The oscillator alone, statically, with its coordinate load ramped over 4 load steps."""
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    nG = mbs.AddNode(NodeGenericODE2(referenceCoordinates=[0, 0], initialCoordinates=[0, 0],
                                     initialCoordinates_t=[0, 0], numberOfODE2Coordinates=2))
    mbs.AddObject(ObjectGenericODE2(nodeNumbers=[nG], massMatrix=np.diag([2.0, 1.0]),
                                    stiffnessMatrix=np.array([[300.0, -100.0], [-100.0, 200.0]])))
    m = mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=nG, coordinate=1))
    mbs.AddLoad(LoadCoordinate(markerNumber=m, load=12.0))
    mbs.AddSensor(SensorMarker(markerNumber=m, outputVariableType=OVT.Coordinates, storeInternal=True,
                               writeToFile=False))
    s = settings()
    s.staticSolver.numberOfLoadSteps = 4
    write('node_coordinate_loads_static', mbs, s, solve='static')


def node_1d_system():
    """Node1D with ObjectMass1D (turned by a reference rotation, on a spring to ground) and
    ObjectRotationalMass1D (a rotor with a torque load), coupled by a CoordinateSpringDamper;
    every body output at a local point and the node outputs."""
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    nG = mbs.AddNode(NodePointGround())
    n0 = mbs.AddNode(Node1D(referenceCoordinates=[0.5], initialCoordinates=[0.1], initialVelocities=[0.4]))
    n1 = mbs.AddNode(Node1D(referenceCoordinates=[0.2], initialVelocities=[1.0]))
    R = RotationMatrixZ(0.4) @ RotationMatrixX(0.3)
    mass = mbs.AddObject(ObjectMass1D(physicsMass=2.0, nodeNumber=n0, referencePosition=[1, 2, 3],
                                      referenceRotation=R))
    rotor = mbs.AddObject(ObjectRotationalMass1D(physicsInertia=0.3, nodeNumber=n1, referencePosition=[0, 1, 0],
                                                 referenceRotation=RotationMatrixY(0.5)))
    mG = mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=nG, coordinate=0))
    m0 = mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=n0, coordinate=0))
    m1 = mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=n1, coordinate=0))
    mbs.AddObject(CoordinateSpringDamper(markerNumbers=[mG, m0], stiffness=200, damping=1, offset=0.05))
    mbs.AddObject(CoordinateSpringDamper(markerNumbers=[m0, m1], stiffness=30, damping=0.2))
    mbs.AddLoad(LoadCoordinate(markerNumber=m1, load=0.7))
    b = [0.1, 0.2, -0.1]
    for o, vs in [(mass, [OVT.Position, OVT.Displacement, OVT.Velocity, OVT.RotationMatrix, OVT.Rotation,
                          OVT.AngularVelocity, OVT.AngularVelocityLocal]),
                  (rotor, [OVT.Position, OVT.Displacement, OVT.Velocity, OVT.Rotation, OVT.AngularVelocity,
                           OVT.RotationMatrix])]:
        for v in vs:
            mbs.AddSensor(SensorBody(bodyNumber=o, localPosition=b, outputVariableType=v, storeInternal=True,
                                     writeToFile=False))
    for v in [OVT.Coordinates, OVT.Coordinates_t, OVT.Coordinates_tt, OVT.CoordinatesTotal]:
        mbs.AddSensor(SensorNode(nodeNumber=n1, outputVariableType=v, storeInternal=True, writeToFile=False))
    return mbs


def node_1d_masses():
    write('node_1d_masses', node_1d_system(), settings())


def node_1d_masses_rk44():
    write('node_1d_masses_rk44', node_1d_system(), settings(), solver_type=exu.DynamicSolverType.RK44)


def point_2d_system():
    """NodePoint2D with ObjectMassPoint2D: a pendulum on a ConnectorDistance to ground, a
    second mass on a spring from it (node marker), a force vector (its z ignored), gravity by
    LoadMassProportional; every node and body output."""
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    ground = mbs.AddObject(ObjectGround())
    n0 = mbs.AddNode(NodePoint2D(referenceCoordinates=[1.0, 0.0], initialVelocities=[0.0, 0.5]))
    n1 = mbs.AddNode(NodePoint2D(referenceCoordinates=[1.5, -0.2], initialCoordinates=[0.05, 0.0]))
    b0 = mbs.AddObject(ObjectMassPoint2D(physicsMass=0.7, nodeNumber=n0))
    b1 = mbs.AddObject(ObjectMassPoint2D(physicsMass=0.3, nodeNumber=n1))
    mG = mbs.AddMarker(MarkerBodyPosition(bodyNumber=ground, localPosition=[0, 0.2, 0]))
    m0 = mbs.AddMarker(MarkerBodyPosition(bodyNumber=b0, localPosition=[0.05, 0, 0]))
    mn0 = mbs.AddMarker(MarkerNodePosition(nodeNumber=n0))
    m1 = mbs.AddMarker(MarkerBodyPosition(bodyNumber=b1))
    mbs.AddObject(ObjectConnectorDistance(markerNumbers=[mG, m0], distance=float(np.sqrt(1.05**2 + 0.2**2))))
    mbs.AddObject(ObjectConnectorSpringDamper(markerNumbers=[mn0, m1], stiffness=80, damping=0.5,
                                              referenceLength=0.5))
    mbs.AddLoad(LoadForceVector(markerNumber=m1, loadVector=[0.4, 0.1, 5.0]))
    for b in [b0, b1]:
        mbs.AddLoad(LoadMassProportional(markerNumber=mbs.AddMarker(MarkerBodyMass(bodyNumber=b)),
                                         loadVector=[0, -9.81, 0]))
    for v in [OVT.Position, OVT.Displacement, OVT.Velocity, OVT.Acceleration, OVT.Coordinates, OVT.Coordinates_t,
              OVT.Coordinates_tt, OVT.CoordinatesTotal, OVT.Rotation]:
        mbs.AddSensor(SensorNode(nodeNumber=n1, outputVariableType=v, storeInternal=True, writeToFile=False))
    for v in [OVT.Position, OVT.Displacement, OVT.Velocity, OVT.Acceleration, OVT.RotationMatrix]:
        mbs.AddSensor(SensorBody(bodyNumber=b0, localPosition=[0.1, 0.2, 0.3], outputVariableType=v,
                                 storeInternal=True, writeToFile=False))
    return mbs


def point_2d_masses():
    write('point_2d_masses', point_2d_system(), settings())


CASES = {'point_2d_masses': point_2d_masses, 'node_point_ground': node_point_ground, 'node_coordinate_loads': node_coordinate_loads,
         'node_coordinate_loads_static': node_coordinate_loads_static, 'node_1d_masses': node_1d_masses,
         'node_1d_masses_rk44': node_1d_masses_rk44}

if __name__ == '__main__':
    for name in sys.argv[1:] or list(CASES):
        CASES[name]()
