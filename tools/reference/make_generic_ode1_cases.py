"""Exudyn 1.13.6 reference cases for first-order coordinates (issue 19): NodeGenericODE1 and
ObjectGenericODE1 alone and beside ODE2 bodies, in generalized-α, Newmark/TrapezoidalIndex2 and
the explicit solvers, with node and object sensors.

Writes tests/reference/own_cases/generic_ode1_*.json (model) and .ref.json (Exudyn's results,
with ode1Coordinates and ode1Velocities). Run from the repository root:
    python3 tools/reference/make_generic_ode1_cases.py [NAME ...]   (no names: every case)
"""
import os
import sys

import exudyn as exu
from exudyn.itemInterface import *
from exudyn.utilities import *

sys.path.insert(0, os.path.dirname(__file__))
from case_writer import settings, write  # noqa: E402

OVT = exu.OutputVariableType
DST = exu.DynamicSolverType


def ode1_sensors(mbs, node, obj):
    for v in [OVT.Coordinates, OVT.Coordinates_t, OVT.CoordinatesTotal]:
        mbs.AddSensor(SensorNode(nodeNumber=node, outputVariableType=v, storeInternal=True, writeToFile=False))
    mbs.AddSensor(SensorObject(objectNumber=obj, outputVariableType=OVT.Coordinates, storeInternal=True,
                               writeToFile=False))


def oscillator():
    """A damped oscillator in state space with a constant input, ẏ = A·y + f, on one node with
    nonzero reference coordinates (the equations see the displacements only)."""
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    n = mbs.AddNode(NodeGenericODE1(referenceCoordinates=[0.5, -1.0], initialCoordinates=[0.1, 0.4],
                                    numberOfODE1Coordinates=2))
    o = mbs.AddObject(ObjectGenericODE1(nodeNumbers=[n], systemMatrix=[[0, 1], [-400, -2]], rhsVector=[0, 3]))
    ode1_sensors(mbs, n, o)
    return mbs


def mixed():
    """A rigid body on a spring to ground (ODE2, Tait–Bryan) beside two ODE1 nodes: one object
    over both nodes (3 states: a first-order lag chain), one more object adding to the second
    node's rows."""
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    ground = mbs.AddObject(ObjectGround())
    inertia = InertiaCuboid(density=500, sideLengths=[0.4, 0.1, 0.05])
    body = mbs.CreateRigidBody(inertia=inertia, referencePosition=[0.3, 0, 0], nodeType=exu.NodeType.RotationRxyz,
                               initialAngularVelocity=[0.5, 1.0, 2.0], gravity=[0, -9.81, 0])
    mGround = mbs.AddMarker(MarkerBodyPosition(bodyNumber=ground, localPosition=[0, 0.1, 0]))
    mBody = mbs.AddMarker(MarkerBodyPosition(bodyNumber=body, localPosition=[-0.2, 0, 0]))
    mbs.AddObject(ObjectConnectorSpringDamper(markerNumbers=[mGround, mBody], referenceLength=0.1,
                                              stiffness=400, damping=2))
    n0 = mbs.AddNode(NodeGenericODE1(referenceCoordinates=[0, 0], initialCoordinates=[1, 0],
                                     numberOfODE1Coordinates=2))
    n1 = mbs.AddNode(NodeGenericODE1(referenceCoordinates=[2.0], initialCoordinates=[0.5],
                                     numberOfODE1Coordinates=1))
    o = mbs.AddObject(ObjectGenericODE1(nodeNumbers=[n0, n1],
                                        systemMatrix=[[-5, 1, 0], [-30, -1, 0], [0, 4, -8]],
                                        rhsVector=[0, 1, 0]))
    mbs.AddObject(ObjectGenericODE1(nodeNumbers=[n1], systemMatrix=[[-2]], rhsVector=[1.5]))
    ode1_sensors(mbs, n1, o)
    mbs.AddSensor(SensorNode(nodeNumber=mbs.GetObject(body)['nodeNumber'], outputVariableType=OVT.Position,
                             storeInternal=True, writeToFile=False))
    return mbs


def explicit_settings(steps=500, end=0.5):
    s = settings(steps, end)
    s.timeIntegration.explicit.computeEndOfStepAccelerations = True
    return s


CASES = {
    'generic_ode1_oscillator': lambda: (oscillator(), settings(500, 0.5), None),
    'generic_ode1_mixed': lambda: (mixed(), settings(500, 0.5), None),
    'generic_ode1_mixed_trapezoidal_index2': lambda: (mixed(), settings(500, 0.5), DST.TrapezoidalIndex2),
    'generic_ode1_mixed_rk44': lambda: (mixed(), explicit_settings(500, 0.5), DST.RK44),
    'generic_ode1_oscillator_dopri5': lambda: (oscillator(), _dopri5(), DST.DOPRI5),
}


def _dopri5():
    s = explicit_settings(50, 0.5)
    s.timeIntegration.absoluteTolerance = 1e-8
    s.timeIntegration.relativeTolerance = 1e-8
    s.timeIntegration.automaticStepSize = True
    return s


def main(names):
    for name in names or CASES:
        mbs, s, solver_type = CASES[name]()
        write(name, mbs, s, solver_type=solver_type)


if __name__ == '__main__':
    main(sys.argv[1:])
