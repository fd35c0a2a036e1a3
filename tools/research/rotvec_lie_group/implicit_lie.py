"""Exudyn's implicit generalized-alpha / Newmark solver (CSolverImplicitSecondOrder.cpp +
CSolverBase::Newton, spec: shared/spec/solver.md §2-5) with the Lie-group treatment of
NodeRigidBodyRotVecLG nodes, for ONE RotVecLG rigid body (rigid.py), optionally held by a
SphericalJoint (ground marker first, body marker at local b second; index 3 or index 2).

Lie-group treatment (all 6 coordinates of the Lie node take part in the composition; positions
compose additively):

  default, lieGroupSimplifiedKinematicRelations = False ("non-simplified"):
    predictor:  theta = [the usual predictor applied to q = 0]      (h v_n + h^2(1/2-beta) a_n + h^2 beta a*)
                theta_rot <- (I + skew(-(h beta / (2 gamma)) * omegaBar_P)) theta_rot
                           (omegaBar_P: the PREDICTED velocity v_P[rot])
                q_{n+1} = q_n o theta   (pos: q_n,pos + theta_pos; rot: compose(q_n,rot + ref, theta_rot) - ref)
    Newton:     Delta = J^-1 rbar;  q_rot <- compose(q_rot + ref, -Delta_rot) - ref;  q_pos <- q_pos - Delta_pos
                (other coordinates q -= Delta);  v -= gamma' Delta;  a -= beta' Delta;  lambda -= Delta_lambda / s
    Jacobian:   the standard one (no tangent operator; lieGroupAddTangentOperator is IGNORED unless
                the simplified relations are on)
  lieGroupSimplifiedKinematicRelations = True:
    keeps theta (Lie-algebra increment from the step start, no Xi factor) as the unknown:
    predictor:  theta as above without Xi;  q = q_n o theta
    Newton:     theta -= Delta (plain);  v, a, lambda as usual;  q = q_n o theta  (always from the step start)
    Jacobian:   if lieGroupAddTangentOperator (default True): the rotation columns of s*K (K = d LHS/dq) and
                of the constraint rows C_q are multiplied by T = TExpSO3(theta_rot) from the right:
                J = s*beta'*M + s*K*T_cols + s*gamma'*D,  AE rows: C_q*T_cols  (C_q^T columns unchanged)

Numerical K for the Lie node: object-wise forward differences where every coordinate of the node
is perturbed by the composition rule, q -> q o (eps e_i): q_rot -> compose(q_rot + ref, eps e_i) - ref
(for a position column: u_i + eps and q_rot -> compose(q_rot + ref, 0) - ref, which differs from
q_rot by round-off), eps = 1e-7*max(0.01, |q_i|)
(CSystem::SetNumDiffObjectLieGroup / ComputeLieGroupNodeCompositionEps).  Velocity columns (D):
plain forward differences.  Loads are not differentiated (computeLoadsJacobian = 0).
"""
import math

import numpy as np

from lie import compose, skew, texp_so3


class Settings:
    def __init__(self, **kw):
        self.rho = 0.9
        self.newmark = False
        self.beta_nm = 0.25
        self.gamma_nm = 0.5
        self.index2 = False
        self.simplified = False
        self.tangent = True
        self.rel_tol = 1e-8
        self.abs_tol = 1e-10
        self.max_it = 25
        self.modified = True
        self.max_mod_it = 8
        self.max_restart_it = 7
        self.contractivity = 0.5
        self.jac_per_step = False
        self.adapt_initial_residual = True
        self.compute_initial_acc = True
        self.__dict__.update(kw)


class ImplicitLie:
    def __init__(self, body, settings, joint_b=None, joint_p0=None):
        self.body = body
        self.s = settings
        self.joint_b = None if joint_b is None else np.array(joint_b, float)
        self.joint_p0 = None if joint_p0 is None else np.array(joint_p0, float)
        self.nae = 0 if joint_b is None else 3
        self.velocity_level_ae = False  # a velocity-level constraint: no (C_q v)_q v term at t = 0
        st = settings
        if st.newmark:
            self.beta, self.gamma = st.beta_nm, st.gamma_nm
            self.am = self.af = 0.5
        else:
            r = st.rho
            self.am = (2 * r - 1) / (r + 1)
            self.af = r / (r + 1)
            self.gamma = 0.5 + self.af - self.am
            self.beta = 0.25 * (self.gamma + 0.5) ** 2
        self.const_mass = body.constant_mass()
        self.its = 0
        self.jacs = 0
        self.rejected = 0

    # ---------------- model
    def ref_rot(self):
        return self.body.ref[3:]

    def compose_q(self, q0, inc):
        """Node CompositionRule: positions additive, rotation by composition (with reference)."""
        r = self.ref_rot()
        q = q0.copy()
        q[:3] = q0[:3] + inc[:3]
        q[3:] = compose(q0[3:] + r, inc[3:]) - r
        return q

    def Cq(self, q):
        A = self.body.A(q)
        return np.hstack([np.eye(3), -(A @ skew(self.joint_b))])

    def g(self, q, v):
        if self.s.index2:
            return self.Cq(q) @ v
        return self.body.ref[:3] + q[:3] + self.body.A(q) @ self.joint_b - self.joint_p0

    def mass(self, q):
        if self.const_mass:
            return self.M0
        return self.body.mass_matrix(q)

    # ---------------- residual and Jacobian
    def residual(self):
        q, v, a, lam = self.q, self.v, self.a, self.lam
        self.Mcur = self.mass(q)
        rq = self.Mcur @ a - self.body.rhs(q, v)
        if self.nae:
            rq = rq + self.Cq(q).T @ lam
            rg = self.g(q, v)
            full = np.hstack([rq, rg])
            rbar = np.hstack([self.sc * rq, rg])
        else:
            full = rq
            rbar = self.sc * rq
        return math.sqrt(float(full @ full)), rbar

    def kd(self):
        """Object-wise forward differences of the rigid body's LHS (Lie composition for rotations)."""
        q, v = self.q, self.v
        L0 = self.body.lhs(q, v)
        K = np.zeros((6, 6))
        D = np.zeros((6, 6))
        for i in range(6):
            # all 6 Lie-node columns go through the composition rule, also the position ones:
            # compose(nu + nuRef, 0) - nuRef differs from nu by round-off (visible after / eps)
            eps = 1e-7 * max(0.01, abs(q[i]))
            inc = np.zeros(6)
            inc[i] = eps
            qq = self.compose_q(q, inc)
            K[:, i] = (self.body.lhs(qq, v) - L0) * (1. / eps)
        for i in range(6):
            eps = 1e-7 * max(0.01, abs(v[i]))
            vv = v.copy()
            vv[i] += eps
            D[:, i] = (self.body.lhs(q, vv) - L0) * (1. / eps)
        return K, D

    def jacobian(self):
        n = 6 + self.nae
        J = np.zeros((n, n))
        sc, bp, gp = self.sc, self.bp, self.gp
        K, D = self.kd()
        tangent = self.s.simplified and self.s.tangent
        T = texp_so3(self.theta[3:]) if tangent else None
        if tangent:
            K[:, 3:] = K[:, 3:] @ T
        J[:6, :6] = (sc * bp) * self.Mcur + sc * K + (gp * sc) * D
        if self.nae:
            Cq = self.Cq(self.q)
            J[:6, 6:] = Cq.T
            J[6:, :6] = (gp if self.s.index2 else 1.) * Cq
            if tangent:
                J[6:, 3:6] = J[6:, 3:6] @ T
        self.jacs += 1
        return np.linalg.inv(J)

    # ---------------- time step
    def predictor(self):
        h, b, gm, am, af = self.h, self.beta, self.gamma, self.am, self.af
        lie_inc = np.zeros(6)  # Lie node coordinates are reset to 0: the predictor builds the increment
        q = lie_inc + h * self.v_n
        v = self.v_n.copy()
        if self.s.newmark:
            q = q + (h * h * (0.5 - b)) * self.acc_n
            v = v + (h * (1. - gm)) * self.acc_n
        else:
            q = q + (h * h * (0.5 - b)) * self.aalg
            v = v + (h * (1. - gm)) * self.aalg
            self.aalg = self.aalg * (-am / (1 - am))
            self.aalg = self.aalg + (af / (1 - am)) * self.acc_n
            q = q + (h * h * b) * self.aalg
            v = v + (h * gm) * self.aalg
        self.v = v
        self.a = np.zeros(6)
        self.lam = np.zeros(self.nae)
        if not self.s.simplified:
            Xi = skew((-0.5 * h * b / gm) * v[3:]) + np.eye(3)
            q[3:] = Xi @ q[3:]
        self.theta = q.copy()
        self.q = self.compose_q(self.q_n, q)

    def update(self, delta):
        d = delta[:6]
        if self.s.simplified:
            self.theta = self.theta - d
            self.q = self.compose_q(self.q_n, self.theta)
        else:
            self.q = self.compose_q(self.q, -d)
        self.v = self.v - self.gp * d
        self.a = self.a - self.bp * d
        if self.nae:
            self.lam = self.lam - delta[6:] * (1. / self.sc)

    def newton(self):
        st = self.s
        self.predictor()
        r0, rbar = self.residual()
        if r0 <= st.abs_tol:
            r0 = 2 * st.abs_tol
        res = last = r0
        restarted = False
        full = not st.modified
        extra = False
        it = 0
        converged = False
        stop = False
        if st.jac_per_step:
            self.jac_req = True
        while not converged and not stop and it < st.max_it:
            it += 1
            if self.jac_req or full:
                self.Jinv = self.jacobian()
                self.jac_req = False
            delta = self.Jinv @ rbar
            self.update(delta)
            res, rbar = self.residual()
            if st.adapt_initial_residual and res > r0 and it <= 1:
                r0 = res
                last = res
            converged = (res / r0 <= st.rel_tol) or (res <= st.abs_tol)
            if extra and converged:
                extra = False
                converged = False
            elif not converged:
                extra = False
                diverged = (not np.all(np.isfinite(self.q))) or float(self.q @ self.q) >= 1e38
                if diverged and full:
                    stop = True
                if not full and it > st.max_mod_it:
                    self.jac_req = True
                if not full and it > st.max_mod_it + st.max_restart_it * (1 - st.jac_per_step):
                    full = True
                    self.rejected += 1
                contr = res / last
                last = res
                if not full and st.modified and (diverged or (contr > st.contractivity and it > 2)):
                    self.jac_req = True
                    if restarted:
                        full = True
                        self.rejected += 1
                    if not stop and (diverged or contr > 2 or full):
                        restarted = True
                        res = last = r0
                        self.aalg = self.aalg_n.copy()
                        self.predictor()
                        _, rbar = self.residual()
                        extra = True
        self.its += it
        if not converged:
            raise RuntimeError('Newton failed at t = %g' % self.t)

    def initial_accelerations(self):
        q, v = self.q_n, self.v_n
        M = self.mass(q)
        f = self.body.rhs(q, v)
        if not self.nae:
            return np.linalg.solve(M, f), np.zeros(0)
        Cq = self.Cq(q)
        na = self.nae
        J0 = np.zeros((6 + na, 6 + na))
        J0[:6, :6] = M
        J0[:6, 6:] = Cq.T
        J0[6:, :6] = Cq
        c = np.zeros(na)
        if math.sqrt(float(v @ v)) > 1e-10 and not self.velocity_level_ae:
            # -(C_q v)_q v, GLOBAL additive forward differences (no composition); skipped for
            # velocity-level constraints (CSystem::NumericalConstraintJacobianTimesVector)
            f0 = self.Cq(q) @ v
            dd = np.zeros((na, 6))
            for i in range(6):
                eps = 1e-7 * max(0.01, abs(q[i]))
                qq = q.copy()
                qq[i] += eps
                dd[:, i] = (-1. / eps) * (self.Cq(qq) @ v - f0)
            c = dd @ v
        x = np.linalg.solve(J0, np.hstack([f, c]))
        return x[:6], x[6:]

    def solve(self, q0, v0, t_end, steps):
        self.q_n = np.array(q0, float)
        self.v_n = np.array(v0, float)
        self.M0 = self.body.mass_matrix(self.q_n)
        if self.s.compute_initial_acc:
            self.acc_n, _ = self.initial_accelerations()
        else:
            self.acc_n = np.zeros(6)
        self.aalg = self.acc_n.copy()
        self.jac_req = True
        h = t_end / steps
        self.h = h
        b = self.beta
        self.sc = b * h * h
        self.bp = (1. - self.am) / (h * h * b * (1. - self.af))
        self.gp = self.gamma / (h * b)
        self.t = 0.
        while self.t < t_end - 1e-10:
            self.t += h
            self.aalg_n = self.aalg.copy()
            self.newton()
            self.aalg = self.aalg + ((1. - self.af) / (1. - self.am)) * self.a
            self.q_n, self.v_n, self.acc_n = self.q.copy(), self.v.copy(), self.a.copy()
        return self.q_n, self.v_n, self.acc_n, self.lam
