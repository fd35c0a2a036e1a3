//! The linear algebra of the implicit solvers: the iteration matrix, assembled either densely or
//! into a sparse pattern computed once, and its LU factorization.
//!
//! Following faer's split, the *symbolic* part — which entries of the iteration matrix can be
//! non-zero, the fill-reducing column ordering and the elimination structure — is computed once
//! per solve, from the same assembly code that later writes the values (a [`PatternRecorder`](accumulate::PatternRecorder)
//! runs it, so the pattern is exactly the generated kernels' block structure). The *numeric* part
//! (values, pivots, factors) is redone whenever Newton asks for a new Jacobian, into buffers that
//! were sized beforehand.

mod accumulate;
mod block_lu;
mod block_order;
mod dense_lu;
mod full_piv_lu;
mod pivot_replay;
mod small_dense;
mod sparse_lu;
mod sparse_matrix;
mod system;
mod vector_sums;

pub use accumulate::MatrixAccumulator;
pub use dense_lu::SingularColumn;
pub use sparse_lu::FactorizationCounts;
pub(crate) use system::assemble_into;
pub use system::{LinearSolverType, LinearSystem, SystemMatrix};
pub(crate) use vector_sums::dot;
