//! The iteration matrix and its factorization, dense or sparse, behind one interface.

use super::accumulate::{DenseMatrix, PatternRecorder};
use super::block_lu::BlockLu;
use super::dense_lu::{DenseInverse, DenseLu, SingularColumn};
use super::full_piv_lu::FullPivLu;
use super::sparse_lu::SparseLu;
use super::sparse_matrix::SparseMatrix;

/// `linearSolver.solverType`: which LU factorizes the iteration matrix.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
#[non_exhaustive]
pub enum LinearSolverType {
    /// `EXUdense`, Exudyn's default: chosen by size here — dense LU up to
    /// 40 unknowns (`DENSE_LIMIT`), sparse LU above. Exudyn factorizes densely
    /// whatever the size; the two differ by round-off only (spec/solver.md §8.11), and a
    /// dense LU of a 1000-body chain would be cubic in its size.
    #[default]
    ExuDense,
    /// `EigenDense`: dense LU with partial pivoting, whatever the size.
    EigenDense,
    /// `EigenSparse`: sparse LU (faer, COLAMD ordering, partial pivoting), whatever the size.
    EigenSparse,
    /// `EigenDense` with `linearSolverSettings.ignoreSingularJacobian`: Eigen's full-pivoting
    /// LU, which gives a singular system (redundant constraints) an increment instead of an
    /// error (`FullPivLu`); `pivot_threshold` is `pivotThreshold` (0: Eigen's default).
    /// Exudyn takes the flag into account with EigenDense only.
    EigenDenseFullPivot {
        /// `pivotThreshold`: pivots at most this × the largest are beyond the rank (0: Eigen's
        /// default, ε·n).
        pivot_threshold: f64,
    },
}

/// With [`LinearSolverType::ExuDense`] (Exudyn's default), systems of at most this many
/// unknowns use the dense LU, larger ones the sparse LU.
///
/// Measured on spherical-joint chains of N Euler-parameter bodies (11·N unknowns), jointsim with
/// `EigenDense` against `EigenSparse`: dense is faster up to 33 unknowns, sparse from 44 on
/// (docs/performance.md).
pub const DENSE_LIMIT: usize = 40;

/// The iteration matrix, in the storage its solver factorizes.
#[derive(Clone, Debug)]
pub enum SystemMatrix {
    Dense(DenseMatrix),
    Sparse(SparseMatrix),
}

#[derive(Debug)]
enum Factors {
    Dense {
        lu: DenseLu,
        scratch: Vec<f64>,
        /// Solve with A⁻¹ formed at each factorization instead of the LU factors
        /// ([`LinearSystem::solve_with_explicit_inverse`]).
        inverse: Option<DenseInverse>,
    },
    Sparse {
        /// Built at the first factorization that needs it: its ordering (COLAMD, and the
        /// two-way reordering) cost a 1000-body chain's set-up a fifth, and with the block
        /// elimination it is only the fallback.
        lu: Option<Box<SparseLu>>,
        options: SparseOptions,
        /// The block elimination ([`LinearSystem::use_block_elimination`]): while set, it
        /// factorizes and solves, and `lu` waits as the fallback.
        blocks: Option<Box<BlockLu>>,
    },
    FullPivot {
        lu: FullPivLu,
        scratch: Vec<f64>,
    },
}

/// How the sparse LU is to be built ([`LinearSystem::use_threshold_pivoting`],
/// [`LinearSystem::use_two_way_ordering`]).
#[derive(Clone, Copy, Debug, Default)]
struct SparseOptions {
    pivot_threshold: Option<f64>,
    two_way_ordering: bool,
}

impl SparseOptions {
    /// The sparse LU of `pattern` with these options, built if it is not yet.
    fn lu<'a>(self, lu: &'a mut Option<Box<SparseLu>>, pattern: &SparseMatrix) -> &'a mut SparseLu {
        lu.get_or_insert_with(|| {
            let mut built = SparseLu::new(pattern);
            self.apply(&mut built, pattern);
            Box::new(built)
        })
    }

    fn apply(self, lu: &mut SparseLu, pattern: &SparseMatrix) {
        if let Some(threshold) = self.pivot_threshold {
            lu.use_threshold_pivoting(threshold);
        }
        if self.two_way_ordering {
            lu.use_two_way_ordering(pattern);
        }
    }
}

/// An `n × n` linear system: matrix storage, factors and the solve's workspace, all sized at
/// construction (a sparse system's LU at its first factorization), so that assembling,
/// factorizing and solving do not allocate after that.
#[derive(Debug)]
pub struct LinearSystem {
    matrix: SystemMatrix,
    factors: Factors,
}

impl LinearSystem {
    pub fn dense(n: usize) -> Self {
        LinearSystem {
            matrix: SystemMatrix::Dense(DenseMatrix::zeros(n)),
            factors: Factors::Dense {
                lu: DenseLu::new(n),
                scratch: vec![0.0; n],
                inverse: None,
            },
        }
    }

    /// Solve a dense system with its explicit inverse, formed at each factorization (the fast
    /// path: see [`DenseInverse`]); a sparse system keeps its LU.
    pub fn solve_with_explicit_inverse(&mut self) {
        if let Factors::Dense { lu, inverse, .. } = &mut self.factors {
            *inverse = Some(DenseInverse::new(lu.size()));
        }
    }

    /// Let a sparse system's refactorizations keep a recorded pivot within `threshold` of
    /// the column's largest candidate (threshold partial pivoting; the fast path, see
    /// [`SparseLu::use_threshold_pivoting`]); a dense system is unaffected.
    pub fn use_threshold_pivoting(&mut self, threshold: f64) {
        if let Factors::Sparse { lu, options, .. } = &mut self.factors {
            options.pivot_threshold = Some(threshold);
            if let Some(lu) = lu {
                lu.use_threshold_pivoting(threshold);
            }
        }
    }

    /// Let a sparse system eliminate a chain-like pattern as two interleaved halves
    /// ([`SparseLu::use_two_way_ordering`]; the fast path); a dense one is unaffected. Before
    /// the first factorization.
    pub fn use_two_way_ordering(&mut self) {
        if let (Factors::Sparse { lu, options, .. }, SystemMatrix::Sparse(m)) =
            (&mut self.factors, &self.matrix)
        {
            options.two_way_ordering = true;
            if let Some(lu) = lu {
                lu.use_two_way_ordering(m);
            }
        }
    }

    /// Let a sparse system be factorized by blocks along its body–joint graph ([`BlockLu`]; the
    /// fast path) where its pattern allows; the sparse LU stays as the fallback for a pattern
    /// it does not take and for a factorization that finds a diagonal block singular (from then
    /// on). A dense system is unaffected. Whether the block elimination was taken.
    pub fn use_block_elimination(&mut self) -> bool {
        if let (Factors::Sparse { blocks, .. }, SystemMatrix::Sparse(m)) =
            (&mut self.factors, &self.matrix)
        {
            let recorded: Vec<(usize, usize)> = m.recorded_positions().collect();
            *blocks = BlockLu::new(m, &recorded).map(Box::new);

            return blocks.is_some();
        }
        false
    }

    /// Whether the block elimination factorizes this system (see
    /// [`LinearSystem::use_block_elimination`]).
    #[cfg(test)]
    pub fn uses_block_elimination(&self) -> bool {
        matches!(
            &self.factors,
            Factors::Sparse {
                blocks: Some(_),
                ..
            }
        )
    }

    /// A sparse system whose pattern is the recorded positions (plus the diagonal).
    pub fn sparse(n: usize, pattern: &PatternRecorder) -> Self {
        let matrix = SparseMatrix::from_positions(n, pattern.entries());
        LinearSystem {
            matrix: SystemMatrix::Sparse(matrix),
            factors: Factors::Sparse {
                lu: None,
                options: SparseOptions::default(),
                blocks: None,
            },
        }
    }

    /// The system the solver type asks for; `record` runs the assembly into a
    /// [`PatternRecorder`] and is called only if a sparse system is built.
    pub fn for_solver_type(
        n: usize,
        solver_type: LinearSolverType,
        record: impl FnOnce(&mut PatternRecorder),
    ) -> Self {
        let sparse = match solver_type {
            LinearSolverType::EigenDense => false,
            LinearSolverType::EigenSparse => true,
            LinearSolverType::ExuDense => n > DENSE_LIMIT,
            LinearSolverType::EigenDenseFullPivot { pivot_threshold } => {
                return LinearSystem {
                    matrix: SystemMatrix::Dense(DenseMatrix::zeros(n)),
                    factors: Factors::FullPivot {
                        lu: FullPivLu::new(n, pivot_threshold),
                        scratch: vec![0.0; n],
                    },
                };
            }
        };
        if sparse {
            let mut pattern = PatternRecorder::new();
            record(&mut pattern);
            Self::sparse(n, &pattern)
        } else {
            Self::dense(n)
        }
    }

    pub fn is_sparse(&self) -> bool {
        matches!(self.matrix, SystemMatrix::Sparse(_))
    }

    /// Stored entries of the sparse LU factors after the last factorization (0 if dense).
    pub fn factor_nonzeros(&self) -> usize {
        match &self.factors {
            Factors::Dense { .. } | Factors::FullPivot { .. } => 0,
            Factors::Sparse {
                blocks: Some(blocks),
                ..
            } => blocks.stored_values(),
            Factors::Sparse { lu, .. } => lu.as_ref().map_or(0, |lu| lu.factor_nonzeros()),
        }
    }

    /// How the sparse LU's factorizations were done so far (all zero for a dense system).
    pub fn factorization_counts(&self) -> super::FactorizationCounts {
        match &self.factors {
            Factors::Dense { .. } | Factors::FullPivot { .. } => {
                super::FactorizationCounts::default()
            }
            Factors::Sparse { lu, .. } => lu.as_ref().map(|lu| lu.counts()).unwrap_or_default(),
        }
    }

    /// Stored entries of the sparse pattern (0 for a dense system).
    pub fn nonzeros(&self) -> usize {
        match &self.matrix {
            SystemMatrix::Dense(_) => 0,
            SystemMatrix::Sparse(m) => m.nnz(),
        }
    }

    /// The matrix with all values set to zero, to assemble into.
    pub fn cleared_matrix(&mut self) -> &mut SystemMatrix {
        match &mut self.matrix {
            SystemMatrix::Dense(m) => m.clear(),
            SystemMatrix::Sparse(m) => m.clear(),
        }
        &mut self.matrix
    }

    /// Factorize the assembled matrix.
    pub fn factorize(&mut self) -> Result<(), SingularColumn> {
        match (&self.matrix, &mut self.factors) {
            (SystemMatrix::Dense(m), Factors::Dense { lu, inverse, .. }) => {
                lu.factorize(m.values())?;
                if let Some(inverse) = inverse {
                    inverse.compute_from(lu);
                }
                Ok(())
            }
            (
                SystemMatrix::Sparse(m),
                Factors::Sparse {
                    lu,
                    options,
                    blocks,
                },
            ) => {
                if let Some(b) = blocks {
                    if b.factorize(m).is_ok() {
                        return Ok(());
                    }
                    // a diagonal block singular within itself: the general LU from now on
                    *blocks = None;
                }
                options.lu(lu, m).factorize(m)
            }
            (SystemMatrix::Dense(m), Factors::FullPivot { lu, .. }) => {
                lu.factorize(m.values());
                Ok(())
            }
            _ => unreachable!("matrix storage and factors are built together"),
        }
    }

    /// Solve with the last factorization: `x` holds b on entry and the solution on return.
    pub fn solve_in_place(&mut self, x: &mut [f64]) {
        match &mut self.factors {
            Factors::Dense {
                inverse: Some(inverse),
                scratch,
                ..
            } => inverse.solve_in_place(x, scratch),
            Factors::Dense { lu, scratch, .. } => lu.solve_in_place(x, scratch),
            Factors::Sparse {
                blocks: Some(blocks),
                ..
            } => blocks.solve_in_place(x),
            Factors::Sparse { lu: Some(lu), .. } => lu.solve_in_place(x),
            Factors::Sparse { lu: None, .. } => panic!("solve before a factorization"),
            Factors::FullPivot { lu, scratch } => lu.solve_in_place(x, scratch),
        }
    }
}

/// Assemble into whichever storage `matrix` has: `$assemble` is an expression using the
/// identifier given as `$m`, compiled once per storage type (no dynamic dispatch per entry).
macro_rules! assemble_into {
    ($matrix:expr, |$m:ident| $assemble:expr) => {
        match $matrix {
            $crate::linear::SystemMatrix::Dense($m) => $assemble,
            $crate::linear::SystemMatrix::Sparse($m) => $assemble,
        }
    };
}
pub(crate) use assemble_into;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::linear::MatrixAccumulator;

    fn fill<M: MatrixAccumulator>(m: &mut M) {
        // [[4, 1, 0], [1, 3, 1], [0, 1, 2]]
        for (r, c, v) in [
            (0, 0, 4.0),
            (0, 1, 1.0),
            (1, 0, 1.0),
            (1, 1, 3.0),
            (1, 2, 1.0),
            (2, 1, 1.0),
            (2, 2, 2.0),
        ] {
            m.add(r, c, v);
        }
    }

    #[test]
    fn dense_and_sparse_systems_give_the_same_solution() {
        let mut recorder = PatternRecorder::new();
        fill(&mut recorder);
        let mut systems = [LinearSystem::dense(3), LinearSystem::sparse(3, &recorder)];
        let mut solutions = Vec::new();
        for s in &mut systems {
            assemble_into!(s.cleared_matrix(), |m| fill(m));
            s.factorize().unwrap();
            let mut x = [1.0, 2.0, 3.0];
            s.solve_in_place(&mut x);
            solutions.push(x);
        }
        // exact solution of the tridiagonal system
        let want = [2.0 / 9.0, 1.0 / 9.0, 13.0 / 9.0];
        for x in solutions {
            for i in 0..3 {
                assert!((x[i] - want[i]).abs() < 1e-15, "{x:?}");
            }
        }
    }

    #[test]
    fn automatic_choice_is_dense_up_to_the_limit() {
        let record = |p: &mut PatternRecorder| p.add(0, 0, 1.0);
        let auto = LinearSolverType::ExuDense;
        assert!(!LinearSystem::for_solver_type(DENSE_LIMIT, auto, record).is_sparse());
        assert!(LinearSystem::for_solver_type(DENSE_LIMIT + 1, auto, record).is_sparse());
        assert!(
            LinearSystem::for_solver_type(2, LinearSolverType::EigenSparse, record).is_sparse()
        );
        let big = DENSE_LIMIT + 1;
        assert!(
            !LinearSystem::for_solver_type(big, LinearSolverType::EigenDense, record).is_sparse()
        );
    }

    #[test]
    fn a_singular_diagonal_block_falls_back_to_the_sparse_lu() {
        // bodies {0, 1} (a singular block), {2, 3} and {4, 5}; joints 6 (between coordinates 1
        // and 2) and 7 (between 3 and 4): the block elimination fails on the first body, the
        // sparse LU pivots across it
        let mut entries = vec![(0, 0, 1.0), (0, 1, 1.0), (1, 0, 1.0), (1, 1, 1.0)];
        for b in [2, 4] {
            entries.extend([
                (b, b, 2.0),
                (b, b + 1, 0.5),
                (b + 1, b, 0.5),
                (b + 1, b + 1, 2.0),
            ]);
        }
        for (joint, a, b) in [(6, 1, 2), (7, 3, 4)] {
            entries.extend([
                (a, joint, 1.0),
                (joint, a, 1.0),
                (b, joint, -1.0),
                (joint, b, -1.0),
            ]);
        }
        let fill = |m: &mut dyn FnMut(usize, usize, f64)| {
            for &(r, c, v) in &entries {
                m(r, c, v);
            }
        };
        let mut recorder = PatternRecorder::new();
        fill(&mut |r, c, v| recorder.add(r, c, v));
        let mut systems = [LinearSystem::dense(8), LinearSystem::sparse(8, &recorder)];
        assert!(systems[1].use_block_elimination());
        let mut solutions = Vec::new();
        for s in &mut systems {
            assemble_into!(s.cleared_matrix(), |m| fill(&mut |r, c, v| m.add(r, c, v)));
            s.factorize().unwrap();
            let mut x = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0];
            s.solve_in_place(&mut x);
            solutions.push(x);
        }
        assert!(!systems[1].uses_block_elimination(), "fell back");
        for i in 0..8 {
            assert!(
                (solutions[0][i] - solutions[1][i]).abs() < 1e-14,
                "{solutions:?}"
            );
        }
    }
}
