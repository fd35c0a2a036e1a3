"""Exudyn's explicit Runge-Kutta solvers with Lie-group integration of NodeRigidBodyRotVecLG
nodes (CSolverExplicit.cpp: UpdateODE2StageCoordinatesLieGroup, LieGroupComputeKstage,
LieGroupODE2StepEvaluation; explicit.useLieGroupIntegration = True, the default), for one free
rigid body (rigid.py).  Plain (non-Lie) coordinates: positions u; Lie coordinates: the rotation
vector nu (velocity coordinates: omegaBar).

Stage i (tableau A, c, weights b, embedded weights bHat):
    v_i   = v0 + sum_j (A_ij h) kv_j                           (all velocity coordinates)
    u_i   = u0 + sum_j (A_ij h) kq_j                           (non-Lie positions)
    nu_i  = compose(nuRef + nu0, Ksum_i) - nuRef,  Ksum_i = sum_j (A_ij h) kq_j[rot]
    kv_i  = M(q_i)^-1 (Q - LHS)(q_i, v_i)                      (at t0 + c_i h)
    kq_i  = v_i (non-Lie);   kq_i[rot] = TExpSO3Inv(Ksum_i) (omega0 + sum_j (A_ij h) kv_j[rot])
            (omega0 = start-of-step omegaBar; the bracket equals v_i[rot])
End of step:
    v  = v0 + sum_i (b_i h) kv_i;  u = u0 + sum_i (b_i h) kq_i
    nu = compose(nuRef + nu0, sum_i (b_i h) kq_i[rot]) - nuRef
    a  = M^-1 (Q - LHS)(q, v) at t_end (computeEndOfStepAccelerations)
Embedded solution (ODE23, DOPRI5): the same with bHat (rotation again by composition).
"""
import math

import numpy as np

from lie import compose, texp_so3_inv

S5 = math.sqrt(5)


def tableau(name):
    """(A, c, b, bHat or None, order) as CSolverExplicit::ComputeButcherTableau."""
    if name == 'ExplicitEuler':
        return np.zeros((1, 1)), [0.], [1.], None, 1
    if name == 'ExplicitMidpoint':
        return np.array([[0, 0], [0.5, 0]]), [0., 0.5], [0., 1.], None, 2
    if name == 'RK33':
        return np.array([[0, 0, 0], [1. / 3., 0, 0], [0, 2. / 3., 0]]), [0., 1. / 3., 2. / 3.], [1. / 4., 0., 3. / 4.], None, 3
    if name == 'RK44':
        return (np.array([[0, 0, 0, 0], [0.5, 0, 0, 0], [0, 0.5, 0, 0], [0, 0, 1, 0]]), [0., 0.5, 0.5, 1.],
                [1. / 6., 1. / 3., 1. / 3., 1. / 6.], None, 4)
    if name == 'RK67':
        A = np.zeros((7, 7))
        A[1, 0] = 1. / 2 - 1. / 10 * S5
        A[2, 0] = -1. / 10 * S5
        A[2, 1] = 1. / 2 + 1. / 5 * S5
        A[3, 0] = 7. / 20 * S5 - 3. / 4
        A[3, 1] = 1. / 4 * S5 - 1. / 4
        A[3, 2] = 3. / 2 - 7. / 10 * S5
        A[4, 0] = 1. / 12 - 1. / 60 * S5
        A[4, 2] = 1. / 6
        A[4, 3] = 7. / 60 * S5 + 1. / 4
        A[5, 0] = 1. / 60 * S5 + 1. / 12
        A[5, 2] = 3. / 4 - 5. / 12 * S5
        A[5, 3] = 1. / 6
        A[5, 4] = -1. / 2 + 3. / 10 * S5
        A[6, 0] = 1. / 6
        A[6, 2] = -55. / 12 + 25. / 12 * S5
        A[6, 3] = -7. / 12 * S5 - 25. / 12
        A[6, 4] = 5 - 2 * S5
        A[6, 5] = 5. / 2 + 1. / 2 * S5
        c = [0., 1. / 2 - 1. / 10 * S5, 1. / 2 + 1. / 10 * S5, 1. / 2 - 1. / 10 * S5, 1. / 2 + 1. / 10 * S5,
             1. / 2 - 1. / 10 * S5, 1.]
        return A, c, [1. / 12, 0., 0., 0., 5. / 12, 5. / 12, 1. / 12], None, 6
    if name == 'ODE23':
        A = np.array([[0, 0, 0, 0], [1. / 2., 0, 0, 0], [0, 3. / 4., 0, 0], [2. / 9., 1. / 3., 4. / 9., 0]])
        b = np.array([2. / 9., 1. / 3., 4. / 9., 0.])
        delta = np.array([-5. / 72., 1. / 12., 1. / 9., -1. / 8.])
        return A, [0., 1. / 2., 3. / 4., 1.], list(b), list(b - delta), 3
    if name == 'DOPRI5':
        A = np.array([[0, 0, 0, 0, 0, 0, 0],
                      [1. / 5, 0, 0, 0, 0, 0, 0],
                      [3. / 40, 9. / 40, 0, 0, 0, 0, 0],
                      [44. / 45, -56. / 15, 32. / 9, 0, 0, 0, 0],
                      [19372. / 6561, -25360. / 2187, 64448. / 6561, -212. / 729, 0, 0, 0],
                      [9017. / 3168, -355. / 33, 46732. / 5247, 49. / 176, -5103. / 18656, 0, 0],
                      [35. / 384, 0, 500. / 1113, 125. / 192, -2187. / 6784, 11. / 84, 0]])
        return (A, [0., 1. / 5, 3. / 10, 4. / 5, 8. / 9, 1., 1.],
                [35. / 384, 0., 500. / 1113, 125. / 192, -2187. / 6784, 11. / 84, 0.],
                [5179. / 57600, 0., 7571. / 16695, 393. / 640, -92097. / 339200, 187. / 2100, 1. / 40], 5)
    raise ValueError(name)


class ExplicitLieSolver:
    """Single free RotVecLG rigid body; q = [u, nu], v = [u_t, omegaBar]."""

    def __init__(self, body, method, lie=True):
        self.body = body
        self.A, self.c, self.b, self.bHat, self.order = tableau(method)
        self.ns = len(self.c)
        self.lie = lie
        self.Minv = np.linalg.inv(body.mass_matrix(np.zeros(6))) if body.constant_mass() else None

    def acc(self, q, v):
        Minv = self.Minv if self.Minv is not None else np.linalg.inv(self.body.mass_matrix(q))
        return Minv @ self.body.rhs(q, v)

    def _final(self, q0, kq, weights, h):
        ref = self.body.ref[3:]
        q = q0.copy()
        om = np.zeros(3)
        for i in range(self.ns):
            if weights[i] != 0.:
                f = weights[i] * h
                q[:3] += f * kq[i][:3]
                if self.lie:
                    om += (weights[i] * h) * kq[i][3:]
                else:
                    q[3:] += f * kq[i][3:]
        if self.lie:
            q[3:] = compose(q0[3:] + ref, om) - ref
        return q

    def step(self, q0, v0, h):
        """One step; returns q, v (and qHat, vHat for embedded pairs)."""
        ref = self.body.ref[3:]
        A = self.A
        kq = [None] * self.ns
        kv = [None] * self.ns
        for i in range(self.ns):
            q = q0.copy()
            v = v0.copy()
            ksum = np.zeros(3)
            kvsum = np.zeros(3)
            for j in range(i):
                if A[i, j] != 0.:
                    v += (A[i, j] * h) * kv[j]
                    q[:3] += (A[i, j] * h) * kq[j][:3]
                    if self.lie:
                        ksum += A[i, j] * h * kq[j][3:]
                        kvsum += A[i, j] * h * kv[j][3:]
                    else:
                        q[3:] += (A[i, j] * h) * kq[j][3:]
            if self.lie and i > 0:
                q[3:] = compose(q0[3:] + ref, ksum) - ref
            kv[i] = self.acc(q, v)
            kq[i] = v.copy()
            if self.lie:
                kq[i][3:] = texp_so3_inv(ksum) @ (v0[3:] + kvsum)
        q = self._final(q0, kq, self.b, h)
        vv = v0.copy()
        for i in range(self.ns):
            if self.b[i] != 0.:
                vv += (self.b[i] * h) * kv[i]
        if self.bHat is None:
            return q, vv, None, None
        qh = self._final(q0, kq, self.bHat, h)
        vh = v0.copy()
        for i in range(self.ns):
            if self.bHat[i] != 0.:
                vh += (self.bHat[i] * h) * kv[i]
        return q, vv, qh, vh

    def solve(self, q, v, t_end, steps, atol=1e-8, rtol=1e-8, safety=0.9, max_increase=2., h_min=1e-8,
              initial_step=0., t_start=0.):
        """Exudyn's step loop: accumulated time, last step clipped; error control as
        CSolverExplicit (scale = atol + max(xHat_i, x0_i)*rtol, no abs; reject if hOpt < h)."""
        h_max = (t_end - t_start) / steps
        automatic = self.bHat is not None
        h = initial_step if (automatic and initial_step != 0.) else h_max
        t = t_start
        nsteps = 0
        rejected = 0
        q = np.array(q, float)
        v = np.array(v, float)
        while t < t_end - 1e-10:
            while True:
                if t + h > t_end:
                    h = t_end - t
                qn, vn, qh, vh = self.step(q, v, h)
                if not automatic:
                    break
                err = 0.
                for x1, xh, x0 in [(qn, qh, q), (vn, vh, v)]:
                    for i in range(6):
                        sc = atol + max(xh[i], x0[i]) * rtol
                        err += ((xh[i] - x1[i]) / sc) ** 2
                err = math.sqrt(err / 12.)
                if err == 0.:
                    err = 1e-12
                h_opt = h * (1. / err) ** (1. / self.order)
                h_new = min(min(h_max, h * max_increase), max(h_min, safety * h_opt))
                ok = not (h_new != h_min and h_opt < h)
                h_taken = h
                h = h_new
                if ok:
                    h = h_new
                    break
                rejected += 1
            t += h_taken if automatic else h
            q, v = qn, vn
            nsteps += 1
        a = self.acc(q, v)
        return q, v, a, t, nsteps, rejected


def velocity_verlet(body, q, v, t_end, steps):
    """VelocityVerlet with Lie-group update (CSolverExplicit, 'else' branch of Newton):
    a0 evaluated at t = 0;  v_half = v + h/2 a;  u += h v_half[pos];
    nu = compose(nuRef + nu, h * v_half[rot]) - nuRef;  a = M^-1 f(q, v_half);  v = v_half + h/2 a."""
    h = (t_end - 0.) / steps
    ref = body.ref[3:]
    Minv = None if not body.constant_mass() else np.linalg.inv(body.mass_matrix(np.zeros(6)))

    def acc(q, v):
        return (Minv if Minv is not None else np.linalg.inv(body.mass_matrix(q))) @ body.rhs(q, v)
    q = np.array(q, float)
    v = np.array(v, float)
    a = acc(q, v)
    t = 0.
    while t < t_end - 1e-10:
        t += h
        v = v + (0.5 * h) * a
        om = (1. * h) * v[3:]
        q[:3] = q[:3] + (1. * h) * v[:3]
        q[3:] = compose(q[3:] + ref, om) - ref
        a = acc(q, v)
        v = v + (0.5 * h) * a
    return q, v, a
