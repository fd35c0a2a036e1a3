"""Exudyn 1.13.6 reference cases for the nodes, markers and loads of issue 19 (NodePointGround,
MarkerNodeCoordinate and LoadCoordinate so far).

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


CASES = {'node_point_ground': node_point_ground, 'node_coordinate_loads': node_coordinate_loads,
         'node_coordinate_loads_static': node_coordinate_loads_static}

if __name__ == '__main__':
    for name in sys.argv[1:] or list(CASES):
        CASES[name]()
