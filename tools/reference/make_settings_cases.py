"""Exudyn 1.13.6 reference cases for solver settings beyond the defaults.

Run from the repository root:  python3 tools/reference/make_settings_cases.py
"""
import os
import sys

import numpy as np
import exudyn as exu
from exudyn.itemInterface import *
from exudyn.utilities import *

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..'))
from exudyn_export import export, run_reference  # noqa: E402

OUT = os.path.join(os.path.dirname(__file__), '..', '..', 'tests', 'reference', 'own_cases')
OVT = exu.OutputVariableType


def pendulum(mbs):
    """Spinning EP pendulum on a spherical joint, with sensors of every kind."""
    oGround = mbs.AddObject(ObjectGround())
    inertia = InertiaCuboid(density=1000, sideLengths=[1, 0.1, 0.1])
    omega0 = np.array([1, 2, -3])
    v0 = list(np.cross(omega0, [0.5, 0, 0])) + list(AngularVelocity2EulerParameters_t(omega0, eulerParameters0))
    node = mbs.AddNode(NodeRigidBodyEP(referenceCoordinates=[0.5, 0, 0] + eulerParameters0, initialVelocities=v0))
    body = mbs.AddObject(ObjectRigidBody(nodeNumber=node, mass=inertia.Mass(), inertia=inertia.GetInertia6D()))
    mM = mbs.AddMarker(MarkerBodyMass(bodyNumber=body))
    load = mbs.AddLoad(LoadMassProportional(markerNumber=mM, loadVector=[0, 0, -9.81]))
    mG = mbs.AddMarker(MarkerBodyPosition(bodyNumber=oGround, localPosition=[0, 0, 0]))
    mB = mbs.AddMarker(MarkerBodyRigid(bodyNumber=body, localPosition=[-0.5, 0, 0]))
    j = mbs.AddObject(ObjectJointSpherical(markerNumbers=[mG, mB]))
    for o, v in [(j, OVT.Force), (j, OVT.Displacement)]:
        mbs.AddSensor(SensorObject(objectNumber=o, outputVariableType=v, storeInternal=True, writeToFile=False))
    mbs.AddSensor(SensorNode(nodeNumber=node, outputVariableType=OVT.Coordinates_t, storeInternal=True,
                             writeToFile=False))
    mbs.AddSensor(SensorNode(nodeNumber=node, outputVariableType=OVT.AngularAcceleration, storeInternal=True,
                             writeToFile=False))
    mbs.AddSensor(SensorBody(bodyNumber=body, localPosition=[0.5, 0, 0], outputVariableType=OVT.Velocity,
                             storeInternal=True, writeToFile=False))
    mbs.AddSensor(SensorMarker(markerNumber=mB, outputVariableType=OVT.Rotation, storeInternal=True,
                               writeToFile=False))
    mbs.AddSensor(SensorLoad(loadNumber=load, storeInternal=True, writeToFile=False))


def settings(steps=500, end=0.5):
    s = exu.SimulationSettings()
    s.timeIntegration.numberOfSteps = steps
    s.timeIntegration.endTime = end
    s.timeIntegration.verboseMode = 0
    s.staticSolver.verboseMode = 0
    s.solutionSettings.writeSolutionToFile = False
    return s


def write(name, mbs, s, solve='dynamic'):
    mbs.Assemble()
    export(mbs, s, os.path.join(OUT, name + '.json'), solve=solve)
    r = run_reference(mbs, s, os.path.join(OUT, name + '.ref.json'), solve=solve, case=name)
    print(name, r['statistics']['newtonIterations'], r['statistics']['jacobianEvaluations'])


def variant(name, edit):
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    pendulum(mbs)
    s = settings()
    edit(s)
    write(name, mbs, s)


def e(s):
    s.timeIntegration.newton.weightTolerancePerCoordinate = True
    s.timeIntegration.newton.adaptInitialResidual = False
variant('settings_weighted_tolerance_no_adapt_initial', e)


def e(s):
    s.timeIntegration.generalizedAlpha.computeInitialAccelerations = False
    s.timeIntegration.generalizedAlpha.resetAccelerations = True
    s.solutionSettings.writeInitialValues = False
    s.solutionSettings.sensorsWritePeriod = 0.025
variant('settings_reset_accelerations_sensor_period', e)


def e(s):
    s.timeIntegration.generalizedAlpha.storeInitialAlgebraicCoordinates = False
    s.timeIntegration.newton.numericalDifferentiation.relativeEpsilon = 1e-6
    s.timeIntegration.newton.numericalDifferentiation.minimumCoordinateSize = 0.1
    s.timeIntegration.startTime = 0.25
    s.timeIntegration.endTime = 0.75
variant('settings_numerical_differentiation_start_time', e)


def e(s):
    s.timeIntegration.newton.maxModifiedNewtonIterations = 3
    s.timeIntegration.newton.modifiedNewtonContractivity = 0.2
    s.timeIntegration.newton.relativeTolerance = 1e-10
    s.timeIntegration.newton.absoluteTolerance = 1e-12
    s.solutionSettings.sensorsWritePeriod = 0
variant('settings_tight_newton_every_step_sensors', e)


def e(s):
    s.timeIntegration.numberOfSteps = 20
    s.timeIntegration.adaptiveStepRecoverySteps = 3
    s.timeIntegration.adaptiveStepRecoveryIterations = 12
    s.timeIntegration.adaptiveStepDecrease = 0.25
    s.timeIntegration.adaptiveStepIncrease = 4
    s.timeIntegration.newton.maxIterations = 12
variant('settings_adaptive_step_parameters', e)

# newton.active = False on a linear system: one iteration per step
SC = exu.SystemContainer()
mbs = SC.AddSystem()
g = mbs.AddObject(ObjectGround())
p = mbs.CreateMassPoint(referencePosition=[1, 0, 0], physicsMass=2, initialVelocity=[0, 1, 0.5])
mg = mbs.AddMarker(MarkerBodyPosition(bodyNumber=g, localPosition=[1, 0, 0]))
mp = mbs.AddMarker(MarkerBodyPosition(bodyNumber=p, localPosition=[0, 0, 0]))
mbs.AddObject(ObjectConnectorCartesianSpringDamper(markerNumbers=[mg, mp], stiffness=[100, 200, 300],
                                                    damping=[1, 2, 3]))
ld = mbs.AddLoad(LoadForceVector(markerNumber=mp, loadVector=[0.5, 0, -1]))
mbs.AddSensor(SensorNode(nodeNumber=mbs.GetObject(p)['nodeNumber'], outputVariableType=OVT.Position,
                         storeInternal=True, writeToFile=False))
mbs.AddSensor(SensorBody(bodyNumber=p, localPosition=[0, 0, 0], outputVariableType=OVT.Acceleration,
                         storeInternal=True, writeToFile=False))
s = settings(steps=400, end=2.0)
s.timeIntegration.newton.active = False
s.timeIntegration.newton.useModifiedNewton = False
write('settings_linear_newton_inactive', mbs, s)



def static_model(mbs):
    """Two bodies (EP, Rxyz; COM offsets) on spherical joints, held by Cartesian springs."""
    oGround = mbs.AddObject(ObjectGround())
    ia = RigidBodyInertia(mass=3, inertiaTensor=np.diag([0.01, 0.05, 0.05]), com=[0, 0, -0.03],
                          inertiaTensorAtCOM=True)
    ba = mbs.CreateRigidBody(inertia=ia, referencePosition=[0.3, 0, 0], gravity=[0, 0, -9.81])
    bb = mbs.CreateRigidBody(inertia=ia, referencePosition=[0.9, 0, 0], gravity=[0, 0, -9.81],
                             nodeType=exu.NodeType.RotationRxyz)
    mG = mbs.AddMarker(MarkerBodyPosition(bodyNumber=oGround, localPosition=[0, 0, 0]))
    ma0 = mbs.AddMarker(MarkerBodyPosition(bodyNumber=ba, localPosition=[-0.3, 0, 0]))
    ma1 = mbs.AddMarker(MarkerBodyPosition(bodyNumber=ba, localPosition=[0.3, 0, 0.05]))
    mb0 = mbs.AddMarker(MarkerBodyRigid(bodyNumber=bb, localPosition=[-0.3, 0, 0.05]))
    j1 = mbs.AddObject(ObjectJointSpherical(markerNumbers=[mG, ma0]))
    j2 = mbs.AddObject(ObjectJointSpherical(markerNumbers=[ma1, mb0]))
    for body, bodyRef, local in [(ba, [0.3, 0, 0], [0, 0.1, 0]), (bb, [0.9, 0, 0], [0.3, 0.05, 0]),
                                 (bb, [0.9, 0, 0], [0, 0, 0.1])]:
        mGs = mbs.AddMarker(MarkerBodyPosition(bodyNumber=oGround, localPosition=np.array(bodyRef) + local))
        mBs = mbs.AddMarker(MarkerBodyPosition(bodyNumber=body, localPosition=local))
        mbs.AddObject(ObjectConnectorCartesianSpringDamper(markerNumbers=[mGs, mBs], stiffness=[2000, 2500, 3000]))
    mT = mbs.AddMarker(MarkerBodyRigid(bodyNumber=bb, localPosition=[0.3, 0, 0]))
    mbs.AddLoad(LoadTorqueVector(markerNumber=mT, loadVector=[0.5, -0.2, 0.3], bodyFixed=True))
    mbs.AddLoad(LoadForceVector(markerNumber=mT, loadVector=[0, 3, 0], bodyFixed=True))
    for o in (j1, j2):
        mbs.AddSensor(SensorObject(objectNumber=o, outputVariableType=OVT.Force, storeInternal=True,
                                   writeToFile=False))
    mbs.AddSensor(SensorBody(bodyNumber=bb, localPosition=[0.3, 0, 0], outputVariableType=OVT.Position,
                             storeInternal=True, writeToFile=False))


def static_variant(name, edit):
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    static_model(mbs)
    s = settings()
    edit(s)
    write(name, mbs, s, solve='static')


def e(s):
    s.staticSolver.numberOfLoadSteps = 6
    s.staticSolver.loadStepGeometric = True
    s.staticSolver.loadStepGeometricRange = 100
static_variant('static_geometric_load_steps', e)


def e(s):
    s.staticSolver.numberOfLoadSteps = 3
    s.staticSolver.useLoadFactor = False
    s.staticSolver.loadStepDuration = 2
    s.staticSolver.loadStepStart = 1
static_variant('static_no_load_factor_duration', e)


def e(s):
    s.staticSolver.numberOfLoadSteps = 2
    s.staticSolver.newton.useModifiedNewton = True
    s.staticSolver.computeLoadsJacobian = False
    s.staticSolver.newton.relativeTolerance = 1e-10
static_variant('static_modified_newton_no_load_jacobian', e)
