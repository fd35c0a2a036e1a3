//! A time step's set-up: the integration constants, the problem's buffers, the step's start
//! saved and restored (step reduction, discontinuous repeats), Exudyn's predictor and the
//! accepted step's finalization.

use super::*;

impl Constants {
    pub(super) fn new(s: &TimeIntegrationSettings) -> Constants {
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

impl<'a> StepProblem<'a> {
    pub(super) fn new(
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

    pub(super) fn set_step_size(&mut self, h: f64) {
        let c = &self.c;
        self.h = h;
        self.s = c.beta * h * h;
        self.beta_p = (1.0 - c.alpha_m) / (h * h * c.beta * (1.0 - c.alpha_f));
        self.gamma_p = c.gamma / (h * c.beta);
    }

    pub(super) fn save_start_of_step(&mut self) {
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
    pub(super) fn restore_start_of_step(&mut self) {
        let st = &mut self.sim.state;
        st.q.copy_from_slice(&self.q_n);
        st.v.copy_from_slice(&self.v_n);
        st.a.copy_from_slice(&self.acc_n);
        st.y.copy_from_slice(&self.y_n);
        st.y_t.copy_from_slice(&self.y_t_n);
    }

    /// The data coordinates (the items' states) of the step's start, where a step is reduced
    /// or the run fails; a discontinuous iteration keeps the new ones.
    pub(super) fn restore_data_start(&mut self) {
        if self.data_n.is_empty() {
            return;
        }
        self.sim.state.data.copy_from_slice(&self.data_n);
        self.sim.load_item_states();
    }

    /// The step's start at `t_n` again, its data coordinates too, for a shorter step.
    pub(super) fn restore_for_reduction(&mut self, t_n: f64) {
        self.restore_start_of_step();
        self.restore_data_start();
        self.sim.state.time = t_n;
    }

    /// The step's start again, for a discontinuous iteration: q, v, ä, y, ẏ and the a-buffer
    /// (spec/solver.md §4.4), the data coordinates PostNewton stored kept.
    pub(super) fn restore_for_repeat(&mut self) {
        self.restore_start_of_step();
        self.a_buf.copy_from_slice(&self.a_start);
    }

    /// The last converged step's state, time and multipliers: what a failed run leaves.
    pub(super) fn restore_last_good(&mut self, t_n: f64) {
        self.restore_start_of_step();
        self.restore_data_start();
        self.sim.state.lambda.copy_from_slice(&self.lambda_n);
        self.sim.state.time = t_n;
    }

    /// The worst equation of the last residual Newton evaluated (of a failed step): its
    /// description and residual.
    pub(super) fn worst_equation(&self) -> (Option<String>, Option<f64>) {
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
    pub(super) fn check_constraints(&self, tolerance: f64, t: f64) -> Result<f64> {
        let topo = &self.sim.topology;
        let level = if self.index2 { "velocity" } else { "position" };
        topo.check_constraint_rows(&self.rhs[topo.ae_start()..], tolerance, t, level)
    }

    /// The predictor (spec/solver.md §2.3), using the a-buffer as a_n.
    pub(super) fn predictor(&mut self) {
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
    pub(super) fn finalize(&mut self) {
        self.h_done = self.h;
        let c = self.c;
        for i in 0..self.a_buf.len() {
            self.a_buf[i] += (1.0 - c.alpha_f) / (1.0 - c.alpha_m) * self.sim.state.a[i];
        }
    }
}
