//! Exudyn's static solver (spec/solver.md §6): load steps, full Newton on `[q; y; λ]` with the
//! residual `f(q) + C_qᵀλ` (the sign opposite to the dynamic one), numerical load Jacobian; the
//! ODE1 coordinates y are held.

use super::dynamic::{DiscontinuousFailure, worst_clause};
use super::newton::{NewtonOutcome, NewtonProblem, forward_difference, newton};
use super::step_size::{Adaptive, StepSize, report_step};
use crate::assemble::Topology;
use crate::error::{Error, Result};
use crate::items::joints::ConstraintLevel;
use crate::linear::{LinearSystem, MatrixAccumulator, SingularColumn, assemble_into};
use crate::physics::{ConstraintJacobian, ConstraintRowFactors};
use crate::physics::{ForwardDifference, Scratch};
use crate::settings::Discontinuous;
use crate::settings::{SimulationSettings, StaticSolverSettings};
use crate::simulation::{Progress, Simulation};

struct StaticProblem<'a> {
    sim: &'a mut Simulation,
    load_factor: f64,
    compute_loads_jacobian: bool,
    /// `newton.exact_constraint_jacobian` (not an Exudyn setting): add ∂(C_qᵀλ)/∂q.
    geometric_stiffness: bool,
    fd: ForwardDifference,
    c_err: f64,
    q_start: Vec<f64>,
    /// The last converged load step's multipliers (what a failed run leaves).
    lambda_start: Vec<f64>,
    /// The last converged load step's data coordinates (the items' states).
    data_start: Vec<f64>,
    /// The ODE1 coordinates at the start (held: their rows are y − y_start).
    y_start: Vec<f64>,
    qt: Vec<f64>,
    rhs: Vec<f64>,
    /// The Jacobian and its factors (dense or sparse, per linearSolver.solverType).
    system: LinearSystem,
    scratch: Scratch,
}

impl<'a> StaticProblem<'a> {
    /// The static problem of `sim` under `settings`, its linear system's pattern recorded by a
    /// symbolic pass of the same assembly.
    fn new(sim: &'a mut Simulation, settings: &SimulationSettings) -> Self {
        let ss = &settings.static_solver;
        let n2 = sim.topology.n_ode2;
        let nae = sim.topology.n_ae;
        let n = n2 + sim.topology.n_ode1 + nae;
        let mut p = StaticProblem {
            load_factor: 0.0,
            compute_loads_jacobian: ss.compute_loads_jacobian,
            geometric_stiffness: ss.newton.exact_constraint_jacobian,
            fd: forward_difference(&ss.newton),
            c_err: ss.newton.error_weight(n),
            q_start: vec![0.0; n2],
            lambda_start: vec![0.0; nae],
            data_start: sim.state.data.clone(),
            y_start: sim.state.y.clone(),
            qt: vec![0.0; n2],
            rhs: vec![0.0; n],
            system: LinearSystem::dense(0),
            scratch: Scratch::for_topology(&sim.topology),
            sim,
        };
        // the symbolic pass: the same assembly, recording the positions it writes
        p.system = LinearSystem::for_solver_type(n, settings.linear_solver, |recorder| {
            p.assemble_jacobian(recorder)
        });
        p.sim.statistics.sparse_solver = p.system.is_sparse();
        p.sim.statistics.matrix_nonzeros = p.system.nonzeros();
        p
    }
}

impl StaticProblem<'_> {
    /// The state a load step starts from, which a discontinuous iteration and a reduced step
    /// go back to (the data: PostNewton's start-of-step values).
    fn save_load_step_start(&mut self) {
        self.q_start.copy_from_slice(&self.sim.state.q);
        self.lambda_start.copy_from_slice(&self.sim.state.lambda);
        self.data_start.copy_from_slice(&self.sim.state.data);
    }
}

impl StaticProblem<'_> {
    /// ∂r/∂[q; λ]: −∂LHS/∂q (+ ∂Q/∂q) and C_qᵀ in the ODE2 rows, C_q in the AE rows.
    fn assemble_jacobian(&mut self, m: &mut impl MatrixAccumulator) {
        let topo = &self.sim.topology;
        let st = &self.sim.state;
        topo.total_coordinates(&st.q, &mut self.qt);
        topo.add_body_jacobians_fd(
            &st.q,
            &self.qt,
            &st.v,
            -1.0,
            0.0,
            self.fd,
            false,
            m,
            &mut self.scratch,
        );
        topo.add_connector_jacobians(&self.qt, &st.v, -1.0, 0.0, false, m, &mut self.scratch);
        topo.add_connector_jacobians_fd(
            &st.q,
            &mut self.qt,
            &st.v,
            &st.data,
            -1.0,
            0.0,
            self.fd,
            false,
            m,
            &mut self.scratch,
        );
        if self.compute_loads_jacobian {
            topo.add_load_jacobians_fd(
                &st.q,
                &mut self.qt,
                &st.v,
                self.load_factor,
                1.0,
                self.fd,
                m,
                &mut self.scratch,
            );
        }
        // ODE1 rows: the identity (constrainODE1Coordinates: y is held)
        topo.add_ode1_diagonal(1.0, m);
        topo.add_constraint_blocks(
            &self.qt,
            ConstraintRowFactors::UNIT,
            1.0,
            ConstraintJacobian::Exudyn,
            m,
            &mut self.scratch,
        );
        if self.geometric_stiffness {
            // r_q = f + C_qᵀλ: its derivative has +∂(C_qᵀλ)/∂q
            topo.add_constraint_geometric_stiffness(
                &self.qt,
                &st.lambda,
                1.0,
                m,
                &mut self.scratch,
            );
        }
    }
}

impl StaticProblem<'_> {
    /// The worst equation of the last residual Newton evaluated: its description and residual.
    fn worst_equation(&self) -> (Option<String>, Option<f64>) {
        let topo = &self.sim.topology;
        match Topology::worst_equation(&self.rhs) {
            Some(k) => (Some(topo.describe_equation(k)), Some(self.rhs[k])),
            None => (None, None),
        }
    }

    /// The last converged load step's state (at `tau`): what a failed run leaves.
    fn restore_last_good(&mut self, tau: f64) {
        let st = &mut self.sim.state;
        st.q.copy_from_slice(&self.q_start);
        st.y.copy_from_slice(&self.y_start);
        st.lambda.copy_from_slice(&self.lambda_start);
        st.time = tau;
        self.restore_data_start();
    }

    /// The data coordinates (the items' states) of the load step's start.
    fn restore_data_start(&mut self) {
        if self.data_start.is_empty() {
            return;
        }
        self.sim.state.data.copy_from_slice(&self.data_start);
        self.sim.load_item_states();
    }
}

impl NewtonProblem for StaticProblem<'_> {
    fn residual(&mut self) -> f64 {
        let topo = &self.sim.topology;
        let st = &self.sim.state;
        let n2 = topo.n_ode2;
        topo.total_coordinates(&st.q, &mut self.qt);
        let (rq, rest) = self.rhs.split_at_mut(n2);
        let (ry, rg) = rest.split_at_mut(topo.n_ode1);
        // ODE1: y − y_start, zero, as y is held
        for ((r, y), y0) in ry.iter_mut().zip(&st.y).zip(&self.y_start) {
            *r = y - y0;
        }
        topo.ode2_rhs(
            &self.qt,
            &st.v,
            &st.data,
            self.load_factor,
            rq,
            &mut self.scratch,
        );
        topo.add_reaction_forces(&self.qt, &st.lambda, rq, &mut self.scratch);
        topo.constraint_residual(
            &self.qt,
            &st.v,
            &st.lambda,
            ConstraintLevel::Position,
            rg,
            &mut self.scratch,
        );
        self.rhs.iter().map(|x| x * x).sum::<f64>().sqrt() / self.c_err
    }

    fn factorize_jacobian(&mut self) -> std::result::Result<(), SingularColumn> {
        let mut system = std::mem::replace(&mut self.system, LinearSystem::dense(0));
        assemble_into!(system.cleared_matrix(), |m| self.assemble_jacobian(m));
        self.system = system;
        self.system.factorize()
    }

    fn apply_newton_step(&mut self) {
        self.system.solve_in_place(&mut self.rhs);
        let st = &mut self.sim.state;
        let n2 = st.q.len();
        for i in 0..n2 {
            st.q[i] -= self.rhs[i];
        }
        let n1 = st.y.len();
        for k in 0..n1 {
            st.y[k] -= self.rhs[n2 + k];
        }
        for (k, l) in st.lambda.iter_mut().enumerate() {
            *l -= self.rhs[n2 + n1 + k];
        }
    }

    fn diverged(&self, max_norm: f64) -> bool {
        let st = &self.sim.state;
        let q2: f64 = st.q.iter().map(|x| x * x).sum();
        q2 >= max_norm || q2.is_nan() || st.lambda.iter().any(|x| x.is_nan())
    }

    fn restart(&mut self) {
        self.sim.state.q.copy_from_slice(&self.q_start);
        self.sim.state.lambda.fill(0.0);
    }
}

impl Simulation {
    /// The static solve behind [`Simulation::solve_observed`].
    pub(super) fn run_static(
        &mut self,
        settings: &SimulationSettings,
        observer: &mut dyn FnMut(&Simulation, Progress),
    ) -> Result<()> {
        let ss = &settings.static_solver;
        settings.validate_static()?;
        let (load_steps, adaptive) = (ss.number_of_load_steps, ss.adaptive_step);
        // refused here, before the state changes, if the run would keep too much
        self.prepare_sensor_data(
            settings,
            load_steps,
            ss.load_step_duration,
            adaptive,
            "staticSolver.numberOfLoadSteps",
        )?;
        let started = std::time::Instant::now();
        self.statistics = Default::default();
        self.load_item_states();
        let start = ss.load_step_start;
        let duration = ss.load_step_duration;
        let end = start + duration;
        self.state.time = start;
        self.state.a.fill(0.0);
        self.state.lambda.fill(0.0);
        let mut sensor_settings = settings.clone();
        sensor_settings.time_integration.start_time = start;
        self.write_sensors_initial(&sensor_settings);
        let mut writer = self.sensor_writer(&sensor_settings);
        let initial = Progress {
            time: start,
            start_time: start,
            end_time: end,
            steps: 0,
        };
        observer(self, initial);

        let (mut step, geometric_factor) = load_steps_of(ss);
        let mut stats = self.statistics.newton;
        let mut p = StaticProblem::new(self, settings);
        let mut steps = 0;
        let mut jacobian_required = true;
        let mut tau = start;
        let mut largest_constraint: f64 = 0.0;
        let mut discontinuous_total = 0;
        while tau < end - 1e-10 * duration {
            p.save_load_step_start();
            // solves of this load step (Newton, then PostNewton), and a discontinuous
            // iteration's failure as the reason a step is reduced
            let mut solves = 0;
            let mut discontinuous_failure = None;
            let iterations = loop {
                let mut tau_new = tau + step.h;
                if (tau_new - end).abs() <= 1e-10 * duration || tau_new > end {
                    tau_new = end;
                }
                p.load_factor = load_factor(ss.use_load_factor, tau_new, start, duration);
                p.sim.state.time = tau_new;
                p.sim.state.lambda.fill(0.0);
                let outcome = match newton(&mut p, &ss.newton, &mut jacobian_required, &mut stats) {
                    NewtonOutcome::Converged { iterations } => {
                        // Exudyn's PostNewtonStep and its discontinuous iteration
                        solves += 1;
                        let error = writer
                            .post_newton(p.sim, ConstraintLevel::Position, Some(&p.data_start))
                            .error;
                        match ss.discontinuous.decide(error, solves) {
                            Discontinuous::Accept => NewtonOutcome::Converged { iterations },
                            Discontinuous::Repeat => {
                                p.sim.state.q.copy_from_slice(&p.q_start);
                                p.sim.state.y.copy_from_slice(&p.y_start);
                                continue;
                            }
                            Discontinuous::Fail => {
                                discontinuous_failure = Some(error);
                                NewtonOutcome::Failed { iterations }
                            }
                        }
                    }
                    other => other,
                };
                match outcome {
                    NewtonOutcome::Converged { iterations } => {
                        let topo = &p.sim.topology;
                        let g = &p.rhs[topo.ae_start()..];
                        match topo.check_constraint_rows(
                            g,
                            settings.constraint_tolerance,
                            tau_new,
                            "position",
                        ) {
                            Ok(r) => largest_constraint = largest_constraint.max(r),
                            Err(e) => {
                                p.restore_last_good(tau);
                                return Err(e);
                            }
                        }
                        tau = tau_new;
                        break iterations;
                    }
                    NewtonOutcome::Singular(col) => {
                        let e = p.sim.singular_error(col.0, tau_new);
                        p.restore_last_good(tau);
                        return Err(e);
                    }
                    NewtonOutcome::Failed { .. } => {
                        // Exudyn ignores adaptiveStep with geometric load steps.
                        if !ss.adaptive_step || geometric_factor.is_some() || step.at_minimum() {
                            let failure = DiscontinuousFailure {
                                solves,
                                error: discontinuous_failure,
                            };
                            return Err(load_step_failure(&mut p, ss, tau, tau_new, failure));
                        }
                        p.sim.state.q.copy_from_slice(&p.q_start);
                        p.restore_data_start();
                        solves = 0;
                        discontinuous_failure = None;
                        step.reduce();
                    }
                }
            };
            steps += 1;
            let progress = Progress {
                time: tau,
                start_time: start,
                end_time: end,
                steps,
            };
            discontinuous_total += solves;
            report_step(p.sim, stats, step.h, &mut writer, observer, progress);
            match geometric_factor {
                Some(f) => step.h = (tau - start) * (f - 1.0),
                None => step.accepted(iterations),
            }
        }
        p.sim.statistics.factor_nonzeros = p.system.factor_nonzeros();
        p.sim.statistics.sparse_factorizations = p.system.factorization_counts();
        self.statistics.newton = stats;
        self.statistics.largest_constraint_residual = largest_constraint;
        self.statistics.discontinuous_iterations = discontinuous_total;
        self.statistics.solver_seconds = started.elapsed().as_secs_f64();
        Ok(())
    }
}

/// Exudyn's load factor at pseudo-time `tau` of a static solve from `start` over `duration`:
/// growing linearly to 1 with `useLoadFactor`, else 1 throughout.
fn load_factor(use_load_factor: bool, tau: f64, start: f64, duration: f64) -> f64 {
    if use_load_factor {
        (tau - start) / duration
    } else {
        1.0
    }
}

/// The load steps' size control: Exudyn's geometric steps (the factor between consecutive
/// steps), or equal ones, adaptive if asked.
fn load_steps_of(ss: &StaticSolverSettings) -> (StepSize, Option<f64>) {
    let duration = ss.load_step_duration;
    let n_steps = ss.number_of_load_steps;
    let geometric_factor = if ss.load_step_geometric && n_steps > 1 {
        Some(
            ss.load_step_geometric_range
                .powf(1.0 / (n_steps as f64 - 1.0)),
        )
    } else {
        None
    };
    let h_max = duration / n_steps as f64;
    let first = if geometric_factor.is_some() {
        duration / ss.load_step_geometric_range
    } else {
        h_max
    };
    let step = StepSize::new(
        first,
        h_max,
        Adaptive {
            minimum: ss.minimum_step_size,
            decrease: ss.adaptive_step_decrease,
            increase: ss.adaptive_step_increase,
            recovery_steps: ss.adaptive_step_recovery_steps,
            recovery_iterations: ss.adaptive_step_recovery_iterations,
        },
    );
    (step, geometric_factor)
}

/// The error of a load step that cannot be reduced further, naming the worst equation; the
/// state goes back to the last converged load step's (τ = `tau`).
fn load_step_failure(
    p: &mut StaticProblem,
    ss: &StaticSolverSettings,
    tau: f64,
    tau_new: f64,
    failure: DiscontinuousFailure,
) -> Error {
    let (equation, residual) = p.worst_equation();
    p.restore_last_good(tau);
    let worst = worst_clause(equation.as_deref(), residual);
    let solves = failure.solves;
    let what = match failure.error {
        Some(e) => format!(
            "the discontinuous iteration did not settle at load step τ = {tau_new}: after {solves} solves the states still move their items' equations by {e} (discontinuous.iterationTolerance {}, ignoreMaxIterations off)",
            ss.discontinuous.iteration_tolerance
        ),
        None => format!("static Newton did not converge at load step τ = {tau_new}"),
    };
    Error::solver_failed_at(
        format!("{what}{worst}; the state is the last converged load step's (τ = {tau})"),
        tau_new,
        equation,
        residual,
    )
}
