//! Sparse LU of the iteration matrix with faer: the fill-reducing column ordering (COLAMD) is
//! computed once for the pattern; each factorization redoes only the values and the row pivots
//! (partial pivoting, as Eigen's SparseLU that Exudyn's `EigenSparse` uses), into buffers that
//! keep their capacity, so refactorizing does not allocate once the fill has been seen.

use faer::dyn_stack::{MemBuffer, MemStack, StackReq};
use faer::perm::PermRef;
use faer::sparse::linalg::colamd;
use faer::sparse::linalg::lu::simplicial::{
    SimplicialLu, factorize_simplicial_numeric_lu, factorize_simplicial_numeric_lu_scratch,
    solve_in_place_scratch,
};
use faer::sparse::{SparseColMatRef, SymbolicSparseColMatRef};
use faer::{Conj, MatMut, Par};

use super::dense_lu::SingularColumn;
use super::sparse_matrix::SparseMatrix;

/// The LU factors of a [`SparseMatrix`] whose pattern is fixed.
pub struct SparseLu {
    n: usize,
    column_order: Vec<usize>,
    column_order_inverse: Vec<usize>,
    row_perm: Vec<usize>,
    row_perm_inverse: Vec<usize>,
    numeric: SimplicialLu<usize, f64>,
    memory: MemBuffer,
    factorized: bool,
}

impl std::fmt::Debug for SparseLu {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SparseLu")
            .field("n", &self.n)
            .field("factorized", &self.factorized)
            .finish_non_exhaustive()
    }
}

fn symbolic(m: &SparseMatrix) -> SymbolicSparseColMatRef<'_, usize> {
    SymbolicSparseColMatRef::new_checked(
        m.size(),
        m.size(),
        m.column_starts(),
        None,
        m.row_indices(),
    )
}

impl SparseLu {
    /// The symbolic part: the column ordering of `pattern`'s structure and the workspace.
    pub fn new(pattern: &SparseMatrix) -> Self {
        let n = pattern.size();
        let a = symbolic(pattern);
        let mut column_order = vec![0usize; n];
        let mut column_order_inverse = vec![0usize; n];
        // COLAMD (Eigen SparseLU's default too). AMD on A + Aᵀ, tried on the 1000-body chain,
        // left more fill (201 282 against 191 354 factor entries) and took 11 % longer.
        {
            let req = colamd::order_scratch::<usize>(n, n, pattern.nnz());
            let mut mem = MemBuffer::new(req);
            colamd::order(
                &mut column_order,
                &mut column_order_inverse,
                a,
                colamd::Control::default(),
                MemStack::new(&mut mem),
            )
            .expect("COLAMD ordering of the iteration matrix (out of memory)");
        }
        let req = StackReq::any_of(&[
            factorize_simplicial_numeric_lu_scratch::<usize, f64>(n, n),
            solve_in_place_scratch::<usize, f64>(n, 1, Par::Seq),
        ]);
        SparseLu {
            n,
            column_order,
            column_order_inverse,
            row_perm: vec![0; n],
            row_perm_inverse: vec![0; n],
            numeric: SimplicialLu::new(),
            memory: MemBuffer::new(req),
            factorized: false,
        }
    }

    pub fn size(&self) -> usize {
        self.n
    }

    /// Stored entries of L and U after the last factorization (the fill the ordering left).
    pub fn factor_nonzeros(&self) -> usize {
        if !self.factorized {
            return 0;
        }
        self.numeric.l_factor_unsorted().compute_nnz()
            + self.numeric.u_factor_unsorted().compute_nnz()
    }

    /// The numeric part: factorize `matrix` (same pattern as at [`SparseLu::new`]).
    ///
    /// A zero or non-finite pivot is reported with the (original) column whose elimination
    /// produced it.
    pub fn factorize(&mut self, matrix: &SparseMatrix) -> Result<(), SingularColumn> {
        assert_eq!(matrix.size(), self.n, "matrix size");
        self.factorized = false;
        let a = SparseColMatRef::new(symbolic(matrix), matrix.values());
        let perm = PermRef::new_checked(&self.column_order, &self.column_order_inverse, self.n);
        let result = factorize_simplicial_numeric_lu(
            &mut self.row_perm,
            &mut self.row_perm_inverse,
            &mut self.numeric,
            a,
            perm,
            MemStack::new(&mut self.memory),
        );
        if let Err(e) = result {
            let k = match e {
                faer::sparse::linalg::LuError::SymbolicSingular { index } => index,
                faer::sparse::linalg::LuError::Generic(e) => {
                    panic!("sparse LU of the iteration matrix failed: {e:?}")
                }
            };
            return Err(SingularColumn(self.column_order[k.min(self.n - 1)]));
        }
        // U's pivot of elimination step j is stored in column j at row j.
        let u = self.numeric.u_factor_unsorted();
        for j in 0..self.n {
            let rows = u.symbolic().row_idx_of_col_raw(j);
            let vals = u.val_of_col(j);
            let pivot = rows
                .iter()
                .zip(vals)
                .find(|(r, _)| **r == j)
                .map_or(0.0, |(_, v)| *v);
            if pivot == 0.0 || !pivot.is_finite() {
                return Err(SingularColumn(self.column_order[j]));
            }
        }
        self.factorized = true;
        Ok(())
    }

    /// Solve `A x = b` in place (`x` holds b on entry).
    pub fn solve_in_place(&mut self, x: &mut [f64]) {
        assert!(self.factorized, "solve before a successful factorization");
        let n = self.n;
        let rhs = MatMut::from_column_major_slice_mut(x, n, 1);
        let row_perm = PermRef::new_checked(&self.row_perm, &self.row_perm_inverse, n);
        let column_perm = PermRef::new_checked(&self.column_order, &self.column_order_inverse, n);
        self.numeric.solve_in_place_with_conj(
            row_perm,
            column_perm,
            Conj::No,
            rhs,
            Par::Seq,
            MemStack::new(&mut self.memory),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::linear::MatrixAccumulator;

    /// A 5×5 arrow matrix that needs pivoting (zero diagonal entries), as a sparse matrix.
    fn arrow() -> SparseMatrix {
        let entries = [
            (0, 0, 0.0),
            (0, 4, 2.0),
            (1, 1, 3.0),
            (1, 4, -1.0),
            (2, 2, 0.0),
            (2, 3, 1.5),
            (3, 2, 4.0),
            (3, 3, 1.0),
            (4, 0, 1.0),
            (4, 1, 2.0),
            (4, 4, 1.0),
        ];
        let pos: Vec<_> = entries.iter().map(|&(r, c, _)| (r, c)).collect();
        let mut m = SparseMatrix::from_positions(5, &pos);
        for (r, c, v) in entries {
            m.add(r, c, v);
        }
        m
    }

    #[test]
    fn solves_a_system_that_needs_row_pivots_to_round_off() {
        let m = arrow();
        let x_true = [1.0, -2.0, 0.5, 3.0, -0.25];
        let mut b = [0.0; 5];
        for (c, x) in x_true.iter().enumerate() {
            for (r, b) in b.iter_mut().enumerate() {
                *b += m.get(r, c) * x;
            }
        }
        let mut lu = SparseLu::new(&m);
        lu.factorize(&m).unwrap();
        lu.solve_in_place(&mut b);
        for (i, (x, want)) in b.iter().zip(x_true).enumerate() {
            assert!((x - want).abs() < 1e-14, "x[{i}] = {x}");
        }
    }

    #[test]
    fn refactorizing_new_values_reuses_the_ordering() {
        let mut m = arrow();
        let mut lu = SparseLu::new(&m);
        lu.factorize(&m).unwrap();
        let order = lu.column_order.clone();
        m.add(1, 1, 10.0);
        lu.factorize(&m).unwrap();
        assert_eq!(lu.column_order, order);
        // b = column 1 of the new matrix, so x = e1
        let mut b = [0.0; 5];
        for (r, b) in b.iter_mut().enumerate() {
            *b = m.get(r, 1);
        }
        lu.solve_in_place(&mut b);
        for (i, x) in b.iter().enumerate() {
            let want = if i == 1 { 1.0 } else { 0.0 };
            assert!((x - want).abs() < 1e-14, "x[{i}] = {x}");
        }
    }

    #[test]
    fn a_numerically_singular_matrix_reports_its_column() {
        // columns 0 and 1 are equal: rank 2 of 3
        let pos = [(0, 0), (1, 0), (0, 1), (1, 1), (2, 2)];
        let mut m = SparseMatrix::from_positions(3, &pos);
        for (r, c) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
            m.add(r, c, 1.0);
        }
        m.add(2, 2, 1.0);
        let mut lu = SparseLu::new(&m);
        let err = lu.factorize(&m).unwrap_err();
        assert!(err.0 == 0 || err.0 == 1, "column {}", err.0);
    }

    #[test]
    fn a_zero_matrix_is_singular() {
        let m = SparseMatrix::from_positions(2, &[]);
        let mut lu = SparseLu::new(&m);
        assert!(lu.factorize(&m).is_err());
    }
}
