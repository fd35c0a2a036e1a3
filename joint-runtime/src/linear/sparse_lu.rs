//! Sparse LU of the iteration matrix with faer: the fill-reducing column ordering (COLAMD) is
//! computed once for the pattern; each factorization redoes only the values and the row pivots
//! (partial pivoting, as Eigen's SparseLU that Exudyn's `EigenSparse` uses), into buffers that
//! keep their capacity, so refactorizing does not allocate once the fill has been seen.
//!
//! Between Jacobian updates the elimination rarely changes, so after one faer factorization it is
//! recorded ([`PivotReplay`]) and later factorizations replay only its arithmetic, redoing the
//! search from the column where partial pivoting picks another pivot: bit for bit what faer
//! would compute, at a fraction of the cost.

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
use super::pivot_replay::{Factorization, PivotReplay, PivotRule, Refactorization};
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
    /// The recorded elimination; holds the current factors when `replay_ready`.
    replay: PivotReplay,
    replay_ready: bool,
    /// Set when a recording was refused (too large for its indices, or faer's factors not
    /// reproduced): a property of the pattern or of faer, so recording is not tried again.
    replay_refused: bool,
    /// When a replay keeps a recorded pivot ([`PivotRule::Partial`] unless relaxed).
    pivot_rule: PivotRule,
    counts: FactorizationCounts,
}

/// How the sparse LU's factorizations were done during a solve.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FactorizationCounts {
    /// By faer (pivot search and elimination structure included).
    pub full: usize,
    /// By replaying the recorded elimination with all its pivots.
    pub replayed: usize,
    /// By replaying it up to a changed pivot and eliminating afresh from there.
    pub repivoted: usize,
    /// Columns eliminated afresh in those, summed.
    pub repivoted_columns: usize,
}

impl std::fmt::Debug for SparseLu {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SparseLu")
            .field("n", &self.n)
            .field("factorized", &self.factorized)
            .field("replay_ready", &self.replay_ready)
            .field("counts", &self.counts)
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
            replay: PivotReplay::default(),
            replay_ready: false,
            replay_refused: false,
            pivot_rule: PivotRule::Partial,
            counts: FactorizationCounts::default(),
        }
    }

    /// Keep a recorded pivot while no candidate exceeds it by more than 1/`threshold`
    /// ([`PivotRule::Threshold`]) instead of only while partial pivoting would choose it: no
    /// longer faer's factors bit for bit (the fast path, which is judged by accuracy).
    pub fn use_threshold_pivoting(&mut self, threshold: f64) {
        assert!(
            threshold > 0.0 && threshold <= 1.0,
            "pivot threshold {threshold} outside (0, 1]"
        );
        self.pivot_rule = PivotRule::Threshold(threshold);
    }

    /// How many factorizations were full and how many replayed.
    pub fn counts(&self) -> FactorizationCounts {
        self.counts
    }

    /// Stored entries of L and U after the last factorization (the fill the ordering left).
    pub fn factor_nonzeros(&self) -> usize {
        if !self.factorized {
            return 0;
        }
        if self.replay_ready {
            return self.replay.factor_nonzeros();
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
        if self.replay_ready {
            match self.replay.refactorize(matrix.values(), self.pivot_rule) {
                Ok(Refactorization::Replayed) => self.counts.replayed += 1,
                Ok(Refactorization::Repivoted { from }) => {
                    self.counts.repivoted += 1;
                    self.counts.repivoted_columns += self.n - from;
                }
                Err(step) => {
                    self.replay_ready = false;
                    return Err(SingularColumn(self.column_order[step]));
                }
            }
            self.factorized = true;
            return Ok(());
        }
        self.counts.full += 1;
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
        if self.replay_refused {
            return Ok(());
        }
        let recorded = self.replay.record(
            matrix,
            &Factorization {
                column_order: &self.column_order,
                column_order_inverse: &self.column_order_inverse,
                row_perm: &self.row_perm,
                row_perm_inverse: &self.row_perm_inverse,
                l: self.numeric.l_factor_unsorted(),
                u: self.numeric.u_factor_unsorted(),
            },
        );
        self.replay_ready = recorded.is_ok();
        self.replay_refused = recorded.is_err();
        Ok(())
    }

    /// Solve `A x = b` in place (`x` holds b on entry).
    pub fn solve_in_place(&mut self, x: &mut [f64]) {
        assert!(self.factorized, "solve before a successful factorization");
        if self.replay_ready {
            self.replay.solve_in_place(x);
            return;
        }
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
        let mut lu = SparseLu::new(&m);
        lu.factorize(&m).unwrap();
        let error = solve_error(&mut lu, &m);
        assert!(error < 1e-14, "max |x − x_true| = {error}");
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

    /// A deterministic pseudo-random sequence in [-1, 1) (xorshift64*).
    struct Sequence(u64);

    impl Sequence {
        fn next(&mut self) -> f64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            let bits = self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11;
            bits as f64 / (1u64 << 52) as f64 - 1.0
        }
    }

    /// A 60 × 60 pattern: a band, a few scattered entries and an arrow row/column, so that the
    /// elimination has fill and real pivot choices.
    fn scattered_pattern(n: usize, seq: &mut Sequence) -> SparseMatrix {
        let mut positions = Vec::new();
        for i in 0..n {
            for j in i.saturating_sub(2)..(i + 3).min(n) {
                positions.push((i, j));
            }
            positions.push((i, n - 1));
            positions.push((n - 1, i));
        }
        for _ in 0..3 * n {
            let r = ((seq.next() + 1.0) * 0.5 * n as f64) as usize;
            let c = ((seq.next() + 1.0) * 0.5 * n as f64) as usize;
            positions.push((r.min(n - 1), c.min(n - 1)));
        }
        SparseMatrix::from_positions(n, &positions)
    }

    /// The stored positions (row, column) in storage order.
    fn positions(m: &SparseMatrix) -> Vec<(usize, usize)> {
        (0..m.size())
            .flat_map(|c| {
                let rows = &m.row_indices()[m.column_starts()[c]..m.column_starts()[c + 1]];
                rows.iter().map(move |&r| (r, c))
            })
            .collect()
    }

    fn set_values(m: &mut SparseMatrix, values: &[f64]) {
        m.clear();
        for ((r, c), v) in positions(m).into_iter().zip(values) {
            m.add(r, c, *v);
        }
    }

    fn fill_values(m: &mut SparseMatrix, seq: &mut Sequence, zero_diagonal: bool) {
        let values: Vec<f64> = positions(m)
            .into_iter()
            .map(|(r, c)| {
                if r == c && zero_diagonal && r.is_multiple_of(3) {
                    0.0
                } else if (r + c) % 2 == 1 {
                    // ±1: equal magnitudes, as in constraint Jacobians, so pivot ties occur
                    seq.next().signum()
                } else {
                    seq.next()
                }
            })
            .collect();
        set_values(m, &values);
    }

    /// A scattered n × n matrix with values from `seed`, and its first (faer) factorization.
    fn factorized(n: usize, seed: u64, zero_diagonal: bool) -> (SparseMatrix, SparseLu, Sequence) {
        let mut seq = Sequence(seed);
        let mut m = scattered_pattern(n, &mut seq);
        fill_values(&mut m, &mut seq, zero_diagonal);
        let mut lu = SparseLu::new(&m);
        lu.factorize(&m).unwrap();
        (m, lu, seq)
    }

    fn solution(lu: &mut SparseLu, n: usize) -> Vec<f64> {
        let mut x: Vec<f64> = (0..n).map(|i| (i as f64 * 0.37).sin()).collect();
        lu.solve_in_place(&mut x);
        x
    }

    /// The replayed and repivoted factorizations are a fresh faer factorization's, bit for bit:
    /// same solutions, same fill, same errors. Values change by up to 30 % between
    /// factorizations (and some diagonals are zero), so pivots change and both paths run; ±1
    /// entries stay, so candidates of equal magnitude compete (the first one wins).
    #[test]
    fn replayed_factors_are_faers_bit_for_bit() {
        let n = 60;
        let (mut m, mut reused, mut seq) = factorized(n, 0x9e37_79b9_7f4a_7c15, true);
        let base: Vec<f64> = m.values().to_vec();
        for round in 0..200 {
            let scale = if round % 4 == 0 { 0.3 } else { 1e-3 };
            let mut values = base.clone();
            for v in &mut values {
                if v.abs() != 1.0 {
                    *v += scale * seq.next() * v.abs().max(0.1);
                }
            }
            set_values(&mut m, &values);
            let mut fresh = SparseLu::new(&m);
            assert_eq!(fresh.factorize(&m), reused.factorize(&m), "round {round}");
            assert_eq!(fresh.counts().full, 1);
            assert_eq!(
                fresh.factor_nonzeros(),
                reused.factor_nonzeros(),
                "round {round}"
            );
            let (a, b) = (solution(&mut fresh, n), solution(&mut reused, n));
            for (i, (a, b)) in a.iter().zip(&b).enumerate() {
                assert_eq!(a.to_bits(), b.to_bits(), "round {round}: x[{i}] {a} vs {b}");
            }
        }
        let counts = reused.counts();
        assert_eq!(counts.full, 1, "{counts:?}");
        assert!(counts.replayed > 20 && counts.repivoted > 20, "{counts:?}");
    }

    #[test]
    fn a_matrix_that_turns_singular_is_reported_like_faer_and_then_refactorized() {
        let (mut m, mut reused, _) = factorized(60, 7, false);
        // Column 5 all zero: singular at the step that eliminates it.
        let good: Vec<f64> = m.values().to_vec();
        let (begin, end) = (m.column_starts()[5], m.column_starts()[6]);
        let rows: Vec<usize> = m.row_indices()[begin..end].to_vec();
        for r in rows {
            let v = m.get(r, 5);
            m.add(r, 5, -v);
        }
        let mut fresh = SparseLu::new(&m);
        let want = fresh.factorize(&m);
        assert!(want.is_err());
        assert_eq!(reused.factorize(&m), want);
        // Back to good values: a new faer factorization, then replays again.
        set_values(&mut m, &good);
        reused.factorize(&m).unwrap();
        reused.factorize(&m).unwrap();
        let counts = reused.counts();
        assert_eq!((counts.full, counts.replayed), (2, 1), "{counts:?}");
    }

    /// `arrow()` with A[0, 0] set to `a00`: column 0's candidates are A[0, 0] and A[4, 0] = 1.
    fn arrow_with(a00: f64) -> SparseMatrix {
        let mut m = arrow();
        m.add(0, 0, a00);
        m
    }

    /// Solves A·x = A·x_true and returns max |x − x_true|.
    fn solve_error(lu: &mut SparseLu, m: &SparseMatrix) -> f64 {
        let x_true = [1.0, -2.0, 0.5, 3.0, -0.25];
        let mut b = [0.0; 5];
        for (c, x) in x_true.iter().enumerate() {
            for (r, b) in b.iter_mut().enumerate() {
                *b += m.get(r, c) * x;
            }
        }
        lu.solve_in_place(&mut b);
        b.iter().zip(x_true).fold(0.0, |e, (x, t)| e.max((x - t).abs()))
    }

    #[test]
    fn threshold_pivoting_keeps_a_pivot_that_partial_pivoting_would_swap() {
        // recorded with A[4, 0] = 1 as column 0's pivot (A[0, 0] = 0.9 is smaller)
        let first = arrow_with(0.9);
        // A[0, 0] = 1.1 outgrows it: partial pivoting takes row 0, τ = 0.1 keeps row 4
        let swapped = arrow_with(1.1);
        let mut partial = SparseLu::new(&first);
        let mut relaxed = SparseLu::new(&first);
        relaxed.use_threshold_pivoting(0.1);
        for lu in [&mut partial, &mut relaxed] {
            lu.factorize(&first).unwrap();
            lu.factorize(&swapped).unwrap();
            let error = solve_error(lu, &swapped);
            assert!(error < 1e-14, "max |x − x_true| = {error}");
        }
        assert_eq!(partial.counts().repivoted, 1, "{:?}", partial.counts());
        assert_eq!(relaxed.counts().repivoted, 0, "{:?}", relaxed.counts());
        assert_eq!(relaxed.counts().replayed, 1, "{:?}", relaxed.counts());
        // A[0, 0] = 20: the kept pivot 1 is below τ·20, and the threshold repivots too
        let grown = arrow_with(20.0);
        relaxed.factorize(&grown).unwrap();
        assert_eq!(relaxed.counts().repivoted, 1, "{:?}", relaxed.counts());
        let error = solve_error(&mut relaxed, &grown);
        assert!(error < 1e-14, "max |x − x_true| = {error}");
    }
}
