//! Exudyn's explicit integrators: the Runge–Kutta family (ExplicitEuler, ExplicitMidpoint, RK33,
//! RK44, RK67), the embedded pairs with error control (ODE23, DOPRI5) and velocity Verlet, on
//! ODE2 systems written as first-order equations q̇ = v, v̇ = M⁻¹ f(q, v), and on ODE1
//! coordinates ẏ = f1(y) (velocity Verlet: explicit Euler for them, as Exudyn).
//!
//! Exudyn's order of operations is kept (stage sums j = 0…i−1 with `x += (a_ij·h)·k_j`, weights
//! skipped where zero, the tableau coefficients evaluated as Exudyn writes them), so results agree
//! with Exudyn's to round-off. What Exudyn does and this keeps:
//! - accelerations start at zero (velocity Verlet evaluates them at t = 0), λ stays zero;
//! - the mass matrix is factorized once when every body's is constant and
//!   `reuseConstantMassMatrix`, else at every evaluation;
//! - algebraic equations are not solved: with `explicit.eliminateConstraints` (default) the
//!   coordinates ConnectorCoordinates fix to a ground node are held at displacement 0 (after
//!   each step's update, on q, q̇, q̈ and the embedded solution) and any other constraint is
//!   refused; without it constraints are ignored (λ = 0). The constraints an explicit run
//!   solves thus hold exactly by construction, so the constraint check of the implicit solvers
//!   (`SimulationSettings::constraint_tolerance`) has nothing to check here;
//! - a failed step leaves the state of the last accepted step;
//! - ODE23 and DOPRI5 estimate the error with their embedded weights, scaled per coordinate by
//!   `absoluteTolerance + relativeTolerance·max(x̂₁, x₀)` (no absolute value, as in Exudyn), and
//!   propose h·min(stepSizeMaxIncrease, safety·err^(−1/order)) capped by the nominal step; a step
//!   whose optimal size is below the one taken is rejected and repeated with the proposal (also
//!   with `automaticStepSize` off, as pip Exudyn 1.13.6 does).

use nalgebra::Vector3;

use super::step_size::report_step;
use super::tableau::Tableau;
use crate::error::{Error, Result};
use crate::linear::{LinearSystem, assemble_into};
use crate::markers::rotation_vector::t_exp_so3_inv;
use crate::physics::Scratch;
use crate::settings::{DynamicSolverType, SimulationSettings, TimeIntegrationSettings};
use crate::simulation::{Progress, Simulation};
use joint_core::MarkerKind;

/// v̇ = M⁻¹ f(q, v): the mass matrix (factorized once if constant) and its buffers.
struct Accelerations {
    system: LinearSystem,
    constant: bool,
    factorized: bool,
    qt: Vec<f64>,
    scratch: Scratch,
}

impl Accelerations {
    fn new(sim: &Simulation, settings: &SimulationSettings) -> Accelerations {
        let topo = &sim.topology;
        let n2 = topo.n_ode2;
        let mut scratch = Scratch::for_topology(topo);
        let qt = vec![0.0; n2];
        let system = LinearSystem::for_solver_type(n2, settings.linear_solver, |recorder| {
            topo.add_mass_matrix(&qt, 1.0, recorder, &mut scratch)
        });
        Accelerations {
            system,
            constant: topo.constant_mass_matrix
                && settings.time_integration.reuse_constant_mass_matrix,
            factorized: false,
            qt,
            scratch,
        }
    }

    /// `a = M(q)⁻¹ f(q, v)` at displacements `q`; an error names the coordinate where M is singular.
    fn evaluate(&mut self, sim: &Simulation, q: &[f64], v: &[f64], a: &mut [f64]) -> Result<()> {
        let topo = &sim.topology;
        topo.total_coordinates(q, &mut self.qt);
        if !(self.constant && self.factorized) {
            let (qt, scratch) = (&self.qt, &mut self.scratch);
            assemble_into!(self.system.cleared_matrix(), |m| topo
                .add_mass_matrix(qt, 1.0, m, scratch));
            if let Err(col) = self.system.factorize() {
                let owner = &topo.ode2_owner[col.0];
                return Err(Error::solver_failed(format!(
                    "explicit solver: the mass matrix is singular at ODE2 coordinate {} of {owner} \
                         (at t = {}); explicit solvers need an invertible mass matrix",
                    col.0, sim.state.time
                )));
            }
            self.factorized = true;
        }
        // the data coordinates of the step's start (explicit stages do not update them)
        topo.ode2_rhs(&self.qt, v, &sim.state.data, 1.0, a, &mut self.scratch);
        self.system.solve_in_place(a);
        Ok(())
    }
}

/// The buffers of one run: stage derivatives, the start of the step and the embedded solution.
struct Stages {
    kq: Vec<Vec<f64>>,
    kv: Vec<Vec<f64>>,
    /// The ODE1 stage derivatives f1(y_i).
    ky: Vec<Vec<f64>>,
    q0: Vec<f64>,
    v0: Vec<f64>,
    a0: Vec<f64>,
    y0: Vec<f64>,
    y_t0: Vec<f64>,
    q_hat: Vec<f64>,
    v_hat: Vec<f64>,
    y_hat: Vec<f64>,
    /// Coordinates held at 0 (eliminated coordinate constraints to ground).
    constrained: Vec<usize>,
}

/// Σ_{j<i} a_ij·h·k_j over a Lie node's rotation entries (starting at ODE2 column `start`),
/// from zero, skipping the zero entries of the tableau as Exudyn does.
fn lie_sum(tab: &Tableau, i: usize, h: f64, k: &[Vec<f64>], start: usize) -> Vector3<f64> {
    let r = start + 3;
    let mut sum = Vector3::zeros();
    for (j, kj) in k.iter().enumerate().take(i) {
        let aij = tab.a(i, j);
        if aij != 0.0 {
            sum += (aij * h) * Vector3::new(kj[r], kj[r + 1], kj[r + 2]);
        }
    }
    sum
}

/// Exudyn's elimination: the constrained coordinates of `x` set to 0.
fn eliminate(constrained: &[usize], x: &mut [f64]) {
    for &c in constrained {
        x[c] = 0.0;
    }
}

impl Simulation {
    /// The explicit dynamic solve behind [`Simulation::solve_observed`] for explicit
    /// `timeIntegration.solverType`s.
    pub(super) fn run_explicit(
        &mut self,
        settings: &SimulationSettings,
        observer: &mut dyn FnMut(&Simulation, Progress),
    ) -> Result<()> {
        let ti = &settings.time_integration;
        settings.validate_dynamic()?;
        let method = ti.solver_type;
        let tableau = Tableau::of(method).expect("an explicit solver type");
        let constrained = self.explicit_constrained_coordinates(ti)?;
        let duration = ti.end_time - ti.start_time;
        let controlled = tableau.b_hat.is_some();
        let automatic = ti.automatic_step_size && controlled;
        self.prepare_sensor_data(
            settings,
            ti.number_of_steps,
            duration,
            ti.adaptive_step || automatic,
            "timeIntegration.numberOfSteps",
        )?;
        self.statistics = Default::default();
        self.load_item_states();
        let started = std::time::Instant::now();
        let lie = ti.explicit.use_lie_group_integration && !self.topology.lie_nodes.is_empty();
        let n2 = self.topology.n_ode2;
        let n1 = self.topology.n_ode1;
        let mut acc = Accelerations::new(self, settings);
        self.start_explicit(settings, &mut acc, observer)?;

        let s = tableau.stages;
        let mut st = Stages {
            kq: vec![vec![0.0; n2]; s],
            kv: vec![vec![0.0; n2]; s],
            ky: vec![vec![0.0; n1]; s],
            q0: vec![0.0; n2],
            v0: vec![0.0; n2],
            a0: vec![0.0; n2],
            y0: vec![0.0; n1],
            y_t0: vec![0.0; n1],
            q_hat: vec![0.0; n2],
            v_hat: vec![0.0; n2],
            y_hat: vec![0.0; n1],
            constrained,
        };
        let h_max = duration / ti.number_of_steps as f64;
        let mut h = if automatic && ti.initial_step_size != 0.0 {
            ti.initial_step_size
        } else {
            h_max
        };
        let mut writer = self.sensor_writer(settings);
        let mut step_index: usize = 0;
        let mut min_step_reached = false;
        let mut rejected = 0usize;
        let end = ti.end_time;
        let stats = self.statistics.newton;
        while self.state.time < end - 1e-10 {
            let t0 = self.state.time;
            st.q0.copy_from_slice(&self.state.q);
            st.v0.copy_from_slice(&self.state.v);
            st.a0.copy_from_slice(&self.state.a);
            st.y0.copy_from_slice(&self.state.y);
            st.y_t0.copy_from_slice(&self.state.y_t);
            loop {
                let t1 = if !ti.adaptive_step && !automatic {
                    (step_index + 1) as f64 * h + ti.start_time
                } else {
                    if t0 + h > end {
                        h = end - t0;
                    }
                    t0 + h
                };
                let h_taken = h;
                let accepted = if method == DynamicSolverType::VelocityVerlet {
                    let stepped = self.verlet_step(&mut acc, &st.constrained, &st.q0, lie, h, t1);
                    if let Err(e) = stepped {
                        self.restore_step_start(&st, t0);
                        return Err(e);
                    }
                    true
                } else {
                    let stepped = self.runge_kutta_step(&tableau, &mut acc, &mut st, h, t0, t1, ti);
                    if let Err(e) = stepped {
                        self.restore_step_start(&st, t0);
                        return Err(e);
                    }
                    match self.error_control(&tableau, &st, h, h_max, ti, &mut min_step_reached) {
                        None => true,
                        Some((h_new, ok)) => {
                            h = h_new;
                            ok
                        }
                    }
                };
                self.state.time = t1;
                if accepted {
                    self.statistics.last_step_size = h_taken;
                    break;
                }
                rejected += 1;
                self.restore_step_start(&st, t0);
                if !(ti.adaptive_step || automatic) {
                    return Err(Error::solver_failed_at(
                        format!(
                            "{}: the error control rejected the step at t = {t0} and the step \
                             size may not change (automaticStepSize and adaptiveStep are off); \
                             the state is the last accepted step's",
                            method.name()
                        ),
                        t1,
                        None,
                        None,
                    ));
                }
            }
            step_index += 1;
            self.statistics.rejected_automatic_steps = rejected;
            let progress = Progress {
                time: self.state.time,
                start_time: ti.start_time,
                end_time: end,
                steps: step_index,
            };
            let h_taken = self.statistics.last_step_size;
            // the data coordinates and states after the step, as Exudyn's explicit solvers
            // update them (no discontinuous iteration: the step is not solved again)
            writer.post_newton(self, crate::items::joints::ConstraintLevel::Position, None);
            report_step(self, stats, h_taken, &mut writer, observer, progress);
            // Exudyn's step recovery changes nothing here: a fixed-step method's step is never
            // reduced, and an embedded pair keeps its control's proposal even with
            // automaticStepSize off (measured: ODE23 so, 2322 steps and 73 rejections as
            // Exudyn; doubling every 10 steps would reject 288).
        }
        self.statistics.sparse_solver = acc.system.is_sparse();
        self.statistics.matrix_nonzeros = acc.system.nonzeros();
        self.statistics.factor_nonzeros = acc.system.factor_nonzeros();
        self.statistics.sparse_factorizations = acc.system.factorization_counts();
        self.statistics.solver_seconds = started.elapsed().as_secs_f64();
        Ok(())
    }

    /// The explicit run's start: time, accelerations and multipliers as Exudyn starts them
    /// (velocity Verlet's initial accelerations evaluated), the initial sensor rows, the
    /// observer's first call.
    fn start_explicit(
        &mut self,
        settings: &SimulationSettings,
        acc: &mut Accelerations,
        observer: &mut dyn FnMut(&Simulation, Progress),
    ) -> Result<()> {
        let ti = &settings.time_integration;
        let n2 = self.topology.n_ode2;
        self.state.time = ti.start_time;
        self.state.a.fill(0.0);
        self.state.lambda.fill(0.0);
        // Exudyn starts ẏ at zero too (not f1 at the start)
        self.state.y_t.fill(0.0);
        if ti.solver_type == DynamicSolverType::VelocityVerlet {
            let (q, v) = (self.state.q.clone(), self.state.v.clone());
            let mut a = vec![0.0; n2];
            acc.evaluate(self, &q, &v, &mut a)?;
            self.state.a.copy_from_slice(&a);
        }
        self.write_sensors_initial(settings);
        observer(
            self,
            Progress {
                time: ti.start_time,
                start_time: ti.start_time,
                end_time: ti.end_time,
                steps: 0,
            },
        );
        Ok(())
    }

    /// Back to the state at the start of the step (`t0`): before a retry, and what a failed
    /// run leaves.
    fn restore_step_start(&mut self, st: &Stages, t0: f64) {
        self.state.q.copy_from_slice(&st.q0);
        self.state.v.copy_from_slice(&st.v0);
        self.state.a.copy_from_slice(&st.a0);
        self.state.y.copy_from_slice(&st.y0);
        self.state.y_t.copy_from_slice(&st.y_t0);
        self.state.time = t0;
    }

    /// The ODE2 coordinates Exudyn's explicit solvers eliminate: with eliminateConstraints (the
    /// default) every algebraic equation must be a ConnectorCoordinate between a ground node's
    /// coordinate and a node coordinate, which is then held at displacement 0 (its offset and
    /// factor are not used, as in Exudyn); anything else is refused, naming it. Without
    /// eliminateConstraints the constraints are ignored (λ = 0), as Exudyn does.
    fn explicit_constrained_coordinates(&self, ti: &TimeIntegrationSettings) -> Result<Vec<usize>> {
        let topo = &self.topology;
        if topo.n_ae == 0 || !ti.explicit.eliminate_constraints {
            return Ok(Vec::new());
        }
        let refuse = |owner: String, what: &str| {
            Error::solver_failed(format!(
                "{owner}: {what}, which the explicit solver {} does not solve (Exudyn's explicit \
                 solvers eliminate only ConnectorCoordinates fixing a node coordinate to a ground \
                 node); use GeneralizedAlpha or TrapezoidalIndex2, or set \
                 timeIntegration.explicit.eliminateConstraints = False to ignore constraints as \
                 Exudyn then does",
                ti.solver_type.name()
            ))
        };
        if let Some(ep) = topo.ep_constraints.first() {
            let owner = &topo.ae_owner[ep.ae];
            return Err(refuse(
                owner.to_string(),
                "has an Euler-parameter constraint",
            ));
        }
        if let Some(c) = topo.coordinate_vectors.first() {
            let owner = self.mbs.object_ref(c.object).to_string();
            return Err(refuse(owner, "is a constraint"));
        }
        let mut columns = Vec::new();
        for j in &topo.joints {
            let owner = self.mbs.object_ref(j.object).to_string();
            if !std::ptr::eq(
                j.definition,
                &crate::kernels::coordinate_constraint::DEFINITION,
            ) {
                return Err(refuse(owner, "is a constraint"));
            }
            let kinds = j.markers.map(|m| topo.markers[m].kind());
            let column = match kinds {
                [
                    Some(MarkerKind::GroundCoordinate),
                    Some(MarkerKind::NodeCoordinate),
                ] => topo.markers[j.markers[1]].columns[0],
                [
                    Some(MarkerKind::NodeCoordinate),
                    Some(MarkerKind::GroundCoordinate),
                ] => topo.markers[j.markers[0]].columns[0],
                _ => {
                    return Err(refuse(
                        owner,
                        "couples two node coordinates (not a coordinate fixed to ground)",
                    ));
                }
            };
            columns.push(column);
        }
        Ok(columns)
    }

    /// One Runge–Kutta step from `st.q0, st.v0` at t0 with step h: stages, the new state, the
    /// embedded solution of a controlled pair, the end-of-step accelerations.
    #[allow(clippy::too_many_arguments)]
    fn runge_kutta_step(
        &mut self,
        tab: &Tableau,
        acc: &mut Accelerations,
        st: &mut Stages,
        h: f64,
        t0: f64,
        t1: f64,
        ti: &TimeIntegrationSettings,
    ) -> Result<()> {
        let n2 = self.topology.n_ode2;
        let lie = ti.explicit.use_lie_group_integration && !self.topology.lie_nodes.is_empty();
        let mut q = std::mem::take(&mut self.state.q);
        let mut v = std::mem::take(&mut self.state.v);
        let mut y = std::mem::take(&mut self.state.y);
        for i in 0..tab.stages {
            for j in 0..i {
                let aij = tab.a(i, j);
                if aij != 0.0 {
                    let f = aij * h;
                    for k in 0..n2 {
                        q[k] += f * st.kq[j][k];
                        v[k] += f * st.kv[j][k];
                    }
                    for (y, k) in y.iter_mut().zip(&st.ky[j]) {
                        *y += f * k;
                    }
                }
            }
            if lie {
                // RKMK: the stage's rotation is the start's composed with Σ a_ij·h·kq_j
                for &start in &self.topology.lie_nodes {
                    let ksum = lie_sum(tab, i, h, &st.kq, start);
                    if i > 0 {
                        let nu = self.topology.compose_lie_rotation(start, &st.q0, &ksum);
                        q[start + 3..start + 6].copy_from_slice(nu.as_slice());
                    }
                }
            }
            self.state.time = t0 + h * tab.c[i];
            // the ODE1 stage first, as Exudyn
            self.topology.ode1_rhs(&y, &mut st.ky[i], &mut acc.scratch);
            y.copy_from_slice(&st.y0);
            let mut kv = std::mem::take(&mut st.kv[i]);
            let r = acc.evaluate(self, &q, &v, &mut kv);
            st.kv[i] = kv;
            if let Err(e) = r {
                // the state's vectors back in place (the caller restores the step's start)
                (self.state.q, self.state.v, self.state.y) = (q, v, y);
                return Err(e);
            }
            st.kq[i].copy_from_slice(&v);
            if lie {
                // the rotation's derivative in the algebra: T⁻¹(K_i)·(ω̄₀ + Σ a_ij·h·kv_j)
                for &start in &self.topology.lie_nodes {
                    let ksum = lie_sum(tab, i, h, &st.kq, start);
                    let kvsum = lie_sum(tab, i, h, &st.kv, start);
                    let r = start + 3;
                    let omega = Vector3::new(st.v0[r], st.v0[r + 1], st.v0[r + 2]) + kvsum;
                    let k = t_exp_so3_inv(&ksum) * omega;
                    st.kq[i][r..r + 3].copy_from_slice(k.as_slice());
                }
            }
            q.copy_from_slice(&st.q0);
            v.copy_from_slice(&st.v0);
        }
        for i in 0..tab.stages {
            if tab.b[i] != 0.0 {
                let f = tab.b[i] * h;
                for k in 0..n2 {
                    q[k] += f * st.kq[i][k];
                    v[k] += f * st.kv[i][k];
                }
                for (y, k) in y.iter_mut().zip(&st.ky[i]) {
                    *y += f * k;
                }
            }
        }
        if lie {
            self.compose_lie_step(&st.q0, &st.kq, &tab.b, h, &mut q);
        }
        eliminate(&st.constrained, &mut q);
        eliminate(&st.constrained, &mut v);
        if let Some(b_hat) = &tab.b_hat {
            st.q_hat.copy_from_slice(&st.q0);
            st.v_hat.copy_from_slice(&st.v0);
            st.y_hat.copy_from_slice(&st.y0);
            for (i, &bi) in b_hat.iter().enumerate() {
                if bi != 0.0 {
                    let f = bi * h;
                    for k in 0..n2 {
                        st.q_hat[k] += f * st.kq[i][k];
                        st.v_hat[k] += f * st.kv[i][k];
                    }
                    for (y, k) in st.y_hat.iter_mut().zip(&st.ky[i]) {
                        *y += f * k;
                    }
                }
            }
            if lie {
                self.compose_lie_step(&st.q0, &st.kq, b_hat, h, &mut st.q_hat);
            }
            eliminate(&st.constrained, &mut st.q_hat);
            eliminate(&st.constrained, &mut st.v_hat);
        }
        self.state.time = t1;
        // ẏ at the end of the step
        self.topology
            .ode1_rhs(&y, &mut self.state.y_t, &mut acc.scratch);
        self.state.y = y;
        let mut a = std::mem::take(&mut self.state.a);
        let r = if ti.explicit.compute_end_of_step_accelerations {
            acc.evaluate(self, &q, &v, &mut a)
        } else {
            a.copy_from_slice(&st.kv[tab.stages - 1]);
            Ok(())
        };
        eliminate(&st.constrained, &mut a);
        self.state.q = q;
        self.state.v = v;
        self.state.a = a;
        r
    }

    /// Velocity Verlet: v½ = v + h/2·a, q₁ = q + h·v½, a₁ = a(q₁, v½), v₁ = v½ + h/2·a₁.
    #[allow(clippy::too_many_arguments)]
    fn verlet_step(
        &mut self,
        acc: &mut Accelerations,
        constrained: &[usize],
        q0: &[f64],
        lie: bool,
        h: f64,
        t1: f64,
    ) -> Result<()> {
        let n2 = self.topology.n_ode2;
        let f = 0.5 * h;
        for k in 0..n2 {
            self.state.v[k] += f * self.state.a[k];
        }
        for k in 0..n2 {
            self.state.q[k] += h * self.state.v[k];
        }
        if lie {
            // a Lie node's rotation moves by composition with h·v½ from the step's start
            for &start in &self.topology.lie_nodes {
                let r = start + 3;
                let v = &self.state.v;
                let theta = h * Vector3::new(v[r], v[r + 1], v[r + 2]);
                let nu = self.topology.compose_lie_rotation(start, q0, &theta);
                self.state.q[r..r + 3].copy_from_slice(nu.as_slice());
            }
        }
        eliminate(constrained, &mut self.state.q);
        eliminate(constrained, &mut self.state.v);
        self.state.time = t1;
        let q = std::mem::take(&mut self.state.q);
        let v = std::mem::take(&mut self.state.v);
        let mut a = std::mem::take(&mut self.state.a);
        let r = acc.evaluate(self, &q, &v, &mut a);
        eliminate(constrained, &mut a);
        self.state.q = q;
        self.state.v = v;
        self.state.a = a;
        r?;
        for k in 0..n2 {
            self.state.v[k] += f * self.state.a[k];
        }
        // ODE1 by the explicit Euler step, with ẏ = f1 at the step's start y (Exudyn's)
        let (topo, st) = (&self.topology, &mut self.state);
        topo.ode1_rhs(&st.y, &mut st.y_t, &mut acc.scratch);
        for (y, y_t) in st.y.iter_mut().zip(&st.y_t) {
            *y += h * y_t;
        }
        Ok(())
    }

    /// `q` at the end of a step (or of its embedded solution) on the Lie nodes' rotations:
    /// ν = (ν₀ + ν_ref) ∘ Σ w_i·h·kq_i − ν_ref, the weighted sum from zero as Exudyn forms it.
    fn compose_lie_step(
        &self,
        q0: &[f64],
        kq: &[Vec<f64>],
        weights: &[f64],
        h: f64,
        q: &mut [f64],
    ) {
        for &start in &self.topology.lie_nodes {
            let r = start + 3;
            let mut theta = Vector3::zeros();
            for (k, &w) in kq.iter().zip(weights) {
                if w != 0.0 {
                    theta += (w * h) * Vector3::new(k[r], k[r + 1], k[r + 2]);
                }
            }
            let nu = self.topology.compose_lie_rotation(start, q0, &theta);
            q[r..r + 3].copy_from_slice(nu.as_slice());
        }
    }

    /// The error control of an embedded pair (None for fixed-step methods): the proposed step
    /// size and whether the step taken is accepted (Hairer, Nørsett, Wanner I, p. 168, with
    /// Exudyn's scaling).
    fn error_control(
        &self,
        tab: &Tableau,
        st: &Stages,
        h: f64,
        h_max: f64,
        ti: &TimeIntegrationSettings,
        min_step_reached: &mut bool,
    ) -> Option<(f64, bool)> {
        tab.b_hat.as_ref()?;
        let (atol, rtol) = (ti.absolute_tolerance, ti.relative_tolerance);
        let n2 = self.topology.n_ode2;
        let n1 = self.topology.n_ode1;
        let mut err = 0.0;
        for k in 0..n1 {
            let sc = atol + st.y_hat[k].max(st.y0[k]) * rtol;
            err += ((st.y_hat[k] - self.state.y[k]) / sc).powi(2);
        }
        for k in 0..n2 {
            let sc = atol + st.q_hat[k].max(st.q0[k]) * rtol;
            err += ((st.q_hat[k] - self.state.q[k]) / sc).powi(2);
            let sc = atol + st.v_hat[k].max(st.v0[k]) * rtol;
            err += ((st.v_hat[k] - self.state.v[k]) / sc).powi(2);
        }
        let mut err = (err / (n1 + 2 * n2) as f64).sqrt();
        if err == 0.0 {
            err = 1e-12;
        }
        let h_opt = h * (1.0 / err).powf(1.0 / tab.order);
        let upper = h_max.min(h * ti.step_size_max_increase);
        let h_min = ti.minimum_step_size;
        let h_new = upper.min(h_min.max(ti.step_size_safety * h_opt));
        let accepted = if h_new == h_min && !*min_step_reached {
            // Exudyn warns once and goes on with the error above the tolerances
            *min_step_reached = true;
            true
        } else {
            h_opt >= h
        };
        Some((h_new, accepted))
    }
}
