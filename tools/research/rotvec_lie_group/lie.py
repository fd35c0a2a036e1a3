"""Exudyn's rotation-vector / SO(3) helpers, written as the 1.11 C++ source has them
(RigidBodyMath.h: RotationVector2RotationMatrix, EXUlie::CompositionRotationVector, TExpSO3,
TExpSO3Inv, ExpSO3, LogSO3Vector; BasicLinalg.h: Sinc), with the same operation order so that
results agree with pip Exudyn 1.13.6 to round-off.  Research code, not used by the runtime.
"""
import math

import numpy as np


def norm3(v):
    """GetL2Norm: sqrt of the sum of squares in index order."""
    return math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2])


def skew(v):
    return np.array([[0., -v[2], v[1]], [v[2], 0., -v[0]], [-v[1], v[0], 0.]])


def cross(a, b):
    return np.array([a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]])


def sinc(x):
    return 1. if x == 0. else math.sin(x) / x


def rotvec_to_matrix(rot, exudyn_mod_quirk=True):
    """RigidBodyMath::RotationVector2RotationMatrix.  Exudyn reduces the ANGLE modulo 2*pi when
    |rot| > 2*pi but keeps the unscaled vector in skew(rot): for |rot| > 2*pi the result is NOT a
    rotation matrix (quirk, present in 1.13.6, verified).  exudyn_mod_quirk=False gives the
    mathematically correct matrix."""
    v = np.asarray(rot, dtype=float)
    angle = norm3(v)
    if angle == 0.:
        return np.eye(3)
    if exudyn_mod_quirk and angle > 2. * math.pi:
        angle = math.fmod(angle, 2. * math.pi)
    vt = skew(v)
    s = math.sin(angle)
    mat = np.eye(3) + (s / angle) * vt
    s2 = math.sin(0.5 * angle)
    mat = mat + (2. * s2 * s2 / (angle * angle)) * (vt @ vt)
    return mat


def exp_so3(rot):
    """EXUlie::ExpSO3 (used by the implicit solver's helpers; same as rotvec_to_matrix for
    |rot| <= 2 pi up to round-off)."""
    v = np.asarray(rot, dtype=float)
    phi = norm3(v)
    rs = skew(v)
    return np.eye(3) + sinc(phi) * rs + (0.5 * sinc(0.5 * phi) ** 2) * (rs @ rs)


def compose(v0, omega):
    """EXUlie::CompositionRotationVector(v0, Omega): the rotation vector of
    exp(skew(v0))·exp(skew(Omega)) (right composition, i.e. Omega is a BODY-frame increment),
    computed via the quaternion product; the result has norm in [0, 2*pi]."""
    v0 = np.asarray(v0, dtype=float)
    om = np.asarray(omega, dtype=float)
    w1h = 0.5 * norm3(v0)
    w2h = 0.5 * norm3(om)
    c0 = math.cos(w1h)
    c1 = math.cos(w2h)
    s0 = sinc(w1h)
    s1 = sinc(w2h)
    x = c0 * c1 - 0.25 * s0 * s1 * (v0[0] * om[0] + v0[1] * om[1] + v0[2] * om[2])
    xt = math.sqrt(abs(1. - x * x))
    w = math.pi - 2. * math.atan2(x, xt)
    rho = (s0 * c1) * v0 + (c0 * s1) * om + (0.5 * s0 * s1) * cross(v0, om)
    r = norm3(rho)
    n = rho * (1. / r) if r != 0. else np.zeros(3)
    return w * n


def texp_so3(rot):
    """EXUlie::TExpSO3: omega_local = T(Omega)·dOmega/dt for R = R0·exp(Omega)."""
    v = np.asarray(rot, dtype=float)
    phi = norm3(v)
    T = np.eye(3)
    if phi != 0.:
        rs = skew(v)
        t1 = -0.5 * sinc(phi / 2) ** 2
        phi2 = phi * phi
        if phi < 0.01:
            t2 = 1. / 6 - (1. / 120) * phi2 + (1. / 5040) * phi2 * phi2
        else:
            t2 = (1. / phi2) * (1 - (math.sin(phi) / phi))
        T = T + t1 * rs
        T = T + t2 * (rs @ rs)
    return T


def texp_so3_inv(om):
    """EXUlie::TExpSO3Inv (Holzinger's version): the inverse of texp_so3."""
    v = np.asarray(om, dtype=float)
    phi = norm3(v)
    T = np.eye(3)
    if phi != 0.:
        phi2 = phi * phi
        oo = np.outer(v, v)
        if phi <= 0.02:
            c = (1. / 12) + (1. / 720) * phi2 + (1. / 30240) * (phi2 * phi2)
            b = 1 - c * phi2
            T = T * b
            T = T + skew(0.5 * v) + c * oo
        else:
            eps = 0.5 * phi
            beta = eps * (1. / math.tan(eps))
            gamma = (1 - beta) / phi2
            T = T * beta
            T = T + skew(0.5 * v) + gamma * oo
    return T


def rot_xyz(R):
    """RotationMatrix2RotXYZ (items.md 2.5)."""
    c = math.sqrt(R[1, 2] ** 2 + R[2, 2] ** 2)
    p1 = math.atan2(R[0, 2], c)
    if c > 1e-14:
        return np.array([math.atan2(-R[1, 2], R[2, 2]), p1, math.atan2(-R[0, 1], R[0, 0])])
    return np.array([0., p1, math.atan2(R[1, 0], R[1, 1])])


def rot_xyz_to_matrix(a):
    c0, s0, c1, s1, c2, s2 = math.cos(a[0]), math.sin(a[0]), math.cos(a[1]), math.sin(a[1]), math.cos(a[2]), math.sin(a[2])
    return np.array([[c1 * c2, -c1 * s2, s1],
                     [s0 * s1 * c2 + c0 * s2, -s0 * s1 * s2 + c0 * c2, -s0 * c1],
                     [-c0 * s1 * c2 + s0 * s2, c0 * s1 * s2 + s0 * c2, c0 * c1]])
