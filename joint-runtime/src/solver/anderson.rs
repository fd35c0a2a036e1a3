//! Anderson acceleration of the fast path's modified Newton iteration.
//!
//! With a kept Jacobian J₀ the iteration x ← x − J₀⁻¹r(x) is a fixed-point iteration whose
//! error contracts by E = I − J₀⁻¹J(x) per step: linearly, and on the chains with an error that
//! alternates between two modes (the Newton increments fall by 0.01, then 0.2, then 0.01 …).
//! Anderson's mixing of depth m (type II, as in Walker & Ni 2011) takes the combination of
//! the last m increments that the differences of the raw increments g_i = J₀⁻¹r(x_i) say
//! cancels most of the error: γ = argmin ‖g_k − Σ γ_i Δg_i‖, Δg_i = g_{i+1} − g_i, and applies
//! a_k = g_k − Σ γ_i (a_i + Δg_i), where a_i are the increments applied before
//! (x_{i+1} = x_i − a_i). For a linear residual this is GMRES(m) on J₀⁻¹J, which removes m
//! modes of E exactly. It costs m + 1 dot products per iteration, no residual and no solve.
//!
//! Far from the solution the secant information misleads (a pendulum driven to its minimum
//! step size diverged with it), so the mixing waits until the raw increments fall and refuses
//! coefficients above [`MAX_COEFFICIENT`].

use crate::linear::dot;

/// The mixing's history, kept as what the mixing reads: the differences Δg_i of the raw
/// increments and the combinations a_i + Δg_i it subtracts, each formed once, when g_{i+1}
/// arrives (one pass over the unknowns), in flat ring buffers of `depth` slots; and the last
/// raw and applied increments they are formed from. The mixing runs at every iteration (at
/// N = 1 it must cost a few tens of nanoseconds; at N = 1000 its vectors leave the cache), so
/// no difference is formed twice and nothing is copied but the two increments.
#[derive(Clone, Debug)]
pub(crate) struct Anderson {
    depth: usize,
    n: usize,
    /// The leading entries that the least-squares fit measures.
    measured: usize,
    /// Δg_i = g_{i+1} − g_i (`n` each), a ring of `depth` slots starting at `head`, `len` of
    /// them valid, oldest first.
    differences: Vec<f64>,
    /// a_i + Δg_i, in the same slots.
    combined: Vec<f64>,
    head: usize,
    len: usize,
    /// The last raw increment g_{k−1}, ‖g_{k−1}‖² over the measured entries, and the increment
    /// a_{k−1} applied after it; `None` after a reset.
    last_raw: Vec<f64>,
    last_raw_norm: Option<f64>,
    last_applied: Vec<f64>,
}

/// The deepest mixing [`Anderson::new`] accepts.
const MAX_DEPTH: usize = 4;

impl Anderson {
    /// Mixing of depth `depth` (at most [`MAX_DEPTH`]; 0 mixes nothing) for `n` unknowns, of
    /// which the first `measured` enter the least-squares fit.
    pub(crate) fn new(n: usize, measured: usize, depth: usize) -> Self {
        assert!(
            depth <= MAX_DEPTH && measured <= n,
            "Anderson depth {depth}, {measured} of {n}"
        );
        // no history at all without mixing (the exact mode's and dense systems')
        let last = if depth == 0 { 0 } else { n };
        Anderson {
            depth,
            n,
            measured,
            differences: vec![0.0; depth * n],
            combined: vec![0.0; depth * n],
            head: 0,
            len: 0,
            last_raw: vec![0.0; last],
            last_raw_norm: None,
            last_applied: vec![0.0; last],
        }
    }

    /// Forget the history: a new step, or a new Jacobian (another fixed-point map).
    pub(crate) fn reset(&mut self) {
        self.len = 0;
        self.last_raw_norm = None;
    }

    /// The entries of the history's `i`-th difference (oldest first) in `differences` and
    /// `combined`.
    fn slot(&self, i: usize) -> std::ops::Range<usize> {
        // head, i < depth: one conditional subtraction (a division costs more than the rest
        // of the mixing at N = 1)
        let s = self.head + i;
        let s = if s >= self.depth { s - self.depth } else { s };
        s * self.n..(s + 1) * self.n
    }

    /// Replace the raw Newton increment `g` (x_new = x − g) by the mixed one; whether it
    /// changed `g`.
    #[allow(clippy::needless_range_loop)] // a small matrix's indices read best as indices
    pub(crate) fn mix(&mut self, g: &mut [f64]) -> bool {
        if self.depth == 0 {
            return false;
        }
        let m = self.measured;
        let norm = dot(&g[..m], &g[..m]);
        let last_norm = self.last_raw_norm;
        if last_norm.is_some() {
            // Δg_{k−1} = g_k − g_{k−1} and a_{k−1} + Δg_{k−1} into the ring (the oldest
            // dropped when it is full); g_k becomes the last raw increment
            if self.len == self.depth {
                self.head = if self.head + 1 == self.depth {
                    0
                } else {
                    self.head + 1
                };
                self.len -= 1;
            }
            let at = self.slot(self.len);
            self.len += 1;
            let (d, c) = (&mut self.differences[at.clone()], &mut self.combined[at]);
            let history = d.iter_mut().zip(c.iter_mut());
            let last = self.last_raw.iter_mut().zip(&self.last_applied);
            for (((d, c), (raw, a)), g) in history.zip(last).zip(g.iter()) {
                *d = g - *raw;
                *c = a + *d;
                *raw = *g;
            }
        } else {
            self.last_raw.copy_from_slice(g);
        }
        self.last_raw_norm = Some(norm);
        // only while the kept Jacobian contracts (the raw increments fall)
        let contracting = last_norm.is_some_and(|last| norm < last);
        let mut mixed = false;
        if contracting {
            let k = self.len;
            // γ from the normal equations of min ‖g_k − Σ γ_i Δg_i‖
            let mut gram = [[0.0f64; MAX_DEPTH]; MAX_DEPTH];
            let mut rhs = [0.0f64; MAX_DEPTH];
            let difference = |i: usize| &self.differences[self.slot(i)][..m];
            for i in 0..k {
                for j in 0..=i {
                    let v = dot(difference(i), difference(j));
                    gram[i][j] = v;
                    gram[j][i] = v;
                }
                rhs[i] = dot(difference(i), &g[..m]);
            }
            let gamma = solve_small(&mut gram, &mut rhs, k)
                .filter(|c| c[..k].iter().all(|c| c.abs() <= MAX_COEFFICIENT));
            if let Some(gamma) = gamma {
                mixed = true;
                for i in 0..k {
                    let c = gamma[i];
                    for (g, s) in g.iter_mut().zip(&self.combined[self.slot(i)]) {
                        *g -= c * s;
                    }
                }
            }
        }
        self.last_applied.copy_from_slice(g);
        mixed
    }
}

/// The largest |γ_i| the mixing accepts.
const MAX_COEFFICIENT: f64 = 4.0;

/// Solve the h × h (h ≤ [`MAX_DEPTH`]) symmetric system by Gaussian elimination; `None` if it is
/// numerically singular (the differences nearly dependent: no mixing then).
#[allow(clippy::needless_range_loop)] // as above
fn solve_small(
    a: &mut [[f64; MAX_DEPTH]; MAX_DEPTH],
    b: &mut [f64; MAX_DEPTH],
    h: usize,
) -> Option<[f64; MAX_DEPTH]> {
    let scale = (0..h).map(|i| a[i][i]).fold(0.0f64, f64::max);
    if h == 0 || scale <= 0.0 || !scale.is_finite() {
        return None;
    }
    for k in 0..h {
        if a[k][k].abs() <= 1e-12 * scale {
            return None;
        }
        for i in k + 1..h {
            let f = a[i][k] / a[k][k];
            for j in k..h {
                a[i][j] -= f * a[k][j];
            }
            b[i] -= f * b[k];
        }
    }
    let mut x = [0.0; MAX_DEPTH];
    for k in (0..h).rev() {
        let mut s = b[k];
        for j in k + 1..h {
            s -= a[k][j] * x[j];
        }
        x[k] = s / a[k][k];
    }
    Some(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Modified Newton on the linear residual r(x) = (I − E)·x with J₀ = I: the raw increment
    /// is g = r(x), and the error contracts by E per plain iteration. Returns |x| after
    /// `iterations` (the solution is 0) and how many increments were mixed.
    fn iterate(e: [[f64; 2]; 2], depth: usize, iterations: usize) -> (f64, usize) {
        let mut mixing = Anderson::new(2, 2, depth);
        let mut x = [1.0, 0.5];
        let mut mixed = 0;
        for _ in 0..iterations {
            let ex = [
                e[0][0] * x[0] + e[0][1] * x[1],
                e[1][0] * x[0] + e[1][1] * x[1],
            ];
            let mut g = [x[0] - ex[0], x[1] - ex[1]];
            mixed += usize::from(mixing.mix(&mut g));
            x = [x[0] - g[0], x[1] - g[1]];
        }
        (x[0].hypot(x[1]), mixed)
    }

    /// 0.6 times a rotation by 2 rad: complex eigenvalues, an error that turns as it shrinks.
    const TURNING: [[f64; 2]; 2] = [
        [
            0.6 * -0.416_146_836_547_142_4,
            -0.6 * 0.909_297_426_825_681_7,
        ],
        [
            0.6 * 0.909_297_426_825_681_7,
            0.6 * -0.416_146_836_547_142_4,
        ],
    ];

    #[test]
    fn depth_two_removes_a_two_dimensional_error_in_three_iterations() {
        let start = 1.0f64.hypot(0.5);
        // plain modified Newton: 0.6 per iteration
        let (plain, none) = iterate(TURNING, 0, 3);
        assert!((plain / start - 0.216).abs() < 1e-12, "{plain}");
        assert_eq!(none, 0);
        // the second and third increments are mixed; the third is the secant step of a
        // two-dimensional linear map: exact
        let (mixed, count) = iterate(TURNING, 2, 3);
        assert!(mixed < 1e-13 * start, "{mixed}");
        assert_eq!(count, 2);
    }

    #[test]
    fn growing_increments_are_not_mixed() {
        // E = 1.5·rotation: the raw increments grow, so the mixing must leave them alone
        let growing = TURNING.map(|row| row.map(|v| v * 2.5));
        let (plain, _) = iterate(growing, 0, 4);
        assert_eq!(iterate(growing, 2, 4), (plain, 0));
    }
}
