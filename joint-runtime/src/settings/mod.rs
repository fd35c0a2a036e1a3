//! Simulation settings with Exudyn's names (snake_case here, camelCase in model files) and
//! Exudyn 1.13.6's defaults (spec/solver.md §7).

mod discontinuous;

/// Defined with the linear solvers it selects; a setting of the solve.
pub use crate::linear::LinearSolverType;
/// Defined with the other storage limits; the default of `solution.storageLimit`.
pub use crate::storage::{default_storage_limit, human_bytes};
pub(crate) use discontinuous::Discontinuous;
pub use discontinuous::DiscontinuousSettings;

/// `newton.numericalDifferentiation`
#[derive(Clone, Debug, PartialEq)]
pub struct NumericalDifferentiation {
    /// `relativeEpsilon`: relative increment of the forward differences (ε = relEps·max(minCoord, |x|)).
    pub relative_epsilon: f64,
    /// `minimumCoordinateSize`: the smallest |x| the increment is scaled by.
    pub minimum_coordinate_size: f64,
}

impl Default for NumericalDifferentiation {
    fn default() -> Self {
        Self {
            relative_epsilon: 1e-7,
            minimum_coordinate_size: 0.01,
        }
    }
}

/// `timeIntegration.newton` / `staticSolver.newton`
#[derive(Clone, Debug, PartialEq)]
pub struct NewtonSettings {
    /// false: linear problem, one iteration.
    pub active: bool,
    /// `useModifiedNewton`: keep the Jacobian across iterations and steps until convergence slows.
    pub use_modified_newton: bool,
    /// `relativeTolerance`: convergence when the residual norm falls below this times the initial one.
    pub relative_tolerance: f64,
    /// `absoluteTolerance`: convergence when the residual norm falls below this.
    pub absolute_tolerance: f64,
    /// `maxIterations`: iterations of full Newton before the step fails.
    pub max_iterations: usize,
    /// `maxModifiedNewtonIterations`: iterations with one Jacobian before it is renewed.
    pub max_modified_newton_iterations: usize,
    /// `maxModifiedNewtonRestartIterations`: iterations after a Jacobian renewal before the step fails.
    pub max_modified_newton_restart_iterations: usize,
    /// `modifiedNewtonContractivity`: the residual ratio above which the Jacobian is renewed.
    pub modified_newton_contractivity: f64,
    /// `modifiedNewtonJacUpdatePerStep`: renew the Jacobian at the start of every step.
    pub modified_newton_jac_update_per_step: bool,
    /// `adaptInitialResidual`: if the first iteration's residual exceeds the initial one, it becomes
    /// the reference of the relative tolerance.
    pub adapt_initial_residual: bool,
    /// `maximumSolutionNorm`: |q|² or |q̇|² above this (or a NaN) is divergence.
    pub maximum_solution_norm: f64,
    /// `weightTolerancePerCoordinate`: divide the residual norm by √(number of unknowns).
    pub weight_tolerance_per_coordinate: bool,
    /// Not an Exudyn setting (off by default, so that Exudyn's iteration path stays the
    /// default): add the constraints' geometric stiffness ∂(C_qᵀλ)/∂q — generated exactly for
    /// the joints, 2λ·I for Euler-parameter nodes — to the Newton Jacobian.
    pub exact_constraint_jacobian: bool,
    /// `numericalDifferentiation`: how the forward-difference Jacobians are taken.
    pub numerical_differentiation: NumericalDifferentiation,
}

impl NewtonSettings {
    /// What the residual norm is divided by: √n with `weightTolerancePerCoordinate`, else 1.
    pub(crate) fn error_weight(&self, unknowns: usize) -> f64 {
        if self.weight_tolerance_per_coordinate {
            (unknowns as f64).sqrt()
        } else {
            1.0
        }
    }
}

impl Default for NewtonSettings {
    fn default() -> Self {
        Self {
            active: true,
            use_modified_newton: true,
            relative_tolerance: 1e-8,
            absolute_tolerance: 1e-10,
            max_iterations: 25,
            max_modified_newton_iterations: 8,
            max_modified_newton_restart_iterations: 7,
            modified_newton_contractivity: 0.5,
            modified_newton_jac_update_per_step: false,
            adapt_initial_residual: true,
            maximum_solution_norm: 1e38,
            weight_tolerance_per_coordinate: false,
            exact_constraint_jacobian: false,
            numerical_differentiation: NumericalDifferentiation::default(),
        }
    }
}

/// `timeIntegration.generalizedAlpha`
#[derive(Clone, Debug, PartialEq)]
pub struct GeneralizedAlphaSettings {
    /// `spectralRadius` ρ∞ of generalized-α (1: no numerical damping).
    pub spectral_radius: f64,
    /// `useNewmark`: Newmark's method with `newmarkBeta`, `newmarkGamma` instead of generalized-α.
    pub use_newmark: bool,
    /// `useIndex2Constraints`: constraints at velocity level (index 2) instead of position level.
    pub use_index2_constraints: bool,
    /// `newmarkBeta` β (with `useNewmark`).
    pub newmark_beta: f64,
    /// `newmarkGamma` γ (with `useNewmark`).
    pub newmark_gamma: f64,
    /// `computeInitialAccelerations`: solve for consistent accelerations before the first step.
    pub compute_initial_accelerations: bool,
    /// `resetAccelerations`: start from zero accelerations when they are not computed.
    pub reset_accelerations: bool,
    /// `storeInitialAlgebraicCoordinates`: keep the λ found with the initial accelerations (λ starts at 0 otherwise).
    pub store_initial_algebraic_coordinates: bool,
    /// `lieGroupSimplifiedKinematicRelations`: a RotVecLG node's unknown is its Lie-algebra
    /// increment θ since the step's start (q = q_n ∘ θ, θ −= Δ), without the predictor's Ξ.
    pub lie_group_simplified_kinematic_relations: bool,
    /// `lieGroupAddTangentOperator`: with the simplified relations, K's and C_q's rotation
    /// columns times the tangent operator T(θ) (dense linear solver only, as Exudyn).
    pub lie_group_add_tangent_operator: bool,
}

impl Default for GeneralizedAlphaSettings {
    fn default() -> Self {
        Self {
            spectral_radius: 0.9,
            use_newmark: false,
            use_index2_constraints: false,
            newmark_beta: 0.25,
            newmark_gamma: 0.5,
            compute_initial_accelerations: true,
            reset_accelerations: false,
            store_initial_algebraic_coordinates: true,
            lie_group_simplified_kinematic_relations: false,
            lie_group_add_tangent_operator: true,
        }
    }
}

/// `timeIntegration`
#[derive(Clone, Debug, PartialEq)]
pub struct TimeIntegrationSettings {
    /// `startTime` (s).
    pub start_time: f64,
    /// `endTime` (s).
    pub end_time: f64,
    /// `numberOfSteps`: the nominal step is (endTime − startTime)/numberOfSteps.
    pub number_of_steps: usize,
    /// `adaptiveStep`: reduce the step after a failed Newton solve and grow it back after easy steps.
    pub adaptive_step: bool,
    /// `adaptiveStepDecrease`: the factor a failed step's size is multiplied by.
    pub adaptive_step_decrease: f64,
    /// `adaptiveStepIncrease`: the factor the step grows by on recovery (up to the nominal step).
    pub adaptive_step_increase: f64,
    /// `adaptiveStepRecoverySteps`: accepted steps in a row before the step may grow.
    pub adaptive_step_recovery_steps: usize,
    /// `adaptiveStepRecoveryIterations`: the most Newton iterations per step that still count as easy.
    pub adaptive_step_recovery_iterations: usize,
    /// `minimumStepSize`: a failed step at this size ends the solve.
    pub minimum_step_size: f64,
    /// `reuseConstantMassMatrix`: compute the mass matrix once if every body's is constant.
    pub reuse_constant_mass_matrix: bool,
    /// `generalizedAlpha`: the integrator's parameters.
    pub generalized_alpha: GeneralizedAlphaSettings,
    /// `newton`: Newton's settings for each step.
    pub newton: NewtonSettings,
    /// `discontinuous`: the discontinuous iteration around each step's Newton.
    pub discontinuous: DiscontinuousSettings,
    /// `solverType`: the integrator SolveDynamic runs (a model file's top-level
    /// `dynamicSolverType`, SolveDynamic's `solverType` argument, takes its place).
    pub solver_type: DynamicSolverType,
    /// `explicit`: the explicit integrators' options.
    pub explicit: ExplicitSettings,
    /// `automaticStepSize`: step-size control of the embedded explicit methods (ODE23, DOPRI5).
    pub automatic_step_size: bool,
    /// `initialStepSize`: their first step (0: the nominal step).
    pub initial_step_size: f64,
    /// `absoluteTolerance`: their error control's absolute tolerance.
    pub absolute_tolerance: f64,
    /// `relativeTolerance`: their error control's relative tolerance.
    pub relative_tolerance: f64,
    /// `stepSizeSafety`: the factor on the optimal step size of their error control.
    pub step_size_safety: f64,
    /// `stepSizeMaxIncrease`: the most a step may grow from one step to the next under their control.
    pub step_size_max_increase: f64,
}

impl TimeIntegrationSettings {
    /// The generalized-α parameters the implicit solver runs with: SolveDynamic turns
    /// `useNewmark` and `useIndex2Constraints` on for TrapezoidalIndex2 (Newmark with β = 1/4,
    /// γ = 1/2 and index-2 constraints) for the run, and leaves them as set otherwise.
    pub fn generalized_alpha_for_run(&self) -> GeneralizedAlphaSettings {
        let mut ga = self.generalized_alpha.clone();
        if self.solver_type == DynamicSolverType::TrapezoidalIndex2 {
            ga.use_newmark = true;
            ga.use_index2_constraints = true;
        }
        ga
    }
}

/// Exudyn's `DynamicSolverType`: the integrator of a dynamic solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum DynamicSolverType {
    /// Implicit generalized-α (or Newmark with `useNewmark`), Exudyn's default.
    #[default]
    GeneralizedAlpha,
    /// Implicit trapezoidal rule (Newmark β = 1/4, γ = 1/2) with index-2 constraints.
    TrapezoidalIndex2,
    /// Explicit Euler, order 1.
    ExplicitEuler,
    /// Explicit midpoint rule, order 2.
    ExplicitMidpoint,
    /// Heun's third-order Runge–Kutta method.
    RK33,
    /// The classical fourth-order Runge–Kutta method.
    RK44,
    /// Butcher's seven-stage sixth-order Runge–Kutta method.
    RK67,
    /// Bogacki–Shampine 3(2) with error control.
    ODE23,
    /// Dormand–Prince 5(4) with error control.
    DOPRI5,
    /// Velocity Verlet (ODE2: kick–drift–kick; ODE1: explicit Euler).
    VelocityVerlet,
}

impl DynamicSolverType {
    /// Every type, in Exudyn's enumeration order.
    pub const ALL: [DynamicSolverType; 10] = [
        DynamicSolverType::GeneralizedAlpha,
        DynamicSolverType::TrapezoidalIndex2,
        DynamicSolverType::ExplicitEuler,
        DynamicSolverType::ExplicitMidpoint,
        DynamicSolverType::RK33,
        DynamicSolverType::RK44,
        DynamicSolverType::RK67,
        DynamicSolverType::ODE23,
        DynamicSolverType::DOPRI5,
        DynamicSolverType::VelocityVerlet,
    ];

    /// Exudyn's member name.
    pub fn name(self) -> &'static str {
        match self {
            DynamicSolverType::GeneralizedAlpha => "GeneralizedAlpha",
            DynamicSolverType::TrapezoidalIndex2 => "TrapezoidalIndex2",
            DynamicSolverType::ExplicitEuler => "ExplicitEuler",
            DynamicSolverType::ExplicitMidpoint => "ExplicitMidpoint",
            DynamicSolverType::RK33 => "RK33",
            DynamicSolverType::RK44 => "RK44",
            DynamicSolverType::RK67 => "RK67",
            DynamicSolverType::ODE23 => "ODE23",
            DynamicSolverType::DOPRI5 => "DOPRI5",
            DynamicSolverType::VelocityVerlet => "VelocityVerlet",
        }
    }

    /// The type of an Exudyn member name (`RK44` or `DynamicSolverType.RK44`).
    pub fn from_name(name: &str) -> Option<DynamicSolverType> {
        let name = name.strip_prefix("DynamicSolverType.").unwrap_or(name);
        Self::ALL.into_iter().find(|t| t.name() == name)
    }

    /// Whether an explicit integrator runs it (no Newton iteration, no constraints solved).
    pub fn is_explicit(self) -> bool {
        !matches!(
            self,
            DynamicSolverType::GeneralizedAlpha | DynamicSolverType::TrapezoidalIndex2
        )
    }
}

/// `timeIntegration.explicit` (Exudyn 1.11: `explicitIntegration`)
#[derive(Clone, Debug, PartialEq)]
pub struct ExplicitSettings {
    /// `computeEndOfStepAccelerations`: evaluate the accelerations at the end of each step
    /// (else the last stage's are kept, one evaluation cheaper).
    pub compute_end_of_step_accelerations: bool,
    /// `computeMassMatrixInversePerBody`: invert the mass matrix body by body instead of
    /// factorizing the system's.
    pub compute_mass_matrix_inverse_per_body: bool,
    /// `eliminateConstraints`: coordinate constraints to ground fix their coordinate at 0;
    /// false: constraints are ignored (λ = 0), as Exudyn does.
    pub eliminate_constraints: bool,
    /// `useLieGroupIntegration`: Lie-group updates for NodeRigidBodyRotVecLG nodes.
    pub use_lie_group_integration: bool,
}

impl Default for ExplicitSettings {
    fn default() -> Self {
        Self {
            compute_end_of_step_accelerations: true,
            compute_mass_matrix_inverse_per_body: false,
            eliminate_constraints: true,
            use_lie_group_integration: true,
        }
    }
}

impl Default for TimeIntegrationSettings {
    fn default() -> Self {
        Self {
            start_time: 0.0,
            end_time: 1.0,
            number_of_steps: 100,
            adaptive_step: true,
            adaptive_step_decrease: 0.5,
            adaptive_step_increase: 2.0,
            adaptive_step_recovery_steps: 10,
            adaptive_step_recovery_iterations: 7,
            minimum_step_size: 1e-8,
            reuse_constant_mass_matrix: true,
            generalized_alpha: GeneralizedAlphaSettings::default(),
            newton: NewtonSettings::default(),
            discontinuous: DiscontinuousSettings::default(),
            solver_type: DynamicSolverType::GeneralizedAlpha,
            explicit: ExplicitSettings::default(),
            automatic_step_size: true,
            initial_step_size: 0.0,
            absolute_tolerance: 1e-8,
            relative_tolerance: 1e-8,
            step_size_safety: 0.9,
            step_size_max_increase: 2.0,
        }
    }
}

/// `staticSolver`
#[derive(Clone, Debug, PartialEq)]
pub struct StaticSolverSettings {
    /// `numberOfLoadSteps`: the nominal load step is loadStepDuration/numberOfLoadSteps.
    pub number_of_load_steps: usize,
    /// `loadStepDuration`: the pseudo-time the loads ramp over.
    pub load_step_duration: f64,
    /// `loadStepStart`: the pseudo-time at the first load step.
    pub load_step_start: f64,
    /// `loadStepGeometric`: load steps grow geometrically instead of uniformly.
    pub load_step_geometric: bool,
    /// `loadStepGeometricRange`: the ratio of the last to the first geometric load step.
    pub load_step_geometric_range: f64,
    /// `useLoadFactor`: ramp the loads with the pseudo-time (otherwise full loads from the start).
    pub use_load_factor: bool,
    /// `adaptiveStep`: reduce a load step after a failed Newton solve and grow it back after easy steps.
    pub adaptive_step: bool,
    /// `adaptiveStepDecrease`: the factor a failed load step is multiplied by.
    pub adaptive_step_decrease: f64,
    /// `adaptiveStepIncrease`: the factor a load step grows by on recovery.
    pub adaptive_step_increase: f64,
    /// `adaptiveStepRecoverySteps`: accepted load steps in a row before the step may grow.
    pub adaptive_step_recovery_steps: usize,
    /// `adaptiveStepRecoveryIterations`: the most Newton iterations per load step that still count as easy.
    pub adaptive_step_recovery_iterations: usize,
    /// `minimumStepSize`: a failed load step at this size ends the solve.
    pub minimum_step_size: f64,
    /// `computeLoadsJacobian`: include the loads' Jacobian (by differences) in the iteration matrix.
    pub compute_loads_jacobian: bool,
    /// `newton`: Newton's settings for each load step.
    pub newton: NewtonSettings,
    /// `discontinuous`: the discontinuous iteration around each load step's Newton.
    pub discontinuous: DiscontinuousSettings,
}

impl Default for StaticSolverSettings {
    fn default() -> Self {
        Self {
            number_of_load_steps: 1,
            load_step_duration: 1.0,
            load_step_start: 0.0,
            load_step_geometric: false,
            load_step_geometric_range: 1000.0,
            use_load_factor: true,
            adaptive_step: true,
            adaptive_step_decrease: 0.25,
            adaptive_step_increase: 2.0,
            adaptive_step_recovery_steps: 4,
            adaptive_step_recovery_iterations: 7,
            minimum_step_size: 1e-8,
            compute_loads_jacobian: true,
            newton: NewtonSettings {
                use_modified_newton: false,
                ..NewtonSettings::default()
            },
            discontinuous: DiscontinuousSettings::default(),
        }
    }
}

/// `solution`
#[derive(Clone, Debug, PartialEq)]
pub struct SolutionSettings {
    /// `solution.sensors.writePeriod`
    pub sensors_write_period: f64,
    /// `solution.sensors.active`
    pub sensors_active: bool,
    /// `solution.file.writeInitialValues`
    pub write_initial_values: bool,
    /// `solution.file.*` and `solution.precision`: the coordinates solution file
    /// (`jointsim run --solution-file`).
    pub file: SolutionFileSettings,
}

/// The coordinates solution file's settings (Exudyn's defaults).
#[derive(Clone, Debug, PartialEq)]
pub struct SolutionFileSettings {
    /// `solution.file.writePeriod` (1.11: `solutionSettings.solutionWritePeriod`)
    pub write_period: f64,
    /// `solution.file.writeHeader` (1.11: `writeFileHeader`)
    pub write_header: bool,
    /// `solution.file.writeFooter` (1.11: `writeFileFooter`)
    pub write_footer: bool,
    /// `solution.file.export.velocities` (1.11: `exportVelocities`)
    pub export_velocities: bool,
    /// `solution.file.export.accelerations` (1.11: `exportAccelerations`)
    pub export_accelerations: bool,
    /// `solution.file.export.ODE1Velocities` (1.11: `exportODE1Velocities`): the rows' ẏ
    /// (the header counts them by `velocities`, as Exudyn's)
    pub export_ode1_velocities: bool,
    /// `solution.file.export.algebraicCoordinates` (1.11: `exportAlgebraicCoordinates`)
    pub export_algebraic_coordinates: bool,
    /// `solution.file.export.dataCoordinates` (1.11: `exportDataCoordinates`)
    pub export_data_coordinates: bool,
    /// `solution.file.information` (1.11: `solutionInformation`)
    pub information: String,
    /// `solution.precision` (1.11: `outputPrecision`): significant digits
    pub precision: usize,
}

impl Default for SolutionFileSettings {
    fn default() -> Self {
        Self {
            write_period: 0.01,
            write_header: true,
            write_footer: true,
            export_velocities: true,
            export_accelerations: true,
            export_ode1_velocities: true,
            export_algebraic_coordinates: true,
            export_data_coordinates: true,
            information: String::new(),
            precision: 10,
        }
    }
}

impl Default for SolutionSettings {
    fn default() -> Self {
        Self {
            sensors_write_period: 0.01,
            sensors_active: true,
            write_initial_values: true,
            file: SolutionFileSettings::default(),
        }
    }
}

/// Not an Exudyn setting: which contract the dynamic solver keeps (`jointsim run --solver`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum SolverMode {
    /// Exudyn's Newton path to the iteration (its predictor, Jacobian schedule, omitted
    /// Jacobian terms and stopping test): iteration and Jacobian counts equal Exudyn's, results
    /// equal to round-off. The default.
    #[default]
    Exact,
    /// The same generalized-α (or Newmark) step equations, solved with this crate's own Newton
    /// control: the iteration starts from the last step's accelerations and multipliers, the
    /// Jacobian includes the terms Exudyn omits and is renewed when the contraction slows or the
    /// step size changes, never restarted. Judged by accuracy against a tightly converged
    /// solution, not by Exudyn's counts. Static solves are not affected.
    Fast,
    /// Another integrator for the same equations, chosen for accuracy per second: the embedded
    /// Runge–Kutta pair Dormand–Prince 8(5,3) on the index-1 form of the constrained equations
    /// (at every stage `[M C_qᵀ; C_q 0][q̈; λ] = [f; c]`, c the convective term), its step
    /// chosen by the local error estimate against [`SimulationSettings::error_tolerance`], and
    /// the positions and velocities projected onto the constraints at the start and after every
    /// accepted step (in the mass matrix's metric). The step count is the error control's
    /// (`timeIntegration.numberOfSteps` only sizes the sensors' storage); sensor rows due
    /// inside a step are recorded at their write times from the state's quintic Hermite
    /// interpolant between the step's ends. Judged, as the fast
    /// mode, by accuracy against a converged solution; the run reports its estimated error
    /// ([`SolverStatistics::estimated_error`](crate::SolverStatistics::estimated_error)).
    /// Dynamic solves with implicit `solverType`s only (explicit ones run as Exudyn's); not
    /// for RotVecLG (Lie-group) nodes; no discontinuous iteration (items' states update after
    /// each step, as in Exudyn's explicit solvers). Explicit: a stiff model (a stiff spring,
    /// a flexible body's high modes) takes steps as small as its fastest period. Static solves
    /// are not affected.
    Accurate,
}

/// The default of [`SimulationSettings::constraint_tolerance`]: 100 times the largest
/// constraint residual a step of the reference corpus accepts (`tests/reference_cases`
/// records it and fails when a case comes within that factor).
pub const DEFAULT_CONSTRAINT_TOLERANCE: f64 = 1e-4;

/// Exudyn's SimulationSettings, with Exudyn's defaults.
///
/// | setting | field | default |
/// |---|---|---|
/// | `timeIntegration.startTime`, `endTime` | `time_integration.start_time`, `end_time` | 0, 1 s |
/// | `timeIntegration.numberOfSteps` | `time_integration.number_of_steps` | 100 |
/// | `timeIntegration.adaptiveStep` | `time_integration.adaptive_step` | true (step halved on a failed Newton solve, grown back ×2 after 10 easy steps) |
/// | `timeIntegration.generalizedAlpha.spectralRadius` | `….generalized_alpha.spectral_radius` | ρ∞ = 0.9 |
/// | `….useIndex2Constraints`, `useNewmark` | `….use_index2_constraints`, `use_newmark` | false, false (index 3 generalized-α) |
/// | `timeIntegration.newton.relativeTolerance`, `absoluteTolerance` | `time_integration.newton.…` | 1e-8, 1e-10 |
/// | `….newton.maxIterations`, `useModifiedNewton` | `….max_iterations`, `use_modified_newton` | 25, true |
/// | `solutionSettings.sensorsWritePeriod` | `solution.sensors_write_period` | 0.01 s |
/// | `linearSolverType` | `linear_solver` | dense LU (EXUdense) |
/// | (this runtime's) | `solver_mode` | [`SolverMode::Exact`] |
/// | (this runtime's) | `constraint_tolerance` | 1e-4 (per row, in its units) |
/// | (this runtime's) | `error_tolerance` | 1e-6 ([`SolverMode::Accurate`]'s local error per step) |
///
/// ```
/// use joint_runtime::{SimulationSettings, SolverMode};
/// let s = SimulationSettings::default();
/// assert_eq!(s.time_integration.number_of_steps, 100);
/// assert_eq!(s.time_integration.generalized_alpha.spectral_radius, 0.9);
/// assert_eq!(s.time_integration.newton.relative_tolerance, 1e-8);
/// assert_eq!(s.time_integration.newton.absolute_tolerance, 1e-10);
/// assert_eq!(s.solution.sensors_write_period, 0.01);
/// assert_eq!(s.solver_mode, SolverMode::Exact);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct SimulationSettings {
    /// `timeIntegration`: the dynamic solver's settings.
    pub time_integration: TimeIntegrationSettings,
    /// `staticSolver`: the static solver's settings.
    pub static_solver: StaticSolverSettings,
    /// `solution`: what is written (solution file, sensors) and how often.
    pub solution: SolutionSettings,
    /// `linearSolverType`: dense LU or sparse LU (Exudyn's EXUdense / EigenSparse).
    pub linear_solver: LinearSolverType,
    /// Not an Exudyn setting: the most a run may keep in memory of what it records (sensor rows,
    /// and in `jointsim` the solution file and a scene's frames), in bytes. A run that would
    /// keep more is refused before it starts, with an error naming the settings that size it.
    /// `None`: [`default_storage_limit`] (half of the machine's memory).
    pub storage_limit: Option<usize>,
    /// Not an Exudyn setting: Exudyn's Newton path ([`SolverMode::Exact`], the default) or the
    /// fast path for dynamic solves.
    pub solver_mode: SolverMode,
    /// Not an Exudyn setting: the largest |residual| a constraint row may keep after an accepted
    /// step (absolute, per row, in the row's own units: metres, radians, m/s at index 2),
    /// checked after every accepted step of the implicit and static solvers on the rows they
    /// solve. Beyond it the run fails, naming the item, the row, the time and the residual,
    /// and leaves the last converged step's state. Independent of Newton's tolerances
    /// (relative, and raised by `adaptInitialResidual`); the check reads the residual Newton
    /// computed last, so it changes no iteration. Default
    /// [`DEFAULT_CONSTRAINT_TOLERANCE`];
    /// `f64::INFINITY` checks only that the rows are finite.
    pub constraint_tolerance: f64,
    /// Not an Exudyn setting: the local error tolerance of [`SolverMode::Accurate`], per step,
    /// on each position and velocity coordinate, absolute and relative
    /// (tolerance·(1 + |x|)), in the coordinates' units; the error at the end of a run is of
    /// this order times the growth of errors along the motion. Default 1e-6, at least 1e-14
    /// and at most 1 (checked when the accurate mode runs); the other modes ignore it.
    pub error_tolerance: f64,
}

impl Default for SimulationSettings {
    fn default() -> Self {
        SimulationSettings {
            time_integration: TimeIntegrationSettings::default(),
            static_solver: StaticSolverSettings::default(),
            solution: SolutionSettings::default(),
            linear_solver: LinearSolverType::default(),
            storage_limit: None,
            solver_mode: SolverMode::default(),
            constraint_tolerance: DEFAULT_CONSTRAINT_TOLERANCE,
            error_tolerance: 1e-6,
        }
    }
}

impl SimulationSettings {
    /// [`SimulationSettings::storage_limit`], or the default.
    pub fn storage_limit_bytes(&self) -> usize {
        self.storage_limit.unwrap_or_else(default_storage_limit)
    }
}

/// Which solve to run (a model file's `"solve"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SolveKind {
    /// `mbs.SolveDynamic(simulationSettings)` (the default).
    #[default]
    Dynamic,
    /// `mbs.SolveStatic(simulationSettings)`.
    Static,
}
