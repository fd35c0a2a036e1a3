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
use crate::settings::Discontinuous;
use crate::settings::{
    LinearSolverType, NewtonSettings, SimulationSettings, SolverMode, TimeIntegrationSettings,
};
use crate::simulation::{Progress, Simulation};

/// Integration constants of one run.
#[derive(Clone, Copy, Debug)]
struct Constants {
    alpha_m: f64,
    alpha_f: f64,
    beta: f64,
    gamma: f64,
    newmark: bool,
}

impl Constants {
    fn new(s: &TimeIntegrationSettings) -> Constants {
        let ga = &s.generalized_alpha;
        if ga.use_newmark {
            Constants {
                alpha_m: 0.5,
                alpha_f: 0.5,
                beta: ga.newmark_beta,
                gamma: ga.newmark_gamma,
                newmark: true,
            }
        } else {
            let rho = ga.spectral_radius;
            let alpha_m = (2.0 * rho - 1.0) / (rho + 1.0);
            let alpha_f = rho / (rho + 1.0);
            let gamma = 0.5 + alpha_f - alpha_m;
            let beta = 0.25 * (gamma + 0.5) * (gamma + 0.5);
            Constants {
                alpha_m,
                alpha_f,
                beta,
                gamma,
                newmark: false,
            }
        }
    }
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

impl<'a> StepProblem<'a> {
    fn new(
        sim: &'a mut Simulation,
        settings: &TimeIntegrationSettings,
        solver_type: LinearSolverType,
        mode: SolverMode,
    ) -> Self {
        let n2 = sim.topology.n_ode2;
        let n1 = sim.topology.n_ode1;
        let nae = sim.topology.n_ae;
        let n = n2 + n1 + nae;
        let mut p = StepProblem {
            c: Constants::new(settings),
            index2: settings.generalized_alpha.use_index2_constraints,
            exact: settings.newton.exact_constraint_jacobian,
            constraint_rows: if mode == SolverMode::Fast
                && !settings.generalized_alpha.use_index2_constraints
            {
                ConstraintJacobian::PositionLevel
            } else {
                ConstraintJacobian::Exudyn
            },
            fast_path: mode == SolverMode::Fast,
            increment: 0.0,
            applied_increment: 0.0,
            increment_at_roundoff: false,
            fd: forward_difference(&settings.newton),
            c_err: settings.newton.error_weight(n),
            h: 0.0,
            s: 0.0,
            beta_p: 0.0,
            gamma_p: 0.0,
            q_n: vec![0.0; n2],
            v_n: vec![0.0; n2],
            y_n: vec![0.0; n1],
            y_t_n: vec![0.0; n1],
            data_n: sim.state.data.clone(),
            acc_n: vec![0.0; n2],
            lambda_n: vec![0.0; nae],
            acc_prev: vec![0.0; n2],
            lambda_prev: vec![0.0; nae],
            h_prev: 0.0,
            acc_prev2: vec![0.0; n2],
            lambda_prev2: vec![0.0; nae],
            h_prev2: 0.0,
            predicted_linear: vec![0.0; n2],
            predicted_quadratic: vec![f64::NAN; n2],
            h_done: 0.0,
            acc_extrapolation: Extrapolation::new(n2),
            lambda_extrapolation: Extrapolation::new(nae),
            acc_extrapolated: vec![0.0; n2],
            lambda_extrapolated: vec![0.0; nae],
            variable_step_predictions: false,
            a_start: vec![0.0; n2],
            a_buf: vec![0.0; n2],
            lie_column: if sim.topology.lie_nodes.is_empty() {
                Vec::new()
            } else {
                (0..n2)
                    .map(|c| match sim.topology.lie_node_of(c) {
                        None => LieColumn::None,
                        Some(start) if c < start + 3 => LieColumn::Position,
                        Some(_) => LieColumn::Rotation,
                    })
                    .collect()
            },
            lie_simplified: settings
                .generalized_alpha
                .lie_group_simplified_kinematic_relations
                && !sim.topology.lie_nodes.is_empty(),
            lie_tangent: settings.generalized_alpha.lie_group_add_tangent_operator,
            lie_theta: vec![0.0; 6 * sim.topology.lie_nodes.len()],
            lie_tangents: vec![Matrix3::identity(); sim.topology.lie_nodes.len()],
            qt: vec![0.0; n2],
            f: vec![0.0; n2],
            f1: vec![0.0; n1],
            y_fd: vec![0.0; n1],
            rhs: vec![0.0; n],
            system: LinearSystem::dense(0),
            anderson: Anderson::new(n, n2, 0),
            scratch: Scratch::for_topology(&sim.topology),
            sim,
        };
        // The symbolic pass: the same assembly, recording the positions it writes. Any step
        // size will do (only positions are recorded), but not zero: zero factors skip blocks.
        p.set_step_size(1.0);
        let exact = p.exact;
        p.system = LinearSystem::for_solver_type(n, solver_type, |recorder| {
            p.assemble_iteration_matrix(recorder, exact);
        });
        if mode == SolverMode::Fast {
            p.system.solve_with_explicit_inverse();
            p.system.use_threshold_pivoting(PIVOT_THRESHOLD);
            // two independent chains of dependent operations in the sparse elimination and
            // solves instead of one (1.03–1.06× on the benchmarks)
            p.system.use_two_way_ordering();
            // sparse systems by blocks along the body–joint graph: dense block products, every
            // row of which is independent, where the scalar LU is one chain of dependent
            // operations (1.07–1.25× on the benchmarks); the sparse LU stays as the fallback
            p.system.use_block_elimination();
            // the fit weighs the ODE2 increments and the rest (the multipliers' s·Δλ, of
            // another scale) each by its own size; not on Lie-group nodes, whose rotations
            // move by composition, and not on dense systems (≤ 40 unknowns), where the mixing
            // costs about a third of an iteration and saves less (chain N = 1, 50 000 steps:
            // 8.5 % fewer iterations, 10 % more time)
            if p.system.is_sparse() && p.sim.topology.lie_nodes.is_empty() {
                p.anderson = Anderson::new(n, n2, ANDERSON_DEPTH);
            }
        }
        p
    }

    fn set_step_size(&mut self, h: f64) {
        let c = &self.c;
        self.h = h;
        self.s = c.beta * h * h;
        self.beta_p = (1.0 - c.alpha_m) / (h * h * c.beta * (1.0 - c.alpha_f));
        self.gamma_p = c.gamma / (h * c.beta);
    }

    fn save_start_of_step(&mut self) {
        let st = &self.sim.state;
        self.data_n.copy_from_slice(&st.data);
        self.q_n.copy_from_slice(&st.q);
        self.v_n.copy_from_slice(&st.v);
        self.y_n.copy_from_slice(&st.y);
        self.y_t_n.copy_from_slice(&st.y_t);
        std::mem::swap(&mut self.acc_prev2, &mut self.acc_prev);
        std::mem::swap(&mut self.lambda_prev2, &mut self.lambda_prev);
        std::mem::swap(&mut self.acc_prev, &mut self.acc_n);
        std::mem::swap(&mut self.lambda_prev, &mut self.lambda_n);
        self.acc_n.copy_from_slice(&st.a);
        self.lambda_n.copy_from_slice(&st.lambda);
        if self.fast_path && self.h_done > 0.0 {
            self.acc_extrapolation
                .push(&st.a, self.h_done, &mut self.acc_extrapolated);
            self.lambda_extrapolation
                .push(&st.lambda, self.h_done, &mut self.lambda_extrapolated);
        }
        self.h_prev2 = self.h_prev;
        self.h_prev = self.h_done;
        self.a_start.copy_from_slice(&self.a_buf);
    }

    /// Restore q, v, ä, y, ẏ (not the a-buffer: Exudyn's quirk on step reduction).
    fn restore_start_of_step(&mut self) {
        let st = &mut self.sim.state;
        st.q.copy_from_slice(&self.q_n);
        st.v.copy_from_slice(&self.v_n);
        st.a.copy_from_slice(&self.acc_n);
        st.y.copy_from_slice(&self.y_n);
        st.y_t.copy_from_slice(&self.y_t_n);
    }

    /// The data coordinates (the items' states) of the step's start, where a step is reduced
    /// or the run fails; a discontinuous iteration keeps the new ones.
    fn restore_data_start(&mut self) {
        if self.data_n.is_empty() {
            return;
        }
        self.sim.state.data.copy_from_slice(&self.data_n);
        self.sim.load_item_states();
    }

    /// The step's start again, for a discontinuous iteration: q, v, ä, y, ẏ and the a-buffer
    /// (spec/solver.md §4.4), the data coordinates PostNewton stored kept.
    fn restore_for_repeat(&mut self) {
        self.restore_start_of_step();
        self.a_buf.copy_from_slice(&self.a_start);
    }

    /// The last converged step's state, time and multipliers: what a failed run leaves.
    fn restore_last_good(&mut self, t_n: f64) {
        self.restore_start_of_step();
        self.restore_data_start();
        self.sim.state.lambda.copy_from_slice(&self.lambda_n);
        self.sim.state.time = t_n;
    }

    /// The worst equation of the last residual Newton evaluated (of a failed step): its
    /// description and residual.
    fn worst_equation(&self) -> (Option<String>, Option<f64>) {
        let topo = &self.sim.topology;
        let Some(k) = Topology::worst_equation(&self.rhs) else {
            return (None, None);
        };
        // the ODE2 rows are scaled by β·h² (the residual's own scaling): unscale them
        let r = if k < topo.n_ode2 {
            self.rhs[k] / self.s
        } else {
            self.rhs[k]
        };
        (Some(topo.describe_equation(k)), Some(r))
    }

    /// The constraint check after an accepted step (`SimulationSettings::constraint_tolerance`)
    /// on the rows Newton's last residual evaluated; the worst row's residual, or the error.
    fn check_constraints(&self, tolerance: f64, t: f64) -> Result<f64> {
        let topo = &self.sim.topology;
        let level = if self.index2 { "velocity" } else { "position" };
        topo.check_constraint_rows(&self.rhs[topo.ae_start()..], tolerance, t, level)
    }

    /// The predictor (spec/solver.md §2.3), using the a-buffer as a_n.
    fn predictor(&mut self) {
        let (h, c) = (self.h, self.c);
        let st = &mut self.sim.state;
        let lie = !self.lie_column.is_empty();
        for i in 0..st.q.len() {
            let a_n = self.a_buf[i];
            // a Lie node's coordinates start from 0: the predictor gives its increment θ
            let q_n = if lie && self.lie_column[i] != LieColumn::None {
                0.0
            } else {
                self.q_n[i]
            };
            if c.newmark {
                st.q[i] = q_n + h * self.v_n[i] + h * h * (0.5 - c.beta) * self.acc_n[i];
                st.v[i] = self.v_n[i] + h * (1.0 - c.gamma) * self.acc_n[i];
                self.a_buf[i] = (c.alpha_f * self.acc_n[i] - c.alpha_m * a_n) / (1.0 - c.alpha_m);
            } else {
                let mut q = q_n + h * self.v_n[i] + h * h * (0.5 - c.beta) * a_n;
                let mut v = self.v_n[i] + h * (1.0 - c.gamma) * a_n;
                let a_star = (c.alpha_f * self.acc_n[i] - c.alpha_m * a_n) / (1.0 - c.alpha_m);
                self.a_buf[i] = a_star;
                q += h * h * c.beta * a_star;
                v += h * c.gamma * a_star;
                st.q[i] = q;
                st.v[i] = v;
            }
            st.a[i] = 0.0;
        }
        if lie && self.lie_simplified {
            // θ is the unknown, without Ξ: q = q_n ∘ θ
            let topo = &self.sim.topology;
            for (k, &start) in topo.lie_nodes.iter().enumerate() {
                self.lie_theta[6 * k..6 * k + 6].copy_from_slice(&st.q[start..start + 6]);
            }
            compose_from_step_start(topo, &self.q_n, &self.lie_theta, &mut st.q);
        } else if lie {
            // θ_rot ← (I + skew(−hβ/(2γ)·ω̄_P))·θ_rot, then q = q_n ∘ θ (Exudyn's default,
            // lieGroupSimplifiedKinematicRelations off)
            let topo = &self.sim.topology;
            for &start in &topo.lie_nodes {
                let r = start + 3;
                let w =
                    (-0.5 * h * c.beta / c.gamma) * Vector3::new(st.v[r], st.v[r + 1], st.v[r + 2]);
                let xi = skew(&w) + Matrix3::identity();
                let theta = Vector3::new(st.q[r], st.q[r + 1], st.q[r + 2]);
                let theta = Vector3::from_fn(|k, _| {
                    xi[(k, 0)] * theta[0] + xi[(k, 1)] * theta[1] + xi[(k, 2)] * theta[2]
                });
                for k in start..start + 3 {
                    st.q[k] += self.q_n[k];
                }
                let nu = topo.compose_lie_rotation(start, &self.q_n, &theta);
                st.q[r..r + 3].copy_from_slice(nu.as_slice());
            }
        }
        // ODE1: the trapezoidal rule's known half, y = y_n + (h/2)·ẏ_n; ẏ is measured from it
        for i in 0..st.y.len() {
            st.y[i] = self.y_n[i] + 0.5 * h * self.y_t_n[i];
            st.y_t[i] = 0.0;
        }
        st.lambda.fill(0.0);
    }

    /// End of step: a_{n+1} = a* + (1−αf)/(1−αm)·ä_{n+1}.
    fn finalize(&mut self) {
        self.h_done = self.h;
        let c = self.c;
        for i in 0..self.a_buf.len() {
            self.a_buf[i] += (1.0 - c.alpha_f) / (1.0 - c.alpha_m) * self.sim.state.a[i];
        }
    }
}

impl StepProblem<'_> {
    /// J̄ = ∂r/∂q scaled as Exudyn scales it (spec/solver.md §4): s·(βʹM + K + γʹD) + C_qᵀ in
    /// the ODE2 rows, C_q (index 3) or γʹ·C_q (index 2) in the AE rows; with
    /// `geometric_stiffness`, also s·∂(C_qᵀλ)/∂q.
    fn assemble_iteration_matrix(
        &mut self,
        m: &mut impl MatrixAccumulator,
        geometric_stiffness: bool,
    ) {
        let topo = &self.sim.topology;
        let st = &self.sim.state;
        let (s, bp, gp) = (self.s, self.beta_p, self.gamma_p);
        topo.total_coordinates(&st.q, &mut self.qt);
        topo.add_mass_matrix(&self.qt, s * bp, m, &mut self.scratch);
        let tangent = self.lie_simplified && self.lie_tangent;
        if tangent {
            for (k, t) in self.lie_tangents.iter_mut().enumerate() {
                let th = &self.lie_theta[6 * k + 3..6 * k + 6];
                *t = t_exp_so3(&Vector3::new(th[0], th[1], th[2]));
            }
        }
        // the stiffness parts (times T(θ) on Lie rotation columns with the tangent operator)
        // and the damping parts; one pass each without it, as Exudyn sums them
        let (factor_d, damping_apart) = if tangent {
            (0.0, true)
        } else {
            (s * gp, false)
        };
        {
            let mut k_acc = TangentColumns {
                inner: &mut *m,
                nodes: if tangent { &topo.lie_nodes } else { &[] },
                tangents: &self.lie_tangents,
            };
            topo.add_body_jacobians_fd(
                &st.q,
                &self.qt,
                &st.v,
                s,
                factor_d,
                self.fd,
                self.fast_path,
                &mut k_acc,
                &mut self.scratch,
            );
            topo.add_connector_jacobians(
                &self.qt,
                &st.v,
                s,
                factor_d,
                self.fast_path,
                &mut k_acc,
                &mut self.scratch,
            );
            topo.add_connector_jacobians_fd(
                &st.q,
                &mut self.qt,
                &st.v,
                &st.data,
                s,
                factor_d,
                self.fd,
                self.fast_path,
                &mut k_acc,
                &mut self.scratch,
            );
        }
        if damping_apart {
            topo.add_body_jacobians_fd(
                &st.q,
                &self.qt,
                &st.v,
                0.0,
                s * gp,
                self.fd,
                self.fast_path,
                m,
                &mut self.scratch,
            );
            topo.add_connector_jacobians(
                &self.qt,
                &st.v,
                0.0,
                s * gp,
                self.fast_path,
                m,
                &mut self.scratch,
            );
            topo.add_connector_jacobians_fd(
                &st.q,
                &mut self.qt,
                &st.v,
                &st.data,
                0.0,
                s * gp,
                self.fd,
                self.fast_path,
                m,
                &mut self.scratch,
            );
        }
        // ODE1 rows: ∂(f1 − ẏ)/∂y = ∂f1/∂y − (2/h)·I
        let n2 = topo.n_ode2;
        self.y_fd.copy_from_slice(&st.y);
        topo.add_ode1_jacobian_fd(&mut self.y_fd, self.fd, n2, m, &mut self.scratch);
        topo.add_ode1_diagonal(-2.0 / self.h, m);
        // AE rows: C_q (index 3) or γ'·C_q (index 2), rows written at velocity level γ'·C in
        // either; free axes: (1/s)·∂g/∂λ̄
        let factors = ConstraintRowFactors {
            position: if self.index2 { gp } else { 1.0 },
            velocity: gp,
        };
        // C_q's Lie rotation columns times T(θ) with the tangent operator (C_qᵀ's columns are
        // the AE ones: untouched)
        let mut c_acc = TangentColumns {
            inner: m,
            nodes: if tangent { &topo.lie_nodes } else { &[] },
            tangents: &self.lie_tangents,
        };
        topo.add_constraint_blocks(
            &self.qt,
            factors,
            1.0 / s,
            self.constraint_rows,
            &mut c_acc,
            &mut self.scratch,
        );
        if geometric_stiffness {
            // s·∂(C_qᵀλ)/∂q: the ODE2 rows are scaled by s
            topo.add_constraint_geometric_stiffness(
                &self.qt,
                &st.lambda,
                s,
                &mut c_acc,
                &mut self.scratch,
            );
        }
    }
}

impl NewtonProblem for StepProblem<'_> {
    fn residual(&mut self) -> f64 {
        let topo = &self.sim.topology;
        let st = &self.sim.state;
        let n2 = topo.n_ode2;
        topo.total_coordinates(&st.q, &mut self.qt);
        // r_q = M ä − f + C_qᵀ λ
        let (rq, rest) = self.rhs.split_at_mut(n2);
        let (ry, rg) = rest.split_at_mut(topo.n_ode1);
        // r_y = f1(y) − ẏ (Exudyn's sign, opposite to r_q's)
        topo.ode1_rhs(&st.y, &mut self.f1, &mut self.scratch);
        for ((r, f1), y_t) in ry.iter_mut().zip(&self.f1).zip(&st.y_t) {
            *r = f1 - y_t;
        }
        if self.fast_path {
            topo.newton_euler_residual(
                &self.qt,
                &st.v,
                &st.a,
                &st.data,
                &mut self.f,
                rq,
                &mut self.scratch,
            );
        } else {
            topo.ode2_rhs(
                &self.qt,
                &st.v,
                &st.data,
                1.0,
                &mut self.f,
                &mut self.scratch,
            );
            for (r, f) in rq.iter_mut().zip(&self.f) {
                *r = -f;
            }
            topo.add_mass_times(&self.qt, &st.a, rq, &mut self.scratch);
        }
        if self.fast_path && !self.index2 {
            topo.constraint_residual_and_reaction_forces(
                &self.qt,
                &st.v,
                &st.lambda,
                rg,
                rq,
                &mut self.scratch,
            );
        } else {
            if self.fast_path {
                topo.add_reaction_forces_by_kernels(&self.qt, &st.lambda, rq, &mut self.scratch);
            } else {
                topo.add_reaction_forces(&self.qt, &st.lambda, rq, &mut self.scratch);
            }
            let level = if self.index2 {
                ConstraintLevel::Velocity
            } else {
                ConstraintLevel::Position
            };
            topo.constraint_residual(&self.qt, &st.v, &st.lambda, level, rg, &mut self.scratch);
        }
        let err = self.rhs.iter().map(|x| x * x).sum::<f64>().sqrt() / self.c_err;
        for x in &mut self.rhs[..n2] {
            *x *= self.s;
        }
        err
    }

    fn factorize_jacobian(&mut self) -> std::result::Result<(), SingularColumn> {
        let mut system = std::mem::replace(&mut self.system, LinearSystem::dense(0));
        assemble_into!(system.cleared_matrix(), |m| self
            .assemble_iteration_matrix(m, self.exact));
        self.system = system;
        self.anderson.reset();
        self.system.factorize()
    }

    fn apply_newton_step(&mut self) {
        self.system.solve_in_place(&mut self.rhs);
        let st = &mut self.sim.state;
        let n2 = st.q.len();
        self.increment = self.rhs[..n2].iter().fold(0.0, |m: f64, x| m.max(x.abs()));
        if self.fast_path {
            // qt: the total coordinates of the iterate the step was solved at
            self.increment_at_roundoff = increment_within_roundoff(&self.rhs[..n2], &self.qt);
        }
        self.applied_increment = if self.anderson.mix(&mut self.rhs) {
            self.rhs[..n2].iter().fold(0.0, |m: f64, x| m.max(x.abs()))
        } else {
            self.increment
        };
        if self.lie_column.is_empty() {
            // slices and factors held locally: through `self` the compiler reloads every
            // vector's address at every entry
            let (gp, bp) = (self.gamma_p, self.beta_p);
            let (q, v, a) = (&mut st.q[..n2], &mut st.v[..n2], &mut st.a[..n2]);
            for (((q, v), a), d) in q.iter_mut().zip(v).zip(a).zip(&self.rhs[..n2]) {
                *q -= d;
                *v -= gp * d;
                *a -= bp * d;
            }
        } else if self.lie_simplified {
            for i in 0..n2 {
                let d = self.rhs[i];
                if self.lie_column[i] == LieColumn::None {
                    st.q[i] -= d;
                }
                st.v[i] -= self.gamma_p * d;
                st.a[i] -= self.beta_p * d;
            }
            // θ −= Δ, q = q_n ∘ θ (always from the step's start)
            let topo = &self.sim.topology;
            for (k, &start) in topo.lie_nodes.iter().enumerate() {
                for j in 0..6 {
                    self.lie_theta[6 * k + j] -= self.rhs[start + j];
                }
            }
            compose_from_step_start(topo, &self.q_n, &self.lie_theta, &mut st.q);
        } else {
            for i in 0..n2 {
                let d = self.rhs[i];
                if self.lie_column[i] != LieColumn::Rotation {
                    st.q[i] -= d;
                }
                st.v[i] -= self.gamma_p * d;
                st.a[i] -= self.beta_p * d;
            }
            // a Lie node's rotation vector: ν ← (ν + ν_ref) ∘ (−Δ) − ν_ref
            let topo = &self.sim.topology;
            for &start in &topo.lie_nodes {
                let r = start + 3;
                let delta = -Vector3::new(self.rhs[r], self.rhs[r + 1], self.rhs[r + 2]);
                let nu = topo.compose_lie_rotation(start, &st.q, &delta);
                st.q[r..r + 3].copy_from_slice(nu.as_slice());
            }
        }
        let n1 = st.y.len();
        for k in 0..n1 {
            let d = self.rhs[n2 + k];
            st.y[k] -= d;
            st.y_t[k] -= 2.0 / self.h * d;
        }
        for (k, l) in st.lambda.iter_mut().enumerate() {
            *l -= self.rhs[n2 + n1 + k] / self.s;
        }
    }

    fn diverged(&self, max_norm: f64) -> bool {
        let st = &self.sim.state;
        // in partial sums (`linear::dot`): three passes over every unknown at every iteration,
        // whose sums in order were most of `fast_newton`'s own 3.9 % in a time profile of
        // chain N = 1000; a NaN anywhere makes its sum NaN in any order
        let q2 = dot(&st.q, &st.q);
        let v2 = dot(&st.v, &st.v);
        q2 >= max_norm
            || v2 >= max_norm
            || q2.is_nan()
            || v2.is_nan()
            || dot(&st.lambda, &st.lambda).is_nan()
    }

    fn restart(&mut self) {
        self.restore_start_of_step();
        self.a_buf.copy_from_slice(&self.a_start);
        self.predictor();
    }
}

impl FastNewtonProblem for StepProblem<'_> {
    /// Exudyn's predictor q_P, v_P, then moved to the ä and λ extrapolated from the last steps:
    /// every iterate of the step satisfies ä = β'(q − q_P) and v = v_P + γ'(q − q_P)
    /// (spec/solver.md §2.3), so q = q_P + ä₀/β', v = v_P + (γ'/β')·ä₀.
    ///
    /// On uniform steps the extrapolation is the one of `solver/extrapolation.rs` that
    /// predicted best. Off them it is quadratic in time if that predicted the last step's ä
    /// better than the linear one did (max-norm), else linear; just ä_n, λ_n at the first
    /// step.
    ///
    /// The predictor writes all of q, v, ä, y and ẏ from the step's start, so nothing is
    /// restored first (a restart of the step comes here too).
    fn fast_start(&mut self) {
        self.anderson.reset();
        self.a_buf.copy_from_slice(&self.a_start);
        self.predictor();
        let (bp, gp) = (self.beta_p, self.gamma_p);
        let (h, h1, h2) = (self.h, self.h_prev, self.h_prev2);
        // on uniform steps the chosen extrapolations (solver/extrapolation.rs), else the
        // variable-step formulas: quadratic if that predicted the last step's ä better
        let acc_extrapolated = self
            .acc_extrapolation
            .predict(h, &mut self.acc_extrapolated);
        let lambda_extrapolated = self
            .lambda_extrapolation
            .predict(h, &mut self.lambda_extrapolated);
        let quadratic_known = h1 > 0.0 && h2 > 0.0;
        let quadratic = quadratic_known && self.variable_step_predictions && {
            let error = |predicted: &[f64]| {
                predicted
                    .iter()
                    .zip(&self.acc_n)
                    .fold(0.0, |m: f64, (p, a)| m.max((p - a).abs()))
            };
            // NaN (no quadratic prediction last step) compares false: linear
            error(&self.predicted_quadratic) < error(&self.predicted_linear)
        };
        self.variable_step_predictions = !acc_extrapolated;
        let st = &mut self.sim.state;
        for i in 0..st.q.len() {
            let a = if acc_extrapolated {
                self.acc_extrapolated[i]
            } else {
                let history = [self.acc_n[i], self.acc_prev[i], self.acc_prev2[i]];
                let linear = extrapolate_linear(history, h, h1);
                self.predicted_linear[i] = linear;
                self.predicted_quadratic[i] = if quadratic_known {
                    extrapolate_quadratic(history, h, h1, h2)
                } else {
                    f64::NAN
                };
                if quadratic {
                    self.predicted_quadratic[i]
                } else {
                    linear
                }
            };
            st.a[i] = a;
            if self.lie_column.is_empty() || self.lie_column[i] != LieColumn::Rotation {
                st.q[i] += a / bp;
            }
            st.v[i] += gp / bp * a;
        }
        let topo = &self.sim.topology;
        if self.lie_simplified {
            // θ moves as Newton's increments move it, and q follows from the step's start
            for (k, &start) in topo.lie_nodes.iter().enumerate() {
                for j in 0..6 {
                    self.lie_theta[6 * k + j] += st.a[start + j] / bp;
                }
            }
            compose_from_step_start(topo, &self.q_n, &self.lie_theta, &mut st.q);
        } else {
            // a Lie node's rotation moves by composition, as Newton's increments do
            for &start in &topo.lie_nodes {
                let r = start + 3;
                let theta = Vector3::new(st.a[r], st.a[r + 1], st.a[r + 2]) / bp;
                let nu = topo.compose_lie_rotation(start, &st.q, &theta);
                st.q[r..r + 3].copy_from_slice(nu.as_slice());
            }
        }
        if lambda_extrapolated {
            st.lambda.copy_from_slice(&self.lambda_extrapolated);
        } else {
            for (k, l) in st.lambda.iter_mut().enumerate() {
                let history = [self.lambda_n[k], self.lambda_prev[k], self.lambda_prev2[k]];
                *l = if quadratic {
                    extrapolate_quadratic(history, h, h1, h2)
                } else {
                    extrapolate_linear(history, h, h1)
                };
            }
        }
    }

    fn increment_at_roundoff(&self) -> bool {
        self.increment_at_roundoff
    }

    fn increment_norm(&self) -> f64 {
        self.increment
    }

    fn applied_increment_norm(&self) -> f64 {
        self.applied_increment
    }

    fn cheap_jacobian(&self) -> bool {
        !self.system.is_sparse()
    }

    fn coordinate_scale(&self) -> f64 {
        self.sim
            .state
            .q
            .iter()
            .fold(1.0, |m: f64, x| m.max(x.abs()))
    }

    fn force_norm(&self) -> f64 {
        self.f.iter().map(|x| x * x).sum::<f64>().sqrt() / self.c_err
    }
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

/// `m` with the entries of a Lie node's rotation columns multiplied by its tangent operator
/// from the right, (K·T)[r, j] = Σ_k K[r, k]·T[k, j]: the simplified relations' iteration
/// matrix for K and C_q (Exudyn's lieGroupAddTangentOperator).
struct TangentColumns<'a, M> {
    inner: &'a mut M,
    nodes: &'a [usize],
    tangents: &'a [Matrix3<f64>],
}

impl<M: MatrixAccumulator> MatrixAccumulator for TangentColumns<'_, M> {
    /// Without tangent operators (all but Lie-group models) a plain add, inlined into the
    /// assembly loops: as an out-of-line call it was a tenth of a Jacobian-heavy run.
    #[inline(always)]
    fn add(&mut self, row: usize, column: usize, value: f64) {
        if self.nodes.is_empty() {
            self.inner.add(row, column, value);
        } else {
            self.add_with_tangents(row, column, value);
        }
    }
}

impl<M: MatrixAccumulator> TangentColumns<'_, M> {
    #[inline(never)]
    fn add_with_tangents(&mut self, row: usize, column: usize, value: f64) {
        for (node, &start) in self.nodes.iter().enumerate() {
            if (start + 3..start + 6).contains(&column) {
                let k = column - start - 3;
                let t = &self.tangents[node];
                for j in 0..3 {
                    self.inner.add(row, start + 3 + j, value * t[(k, j)]);
                }
                return;
            }
        }
        self.inner.add(row, column, value);
    }
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
        // TrapezoidalIndex2 runs as Newmark with index-2 constraints
        let ti = &TimeIntegrationSettings {
            generalized_alpha: settings.time_integration.generalized_alpha_for_run(),
            ..settings.time_integration.clone()
        };
        let duration = ti.end_time - ti.start_time;
        // refused here, before the state changes, if the run would keep too much
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

        let h_max = (ti.end_time - ti.start_time) / ti.number_of_steps as f64;
        let mut step = StepSize::new(
            h_max,
            h_max,
            Adaptive {
                minimum: ti.minimum_step_size,
                decrease: ti.adaptive_step_decrease,
                increase: ti.adaptive_step_increase,
                recovery_steps: ti.adaptive_step_recovery_steps,
                recovery_iterations: ti.adaptive_step_recovery_iterations,
            },
        );
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
        let level = if ti.generalized_alpha.use_index2_constraints {
            ConstraintLevel::Velocity
        } else {
            ConstraintLevel::Position
        };
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
                            match fast_newton(
                                &mut p,
                                &ti.newton,
                                &mut jacobian_required,
                                &mut stats,
                            ) {
                                NewtonOutcome::Failed { .. } => {
                                    // before the step is reduced: Exudyn's control with full
                                    // Newton from Exudyn's predictor
                                    p.restart();
                                    newton(&mut p, &full_newton, &mut jacobian_required, &mut stats)
                                }
                                outcome => outcome,
                            }
                        }
                    };
                    let outcome = match outcome {
                        NewtonOutcome::Converged { iterations } => {
                            // Exudyn's PostNewtonStep and its discontinuous iteration
                            solves += 1;
                            let error = writer.post_newton(p.sim, level);
                            match ti.discontinuous.decide(error, solves) {
                                Discontinuous::Accept => break iterations,
                                Discontinuous::Repeat => {
                                    p.restore_for_repeat();
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
                        NewtonOutcome::Converged { iterations } => break iterations,
                        NewtonOutcome::Singular(col) => {
                            let e = p.sim.singular_error(col.0, t_new);
                            p.restore_last_good(t_n);
                            return Err(e);
                        }
                        NewtonOutcome::Failed { .. } => {
                            let why = if !ti.adaptive_step {
                                Some("adaptiveStep is off".to_owned())
                            } else if step.at_minimum() {
                                Some(format!(
                                    "with the minimum step size {}",
                                    ti.minimum_step_size
                                ))
                            } else {
                                None
                            };
                            if let Some(why) = why {
                                let (equation, residual) = p.worst_equation();
                                p.restore_last_good(t_n);
                                let worst = worst_clause(equation.as_deref(), residual);
                                let what = match discontinuous_failure {
                                    Some(e) => format!(
                                        "the discontinuous iteration did not settle at t = {t_new}: after {solves} solves the states still move their items' equations by {e} (discontinuous.iterationTolerance {}, ignoreMaxIterations off)",
                                        ti.discontinuous.iteration_tolerance
                                    ),
                                    None => format!("Newton did not converge at t = {t_new}"),
                                };
                                return Err(Error::solver_failed_at(
                                    format!(
                                        "{what} ({why}){worst}; the state is the last converged step's (t = {t_n})"
                                    ),
                                    t_new,
                                    equation,
                                    residual,
                                ));
                            }
                            p.restore_start_of_step();
                            p.restore_data_start();
                            p.sim.state.time = t_n;
                            solves = 0;
                            discontinuous_failure = None;
                            step.reduce();
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
                let h = step.h;
                let progress = Progress {
                    time: p.sim.state.time,
                    start_time: ti.start_time,
                    end_time: end,
                    steps: step_index,
                };
                report_step(p.sim, stats, h, &mut writer, observer, progress);
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
