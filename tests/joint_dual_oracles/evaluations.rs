//! Oracle evaluations: residuals, their time derivative and the Jacobians by num-dual.

use super::*;

// ------------------------------------------------------------------------------------------------
// Oracle evaluations.

/// The oracle's rows at both markers' states, with the coordinates and velocities given as
/// `D` numbers (`q[c]`, `qt[c]` over the pairing's combined coordinates, m0's first).
pub(super) fn oracle_rows<D: Num>(
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

pub(super) fn combined(m: [&MarkerState; 2]) -> (Vec<f64>, Vec<f64>) {
    (
        m[0].q.iter().chain(&m[1].q).copied().collect(),
        m[0].v.iter().chain(&m[1].v).copied().collect(),
    )
}

/// `rows × n × n` numbers, `(r, c, j)` row-major.
pub(super) struct Tensor {
    pub(super) n: usize,
    pub(super) d: Vec<f64>,
}

impl Tensor {
    pub(super) fn new(rows: usize, n: usize, fill: f64) -> Self {
        Tensor {
            n,
            d: vec![fill; rows * n * n],
        }
    }

    pub(super) fn at(&self, r: usize, c: usize, j: usize) -> f64 {
        self.d[(r * self.n + c) * self.n + j]
    }

    pub(super) fn set(&mut self, r: usize, c: usize, j: usize, x: f64) {
        self.d[(r * self.n + c) * self.n + j] = x;
    }
}

/// The velocity level `g_v`, and the derivatives of C's rows `g_J` (`C = ∂g_J/∂q̇`): `C`
/// (row-major `rows × n`, `C[r, c] = ∂g_J,r/∂q̇_c`) and `T(r, c, j) = ∂²g_J,r/∂q_j∂q̇_c`, by
/// hyper-dual numbers (eps1 seeds q_j, eps2 seeds q̇_c).
pub(super) struct VelocityOracle {
    pub(super) g_v: Vec<f64>,
    pub(super) g_j: Vec<f64>,
    pub(super) c: Vec<f64>,
    pub(super) t: Tensor,
}

pub(super) fn velocity_oracle(k: &Pairing, m: [&MarkerState; 2]) -> VelocityOracle {
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
pub(super) fn oracle_position(k: &Pairing, m: [&MarkerState; 2]) -> Vec<f64> {
    let (q, v) = combined(m);
    oracle_rows::<f64>(k, m, &q, &v).0
}

/// `∂g/∂q·w`: the position level's derivative along `w` (dual numbers).
pub(super) fn oracle_position_along(k: &Pairing, m: [&MarkerState; 2], w: &[f64]) -> Vec<f64> {
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
pub(super) fn oracle_position_hessian(
    k: &Pairing,
    m: [&MarkerState; 2],
    j: usize,
    c: usize,
) -> Vec<f64> {
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
