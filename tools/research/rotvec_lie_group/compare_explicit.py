"""Compare explicit_lie.py (Python re-implementation) with pip Exudyn 1.13.6 for free RotVecLG
rigid bodies under every explicit Runge-Kutta method with useLieGroupIntegration = True.

    python3 compare_explicit.py            # prints max |dq|, |dv|, |da| and step counts per case
"""
import os
import sys

import numpy as np
import exudyn as exu
from exudyn.itemInterface import *

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from explicit_lie import ExplicitLieSolver  # noqa: E402
from rigid import RigidBodyRotVec  # noqa: E402

OVT = exu.OutputVariableType

# (1) the model of Exudyn's TestModels/explicitLieGroupIntegratorTest.py: heavy top as a free
# body, inertia about the fixed point, weight applied at local [0,1,0], omega0 = [0,150,-4.61538]
m = 15.
Jxx, Jyy, Jzz = 0.234375, 0.46875, 0.234375
rp = np.array([0., 1., 0.])
rpt = np.array([[0, -rp[2], rp[1]], [rp[2], 0, -rp[0]], [-rp[1], rp[0], 0]])
JFP = np.diag([Jxx, Jyy, Jzz]) - m * rpt @ rpt
TOP = dict(mass=m, inertia6=[JFP[0][0], JFP[1][1], JFP[2][2], JFP[1][2], JFP[0][2], JFP[0][1]],
           forces=[(rp, [0, 0, -m * 9.81])], ref=[0, 0, 0, 0, 0, 0], q0=[0] * 6, v0=[0, 0, 0, 0, 150, -4.61538])

# (2) a general body: COM offset (non-constant mass matrix), reference rotation, torque,
# gravity, force at a point, LoadCoordinate on a MarkerNodeRotationCoordinate
GEN = dict(mass=2.5, inertia6=[0.3, 0.2, 0.4, 0.01, -0.02, 0.03], com=[0.05, -0.02, 0.1],
           forces=[([0.2, 0.1, -0.1], [1., -2., 0.5])], torques=[[0.3, -0.1, 0.2]], gravity=[0, -9.81, 0],
           coordinate_loads=[(2, 0.7)],
           ref=[0.1, 0.2, 0.3, 0.4, -0.5, 2.0], q0=[0.01, 0, 0, 0.1, 0.2, -0.3], v0=[0.1, 0.2, -0.3, 3., -7., 11.])


def exudyn_model(d):
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    g = mbs.AddObject(ObjectGround())
    n = mbs.AddNode(NodeRigidBodyRotVecLG(referenceCoordinates=d['ref'], initialCoordinates=d['q0'],
                                          initialVelocities=d['v0']))
    b = mbs.AddObject(ObjectRigidBody(physicsMass=d['mass'], physicsInertia=d['inertia6'],
                                      physicsCenterOfMass=d.get('com', [0, 0, 0]), nodeNumber=n))
    for bl, f in d.get('forces', []):
        mk = mbs.AddMarker(MarkerBodyPosition(bodyNumber=b, localPosition=list(bl)))
        mbs.AddLoad(LoadForceVector(markerNumber=mk, loadVector=list(f)))
    for t in d.get('torques', []):
        mk = mbs.AddMarker(MarkerBodyRigid(bodyNumber=b))
        mbs.AddLoad(LoadTorqueVector(markerNumber=mk, loadVector=list(t)))
    if 'gravity' in d:
        mk = mbs.AddMarker(MarkerBodyMass(bodyNumber=b))
        mbs.AddLoad(LoadMassProportional(markerNumber=mk, loadVector=d['gravity']))
    for i, load in d.get('coordinate_loads', []):
        mk = mbs.AddMarker(MarkerNodeRotationCoordinate(nodeNumber=n, rotationCoordinate=i))
        mbs.AddLoad(LoadCoordinate(markerNumber=mk, load=load))
    mbs.Assemble()
    return SC, mbs


def run_exudyn(d, method, steps, end, atol=1e-8, rtol=1e-8):
    SC, mbs = exudyn_model(d)
    s = exu.SimulationSettings()
    s.timeIntegration.numberOfSteps = steps
    s.timeIntegration.endTime = end
    s.timeIntegration.verboseMode = 0
    s.timeIntegration.absoluteTolerance = atol
    s.timeIntegration.relativeTolerance = rtol
    s.solution.file.write = False
    mbs.SolveDynamic(s, solverType=getattr(exu.DynamicSolverType, method))
    it = mbs.sys['dynamicSolver'].it
    sd = mbs.systemData
    return (np.array(sd.GetODE2Coordinates()), np.array(sd.GetODE2Coordinates_t()), np.array(sd.GetODE2Coordinates_tt()),
            it.currentStepIndex - 1, it.rejectedAutomaticStepSizeSteps)


def run_python(d, method, steps, end, atol=1e-8, rtol=1e-8):
    body = RigidBodyRotVec(d['mass'], d['inertia6'], d.get('com', (0, 0, 0)), d['ref'], d.get('forces', ()),
                           d.get('torques', ()), d.get('gravity', (0, 0, 0)), d.get('coordinate_loads', ()))
    solver = ExplicitLieSolver(body, method)
    return solver.solve(np.array(d['q0'], float), np.array(d['v0'], float), end, steps, atol=atol, rtol=rtol)


def compare(label, d, method, steps, end, **tol):
    qe, ve, ae, ne, re = run_exudyn(d, method, steps, end, **tol)
    qp, vp, ap, t, npy, rp_ = run_python(d, method, steps, end, **tol)
    print(f'{label:5s} {method:16s} steps {ne:5d}/{npy:5d} rejected {re}/{rp_}  '
          f'|dq| {np.abs(qe - qp).max():.1e} |dv| {np.abs(ve - vp).max():.1e} |da| {np.abs(ae - ap).max():.1e}   '
          f'q_exu = {np.array2string(qe, precision=12, max_line_width=400)}')
    return qe, ve


if __name__ == '__main__':
    for method in ['ExplicitEuler', 'ExplicitMidpoint', 'RK33', 'RK44', 'RK67']:
        compare('top', TOP, method, 2000, 2.)
        compare('gen', GEN, method, 500, 1.)
    # the test model's settings for the error-controlled methods: atol 1e-10, rtol 0
    compare('top', TOP, 'DOPRI5', 2000, 2., atol=1e-10, rtol=0.)
    compare('top', TOP, 'ODE23', 200, 0.2, atol=1e-10, rtol=0.)
    compare('gen', GEN, 'DOPRI5', 100, 1.)
    compare('gen', GEN, 'ODE23', 100, 1.)
    # the explicitLieGroupIntegratorTest check value: sum over ExplicitMidpoint, RK44, RK67, DOPRI5 of
    # |coords| + |pos(rp)| and DOPRI5's steps/8517, times 1e-3 (reference 0.16164013319819076)
    total = 0.
    for method in ['ExplicitMidpoint', 'RK44', 'RK67', 'DOPRI5']:
        body = RigidBodyRotVec(TOP['mass'], TOP['inertia6'], forces=TOP['forces'])
        q, v, a, t, nst, rej = ExplicitLieSolver(body, method).solve(np.zeros(6), np.array(TOP['v0'], float), 2., 2000,
                                                                    atol=1e-10, rtol=0.)
        pos = q[:3] + body.A(q) @ rp
        total += np.linalg.norm(q) + np.linalg.norm(pos) + (nst / 8517 if method == 'DOPRI5' else 0)
    print('explicitLieGroupIntegratorTest value (Python re-implementation):', total * 1e-3,
          ' Exudyn test reference 0.16164013319819076')

    # useLieGroupIntegration = False: the rotation vector is integrated additively with
    # d(nu)/dt := omegaBar (NOT the correct kinematics); Exudyn does exactly that.  (Over 1 s the
    # rotation vector passes |nu| = 2 pi, A becomes garbage (rotvec_to_matrix quirk) and Exudyn stops
    # with 'System mass matrix seems to be singular'; hence only 0.2 s here.)
    SC, mbs = exudyn_model(GEN)
    s = exu.SimulationSettings()
    s.timeIntegration.numberOfSteps = 100
    s.timeIntegration.endTime = 0.2
    s.timeIntegration.verboseMode = 0
    s.solution.file.write = False
    s.timeIntegration.explicit.useLieGroupIntegration = False
    mbs.SolveDynamic(s, solverType=exu.DynamicSolverType.RK44)
    body = RigidBodyRotVec(GEN['mass'], GEN['inertia6'], GEN['com'], GEN['ref'], GEN['forces'], GEN['torques'],
                           GEN['gravity'], GEN['coordinate_loads'])
    q, v, a, *_ = ExplicitLieSolver(body, 'RK44', lie=False).solve(np.array(GEN['q0'], float), np.array(GEN['v0'], float), 0.2, 100)
    print('useLieGroupIntegration=False, RK44: |dq|', np.abs(q - mbs.systemData.GetODE2Coordinates()).max(),
          ' q =', mbs.systemData.GetODE2Coordinates())

    # VelocityVerlet with the Lie-group update
    from explicit_lie import velocity_verlet
    for lab, d, n, T in [('gen', GEN, 500, 1.), ('top', TOP, 2000, 2.)]:
        SC, mbs = exudyn_model(d)
        s = exu.SimulationSettings()
        s.timeIntegration.numberOfSteps = n
        s.timeIntegration.endTime = T
        s.timeIntegration.verboseMode = 0
        s.solution.file.write = False
        mbs.SolveDynamic(s, solverType=exu.DynamicSolverType.VelocityVerlet)
        body = RigidBodyRotVec(d['mass'], d['inertia6'], d.get('com', (0, 0, 0)), d['ref'], d.get('forces', ()),
                               d.get('torques', ()), d.get('gravity', (0, 0, 0)), d.get('coordinate_loads', ()))
        q, v, a = velocity_verlet(body, d['q0'], d['v0'], T, n)
        print(lab, 'VelocityVerlet |dq|', np.abs(q - mbs.systemData.GetODE2Coordinates()).max(),
              '|dv|', np.abs(v - mbs.systemData.GetODE2Coordinates_t()).max())
