//! Every generated kernel of every built-in joint (Spherical, Distance, RevoluteZ, PrismaticX,
//! GenericRows), for every pairing of marker kinds, against an independent oracle differentiated
//! exactly with num-dual, at random states (proptest, fixed seed).
//!
//! The oracle re-implements, generic over num-dual numbers and without calling generated code,
//!
//! * each marker kind's kinematics from `shared/spec/items.md` §2, §3 and §5: ground
//!   `p = p_g + R_g·b`, `A = R_g`, `ω̄ = 0`; mass point `p = x + b`, `v = ẋ`; node point `p = x`;
//!   rigid bodies `p = x + A·b`, `v = ẋ + A·(ω̄ × b)`; rigid nodes `p = x`, `v = ẋ`; with the
//!   spec's `A(θ)` (Euler parameters, not normalised), `A(ψ) = Rx·Ry·Rz` and `ω̄ = Ḡ·θ̇`;
//! * each joint's position- and velocity-level rows from `docs/joint-formulas.md` §0–§4: joint
//!   frames `A_Ji = A_i·R_i` with columns `t_ki`, their rates `ṫ_ki = A_i·(ω̄_i × R_i·e_k)`;
//!   global rows `Δp_k` / `Δv_k`, local rows `t_k0·Δp` / `t_k0·Δv + ṫ_k0·Δp`, rotation rows
//!   `t_a0·t_b1` / `ṫ_a0·t_b1 + t_a0·ṫ_b1`, distance `|Δp| − d` / `Δp·Δv/|Δp|`.
//!
//! What the generated code claims, and the identity each check relies on (`g` position level,
//! `g_v(q, q̇)` velocity level, `C` the generated Jacobian, all exact derivatives by num-dual):
//!
//! * **A** `position_residual = g(q)` and `velocity_residual = g_v(q, q̇)`, at every state.
//! * **B** `C = ∂g_J/∂q̇`, Exudyn's constraint Jacobian (docs/joint-formulas.md §0, §6.5): `g_J`
//!   is the velocity level with frame axes turning with the *global* angular velocity,
//!   `ṫ = ω × t`, `ω = G·q̇`, so rotation rows are `(a×b)ᵀ·G`; at every state, on and off the
//!   Euler-parameter manifold (hyper-dual part `eps2`, seeding q̇). Off the manifold this is not
//!   `∂g_v/∂q̇`, whose rotation rows use `A·skew(ω̄)`; Exudyn's Newton path and multipliers
//!   follow C (the revolute_tilted_door reference case).
//! * **C** `velocity_residual_q = ∂(C·q̇)/∂q`: entry (r, j) is `Σ_c ∂²g_J,r/∂q_j∂q̇_c · q̇_c`
//!   (hyper-dual `eps1eps2`, seeding `q_j` and `q̇_c`), at every state.
//! * **D** `reaction_q = ∂(Cᵀλ)/∂q`: entry (c, j) is `Σ_r λ_r ∂²g_J,r/∂q_j∂q̇_c`, at every state.
//! * **E** the link between the two levels, which makes B–D more than a re-typing of the velocity
//!   formulas: Exudyn's kinematic relations are exact derivatives of the position wherever
//!   `Ȧ = A·skew(Ḡθ̇)`, i.e. always for Tait–Bryan angles (A orthonormal), and trivially for
//!   points and ground, but for Euler parameters only on the manifold `|θ| = 1` along tangents
//!   `w_θ ⟂ θ` (the spec, §5: `∂(A b)/∂θ = −A skew(b) Ḡ + 2(A − I) b θᵀ`, whose last term
//!   vanishes on tangents). So
//!   * **E1** `C·w = ∂g/∂q·w` (dual numbers along w) for `w = e_c` of every coordinate whose
//!     column is exact identically in q — all coordinates of markers without Euler parameters,
//!     and the translation coordinates x of markers with them — at every state (the other
//!     marker may be off the manifold: its coordinates do not enter these columns); and, on the
//!     manifold, for the tangent projections `w = e_c − θ_c·θ` of the Euler parameters;
//!   * **E2** `velocity_residual = d/dt g(q + t·q̇)` where every EP marker is on the manifold
//!     (θ̇ ⟂ θ);
//!   * **E3** those identically exact columns satisfy `C[:, c] = ∂g/∂q_c` as functions of q,
//!     hence `reaction_q[c, j] = Σ_r λ_r ∂²g_r/∂q_c∂q_j` (the position residual's Hessian,
//!     hyper-dual) for every j; and if neither marker has Euler parameters, also
//!     `velocity_residual_q[r, j] = Σ_c ∂²g_r/∂q_j∂q_c · q̇_c`.
//!
//! Tolerances: all identities are exact in real arithmetic, so the comparisons only absorb
//! rounding: `|got − want| ≤ 1e-12·(1 + max |want| over the compared block)`. The block scale
//! (rather than the entry's own size) accounts for entries that arise from cancelling terms of the
//! block's magnitude; the generated straight-line code and the oracle associate sums differently.

use joint::core::{JointDefinition, JointParameters as _, MarkerArgs, MarkerKind};
use joint::runtime::kernels::{distance, generic_rows, prismatic_x, revolute_z, spherical};
use num_dual::{Dual64, DualNum, HyperDual64};
use proptest::prelude::*;
use proptest::test_runner::RngSeed;

// ------------------------------------------------------------------------------------------------
// Marker kinds, as the test knows them (the order of `MARKER_KINDS`).

const KINDS: [MarkerKind; 7] = [
    MarkerKind::GroundPoint,
    MarkerKind::MassPointBody,
    MarkerKind::RigidEpPoint,
    MarkerKind::RigidRxyzPoint,
    MarkerKind::NodePoint,
    MarkerKind::NodeEp,
    MarkerKind::NodeRxyz,
];

fn is_ep(kind: MarkerKind) -> bool {
    matches!(kind, MarkerKind::RigidEpPoint | MarkerKind::NodeEp)
}

fn is_rxyz(kind: MarkerKind) -> bool {
    matches!(kind, MarkerKind::RigidRxyzPoint | MarkerKind::NodeRxyz)
}

fn has_orientation(kind: MarkerKind) -> bool {
    !matches!(kind, MarkerKind::MassPointBody | MarkerKind::NodePoint)
}

// ------------------------------------------------------------------------------------------------
// Oracle: marker kinematics from the spec, generic over num-dual numbers.

type M3 = [[f64; 3]; 3];

trait Num: DualNum<Primitive = f64> + Copy {}
impl<D: DualNum<Primitive = f64> + Copy> Num for D {}

fn dot3<D: Num>(a: [D; 3], b: [D; 3]) -> D {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn cross3<D: Num>(a: [D; 3], b: [D; 3]) -> [D; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn sub3<D: Num>(a: [D; 3], b: [D; 3]) -> [D; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn mat_vec<D: Num>(a: &[[D; 3]; 3], v: [D; 3]) -> [D; 3] {
    a.map(|row| dot3(row, v))
}

fn mul3<D: Num>(a: [[D; 3]; 3], b: [[D; 3]; 3]) -> [[D; 3]; 3] {
    std::array::from_fn(|i| std::array::from_fn(|j| dot3(a[i], [b[0][j], b[1][j], b[2][j]])))
}

/// Exudyn's `A(θ)` of Euler parameters, θ not normalised (§2.2).
fn ep_rotation<D: Num>(t: [D; 4]) -> [[D; 3]; 3] {
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
fn ep_omega_local<D: Num>(t: [D; 4], w: [D; 4]) -> [D; 3] {
    let [t0, t1, t2, t3] = t;
    let gl = [[-t1, t0, t3, -t2], [-t2, -t3, t0, t1], [-t3, t2, -t1, t0]];
    gl.map(|row| (row[0] * w[0] + row[1] * w[1] + row[2] * w[2] + row[3] * w[3]) * 2.0)
}

/// `ω = G·θ̇`, `G = 2·[[−θ1, θ0, −θ3, θ2], [−θ2, θ3, θ0, −θ1], [−θ3, −θ2, θ1, θ0]]`, the global
/// angular velocity (§2.2).
fn ep_omega_global<D: Num>(t: [D; 4], w: [D; 4]) -> [D; 3] {
    let [t0, t1, t2, t3] = t;
    let g = [[-t1, t0, -t3, t2], [-t2, t3, t0, -t1], [-t3, -t2, t1, t0]];
    g.map(|row| (row[0] * w[0] + row[1] * w[1] + row[2] * w[2] + row[3] * w[3]) * 2.0)
}

/// `A(ψ) = Rx(ψ0)·Ry(ψ1)·Rz(ψ2)`, the product of the elementary rotations (§2.3).
fn rxyz_rotation<D: Num>(psi: [D; 3]) -> [[D; 3]; 3] {
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
fn rxyz_omega_local<D: Num>(psi: [D; 3], w: [D; 3]) -> [D; 3] {
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
fn rxyz_omega_global<D: Num>(psi: [D; 3], w: [D; 3]) -> [D; 3] {
    let (s0, c0) = psi[0].sin_cos();
    let (s1, c1) = psi[1].sin_cos();
    [
        w[0] + s1 * w[2],
        c0 * w[1] - s0 * c1 * w[2],
        s0 * w[1] + c0 * c1 * w[2],
    ]
}

/// A rotation matrix from three angles (f64), for joint and ground parameters.
fn rotation_from(angles: [f64; 3]) -> M3 {
    rxyz_rotation(angles)
}

fn constant<D: Num>(a: &M3) -> [[D; 3]; 3] {
    a.map(|row| row.map(D::from))
}

/// One marker's kinematic quantities at (q, q̇): position, velocity, orientation A (`None`
/// for position-only kinds) and local angular velocity ω̄.
struct Kin<D> {
    p: [D; 3],
    v: [D; 3],
    a: Option<[[D; 3]; 3]>,
    wl: [D; 3],
    /// The global angular velocity ω = G·q̇ (Exudyn's rotation Jacobian: `Jr = [0 | G]`).
    wg: [D; 3],
}

/// A marker's kinematics from the spec (§3, §5); `p` are the kind's parameters (ground:
/// `p_g`, RowMajor9(R_g), b; bodies: b; nodes: none), `q`, `qt` its node's coordinates and
/// velocities.
fn marker_kin<D: Num>(kind: MarkerKind, p: &[f64], q: &[D], qt: &[D]) -> Kin<D> {
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
            let rb = mat_vec(&rg, [p[12], p[13], p[14]]);
            Kin {
                p: [0, 1, 2].map(|i| D::from(p[i] + rb[i])),
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
    }
}

// ------------------------------------------------------------------------------------------------
// Oracle: the joints' rows from docs/joint-formulas.md.

/// One residual row of a frame-based joint (a, b, k: axis indices 0 = x, 1 = y, 2 = z).
#[derive(Clone, Copy, Debug)]
enum Row {
    /// `Δp_k`, velocity `Δv_k`.
    Global(usize),
    /// `t_k0·Δp`, velocity `t_k0·Δv + ṫ_k0·Δp`.
    Local(usize),
    /// `t_a0·t_b1`, velocity `ṫ_a0·t_b1 + t_a0·ṫ_b1`.
    Rotation(usize, usize),
}

use Row::{Global, Local, Rotation};

/// items.md §4: the positions coincide.
const SPHERICAL: [Row; 3] = [Global(0), Global(1), Global(2)];
/// joint-formulas.md §1.
const REVOLUTE_Z: [Row; 5] = [
    Global(0),
    Global(1),
    Global(2),
    Rotation(2, 0),
    Rotation(2, 1),
];
/// joint-formulas.md §2.
const PRISMATIC_X: [Row; 5] = [
    Local(1),
    Local(2),
    Rotation(2, 1),
    Rotation(2, 0),
    Rotation(0, 1),
];
/// joint-formulas.md §3 and the candidate rows of kernels.rs: 0–2 global, 3–5 local, 6–11
/// `t_a0·t_b1` for (a, b) = (z, y), (z, x), (x, y), (x, z), (y, x), (y, z).
const GENERIC_ROWS: [Row; 12] = [
    Global(0),
    Global(1),
    Global(2),
    Local(0),
    Local(1),
    Local(2),
    Rotation(2, 1),
    Rotation(2, 0),
    Rotation(0, 1),
    Rotation(0, 2),
    Rotation(1, 0),
    Rotation(1, 2),
];

#[derive(Clone, Copy, Debug)]
enum Formula {
    Rows(&'static [Row]),
    /// joint-formulas.md §4: `|Δp| − d`, velocity `Δp·Δv/|Δp|`.
    Distance,
}

/// A joint as the oracle knows it: its rows and its parameters.
#[derive(Clone, Debug)]
struct JointOracle {
    formula: Formula,
    distance: f64,
    rotation_marker: [M3; 2],
}

impl JointOracle {
    fn rows(&self) -> usize {
        match self.formula {
            Formula::Rows(rows) => rows.len(),
            Formula::Distance => 1,
        }
    }

    /// Position-level rows, velocity-level rows, and the rows whose velocity derivative is
    /// Exudyn's constraint Jacobian C, from both markers' kinematics. The velocity level turns a
    /// frame axis with the local angular velocity, `ṫ = A·(ω̄ × R e_k)`; C's rows turn it with the
    /// global one, `ṫ = ω × t` (docs/joint-formulas.md §0 and §6.5): the two agree wherever A is
    /// orthonormal, and differ for Euler parameters off the unit sphere.
    fn residuals<D: Num>(&self, k: [&Kin<D>; 2]) -> (Vec<D>, Vec<D>, Vec<D>) {
        let dp = sub3(k[1].p, k[0].p);
        let dv = sub3(k[1].v, k[0].v);
        let rows = match self.formula {
            Formula::Distance => {
                let norm = dot3(dp, dp).sqrt();
                let vel = dot3(dp, dv) / norm;
                return (vec![norm - self.distance], vec![vel], vec![vel]);
            }
            Formula::Rows(rows) => rows,
        };
        // Column k of A_i·R_i, of A_i·skew(ω̄_i)·R_i (= A_i·(ω̄_i × R_i·e_k)) and of
        // skew(ω_i)·A_i·R_i.
        let frame = |i: usize, axis: usize| -> ([D; 3], [D; 3], [D; 3]) {
            let a = k[i]
                .a
                .as_ref()
                .expect("a frame row needs an orientation marker");
            let r = &self.rotation_marker[i];
            let re = [0, 1, 2].map(|m| D::from(r[m][axis]));
            let t = mat_vec(a, re);
            (t, mat_vec(a, cross3(k[i].wl, re)), cross3(k[i].wg, t))
        };
        let mut pos = Vec::with_capacity(rows.len());
        let mut vel = Vec::with_capacity(rows.len());
        let mut jac = Vec::with_capacity(rows.len());
        for row in rows {
            match *row {
                Global(c) => {
                    pos.push(dp[c]);
                    vel.push(dv[c]);
                    jac.push(dv[c]);
                }
                Local(c) => {
                    let (t, tt, tg) = frame(0, c);
                    pos.push(dot3(t, dp));
                    vel.push(dot3(t, dv) + dot3(tt, dp));
                    jac.push(dot3(t, dv) + dot3(tg, dp));
                }
                Rotation(a, b) => {
                    let (ta, tta, tga) = frame(0, a);
                    let (tb, ttb, tgb) = frame(1, b);
                    pos.push(dot3(ta, tb));
                    vel.push(dot3(tta, tb) + dot3(ta, ttb));
                    jac.push(dot3(tga, tb) + dot3(ta, tgb));
                }
            }
        }
        (pos, vel, jac)
    }
}

// ------------------------------------------------------------------------------------------------
// Random states.

/// One marker's inputs: parameters, total node coordinates, their velocities.
#[derive(Clone, Debug)]
struct MarkerState {
    p: Vec<f64>,
    q: Vec<f64>,
    v: Vec<f64>,
}

/// Numbers in [−1, 1) that a marker state is built from.
const POOL: usize = 24;

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

fn normalized4(r: &[f64]) -> [f64; 4] {
    let mut t = [r[0], r[1], r[2], r[3]];
    if dot(&t, &t) < 0.04 {
        t[0] += 1.0;
    }
    let n = dot(&t, &t).sqrt();
    t.map(|x| x / n)
}

/// A marker state of `kind` from `r` (POOL numbers in [−1, 1)).
///
/// `on_manifold`: Euler parameters are a unit vector and θ̇·θ = 0; otherwise |θ| ∈ [0.5, 1.5]
/// and θ̇ is arbitrary. Tait–Bryan ψ1 stays in [−1.3, 1.3], away from the singularity at ±π/2.
/// Ground rotations are proper rotations.
fn marker_state(kind: MarkerKind, r: &[f64], on_manifold: bool) -> MarkerState {
    use std::f64::consts::PI;
    assert_eq!(r.len(), POOL);
    let x = [2.0 * r[0], 2.0 * r[1], 2.0 * r[2]];
    let xt = [3.0 * r[3], 3.0 * r[4], 3.0 * r[5]];
    let b = [1.5 * r[14], 1.5 * r[15], 1.5 * r[16]];
    let (rot, rot_t): (Vec<f64>, Vec<f64>) = if is_ep(kind) {
        let unit = normalized4(&r[6..10]);
        let w = [2.0 * r[10], 2.0 * r[11], 2.0 * r[12], 2.0 * r[13]];
        if on_manifold {
            let wt = dot(&w, &unit);
            (unit.to_vec(), (0..4).map(|i| w[i] - wt * unit[i]).collect())
        } else {
            let s = 1.0 + 0.5 * r[17];
            (unit.iter().map(|t| s * t).collect(), w.to_vec())
        }
    } else if is_rxyz(kind) {
        (
            vec![PI * r[6], 1.3 * r[7], PI * r[8]],
            vec![2.0 * r[10], 2.0 * r[11], 2.0 * r[12]],
        )
    } else {
        (vec![], vec![])
    };
    let q: Vec<f64> = x.iter().chain(&rot).copied().collect();
    let v: Vec<f64> = xt.iter().chain(&rot_t).copied().collect();
    match kind {
        MarkerKind::GroundPoint => {
            let rg = rotation_from([PI * r[18], PI * r[19], PI * r[20]]);
            let mut p = vec![3.0 * r[0], 3.0 * r[1], 3.0 * r[2]];
            p.extend(rg.iter().flatten());
            p.extend(b);
            MarkerState {
                p,
                q: vec![],
                v: vec![],
            }
        }
        MarkerKind::MassPointBody => MarkerState {
            p: b.to_vec(),
            q: x.to_vec(),
            v: xt.to_vec(),
        },
        MarkerKind::NodePoint => MarkerState {
            p: vec![],
            q: x.to_vec(),
            v: xt.to_vec(),
        },
        MarkerKind::RigidEpPoint | MarkerKind::RigidRxyzPoint => MarkerState {
            p: b.to_vec(),
            q,
            v,
        },
        MarkerKind::NodeEp | MarkerKind::NodeRxyz => MarkerState { p: vec![], q, v },
    }
}

/// Joint-level random numbers: distance, rotationMarker0/1 angles, λ.
const JOINT_POOL: usize = 19;

fn pools() -> impl Strategy<Value = (Vec<Vec<f64>>, Vec<f64>)> {
    (
        prop::collection::vec(prop::collection::vec(-1.0f64..1.0, POOL), 14),
        prop::collection::vec(-1.0f64..1.0, JOINT_POOL),
    )
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 48,
        failure_persistence: None,
        max_shrink_iters: 64,
        rng_seed: RngSeed::Fixed(0x6475_616c_6f72),
        ..ProptestConfig::default()
    }
}

// ------------------------------------------------------------------------------------------------
// The generated kernels behind one signature.

/// One marker's slices: parameters, coordinates, velocities.
type Side<'a> = (&'a [f64], &'a [f64], &'a [f64]);
type Residual = Box<dyn Fn(Side, Side, &mut [f64])>;
type Blocks = Box<dyn Fn(Side, Side, &mut [f64], &mut [f64])>;
type ReactionQ = Box<dyn Fn(&[f64], Side, Side, &mut [f64])>;

/// A generated pairing (joint parameters bound) and the oracle of its joint.
struct Pairing {
    name: String,
    kinds: [MarkerKind; 2],
    rows: usize,
    oracle: JointOracle,
    position: Residual,
    velocity: Residual,
    jacobian: Blocks,
    velocity_residual_q: Blocks,
    reaction_q: ReactionQ,
}

/// Every pairing of a joint, through its type-erased definition, with its parameters bound.
fn pairings(
    definition: &'static JointDefinition,
    oracle: JointOracle,
    p: Vec<f64>,
) -> Vec<Pairing> {
    fn a(s: Side<'_>) -> MarkerArgs<'_> {
        MarkerArgs {
            parameters: s.0,
            coordinates: s.1,
            velocities: s.2,
        }
    }
    assert_eq!(
        definition.rows(),
        oracle.rows(),
        "{}: rows",
        definition.name
    );
    let mut out = Vec::new();
    for &k in definition.pairings {
        let so = k
            .second_order
            .expect("the built-in joints have second-order terms");
        let (p0, p1, p2, p3, p4) = (p.clone(), p.clone(), p.clone(), p.clone(), p.clone());
        out.push(Pairing {
            name: k.path(),
            kinds: k.kinds,
            rows: definition.rows(),
            oracle: oracle.clone(),
            position: Box::new(move |s0, s1, o| {
                (k.position_residual)(&p0, a(s0), a(s1), o)
                    .expect("position_residual rejected correct slices")
            }),
            velocity: Box::new(move |s0, s1, o| {
                (k.velocity_residual)(&p1, a(s0), a(s1), o)
                    .expect("velocity_residual rejected correct slices")
            }),
            jacobian: Box::new(move |s0, s1, j0, j1| {
                (k.jacobian)(&p2, a(s0), a(s1), j0, j1).expect("jacobian rejected correct slices")
            }),
            velocity_residual_q: Box::new(move |s0, s1, j0, j1| {
                (so.velocity_residual_q)(&p3, a(s0), a(s1), j0, j1)
                    .expect("velocity_residual_q rejected correct slices")
            }),
            reaction_q: Box::new(move |l, s0, s1, b| {
                (so.reaction_q)(&p4, l, a(s0), a(s1), b)
                    .expect("reaction_q rejected correct slices")
            }),
        });
    }
    out
}

/// Joint parameters of one case: distance d ∈ [0.5, 2.5), rotationMarker0/1.
struct JointParameters {
    distance: f64,
    rotation_marker: [M3; 2],
}

fn joint_parameters(r: &[f64]) -> JointParameters {
    use std::f64::consts::PI;
    JointParameters {
        distance: 1.5 + r[0],
        rotation_marker: [
            rotation_from([PI * r[1], PI * r[2], PI * r[3]]),
            rotation_from([PI * r[4], PI * r[5], PI * r[6]]),
        ],
    }
}

fn all_pairings(jp: &JointParameters) -> Vec<Pairing> {
    let frame = |formula| JointOracle {
        formula,
        distance: 0.0,
        rotation_marker: jp.rotation_marker,
    };
    let [r0, r1] = jp.rotation_marker;
    let mut all = Vec::new();
    all.extend(pairings(
        &spherical::DEFINITION,
        JointOracle {
            // The spherical joint has no frames: identities, unused by its global rows.
            rotation_marker: [rotation_from([0.0; 3]); 2],
            ..frame(Formula::Rows(&SPHERICAL))
        },
        Vec::new(),
    ));
    all.extend(pairings(
        &distance::DEFINITION,
        JointOracle {
            distance: jp.distance,
            ..frame(Formula::Distance)
        },
        distance::Parameters {
            distance: jp.distance,
        }
        .to_values(),
    ));
    all.extend(pairings(
        &revolute_z::DEFINITION,
        frame(Formula::Rows(&REVOLUTE_Z)),
        revolute_z::Parameters {
            rotation_marker0: r0,
            rotation_marker1: r1,
        }
        .to_values(),
    ));
    all.extend(pairings(
        &prismatic_x::DEFINITION,
        frame(Formula::Rows(&PRISMATIC_X)),
        prismatic_x::Parameters {
            rotation_marker0: r0,
            rotation_marker1: r1,
        }
        .to_values(),
    ));
    all.extend(pairings(
        &generic_rows::DEFINITION,
        frame(Formula::Rows(&GENERIC_ROWS)),
        generic_rows::Parameters {
            rotation_marker0: r0,
            rotation_marker1: r1,
        }
        .to_values(),
    ));
    all
}

// ------------------------------------------------------------------------------------------------
// Oracle evaluations.

/// The oracle's rows at both markers' states, with the coordinates and velocities given as
/// `D` numbers (`q[c]`, `qt[c]` over the pairing's combined coordinates, m0's first).
fn oracle_rows<D: Num>(
    k: &Pairing,
    m: [&MarkerState; 2],
    q: &[D],
    qt: &[D],
) -> (Vec<D>, Vec<D>, Vec<D>) {
    let n0 = m[0].q.len();
    let kin0 = marker_kin(k.kinds[0], &m[0].p, &q[..n0], &qt[..n0]);
    let kin1 = marker_kin(k.kinds[1], &m[1].p, &q[n0..], &qt[n0..]);
    k.oracle.residuals([&kin0, &kin1])
}

fn combined(m: [&MarkerState; 2]) -> (Vec<f64>, Vec<f64>) {
    (
        m[0].q.iter().chain(&m[1].q).copied().collect(),
        m[0].v.iter().chain(&m[1].v).copied().collect(),
    )
}

/// `rows × n × n` numbers, `(r, c, j)` row-major.
struct Tensor {
    n: usize,
    d: Vec<f64>,
}

impl Tensor {
    fn new(rows: usize, n: usize, fill: f64) -> Self {
        Tensor {
            n,
            d: vec![fill; rows * n * n],
        }
    }

    fn at(&self, r: usize, c: usize, j: usize) -> f64 {
        self.d[(r * self.n + c) * self.n + j]
    }

    fn set(&mut self, r: usize, c: usize, j: usize, x: f64) {
        self.d[(r * self.n + c) * self.n + j] = x;
    }
}

/// The velocity level `g_v`, and the derivatives of C's rows `g_J` (`C = ∂g_J/∂q̇`): `C`
/// (row-major `rows × n`, `C[r, c] = ∂g_J,r/∂q̇_c`) and `T(r, c, j) = ∂²g_J,r/∂q_j∂q̇_c`, by
/// hyper-dual numbers (eps1 seeds q_j, eps2 seeds q̇_c).
struct VelocityOracle {
    g_v: Vec<f64>,
    g_j: Vec<f64>,
    c: Vec<f64>,
    t: Tensor,
}

fn velocity_oracle(k: &Pairing, m: [&MarkerState; 2]) -> VelocityOracle {
    let (q, v) = combined(m);
    let n = q.len();
    let rows = k.rows;
    let mut c = vec![0.0; rows * n];
    let mut t = Tensor::new(rows, n, 0.0);
    let mut g_v = vec![f64::NAN; rows];
    let mut g_j = vec![f64::NAN; rows];
    for j in 0..n {
        let qd: Vec<HyperDual64> = q
            .iter()
            .enumerate()
            .map(|(i, &x)| HyperDual64::new(x, f64::from(u8::from(i == j)), 0.0, 0.0))
            .collect();
        for col in 0..n {
            let vd: Vec<HyperDual64> = v
                .iter()
                .enumerate()
                .map(|(i, &x)| HyperDual64::new(x, 0.0, f64::from(u8::from(i == col)), 0.0))
                .collect();
            let (_, vel, jac) = oracle_rows(k, m, &qd, &vd);
            for (r, (d, v)) in jac.iter().zip(&vel).enumerate() {
                t.set(r, col, j, d.eps1eps2);
                if j == 0 {
                    c[r * n + col] = d.eps2;
                    g_v[r] = v.re;
                    g_j[r] = d.re;
                }
            }
        }
    }
    VelocityOracle { g_v, g_j, c, t }
}

/// The position level at the state.
fn oracle_position(k: &Pairing, m: [&MarkerState; 2]) -> Vec<f64> {
    let (q, v) = combined(m);
    oracle_rows::<f64>(k, m, &q, &v).0
}

/// `∂g/∂q·w`: the position level's derivative along `w` (dual numbers).
fn oracle_position_along(k: &Pairing, m: [&MarkerState; 2], w: &[f64]) -> Vec<f64> {
    let (q, v) = combined(m);
    let qd: Vec<Dual64> = q.iter().zip(w).map(|(&x, &e)| Dual64::new(x, e)).collect();
    let vd: Vec<Dual64> = v.iter().map(|&x| Dual64::from(x)).collect();
    oracle_rows(k, m, &qd, &vd)
        .0
        .iter()
        .map(|d| d.eps)
        .collect()
}

/// `∂²g_r/∂q_j∂q_c` of the position level, per row.
fn oracle_position_hessian(k: &Pairing, m: [&MarkerState; 2], j: usize, c: usize) -> Vec<f64> {
    let (q, v) = combined(m);
    let qd: Vec<HyperDual64> = q
        .iter()
        .enumerate()
        .map(|(i, &x)| {
            HyperDual64::new(
                x,
                f64::from(u8::from(i == j)),
                f64::from(u8::from(i == c)),
                0.0,
            )
        })
        .collect();
    let vd: Vec<HyperDual64> = v.iter().map(|&x| HyperDual64::from(x)).collect();
    oracle_rows(k, m, &qd, &vd)
        .0
        .iter()
        .map(|d| d.eps1eps2)
        .collect()
}

// ------------------------------------------------------------------------------------------------
// Comparisons.

const TOL: f64 = 1e-12;

/// `|got − want| ≤ TOL·(1 + max |want|)` entrywise over a block.
fn check_block(got: &[f64], want: &[f64], what: impl Fn(usize) -> String) {
    assert_eq!(got.len(), want.len(), "{}: length", what(0));
    let scale = 1.0 + want.iter().fold(0.0f64, |s, x| s.max(x.abs()));
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(
            (g - w).abs() <= TOL * scale,
            "{}: got {g:.17e}, expected {w:.17e} (difference {:.3e}, allowed {:.3e})",
            what(i),
            (g - w).abs(),
            TOL * scale
        );
    }
}

/// Moves marker 1 by 3 along x until |Δp| ≥ 1 (the distance joint's direction is undefined at
/// Δp = 0, and its derivatives grow like 1/|Δp|).
fn separate(k: &Pairing, m0: &MarkerState, m1: &mut MarkerState) {
    loop {
        let (q, v) = combined([m0, m1]);
        let n0 = m0.q.len();
        let kin0 = marker_kin(k.kinds[0], &m0.p, &q[..n0], &v[..n0]);
        let kin1 = marker_kin(k.kinds[1], &m1.p, &q[n0..], &v[n0..]);
        let dp = sub3(kin1.p, kin0.p);
        if dot3(dp, dp) >= 1.0 {
            return;
        }
        if m1.q.is_empty() {
            m1.p[0] += 3.0;
        } else {
            m1.q[0] += 3.0;
        }
    }
}

/// All checks (A–E of the file's head comment) of one pairing at one state.
fn check_pairing(
    k: &Pairing,
    m0: &MarkerState,
    m1: &MarkerState,
    lambda: &[f64],
    on_manifold: bool,
) {
    let mut m1 = m1.clone();
    separate(k, m0, &mut m1);
    let m = [m0, &m1];
    let state = if on_manifold {
        "on the EP manifold"
    } else {
        "off the EP manifold"
    };
    let name = |what: &str| format!("{} ({state}): {what}", k.name);
    let (n0, n1) = (m0.q.len(), m1.q.len());
    let n = n0 + n1;
    let rows = k.rows;
    let lambda = &lambda[..rows];
    let s0: Side = (&m0.p, &m0.q, &m0.v);
    let s1: Side = (&m1.p, &m1.q, &m1.v);

    // The generated values.
    let mut pos = vec![f64::NAN; rows];
    (k.position)(s0, s1, &mut pos);
    let mut vel = vec![f64::NAN; rows];
    (k.velocity)(s0, s1, &mut vel);
    let (mut j0, mut j1) = (vec![f64::NAN; rows * n0], vec![f64::NAN; rows * n1]);
    (k.jacobian)(s0, s1, &mut j0, &mut j1);
    let (mut b0, mut b1) = (vec![f64::NAN; rows * n0], vec![f64::NAN; rows * n1]);
    (k.velocity_residual_q)(s0, s1, &mut b0, &mut b1);
    let mut rq = vec![f64::NAN; n * n];
    (k.reaction_q)(lambda, s0, s1, &mut rq);
    // Combined row-major `rows × n` blocks over m0's then m1's coordinates.
    let join = |a: &[f64], b: &[f64]| -> Vec<f64> {
        (0..rows)
            .flat_map(|r| {
                a[r * n0..(r + 1) * n0]
                    .iter()
                    .chain(&b[r * n1..(r + 1) * n1])
                    .copied()
            })
            .collect()
    };
    let jac = join(&j0, &j1);
    let vq = join(&b0, &b1);

    // A: the residuals.
    let o = velocity_oracle(k, m);
    let g = oracle_position(k, m);
    check_block(&pos, &g, |r| {
        name(&format!("position_residual row {r} vs the oracle's g"))
    });
    check_block(&vel, &o.g_v, |r| {
        name(&format!("velocity_residual row {r} vs the oracle's g_v"))
    });

    // B: C = ∂g_J/∂q̇.
    check_block(&jac, &o.c, |i| {
        name(&format!(
            "jacobian entry ({}, {}) vs ∂g_J/∂q̇ (hyper-dual)",
            i / n,
            i % n
        ))
    });

    // The oracle's own consistency: its g_J is linear in q̇, g_J = (∂g_J/∂q̇)·q̇; and on the
    // manifold g_J is the velocity level.
    let (q, v) = combined(m);
    let v = &v[..];
    let cv: Vec<f64> = o.c.chunks(n).map(|row| dot(row, v)).collect();
    check_block(&cv, &o.g_j, |r| {
        name(&format!("oracle self-check row {r}: (∂g_J/∂q̇)·q̇ vs g_J"))
    });
    if on_manifold {
        check_block(&o.g_j, &o.g_v, |r| {
            name(&format!(
                "oracle self-check row {r}: g_J vs g_v on the manifold"
            ))
        });
    }

    // C: ∂(C q̇)/∂q (r, j) = Σ_c T(r, c, j)·q̇_c.
    let want_vq: Vec<f64> = (0..rows)
        .flat_map(|r| {
            let t = &o.t;
            (0..n).map(move |j| v.iter().enumerate().map(|(c, vc)| t.at(r, c, j) * vc).sum())
        })
        .collect::<Vec<f64>>();
    check_block(&vq, &want_vq, |i| {
        name(&format!(
            "velocity_residual_q entry ({}, {}) vs Σ_c ∂²g_J/∂q_j∂q̇_c·q̇_c (hyper-dual)",
            i / n,
            i % n
        ))
    });

    // D: ∂(Cᵀλ)/∂q (c, j) = Σ_r λ_r·T(r, c, j).
    let want_rq: Vec<f64> = (0..n * n)
        .map(|i| {
            let (c, j) = (i / n, i % n);
            (0..rows).map(|r| lambda[r] * o.t.at(r, c, j)).sum()
        })
        .collect();
    check_block(&rq, &want_rq, |i| {
        name(&format!(
            "reaction_q entry ({}, {}) vs Σ_r λ_r ∂²g_J,r/∂q_j∂q̇_c (hyper-dual)",
            i / n,
            i % n
        ))
    });

    // E: the link to the position level. `identical(c)`: column c of C is ∂g/∂q_c identically
    // in q (coordinates of markers without Euler parameters, and the translation coordinates of
    // those with).
    let marker_of = |c: usize| usize::from(c >= n0);
    let offsets = [0, n0];
    let identical = |c: usize| {
        let i = marker_of(c);
        !is_ep(k.kinds[i]) || c - offsets[i] < 3
    };
    for c in 0..n {
        // E1: along e_c, or its tangent projection for an EP marker's rotation coordinates.
        if !identical(c) && !on_manifold {
            continue;
        }
        let mut w = vec![0.0; n];
        w[c] = 1.0;
        if !identical(c) {
            let i = marker_of(c);
            let th = &q[offsets[i] + 3..offsets[i] + 7];
            let tc = q[c];
            for (e, t) in th.iter().enumerate() {
                w[offsets[i] + 3 + e] -= tc * t;
            }
        }
        let cw: Vec<f64> = (0..rows)
            .map(|r| dot(&jac[r * n..(r + 1) * n], &w))
            .collect();
        let dg = oracle_position_along(k, m, &w);
        check_block(&cw, &dg, |r| {
            name(&format!(
                "row {r}: jacobian·w vs ∂g/∂q·w (dual) along {} of coordinate {c}",
                if identical(c) {
                    "the direction"
                } else {
                    "the tangent projection"
                }
            ))
        });
    }
    let no_ep = !is_ep(k.kinds[0]) && !is_ep(k.kinds[1]);
    if on_manifold || no_ep {
        // E2: the velocity level is d/dt of the position level along q̇ (tangent on the manifold).
        let dg = oracle_position_along(k, m, v);
        check_block(&vel, &dg, |r| {
            name(&format!("velocity_residual row {r} vs d/dt g (dual)"))
        });
    }
    // E3: the position Hessian, H(r, c, j) = ∂²g_r/∂q_c∂q_j, for the columns c it determines.
    let mut hessian = Tensor::new(rows, n, f64::NAN);
    for c in (0..n).filter(|&c| identical(c)) {
        for j in 0..n {
            for (r, h) in oracle_position_hessian(k, m, j, c).into_iter().enumerate() {
                hessian.set(r, c, j, h);
            }
        }
    }
    for c in (0..n).filter(|&c| identical(c)) {
        let got = &rq[c * n..(c + 1) * n];
        let want: Vec<f64> = (0..n)
            .map(|j| (0..rows).map(|r| lambda[r] * hessian.at(r, c, j)).sum())
            .collect();
        check_block(got, &want, |j| {
            name(&format!(
                "reaction_q entry ({c}, {j}) vs Σ_r λ_r ∂²g_r/∂q_c∂q_j (position Hessian)"
            ))
        });
    }
    if no_ep {
        let want: Vec<f64> = (0..rows)
            .flat_map(|r| {
                let h = &hessian;
                (0..n).map(move |j| v.iter().enumerate().map(|(c, vc)| h.at(r, c, j) * vc).sum())
            })
            .collect::<Vec<f64>>();
        check_block(&vq, &want, |i| {
            name(&format!(
                "velocity_residual_q entry ({}, {}) vs Σ_c ∂²g/∂q_j∂q_c·q̇_c (position Hessian)",
                i / n,
                i % n
            ))
        });
    }
}

proptest! {
    #![proptest_config(config())]

    /// A–E for every pairing of every built-in joint, on and off the Euler-parameter manifold.
    #[test]
    fn every_built_in_joint_kernel_matches_its_dual_oracle(pools in pools()) {
        let (markers, joint) = pools;
        let jp = joint_parameters(&joint);
        let lambda = &joint[7..];
        let pairings = all_pairings(&jp);
        for on_manifold in [true, false] {
            let states: Vec<MarkerState> = (0..14)
                .map(|i| marker_state(KINDS[i % 7], &markers[i], on_manifold))
                .collect();
            for k in &pairings {
                check_pairing(
                    k,
                    &states[k.kinds[0].index()],
                    &states[7 + k.kinds[1].index()],
                    lambda,
                    on_manifold,
                );
            }
        }
    }
}

/// The pairings the oracle test runs over: every ordered pair of kinds with the capabilities the
/// joint needs (Position: all 7 kinds; Rigid: the 5 with an orientation), except ground–ground.
#[test]
fn every_pairing_of_every_built_in_joint_is_checked() {
    let pairings = all_pairings(&joint_parameters(&[0.1; JOINT_POOL]));
    for (joint, rigid, count) in [
        ("spherical", false, 48),
        ("distance", false, 48),
        ("revolute_z", true, 24),
        ("prismatic_x", true, 24),
        ("generic_rows", true, 24),
    ] {
        let mine: Vec<&Pairing> = pairings
            .iter()
            .filter(|k| k.name.starts_with(&format!("{joint}::")))
            .collect();
        assert_eq!(mine.len(), count, "{joint}: number of pairings");
        for k0 in KINDS {
            for k1 in KINDS {
                let expected = !(k0 == MarkerKind::GroundPoint && k1 == MarkerKind::GroundPoint)
                    && (!rigid || (has_orientation(k0) && has_orientation(k1)));
                let present = mine.iter().any(|k| k.kinds == [k0, k1]);
                assert_eq!(
                    present,
                    expected,
                    "{joint}: pairing {} – {}",
                    k0.name(),
                    k1.name()
                );
            }
        }
    }
    assert_eq!(pairings.len(), 168);
}
