//! The generated kernels against independent oracles written from the Exudyn item specification
//! (`shared/spec/items.md` §2–§5): the spherical joint's residuals and Jacobians for every pairing
//! of marker kinds, and every marker kind's kinematics.
//!
//! The oracles below re-implement the kinematics from the spec's formulas (A(θ) for Euler
//! parameters, A = Rx·Ry·Rz for Tait–Bryan angles, G and Ḡ, p = x + A·b, ground p = p_g + R_g·b,
//! mass point p = x + b, node p = x), generic over num-dual numbers so that time derivatives along
//! a motion are exact. Exudyn's position Jacobian is `[I | −A·skew(b)·Ḡ]`, the derivative of its
//! kinematic velocity relation `v = ẋ + A(ω̄ × b)`, which equals d/dt of the position only on the
//! Euler-parameter constraint manifold (‖θ‖ = 1, θ̇·θ = 0); states are drawn accordingly where that
//! matters.

use joint::core::{MarkerKind, Pairing};
use joint::runtime::kernels::{marker_kinematics, spherical};
use num_dual::{Dual64, DualNum};
use proptest::prelude::*;
use proptest::test_runner::RngSeed;

mod fused_kernel;
mod marker_kinds;
#[path = "../support/marker_states.rs"]
mod marker_states;
mod pairings;
mod slice_interface;

// The modules' items, for each other (modules holding only tests add none).
use marker_states::*;
#[allow(unused_imports)]
use {fused_kernel::*, marker_kinds::*, pairings::*, slice_interface::*};

// ------------------------------------------------------------------------------------------------
// Kinds, as the test knows them (independently of the generated constants).

const KINDS: [MarkerKind; 7] = [
    MarkerKind::GroundPoint,
    MarkerKind::MassPointBody,
    MarkerKind::RigidEpPoint,
    MarkerKind::RigidRxyzPoint,
    MarkerKind::NodePoint,
    MarkerKind::NodeEp,
    MarkerKind::NodeRxyz,
];

/// Number of node coordinates of a kind (Exudyn: ground none, point nodes 3, EP 7, Rxyz 6).
fn coordinate_count(kind: MarkerKind) -> usize {
    match kind {
        MarkerKind::GroundPoint => 0,
        MarkerKind::MassPointBody | MarkerKind::NodePoint => 3,
        MarkerKind::RigidEpPoint | MarkerKind::NodeEp => 7,
        MarkerKind::RigidRxyzPoint | MarkerKind::NodeRxyz => 6,
        MarkerKind::NodeCoordinate | MarkerKind::GroundCoordinate => {
            unreachable!("coordinate kinds give no position: no spherical pairing")
        }
        MarkerKind::MassPoint2DBody | MarkerKind::NodePoint2D => 2,
        MarkerKind::Rigid2DPoint | MarkerKind::NodeRigid2D => 3,
    }
}

/// Number of constant parameters: ground point p = p_g + R_g·b and RowMajor9(R_g); body markers
/// b; node markers none.
fn parameter_count(kind: MarkerKind) -> usize {
    match kind {
        MarkerKind::GroundPoint => 12,
        MarkerKind::MassPointBody
        | MarkerKind::RigidEpPoint
        | MarkerKind::RigidRxyzPoint
        | MarkerKind::MassPoint2DBody
        | MarkerKind::Rigid2DPoint => 3,
        _ => 0,
    }
}

fn has_orientation(kind: MarkerKind) -> bool {
    !matches!(kind, MarkerKind::MassPointBody | MarkerKind::NodePoint)
}

// ------------------------------------------------------------------------------------------------
// Small dense helpers.

type M3 = [[f64; 3]; 3];

/// Row-major `rows × cols` matrix.
#[derive(Clone, Debug)]
struct Mat {
    rows: usize,
    cols: usize,
    d: Vec<f64>,
}

impl Mat {
    fn zeros(rows: usize, cols: usize) -> Self {
        Mat {
            rows,
            cols,
            d: vec![0.0; rows * cols],
        }
    }

    fn at(&self, i: usize, j: usize) -> f64 {
        self.d[i * self.cols + j]
    }

    fn set(&mut self, i: usize, j: usize, v: f64) {
        self.d[i * self.cols + j] = v;
    }

    fn from_rows<const C: usize>(rows: &[[f64; C]]) -> Self {
        Mat {
            rows: rows.len(),
            cols: C,
            d: rows.iter().flatten().copied().collect(),
        }
    }

    fn mul(&self, b: &Mat) -> Mat {
        assert_eq!(self.cols, b.rows);
        let mut out = Mat::zeros(self.rows, b.cols);
        for i in 0..self.rows {
            for j in 0..b.cols {
                let s: f64 = (0..self.cols).map(|k| self.at(i, k) * b.at(k, j)).sum();
                out.set(i, j, s);
            }
        }
        out
    }

    fn mul_vec(&self, v: &[f64]) -> Vec<f64> {
        assert_eq!(self.cols, v.len());
        (0..self.rows)
            .map(|i| (0..self.cols).map(|k| self.at(i, k) * v[k]).sum())
            .collect()
    }

    fn scaled(&self, s: f64) -> Mat {
        Mat {
            rows: self.rows,
            cols: self.cols,
            d: self.d.iter().map(|x| s * x).collect(),
        }
    }

    /// `[left | right]`
    fn hcat(left: &Mat, right: &Mat) -> Mat {
        assert_eq!(left.rows, right.rows);
        let mut out = Mat::zeros(left.rows, left.cols + right.cols);
        for i in 0..left.rows {
            for j in 0..left.cols {
                out.set(i, j, left.at(i, j));
            }
            for j in 0..right.cols {
                out.set(i, left.cols + j, right.at(i, j));
            }
        }
        out
    }
}

fn m3(a: &M3) -> Mat {
    Mat::from_rows(a)
}

fn identity3() -> Mat {
    Mat::from_rows(&[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
}

/// `skew(v) = [[0,-v2,v1],[v2,0,-v0],[-v1,v0,0]]` (so `skew(a)·b = a × b`).
fn skew(v: [f64; 3]) -> Mat {
    Mat::from_rows(&[[0.0, -v[2], v[1]], [v[2], 0.0, -v[0]], [-v[1], v[0], 0.0]])
}

fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn v3(v: &[f64]) -> [f64; 3] {
    [v[0], v[1], v[2]]
}

/// `|got − want| ≤ tol·max(1, |got|, |want|)`; `what` names the quantity and entry.
fn check(got: f64, want: f64, tol: f64, what: impl FnOnce() -> String) {
    let scale = 1f64.max(got.abs()).max(want.abs());
    assert!(
        (got - want).abs() <= tol * scale,
        "{}: got {got:.17e}, expected {want:.17e} (difference {:.3e}, tolerance {:.1e} relative)",
        what(),
        (got - want).abs(),
        tol
    );
}

fn check_slice(got: &[f64], want: &[f64], tol: f64, what: impl Fn() -> String) {
    assert_eq!(
        got.len(),
        want.len(),
        "{}: length {} instead of {}",
        what(),
        got.len(),
        want.len()
    );
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        check(*g, *w, tol, || format!("{}, entry {i}", what()));
    }
}

fn check_mat(got: &[f64], want: &Mat, tol: f64, what: impl Fn() -> String) {
    assert_eq!(
        got.len(),
        want.rows * want.cols,
        "{}: {} entries instead of {}×{}",
        what(),
        got.len(),
        want.rows,
        want.cols
    );
    for i in 0..want.rows {
        for j in 0..want.cols {
            check(got[i * want.cols + j], want.at(i, j), tol, || {
                format!("{}, entry ({i},{j})", what())
            });
        }
    }
}

// ------------------------------------------------------------------------------------------------
// Independent oracle: rotation parametrizations from the spec (§2.2, §2.3).

/// Exudyn's EP2RotationMatrix, θ not normalised (§2.2).
fn ep_rotation<D: DualNum<Primitive = f64> + Copy>(t: [D; 4]) -> [[D; 3]; 3] {
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

fn mul3<D: DualNum<Primitive = f64> + Copy>(a: [[D; 3]; 3], b: [[D; 3]; 3]) -> [[D; 3]; 3] {
    let mut out = [[D::zero(); 3]; 3];
    for (i, row) in out.iter_mut().enumerate() {
        for (j, e) in row.iter_mut().enumerate() {
            *e = a[i][0] * b[0][j] + a[i][1] * b[1][j] + a[i][2] * b[2][j];
        }
    }
    out
}

/// A = Rx(ψ0)·Ry(ψ1)·Rz(ψ2), built as the product of the elementary rotations (§2.3).
fn rxyz_rotation<D: DualNum<Primitive = f64> + Copy>(psi: [D; 3]) -> [[D; 3]; 3] {
    let (s0, c0) = psi[0].sin_cos();
    let (s1, c1) = psi[1].sin_cos();
    let (s2, c2) = psi[2].sin_cos();
    let (z, o) = (D::zero(), D::one());
    let rx = [[o, z, z], [z, c0, -s0], [z, s0, c0]];
    let ry = [[c1, z, s1], [z, o, z], [-s1, z, c1]];
    let rz = [[c2, -s2, z], [s2, c2, z], [z, z, o]];
    mul3(mul3(rx, ry), rz)
}

fn real3(a: [[f64; 3]; 3]) -> M3 {
    a
}

/// G (global) and Ḡ (local) of Euler parameters, 3×4 (§2.2).
fn ep_g(t: [f64; 4]) -> (Mat, Mat) {
    let [t0, t1, t2, t3] = t;
    let g = Mat::from_rows(&[[-t1, t0, -t3, t2], [-t2, t3, t0, -t1], [-t3, -t2, t1, t0]]);
    let gl = Mat::from_rows(&[[-t1, t0, t3, -t2], [-t2, -t3, t0, t1], [-t3, t2, -t1, t0]]);
    (g.scaled(2.0), gl.scaled(2.0))
}

/// G (global) and Ḡ (local) of Tait–Bryan angles, 3×3 (§2.3).
fn rxyz_g(psi: [f64; 3]) -> (Mat, Mat) {
    let (s0, c0) = psi[0].sin_cos();
    let (s1, c1) = psi[1].sin_cos();
    let (s2, c2) = psi[2].sin_cos();
    let g = Mat::from_rows(&[[1.0, 0.0, s1], [0.0, c0, -c1 * s0], [0.0, s0, c0 * c1]]);
    let gl = Mat::from_rows(&[[c1 * c2, s2, 0.0], [-c1 * s2, c2, 0.0], [s1, 0.0, 1.0]]);
    (g, gl)
}

/// G_t·ψ̇ and Ḡ_t·ψ̇ of Tait–Bryan angles, from the spec's G_t and Ḡ_t (§2.3).
fn rxyz_rate_parts(psi: [f64; 3], w: [f64; 3]) -> ([f64; 3], [f64; 3]) {
    let (s0, c0) = psi[0].sin_cos();
    let (s1, c1) = psi[1].sin_cos();
    let (s2, c2) = psi[2].sin_cos();
    let gt = Mat::from_rows(&[
        [0.0, 0.0, w[1] * c1],
        [0.0, -w[0] * s0, w[1] * s0 * s1 - w[0] * c0 * c1],
        [0.0, w[0] * c0, -w[0] * c1 * s0 - w[1] * c0 * s1],
    ]);
    let glt = Mat::from_rows(&[
        [-w[2] * c1 * s2 - w[1] * c2 * s1, w[2] * c2, 0.0],
        [w[1] * s2 * s1 - w[2] * c2 * c1, -w[2] * s2, 0.0],
        [w[1] * c1, 0.0, 0.0],
    ]);
    (v3(&gt.mul_vec(&w)), v3(&glt.mul_vec(&w)))
}

fn ground_rotation(p: &[f64]) -> M3 {
    [[p[3], p[4], p[5]], [p[6], p[7], p[8]], [p[9], p[10], p[11]]]
}

/// Marker position from the spec (§3, §5), generic so that dual numbers give exact derivatives.
fn oracle_position<D: DualNum<Primitive = f64> + Copy>(
    kind: MarkerKind,
    p: &[f64],
    q: &[D],
) -> [D; 3] {
    let rotated = |a: [[D; 3]; 3], b: [f64; 3]| -> [D; 3] {
        [0, 1, 2].map(|i| q[i] + a[i][0] * b[0] + a[i][1] * b[1] + a[i][2] * b[2])
    };
    match kind {
        MarkerKind::GroundPoint => [0, 1, 2].map(|i| D::from(p[i])),
        MarkerKind::MassPointBody => [q[0] + p[0], q[1] + p[1], q[2] + p[2]],
        MarkerKind::RigidEpPoint => {
            rotated(ep_rotation([q[3], q[4], q[5], q[6]]), [p[0], p[1], p[2]])
        }
        MarkerKind::RigidRxyzPoint => {
            rotated(rxyz_rotation([q[3], q[4], q[5]]), [p[0], p[1], p[2]])
        }
        MarkerKind::NodePoint | MarkerKind::NodeEp | MarkerKind::NodeRxyz => [q[0], q[1], q[2]],
        MarkerKind::MassPoint2DBody => [q[0] + p[0], q[1] + p[1], D::from(p[2])],
        MarkerKind::NodePoint2D | MarkerKind::NodeRigid2D => [q[0], q[1], D::zero()],
        MarkerKind::Rigid2DPoint => {
            let (s, c) = (q[2].sin(), q[2].cos());
            [
                q[0] + c * p[0] - s * p[1],
                q[1] + s * p[0] + c * p[1],
                D::from(p[2]),
            ]
        }
        MarkerKind::NodeCoordinate | MarkerKind::GroundCoordinate => {
            unreachable!("coordinate kinds give no position: no spherical pairing")
        }
    }
}

/// Everything the spec says about one marker at one state.
struct Oracle {
    position: [f64; 3],
    velocity: [f64; 3],
    /// `[I | −A·skew(b)·Ḡ]`, `I`, `[I | 0]` or 3×0 (ground).
    position_jacobian: Mat,
    rotation: Option<M3>,
    angular_velocity: Option<[f64; 3]>,
    angular_velocity_local: Option<[f64; 3]>,
    /// `[0 | G]` (3×0 for ground).
    rotation_jacobian: Option<Mat>,
    /// `[0 | Ḡ]` (3×0 for ground).
    rotation_jacobian_local: Option<Mat>,
    /// `G_t·θ̇` and `Ḡ_t·θ̇` (kinds with orientation and coordinates only).
    rate_parts: Option<([f64; 3], [f64; 3])>,
}

fn oracle(kind: MarkerKind, m: &MarkerState) -> Oracle {
    let (p, q, v) = (&m.p[..], &m.q[..], &m.v[..]);
    let position = oracle_position::<f64>(kind, p, q);
    match kind {
        MarkerKind::GroundPoint => Oracle {
            position,
            velocity: [0.0; 3],
            position_jacobian: Mat::zeros(3, 0),
            rotation: Some(ground_rotation(p)),
            angular_velocity: Some([0.0; 3]),
            angular_velocity_local: Some([0.0; 3]),
            rotation_jacobian: Some(Mat::zeros(3, 0)),
            rotation_jacobian_local: Some(Mat::zeros(3, 0)),
            rate_parts: None,
        },
        MarkerKind::MassPointBody | MarkerKind::NodePoint => Oracle {
            position,
            velocity: v3(v),
            position_jacobian: identity3(),
            rotation: None,
            angular_velocity: None,
            angular_velocity_local: None,
            rotation_jacobian: None,
            rotation_jacobian_local: None,
            rate_parts: None,
        },
        _ => {
            let rates = &v[3..];
            let (a, g, gl, rate_parts) = if is_ep(kind) {
                let t = [q[3], q[4], q[5], q[6]];
                let (g, gl) = ep_g(t);
                // §2.2: G_t·θ̇ = Ḡ_t·θ̇ = 0 identically.
                (real3(ep_rotation(t)), g, gl, ([0.0; 3], [0.0; 3]))
            } else {
                let psi = [q[3], q[4], q[5]];
                let (g, gl) = rxyz_g(psi);
                let rp = rxyz_rate_parts(psi, [rates[0], rates[1], rates[2]]);
                (real3(rxyz_rotation(psi)), g, gl, rp)
            };
            let n_rot = rates.len();
            let omega = v3(&g.mul_vec(rates));
            let omega_local = v3(&gl.mul_vec(rates));
            let (velocity, rot_cols) = match kind {
                MarkerKind::RigidEpPoint | MarkerKind::RigidRxyzPoint => {
                    let b = v3(p);
                    let awb = m3(&a).mul_vec(&cross(omega_local, b));
                    let velocity = [0, 1, 2].map(|i| v[i] + awb[i]);
                    // Exudyn's position Jacobian of a rigid-body point: −A·skew(b)·Ḡ.
                    let cols = m3(&a).mul(&skew(b)).mul(&gl).scaled(-1.0);
                    (velocity, cols)
                }
                _ => (v3(v), Mat::zeros(3, n_rot)),
            };
            Oracle {
                position,
                velocity,
                position_jacobian: Mat::hcat(&identity3(), &rot_cols),
                rotation: Some(a),
                angular_velocity: Some(omega),
                angular_velocity_local: Some(omega_local),
                rotation_jacobian: Some(Mat::hcat(&Mat::zeros(3, 3), &g)),
                rotation_jacobian_local: Some(Mat::hcat(&Mat::zeros(3, 3), &gl)),
                rate_parts: Some(rate_parts),
            }
        }
    }
}

/// d/dt of the oracle position along q̇, exactly (dual numbers).
fn oracle_position_rate(kind: MarkerKind, m: &MarkerState) -> [f64; 3] {
    let q: Vec<Dual64> =
        m.q.iter()
            .zip(&m.v)
            .map(|(&q, &v)| Dual64::new(q, v))
            .collect();
    oracle_position(kind, &m.p, &q).map(|d| d.eps)
}

// ------------------------------------------------------------------------------------------------
// Random states.

fn pools() -> impl Strategy<Value = Vec<Vec<f64>>> {
    prop::collection::vec(prop::collection::vec(-1.0f64..1.0, POOL), 14)
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 64,
        failure_persistence: None,
        rng_seed: RngSeed::Fixed(0x6a6f_696e_7473),
        ..ProptestConfig::default()
    }
}

/// A random marker state ([`marker_states::marker_state`]) with this test's ground rotation,
/// [`rxyz_rotation`].
fn marker_state(kind: MarkerKind, r: &[f64], on_manifold: bool) -> MarkerState {
    marker_states::marker_state(kind, r, on_manifold, rxyz_rotation)
}
