"""Numerical confirmation of the joint formulas in docs/joint-formulas.md against pip Exudyn 1.13.6.

For ObjectJointRevoluteZ, ObjectJointPrismaticX, ObjectJointGeneric (all 64 constrainedAxes
patterns) and ObjectConnectorDistance, at random states (non-unit Euler parameters, random
velocities, random Lagrange multipliers, rotated ground, rotated marker frames by localHT and by
the deprecated rotationMarker0/1), it compares the formulas below, evaluated from the markers'
own data (mbs.ComputeItem(marker, Kinematics/PositionJacobian/RotationJacobian)), with

  * position-level residual:  mbs.ComputeItem(joint, AlgebraicEquations) and
                              solver.ComputeAlgebraicEquations(mbs, velocityLevel=False)
  * velocity-level residual:  solver.ComputeAlgebraicEquations(mbs, velocityLevel=True)
  * Jacobian C_q:             mbs.ComputeItem(joint, ConstraintJacobian) and the AE rows of
                              solver.ComputeJacobianAE(mbs, 1, 0, 1, velocityLevel=False)
                              (velocityLevel=True raises NotImplementedFeatureError in 1.13.6)
  * Jacobian C_lambda:        the AE x AE block of the same solver Jacobian
  * C_q^T lambda:             the ODE2 x AE block of the solver Jacobian, and
                              mbs.ComputeItem(joint, ReactionForces)
  * -C_q^T lambda:            the generalized forces of the physical reading of lambda
                              (forces at p0/p1, torques (a x b) lambda), see §0 of the doc
  * outputs:                  mbs.GetObjectOutput(joint, every output variable of the joint),
                              plus the Rotation output at gimbal lock (rot_y = pi/2)

and prints the maximum absolute error of every comparison. It also prints two informative
quantities that are NOT expected to be zero: |g_vel - C_q qdot| (is the velocity-level residual
the time derivative along C_q?) and |C_q - dg/dq (finite differences)| (is C_q the exact partial
derivative?), split by node type, also for unit Euler parameters with tangential EP velocities.
Exit code 0 if every comparison agrees to 1e-10.

Run from the repository root:  python3 tools/reference/check_joint_formulas.py
"""
import itertools
import sys
import warnings
from collections import defaultdict

import numpy as np
import exudyn as exu
from exudyn.itemInterface import *  # noqa: F401,F403
from exudyn.rigidBodyUtilities import (AngularVelocity2EulerParameters_t, RotationMatrix2EulerParameters,
                                       RotationVector2RotationMatrix)

warnings.simplefilter('ignore', DeprecationWarning)  # rotationMarker0/1 are deprecated in 1.13

OVT = exu.OutputVariableType
CIT = exu.ComputeItemType
rng = np.random.default_rng(20240607)

ERR = defaultdict(float)     # comparison name -> max abs error
INFO = defaultdict(float)    # informative quantities
COUNT = defaultdict(int)
UNIT_EP = False              # True: EP nodes with unit EP and tangential EP velocities


def record(name, a, b, table=ERR):
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    if a.size == 0 and b.size == 0:
        e = 0.0
    else:
        if a.shape != b.shape:
            raise AssertionError(f'{name}: shape {a.shape} vs {b.shape}')
        e = float(np.max(np.abs(a - b)))
    table[name] = max(table[name], e)
    COUNT[name] += 1


# --------------------------------------------------------------------------------------------
# small math
def skew(v):
    return np.array([[0, -v[2], v[1]], [v[2], 0, -v[0]], [-v[1], v[0], 0]])


def rot_xyz(A):
    """Exudyn's RotationMatrix2RotXYZ (Tait-Bryan x-y-z, A = Rx Ry Rz), with its gimbal-lock branch."""
    absC1 = np.sqrt(A[1, 2] ** 2 + A[2, 2] ** 2)
    r1 = np.arctan2(A[0, 2], absC1)
    if absC1 > 1e-14:
        return np.array([np.arctan2(-A[1, 2], A[2, 2]), r1, np.arctan2(-A[0, 1], A[0, 0])])
    return np.array([0., r1, np.arctan2(A[1, 0], A[1, 1])])


def rand_rot(scale=np.pi):
    return RotationVector2RotationMatrix(rng.uniform(-1, 1, 3) * scale)


def wrap_pi(v):
    v = np.array(v, dtype=float)
    v[v > np.pi] -= 2 * np.pi
    return v


# --------------------------------------------------------------------------------------------
# marker data, as the joints receive it
class MarkerData:
    def __init__(self, mbs, m):
        k = mbs.ComputeItem(m, CIT.Kinematics)
        self.p = np.array(k['position'])
        self.v = np.array(k['velocity'])
        self.A = np.array(k['rotationMatrix']) if 'rotationMatrix' in k else np.eye(3)
        self.wbar = np.array(k['angularVelocityLocal']) if 'angularVelocityLocal' in k else np.zeros(3)
        self.Jp = np.array(mbs.ComputeItem(m, CIT.PositionJacobian)).reshape(3, -1)
        try:
            self.Jr = np.array(mbs.ComputeItem(m, CIT.RotationJacobian)).reshape(3, -1)
        except Exception:
            self.Jr = np.zeros((3, self.Jp.shape[1]))
        self.w = self.A @ self.wbar   # global angular velocity
        self.n = self.Jp.shape[1]


def axes(md, R):
    """Joint frame J = A_marker R (R = rotationMarker), its columns t_x,t_y,t_z, and dJ/dt."""
    Aall = md.A @ R
    Aall_t = md.A @ skew(md.wbar) @ R
    return Aall, Aall_t


def rot_row(a, b, md0, md1):
    """Jacobian row of g = a·b with a fixed in marker 0, b fixed in marker 1 (Exudyn's form)."""
    return np.concatenate([b @ (skew(a) @ (-md0.Jr)), a @ (skew(b) @ (-md1.Jr))])


def rot_vel(a, a_t, b, b_t):
    return a_t @ b + a @ b_t


# --------------------------------------------------------------------------------------------
# the formulas of docs/joint-formulas.md
def revolute(md0, md1, prm, lam, vel):
    if not prm['activeConnector']:
        return lam.copy(), np.zeros((5, 0)), np.eye(5)
    A0, A0_t = axes(md0, prm['R0'])
    A1, A1_t = axes(md1, prm['R1'])
    tz0, tx1, ty1 = A0[:, 2], A1[:, 0], A1[:, 1]
    if not vel:
        g = np.concatenate([md1.p - md0.p, [tz0 @ tx1, tz0 @ ty1]])
    else:
        g = np.concatenate([md1.v - md0.v, [rot_vel(tz0, A0_t[:, 2], tx1, A1_t[:, 0]),
                                            rot_vel(tz0, A0_t[:, 2], ty1, A1_t[:, 1])]])
    C = np.zeros((5, md0.n + md1.n))
    C[0:3] = np.hstack([-md0.Jp, md1.Jp])
    C[3] = rot_row(tz0, tx1, md0, md1)
    C[4] = rot_row(tz0, ty1, md0, md1)
    return g, C, np.zeros((5, 5))


def prismatic(md0, md1, prm, lam, vel):
    if not prm['activeConnector']:
        return lam.copy(), np.zeros((5, 0)), np.eye(5)
    A0, A0_t = axes(md0, prm['R0'])
    A1, A1_t = axes(md1, prm['R1'])
    dp = md1.p - md0.p
    tx0, tz0, tx1, ty1 = A0[:, 0], A0[:, 2], A1[:, 0], A1[:, 1]
    if not vel:
        loc = A0.T @ dp
        g = np.array([loc[1], loc[2], tz0 @ ty1, tz0 @ tx1, tx0 @ ty1])
    else:
        loc = A0.T @ (md1.v - md0.v) + A0_t.T @ dp
        g = np.array([loc[1], loc[2],
                      rot_vel(tz0, A0_t[:, 2], ty1, A1_t[:, 1]),
                      rot_vel(tz0, A0_t[:, 2], tx1, A1_t[:, 0]),
                      rot_vel(tx0, A0_t[:, 0], ty1, A1_t[:, 1])])
    C = np.zeros((5, md0.n + md1.n))
    T = np.hstack([A0.T @ (skew(dp) @ md0.Jr - md0.Jp), A0.T @ md1.Jp])
    C[0:2] = T[1:3]
    C[2] = rot_row(tz0, ty1, md0, md1)
    C[3] = rot_row(tz0, tx1, md0, md1)
    C[4] = rot_row(tx0, ty1, md0, md1)
    return g, C, np.zeros((5, 5))


def generic_rot_pattern(ca):
    """Rows of the rotational part: list of (row, axis index in J0, axis index in J1)."""
    cr = ca[3:]
    n = sum(cr)
    if n == 3:
        return [(3, 2, 1), (4, 2, 0), (5, 0, 1)]
    if n == 2:
        free = cr.index(0)
        locked = [i for i in range(3) if i != free]
        return [(3 + l, free, l) for l in locked]
    if n == 1:
        locked = cr.index(1)
        f1, f2 = [i for i in range(3) if i != locked]
        return [(3 + locked, f1, f2)]
    return []


def generic(md0, md1, prm, lam, vel):
    ca = list(prm['constrainedAxes'])
    if not prm['activeConnector']:
        return lam.copy(), np.zeros((6, 0)), np.eye(6)
    A0, A0_t = axes(md0, prm['R0'])
    A1, A1_t = axes(md1, prm['R1'])
    dp = md1.p - md0.p
    allT = ca[0] == 1 and ca[1] == 1 and ca[2] == 1
    g = np.array(lam, dtype=float).copy()           # free rows: g_i = lambda_i
    C = np.zeros((6, md0.n + md1.n))
    if allT:
        tr = (md1.v - md0.v) if vel else dp
        T = np.hstack([-md0.Jp, md1.Jp])
    else:
        tr = A0.T @ (md1.v - md0.v) + A0_t.T @ dp if vel else A0.T @ dp
        T = np.hstack([A0.T @ (skew(dp) @ md0.Jr - md0.Jp), A0.T @ md1.Jp])
    for i in range(3):
        if ca[i]:
            g[i] = tr[i]
            C[i] = T[i]
    for row, i0, i1 in generic_rot_pattern(ca):
        a, b = A0[:, i0], A1[:, i1]
        g[row] = rot_vel(a, A0_t[:, i0], b, A1_t[:, i1]) if vel else a @ b
        C[row] = rot_row(a, b, md0, md1)
    CL = np.diag([0. if c else 1. for c in ca])
    return g, C, CL


def distance(md0, md1, prm, lam, vel):
    if not prm['activeConnector']:
        return lam.copy(), np.zeros((1, 0)), np.eye(1)
    dp = md1.p - md0.p
    L = np.linalg.norm(dp)
    g = np.array([dp @ (md1.v - md0.v) / L]) if vel else np.array([L - prm['distance']])
    e = dp / L
    C = np.concatenate([-e @ md0.Jp, e @ md1.Jp]).reshape(1, -1)
    return g, C, np.zeros((1, 1))


def outputs_rigid_joint(kind, md0, md1, prm, lam):
    A0, _ = axes(md0, prm['R0'])
    A1, _ = axes(md1, prm['R1'])
    dp = md1.p - md0.p
    out = {
        'Position': md0.p,
        'Velocity': md0.v,
        'DisplacementLocal': A0.T @ dp,
        'VelocityLocal': A0.T @ (md1.v - md0.v),
        'Rotation': wrap_pi(rot_xyz(A0.T @ A1)),
        'AngularVelocityLocal': A0.T @ (md1.w - md0.w),
        'HomogeneousTransformation': np.block([[A0, md0.p.reshape(3, 1)], [np.zeros((1, 3)), np.ones((1, 1))]]),
        'HomogeneousTransformationLocal': np.block([[A0.T @ A1, (A0.T @ dp).reshape(3, 1)],
                                                    [np.zeros((1, 3)), np.ones((1, 1))]]),
    }
    if kind == 'RevoluteZ':
        out['ForceLocal'] = A0.T @ lam[0:3]
        out['TorqueLocal'] = np.array([lam[3], lam[4], 0.])
    elif kind == 'PrismaticX':
        out['ForceLocal'] = np.array([0., lam[0], lam[1]])
        out['TorqueLocal'] = lam[2:5]
    else:
        ca = prm['constrainedAxes']
        out['ForceLocal'] = A0.T @ lam[0:3] if (ca[0] and ca[1] and ca[2]) else lam[0:3]
        out['TorqueLocal'] = lam[3:6]
    return out


def outputs_distance(md0, md1, prm, lam):
    dp = md1.p - md0.p
    return {'Displacement': dp, 'Velocity': md1.v - md0.v, 'Distance': [np.linalg.norm(dp)], 'Force': lam}


def physical_reaction(kind, md0, md1, prm, lam):
    """Generalized forces on the two marker bodies of the reading of lambda in docs/joint-formulas.md:
    body 0 receives the force F (at p0 for global translation rows, at p1 for local ones) and the torque
    tau0, body 1 receives -F at p1 and tau1 = -tau0; a rotation row a.b (a in J0, b in J1) contributes
    tau1 = (a x b) lambda_row."""
    dp = md1.p - md0.p
    J0_at_p1 = md0.Jp - skew(dp) @ md0.Jr          # Jacobian of the body-0 point that coincides with p1
    F_glob, F_loc, tau1 = np.zeros(3), np.zeros(3), np.zeros(3)
    if kind == 'Distance':
        F_glob = lam[0] * dp / np.linalg.norm(dp)
    else:
        A0, _ = axes(md0, prm['R0'])
        A1, _ = axes(md1, prm['R1'])
        if kind == 'RevoluteZ':
            F_glob = lam[0:3]
            rows = [(3, 2, 0), (4, 2, 1)]
        elif kind == 'PrismaticX':
            F_loc = A0[:, 1] * lam[0] + A0[:, 2] * lam[1]
            rows = [(2, 2, 1), (3, 2, 0), (4, 0, 1)]
        else:
            ca = prm['constrainedAxes']
            if ca[0] and ca[1] and ca[2]:
                F_glob = lam[0:3]
            else:
                F_loc = sum((A0[:, i] * lam[i] for i in range(3) if ca[i]), np.zeros(3))
            rows = generic_rot_pattern(list(ca))
        for row, i0, i1 in rows:
            tau1 = tau1 + np.cross(A0[:, i0], A1[:, i1]) * lam[row]
    Q0 = md0.Jp.T @ F_glob + J0_at_p1.T @ F_loc - md0.Jr.T @ tau1
    Q1 = -md1.Jp.T @ (F_glob + F_loc) + md1.Jr.T @ tau1
    return np.concatenate([Q0, Q1])


FORMULA = {'RevoluteZ': revolute, 'PrismaticX': prismatic, 'Generic': generic, 'Distance': distance}


# --------------------------------------------------------------------------------------------
# random systems
def add_side(mbs, kind, ground, localHT):
    """One side of a joint; returns (marker, nodeTypeName)."""
    R_ref = rand_rot()
    p_ref = rng.uniform(-1, 1, 3)
    b = rng.uniform(-0.5, 0.5, 3)
    H = exu.HT(rotation=rand_rot(), translation=list(b)) if localHT else None
    if kind == 'ground':
        if H is not None:
            return mbs.AddMarker(MarkerBodyRigid(bodyNumber=ground, localHT=H)), 'ground'
        return mbs.AddMarker(MarkerBodyRigid(bodyNumber=ground, localPosition=list(b))), 'ground'
    if kind == 'groundPosition':
        return mbs.AddMarker(MarkerBodyPosition(bodyNumber=ground, localPosition=list(b))), 'ground'
    if kind in ('massPoint', 'nodePoint'):
        n = mbs.AddNode(NodePoint(referenceCoordinates=list(p_ref), initialCoordinates=list(rng.uniform(-.1, .1, 3)),
                                  initialVelocities=list(rng.uniform(-1, 1, 3))))
        o = mbs.AddObject(ObjectMassPoint(nodeNumber=n, mass=1.3))
        if kind == 'massPoint':
            return mbs.AddMarker(MarkerBodyPosition(bodyNumber=o, localPosition=[0, 0, 0])), 'point'
        return mbs.AddMarker(MarkerNodePosition(nodeNumber=n)), 'point'
    ep = kind.startswith('ep')
    if ep:
        ep0 = RotationMatrix2EulerParameters(R_ref)
        ref = list(p_ref) + list(ep0)
        q0 = list(rng.uniform(-.1, .1, 3)) + list(rng.uniform(-.15, .15, 4))      # non-unit EP
        v0 = list(rng.uniform(-1, 1, 7))
        if UNIT_EP:   # unit EP and tangential EP velocities
            q0 = list(rng.uniform(-.1, .1, 3)) + [0.] * 4
            v0 = list(rng.uniform(-1, 1, 3)) + list(AngularVelocity2EulerParameters_t(rng.uniform(-1, 1, 3), ep0))
        n = mbs.AddNode(NodeRigidBodyEP(referenceCoordinates=ref, initialCoordinates=q0, initialVelocities=v0))
    else:
        ref = list(p_ref) + list(rng.uniform(-1.2, 1.2, 3))
        n = mbs.AddNode(NodeRigidBodyRxyz(referenceCoordinates=ref, initialCoordinates=list(rng.uniform(-.1, .1, 6)),
                                          initialVelocities=list(rng.uniform(-1, 1, 6))))
    o = mbs.AddObject(ObjectRigidBody(nodeNumber=n, mass=2., inertia=[1, 2, 3, .1, .2, .3], centerOfMass=[.1, 0, 0]))
    nodeType = 'EP' if ep else 'Rxyz'
    if kind.endswith('NodeRigid'):
        if H is not None:
            H = exu.HT(rotation=np.array(H.rotation), translation=[0, 0, 0])
            return mbs.AddMarker(MarkerNodeRigid(nodeNumber=n, localHT=H)), nodeType
        return mbs.AddMarker(MarkerNodeRigid(nodeNumber=n)), nodeType
    if kind.endswith('BodyPosition'):
        return mbs.AddMarker(MarkerBodyPosition(bodyNumber=o, localPosition=list(b))), nodeType
    if H is not None:
        return mbs.AddMarker(MarkerBodyRigid(bodyNumber=o, localHT=H)), nodeType
    return mbs.AddMarker(MarkerBodyRigid(bodyNumber=o, localPosition=list(b))), nodeType


def build(kind, sides, prm, localHT):
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    ground = mbs.AddObject(ObjectGround(referencePosition=list(rng.uniform(-1, 1, 3)), referenceRotation=rand_rot()))
    m0, t0 = add_side(mbs, sides[0], ground, localHT[0])
    m1, t1 = add_side(mbs, sides[1], ground, localHT[1])
    if kind == 'RevoluteZ':
        o = mbs.AddObject(ObjectJointRevoluteZ(markerNumbers=[m0, m1], rotationMarker0=prm['R0'],
                                               rotationMarker1=prm['R1'], activeConnector=prm['activeConnector']))
    elif kind == 'PrismaticX':
        o = mbs.AddObject(ObjectJointPrismaticX(markerNumbers=[m0, m1], rotationMarker0=prm['R0'],
                                                rotationMarker1=prm['R1'], activeConnector=prm['activeConnector']))
    elif kind == 'Generic':
        o = mbs.AddObject(ObjectJointGeneric(markerNumbers=[m0, m1], constrainedAxes=list(prm['constrainedAxes']),
                                             rotationMarker0=prm['R0'], rotationMarker1=prm['R1'],
                                             activeConnector=prm['activeConnector']))
    else:
        o = mbs.AddObject(ObjectConnectorDistance(markerNumbers=[m0, m1], distance=prm['distance'],
                                                  activeConnector=prm['activeConnector']))
    mbs.Assemble()
    return SC, mbs, o, m0, m1, (t0, t1)


def check(kind, sides, prm, localHT=(False, False), fd=True):
    SC, mbs, o, m0, m1, types = build(kind, sides, prm, localHT)
    s = exu.SimulationSettings()
    s.timeIntegration.generalizedAlpha.computeInitialAccelerations = False
    s.timeIntegration.verboseMode = 0
    s.solutionSettings.writeSolutionToFile = False
    s.solutionSettings.sensorsWritePeriod = 1
    solver = exu.MainSolverImplicitSecondOrder()
    solver.InitializeSolver(mbs, s)
    n2, nA = solver.GetODE2size(), solver.GetAEsize()
    lamAll = rng.uniform(-3, 3, nA)
    mbs.systemData.SetAECoordinates(lamAll)
    ltgAE = list(mbs.systemData.GetObjectLTGAE(o))
    ltg2 = list(mbs.systemData.GetObjectLTGODE2(o))
    lam = lamAll[ltgAE]
    md0, md1 = MarkerData(mbs, m0), MarkerData(mbs, m1)
    f = FORMULA[kind]
    gP, C, CL = f(md0, md1, prm, lam, False)
    gV, _, _ = f(md0, md1, prm, lam, True)
    tag = kind + ('' if prm['activeConnector'] else ' (inactive)')

    record(tag + ': g position level vs ComputeItem(AlgebraicEquations)', gP, mbs.ComputeItem(o, CIT.AlgebraicEquations))
    solver.ComputeAlgebraicEquations(mbs, False)
    record(tag + ': g position level vs solver residual', gP, np.array(solver.GetSystemResidual())[n2 + np.array(ltgAE)])
    solver.ComputeAlgebraicEquations(mbs, True)
    record(tag + ': g velocity level vs solver residual (index 2)', gV, np.array(solver.GetSystemResidual())[n2 + np.array(ltgAE)])

    Cx = np.array(mbs.ComputeItem(o, CIT.ConstraintJacobian))
    record(tag + ': C_q vs ComputeItem(ConstraintJacobian)', C, Cx.reshape(C.shape) if Cx.size else Cx)
    for velLevel in (False,):  # velocityLevel=True raises NotImplementedFeatureError in CSystem::JacobianAE_ODE2
        solver.SetSystemJacobian(np.zeros((n2 + nA, n2 + nA)))
        solver.ComputeJacobianAE(mbs, 1., 0., 1., velLevel)
        J = np.array(solver.GetSystemJacobian())
        rows = n2 + np.array(ltgAE)
        Cfull = np.zeros((len(ltgAE), n2))
        if C.shape[1]:
            Cfull[:, ltg2] = C
        lvl = 'velocity' if velLevel else 'position'
        record(tag + f': C_q vs solver Jacobian AE rows ({lvl} level)', Cfull, J[rows][:, :n2])
        record(tag + f': C_q^T vs solver Jacobian ODE2 x AE block ({lvl} level)', Cfull.T, J[:n2][:, rows])
        record(tag + f': C_lambda vs solver Jacobian AE x AE block ({lvl} level)', CL, J[rows][:, rows])
    RF = np.array(mbs.ComputeItem(o, CIT.ReactionForces))
    record(tag + ': C_q^T lambda vs ComputeItem(ReactionForces)', C.T @ lam if C.shape[1] else np.zeros(len(ltg2)), RF)

    if prm['activeConnector'] and C.shape[1]:
        record(tag + ': -C_q^T lambda vs generalized forces of the physical reaction (force/torque reading of lambda)',
               -C.T @ lam, physical_reaction(kind, md0, md1, prm, lam))

    out = outputs_distance(md0, md1, prm, lam) if kind == 'Distance' else outputs_rigid_joint(kind, md0, md1, prm, lam)
    for name, val in out.items():
        ex = mbs.GetObjectOutput(o, getattr(OVT, name))
        record(tag + f': output {name}', np.array(val).ravel(), np.array(ex).ravel())

    if prm['activeConnector'] and C.shape[1]:
        qt = np.array(mbs.systemData.GetODE2Coordinates_t())[ltg2]
        key = f'{kind}: |g_vel - C_q qdot|, constrained rows, sides {types[0]}/{types[1]}' + \
            (' (unit EP, tangential EP velocity)' if UNIT_EP else '')
        mask = np.array([True] * len(gV))
        if kind == 'Generic':
            mask = np.array([c == 1 for c in prm['constrainedAxes']])
        record(key, gV[mask], (C @ qt)[mask], INFO)
        if fd:
            q = np.array(mbs.systemData.GetODE2Coordinates())
            h = 1e-7
            D = np.zeros_like(C)
            for k, col in enumerate(ltg2):
                for sgn in (1, -1):
                    qq = q.copy()
                    qq[col] += sgn * h
                    mbs.systemData.SetODE2Coordinates(qq)
                    D[:, k] += sgn * np.array(mbs.ComputeItem(o, CIT.AlgebraicEquations)) / (2 * h)
            mbs.systemData.SetODE2Coordinates(q)
            if kind == 'Generic':
                D[~mask] = 0
            record(f'{kind}: |C_q - dg/dq (FD)|, sides {types[0]}/{types[1]}' +
                   (' (unit EP)' if UNIT_EP else ''), C, D, INFO)
    SC.Reset()


def gimbal_lock_rotation_output():
    """Rotation output when the relative rotation has cos(rot_y) = 0 (the gimbal-lock branch)."""
    for kind in ('RevoluteZ', 'PrismaticX', 'Generic'):
        for a, c in [(0.3, 0.2), (-1.0, 2.5)]:
            SC = exu.SystemContainer()
            mbs = SC.AddSystem()
            ground = mbs.AddObject(ObjectGround())
            n = mbs.AddNode(NodeRigidBodyRxyz(referenceCoordinates=[0, 0, 0, a, np.pi / 2, c]))
            b = mbs.AddObject(ObjectRigidBody(nodeNumber=n, mass=1., inertia=[1, 1, 1, 0, 0, 0]))
            m0 = mbs.AddMarker(MarkerBodyRigid(bodyNumber=ground))
            m1 = mbs.AddMarker(MarkerBodyRigid(bodyNumber=b))
            cls = {'RevoluteZ': ObjectJointRevoluteZ, 'PrismaticX': ObjectJointPrismaticX,
                   'Generic': ObjectJointGeneric}[kind]
            o = mbs.AddObject(cls(markerNumbers=[m0, m1]))
            mbs.Assemble()
            md0, md1 = MarkerData(mbs, m0), MarkerData(mbs, m1)
            record(kind + ': output Rotation at gimbal lock (rot_y = pi/2)', wrap_pi(rot_xyz(md0.A.T @ md1.A)),
                   np.array(mbs.GetObjectOutput(o, OVT.Rotation)))
            SC.Reset()


def main():
    I3 = np.eye(3)
    rigid_sides = [('ground', 'epBodyRigid'), ('epBodyRigid', 'rxyzBodyRigid'), ('rxyzBodyRigid', 'ground'),
                   ('epNodeRigid', 'rxyzNodeRigid'), ('rxyzNodeRigid', 'epBodyRigid'), ('epBodyRigid', 'epBodyRigid'),
                   ('rxyzBodyRigid', 'rxyzBodyRigid')]
    nStates = 6
    for kind in ('RevoluteZ', 'PrismaticX'):
        for sides in rigid_sides:
            for k in range(nStates):
                rotated = k % 3          # 0: identity, 1: rotationMarker0/1, 2: marker localHT
                prm = {'R0': rand_rot() if rotated == 1 else I3, 'R1': rand_rot() if rotated == 1 else I3,
                       'activeConnector': k != 5}
                check(kind, sides, prm, localHT=(rotated == 2, rotated == 2))
    for ca in itertools.product([0, 1], repeat=6):
        for j, sides in enumerate(rigid_sides[:5]):
            rotated = j % 3
            prm = {'constrainedAxes': list(ca), 'R0': rand_rot() if rotated == 1 else I3,
                   'R1': rand_rot() if rotated == 1 else I3, 'activeConnector': True}
            check('Generic', sides, prm, localHT=(rotated == 2, rotated == 2), fd=(j < 2))
    for sides in rigid_sides[:3]:
        prm = {'constrainedAxes': [1, 0, 1, 0, 1, 1], 'R0': rand_rot(), 'R1': I3, 'activeConnector': False}
        check('Generic', sides, prm)
    dist_sides = [('groundPosition', 'massPoint'), ('nodePoint', 'massPoint'), ('massPoint', 'epBodyPosition'),
                  ('epBodyPosition', 'rxyzBodyPosition'), ('rxyzBodyRigid', 'groundPosition'), ('epNodeRigid', 'nodePoint')]
    for sides in dist_sides:
        for k in range(nStates):
            prm = {'distance': rng.uniform(0.2, 2.), 'activeConnector': k != 5}
            check('Distance', sides, prm)

    # unit Euler parameters with tangential EP velocities: g_vel = C_q qdot also for EP nodes
    global UNIT_EP
    UNIT_EP = True
    for kind in ('RevoluteZ', 'PrismaticX', 'Generic', 'Distance'):
        for sides in ([('ground', 'epBodyRigid'), ('epBodyRigid', 'rxyzNodeRigid'), ('epNodeRigid', 'epBodyRigid')]
                      if kind != 'Distance' else [('epBodyPosition', 'massPoint'), ('epBodyPosition', 'epNodeRigid')]):
            for k in range(3):
                prm = {'R0': rand_rot(), 'R1': rand_rot(), 'activeConnector': True,
                       'constrainedAxes': [[1, 1, 1, 1, 1, 1], [0, 1, 1, 1, 1, 0], [1, 0, 0, 1, 0, 0]][k],
                       'distance': 1.}
                check(kind, sides, prm)
    UNIT_EP = False
    gimbal_lock_rotation_output()

    print('Maximum absolute errors of the formulas in docs/joint-formulas.md vs Exudyn', exu.__version__)
    print('(each line: max error over all checked states, number of checks)')
    worst = 0.
    for name in sorted(ERR):
        print(f'  {ERR[name]:10.3e}  ({COUNT[name]:4d})  {name}')
        worst = max(worst, ERR[name])
    print(f'WORST: {worst:.3e}')
    print()
    print('Informative (not expected to be 0):')
    for name in sorted(INFO):
        print(f'  {INFO[name]:10.3e}  ({COUNT[name]:4d})  {name}')
    return 0 if worst < 1e-10 else 1


if __name__ == '__main__':
    sys.exit(main())
