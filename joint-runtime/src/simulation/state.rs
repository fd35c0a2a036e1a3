//! Where a simulation is: its state, the progress of a running solve and the solver's
//! statistics.

/// The state of the system (Exudyn's "current" configuration).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct State {
    pub time: f64,
    /// ODE2 coordinates (displacements relative to the reference).
    pub q: Vec<f64>,
    pub v: Vec<f64>,
    /// True accelerations.
    pub a: Vec<f64>,
    /// AE coordinates (Lagrange multipliers, unscaled).
    pub lambda: Vec<f64>,
}

/// Newton's work over a solve.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NewtonStatistics {
    pub iterations: usize,
    pub jacobians: usize,
    pub rejected_modified_newton_steps: usize,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct SolverStatistics {
    pub steps: usize,
    pub newton: NewtonStatistics,
    pub last_step_size: f64,
    pub solver_seconds: f64,
    /// Whether the iteration matrix was factorized by the sparse LU (else the dense one).
    pub sparse_solver: bool,
    /// Stored entries of the sparse iteration matrix's pattern (0 with the dense LU).
    pub matrix_nonzeros: usize,
    /// Stored entries of the sparse LU factors at the end of the solve (0 with the dense LU).
    pub factor_nonzeros: usize,
    /// How the sparse LU's factorizations were done (all zero with the dense LU).
    pub sparse_factorizations: crate::linear::FactorizationCounts,
}

/// Where a running solve is (passed to progress callbacks after each step).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Progress {
    pub time: f64,
    pub start_time: f64,
    pub end_time: f64,
    pub steps: usize,
}
