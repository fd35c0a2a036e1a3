//! Oracle: marker kinematics from the spec, generic over num-dual numbers.

use super::*;

// ------------------------------------------------------------------------------------------------
// Oracle: marker kinematics from the spec, generic over num-dual numbers.

pub(super) type M3 = [[f64; 3]; 3];

pub(super) trait Num: DualNum<Primitive = f64> + Copy {}
impl<D: DualNum<Primitive = f64> + Copy> Num for D {}

pub(super) fn dot3<D: Num>(a: [D; 3], b: [D; 3]) -> D {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

pub(super) fn cross3<D: Num>(a: [D; 3], b: [D; 3]) -> [D; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

pub(super) fn sub3<D: Num>(a: [D; 3], b: [D; 3]) -> [D; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

pub(super) fn mat_vec<D: Num>(a: &[[D; 3]; 3], v: [D; 3]) -> [D; 3] {
    a.map(|row| dot3(row, v))
}

pub(super) fn mul3<D: Num>(a: [[D; 3]; 3], b: [[D; 3]; 3]) -> [[D; 3]; 3] {
    std::array::from_fn(|i| std::array::from_fn(|j| dot3(a[i], [b[0][j], b[1][j], b[2][j]])))
}

/// Exudyn's `A(θ)` of Euler parameters, θ not normalised (§2.2).
pub(super) fn ep_rotation<D: Num>(t: [D; 4]) -> [[D; 3]; 3] {
    let [t0, t1, t2, t3] = t;
    let one = D::one();
    [
        [
            one - (t2 * t2 + t3 * t3) * 2.0,
            (t1 * t2 - t0 * t3) * 2.0,
            (t1 * t3 + t0 * t2) * 2.0,
        ],
        [
            (t1 * t2 + t0 * t3) * 2.0,
            one - (t1 * t1 + t3 * t3) * 2.0,
            (t2 * t3 - t0 * t1) * 2.0,
        ],
        [
            (t1 * t3 - t0 * t2) * 2.0,
            (t2 * t3 + t0 * t1) * 2.0,
            one - (t1 * t1 + t2 * t2) * 2.0,
        ],
    ]
}

/// `ω̄ = Ḡ·θ̇`, `Ḡ = 2·[[−θ1, θ0, θ3, −θ2], [−θ2, −θ3, θ0, θ1], [−θ3, θ2, −θ1, θ0]]` (§2.2).
pub(super) fn ep_omega_local<D: Num>(t: [D; 4], w: [D; 4]) -> [D; 3] {
    let [t0, t1, t2, t3] = t;
    let gl = [[-t1, t0, t3, -t2], [-t2, -t3, t0, t1], [-t3, t2, -t1, t0]];
    gl.map(|row| (row[0] * w[0] + row[1] * w[1] + row[2] * w[2] + row[3] * w[3]) * 2.0)
}

/// `ω = G·θ̇`, `G = 2·[[−θ1, θ0, −θ3, θ2], [−θ2, θ3, θ0, −θ1], [−θ3, −θ2, θ1, θ0]]`, the global
/// angular velocity (§2.2).
pub(super) fn ep_omega_global<D: Num>(t: [D; 4], w: [D; 4]) -> [D; 3] {
    let [t0, t1, t2, t3] = t;
    let g = [[-t1, t0, -t3, t2], [-t2, t3, t0, -t1], [-t3, -t2, t1, t0]];
    g.map(|row| (row[0] * w[0] + row[1] * w[1] + row[2] * w[2] + row[3] * w[3]) * 2.0)
}

/// `A(ψ) = Rx(ψ0)·Ry(ψ1)·Rz(ψ2)`, the product of the elementary rotations (§2.3).
pub(super) fn rxyz_rotation<D: Num>(psi: [D; 3]) -> [[D; 3]; 3] {
    let (s0, c0) = psi[0].sin_cos();
    let (s1, c1) = psi[1].sin_cos();
    let (s2, c2) = psi[2].sin_cos();
    let (z, o) = (D::zero(), D::one());
    let rx = [[o, z, z], [z, c0, -s0], [z, s0, c0]];
    let ry = [[c1, z, s1], [z, o, z], [-s1, z, c1]];
    let rz = [[c2, -s2, z], [s2, c2, z], [z, z, o]];
    mul3(mul3(rx, ry), rz)
}

/// `ω̄ = Ḡ·ψ̇`, `Ḡ = [[c1c2, s2, 0], [−c1s2, c2, 0], [s1, 0, 1]]` (§2.3).
pub(super) fn rxyz_omega_local<D: Num>(psi: [D; 3], w: [D; 3]) -> [D; 3] {
    let s1 = psi[1].sin();
    let c1 = psi[1].cos();
    let (s2, c2) = psi[2].sin_cos();
    [
        c1 * c2 * w[0] + s2 * w[1],
        -(c1 * s2 * w[0]) + c2 * w[1],
        s1 * w[0] + w[2],
    ]
}

/// `ω = G·ψ̇`, `G = [[1, 0, s1], [0, c0, −s0c1], [0, s0, c0c1]]`, the global angular velocity
/// (§2.3).
pub(super) fn rxyz_omega_global<D: Num>(psi: [D; 3], w: [D; 3]) -> [D; 3] {
    let (s0, c0) = psi[0].sin_cos();
    let (s1, c1) = psi[1].sin_cos();
    [
        w[0] + s1 * w[2],
        c0 * w[1] - s0 * c1 * w[2],
        s0 * w[1] + c0 * c1 * w[2],
    ]
}

/// A rotation matrix from three angles (f64), for joint and ground parameters.
pub(super) fn rotation_from(angles: [f64; 3]) -> M3 {
    rxyz_rotation(angles)
}

pub(super) fn constant<D: Num>(a: &M3) -> [[D; 3]; 3] {
    a.map(|row| row.map(D::from))
}

/// One marker's kinematic quantities at (q, q̇): position, velocity, orientation A (`None`
/// for position-only kinds) and local angular velocity ω̄.
pub(super) struct Kin<D> {
    pub(super) p: [D; 3],
    pub(super) v: [D; 3],
    pub(super) a: Option<[[D; 3]; 3]>,
    pub(super) wl: [D; 3],
    /// The global angular velocity ω = G·q̇ (Exudyn's rotation Jacobian: `Jr = [0 | G]`).
    pub(super) wg: [D; 3],
}

/// A marker's kinematics from the spec (§3, §5); `p` are the kind's parameters (ground:
/// `p_g`, RowMajor9(R_g), b; bodies: b; nodes: none), `q`, `qt` its node's coordinates and
/// velocities.
pub(super) fn marker_kin<D: Num>(kind: MarkerKind, p: &[f64], q: &[D], qt: &[D]) -> Kin<D> {
    let z = D::zero();
    let c3 = |s: &[f64]| [D::from(s[0]), D::from(s[1]), D::from(s[2])];
    let x = || [q[0], q[1], q[2]];
    let xt = || [qt[0], qt[1], qt[2]];
    let rigid = |a: [[D; 3]; 3], wl: [D; 3], wg: [D; 3], body: bool| {
        if body {
            let b = c3(&p[..3]);
            let ab = mat_vec(&a, b);
            let awb = mat_vec(&a, cross3(wl, b));
            Kin {
                p: [0, 1, 2].map(|i| q[i] + ab[i]),
                v: [0, 1, 2].map(|i| qt[i] + awb[i]),
                a: Some(a),
                wl,
                wg,
            }
        } else {
            Kin {
                p: x(),
                v: xt(),
                a: Some(a),
                wl,
                wg,
            }
        }
    };
    match kind {
        MarkerKind::GroundPoint => {
            let rg: M3 = [[p[3], p[4], p[5]], [p[6], p[7], p[8]], [p[9], p[10], p[11]]];
            Kin {
                p: [0, 1, 2].map(|i| D::from(p[i])),
                v: [z; 3],
                a: Some(constant(&rg)),
                wl: [z; 3],
                wg: [z; 3],
            }
        }
        MarkerKind::MassPointBody => {
            let b = c3(p);
            Kin {
                p: [q[0] + b[0], q[1] + b[1], q[2] + b[2]],
                v: xt(),
                a: None,
                wl: [z; 3],
                wg: [z; 3],
            }
        }
        MarkerKind::NodePoint => Kin {
            p: x(),
            v: xt(),
            a: None,
            wl: [z; 3],
            wg: [z; 3],
        },
        MarkerKind::RigidEpPoint | MarkerKind::NodeEp => {
            let t = [q[3], q[4], q[5], q[6]];
            let tt = [qt[3], qt[4], qt[5], qt[6]];
            rigid(
                ep_rotation(t),
                ep_omega_local(t, tt),
                ep_omega_global(t, tt),
                kind == MarkerKind::RigidEpPoint,
            )
        }
        MarkerKind::RigidRxyzPoint | MarkerKind::NodeRxyz => {
            let psi = [q[3], q[4], q[5]];
            let psit = [qt[3], qt[4], qt[5]];
            rigid(
                rxyz_rotation(psi),
                rxyz_omega_local(psi, psit),
                rxyz_omega_global(psi, psit),
                kind == MarkerKind::RigidRxyzPoint,
            )
        }
        MarkerKind::NodeCoordinate | MarkerKind::GroundCoordinate => {
            unreachable!("coordinate kinds: tests/coordinate_constraint.rs has their oracle")
        }
        MarkerKind::MassPoint2DBody => Kin {
            p: [q[0] + D::from(p[0]), q[1] + D::from(p[1]), D::from(p[2])],
            v: [qt[0], qt[1], z],
            a: None,
            wl: [z; 3],
            wg: [z; 3],
        },
        MarkerKind::NodePoint2D => Kin {
            p: [q[0], q[1], z],
            v: [qt[0], qt[1], z],
            a: None,
            wl: [z; 3],
            wg: [z; 3],
        },
        MarkerKind::Rigid2DPoint | MarkerKind::NodeRigid2D => {
            // NodeRigidBody2D: A = Rz(ψ), ω = ω̄ = [0, 0, ψ̇]; p = [x, y, 0] + A·b
            let (s, c) = (q[2].sin(), q[2].cos());
            let a = [[c, -s, z], [s, c, z], [z, z, D::one()]];
            let w = [z, z, qt[2]];
            let b = if kind == MarkerKind::Rigid2DPoint {
                c3(&p[..3])
            } else {
                [z; 3]
            };
            let ab = mat_vec(&a, b);
            let awb = mat_vec(&a, cross3(w, b));
            Kin {
                p: [q[0] + ab[0], q[1] + ab[1], ab[2]],
                v: [qt[0] + awb[0], qt[1] + awb[1], awb[2]],
                a: Some(a),
                wl: w,
                wg: w,
            }
        }
    }
}
