"""Exudyn 1.13.6 reference cases for ObjectConnectorCoordinateSpringDamperExt (spring-damper
with velocityOffset and factors, regularized Stribeck friction, bristle stick-slip friction and
limit stops through a NodeGenericData, a static solve into limit stops); see
docs/research/connector_coordinate_spring_damper_ext.md.

Writes tests/reference/own_cases/NAME.json (model) and NAME.ref.json (Exudyn's results).
Run from the repository root:  python3 tools/reference/make_coordinate_spring_damper_ext_cases.py [NAME ...]
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


def connector_sensors(mbs, objects):
    """Displacement, Velocity and Force of each connector."""
    for o in objects:
        for v in [OVT.Displacement, OVT.Velocity, OVT.Force]:
            mbs.AddSensor(SensorObject(objectNumber=o, outputVariableType=v, storeInternal=True, writeToFile=False))


def data_sensors(mbs, nodes):
    """The data nodes' Coordinates (friction state, last sticking position, limit stop state)."""
    for n in nodes:
        mbs.AddSensor(SensorNode(nodeNumber=n, outputVariableType=OVT.Coordinates, storeInternal=True,
                                 writeToFile=False))


def mass_1d(mbs, x0=0.0, v0=0.0, mass=1.0, ref=0.0):
    """A Node1D with an ObjectMass1D and the MarkerNodeCoordinate of its coordinate."""
    n = mbs.AddNode(Node1D(referenceCoordinates=[ref], initialCoordinates=[x0], initialVelocities=[v0]))
    mbs.AddObject(ObjectMass1D(physicsMass=mass, nodeNumber=n))
    return n, mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=n, coordinate=0))


def ground_marker(mbs):
    nG = mbs.AddNode(NodePointGround(referenceCoordinates=[0, 0, 0]))
    return mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=nG, coordinate=0))


def spring_damper_bodies():
    """No friction, no limit stops (Exudyn's analytic Jacobian, which leaves out factor0 and
    factor1): a mass point's x on a ground coordinate with offset and velocityOffset, its y
    coupled to a second mass point's y with factor0=1.5, factor1=0.7 and an offset, its z to a
    Tait-Bryan body's rotation angle (factor1=0.2), an inactive connector, and springs holding
    the other coordinates."""
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    mG = ground_marker(mbs)
    m0 = mbs.CreateMassPoint(physicsMass=0.5, referencePosition=[1, 0, 0], initialVelocity=[0.2, 0.1, 0.3],
                             gravity=[0, -9.81, 0])
    m1 = mbs.CreateMassPoint(physicsMass=0.8, referencePosition=[2, 0, 0], initialVelocity=[0, -0.2, 0],
                             gravity=[0, -9.81, 0])
    n0 = mbs.GetObject(m0)['nodeNumber']
    n1 = mbs.GetObject(m1)['nodeNumber']
    inertia = InertiaCuboid(density=500, sideLengths=[0.4, 0.1, 0.1])
    body = mbs.CreateRigidBody(inertia=inertia, referencePosition=[0, 1, 0], nodeType=exu.NodeType.RotationRxyz,
                               initialAngularVelocity=[0, 0, 1.0])
    nB = mbs.GetObject(body)['nodeNumber']
    c = {}
    for name, n, k in [('x0', n0, 0), ('y0', n0, 1), ('z0', n0, 2), ('x1', n1, 0), ('y1', n1, 1), ('z1', n1, 2),
                       ('rz', nB, 5)]:
        c[name] = mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=n, coordinate=k))
    sx = mbs.AddObject(CoordinateSpringDamperExt(markerNumbers=[mG, c['x0']], stiffness=300, damping=2, offset=0.05,
                                                 velocityOffset=0.4))
    sy = mbs.AddObject(CoordinateSpringDamperExt(markerNumbers=[c['y0'], c['y1']], stiffness=200, damping=1.5,
                                                 offset=-0.02, factor0=1.5, factor1=0.7))
    sz = mbs.AddObject(CoordinateSpringDamperExt(markerNumbers=[c['z0'], c['rz']], stiffness=50, damping=0.1,
                                                 factor1=0.2))
    mbs.AddObject(CoordinateSpringDamperExt(markerNumbers=[c['x0'], c['x1']], stiffness=1e3, activeConnector=False))
    for name, k in [('y1', 80.0), ('x1', 40.0), ('z1', 60.0)]:
        mbs.AddObject(CoordinateSpringDamperExt(markerNumbers=[mG, c[name]], stiffness=k, damping=0.5))
    mbs.AddLoad(LoadCoordinate(markerNumber=c['rz'], load=0.3))
    connector_sensors(mbs, [sx, sy, sz])
    mbs.AddSensor(SensorNode(nodeNumber=n0, outputVariableType=OVT.Position, storeInternal=True, writeToFile=False))
    return mbs


def regularized_friction_bodies():
    """frictionProportionalZone != 0: the regularized Stribeck friction, no data node, no
    PostNewton, Exudyn's numerical Jacobian. A mass on a spring released from 0.1 (decaying
    oscillation that ends crawling inside the proportional zone), and a second mass coupled to
    it with friction only (fDynamic, fStaticOffset with exponential decay, viscous part)."""
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    mG = ground_marker(mbs)
    _, m0 = mass_1d(mbs, x0=0.1, mass=1.0)
    _, m1 = mass_1d(mbs, v0=0.5, mass=0.5, ref=0.3)
    s0 = mbs.AddObject(CoordinateSpringDamperExt(markerNumbers=[mG, m0], stiffness=400, damping=0.5,
                                                 dynamicFrictionForce=2.0, staticFrictionOffsetForce=1.0,
                                                 exponentialDecayStatic=0.05, viscousFrictionFactor=0.5,
                                                 frictionProportionalZone=0.01))
    s1 = mbs.AddObject(CoordinateSpringDamperExt(markerNumbers=[m0, m1], dynamicFrictionForce=0.5,
                                                 staticFrictionOffsetForce=0.3, exponentialDecayStatic=0.1,
                                                 viscousFrictionFactor=0.2, frictionProportionalZone=0.02))
    mbs.AddObject(CoordinateSpringDamperExt(markerNumbers=[mG, m1], stiffness=50))
    connector_sensors(mbs, [s0, s1])
    return mbs


def stick_slip_bodies():
    """Bristle friction (frictionProportionalZone=0) with its data node: a block on the ground
    (stiffness 0, only friction) dragged through a spring by a heavy free oscillator, which is
    a harmonic force of about 6 N (about 1 Hz) against 4.5 N static friction (repeated stick and slip in
    both directions); and a mass on a spring released from 0.05 with a slipping initial state,
    whose oscillation decays until it sticks for good."""
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    mG = ground_marker(mbs)
    _, mShaker = mass_1d(mbs, x0=0.03, mass=20.0)
    _, mBlock = mass_1d(mbs, mass=1.0, ref=0.5)
    _, mSpring = mass_1d(mbs, x0=0.05, mass=1.0, ref=1.0)
    mbs.AddObject(CoordinateSpringDamperExt(markerNumbers=[mG, mShaker], stiffness=20.0 * (2 * 3.141592653589793) ** 2))
    mbs.AddObject(CoordinateSpringDamperExt(markerNumbers=[mShaker, mBlock], stiffness=200.0, damping=0.5))
    d0 = mbs.AddNode(NodeGenericData(numberOfDataCoordinates=3, initialCoordinates=[0, 0, 0]))
    f0 = mbs.AddObject(CoordinateSpringDamperExt(markerNumbers=[mG, mBlock], nodeNumber=d0,
                                                 dynamicFrictionForce=3.0, staticFrictionOffsetForce=1.5,
                                                 exponentialDecayStatic=0.02, viscousFrictionFactor=0.3,
                                                 stickingStiffness=1e4, stickingDamping=100))
    # initial state: slipping in +x (the first PostNewton finds v < 0 and switches to sticking)
    d1 = mbs.AddNode(NodeGenericData(numberOfDataCoordinates=3, initialCoordinates=[2.0, 0.05, 0]))
    f1 = mbs.AddObject(CoordinateSpringDamperExt(markerNumbers=[mG, mSpring], nodeNumber=d1, stiffness=400.0,
                                                 offset=0.01, dynamicFrictionForce=2.0,
                                                 staticFrictionOffsetForce=1.0, exponentialDecayStatic=0.05,
                                                 stickingStiffness=2e4, stickingDamping=50))
    connector_sensors(mbs, [f0, f1])
    data_sensors(mbs, [d0, d1])
    return mbs


def limit_stop_bodies():
    """Limit stops: a mass on a weak spring with initial velocity bouncing between its stops
    (limitStopsLower -0.04, limitStopsUpper 0.03, contact stiffness and damping), and a second
    mass whose coordinate relative to the first (factor1=0.8, offset) has limit stops and
    bristle friction in the same connector (one data node for both)."""
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    mG = ground_marker(mbs)
    _, m0 = mass_1d(mbs, v0=1.5, mass=1.0)
    _, m1 = mass_1d(mbs, v0=-0.6, mass=0.4, ref=0.2)
    d0 = mbs.AddNode(NodeGenericData(numberOfDataCoordinates=3, initialCoordinates=[0, 0, 0]))
    s0 = mbs.AddObject(CoordinateSpringDamperExt(markerNumbers=[mG, m0], nodeNumber=d0, stiffness=100.0,
                                                 damping=0.2, useLimitStops=True, limitStopsUpper=0.03,
                                                 limitStopsLower=-0.04, limitStopsStiffness=2e4,
                                                 limitStopsDamping=10.0))
    d1 = mbs.AddNode(NodeGenericData(numberOfDataCoordinates=3, initialCoordinates=[-1.0, 0, 0]))
    s1 = mbs.AddObject(CoordinateSpringDamperExt(markerNumbers=[m0, m1], nodeNumber=d1, stiffness=20.0,
                                                 offset=0.01, factor1=0.8, dynamicFrictionForce=0.4,
                                                 staticFrictionOffsetForce=0.2, exponentialDecayStatic=0.05,
                                                 viscousFrictionFactor=0.1, stickingStiffness=5e3,
                                                 stickingDamping=20.0, useLimitStops=True,
                                                 limitStopsUpper=0.02, limitStopsLower=-0.02,
                                                 limitStopsStiffness=1e4, limitStopsDamping=5.0))
    connector_sensors(mbs, [s0, s1])
    data_sensors(mbs, [d0, d1])
    return mbs


def static_limit_stop_bodies():
    """Static: two masses held by springs (offsets) and pushed by LoadCoordinates into their
    limit stops (one into the upper, one into the lower stop), plus a connector between them
    whose stops stay open. Sensors: Displacement and Force, the first two data nodes' Coordinates."""
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    mG = ground_marker(mbs)
    _, m0 = mass_1d(mbs)
    _, m1 = mass_1d(mbs, ref=1.0)
    objects = []
    data = []
    for m, off, load in [(m0, 0.01, 20.0), (m1, -0.02, -15.0)]:
        d = mbs.AddNode(NodeGenericData(numberOfDataCoordinates=3, initialCoordinates=[0, 0, 0]))
        data.append(d)
        objects.append(mbs.AddObject(CoordinateSpringDamperExt(markerNumbers=[mG, m], nodeNumber=d, stiffness=100.0,
                                                               offset=off, useLimitStops=True, limitStopsUpper=0.05,
                                                               limitStopsLower=-0.06, limitStopsStiffness=1e4,
                                                               limitStopsDamping=10.0)))
        mbs.AddLoad(LoadCoordinate(markerNumber=m, load=load))
    d = mbs.AddNode(NodeGenericData(numberOfDataCoordinates=3, initialCoordinates=[0, 0, 0]))
    objects.append(mbs.AddObject(CoordinateSpringDamperExt(markerNumbers=[m0, m1], nodeNumber=d, stiffness=10.0,
                                                           useLimitStops=True, limitStopsUpper=0.5,
                                                           limitStopsLower=-0.5, limitStopsStiffness=1e3)))
    for o in objects:
        for v in [OVT.Displacement, OVT.Force]:
            mbs.AddSensor(SensorObject(objectNumber=o, outputVariableType=v, storeInternal=True, writeToFile=False))
    data_sensors(mbs, data)
    return mbs


CASES = {}


def case(f):
    CASES[f.__name__] = f
    return f


@case
def coordinate_spring_damper_ext_spring_damper():
    write('coordinate_spring_damper_ext_spring_damper', spring_damper_bodies(), settings(500, 1.0))


@case
def coordinate_spring_damper_ext_regularized_friction():
    write('coordinate_spring_damper_ext_regularized_friction', regularized_friction_bodies(), settings(1000, 1.0))


@case
def coordinate_spring_damper_ext_stick_slip():
    write('coordinate_spring_damper_ext_stick_slip', stick_slip_bodies(), settings(2000, 2.0))


@case
def coordinate_spring_damper_ext_limit_stops():
    write('coordinate_spring_damper_ext_limit_stops', limit_stop_bodies(), settings(1000, 1.0))


@case
def coordinate_spring_damper_ext_static():
    s = settings()
    s.staticSolver.numberOfLoadSteps = 4
    write('coordinate_spring_damper_ext_static', static_limit_stop_bodies(), s, solve='static')


if __name__ == '__main__':
    for n in sys.argv[1:] or list(CASES):
        CASES[n]()
