//! Exudyn's implicit second-order solver: generalized-α (Arnold & Brüls) or Newmark, index 3 or
//! index 2, with Exudyn's predictor, scaling, Jacobian (and its omitted terms), initial
//! accelerations and adaptive step reduction/recovery (spec/solver.md §2–5).

use nalgebra::{Matrix3, Vector3};

use super::anderson::Anderson;
use super::extrapolation::Extrapolation;
use super::fast_newton::{
    ANDERSON_DEPTH, FastNewtonProblem, PIVOT_THRESHOLD, fast_newton, increment_within_roundoff,
};
use super::newton::{NewtonOutcome, NewtonProblem, forward_difference, newton};
use super::step_size::{Adaptive, StepSize, report_step};
use crate::assemble::Topology;
use crate::error::{Error, Result};
use crate::items::joints::ConstraintLevel;
use crate::linear::{LinearSystem, MatrixAccumulator, SingularColumn, assemble_into, dot};
use crate::markers::rotation_vector::{skew, t_exp_so3};
use crate::physics::{ConstraintJacobian, ConstraintRowFactors, ForwardDifference, Scratch};
use crate::sensors::SensorWriter;
use crate::settings::Discontinuous;
use crate::settings::{
    LinearSolverType, NewtonSettings, SimulationSettings, SolverMode, TimeIntegrationSettings,
};
use crate::simulation::{Progress, Simulation};
use crate::state::NewtonStatistics;

mod iteration_matrix;
mod newton_problem;
mod step;

/// Integration constants of one run.
#[derive(Clone, Copy, Debug)]
struct Constants {
    alpha_m: f64,
    alpha_f: f64,
    beta: f64,
    gamma: f64,
    newmark: bool,
}

/// The Newton problem of one time step, with all buffers (no allocation per step).
pub(crate) struct StepProblem<'a> {
    sim: &'a mut Simulation,
    c: Constants,
    index2: bool,
    /// Add the constraints' geometric stiffness to J̄ (not Exudyn's default).
    exact: bool,
    /// The AE rows' Jacobian: Exudyn's, or (fast path, index 3) ∂g/∂q of the position level,
    /// consistent with the residual: with Exudyn's, Newton converges linearly off |θ| = 1.
    constraint_rows: ConstraintJacobian,
    /// The fast path (`SolverMode::Fast`): its residual not in Exudyn's order of operations
    /// (rigid bodies in Newton–Euler form, physics/newton_euler.rs; C_qᵀλ by the pairings'
    /// generated `reaction_forces` kernels), its start extrapolated (`solver/extrapolation.rs`)
    /// and its round-off stop judged per coordinate.
    fast_path: bool,
    /// max |Δq| of the last Newton step: the solve's, and the one applied after the mixing.
    increment: f64,
    applied_increment: f64,
    /// Whether the last Newton step was within round-off of every coordinate (fast path).
    increment_at_roundoff: bool,
    fd: ForwardDifference,
    c_err: f64,
    // step data
    h: f64,
    s: f64,
    beta_p: f64,
    gamma_p: f64,
    // start of step
    q_n: Vec<f64>,
    v_n: Vec<f64>,
    /// ODE1 coordinates and velocities at the start of the step.
    y_n: Vec<f64>,
    y_t_n: Vec<f64>,
    /// The data coordinates at the step's start (the items' states; empty without any).
    data_n: Vec<f64>,
    acc_n: Vec<f64>,
    lambda_n: Vec<f64>,
    /// ä and λ at the start of the previous step, and that step's size (the fast start's
    /// extrapolation); `h_prev` is 0 before the first accepted step.
    acc_prev: Vec<f64>,
    lambda_prev: Vec<f64>,
    h_prev: f64,
    /// The same one step further back (the quadratic extrapolation).
    acc_prev2: Vec<f64>,
    lambda_prev2: Vec<f64>,
    h_prev2: f64,
    /// The last fast start's linear and quadratic extrapolations of ä: compared with the ä the
    /// step converged to, they choose the order of the next start.
    predicted_linear: Vec<f64>,
    predicted_quadratic: Vec<f64>,
    h_done: f64,
    /// On uniform steps, the start's ä and λ (`solver/extrapolation.rs`), and their values
    /// extrapolated (also the evaluations' scratch).
    acc_extrapolation: Extrapolation,
    lambda_extrapolation: Extrapolation,
    acc_extrapolated: Vec<f64>,
    lambda_extrapolated: Vec<f64>,
    /// Whether `predicted_linear` and `predicted_quadratic` are the last start's.
    variable_step_predictions: bool,
    a_start: Vec<f64>,
    /// The algorithmic-acceleration buffer (see the reset quirk in spec/solver.md §5).
    a_buf: Vec<f64>,
    /// Per ODE2 coordinate: whether it belongs to a NodeRigidBodyRotVecLG (empty if there is
    /// none), whose 6 coordinates the predictor builds as an increment from the step's start
    /// and whose rotation vectors Newton moves by composition.
    lie_column: Vec<LieColumn>,
    /// `lieGroupSimplifiedKinematicRelations`: the Lie nodes' unknown is θ (`lie_theta`, 6 per
    /// node in `Topology::lie_nodes` order), the increment since the step's start.
    lie_simplified: bool,
    /// With the simplified relations, `lieGroupAddTangentOperator`: K and C_q times T(θ).
    lie_tangent: bool,
    lie_theta: Vec<f64>,
    /// T(θ_rot) per Lie node, for the iteration matrix.
    lie_tangents: Vec<Matrix3<f64>>,
    // iterate buffers
    qt: Vec<f64>,
    f: Vec<f64>,
    /// f1(y) of the last residual.
    f1: Vec<f64>,
    /// y, perturbed by the ODE1 Jacobian's differences.
    y_fd: Vec<f64>,
    /// `[s·r_q; r_y; r_g]`, then the Newton increment.
    rhs: Vec<f64>,
    /// The iteration matrix J̄ and its factors (dense or sparse, per linearSolver.solverType).
    system: LinearSystem,
    /// The fast path's mixing of the increments of a kept Jacobian.
    anderson: Anderson,
    scratch: Scratch,
}

/// q = q_n ∘ θ on the Lie nodes (θ: 6 per node in `Topology::lie_nodes` order): positions
/// q_n + θ_pos, rotations composed onto the step's start.
fn compose_from_step_start(
    topo: &crate::assemble::Topology,
    q_n: &[f64],
    theta: &[f64],
    q: &mut [f64],
) {
    for (k, &start) in topo.lie_nodes.iter().enumerate() {
        let t = &theta[6 * k..6 * k + 6];
        for j in 0..3 {
            q[start + j] = q_n[start + j] + t[j];
        }
        let nu = topo.compose_lie_rotation(start, q_n, &Vector3::new(t[3], t[4], t[5]));
        q[start + 3..start + 6].copy_from_slice(nu.as_slice());
    }
}

/// How far a step's discontinuous iteration got when it failed: its solves, and the error of
/// its last PostNewton if that was why.
pub(super) struct DiscontinuousFailure {
    pub(super) solves: usize,
    pub(super) error: Option<f64>,
}

/// The error of a step that could not be solved (`why`: no smaller step was allowed), naming
/// the worst equation; the simulation left at the last converged step.
fn step_failure(
    p: &mut StepProblem,
    ti: &TimeIntegrationSettings,
    t_n: f64,
    t_new: f64,
    failure: DiscontinuousFailure,
    why: &str,
) -> Error {
    let (equation, residual) = p.worst_equation();
    p.restore_last_good(t_n);
    let worst = worst_clause(equation.as_deref(), residual);
    let what = match failure.error {
        Some(e) => format!(
            "the discontinuous iteration did not settle at t = {t_new}: after {} solves the states still move their items' equations by {e} (discontinuous.iterationTolerance {}, ignoreMaxIterations off)",
            failure.solves, ti.discontinuous.iteration_tolerance
        ),
        None => format!("Newton did not converge at t = {t_new}"),
    };
    Error::solver_failed_at(
        format!("{what} ({why}){worst}; the state is the last converged step's (t = {t_n})"),
        t_new,
        equation,
        residual,
    )
}

/// What an ODE2 coordinate is to the Lie-group update.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LieColumn {
    /// Not a NodeRigidBodyRotVecLG's.
    None,
    /// A RotVecLG node's position: additive, but predicted as an increment.
    Position,
    /// A RotVecLG node's rotation vector: composed.
    Rotation,
}

/// x(t_n + h) extrapolated linearly from x_n = `x[0]` and x_{n−1} = `x[1]`, a step `h1`
/// apart; x_n itself if there is no earlier step (`h1` = 0).
fn extrapolate_linear(x: [f64; 3], h: f64, h1: f64) -> f64 {
    if h1 > 0.0 {
        x[0] + h / h1 * (x[0] - x[1])
    } else {
        x[0]
    }
}

/// x(t_n + h) from the quadratic through x_n, x_{n−1}, x_{n−2} (`x`) at t_n, t_n − h1,
/// t_n − h1 − h2, in Newton's divided differences: the linear extrapolation plus
/// h·(h + h1)·x[t_n, t_{n−1}, t_{n−2}]. Exact for quadratics with any step sizes
/// (`quadratic_extrapolation_is_exact_for_quadratics`).
fn extrapolate_quadratic(x: [f64; 3], h: f64, h1: f64, h2: f64) -> f64 {
    let d1 = (x[0] - x[1]) / h1;
    let d1_prev = (x[1] - x[2]) / h2;
    extrapolate_linear(x, h, h1) + h * (h + h1) * (d1 - d1_prev) / (h1 + h2)
}

/// `; worst equation …, residual …` for a failure message (empty without an equation).
pub(super) fn worst_clause(equation: Option<&str>, residual: Option<f64>) -> String {
    match (equation, residual) {
        (Some(e), Some(r)) => format!("; worst equation {e}, residual {r}"),
        _ => String::new(),
    }
}

impl Simulation {
    /// The implicit dynamic solve behind [`Simulation::solve_observed`].
    pub(super) fn run_dynamic(
        &mut self,
        settings: &SimulationSettings,
        observer: &mut dyn FnMut(&Simulation, Progress),
    ) -> Result<()> {
        settings.validate_dynamic()?;
        self.check_lie_tangent_operator(settings)?;
        // TrapezoidalIndex2 runs as Newmark with index-2 constraints
        let ti = &TimeIntegrationSettings {
            generalized_alpha: settings.time_integration.generalized_alpha_for_run(),
            ..settings.time_integration.clone()
        };
        let started = self.start_dynamic(settings, ti, observer)?;

        let mut step = steps_of(ti);
        let mut step_index: usize = 0;
        let mut jacobian_required = true;
        let mut jacobian_step = f64::NAN;
        let full_newton = NewtonSettings {
            use_modified_newton: false,
            ..ti.newton.clone()
        };
        let mut writer = self.sensor_writer(settings);
        let end = ti.end_time;
        let mut stats = self.statistics.newton;
        let mut largest_constraint: f64 = 0.0;
        let mut discontinuous_total = 0;
        // an item's recommended step (Exudyn's `recommendedStepSize`), which shortens a failed step
        let mut recommended: Option<f64> = None;
        let level = constraint_level(ti);
        {
            let mut p = StepProblem::new(self, ti, settings.linear_solver, settings.solver_mode);
            p.sim.statistics.sparse_solver = p.system.is_sparse();
            p.sim.statistics.matrix_nonzeros = p.system.nonzeros();
            p.a_buf.copy_from_slice(&p.sim.state.a);
            while p.sim.state.time < end - 1e-10 {
                let t_n = p.sim.state.time;
                if ti.adaptive_step && t_n + step.h > end {
                    step.h = end - t_n;
                }
                p.save_start_of_step();
                if ti.newton.modified_newton_jac_update_per_step {
                    jacobian_required = true;
                }
                let mut t_new;
                // solves of this step (Newton, then PostNewton), and a discontinuous
                // iteration's failure as the reason a step is reduced
                let mut solves = 0;
                let mut discontinuous_failure = None;
                let iterations = loop {
                    t_new = if ti.adaptive_step {
                        t_n + step.h
                    } else {
                        (step_index + 1) as f64 * step.h + ti.start_time
                    };
                    p.sim.state.time = t_new;
                    p.set_step_size(step.h);
                    let outcome = match settings.solver_mode {
                        SolverMode::Exact => {
                            p.predictor();
                            newton(&mut p, &ti.newton, &mut jacobian_required, &mut stats)
                        }
                        SolverMode::Fast | SolverMode::Accurate => {
                            // J̄ holds s and β', γ' of the step size it was built with
                            if step.h != jacobian_step {
                                jacobian_required = true;
                                jacobian_step = step.h;
                            }
                            let newton_settings = [&ti.newton, &full_newton];
                            fast_then_full(
                                &mut p,
                                newton_settings,
                                &mut jacobian_required,
                                &mut stats,
                            )
                        }
                    };
                    let outcome = match outcome {
                        NewtonOutcome::Converged { iterations } => {
                            solves += 1;
                            let post = PostNewtonStep {
                                ti,
                                level,
                                h: step.h,
                                iterations,
                                solves,
                            };
                            match post.run(
                                &mut p,
                                &mut writer,
                                &mut recommended,
                                &mut discontinuous_failure,
                            ) {
                                Some(outcome) => outcome,
                                None => continue,
                            }
                        }
                        other => other,
                    };
                    match outcome {
                        NewtonOutcome::Converged { iterations } => break iterations,
                        NewtonOutcome::Singular(col) => {
                            let e = p.sim.singular_error(col.0, t_new);
                            p.restore_last_good(t_n);
                            return Err(e);
                        }
                        NewtonOutcome::Failed { .. } => {
                            if let Some(why) = no_smaller_step(ti, &step) {
                                let failure = DiscontinuousFailure {
                                    solves,
                                    error: discontinuous_failure,
                                };
                                return Err(step_failure(&mut p, ti, t_n, t_new, failure, &why));
                            }
                            p.restore_for_reduction(t_n);
                            solves = 0;
                            discontinuous_failure = None;
                            step.reduce_to(recommended);
                        }
                    }
                };
                match p.check_constraints(settings.constraint_tolerance, t_new) {
                    Ok(r) => largest_constraint = largest_constraint.max(r),
                    Err(e) => {
                        p.restore_last_good(t_n);
                        return Err(e);
                    }
                }
                p.finalize();
                step_index += 1;
                let progress = Progress {
                    time: p.sim.state.time,
                    start_time: ti.start_time,
                    end_time: end,
                    steps: step_index,
                };
                report_step(p.sim, stats, step.h, &mut writer, observer, progress);
                // the step's last Newton iterations plus its discontinuous iterations
                discontinuous_total += solves;
                step.accepted(iterations + solves);
            }
            p.sim.statistics.factor_nonzeros = p.system.factor_nonzeros();
            p.sim.statistics.sparse_factorizations = p.system.factorization_counts();
        }
        self.statistics.newton = stats;
        self.statistics.largest_constraint_residual = largest_constraint;
        self.statistics.discontinuous_iterations = discontinuous_total;
        self.statistics.solver_seconds = started.elapsed().as_secs_f64();
        Ok(())
    }
}

impl Simulation {
    /// Exudyn refuses the Lie-group tangent operator with its sparse solver on a system with
    /// RotVecLG nodes; so does the runtime.
    fn check_lie_tangent_operator(&self, settings: &SimulationSettings) -> Result<()> {
        let ga = &settings.time_integration.generalized_alpha;
        if ga.lie_group_simplified_kinematic_relations
            && ga.lie_group_add_tangent_operator
            && settings.linear_solver == crate::linear::LinearSolverType::EigenSparse
            && !self.topology.lie_nodes.is_empty()
        {
            return Err(Error::solver_failed(
                "timeIntegration.generalizedAlpha.lieGroupAddTangentOperator may not be \
                          set True with the EigenSparse linear solver (as in Exudyn): set it \
                          False or use EXUdense",
            ));
        }
        Ok(())
    }
}

/// The steps' size control: equal steps, adaptive if asked.
fn steps_of(ti: &TimeIntegrationSettings) -> StepSize {
    let h_max = (ti.end_time - ti.start_time) / ti.number_of_steps as f64;
    StepSize::new(
        h_max,
        h_max,
        Adaptive {
            minimum: ti.minimum_step_size,
            decrease: ti.adaptive_step_decrease,
            increase: ti.adaptive_step_increase,
            recovery_steps: ti.adaptive_step_recovery_steps,
            recovery_iterations: ti.adaptive_step_recovery_iterations,
        },
    )
}

/// Why a failed step cannot be reduced (`None`: it can).
fn no_smaller_step(ti: &TimeIntegrationSettings, step: &StepSize) -> Option<String> {
    if !ti.adaptive_step {
        Some("adaptiveStep is off".to_owned())
    } else if step.at_minimum() {
        Some(format!(
            "with the minimum step size {}",
            ti.minimum_step_size
        ))
    } else {
        None
    }
}

/// The fast Newton of the fast and accurate modes (`settings[0]`), and where it fails, before
/// the step is reduced, Exudyn's control with full Newton (`settings[1]`) from Exudyn's
/// predictor.
fn fast_then_full(
    p: &mut StepProblem,
    settings: [&NewtonSettings; 2],
    jacobian_required: &mut bool,
    stats: &mut NewtonStatistics,
) -> NewtonOutcome {
    match fast_newton(p, settings[0], jacobian_required, stats) {
        NewtonOutcome::Failed { .. } => {
            p.restart();
            newton(p, settings[1], jacobian_required, stats)
        }
        outcome => outcome,
    }
}

impl Simulation {
    /// A dynamic run's start: its sensor rows reserved (refused here, before the state
    /// changes, if the run would keep too much), the statistics and item states reset, the
    /// initial accelerations, the initial sensor row and the observer's first call. Returns
    /// when the solver's clock started.
    fn start_dynamic(
        &mut self,
        settings: &SimulationSettings,
        ti: &TimeIntegrationSettings,
        observer: &mut dyn FnMut(&Simulation, Progress),
    ) -> Result<std::time::Instant> {
        let duration = ti.end_time - ti.start_time;
        self.prepare_sensor_data(
            settings,
            ti.number_of_steps,
            duration,
            ti.adaptive_step,
            "timeIntegration.numberOfSteps",
        )?;
        self.statistics = Default::default();
        self.load_item_states();
        let started = std::time::Instant::now();
        self.state.time = ti.start_time;
        self.initial_accelerations(ti, settings.linear_solver)?;
        self.write_sensors_initial(settings);
        let initial = Progress {
            time: ti.start_time,
            start_time: ti.start_time,
            end_time: ti.end_time,
            steps: 0,
        };
        observer(self, initial);
        Ok(started)
    }
}

/// Exudyn's PostNewtonStep after a converged solve of a step of size `h`, and its
/// discontinuous iteration (`solves`: this step's solves so far).
struct PostNewtonStep<'t> {
    ti: &'t TimeIntegrationSettings,
    level: ConstraintLevel,
    h: f64,
    iterations: usize,
    solves: usize,
}

impl PostNewtonStep<'_> {
    /// The step's outcome: converged (the states accepted), failed (an item recommends a
    /// shorter step, or the iteration did not settle: its error into `failure`), or `None`:
    /// solve the step again from its restored start. `recommended`: the step size an item
    /// recommends, kept until the next PostNewton.
    fn run(
        &self,
        p: &mut StepProblem,
        writer: &mut SensorWriter,
        recommended: &mut Option<f64>,
        failure: &mut Option<f64>,
    ) -> Option<NewtonOutcome> {
        let ti = self.ti;
        let iterations = self.iterations;
        let (error, rec) = writer
            .post_newton(p.sim, self.level, Some(&p.data_n))
            .into();
        *recommended = rec.filter(|_| ti.discontinuous.use_recommended_step_size);
        Some(match ti.discontinuous.decide(error, self.solves) {
            Discontinuous::Accept => NewtonOutcome::Converged { iterations },
            // an item asks for a shorter step: rejected, the start (a-buffer too) reset
            Discontinuous::Repeat if recommended.is_some_and(|r| r < (1.0 + 1e-8) * self.h) => {
                p.restore_for_repeat();
                NewtonOutcome::Failed { iterations }
            }
            Discontinuous::Repeat => {
                p.restore_for_repeat();
                return None;
            }
            Discontinuous::Fail => {
                *failure = Some(error);
                NewtonOutcome::Failed { iterations }
            }
        })
    }
}

/// The level the constraints are solved at: velocity with index-2 constraints, else position.
fn constraint_level(ti: &TimeIntegrationSettings) -> ConstraintLevel {
    if ti.generalized_alpha.use_index2_constraints {
        ConstraintLevel::Velocity
    } else {
        ConstraintLevel::Position
    }
}

#[cfg(test)]
mod tests {
    use super::{extrapolate_linear, extrapolate_quadratic};

    #[test]
    fn quadratic_extrapolation_is_exact_for_quadratics() {
        let x = |t: f64| 0.7 - 2.0 * t + 3.5 * t * t;
        // uneven steps, as after an adaptive step change
        let (t0, h1, h2, h) = (1.3, 0.02, 0.05, 0.01);
        let history = [x(t0), x(t0 - h1), x(t0 - h1 - h2)];
        let exact = x(t0 + h);
        assert!((extrapolate_quadratic(history, h, h1, h2) - exact).abs() < 1e-14);
        // and not by accident: the linear extrapolation misses the curvature by 3.5·h·(h + h1)
        let linear = extrapolate_linear(history, h, h1);
        assert!((linear - exact + 3.5 * h * (h + h1)).abs() < 1e-14);
        // no earlier step: x_n
        assert_eq!(extrapolate_linear(history, h, 0.0), x(t0));
    }
}
