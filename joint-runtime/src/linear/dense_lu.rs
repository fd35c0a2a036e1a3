//! Dense LU factorization with partial pivoting, in place, allocation-free after construction.
//!
//! A zero (or non-finite) pivot is reported with its column, so that a singular system can be
//! traced back to the items behind that equation.

#[derive(Clone, Debug, Default)]
pub struct DenseLu {
    n: usize,
    /// Row-major LU factors.
    lu: Vec<f64>,
    perm: Vec<usize>,
}

/// The factorization hit a zero pivot in `column`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SingularColumn(pub usize);

impl DenseLu {
    pub fn new(n: usize) -> Self {
        DenseLu {
            n,
            lu: vec![0.0; n * n],
            perm: (0..n).collect(),
        }
    }

    /// n.
    pub fn size(&self) -> usize {
        self.n
    }

    /// Factorize the row-major `matrix` (n × n).
    pub fn factorize(&mut self, matrix: &[f64]) -> Result<(), SingularColumn> {
        let n = self.n;
        assert_eq!(matrix.len(), n * n, "matrix size");
        self.lu.copy_from_slice(matrix);
        for (i, p) in self.perm.iter_mut().enumerate() {
            *p = i;
        }
        let a = &mut self.lu;
        for k in 0..n {
            // pivot search
            let mut p = k;
            let mut best = a[k * n + k].abs();
            for i in k + 1..n {
                let v = a[i * n + k].abs();
                if v > best {
                    best = v;
                    p = i;
                }
            }
            if best == 0.0 || !best.is_finite() {
                return Err(SingularColumn(k));
            }
            if p != k {
                for j in 0..n {
                    a.swap(k * n + j, p * n + j);
                }
                self.perm.swap(k, p);
            }
            eliminate_below(a, n, k);
        }
        Ok(())
    }

    /// Solve `A x = b` in place (`x` holds b on entry), using `scratch` (length n).
    ///
    /// The forward substitution runs by columns: y_j, once final, is subtracted from every
    /// later row at once, each row receiving its products in column order.
    ///
    /// The backward substitution subtracts each row's products from the last column to the
    /// first, so that the product with y_{i+1}, the value computed just before, comes last: the
    /// chain of dependent operations is one multiply, one subtraction and one division per row,
    /// not a subtraction per entry besides. On the chain N = 1 this made a Newton iteration 8 %
    /// faster. Neither order is Exudyn's: EXUdense multiplies by an explicit inverse
    /// (spec/solver.md §8.2). With this one every reference case still has Exudyn's iteration
    /// and Jacobian counts, within the slack each case already had.
    pub fn solve_in_place(&self, x: &mut [f64], scratch: &mut [f64]) {
        let n = self.n;
        let y = &mut scratch[..n];
        for (y, &p) in y.iter_mut().zip(&self.perm) {
            *y = x[p];
        }
        let a = &self.lu;
        forward_substitution(a, n, y);
        for i in (0..n).rev() {
            let row = &a[i * n..(i + 1) * n];
            let (head, tail) = y.split_at_mut(i + 1);
            let mut s = head[i];
            for (u, y) in row[i + 1..].iter().zip(tail.iter()).rev() {
                s -= u * y;
            }
            head[i] = s / row[i];
        }
        x[..n].copy_from_slice(y);
    }
}

/// One step of Gaussian elimination on the row-major n × n `a` with its pivot at (k, k): rows
/// k+1.. minus multiples of row k, the multipliers stored below the pivot (slices: the same
/// operations, no index checks). A zero multiplier changes nothing and is skipped. Both dense
/// LUs (partial and full pivoting) eliminate with it.
pub(super) fn eliminate_below(a: &mut [f64], n: usize, k: usize) {
    let pivot = a[k * n + k];
    let (upper, lower) = a.split_at_mut((k + 1) * n);
    let row_k = &upper[k * n + k + 1..(k + 1) * n];
    for row_i in lower.chunks_exact_mut(n) {
        let f = row_i[k] / pivot;
        row_i[k] = f;
        if f != 0.0 {
            for (x, r) in row_i[k + 1..].iter_mut().zip(row_k) {
                *x -= f * r;
            }
        }
    }
}

/// L·y = b in place for the unit lower triangle stored below the diagonal of `a` (row-major
/// n × n), by columns: y_j, once final, is subtracted from every later row at once.
pub(super) fn forward_substitution(a: &[f64], n: usize, y: &mut [f64]) {
    for j in 0..n {
        let (done, rest) = y.split_at_mut(j + 1);
        let yj = done[j];
        for (y, row) in rest.iter_mut().zip(a[(j + 1) * n..].chunks_exact(n)) {
            *y -= row[j] * yj;
        }
    }
}

/// A dense system's explicit inverse, formed from its LU factors.
///
/// The fast path solves its small systems with it: a Jacobian is kept over many steps and
/// solved with at every Newton iteration, and A⁻¹·b is a product whose rows are independent,
/// where the substitutions of an LU solve are chains of dependent operations. (Exudyn's
/// EXUdense solves this way too; the exact mode keeps the LU solve, with which every reference
/// case has Exudyn's counts.)
#[derive(Clone, Debug, Default)]
pub struct DenseInverse {
    n: usize,
    /// Column-major: column j of A⁻¹ is `columns[j·n..(j + 1)·n]`, so that A⁻¹·b adds
    /// b_j·column j to all rows at once.
    columns: Vec<f64>,
    /// A⁻¹ by rows while it is formed.
    rows: Vec<f64>,
}

/// Rows of A⁻¹·b summed together in registers by [`DenseInverse::solve_in_place`].
const ROW_BLOCK: usize = 8;

impl DenseInverse {
    pub fn new(n: usize) -> Self {
        DenseInverse {
            n,
            columns: vec![0.0; n * n],
            rows: vec![0.0; n * n],
        }
    }

    /// A⁻¹ from the factors of A (P·A = L·U): U⁻¹·L⁻¹·P by row operations on all n columns at
    /// once. Solving for one column of the identity after another, as an LU solve does, chains
    /// every operation to the one before; here each row operation updates n independent
    /// entries (at N = 1 on the chain, forming the inverse by n solves cost as much as all the
    /// products with it).
    pub fn compute_from(&mut self, lu: &DenseLu) {
        let n = self.n;
        let a = &lu.lu;
        let w = &mut self.rows;
        w.fill(0.0);
        for (i, &p) in lu.perm.iter().enumerate() {
            w[i * n + p] = 1.0;
        }
        // L⁻¹: row i −= L_ik · row k for k < i
        for i in 1..n {
            let (done, rest) = w.split_at_mut(i * n);
            let row_i = &mut rest[..n];
            for (k, row_k) in done.chunks_exact(n).enumerate() {
                let l = a[i * n + k];
                if l != 0.0 {
                    for (x, r) in row_i.iter_mut().zip(row_k) {
                        *x -= l * r;
                    }
                }
            }
        }
        // U⁻¹: row i = (row i − Σ U_ik · row k for k > i) / U_ii, from the last row
        for i in (0..n).rev() {
            let (head, later) = w.split_at_mut((i + 1) * n);
            let row_i = &mut head[i * n..];
            for (u, row_k) in a[i * n + i + 1..(i + 1) * n]
                .iter()
                .zip(later.chunks_exact(n))
            {
                if *u != 0.0 {
                    for (x, r) in row_i.iter_mut().zip(row_k) {
                        *x -= u * r;
                    }
                }
            }
            let d = 1.0 / a[i * n + i];
            for x in row_i.iter_mut() {
                *x *= d;
            }
        }
        for (i, row) in w.chunks_exact(n).enumerate() {
            for (j, &x) in row.iter().enumerate() {
                self.columns[j * n + i] = x;
            }
        }
    }

    /// x ← A⁻¹·x, using `scratch` (length n).
    ///
    /// By blocks of [`ROW_BLOCK`] rows, each summed over the columns in registers: the output
    /// is stored once per block, where a column-by-column update loads and stores all of it
    /// once per column.
    pub fn solve_in_place(&self, x: &mut [f64], scratch: &mut [f64]) {
        let n = self.n;
        let y = &mut scratch[..n];
        let b = &x[..n];
        let mut start = 0;
        while start + ROW_BLOCK <= n {
            y[start..start + ROW_BLOCK].copy_from_slice(&self.rows_times::<ROW_BLOCK>(start, b));
            start += ROW_BLOCK;
        }
        while start + 2 <= n {
            y[start..start + 2].copy_from_slice(&self.rows_times::<2>(start, b));
            start += 2;
        }
        if start < n {
            y[start] = self.rows_times::<1>(start, b)[0];
        }
        x[..n].copy_from_slice(y);
    }

    /// Rows `start..start + R` of A⁻¹·b.
    #[inline(always)]
    fn rows_times<const R: usize>(&self, start: usize, b: &[f64]) -> [f64; R] {
        let mut acc = [0.0; R];
        for (column, &bj) in self.columns.chunks_exact(self.n).zip(b) {
            let part: &[f64; R] = column[start..start + R].try_into().expect("R rows");
            for (a, c) in acc.iter_mut().zip(part) {
                *a += c * bj;
            }
        }
        acc
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn explicit_inverse_solves_as_the_factors_do() {
        // well-conditioned systems that need pivoting; sizes that leave every remainder of
        // the row blocks (8, 2, 1)
        for n in [1, 2, 5, 8, 11, 19] {
            let a: Vec<f64> = (0..n * n)
                .map(|k| {
                    let (i, j) = (k / n, k % n);
                    if (i + 1) % n == j {
                        4.0 + i as f64
                    } else {
                        ((i * 7 + j * 3) % 5) as f64 * 0.25 - 0.5
                    }
                })
                .collect();
            let mut lu = DenseLu::new(n);
            lu.factorize(&a).unwrap();
            let mut scratch = vec![0.0; n];
            let mut inverse = DenseInverse::new(n);
            inverse.compute_from(&lu);
            let b: Vec<f64> = (0..n).map(|i| (i as f64 * 1.7).sin() * 3.0).collect();
            let (mut x_lu, mut x_inv) = (b.clone(), b.clone());
            lu.solve_in_place(&mut x_lu, &mut scratch);
            inverse.solve_in_place(&mut x_inv, &mut scratch);
            for i in 0..n {
                // A·x = b for both (rounding apart)
                let r: f64 = (0..n).map(|j| a[i * n + j] * x_inv[j]).sum::<f64>() - b[i];
                assert!(r.abs() < 1e-13, "n = {n}, row {i}: residual {r}");
                assert!((x_inv[i] - x_lu[i]).abs() < 1e-13, "n = {n}, row {i}");
            }
        }
    }

    #[test]
    fn solves_a_pivoting_system_exactly() {
        // A needs a row swap (zero first pivot).
        let a = [0.0, 2.0, 1.0, 1.0, 1.0, 0.0, 3.0, 0.0, 1.0];
        let x_true = [1.0, -2.0, 0.5];
        let b: Vec<f64> = (0..3)
            .map(|i| (0..3).map(|j| a[i * 3 + j] * x_true[j]).sum())
            .collect();
        let mut lu = DenseLu::new(3);
        lu.factorize(&a).unwrap();
        let mut x = b.clone();
        let mut s = vec![0.0; 3];
        lu.solve_in_place(&mut x, &mut s);
        for i in 0..3 {
            assert!((x[i] - x_true[i]).abs() < 1e-14);
        }
    }

    #[test]
    fn singular_matrix_reports_the_column() {
        let a = [1.0, 2.0, 0.0, 2.0, 4.0, 0.0, 0.0, 0.0, 1.0];
        let mut lu = DenseLu::new(3);
        assert_eq!(lu.factorize(&a), Err(SingularColumn(1)));
    }
}
