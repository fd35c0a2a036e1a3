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

/// A column order whose elimination runs as two independent halves with their steps
/// interleaved, then a separator: a triangular solve or a left-looking elimination along a
/// fill-reducing order of a chain is one chain of dependent operations (every step waits for
/// the one before it), and two independent ones, interleaved, let the processor overlap them.
///
/// The halves come from the breadth-first levels of A + Aᵀ from a far vertex: the middle level
/// separates the levels before it from those after it. Each half is eliminated from its far
/// end towards the separator (levels ascending, respectively descending; within a level in
/// `fill_order`), the separator last. Ordering by levels keeps the fill of `fill_order` only
/// where the levels are thin, as along a chain of bodies (levels of 9–13 columns on the
/// benchmarks: factor entries +1–2 %); `None` where a level holds more than [`THIN_LEVEL`]
/// columns or there are fewer than [`MIN_LEVELS`] levels.
fn two_way_order(pattern: &SparseMatrix, fill_order: &[usize]) -> Option<Vec<usize>> {
    let n = pattern.size();
    if n < MIN_LEVELS || fill_order.len() != n {
        return None;
    }
    let (starts, rows) = (pattern.column_starts(), pattern.row_indices());
    // A + Aᵀ as adjacency lists
    let mut degree = vec![0usize; n + 1];
    for c in 0..n {
        for &r in &rows[starts[c]..starts[c + 1]] {
            if r != c {
                degree[c + 1] += 1;
                degree[r + 1] += 1;
            }
        }
    }
    for k in 0..n {
        degree[k + 1] += degree[k];
    }
    let mut next = degree.clone();
    let mut neighbours = vec![0usize; degree[n]];
    for c in 0..n {
        for &r in &rows[starts[c]..starts[c + 1]] {
            if r != c {
                neighbours[next[c]] = r;
                next[c] += 1;
                neighbours[next[r]] = c;
                next[r] += 1;
            }
        }
    }
    let bfs = |from: usize, level: &mut Vec<usize>| -> usize {
        level.clear();
        level.resize(n, usize::MAX);
        let mut queue = std::collections::VecDeque::new();
        level[from] = 0;
        queue.push_back(from);
        let mut last = from;
        while let Some(v) = queue.pop_front() {
            last = v;
            for &w in &neighbours[degree[v]..degree[v + 1]] {
                if level[w] == usize::MAX {
                    level[w] = level[v] + 1;
                    queue.push_back(w);
                }
            }
        }
        last
    };
    let mut level = Vec::new();
    let far = bfs(fill_order[0], &mut level);
    bfs(far, &mut level);
    let reached = level.iter().filter(|&&l| l != usize::MAX).count();
    let depth = level
        .iter()
        .filter(|&&l| l != usize::MAX)
        .max()
        .copied()
        .unwrap_or(0);
    let mut per_level = vec![0usize; depth + 2];
    for &l in &level {
        if l != usize::MAX {
            per_level[l] += 1;
        }
    }
    if depth + 1 < MIN_LEVELS || per_level.iter().any(|&w| w > THIN_LEVEL) {
        return None;
    }
    let (mut middle, mut below) = (0, 0);
    while middle < depth && below + per_level[middle] < reached / 2 {
        below += per_level[middle];
        middle += 1;
    }
    let mut position = vec![0usize; n];
    for (k, &c) in fill_order.iter().enumerate() {
        position[c] = k;
    }
    let mut first: Vec<usize> = (0..n).filter(|&c| level[c] < middle).collect();
    let mut second: Vec<usize> = (0..n).filter(|&c| level[c] > middle).collect();
    let mut separator: Vec<usize> = (0..n).filter(|&c| level[c] == middle).collect();
    first.sort_by_key(|&c| (level[c], position[c]));
    // unreached columns (level MAX) are independent of both: first in the second half
    second.sort_by_key(|&c| (std::cmp::Reverse(level[c]), position[c]));
    separator.sort_by_key(|&c| position[c]);
    let mut order = Vec::with_capacity(n);
    let (mut a, mut b) = (first.into_iter(), second.into_iter());
    loop {
        match (a.next(), b.next()) {
            (None, None) => break,
            (x, y) => order.extend(x.into_iter().chain(y)),
        }
    }
    order.extend(separator);
    Some(order)
}

/// [`two_way_order`] orders by levels only where none holds more columns than this.
const THIN_LEVEL: usize = 16;
/// ... and where there are at least this many levels.
const MIN_LEVELS: usize = 8;

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

    /// Reorder the columns so that the elimination runs as two independent halves, their steps
    /// interleaved, where the pattern is a thin chain of levels ([`two_way_order`]; the fast
    /// path: the factors are no longer those of the COLAMD order). Before the first
    /// factorization (`pattern`: the one of [`SparseLu::new`]); whether it reordered.
    pub fn use_two_way_ordering(&mut self, pattern: &SparseMatrix) -> bool {
        assert!(
            !self.factorized && !self.replay_ready,
            "reordering a factorized LU"
        );
        let Some(order) = two_way_order(pattern, &self.column_order) else {
            return false;
        };
        self.column_order = order;
        for (k, &c) in self.column_order.iter().enumerate() {
            self.column_order_inverse[c] = k;
        }
        true
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

    /// A chain of `bodies` dense `size` × `size` blocks, each coupled to the next by a dense
    /// off-diagonal block (the block-tridiagonal pattern of a chain of bodies and joints),
    /// with values from `seed`.
    fn block_chain(bodies: usize, size: usize, seed: u64) -> SparseMatrix {
        let mut positions = Vec::new();
        for b in 0..bodies {
            for next in [b, b + 1].into_iter().filter(|&k| k < bodies) {
                for i in 0..size {
                    for j in 0..size {
                        positions.push((b * size + i, next * size + j));
                        positions.push((next * size + j, b * size + i));
                    }
                }
            }
        }
        let mut m = SparseMatrix::from_positions(bodies * size, &positions);
        fill_values(&mut m, &mut Sequence(seed), false);
        m
    }

    /// On a chain the two-way order eliminates two halves that share no entry, one step of
    /// each in turn, then their separator: with the fill of COLAMD's order (within 5 %), and
    /// the same solutions to round-off.
    #[test]
    fn two_way_order_interleaves_two_independent_halves_of_a_chain() {
        let (bodies, size) = (40, 5);
        let m = block_chain(bodies, size, 0x2545_f491_4f6c_dd1d);
        let n = m.size();
        let mut colamd = SparseLu::new(&m);
        let mut two_way = SparseLu::new(&m);
        assert!(two_way.use_two_way_ordering(&m));
        let order = two_way.column_order.clone();
        let mut seen = vec![false; n];
        for &c in &order {
            assert!(!seen[c], "column {c} twice");
            seen[c] = true;
        }
        // the halves: even and odd steps while both last (each holds at least half of the
        // columns less two levels, a level at most THIN_LEVEL columns)
        let strict = n - 4 * THIN_LEVEL;
        for (step_a, &a) in order[..strict].iter().enumerate() {
            for (step_b, &b) in order[..strict].iter().enumerate() {
                if step_a % 2 != step_b % 2 {
                    assert_eq!(m.get(a, b), 0.0, "steps {step_a} and {step_b} coupled");
                }
            }
        }
        colamd.factorize(&m).unwrap();
        two_way.factorize(&m).unwrap();
        let (fill, reference) = (two_way.factor_nonzeros(), colamd.factor_nonzeros());
        assert!(
            fill as f64 <= 1.05 * reference as f64,
            "{fill} factor entries against COLAMD's {reference}"
        );
        let (x, expected) = (solution(&mut two_way, n), solution(&mut colamd, n));
        let size_x = expected.iter().fold(0.0f64, |s, v| s.max(v.abs()));
        for (a, e) in x.iter().zip(&expected) {
            assert!((a - e).abs() <= 1e-12 * size_x, "{a} against {e}");
        }
    }

    /// A pattern whose breadth-first levels are wide (an arrow row and column reach every
    /// column in one level) keeps COLAMD's order.
    #[test]
    fn two_way_order_leaves_a_wide_pattern_to_colamd() {
        let (m, _, _) = factorized(60, 0x9e37_79b9_7f4a_7c15, false);
        let mut lu = SparseLu::new(&m);
        let colamd = lu.column_order.clone();
        assert!(!lu.use_two_way_ordering(&m));
        assert_eq!(lu.column_order, colamd);
        // and a system too small to split, down to none at all
        for n in [0, 1, 5] {
            let diagonal: Vec<(usize, usize)> = (0..n).map(|i| (i, i)).collect();
            let m = SparseMatrix::from_positions(n, &diagonal);
            assert!(
                two_way_order(&m, &(0..n).collect::<Vec<_>>()).is_none(),
                "n = {n}"
            );
        }
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
        b.iter()
            .zip(x_true)
            .fold(0.0, |e, (x, t)| e.max((x - t).abs()))
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
