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

use joint::core::{MarkerArgs, MarkerKind, Pairing};
use joint::runtime::kernels::{marker_kinematics, spherical};
use num_dual::{Dual64, DualNum};
use proptest::prelude::*;
use proptest::test_runner::RngSeed;

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
    }
}

/// Number of constant parameters: ground p_g, RowMajor9(R_g), b; body markers b; node markers none.
fn parameter_count(kind: MarkerKind) -> usize {
    match kind {
        MarkerKind::GroundPoint => 15,
        MarkerKind::MassPointBody | MarkerKind::RigidEpPoint | MarkerKind::RigidRxyzPoint => 3,
        _ => 0,
    }
}

fn has_orientation(kind: MarkerKind) -> bool {
    !matches!(kind, MarkerKind::MassPointBody | MarkerKind::NodePoint)
}

fn is_ep(kind: MarkerKind) -> bool {
    matches!(kind, MarkerKind::RigidEpPoint | MarkerKind::NodeEp)
}

fn is_rxyz(kind: MarkerKind) -> bool {
    matches!(kind, MarkerKind::RigidRxyzPoint | MarkerKind::NodeRxyz)
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

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
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
        MarkerKind::GroundPoint => {
            let r = ground_rotation(p);
            [0, 1, 2].map(|i| D::from(p[i] + r[i][0] * p[12] + r[i][1] * p[13] + r[i][2] * p[14]))
        }
        MarkerKind::MassPointBody => [q[0] + p[0], q[1] + p[1], q[2] + p[2]],
        MarkerKind::RigidEpPoint => {
            rotated(ep_rotation([q[3], q[4], q[5], q[6]]), [p[0], p[1], p[2]])
        }
        MarkerKind::RigidRxyzPoint => {
            rotated(rxyz_rotation([q[3], q[4], q[5]]), [p[0], p[1], p[2]])
        }
        MarkerKind::NodePoint | MarkerKind::NodeEp | MarkerKind::NodeRxyz => [q[0], q[1], q[2]],
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

/// One marker's inputs: parameters, total node coordinates, their velocities.
#[derive(Clone, Debug)]
struct MarkerState {
    p: Vec<f64>,
    q: Vec<f64>,
    v: Vec<f64>,
}

impl MarkerState {
    fn args(&self) -> MarkerArgs<'_> {
        MarkerArgs {
            parameters: &self.p,
            coordinates: &self.q,
            velocities: &self.v,
        }
    }
}

/// Numbers in [−1, 1) that a state is built from.
const POOL: usize = 24;

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
/// `on_manifold`: Euler parameters are a unit vector and θ̇·θ = 0 (Exudyn's kinematic relations
/// are exact derivatives there); otherwise θ has a norm in [0.5, 1.5] and θ̇ is arbitrary.
/// Tait–Bryan ψ1 stays in [−1.3, 1.3], away from the singularity at ±π/2.
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
            // A random proper rotation (product of elementary rotations) and position.
            let rg = rxyz_rotation([PI * r[18], PI * r[19], PI * r[20]]);
            let mut p = vec![3.0 * r[0], 3.0 * r[1], 3.0 * r[2]];
            p.extend(rg.iter().flatten());
            p.extend(b);
            MarkerState {
                p,
                q: vec![],
                v: vec![],
            }
        }
        MarkerKind::MassPointBody | MarkerKind::NodePoint => MarkerState {
            p: if kind == MarkerKind::MassPointBody {
                b.to_vec()
            } else {
                vec![]
            },
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

// ------------------------------------------------------------------------------------------------
// Running a pairing through the slice interface.

struct Evaluated {
    position: [f64; 3],
    velocity: [f64; 3],
    jac0: Vec<f64>,
    jac1: Vec<f64>,
}

fn evaluate(kernel: &&'static Pairing, m0: &MarkerState, m1: &MarkerState) -> Evaluated {
    let name = kernel_name(kernel);
    let mut position = [f64::NAN; 3];
    let mut velocity = [f64::NAN; 3];
    (kernel.position_residual)(&[], m0.args(), m1.args(), &mut position)
        .unwrap_or_else(|| panic!("{name}: position_residual rejected correct slices"));
    (kernel.velocity_residual)(&[], m0.args(), m1.args(), &mut velocity)
        .unwrap_or_else(|| panic!("{name}: velocity_residual rejected correct slices"));
    let mut jac0 = vec![f64::NAN; 3 * m0.q.len()];
    let mut jac1 = vec![f64::NAN; 3 * m1.q.len()];
    (kernel.jacobian)(&[], m0.args(), m1.args(), &mut jac0, &mut jac1)
        .unwrap_or_else(|| panic!("{name}: jacobian rejected correct slices"));
    Evaluated {
        position,
        velocity,
        jac0,
        jac1,
    }
}

fn kernel_name(kernel: &&'static Pairing) -> String {
    format!(
        "spherical {} → {}",
        kernel.kinds[0].name(),
        kernel.kinds[1].name()
    )
}

/// Every generated pairing `(kind0, kind1, kernel)`.
fn all_pairings() -> Vec<(MarkerKind, MarkerKind, &'static Pairing)> {
    let mut out = Vec::new();
    for k0 in KINDS {
        for k1 in KINDS {
            if let Some(kernel) = spherical::pairing(k0, k1) {
                out.push((k0, k1, kernel));
            }
        }
    }
    out
}

fn block_times(block: &[f64], v: &[f64]) -> [f64; 3] {
    let n = v.len();
    assert_eq!(block.len(), 3 * n);
    [0, 1, 2].map(|r| dot(&block[r * n..(r + 1) * n], v))
}

/// Checks 1a–1c of one pairing at one state.
fn check_pairing(
    k0: MarkerKind,
    k1: MarkerKind,
    kernel: &&'static Pairing,
    m0: &MarkerState,
    m1: &MarkerState,
    on_manifold: bool,
) {
    let name = kernel_name(kernel);
    let state = if on_manifold {
        "on the EP manifold"
    } else {
        "off the EP manifold"
    };
    let e = evaluate(kernel, m0, m1);
    let (o0, o1) = (oracle(k0, m0), oracle(k1, m1));

    // Position and velocity residuals against the oracle (p1 − p0, v1 − v0).
    for r in 0..3 {
        check(
            e.position[r],
            o1.position[r] - o0.position[r],
            1e-12,
            || format!("{name} ({state}): position residual row {r} vs p1 − p0 of the oracle"),
        );
        check(
            e.velocity[r],
            o1.velocity[r] - o0.velocity[r],
            1e-12,
            || format!("{name} ({state}): velocity residual row {r} vs v1 − v0 of the oracle"),
        );
    }

    // 1a: the velocity residual is J0·q̇0 + J1·q̇1.
    let j0v = block_times(&e.jac0, &m0.v);
    let j1v = block_times(&e.jac1, &m1.v);
    for r in 0..3 {
        check(e.velocity[r], j0v[r] + j1v[r], 1e-12, || {
            format!("{name} ({state}): velocity residual row {r} vs J0·q̇0 + J1·q̇1")
        });
    }

    // 1c: the Jacobian blocks are −J_pos(m0) and +J_pos(m1), Exudyn's [I | −A·skew(b)·Ḡ].
    check_mat(&e.jac0, &o0.position_jacobian.scaled(-1.0), 1e-12, || {
        format!("{name} ({state}): Jacobian block of m0 vs −[I | −A·skew(b)·Ḡ] of the oracle")
    });
    check_mat(&e.jac1, &o1.position_jacobian, 1e-12, || {
        format!("{name} ({state}): Jacobian block of m1 vs [I | −A·skew(b)·Ḡ] of the oracle")
    });

    // 1b: on the manifold, J·q̇ is the exact time derivative of the position residual.
    if on_manifold {
        let d0 = oracle_position_rate(k0, m0);
        let d1 = oracle_position_rate(k1, m1);
        for r in 0..3 {
            check(j0v[r] + j1v[r], d1[r] - d0[r], 1e-9, || {
                format!("{name} ({state}): J·q̇ row {r} vs d/dt of the position residual (num-dual)")
            });
        }
    }
}

proptest! {
    #![proptest_config(config())]

    /// 1a–1c for every pairing of the spherical joint.
    #[test]
    fn spherical_pairings_match_the_oracle(pools in pools()) {
        for on_manifold in [true, false] {
            let markers: Vec<MarkerState> = (0..14)
                .map(|i| marker_state(KINDS[i % 7], &pools[i], on_manifold))
                .collect();
            for (k0, k1, kernel) in all_pairings() {
                check_pairing(
                    k0,
                    k1,
                    &kernel,
                    &markers[k0.index()],
                    &markers[7 + k1.index()],
                    on_manifold,
                );
            }
        }
    }

    /// 2: every marker kind's kinematics against the oracle and finite differences.
    #[test]
    fn marker_kinematics_match_the_oracle(pools in pools()) {
        for on_manifold in [true, false] {
            for (i, kind) in KINDS.into_iter().enumerate() {
                let m = marker_state(kind, &pools[i], on_manifold);
                check_marker(kind, &m, on_manifold);
            }
        }
    }
}

#[test]
fn every_pairing_but_ground_ground_is_generated() {
    assert_eq!(spherical::ROWS, 3);
    assert_eq!(spherical::DEFAULT_CONSTRAINED_AXES, [true; 3]);
    let pairings = all_pairings();
    assert_eq!(pairings.len(), 48, "number of spherical pairings");
    assert!(
        spherical::pairing(MarkerKind::GroundPoint, MarkerKind::GroundPoint).is_none(),
        "ground → ground"
    );
    for (k0, k1, kernel) in pairings {
        let name = kernel_name(&kernel);
        assert_eq!(kernel.kinds, [k0, k1], "{name}: kinds");
        assert_eq!(
            kernel.coordinates,
            [coordinate_count(k0), coordinate_count(k1)],
            "{name}: coordinate counts"
        );
        assert_eq!(
            kernel.parameters,
            [parameter_count(k0), parameter_count(k1)],
            "{name}: parameter counts"
        );
    }
    for k in KINDS {
        assert_eq!(marker_kinematics::MARKER_KINDS[k.index()], k.name());
    }
}

// ------------------------------------------------------------------------------------------------
// 2: marker kinematics.

fn central_difference(f: impl Fn(f64) -> Vec<f64>, h: f64) -> Vec<f64> {
    let (a, b) = (f(h), f(-h));
    a.iter().zip(&b).map(|(x, y)| (x - y) / (2.0 * h)).collect()
}

fn check_marker(kind: MarkerKind, m: &MarkerState, on_manifold: bool) {
    let k = kind.index();
    let name = format!(
        "marker_kinematics {} ({})",
        kind.name(),
        if on_manifold {
            "on the EP manifold"
        } else {
            "off the EP manifold"
        }
    );
    let n = coordinate_count(kind);
    let o = oracle(kind, m);
    let (p, q, v) = (&m.p[..], &m.q[..], &m.v[..]);

    let position = marker_kinematics::position(k, p, q)
        .unwrap_or_else(|| panic!("{name}: position rejected correct slices"));
    check_slice(&position, &o.position, 1e-12, || {
        format!("{name}: position")
    });
    let velocity = marker_kinematics::velocity(k, p, q, v)
        .unwrap_or_else(|| panic!("{name}: velocity rejected correct slices"));
    check_slice(&velocity, &o.velocity, 1e-12, || {
        format!("{name}: velocity")
    });

    // Position Jacobian: Exudyn's form, and (on the manifold) the exact rate of the position.
    let mut jpos = vec![f64::NAN; 3 * n];
    marker_kinematics::position_jacobian(k, p, q, &mut jpos)
        .unwrap_or_else(|| panic!("{name}: position_jacobian rejected correct slices"));
    check_mat(&jpos, &o.position_jacobian, 1e-12, || {
        format!("{name}: position_jacobian vs [I | −A·skew(b)·Ḡ]")
    });
    let jv = block_times(&jpos, v);
    check_slice(&jv, &velocity, 1e-12, || {
        format!("{name}: position_jacobian·q̇ vs velocity")
    });
    if on_manifold {
        let rate = oracle_position_rate(kind, m);
        check_slice(&jv, &rate, 1e-9, || {
            format!("{name}: position_jacobian·q̇ vs d/dt position (num-dual)")
        });
    }

    // ∂(J_posᵀ·f)/∂q against central differences of the generated J_posᵀ·f.
    // A force that varies with the state.
    let f = [
        0.6 - 0.2 * position[1],
        -1.1 + 0.1 * position[0],
        0.4 + 0.2 * position[2],
    ];
    let mut dq = vec![f64::NAN; n * n];
    marker_kinematics::position_jacobian_t_times_vector_q(k, p, q, &f, &mut dq).unwrap_or_else(
        || panic!("{name}: position_jacobian_t_times_vector_q rejected correct slices"),
    );
    let jt_f = |q: &[f64]| -> Vec<f64> {
        let mut j = vec![0.0; 3 * n];
        marker_kinematics::position_jacobian(k, p, q, &mut j).expect("position_jacobian");
        (0..n)
            .map(|c| (0..3).map(|r| j[r * n + c] * f[r]).sum())
            .collect()
    };
    for c in 0..n {
        let column = central_difference(
            |h| {
                let mut qh = q.to_vec();
                qh[c] += h;
                jt_f(&qh)
            },
            1e-6,
        );
        for (r, want) in column.iter().enumerate() {
            check(dq[r * n + c], *want, 1e-6, || {
                format!(
                    "{name}: position_jacobian_t_times_vector_q entry ({r},{c}) vs central differences"
                )
            });
        }
    }

    // Orientation.
    let rotation = marker_kinematics::rotation(k, p, q);
    let omega = marker_kinematics::angular_velocity(k, p, q, v);
    let omega_local = marker_kinematics::angular_velocity_local(k, p, q, v);
    let rate = marker_kinematics::angular_acceleration_rate_part(k, p, q, v);
    let rate_local = marker_kinematics::angular_acceleration_local_rate_part(k, p, q, v);
    let mut jrot = vec![f64::NAN; 3 * n];
    let rot_jac = marker_kinematics::rotation_jacobian(k, p, q, &mut jrot);
    let mut jrot_local = vec![f64::NAN; 3 * n];
    let rot_jac_local = marker_kinematics::rotation_jacobian_local(k, p, q, &mut jrot_local);
    if !has_orientation(kind) {
        assert!(rotation.is_none(), "{name}: rotation should be None");
        assert!(omega.is_none(), "{name}: angular_velocity should be None");
        assert!(
            omega_local.is_none(),
            "{name}: angular_velocity_local should be None"
        );
        assert!(rate.is_none(), "{name}: rate part should be None");
        assert!(
            rate_local.is_none(),
            "{name}: local rate part should be None"
        );
        assert!(
            rot_jac.is_none(),
            "{name}: rotation_jacobian should be None"
        );
        assert!(
            rot_jac_local.is_none(),
            "{name}: rotation_jacobian_local should be None"
        );
        return;
    }
    let rotation = rotation.unwrap_or_else(|| panic!("{name}: rotation missing"));
    check_mat(
        rotation.as_flattened(),
        &m3(&o.rotation.expect("oracle rotation")),
        1e-12,
        || format!("{name}: rotation matrix vs the spec's A"),
    );
    let omega = omega.unwrap_or_else(|| panic!("{name}: angular_velocity missing"));
    check_slice(&omega, &o.angular_velocity.expect("ω"), 1e-12, || {
        format!("{name}: angular_velocity vs G·θ̇")
    });
    let omega_local =
        omega_local.unwrap_or_else(|| panic!("{name}: angular_velocity_local missing"));
    check_slice(
        &omega_local,
        &o.angular_velocity_local.expect("ω̄"),
        1e-12,
        || format!("{name}: angular_velocity_local vs Ḡ·θ̇"),
    );
    rot_jac.unwrap_or_else(|| panic!("{name}: rotation_jacobian rejected correct slices"));
    check_mat(
        &jrot,
        o.rotation_jacobian.as_ref().expect("[0|G]"),
        1e-12,
        || format!("{name}: rotation_jacobian vs [0 | G]"),
    );
    rot_jac_local
        .unwrap_or_else(|| panic!("{name}: rotation_jacobian_local rejected correct slices"));
    check_mat(
        &jrot_local,
        o.rotation_jacobian_local.as_ref().expect("[0|Ḡ]"),
        1e-12,
        || format!("{name}: rotation_jacobian_local vs [0 | Ḡ]"),
    );
    if n == 0 {
        // Ground: fixed orientation, no rate parts.
        assert!(rate.is_none(), "{name}: rate part should be None");
        assert!(
            rate_local.is_none(),
            "{name}: local rate part should be None"
        );
        return;
    }
    let (spec_rate, spec_rate_local) = o.rate_parts.expect("rate parts");
    let rate = rate.unwrap_or_else(|| panic!("{name}: angular_acceleration_rate_part missing"));
    let rate_local = rate_local
        .unwrap_or_else(|| panic!("{name}: angular_acceleration_local_rate_part missing"));
    check_slice(&rate, &spec_rate, 1e-12, || {
        format!("{name}: angular_acceleration_rate_part vs the spec's G_t·θ̇")
    });
    check_slice(&rate_local, &spec_rate_local, 1e-12, || {
        format!("{name}: angular_acceleration_local_rate_part vs the spec's Ḡ_t·θ̇")
    });
    // Finite differences of ω and ω̄ along q̇ at constant velocities.
    let along = |h: f64| -> Vec<f64> { q.iter().zip(v).map(|(q, v)| q + h * v).collect() };
    let fd = central_difference(
        |h| {
            marker_kinematics::angular_velocity(k, p, &along(h), v)
                .expect("ω")
                .to_vec()
        },
        1e-6,
    );
    check_slice(&rate, &fd, 1e-6, || {
        format!("{name}: angular_acceleration_rate_part vs finite differences of ω along q̇")
    });
    let fd_local = central_difference(
        |h| {
            marker_kinematics::angular_velocity_local(k, p, &along(h), v)
                .expect("ω̄")
                .to_vec()
        },
        1e-6,
    );
    check_slice(&rate_local, &fd_local, 1e-6, || {
        format!("{name}: angular_acceleration_local_rate_part vs finite differences of ω̄ along q̇")
    });
}

/// The oracle itself: A orthogonal with det 1 on the manifold, ω = A·ω̄ (G = A·Ḡ), and the
/// spec's closed form of A(ψ) against the product of elementary rotations.
#[test]
fn oracle_is_consistent_with_the_spec() {
    let mut runner = proptest::test_runner::TestRunner::new(config());
    runner
        .run(&pools(), |pools| {
            for (i, kind) in [MarkerKind::RigidEpPoint, MarkerKind::RigidRxyzPoint]
                .into_iter()
                .enumerate()
            {
                let m = marker_state(kind, &pools[i], true);
                let o = oracle(kind, &m);
                let a = m3(&o.rotation.expect("A"));
                let mut at = Mat::zeros(3, 3);
                for r in 0..3 {
                    for c in 0..3 {
                        at.set(r, c, a.at(c, r));
                    }
                }
                check_mat(&a.mul(&at).d, &identity3(), 1e-13, || {
                    format!("oracle {}: A·Aᵀ", kind.name())
                });
                let omega = o.angular_velocity.expect("ω");
                let a_omega_local = a.mul_vec(&o.angular_velocity_local.expect("ω̄"));
                check_slice(&omega, &a_omega_local, 1e-13, || {
                    format!("oracle {}: ω vs A·ω̄", kind.name())
                });
                if is_rxyz(kind) {
                    let (s0, c0) = m.q[3].sin_cos();
                    let (s1, c1) = m.q[4].sin_cos();
                    let (s2, c2) = m.q[5].sin_cos();
                    let closed = Mat::from_rows(&[
                        [c1 * c2, -c1 * s2, s1],
                        [s0 * s1 * c2 + c0 * s2, -s0 * s1 * s2 + c0 * c2, -s0 * c1],
                        [-c0 * s1 * c2 + s0 * s2, c0 * s1 * s2 + s0 * c2, c0 * c1],
                    ]);
                    check_mat(&a.d, &closed, 1e-14, || {
                        "oracle Rxyz: product vs closed form".to_string()
                    });
                }
            }
            Ok(())
        })
        .expect("oracle self-check");
}

/// The dispatchers agree with the per-kind module functions.
#[test]
fn dispatch_agrees_with_the_kind_modules() {
    let r: Vec<f64> = (0..POOL).map(|i| ((i as f64) * 0.37).sin()).collect();
    let state = |kind| marker_state(kind, &r, true);
    let f = [0.3, -0.8, 1.2];
    macro_rules! same {
        ($got:expr, $want:expr, $what:expr) => {
            assert_eq!($got, Some($want), "{}", $what)
        };
    }
    fn block(kind: usize, n: usize, f: impl Fn(usize, &mut [f64]) -> Option<()>) -> Vec<f64> {
        let mut out = vec![f64::NAN; n];
        f(kind, &mut out).expect("block");
        out
    }
    use marker_kinematics as mk;

    let m = state(MarkerKind::GroundPoint);
    let (p, q, v) = (&m.p[..], &m.q[..], &m.v[..]);
    same!(
        mk::position(0, p, q),
        mk::ground_point::position(arr(p)),
        "ground_point position"
    );
    same!(
        mk::velocity(0, p, q, v),
        mk::ground_point::velocity(arr(p)),
        "ground_point velocity"
    );
    same!(
        mk::rotation(0, p, q),
        mk::ground_point::rotation(arr(p)),
        "ground_point rotation"
    );
    same!(
        mk::angular_velocity(0, p, q, v),
        mk::ground_point::angular_velocity(arr(p)),
        "ground_point angular_velocity"
    );

    /// `$m` names the marker state (bound here); `[$($pa)*]` is `arr(&$m.p),` for kinds with
    /// parameters and empty otherwise.
    macro_rules! with_coordinates {
        ($m:ident, $module:ident, $kind:expr, $n:expr, [$($pa:tt)*]) => {{
            let kind: MarkerKind = $kind;
            let k = kind.index();
            let $m = state(kind);
            let (p, q, v) = (&$m.p[..], &$m.q[..], &$m.v[..]);
            let name = stringify!($module);
            same!(
                mk::position(k, p, q),
                mk::$module::position($($pa)* arr(&$m.q)),
                format!("{name} position")
            );
            same!(
                mk::velocity(k, p, q, v),
                mk::$module::velocity($($pa)* arr(&$m.q), arr(&$m.v)),
                format!("{name} velocity")
            );
            assert_eq!(
                block(k, 3 * $n, |k, out| mk::position_jacobian(k, p, q, out)),
                mk::$module::position_jacobian($($pa)* arr(&$m.q)).as_flattened().to_vec(),
                "{name} position_jacobian"
            );
            assert_eq!(
                block(k, $n * $n, |k, out| {
                    mk::position_jacobian_t_times_vector_q(k, p, q, &f, out)
                }),
                mk::$module::position_jacobian_t_times_vector_q($($pa)* arr(&$m.q), &f)
                    .as_flattened()
                    .to_vec(),
                "{name} position_jacobian_t_times_vector_q"
            );
        }};
    }

    with_coordinates!(
        m,
        mass_point_body,
        MarkerKind::MassPointBody,
        3,
        [arr(&m.p),]
    );
    with_coordinates!(m, rigid_ep_point, MarkerKind::RigidEpPoint, 7, [arr(&m.p),]);
    with_coordinates!(
        m,
        rigid_rxyz_point,
        MarkerKind::RigidRxyzPoint,
        6,
        [arr(&m.p),]
    );
    with_coordinates!(m, node_point, MarkerKind::NodePoint, 3, []);
    with_coordinates!(m, node_ep, MarkerKind::NodeEp, 7, []);
    with_coordinates!(m, node_rxyz, MarkerKind::NodeRxyz, 6, []);

    assert_eq!(mk::rigid_ep_point::COORDINATES, 7);
    assert_eq!(mk::rigid_ep_point::PARAMETERS, 3);
    assert_eq!(mk::ground_point::COORDINATES, 0);
    assert_eq!(mk::ground_point::PARAMETERS, 15);
    assert_eq!(mk::node_rxyz::COORDINATES, 6);
    assert_eq!(mk::node_rxyz::PARAMETERS, 0);
}

// ------------------------------------------------------------------------------------------------
// 3: the slice interface against the fixed-size functions, and wrong slice lengths.

/// Both Jacobian blocks, row-major: `(jac0, jac1)`.
type JacobianPair = (Vec<f64>, Vec<f64>);

/// A pairing's fixed-size functions behind one signature.
struct Fixed {
    position: fn(&MarkerState, &MarkerState) -> [f64; 3],
    velocity: fn(&MarkerState, &MarkerState) -> [f64; 3],
    jacobian: fn(&MarkerState, &MarkerState) -> JacobianPair,
}

fn arr<const N: usize>(s: &[f64]) -> &[f64; N] {
    s.try_into().expect("slice length")
}

/// Normalises a pairing's Jacobian return value (one block, or a pair) to `(jac0, jac1)`.
trait Blocks {
    fn split(self, m0_has_coordinates: bool) -> JacobianPair;
}

impl<const N: usize> Blocks for [[f64; N]; 3] {
    fn split(self, m0_has_coordinates: bool) -> JacobianPair {
        let flat = self.as_flattened().to_vec();
        if m0_has_coordinates {
            (flat, vec![])
        } else {
            (vec![], flat)
        }
    }
}

impl<const A: usize, const B: usize> Blocks for ([[f64; A]; 3], [[f64; B]; 3]) {
    fn split(self, _: bool) -> JacobianPair {
        (
            self.0.as_flattened().to_vec(),
            self.1.as_flattened().to_vec(),
        )
    }
}

/// Builds a call of a fixed-size kernel: per marker, its class (`G` ground: parameters only;
/// `PQ` body: parameters and coordinates; `Q` node: coordinates only), the level (`pos`, `vel`,
/// `jac`) and the marker state; velocities are passed at `vel` only.
macro_rules! call {
    ($f:path; [$($acc:tt)*];) => { $f($($acc)*) };
    ($f:path; [$($acc:tt)*]; G $lvl:ident $m:ident; $($rest:tt)*) => {
        call!($f; [$($acc)* arr(&$m.p),]; $($rest)*)
    };
    ($f:path; [$($acc:tt)*]; PQ vel $m:ident; $($rest:tt)*) => {
        call!($f; [$($acc)* arr(&$m.p), arr(&$m.q), arr(&$m.v),]; $($rest)*)
    };
    ($f:path; [$($acc:tt)*]; PQ $lvl:ident $m:ident; $($rest:tt)*) => {
        call!($f; [$($acc)* arr(&$m.p), arr(&$m.q),]; $($rest)*)
    };
    ($f:path; [$($acc:tt)*]; Q vel $m:ident; $($rest:tt)*) => {
        call!($f; [$($acc)* arr(&$m.q), arr(&$m.v),]; $($rest)*)
    };
    ($f:path; [$($acc:tt)*]; Q $lvl:ident $m:ident; $($rest:tt)*) => {
        call!($f; [$($acc)* arr(&$m.q),]; $($rest)*)
    };
}

macro_rules! fixed {
    ($m:ident, $c0:ident, $c1:ident) => {
        (
            stringify!($m),
            Fixed {
                position: |a: &MarkerState, b: &MarkerState| {
                    call!(spherical::$m::position_residual; []; $c0 pos a; $c1 pos b;)
                },
                velocity: |a: &MarkerState, b: &MarkerState| {
                    call!(spherical::$m::velocity_residual; []; $c0 vel a; $c1 vel b;)
                },
                jacobian: |a: &MarkerState, b: &MarkerState| {
                    Blocks::split(
                        call!(spherical::$m::jacobian; []; $c0 jac a; $c1 jac b;),
                        !a.q.is_empty(),
                    )
                },
            },
        )
    };
}

fn fixed_kernels() -> Vec<(&'static str, Fixed)> {
    vec![
        fixed!(ground_point_to_mass_point_body, G, PQ),
        fixed!(ground_point_to_rigid_ep_point, G, PQ),
        fixed!(ground_point_to_rigid_rxyz_point, G, PQ),
        fixed!(ground_point_to_node_point, G, Q),
        fixed!(ground_point_to_node_ep, G, Q),
        fixed!(ground_point_to_node_rxyz, G, Q),
        fixed!(mass_point_body_to_ground_point, PQ, G),
        fixed!(mass_point_body_to_mass_point_body, PQ, PQ),
        fixed!(mass_point_body_to_rigid_ep_point, PQ, PQ),
        fixed!(mass_point_body_to_rigid_rxyz_point, PQ, PQ),
        fixed!(mass_point_body_to_node_point, PQ, Q),
        fixed!(mass_point_body_to_node_ep, PQ, Q),
        fixed!(mass_point_body_to_node_rxyz, PQ, Q),
        fixed!(rigid_ep_point_to_ground_point, PQ, G),
        fixed!(rigid_ep_point_to_mass_point_body, PQ, PQ),
        fixed!(rigid_ep_point_to_rigid_ep_point, PQ, PQ),
        fixed!(rigid_ep_point_to_rigid_rxyz_point, PQ, PQ),
        fixed!(rigid_ep_point_to_node_point, PQ, Q),
        fixed!(rigid_ep_point_to_node_ep, PQ, Q),
        fixed!(rigid_ep_point_to_node_rxyz, PQ, Q),
        fixed!(rigid_rxyz_point_to_ground_point, PQ, G),
        fixed!(rigid_rxyz_point_to_mass_point_body, PQ, PQ),
        fixed!(rigid_rxyz_point_to_rigid_ep_point, PQ, PQ),
        fixed!(rigid_rxyz_point_to_rigid_rxyz_point, PQ, PQ),
        fixed!(rigid_rxyz_point_to_node_point, PQ, Q),
        fixed!(rigid_rxyz_point_to_node_ep, PQ, Q),
        fixed!(rigid_rxyz_point_to_node_rxyz, PQ, Q),
        fixed!(node_point_to_ground_point, Q, G),
        fixed!(node_point_to_mass_point_body, Q, PQ),
        fixed!(node_point_to_rigid_ep_point, Q, PQ),
        fixed!(node_point_to_rigid_rxyz_point, Q, PQ),
        fixed!(node_point_to_node_point, Q, Q),
        fixed!(node_point_to_node_ep, Q, Q),
        fixed!(node_point_to_node_rxyz, Q, Q),
        fixed!(node_ep_to_ground_point, Q, G),
        fixed!(node_ep_to_mass_point_body, Q, PQ),
        fixed!(node_ep_to_rigid_ep_point, Q, PQ),
        fixed!(node_ep_to_rigid_rxyz_point, Q, PQ),
        fixed!(node_ep_to_node_point, Q, Q),
        fixed!(node_ep_to_node_ep, Q, Q),
        fixed!(node_ep_to_node_rxyz, Q, Q),
        fixed!(node_rxyz_to_ground_point, Q, G),
        fixed!(node_rxyz_to_mass_point_body, Q, PQ),
        fixed!(node_rxyz_to_rigid_ep_point, Q, PQ),
        fixed!(node_rxyz_to_rigid_rxyz_point, Q, PQ),
        fixed!(node_rxyz_to_node_point, Q, Q),
        fixed!(node_rxyz_to_node_ep, Q, Q),
        fixed!(node_rxyz_to_node_rxyz, Q, Q),
    ]
}

fn snake(kind: MarkerKind) -> &'static str {
    match kind {
        MarkerKind::GroundPoint => "ground_point",
        MarkerKind::MassPointBody => "mass_point_body",
        MarkerKind::RigidEpPoint => "rigid_ep_point",
        MarkerKind::RigidRxyzPoint => "rigid_rxyz_point",
        MarkerKind::NodePoint => "node_point",
        MarkerKind::NodeEp => "node_ep",
        MarkerKind::NodeRxyz => "node_rxyz",
    }
}

/// The slice-based table returns exactly what the fixed-size functions return (all 48 pairings).
#[test]
fn slice_kernels_agree_exactly_with_fixed_size_functions() {
    let fixed = fixed_kernels();
    assert_eq!(fixed.len(), 48);
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig {
        cases: 16,
        ..config()
    });
    runner
        .run(&pools(), |pools| {
            let markers: Vec<MarkerState> = (0..14)
                .map(|i| marker_state(KINDS[i % 7], &pools[i], i % 2 == 0))
                .collect();
            for (k0, k1, kernel) in all_pairings() {
                let module = format!("{}_to_{}", snake(k0), snake(k1));
                let (_, f) = fixed
                    .iter()
                    .find(|(name, _)| *name == module)
                    .unwrap_or_else(|| panic!("no fixed-size functions listed for {module}"));
                let (m0, m1) = (&markers[k0.index()], &markers[7 + k1.index()]);
                let e = evaluate(&kernel, m0, m1);
                assert_eq!(
                    e.position,
                    (f.position)(m0, m1),
                    "{module}: position_residual_slices vs position_residual"
                );
                assert_eq!(
                    e.velocity,
                    (f.velocity)(m0, m1),
                    "{module}: velocity_residual_slices vs velocity_residual"
                );
                let (j0, j1) = (f.jacobian)(m0, m1);
                assert_eq!(e.jac0, j0, "{module}: jacobian_slices block 0 vs jacobian");
                assert_eq!(e.jac1, j1, "{module}: jacobian_slices block 1 vs jacobian");
            }
            Ok(())
        })
        .expect("slice kernels");
}

/// Which slice of a call to mis-size.
#[derive(Clone, Copy, Debug)]
enum Slice {
    Parameters(usize),
    Coordinates(usize),
    Velocities(usize),
    Jacobian(usize),
}

fn resized(s: &[f64], len: usize) -> Vec<f64> {
    (0..len)
        .map(|i| s.get(i).copied().unwrap_or(0.25))
        .collect()
}

/// Calls `kernel`'s three functions with `slice` resized to `len` (everything else correct) and
/// returns, per function, whether it returned `Some`, and asserts nothing was written on `None`.
fn call_resized(
    kernel: &&'static Pairing,
    m: [&MarkerState; 2],
    slice: Slice,
    len: usize,
) -> [Option<()>; 3] {
    let name = kernel_name(kernel);
    let mut s = [m[0].clone(), m[1].clone()];
    let (mut jl0, mut jl1) = (3 * m[0].q.len(), 3 * m[1].q.len());
    match slice {
        Slice::Parameters(i) => s[i].p = resized(&s[i].p, len),
        Slice::Coordinates(i) => s[i].q = resized(&s[i].q, len),
        Slice::Velocities(i) => s[i].v = resized(&s[i].v, len),
        Slice::Jacobian(0) => jl0 = len,
        Slice::Jacobian(_) => jl1 = len,
    }
    let sentinel = -7.5;
    let mut pos = [sentinel; 3];
    let mut vel = [sentinel; 3];
    let mut j0 = vec![sentinel; jl0];
    let mut j1 = vec![sentinel; jl1];
    let rp = (kernel.position_residual)(&[], s[0].args(), s[1].args(), &mut pos);
    let rv = (kernel.velocity_residual)(&[], s[0].args(), s[1].args(), &mut vel);
    let rj = (kernel.jacobian)(&[], s[0].args(), s[1].args(), &mut j0, &mut j1);
    let what = || format!("{name}: {slice:?} resized to {len}");
    if rp.is_none() {
        assert_eq!(
            pos,
            [sentinel; 3],
            "{}: position_residual wrote on None",
            what()
        );
    }
    if rv.is_none() {
        assert_eq!(
            vel,
            [sentinel; 3],
            "{}: velocity_residual wrote on None",
            what()
        );
    }
    if rj.is_none() {
        assert!(
            j0.iter().chain(&j1).all(|&x| x == sentinel),
            "{}: jacobian wrote on None",
            what()
        );
    }
    [rp, rv, rj]
}

/// Every slice a function reads, with a non-zero expected length, mis-sized by ±1: `None`, and
/// nothing written (all 48 pairings).
#[test]
fn slice_kernels_reject_wrong_lengths() {
    let r: Vec<f64> = (0..POOL).map(|i| ((i as f64) * 0.61 + 0.2).cos()).collect();
    for (k0, k1, kernel) in all_pairings() {
        let name = kernel_name(&kernel);
        let m0 = marker_state(k0, &r, true);
        let m1 = marker_state(k1, &r, true);
        for i in 0..2 {
            let m = [&m0, &m1][i];
            // (slice, expected length, read by [position, velocity, jacobian])
            let cases = [
                (Slice::Parameters(i), m.p.len(), [true, true, true]),
                (Slice::Coordinates(i), m.q.len(), [true, true, true]),
                (Slice::Velocities(i), m.v.len(), [false, true, false]),
                (Slice::Jacobian(i), 3 * m.q.len(), [false, false, true]),
            ];
            for (slice, len, read) in cases {
                if len == 0 {
                    continue;
                }
                for wrong in [len - 1, len + 1] {
                    let got = call_resized(&kernel, [&m0, &m1], slice, wrong);
                    for (f, fname) in ["position_residual", "velocity_residual", "jacobian"]
                        .iter()
                        .enumerate()
                    {
                        if read[f] {
                            assert!(
                                got[f].is_none(),
                                "{name}: {fname} accepted {slice:?} of length {wrong} (expected {len})"
                            );
                        }
                    }
                }
            }
            // The jacobian output of a marker without coordinates must stay empty.
            if m.q.is_empty() {
                let got = call_resized(&kernel, [&m0, &m1], Slice::Jacobian(i), 3);
                assert!(
                    got[2].is_none(),
                    "{name}: jacobian accepted a non-empty block for marker {i} (no coordinates)"
                );
            }
        }
    }
}

/// Slices whose expected length is 0 (ground coordinates and velocities, node-marker parameters)
/// given non-empty: `None` ("every function returns `None` … if a slice has the wrong length").
#[test]
fn slice_kernels_reject_non_empty_slices_where_none_are_expected() {
    let r: Vec<f64> = (0..POOL).map(|i| ((i as f64) * 0.61 + 0.2).cos()).collect();
    let mut accepted = Vec::new();
    for (k0, k1, kernel) in all_pairings() {
        let name = kernel_name(&kernel);
        let m0 = marker_state(k0, &r, true);
        let m1 = marker_state(k1, &r, true);
        for i in 0..2 {
            let m = [&m0, &m1][i];
            let cases = [
                (Slice::Parameters(i), m.p.len()),
                (Slice::Coordinates(i), m.q.len()),
                (Slice::Velocities(i), m.v.len()),
            ];
            for (slice, len) in cases {
                if len != 0 {
                    continue;
                }
                let got = call_resized(&kernel, [&m0, &m1], slice, 2);
                let reads = match slice {
                    Slice::Velocities(_) => vec![1],
                    _ => vec![0, 1, 2],
                };
                for f in reads {
                    if got[f].is_some() {
                        accepted.push(format!(
                            "{name}: {} accepted {slice:?} of length 2 (expected 0)",
                            ["position_residual", "velocity_residual", "jacobian"][f]
                        ));
                    }
                }
            }
        }
    }
    assert!(
        accepted.is_empty(),
        "{} wrong-length slices accepted, e.g.\n{}",
        accepted.len(),
        accepted.join("\n")
    );
}

/// The same for the `marker_kinematics` dispatchers, whose documentation says "`None` if … a
/// slice has the wrong length" (regression: non-empty parameters of node kinds and non-empty
/// coordinates or velocities of ground used to be accepted and ignored).
#[test]
fn marker_dispatch_rejects_non_empty_slices_where_none_are_expected() {
    let r: Vec<f64> = (0..POOL).map(|i| ((i as f64) * 0.61 + 0.2).cos()).collect();
    let mut accepted: Vec<String> = Vec::new();
    let two = [0.5, -0.5];
    for kind in KINDS {
        let k = kind.index();
        let m = marker_state(kind, &r, true);
        let name = format!("marker_kinematics {}", kind.name());
        if m.p.is_empty() {
            if marker_kinematics::position(k, &two, &m.q).is_some() {
                accepted.push(format!(
                    "{name}: position accepted parameters of length 2 (expected 0)"
                ));
            }
            let mut out = vec![0.0; 3 * m.q.len()];
            if marker_kinematics::position_jacobian(k, &two, &m.q, &mut out).is_some() {
                accepted.push(format!(
                    "{name}: position_jacobian accepted parameters of length 2 (expected 0)"
                ));
            }
        }
        if m.q.is_empty() {
            if marker_kinematics::position(k, &m.p, &two).is_some() {
                accepted.push(format!(
                    "{name}: position accepted coordinates of length 2 (expected 0)"
                ));
            }
            if marker_kinematics::velocity(k, &m.p, &m.q, &two).is_some() {
                accepted.push(format!(
                    "{name}: velocity accepted velocities of length 2 (expected 0)"
                ));
            }
        }
    }
    assert!(
        accepted.is_empty(),
        "{} wrong-length slices accepted:\n{}",
        accepted.len(),
        accepted.join("\n")
    );
}

/// The marker-kinematics dispatchers reject wrong lengths and unknown kinds.
#[test]
fn marker_dispatch_rejects_wrong_lengths() {
    let r: Vec<f64> = (0..POOL).map(|i| ((i as f64) * 0.43 - 0.1).sin()).collect();
    for kind in KINDS {
        let k = kind.index();
        let m = marker_state(kind, &r, true);
        let n = m.q.len();
        let name = kind.name();
        let (p, q, v) = (&m.p[..], &m.q[..], &m.v[..]);
        assert!(
            marker_kinematics::position(k, p, q).is_some(),
            "{name}: position"
        );
        if !p.is_empty() {
            let short = &p[..p.len() - 1];
            assert!(
                marker_kinematics::position(k, short, q).is_none(),
                "{name}: position accepted short parameters"
            );
        }
        if n > 0 {
            let short = &q[..n - 1];
            assert!(
                marker_kinematics::position(k, p, short).is_none(),
                "{name}: position accepted short coordinates"
            );
            assert!(
                marker_kinematics::velocity(k, p, q, &v[..n - 1]).is_none(),
                "{name}: velocity accepted short velocities"
            );
        }
        let mut too_long = vec![0.0; 3 * n + 1];
        assert!(
            marker_kinematics::position_jacobian(k, p, q, &mut too_long).is_none(),
            "{name}: position_jacobian accepted an output of length {}",
            3 * n + 1
        );
        let mut dq = vec![0.0; n * n + 1];
        assert!(
            marker_kinematics::position_jacobian_t_times_vector_q(k, p, q, &[1.0; 3], &mut dq)
                .is_none(),
            "{name}: position_jacobian_t_times_vector_q accepted an output of length {}",
            n * n + 1
        );
    }
    assert!(marker_kinematics::position(7, &[], &[]).is_none(), "kind 7");
}

// ------------------------------------------------------------------------------------------------
// The fused kernel: `position_residual_and_jacobian` computes the same expression trees as the two
// separate kernels, only sharing their common subexpressions, so it must return the same bits.

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 64,
        rng_seed: RngSeed::Fixed(7),
        ..ProptestConfig::default()
    })]

    #[test]
    fn fused_residual_and_jacobian_are_the_separate_kernels_bit_for_bit(
        v in proptest::collection::vec(-2.0f64..2.0, 40)
    ) {
        use spherical::{ground_point_to_rigid_ep_point as ge, node_point_to_node_ep as pn,
            rigid_ep_point_to_rigid_ep_point as ee};
        let b0: [f64; 3] = v[0..3].try_into().unwrap();
        let q0: [f64; 7] = v[3..10].try_into().unwrap();
        let b1: [f64; 3] = v[10..13].try_into().unwrap();
        let q1: [f64; 7] = v[13..20].try_into().unwrap();
        let g: [f64; 15] = v[20..35].try_into().unwrap();
        let p: [f64; 3] = v[35..38].try_into().unwrap();
        let bits = |x: &[f64]| x.iter().map(|x| x.to_bits()).collect::<Vec<_>>();

        let (c, (j0, j1)) = ee::position_residual_and_jacobian(&b0, &q0, &b1, &q1);
        let (sj0, sj1) = ee::jacobian(&b0, &q0, &b1, &q1);
        prop_assert_eq!(bits(&c), bits(&ee::position_residual(&b0, &q0, &b1, &q1)));
        prop_assert_eq!(bits(j0.as_flattened()), bits(sj0.as_flattened()));
        prop_assert_eq!(bits(j1.as_flattened()), bits(sj1.as_flattened()));

        let (c, j1) = ge::position_residual_and_jacobian(&g, &b1, &q1);
        prop_assert_eq!(bits(&c), bits(&ge::position_residual(&g, &b1, &q1)));
        prop_assert_eq!(bits(j1.as_flattened()), bits(ge::jacobian(&g, &b1, &q1).as_flattened()));

        let (c, (j0, j1)) = pn::position_residual_and_jacobian(&p, &q1);
        let (sj0, sj1) = pn::jacobian(&p, &q1);
        prop_assert_eq!(bits(&c), bits(&pn::position_residual(&p, &q1)));
        prop_assert_eq!(bits(j0.as_flattened()), bits(sj0.as_flattened()));
        prop_assert_eq!(bits(j1.as_flattened()), bits(sj1.as_flattened()));
    }
}
