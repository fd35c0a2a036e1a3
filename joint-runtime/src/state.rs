//! Where a simulation is: its state, the progress of a running solve and the solver's
//! statistics.

/// The state of the system (Exudyn's "current" configuration).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct State {
    /// Time (s).
    pub time: f64,
    /// ODE2 coordinates (displacements relative to the reference).
    pub q: Vec<f64>,
    /// ODE2 velocities.
    pub v: Vec<f64>,
    /// True accelerations.
    pub a: Vec<f64>,
    /// AE coordinates (Lagrange multipliers, unscaled).
    pub lambda: Vec<f64>,
    /// ODE1 coordinates y (NodeGenericODE1; displacements relative to the reference).
    pub y: Vec<f64>,
    /// ODE1 velocities ẏ.
    pub y_t: Vec<f64>,
    /// Data coordinates (NodeGenericData's history variables), in node order: not solved for,
    /// constant during a step, updated by their objects after it converged.
    pub data: Vec<f64>,
}

/// Newton's work over a solve.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NewtonStatistics {
    /// Newton iterations.
    pub iterations: usize,
    /// Jacobian evaluations (factorizations of the iteration matrix).
    pub jacobians: usize,
    /// Modified-Newton steps that fell back to full Newton (Exudyn's `rejectedModifiedNewtonSteps`).
    pub rejected_modified_newton_steps: usize,
}

#[derive(Clone, Debug, Default, PartialEq)]
/// What a solve did: steps, Newton's work, the last step size, time, and the linear solver's figures.
pub struct SolverStatistics {
    /// Completed (load) steps.
    pub steps: usize,
    /// Newton's work.
    pub newton: NewtonStatistics,
    /// Steps the error control of an explicit solver (ODE23, DOPRI5) or of the accurate mode
    /// rejected and repeated with a smaller step (Exudyn's `rejectedAutomaticStepSizeSteps`);
    /// `steps` counts the accepted ones.
    pub rejected_automatic_steps: usize,
    /// The last step size (s, or load-step pseudo-time).
    pub last_step_size: f64,
    /// Wall-clock time of the solve (s).
    pub solver_seconds: f64,
    /// Whether the iteration matrix was factorized by the sparse LU (else the dense one).
    pub sparse_solver: bool,
    /// Stored entries of the sparse iteration matrix's pattern (0 with the dense LU).
    pub matrix_nonzeros: usize,
    /// Stored entries of the sparse LU factors at the end of the solve (0 with the dense LU).
    pub factor_nonzeros: usize,
    /// How the sparse LU's factorizations were done (all zero with the dense LU).
    pub sparse_factorizations: crate::linear::FactorizationCounts,
    /// The largest |residual| of a constraint row the solver solved (position level at index 3,
    /// velocity level at index 2) over the accepted steps, in the rows' own units: what
    /// `SimulationSettings::constraint_tolerance` bounds.
    pub largest_constraint_residual: f64,
    /// Solves of the accepted steps, each Newton followed by PostNewton (Exudyn's
    /// discontinuous iterations: one per step unless an item's states asked for another).
    pub discontinuous_iterations: usize,
    /// [`SolverMode::Accurate`](crate::SolverMode::Accurate): evaluations of the accelerations
    /// (each a factorization of the index-1 system), rejected steps included (0 otherwise).
    pub evaluations: usize,
    /// [`SolverMode::Accurate`](crate::SolverMode::Accurate): the sum over the accepted steps
    /// of the largest local error estimate of a position coordinate (m, or rad for rotation
    /// parameters), an estimate of the error at the end that assumes errors neither grow nor
    /// cancel along the motion (0 otherwise).
    pub estimated_error: f64,
}

/// Where a running solve is (passed to progress callbacks after each step).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Progress {
    /// The time reached (s).
    pub time: f64,
    /// The solve's start time.
    pub start_time: f64,
    /// The solve's end time.
    pub end_time: f64,
    /// Completed steps so far.
    pub steps: usize,
}
