//! Dense LU with full pivoting, as Eigen's `FullPivLU` computes and solves it: what Exudyn uses
//! with `linearSolverType = EigenDense` and `linearSolverSettings.ignoreSingularJacobian`, so
//! that a singular iteration matrix (redundant constraints) still gives an increment.
//!
//! Factorization: at step k the largest |entry| of the remaining corner is the pivot (the first
//! one in column-major order on ties, as Eigen's `maxCoeff` visits a column-major matrix); its row
//! and column are swapped to k. A zero corner ends it: the pivots so far are the nonzero ones.
//! The rank counts the pivots above `threshold·|largest pivot|`, the threshold being
//! `pivotThreshold` if set, else Eigen's default ε·n.
//!
//! Solve: P·A·Q = L·U; c = P·b, forward substitution with L, backward substitution with the
//! leading rank × rank block of U; x = Q·[c_1…c_rank, 0…0]: the components beyond the rank are
//! zero. For a consistent singular system that is one of its solutions; otherwise the system's
//! least inconsistent rows are dropped. Allocation-free after construction.

use super::dense_lu::{eliminate_below, forward_substitution};

#[derive(Clone, Debug, Default)]
pub struct FullPivLu {
    n: usize,
    /// Row-major factors (L below the diagonal with unit diagonal, U on and above it).
    lu: Vec<f64>,
    /// Row transposition of each step: rows k and `row_swaps[k]` were exchanged.
    row_swaps: Vec<usize>,
    /// Original column of each factor column.
    columns: Vec<usize>,
    /// `pivotThreshold` (0: Eigen's default ε·n).
    threshold: f64,
    rank: usize,
}

impl FullPivLu {
    pub fn new(n: usize, threshold: f64) -> Self {
        FullPivLu {
            n,
            lu: vec![0.0; n * n],
            row_swaps: (0..n).collect(),
            columns: (0..n).collect(),
            threshold,
            rank: 0,
        }
    }

    /// The rank found by the last factorization.
    #[cfg(test)]
    pub fn rank(&self) -> usize {
        self.rank
    }

    /// Factorize the row-major `matrix` (n × n). Never fails: a singular matrix gets a rank
    /// below n.
    pub fn factorize(&mut self, matrix: &[f64]) {
        let n = self.n;
        assert_eq!(matrix.len(), n * n, "matrix size");
        self.lu.copy_from_slice(matrix);
        for (i, c) in self.columns.iter_mut().enumerate() {
            *c = i;
        }
        for (i, r) in self.row_swaps.iter_mut().enumerate() {
            *r = i;
        }
        let a = &mut self.lu;
        let mut nonzero_pivots = n;
        let mut max_pivot = 0.0f64;
        for k in 0..n {
            // the corner's largest entry, the first in column-major order
            let (mut best, mut pr, mut pc) = (-1.0f64, k, k);
            for j in k..n {
                for i in k..n {
                    let v = a[i * n + j].abs();
                    if v > best {
                        (best, pr, pc) = (v, i, j);
                    }
                }
            }
            if best == 0.0 {
                nonzero_pivots = k;
                break;
            }
            max_pivot = max_pivot.max(best);
            self.row_swaps[k] = pr;
            if pr != k {
                for j in 0..n {
                    a.swap(k * n + j, pr * n + j);
                }
            }
            if pc != k {
                for i in 0..n {
                    a.swap(i * n + k, i * n + pc);
                }
                self.columns.swap(k, pc);
            }
            eliminate_below(a, n, k);
        }
        let threshold = if self.threshold == 0.0 {
            f64::EPSILON * n as f64
        } else {
            self.threshold
        };
        let floor = max_pivot.abs() * threshold;
        self.rank = (0..nonzero_pivots)
            .filter(|&i| self.lu[i * n + i].abs() > floor)
            .count();
    }

    /// Solve `A x = b` in place (`x` holds b on entry), using `scratch` (length n).
    pub fn solve_in_place(&self, x: &mut [f64], scratch: &mut [f64]) {
        let n = self.n;
        let c = &mut scratch[..n];
        c.copy_from_slice(&x[..n]);
        for (k, &r) in self.row_swaps.iter().enumerate() {
            c.swap(k, r);
        }
        let a = &self.lu;
        forward_substitution(a, n, c);
        let rank = self.rank;
        for i in (0..rank).rev() {
            let row = &a[i * n..(i + 1) * n];
            let mut s = c[i];
            for (u, y) in row[i + 1..rank].iter().zip(&c[i + 1..rank]) {
                s -= u * y;
            }
            c[i] = s / row[i];
        }
        for (i, &col) in self.columns.iter().enumerate() {
            x[col] = if i < rank { c[i] } else { 0.0 };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn multiply(a: &[f64], x: &[f64]) -> Vec<f64> {
        let n = x.len();
        (0..n)
            .map(|i| (0..n).map(|j| a[i * n + j] * x[j]).sum())
            .collect()
    }

    /// A regular system is solved to round-off, whatever the pivot order.
    #[test]
    fn regular_systems_are_solved() {
        let a = [
            2.0, -1.0, 0.5, 3.0, //
            0.1, 4.0, -2.0, 1.0, //
            -3.0, 0.2, 1.0, 0.0, //
            1.0, 1.0, 1.0, -5.0,
        ];
        let x_true = [1.0, -2.0, 0.5, 3.0];
        let b = multiply(&a, &x_true);
        let mut lu = FullPivLu::new(4, 0.0);
        lu.factorize(&a);
        assert_eq!(lu.rank(), 4);
        let mut x = b.clone();
        lu.solve_in_place(&mut x, &mut [0.0; 4]);
        for (x, t) in x.iter().zip(x_true) {
            assert!((x - t).abs() < 1e-14, "{x} vs {t}");
        }
    }

    /// A doubled equation (a redundant constraint): rank n − 1, and the solution of the
    /// consistent system satisfies every equation, with the free component 0.
    #[test]
    fn a_redundant_row_leaves_rank_deficiency_and_a_solution() {
        let a = [
            4.0, 1.0, 0.0, //
            1.0, 3.0, 1.0, //
            1.0, 3.0, 1.0,
        ];
        let b = [1.0, 2.0, 2.0];
        let mut lu = FullPivLu::new(3, 0.0);
        lu.factorize(&a);
        assert_eq!(lu.rank(), 2);
        let mut x = b;
        lu.solve_in_place(&mut x, &mut [0.0; 3]);
        let r = multiply(&a, &x);
        for (r, b) in r.iter().zip(b) {
            assert!((r - b).abs() < 1e-14, "residual {r} vs {b}");
        }
        assert_eq!(x.iter().filter(|v| **v == 0.0).count(), 1, "{x:?}");
    }

    /// The zero matrix: rank 0, solution 0 (Eigen's `dst.setZero()`).
    #[test]
    fn the_zero_matrix_gives_zero() {
        let mut lu = FullPivLu::new(2, 0.0);
        lu.factorize(&[0.0; 4]);
        assert_eq!(lu.rank(), 0);
        let mut x = [1.0, 2.0];
        lu.solve_in_place(&mut x, &mut [0.0; 2]);
        assert_eq!(x, [0.0, 0.0]);
    }

    /// A pivot threshold above a small pivot's relative size drops it from the rank.
    #[test]
    fn the_pivot_threshold_sets_the_rank() {
        let a = [1.0, 0.0, 0.0, 1e-9];
        let mut lu = FullPivLu::new(2, 0.0);
        lu.factorize(&a);
        assert_eq!(lu.rank(), 2);
        let mut lu = FullPivLu::new(2, 1e-6);
        lu.factorize(&a);
        assert_eq!(lu.rank(), 1);
    }
}
