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
//! modes of E exactly. It costs a few dot products per iteration (m(m + 1)/2 + m + 2 while it
//! mixes), no residual and no solve.
//!
//! Far from the solution the secant information misleads (a pendulum driven to its minimum
//! step size diverged with it), so the mixing waits until the raw increments fall and refuses
//! coefficients above [`MAX_COEFFICIENT`].
//!
//! **The norm of the fit.** An increment holds two kinds of unknowns: the coordinates (metres,
//! radians, Euler parameters) and the rest (the multipliers, in newtons scaled by the system's
//! row scaling, and first-order coordinates), orders of magnitude apart. A fit in the plain norm
//! sees only the larger kind; one over the coordinates alone (as the mixing first did) leaves
//! the multipliers' error to the kept Jacobian, which removes it slowly. The fit therefore
//! weighs each kind by the current raw increment's own size in it,
//! ‖x‖² = ‖x_q‖²/‖g_q‖² + ‖x_rest‖²/‖g_rest‖²: both kinds count as much, whatever their units
//! (`the_fit_is_independent_of_the_units_of_the_multipliers`). Measured against the fit over
//! the coordinates alone (iterations / Jacobians in 1000 steps, `jointsim run FILE --solver
//! fast`): chain N = 10 2586 / 117 → 2496 / 121, N = 100 2706 / 133 → 2661 / 129, N = 1000
//! 3471 / 160 → 3245 / 153, perf3DRigidBodies 3745 / 142 → 3676 / 149; alternated (best of
//! 3–7, solver time) 1.02×, 1.01–1.09×, 1.12× and 0.95× (perf3DRigidBodies' extra
//! Jacobians and its sums over 2400 multipliers beside 2800 coordinates). Weighing the rest by
//! a tenth or a hundredth of that gained less at N = 1000 (3341, 3441 iterations); a fixed
//! weight in the plain units helped the chains and cost perf3DRigidBodies 10 % more iterations
//! and 40–50 % more Jacobians (w = 0.1 and 1), and a fit of the residuals instead of the
//! increments (GMRES's norm) cost iterations everywhere (chain N = 1000 3931).

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
    /// The leading entries (the coordinates), which the least-squares fit weighs apart from the
    /// rest.
    coordinates: usize,
    /// Δg_i = g_{i+1} − g_i (`n` each), a ring of `depth` slots starting at `head`, `len` of
    /// them valid, oldest first.
    differences: Vec<f64>,
    /// a_i + Δg_i, in the same slots.
    combined: Vec<f64>,
    head: usize,
    len: usize,
    /// The last raw increment g_{k−1}, ‖g_{k−1}‖² over the coordinates, and the increment
    /// a_{k−1} applied after it; `None` after a reset.
    last_raw: Vec<f64>,
    last_raw_norm: Option<f64>,
    last_applied: Vec<f64>,
}

/// The deepest mixing [`Anderson::new`] accepts.
const MAX_DEPTH: usize = 4;

impl Anderson {
    /// Mixing of depth `depth` (at most [`MAX_DEPTH`]; 0 mixes nothing) for `n` unknowns, of
    /// which the first `coordinates` are the coordinates.
    pub(crate) fn new(n: usize, coordinates: usize, depth: usize) -> Self {
        assert!(
            depth <= MAX_DEPTH && coordinates <= n,
            "Anderson depth {depth}, {coordinates} of {n}"
        );
        // no history at all without mixing (the exact mode's and dense systems')
        let last = if depth == 0 { 0 } else { n };
        Anderson {
            depth,
            n,
            coordinates,
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
        let m = self.coordinates;
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
            // each kind of unknown weighed by the raw increment's size in it (the module's
            // documentation); without multipliers (or with none moving) the coordinates alone
            let rest_norm = dot(&g[m..], &g[m..]);
            let (wq, wr) = if rest_norm > 0.0 && rest_norm.is_finite() && norm > 0.0 {
                (1.0 / norm, 1.0 / rest_norm)
            } else {
                (1.0, 0.0)
            };
            let weighted = |a: &[f64], b: &[f64]| {
                let coordinates = wq * dot(&a[..m], &b[..m]);
                if wr == 0.0 {
                    coordinates
                } else {
                    coordinates + wr * dot(&a[m..], &b[m..])
                }
            };
            // γ from the normal equations of min ‖g_k − Σ γ_i Δg_i‖ in that norm
            let mut gram = [[0.0f64; MAX_DEPTH]; MAX_DEPTH];
            let mut rhs = [0.0f64; MAX_DEPTH];
            let difference = |i: usize| &self.differences[self.slot(i)][..];
            for i in 0..k {
                for j in 0..=i {
                    let v = weighted(difference(i), difference(j));
                    gram[i][j] = v;
                    gram[j][i] = v;
                }
                rhs[i] = weighted(difference(i), g);
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
        let (x, mixed) = run(e, 2, depth, iterations, [1.0, 0.5]);
        (x[0].hypot(x[1]), mixed)
    }

    /// As [`iterate`], with the first `coordinates` of the two unknowns coordinates (the other
    /// a multiplier) and the start `x`: the last iterate and how many increments were mixed.
    fn run(
        e: [[f64; 2]; 2],
        coordinates: usize,
        depth: usize,
        iterations: usize,
        mut x: [f64; 2],
    ) -> ([f64; 2], usize) {
        let mut mixing = Anderson::new(2, coordinates, depth);
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
        (x, mixed)
    }

    /// A coordinate and a multiplier whose error contracts slowly (0.8 per plain iteration)
    /// and feeds the coordinate's: the fit weighs both kinds, so depth 2 removes this
    /// two-dimensional error in three iterations, as it does with coordinates alone. (A fit
    /// over the coordinate alone mixes one of the two increments and leaves [0.086, 0.224],
    /// the plain iteration 0.8³ of the multiplier's error.)
    #[test]
    fn a_slowly_contracting_multiplier_is_mixed_away() {
        let e = [[0.3, 0.2], [0.0, 0.8]];
        let (plain, _) = run(e, 1, 0, 3, [1.0, 0.5]);
        assert!(plain[1] > 0.25, "plain iteration: {plain:?}");
        let (x, mixed) = run(e, 1, 2, 3, [1.0, 0.5]);
        assert!(x[0].hypot(x[1]) < 1e-12, "{x:?}");
        assert_eq!(mixed, 2);
    }

    /// The multiplier in units a million times smaller (x₁' = 10⁶·x₁, E' = S·E·S⁻¹) gives the
    /// same iterates, scaled: each kind of unknown is weighed by its own size, not its units.
    #[test]
    fn the_fit_is_independent_of_the_units_of_the_multipliers() {
        let e = [[0.2, 0.5], [0.1, 0.7]];
        let scale = 1e6;
        let scaled = [[e[0][0], e[0][1] / scale], [e[1][0] * scale, e[1][1]]];
        // one mixed increment: the same iterate
        let (x, mixed) = run(e, 1, 2, 2, [1.0, 0.5]);
        let (y, mixed_scaled) = run(scaled, 1, 2, 2, [1.0, 0.5 * scale]);
        assert_eq!((mixed, mixed_scaled), (1, 1));
        assert!((y[0] - x[0]).abs() <= 1e-12 * x[0].abs(), "{x:?} {y:?}");
        assert!(
            (y[1] / scale - x[1]).abs() <= 1e-12 * x[1].abs(),
            "{x:?} {y:?}"
        );
        // two: both exact, as a two-dimensional linear map allows
        let (x, _) = run(e, 1, 2, 3, [1.0, 0.5]);
        let (y, _) = run(scaled, 1, 2, 3, [1.0, 0.5 * scale]);
        assert!(
            x[0].hypot(x[1]) < 1e-13 && y[0].hypot(y[1] / scale) < 1e-13,
            "{x:?} {y:?}"
        );
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
