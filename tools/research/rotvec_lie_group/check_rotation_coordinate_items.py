"""Item-level checks of MarkerNodeRotationCoordinate with pip Exudyn 1.13.6 (doc section A):
marker value / value_t / Jacobian on EP, Rxyz and RotVecLG nodes, accepted nodes and errors,
ConnectorCoordinate (Jacobian, EOM residual with C_q = factor*G[i,:], lambda sensitivity),
CoordinateSpringDamper (LHS, numerical Jacobian), LoadCoordinate (Q = load*G[i,:]^T).

    python3 check_rotation_coordinate_items.py
"""
import os
import sys
import warnings

import numpy as np
import exudyn as exu
from exudyn.utilities import *

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lie import compose, rot_xyz  # noqa: E402

warnings.simplefilter('ignore', DeprecationWarning)
OVT = exu.OutputVariableType
CIT = exu.ComputeItemType
NT = exu.NodeType


def kinematics():
    print('--- A2 marker value, value_t, Jacobian')
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    ep0 = list(RotationMatrix2EulerParameters(RotXYZ2RotationMatrix([0.3, -0.4, 0.5])))
    nodes = [mbs.AddNode(NodeRigidBodyEP(referenceCoordinates=[0, 0, 0] + ep0, initialCoordinates=[0, 0, 0, 0.01, 0.02, -0.03, 0.04],
                                         initialVelocities=[0, 0, 0, 0.1, 0.2, 0.3, -0.1])),
             mbs.AddNode(NodeRigidBodyRxyz(referenceCoordinates=[0, 0, 0, 0.3, -0.4, 0.5], initialCoordinates=[0, 0, 0, 0.1, 0.2, 6.5],
                                           initialVelocities=[0, 0, 0, 1, 2, 3])),
             mbs.AddNode(NodeRigidBodyRotVecLG(referenceCoordinates=[0, 0, 0, 0.3, -0.4, 0.5], initialCoordinates=[0, 0, 0, 0.1, 0.2, 0.3],
                                               initialVelocities=[0, 0, 0, 1, 2, 3]))]
    mk = {(int(n), i): mbs.AddMarker(MarkerNodeRotationCoordinate(nodeNumber=n, rotationCoordinate=i)) for n in nodes for i in range(3)}
    mbs.Assemble()
    for n in nodes:
        A = mbs.GetNodeOutput(n, OVT.RotationMatrix).reshape(3, 3)
        om = mbs.GetNodeOutput(n, OVT.AngularVelocity)
        G = mbs.ComputeItem(n, CIT.RotationJacobian)
        for i in range(3):
            m = mk[(int(n), i)]
            d = mbs.ComputeItem(m, CIT.Kinematics)
            J = mbs.ComputeItem(m, CIT.CoordinateJacobian)
            print(f'node {int(n)} ({mbs.GetNode(n)["nodeType"]}) i={i}: value {d["value"][0]:.10f} (RotXYZ(A)[i] '
                  f'{rot_xyz(A)[i]:.10f}), value_t {d["value_t"][0]:.8f} (omega[i] {om[i]:.8f}), |J - G[i]| '
                  f'{np.abs(J - G[i]).max():.1e}, sensor Coordinates {mbs.GetMarkerOutput(m, OVT.Coordinates)}')
    print('Rxyz node Rotation output (raw angles):', mbs.GetNodeOutput(nodes[1], OVT.Rotation))


def errors():
    print('--- A1 accepted nodes')

    def tryit(label, mk):
        SC = exu.SystemContainer()
        mbs = SC.AddSystem()
        try:
            n, i = mk(mbs)
            m = mbs.AddMarker(MarkerNodeRotationCoordinate(nodeNumber=n, rotationCoordinate=i))
            mbs.Assemble()
            print(f'{label}: accepted, value {mbs.ComputeItem(m, CIT.Kinematics)["value"]}')
        except Exception as e:
            print(f'{label}: ERROR {str(e).strip().splitlines()[-1]}')
    tryit('RigidBody2D', lambda mbs: (mbs.AddNode(NodeRigidBody2D(referenceCoordinates=[0, 0, 0.3])), 2))
    tryit('Point', lambda mbs: (mbs.AddNode(NodePoint()), 0))
    tryit('PointGround', lambda mbs: (mbs.AddNode(NodePointGround()), 0))
    tryit('Node1D', lambda mbs: (mbs.AddNode(Node1D()), 0))
    tryit('GenericODE2', lambda mbs: (mbs.AddNode(NodeGenericODE2(numberOfODE2Coordinates=3, referenceCoordinates=[0] * 3,
                                                                   initialCoordinates=[0] * 3, initialCoordinates_t=[0] * 3)), 0))
    tryit('PointSlope23', lambda mbs: (mbs.AddNode(NodePointSlope23(referenceCoordinates=[0, 0, 0, 0, 1, 0, 0, 0, 1])), 0))
    tryit('Rxyz, coordinate 3', lambda mbs: (mbs.AddNode(NodeRigidBodyRxyz()), 3))
    tryit('Rxyz, coordinate -1', lambda mbs: (mbs.AddNode(NodeRigidBodyRxyz()), -1))


def constraint(nt, velocity_level=False, index2=False, tol=None):
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    inertia = InertiaCuboid(density=500, sideLengths=[0.4, 0.2, 0.1])
    b = mbs.CreateRigidBody(inertia=inertia, referencePosition=[0, 0, 0], referenceRotationMatrix=RotXYZ2RotationMatrix([0.2, -0.3, 0.05]),
                            nodeType=nt, initialAngularVelocity=[1., -2., 0.5], gravity=[0, -9.81, 0])
    n = mbs.GetObject(b)['nodeNumber']
    nG = mbs.AddNode(NodePointGround())
    mG = mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=nG, coordinate=0))
    mR = mbs.AddMarker(MarkerNodeRotationCoordinate(nodeNumber=n, rotationCoordinate=2))
    mP = mbs.AddMarker(MarkerBodyPosition(bodyNumber=b, localPosition=[0.2, 0.1, 0.]))
    mbs.AddLoad(LoadForceVector(markerNumber=mP, loadVector=[0., 0., 3.]))
    c = mbs.AddObject(ObjectConnectorCoordinate(markerNumbers=[mG, mR], factor1=2., offset=0.1, velocityLevel=velocity_level))
    mbs.Assemble()
    if tol is None and not velocity_level and not index2:
        A = mbs.GetNodeOutput(n, OVT.RotationMatrix).reshape(3, 3)
        print(f'{str(nt)}: |ConstraintJacobian - 2 G[2]| '
              f'{np.abs(mbs.ComputeItem(c, CIT.ConstraintJacobian) - 2 * mbs.ComputeItem(n, CIT.RotationJacobian)[2]).max():.1e}, '
              f'AE {mbs.ComputeItem(c, CIT.AlgebraicEquations)} = 2 rotZ - 0.1 = {2 * rot_xyz(A)[2] - 0.1:.3e}')
    s = exu.SimulationSettings()
    s.timeIntegration.numberOfSteps = 200
    s.timeIntegration.endTime = 0.2
    s.timeIntegration.verboseMode = 0
    s.solution.file.write = False
    s.timeIntegration.generalizedAlpha.useIndex2Constraints = index2
    s.timeIntegration.generalizedAlpha.useNewmark = index2
    if tol:
        s.timeIntegration.newton.relativeTolerance = tol
        s.timeIntegration.newton.absoluteTolerance = tol
    mbs.SolveDynamic(s)
    it = mbs.sys['dynamicSolver'].it
    lam = mbs.systemData.GetAECoordinates()
    A = mbs.GetNodeOutput(n, OVT.RotationMatrix).reshape(3, 3)
    om = mbs.GetNodeOutput(n, OVT.AngularVelocity)
    M = mbs.ComputeItem(b, CIT.MassMatrix)
    L = mbs.ComputeItem(b, CIT.ODE2LHS)
    a = mbs.systemData.GetODE2Coordinates_tt()
    Jr = mbs.ComputeItem(n, CIT.RotationJacobian)
    m = 500 * 0.4 * 0.2 * 0.1
    bb, f, g = np.array([0.2, 0.1, 0.]), np.array([0, 0, 3.]), np.array([0, -9.81, 0])
    Q = np.zeros(len(a))
    Q[:3] = f + m * g
    Q[3:] = (A.T @ Jr[:, 3:]).T @ np.cross(bb, A.T @ f)  # Gbar^T (b x A^T f)
    r = M @ a + L - Q + 2. * Jr[2] * lam[-1]
    if nt == NT.RotationEulerParameters:
        r[3:] += 2 * mbs.GetNodeOutput(n, OVT.CoordinatesTotal)[3:] * lam[0]
    mode = 'velocityLevel' if velocity_level else ('index 2' if index2 else 'index 3')
    print(f'  {str(nt).split(".")[-1]:24s} {mode:13s} tol {tol or "default"}: its/jacs {it.newtonStepsCount}/{it.newtonJacobiCount}, '
          f'2rotZ-0.1 = {2 * rot_xyz(A)[2] - 0.1:.2e}, 2omega_z = {2 * om[2]:.6g}, lambda = {lam[-1]:.6g}, '
          f'|EOM residual| = {np.abs(r).max():.1e}; outputs Force, Displacement, Velocity, ConstraintEquation = '
          f'{[float(np.ravel(mbs.GetObjectOutput(c, o))[0]) for o in [OVT.Force, OVT.Displacement, OVT.Velocity, OVT.ConstraintEquation]]}')


def springs_and_loads():
    print('--- A4/A5 CoordinateSpringDamper and LoadCoordinate')

    def build(nt, active):
        SC = exu.SystemContainer()
        mbs = SC.AddSystem()
        inertia = InertiaCuboid(density=500, sideLengths=[0.4, 0.2, 0.1])
        b = mbs.CreateRigidBody(inertia=inertia, referencePosition=[0, 0, 0], referenceRotationMatrix=RotXYZ2RotationMatrix([0.2, -0.3, 0.05]),
                                nodeType=nt, initialAngularVelocity=[1., -2., 0.5])
        n = mbs.GetObject(b)['nodeNumber']
        b2 = mbs.CreateRigidBody(inertia=inertia, referencePosition=[1, 0, 0], referenceRotationMatrix=RotXYZ2RotationMatrix([-0.1, 0.3, 1.05]),
                                 nodeType=NT.RotationRxyz, initialAngularVelocity=[0.3, 0.2, -0.5])
        n2 = mbs.GetObject(b2)['nodeNumber']
        mR = mbs.AddMarker(MarkerNodeRotationCoordinate(nodeNumber=n, rotationCoordinate=1))
        mR2 = mbs.AddMarker(MarkerNodeRotationCoordinate(nodeNumber=n2, rotationCoordinate=2))
        c = mbs.AddObject(CoordinateSpringDamper(markerNumbers=[mR2, mR], stiffness=50., damping=2., offset=0.3, activeConnector=active))
        mbs.AddLoad(LoadCoordinate(markerNumber=mR, load=1.7))
        mbs.Assemble()
        return SC, mbs, b, n, b2, n2, c

    def solver_call(mbs, what, *args):
        s = exu.SimulationSettings()
        s.solution.file.write = False
        sol = exu.MainSolverImplicitSecondOrder()
        sol.InitializeSolver(mbs, s)
        getattr(sol, what)(mbs, *args)
        out = (sol.GetSystemJacobian() if what.startswith('ComputeJacobian') else sol.GetSystemResidual()).copy()
        sol.FinalizeSolver(mbs, s)
        return out

    for nt in [NT.RotationEulerParameters, NT.RotationRxyz, NT.RotationRotationVector]:
        SC, mbs, b, n, b2, n2, c = build(nt, True)
        SC0, mbs0, *_ = build(nt, False)
        nq = mbs.systemData.ODE2Size()
        G = mbs.ComputeItem(n, CIT.RotationJacobian)[1]
        G2 = mbs.ComputeItem(n2, CIT.RotationJacobian)[2]
        A = mbs.GetNodeOutput(n, OVT.RotationMatrix).reshape(3, 3)
        A2 = mbs.GetNodeOutput(n2, OVT.RotationMatrix).reshape(3, 3)
        om, om2 = mbs.GetNodeOutput(n, OVT.AngularVelocity), mbs.GetNodeOutput(n2, OVT.AngularVelocity)
        f = 50. * (rot_xyz(A)[1] - rot_xyz(A2)[2] - 0.3) + 2. * (om[1] - om2[2])
        L = mbs.ComputeItem(c, CIT.ODE2LHS)  # connector-local order: [marker 0 (body 2) | marker 1 (body 1)]
        Jm = np.hstack([-G2, G])
        nb = len(G)

        def to_system(x):  # connector-local rows -> system order [body 1 | body 2]
            return np.concatenate([x[len(G2):], x[:len(G2)]])
        Jsys = to_system(Jm)
        print(f'{str(nt)}: spring LHS - [-f G2, f G] {np.abs(L - f * Jm).max():.1e}; outputs '
              f'{[float(np.ravel(mbs.GetObjectOutput(c, o))[0]) for o in [OVT.Displacement, OVT.Velocity, OVT.Force]]}')
        # LoadCoordinate (spring inactive): RHS + body LHS = Q
        rhs = solver_call(mbs0, 'ComputeODE2RHS')[:nq]
        n1 = len(mbs0.ComputeItem(b, CIT.ODE2LHS))
        Q = rhs[:n1] + mbs0.ComputeItem(b, CIT.ODE2LHS)
        print(f'   LoadCoordinate: |Q - 1.7 G[1]| = {np.abs(Q - 1.7 * G).max():.1e}')
        # spring Jacobian: Exudyn's K, D minus those without the spring, vs FD of the spring LHS and vs k J^T J
        K = (solver_call(mbs, 'ComputeJacobianODE2RHS', -1., 0., 0., 0) - solver_call(mbs0, 'ComputeJacobianODE2RHS', -1., 0., 0., 0))[:nq, :nq]
        D = (solver_call(mbs, 'ComputeJacobianODE2RHS', 0., -1., 0., 0) - solver_call(mbs0, 'ComputeJacobianODE2RHS', 0., -1., 0., 0))[:nq, :nq]
        q0 = mbs.systemData.GetODE2Coordinates()
        v0 = mbs.systemData.GetODE2Coordinates_t()
        Kfd = np.zeros((nq, nq))
        Dfd = np.zeros((nq, nq))
        lie = nt == NT.RotationRotationVector
        nuRef = np.array(mbs.GetNode(n)['referenceCoordinates'][3:6])
        for i in range(nq):
            e = 1e-7 * max(0.01, abs(q0[i]))
            q = q0.copy()
            if lie and i < 6:  # Lie node: perturbation by composition (SetNumDiffObjectLieGroup), for the
                # position columns too: compose(nu + nuRef, 0) - nuRef != nu by round-off, which the
                # division by eps ~1e-9 turns into entries ~1e-5 in K's position columns
                inc = np.zeros(3)
                if i >= 3:
                    inc[i - 3] = e
                else:
                    q[i] += e
                q[3:6] = compose(q0[3:6] + nuRef, inc) - nuRef
            else:
                q[i] += e
            mbs.systemData.SetODE2Coordinates(q)
            Kfd[:, i] = to_system(mbs.ComputeItem(c, CIT.ODE2LHS) - L) / e
            mbs.systemData.SetODE2Coordinates(q0)
            e = 1e-7 * max(0.01, abs(v0[i]))
            v = v0.copy()
            v[i] += e
            mbs.systemData.SetODE2Coordinates_t(v)
            Dfd[:, i] = to_system(mbs.ComputeItem(c, CIT.ODE2LHS) - L) / e
            mbs.systemData.SetODE2Coordinates_t(v0)
        print(f'   spring Jacobian: |K - FD| {np.abs(K - Kfd).max():.1e}, |K - k J^T J| {np.abs(K - 50 * np.outer(Jsys, Jsys)).max():.1e}, '
              f'|D - FD| {np.abs(D - Dfd).max():.1e}, |D - d J^T J| {np.abs(D - 2 * np.outer(Jsys, Jsys)).max():.1e}')
        try:
            mbs.ComputeItem(c, CIT.JacobianODE2)
        except Exception as e:
            print('   ComputeItem(JacobianODE2):', str(e).strip().splitlines()[-1][:140])


if __name__ == '__main__':
    kinematics()
    errors()
    print('--- A3 ConnectorCoordinate(ground, rotZ, factor1=2, offset=0.1), GA h=1e-3, 200 steps')
    for nt in [NT.RotationEulerParameters, NT.RotationRxyz]:
        constraint(nt)
        constraint(nt, tol=1e-13)
        constraint(nt, index2=True)
        constraint(nt, velocity_level=True)
    springs_and_loads()
