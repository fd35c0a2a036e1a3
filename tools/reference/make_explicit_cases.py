"""Exudyn 1.13.6 reference cases for the explicit solvers (issue 19): every explicit
DynamicSolverType on a system without constraints, the error-controlled pairs with their
settings, and the explicit options (end-of-step accelerations, per-body mass inverse, constraints
ignored).

Writes tests/reference/own_cases/explicit_*.json (model) and .ref.json (Exudyn's results).
Run from the repository root:  python3 tools/reference/make_explicit_cases.py [NAME ...]
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
DST = exu.DynamicSolverType


def sensors(mbs, node, obj):
    for n, v in [(node, OVT.Position), (node, OVT.Velocity), (node, OVT.Acceleration)]:
        mbs.AddSensor(SensorNode(nodeNumber=n, outputVariableType=v, storeInternal=True, writeToFile=False))
    mbs.AddSensor(SensorObject(objectNumber=obj, outputVariableType=OVT.Force, storeInternal=True,
                               writeToFile=False))


def rigid_and_points(joint=False):
    """A Tait-Bryan rigid body on a spring to ground (its mass matrix depends on the angles), a
    mass point on a spring-damper below it, gravity, a coordinate load; with `joint`, a spherical
    joint between the body and ground too (ignored with eliminateConstraints = False)."""
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    ground = mbs.AddObject(ObjectGround())
    inertia = InertiaCuboid(density=500, sideLengths=[0.4, 0.1, 0.05])
    body = mbs.CreateRigidBody(inertia=inertia, referencePosition=[0.3, 0, 0], nodeType=exu.NodeType.RotationRxyz,
                               initialAngularVelocity=[0.5, 1.0, 2.0], initialVelocity=[0, 0.2, 0],
                               gravity=[0, -9.81, 0])
    nBody = mbs.GetObject(body)['nodeNumber']
    mGround = mbs.AddMarker(MarkerBodyPosition(bodyNumber=ground, localPosition=[0, 0.1, 0]))
    mBody = mbs.AddMarker(MarkerBodyPosition(bodyNumber=body, localPosition=[-0.2, 0, 0]))
    spring = mbs.AddObject(ObjectConnectorSpringDamper(markerNumbers=[mGround, mBody], referenceLength=0.1,
                                                        stiffness=400, damping=2))
    mass = mbs.CreateMassPoint(physicsMass=0.5, referencePosition=[0.5, -0.4, 0.1], gravity=[0, -9.81, 0])
    nMass = mbs.GetObject(mass)['nodeNumber']
    mMass = mbs.AddMarker(MarkerBodyPosition(bodyNumber=mass))
    mTip = mbs.AddMarker(MarkerBodyPosition(bodyNumber=body, localPosition=[0.2, 0, 0]))
    mbs.AddObject(ObjectConnectorSpringDamper(markerNumbers=[mTip, mMass], referenceLength=0.35,
                                              stiffness=200, damping=1))
    mx = mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=nMass, coordinate=2))
    mbs.AddLoad(LoadCoordinate(markerNumber=mx, load=-0.5))
    if joint:
        mJ = mbs.AddMarker(MarkerBodyPosition(bodyNumber=ground, localPosition=[0.1, 0, 0]))
        mbs.AddObject(ObjectJointSpherical(markerNumbers=[mJ, mBody]))
    sensors(mbs, nBody, spring)
    return mbs


def points():
    """Two mass points on springs (a constant mass matrix, factorized once)."""
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    ground = mbs.AddObject(ObjectGround())
    m0 = mbs.CreateMassPoint(physicsMass=0.5, referencePosition=[1, 0, 0], initialVelocity=[0, 1, 0.2],
                             gravity=[0, -9.81, 0])
    m1 = mbs.CreateMassPoint(physicsMass=0.2, referencePosition=[1.5, 0, 0], gravity=[0, -9.81, 0])
    mG = mbs.AddMarker(MarkerBodyPosition(bodyNumber=ground))
    mk0 = mbs.AddMarker(MarkerBodyPosition(bodyNumber=m0))
    mk1 = mbs.AddMarker(MarkerBodyPosition(bodyNumber=m1))
    s0 = mbs.AddObject(ObjectConnectorSpringDamper(markerNumbers=[mG, mk0], referenceLength=0.9, stiffness=300,
                                                    damping=0.5))
    mbs.AddObject(ObjectConnectorSpringDamper(markerNumbers=[mk0, mk1], referenceLength=0.5, stiffness=100))
    sensors(mbs, mbs.GetObject(m1)['nodeNumber'], s0)
    return mbs


def explicit_settings(steps=500, end=0.5):
    s = settings(steps, end)
    s.timeIntegration.verboseMode = 0
    return s


CASES = {}


def case(f):
    CASES[f.__name__] = f
    return f


def _method_case(name, solver_type, model):
    def make():
        write(name, model(), explicit_settings(), solver_type=solver_type)
    make.__name__ = name
    CASES[name] = make


for _t in ['ExplicitEuler', 'ExplicitMidpoint', 'RK33', 'RK44', 'RK67', 'ODE23', 'DOPRI5', 'VelocityVerlet']:
    _method_case('explicit_' + _t.lower(), getattr(DST, _t), rigid_and_points)
_method_case('explicit_points_rk44', DST.RK44, points)
_method_case('explicit_points_dopri5', DST.DOPRI5, points)


@case
def explicit_dopri5_tolerances():
    """DOPRI5's control with its settings: tolerances, initial step, safety, max increase,
    minimum step; the solver type given in the settings instead of SolveDynamic's argument."""
    s = explicit_settings(50, 0.5)
    ti = s.timeIntegration
    ti.solverType = DST.DOPRI5
    ti.absoluteTolerance = 1e-6
    ti.relativeTolerance = 1e-5
    ti.initialStepSize = 1e-4
    ti.stepSizeSafety = 0.8
    ti.stepSizeMaxIncrease = 1.5
    ti.minimumStepSize = 1e-9
    write('explicit_dopri5_tolerances', rigid_and_points(), s)


@case
def explicit_ode23_fixed_step():
    """ODE23 with automaticStepSize = False: the error control still proposes and rejects (as
    in Exudyn), the step grows back by doubling."""
    s = explicit_settings(200, 0.5)
    s.timeIntegration.automaticStepSize = False
    s.timeIntegration.absoluteTolerance = 1e-6
    s.timeIntegration.relativeTolerance = 1e-6
    write('explicit_ode23_fixed_step', points(), s, solver_type=DST.ODE23)


@case
def explicit_rk44_options():
    """RK44 with the last stage's accelerations kept (computeEndOfStepAccelerations = False), the
    mass matrix inverted per body, and the mass matrix recomputed although constant."""
    s = explicit_settings()
    s.timeIntegration.explicit.computeEndOfStepAccelerations = False
    s.timeIntegration.explicit.computeMassMatrixInversePerBody = True
    s.timeIntegration.reuseConstantMassMatrix = False
    write('explicit_rk44_options', points(), s, solver_type=DST.RK44)


@case
def explicit_constraints_ignored():
    """A spherical joint with eliminateConstraints = False: Exudyn ignores it (λ = 0)."""
    s = explicit_settings()
    s.timeIntegration.explicit.eliminateConstraints = False
    write('explicit_constraints_ignored', rigid_and_points(joint=True), s, solver_type=DST.RK44)


if __name__ == '__main__':
    names = sys.argv[1:] or list(CASES)
    for n in names:
        CASES[n]()
