"""Exudyn 1.13.6 reference cases for ObjectContactSphereSphere (penalty contact between two
spheres with a NodeGenericData of 4 data coordinates and Exudyn's PostNewton / discontinuous
iteration; see docs/research/contact_sphere_sphere.md).

Writes tests/reference/own_cases/NAME.json (model) and NAME.ref.json (Exudyn's results).
Run from the repository root:  python3 tools/reference/make_contact_sphere_sphere_cases.py [NAME ...]
(no names: every case).

Solver: generalized-α (SolveDynamic's default) with case_writer.settings, i.e. Exudyn's
defaults: spectralRadius 0.9, modified Newton, adaptiveStep on,
timeIntegration.discontinuous = {iterationTolerance 1, maxIterations 5, ignoreMaxIterations
True, useRecommendedStepSize True}. `contact_sphere_sphere_restitution` alone switches
useRecommendedStepSize off, so that its step size stays fixed; in the other cases Exudyn cuts
the step at every change of contact (reduced to min(0.75 h, |g_start / v_gap|), then doubled
back after adaptiveStepRecoverySteps good steps).
"""
import os
import sys

import exudyn as exu
from exudyn.itemInterface import *
from exudyn.utilities import *

sys.path.insert(0, os.path.dirname(__file__))
from case_writer import settings, write  # noqa: E402

OVT = exu.OutputVariableType


def sensors(mbs, contacts, data_nodes, bodies=(), nodes=(), full=False):
    """The contacts' gap, force and relative velocity (the last is 0 while the data node says
    'no contact'), with full=True also their Displacement, Position and Director1; their data
    nodes' coordinates; the balls' motion."""
    kinds = [OVT.DisplacementLocal, OVT.Force, OVT.Velocity]
    if full:
        kinds += [OVT.Displacement, OVT.Position, OVT.Director1]
    for c in contacts:
        for v in kinds:
            mbs.AddSensor(SensorObject(objectNumber=c, outputVariableType=v, storeInternal=True, writeToFile=False))
    for d in data_nodes:
        mbs.AddSensor(SensorNode(nodeNumber=d, outputVariableType=OVT.Coordinates, storeInternal=True,
                                 writeToFile=False))
    for n in nodes:
        for v in [OVT.Position, OVT.Velocity]:
            mbs.AddSensor(SensorNode(nodeNumber=n, outputVariableType=v, storeInternal=True, writeToFile=False))
    for b in bodies:
        for v in [OVT.Position, OVT.Velocity, OVT.AngularVelocity]:
            mbs.AddSensor(SensorBody(bodyNumber=b, outputVariableType=v, storeInternal=True, writeToFile=False))


def contact_settings(steps, end, period):
    """case_writer.settings with sensor rows every `period` (contacts last a few ms)."""
    s = settings(steps, end)
    s.solutionSettings.sensorsWritePeriod = period
    return s


def bounce():
    """A ball (mass point, 0.5 kg, r = 0.1, MarkerNodePosition) dropped from rest 0.3 above a
    fixed sphere (r = 0.3, MarkerBodyPosition on ObjectGround), 2 cm off its centre line, so it
    bounces three times and drifts sideways. Linear spring-damper (impactModel 0, k = 1e4,
    d = 20). The data node starts at [0, 0, 0, 0], as mbs.CreateSphereSphereContact makes it:
    Exudyn repeats the first step once (data gap 0 → gap > 0 counts as a change of contact)."""
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    ground = mbs.AddObject(ObjectGround(referencePosition=[0, 0, 0]))
    mG = mbs.AddMarker(MarkerBodyPosition(bodyNumber=ground, localPosition=[0, 0, 0]))
    ball = mbs.CreateMassPoint(physicsMass=0.5, referencePosition=[0.02, 0.7, 0], gravity=[0, -9.81, 0])
    nBall = mbs.GetObject(ball)['nodeNumber']
    mBall = mbs.AddMarker(MarkerNodePosition(nodeNumber=nBall))
    nd = mbs.AddNode(NodeGenericData(numberOfDataCoordinates=4, initialCoordinates=[0, 0, 0, 0]))
    c = mbs.AddObject(ObjectContactSphereSphere(markerNumbers=[mG, mBall], nodeNumber=nd, spheresRadii=[0.3, 0.1],
                                                contactStiffness=1e4, contactDamping=20))
    sensors(mbs, [c], [nd], nodes=[nBall], full=True)
    return mbs


def restitution():
    """Three balls dropped from rest onto three fixed spheres (centred: straight bounces), one
    per restitution model, each contact's data node starting consistently at [0.1, 0, 0, 0]:
    A (mass point) Hunt–Crossley (impactModel 1), e = 0.8, Hertz exponent 1.5, k = 2e5;
    B (mass point) Gonthier/Carvalho–Martins (impactModel 2), e = 0.6 (the e > 1/3 branch),
    exponent 1.5, k = 2e5, contactDamping 1 added;
    C (Tait-Bryan rigid body, MarkerBodyRigid: a rigid marker without friction) impactModel 2,
    e = 0.25 (the e ≤ 1/3 branch), linear k = 1e4, minimumImpactVelocity 0.5 (the impact
    velocity used is at least 0.5)."""
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    g = [0, -9.81, 0]
    contacts, data_nodes, nodes, bodies = [], [], [], []
    spec = [
        (-1.0, dict(impactModel=1, restitutionCoefficient=0.8, contactStiffness=2e5, contactStiffnessExponent=1.5)),
        (0.0, dict(impactModel=2, restitutionCoefficient=0.6, contactStiffness=2e5, contactStiffnessExponent=1.5,
                   contactDamping=1)),
        (1.0, dict(impactModel=2, restitutionCoefficient=0.25, contactStiffness=1e4, minimumImpactVelocity=0.5)),
    ]
    for i, (x, p) in enumerate(spec):
        nG = mbs.AddNode(NodePointGround(referenceCoordinates=[x, 0, 0]))
        mG = mbs.AddMarker(MarkerNodePosition(nodeNumber=nG))
        if i < 2:
            ball = mbs.CreateMassPoint(physicsMass=0.4, referencePosition=[x, 0.5, 0], gravity=g)
            n = mbs.GetObject(ball)['nodeNumber']
            mBall = mbs.AddMarker(MarkerNodePosition(nodeNumber=n))
            nodes.append(n)
        else:
            ball = mbs.CreateRigidBody(inertia=InertiaSphere(0.4, 0.1), referencePosition=[x, 0.5, 0], gravity=g,
                                       nodeType=exu.NodeType.RotationRxyz)
            mBall = mbs.AddMarker(MarkerBodyRigid(bodyNumber=ball))
            bodies.append(ball)
        nd = mbs.AddNode(NodeGenericData(numberOfDataCoordinates=4, initialCoordinates=[0.1, 0, 0, 0]))
        contacts.append(mbs.AddObject(ObjectContactSphereSphere(markerNumbers=[mG, mBall], nodeNumber=nd,
                                                                spheresRadii=[0.2, 0.1], **p)))
        data_nodes.append(nd)
    sensors(mbs, contacts, data_nodes, bodies=bodies, nodes=nodes)
    return mbs


def head_on_hollow():
    """Two free balls (mass points, r = 0.1, 0.2 kg and 0.3 kg) inside a fixed hollow sphere
    (R = 0.5; marker 1 of two contacts, isHollowSphere1): they meet head-on (plus a little
    transverse velocity), then each hits the inner wall. The ball–ball contact uses the
    Edinburgh adhesive elasto-plastic model (impactModel 0, contactPlasticityRatio 0.5,
    constantPullOffForce 0.5, adhesionCoefficient 2e3, exponents 1, damping 2): its data[3]
    holds the plastic overlap; the wall contacts are linear (k = 2e4, d = 10)."""
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    shell = mbs.AddObject(ObjectGround(referencePosition=[0, 0, 0]))
    mShell = mbs.AddMarker(MarkerBodyRigid(bodyNumber=shell))
    a = mbs.CreateMassPoint(physicsMass=0.2, referencePosition=[-0.2, 0.01, 0], initialVelocity=[1.5, 0.1, 0.05])
    b = mbs.CreateMassPoint(physicsMass=0.3, referencePosition=[0.2, -0.01, 0], initialVelocity=[-1.0, 0, -0.05])
    nA, nB = mbs.GetObject(a)['nodeNumber'], mbs.GetObject(b)['nodeNumber']
    mA = mbs.AddMarker(MarkerNodePosition(nodeNumber=nA))
    mB = mbs.AddMarker(MarkerNodePosition(nodeNumber=nB))
    dAB = mbs.AddNode(NodeGenericData(numberOfDataCoordinates=4, initialCoordinates=[0.1, 0, 0, 0]))
    cAB = mbs.AddObject(ObjectContactSphereSphere(markerNumbers=[mA, mB], nodeNumber=dAB, spheresRadii=[0.1, 0.1],
                                                  contactStiffness=2e4, contactDamping=2, contactPlasticityRatio=0.5,
                                                  constantPullOffForce=0.5, adhesionCoefficient=2e3))
    contacts, data_nodes = [cAB], [dAB]
    for m in [mA, mB]:
        d = mbs.AddNode(NodeGenericData(numberOfDataCoordinates=4, initialCoordinates=[0.1, 0, 0, 0]))
        contacts.append(mbs.AddObject(ObjectContactSphereSphere(markerNumbers=[m, mShell], nodeNumber=d,
                                                                spheresRadii=[0.1, 0.5], isHollowSphere1=True,
                                                                contactStiffness=2e4, contactDamping=10)))
        data_nodes.append(d)
    sensors(mbs, contacts, data_nodes, nodes=[nA, nB])
    return mbs


def oblique_friction():
    """Friction (rigid markers, torques), two independent parts without a shared item.
    (a) Oblique impact of two spinning spheres: an Euler-parameter body (r = 0.1, 1 kg,
    MarkerBodyRigid) moving at 2 m/s along x and spinning about z hits a Tait-Bryan body
    (r = 0.12, 1.5 kg, MarkerNodeRigid) whose centre is 0.1 off its path; no gravity.
    (b) A Tait-Bryan ball (r = 0.1, 1 kg) in a fixed hollow bowl (R = 0.5, isHollowSphere1,
    MarkerBodyRigid on ObjectGround), under gravity, starting in contact at the bottom with
    0.8 m/s and no spin: it slides, friction spins it up and it rolls, so data[1] (the
    tangential speed at the contact point) falls through frictionProportionalZone and
    PostNewton adds its stick/slip error; data node consistent at [-1e-4, 0.8, 0, 0].
    Both contacts linear (k = 1e5, d = 20), dynamicFriction 0.3, frictionProportionalZone 0.05."""
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    par = dict(contactStiffness=1e5, contactDamping=20, dynamicFriction=0.3, frictionProportionalZone=0.05)
    a = mbs.CreateRigidBody(inertia=InertiaSphere(1.0, 0.1), referencePosition=[-0.3, 0, 0],
                            initialVelocity=[2.0, 0, 0], initialAngularVelocity=[0.5, 0, 20.0])
    b = mbs.CreateRigidBody(inertia=InertiaSphere(1.5, 0.12), referencePosition=[0, 0.1, 0.02],
                            nodeType=exu.NodeType.RotationRxyz, initialAngularVelocity=[0, -3.0, 0])
    mA = mbs.AddMarker(MarkerBodyRigid(bodyNumber=a))
    mB = mbs.AddMarker(MarkerNodeRigid(nodeNumber=mbs.GetObject(b)['nodeNumber']))
    nd = mbs.AddNode(NodeGenericData(numberOfDataCoordinates=4, initialCoordinates=[0.1, 0, 0, 0]))
    c = mbs.AddObject(ObjectContactSphereSphere(markerNumbers=[mA, mB], nodeNumber=nd, spheresRadii=[0.1, 0.12],
                                                **par))
    bowl = mbs.AddObject(ObjectGround(referencePosition=[0, 2, 0]))
    mBowl = mbs.AddMarker(MarkerBodyRigid(bodyNumber=bowl))
    ball = mbs.CreateRigidBody(inertia=InertiaSphere(1.0, 0.1), referencePosition=[0, 2 - 0.4001, 0],
                               initialVelocity=[0.8, 0, 0], gravity=[0, -9.81, 0], nodeType=exu.NodeType.RotationRxyz)
    mBall = mbs.AddMarker(MarkerBodyRigid(bodyNumber=ball))
    nd2 = mbs.AddNode(NodeGenericData(numberOfDataCoordinates=4, initialCoordinates=[-1e-4, 0.8, 0, 0]))
    c2 = mbs.AddObject(ObjectContactSphereSphere(markerNumbers=[mBall, mBowl], nodeNumber=nd2,
                                                 spheresRadii=[0.1, 0.5], isHollowSphere1=True, **par))
    sensors(mbs, [c, c2], [nd, nd2], bodies=[a, b, ball])
    for o in [c, c2]:
        mbs.AddSensor(SensorObject(objectNumber=o, outputVariableType=OVT.Torque, storeInternal=True,
                                   writeToFile=False))
    return mbs


CASES = {}


def case(f):
    CASES[f.__name__] = f
    return f


@case
def contact_sphere_sphere_bounce():
    write('contact_sphere_sphere_bounce', bounce(), contact_settings(1200, 1.2, 0.004))


@case
def contact_sphere_sphere_restitution():
    s = contact_settings(2000, 1.0, 0.005)
    s.timeIntegration.discontinuous.useRecommendedStepSize = False  # fixed step size
    write('contact_sphere_sphere_restitution', restitution(), s)


@case
def contact_sphere_sphere_head_on_hollow():
    write('contact_sphere_sphere_head_on_hollow', head_on_hollow(), contact_settings(1000, 1.0, 0.004))


@case
def contact_sphere_sphere_oblique_friction():
    write('contact_sphere_sphere_oblique_friction', oblique_friction(), contact_settings(1000, 0.5, 0.0025))


if __name__ == '__main__':
    for n in sys.argv[1:] or list(CASES):
        CASES[n]()
