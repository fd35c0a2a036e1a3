//! [`SolverMode::Accurate`](crate::settings::SolverMode::Accurate): the embedded Runge–Kutta pair
//! Dormand–Prince 8(5,3) ([`Pair`]) on the index-1 form of the constrained equations, with
//! projection onto the constraints.
//!
//! The state x = (q, q̇, y) moves by q̇' = q̈(q, q̇) from [`Index1`] and y' = f1(y); the pair's
//! eighth-order solution is propagated (local extrapolation) and the pair's estimate
//! ([`ErrorEstimate`]) is the local error, each entry scaled by tol·(1 + max(|x₀|, |x₁|))
//! (Hairer, Nørsett, Wanner I, II.4 and II.10). The step is accepted at a scaled error ≤ 1 and
//! the next one is h·min(5, max(0.2, 0.9·err^(−1/8))) (no growth right after a rejection; a PI
//! control, β = 0.04 or 0.08, took more evaluations on the chains). The first step is Hairer's
//! estimate from the start's derivatives, without its cap of 100·h₀ when the system starts at
//! rest (h₀ then says nothing of the motion). An accepted step is
//! projected onto the constraints (positions, then velocities: Hairer, Lubich, Wanner VII.2,
//! which keeps the method's order); the last stage, at the step's end, is the next step's
//! first (FSAL), its small offset from the projected state being of the local error's size.
//! Every accepted step then passes the constraint check of the implicit solvers, updates the
//! data coordinates and the items' states (as Exudyn's explicit solvers do: no discontinuous
//! iteration) and writes the sensors: rows due inside the step from the quintic Hermite
//! interpolant of its ends (q, q̇, q̈; λ and y linear), so that long steps keep the rows at
//! their write period.

use super::index1::Index1;
use super::pairs::{ErrorEstimate, Pair};
use super::step_size::report_step;
use crate::error::{Error, Result};
use crate::items::joints::ConstraintLevel;
use crate::sensors::SensorWriter;
use crate::settings::SimulationSettings;
use crate::simulation::{Progress, Simulation};

/// The growth and shrink limits of the step size per step, and the safety factor.
const GROW: f64 = 5.0;
const SHRINK: f64 = 0.2;
const SAFETY: f64 = 0.9;
/// Steps (accepted and rejected) a run may take: beyond, its tolerance is below what
/// round-off lets the error estimate see for the model (perf3DRigidBodies at 1e-11, whose
/// steps then shrink without end), or the model is too stiff for an explicit method.
const MAX_STEPS: usize = 1_000_000;
/// Attempts of one step whose stages or projection fail (a singular index-1 system, the
/// constraints out of reach), each 5× shorter, before the last failure ends the run: a step
/// too long fails so, a model that cannot be solved fails at every length.
const MAX_FAILED_IN_A_ROW: usize = 10;

/// One run's vectors: the stage derivatives of q (the stages' velocities), of q̇ (their
/// accelerations) and of y, the step's start, the stage state and the embedded solution.
struct Stages {
    kq: Vec<Vec<f64>>,
    kv: Vec<Vec<f64>>,
    ky: Vec<Vec<f64>>,
    /// λ at each stage (the last one's is the step's).
    lambda: Vec<Vec<f64>>,
    q0: Vec<f64>,
    v0: Vec<f64>,
    y0: Vec<f64>,
    a0: Vec<f64>,
    lambda0: Vec<f64>,
    data0: Vec<f64>,
    q: Vec<f64>,
    v: Vec<f64>,
    y: Vec<f64>,
}

impl Stages {
    fn new(s: usize, n2: usize, n1: usize, nae: usize) -> Stages {
        Stages {
            kq: vec![vec![0.0; n2]; s],
            kv: vec![vec![0.0; n2]; s],
            ky: vec![vec![0.0; n1]; s],
            lambda: vec![vec![0.0; nae]; s],
            q0: vec![0.0; n2],
            v0: vec![0.0; n2],
            y0: vec![0.0; n1],
            a0: vec![0.0; n2],
            lambda0: vec![0.0; nae],
            data0: Vec::new(),
            q: vec![0.0; n2],
            v: vec![0.0; n2],
            y: vec![0.0; n1],
        }
    }

    /// x = x₀ + h·Σ_j w_j·k_j into the stage state.
    fn combine(&mut self, weights: &[f64], h: f64) {
        self.q.copy_from_slice(&self.q0);
        self.v.copy_from_slice(&self.v0);
        self.y.copy_from_slice(&self.y0);
        for (j, &w) in weights.iter().enumerate() {
            if w == 0.0 {
                continue;
            }
            let f = w * h;
            for (x, k) in self.q.iter_mut().zip(&self.kq[j]) {
                *x += f * k;
            }
            for (x, k) in self.v.iter_mut().zip(&self.kv[j]) {
                *x += f * k;
            }
            for (x, k) in self.y.iter_mut().zip(&self.ky[j]) {
                *x += f * k;
            }
        }
    }
}

/// The pair's scaled error (over q, q̇ and y, each entry divided by
/// tol·(1 + max(|x₀|, |x₁|))) and the largest unscaled fifth-order error estimate of a position
/// coordinate.
fn scaled_error(st: &Stages, estimate: &ErrorEstimate, h: f64, tol: f64) -> (f64, f64) {
    let combine = |w: &[f64], k: &[Vec<f64>], i: usize| {
        let mut d = 0.0;
        for (j, &wj) in w.iter().enumerate() {
            if wj != 0.0 {
                d += wj * k[j][i];
            }
        }
        h * d
    };
    let (mut sum5, mut sum3, mut count, mut largest_q) = (0.0, 0.0, 0usize, 0.0f64);
    let parts = [
        (&st.q0, &st.q, &st.kq, true),
        (&st.v0, &st.v, &st.kv, false),
        (&st.y0, &st.y, &st.ky, false),
    ];
    for (x0, x1, k, position) in parts {
        for i in 0..x0.len() {
            let sc = tol * (1.0 + x0[i].abs().max(x1[i].abs()));
            let d5 = combine(&estimate.e5, k, i);
            let d3 = combine(&estimate.e3, k, i);
            if position {
                // the pair's combination, per coordinate (as its scaled error combines norms)
                let d = d5 * d5 / (d5 * d5 + 0.01 * d3 * d3).sqrt();
                if d.is_finite() {
                    largest_q = largest_q.max(d);
                }
            }
            sum5 += (d5 / sc) * (d5 / sc);
            sum3 += (d3 / sc) * (d3 / sc);
            count += 1;
        }
    }
    if count == 0 || sum5 == 0.0 {
        return (0.0, largest_q);
    }
    (
        sum5 / ((sum5 + 0.01 * sum3) * count as f64).sqrt(),
        largest_q,
    )
}

/// Quintic Hermite interpolation at θ ∈ [0, 1] of a step of size h from (x0, ẋ0, ẍ0) to
/// (x1, ẋ1, ẍ1): the value, its rate and its second rate (exact for polynomials of degree 5,
/// so an error of order h⁶ on a smooth motion).
#[allow(clippy::too_many_arguments)]
fn hermite5(theta: f64, h: f64, x0: f64, v0: f64, a0: f64, x1: f64, v1: f64, a1: f64) -> [f64; 3] {
    let s = theta;
    let (s2, s3) = (s * s, s * s * s);
    let (s4, s5) = (s3 * s, s3 * s2);
    let basis = [
        1.0 - 10.0 * s3 + 15.0 * s4 - 6.0 * s5,
        s - 6.0 * s3 + 8.0 * s4 - 3.0 * s5,
        0.5 * (s2 - 3.0 * s3 + 3.0 * s4 - s5),
        10.0 * s3 - 15.0 * s4 + 6.0 * s5,
        -4.0 * s3 + 7.0 * s4 - 3.0 * s5,
        0.5 * (s3 - 2.0 * s4 + s5),
    ];
    let rate = [
        -30.0 * s2 + 60.0 * s3 - 30.0 * s4,
        1.0 - 18.0 * s2 + 32.0 * s3 - 15.0 * s4,
        0.5 * (2.0 * s - 9.0 * s2 + 12.0 * s3 - 5.0 * s4),
        30.0 * s2 - 60.0 * s3 + 30.0 * s4,
        -12.0 * s2 + 28.0 * s3 - 15.0 * s4,
        0.5 * (3.0 * s2 - 8.0 * s3 + 5.0 * s4),
    ];
    let second = [
        -60.0 * s + 180.0 * s2 - 120.0 * s3,
        -36.0 * s + 96.0 * s2 - 60.0 * s3,
        0.5 * (2.0 - 18.0 * s + 36.0 * s2 - 20.0 * s3),
        60.0 * s - 180.0 * s2 + 120.0 * s3,
        -24.0 * s + 84.0 * s2 - 60.0 * s3,
        0.5 * (6.0 * s - 24.0 * s2 + 20.0 * s3),
    ];
    // the data in the basis' order, each scaled to the unit interval
    let d = [x0, h * v0, h * h * a0, x1, h * v1, h * h * a1];
    let dot = |w: &[f64; 6]| w.iter().zip(&d).map(|(w, d)| w * d).sum::<f64>();
    [dot(&basis), dot(&rate) / h, dot(&second) / (h * h)]
}

/// How closely a projection meets the constraints: a thousandth of the error tolerance, and
/// at most 1e-9 (a projection step is cheap; loose tolerances keep tight constraints, far from
/// the constraint check's 1e-4).
fn projection_tolerance(tol: f64) -> f64 {
    (1e-3 * tol).min(1e-9)
}

/// The step size and what the last attempts said of it.
struct StepControl {
    h: f64,
    /// The exponent of the step proposal, 1/(q + 1).
    exponent: f64,
    rejected_last: bool,
    failed_in_a_row: usize,
}

impl StepControl {
    fn new(h: f64, exponent: f64) -> StepControl {
        StepControl {
            h,
            exponent,
            rejected_last: false,
            failed_in_a_row: 0,
        }
    }

    /// After a step the error control rejected (scaled error `err` > 1, or not finite).
    fn rejected(&mut self, err: f64) {
        let factor = if err.is_finite() {
            (SAFETY * err.powf(-self.exponent)).clamp(SHRINK, 1.0)
        } else {
            SHRINK
        };
        self.h *= factor;
        self.rejected_last = true;
    }

    /// After a step whose stages or projection failed with `e`: 5× shorter, or `e` once
    /// [`MAX_FAILED_IN_A_ROW`] attempts failed so.
    fn failed(&mut self, e: Error) -> Result<()> {
        self.failed_in_a_row += 1;
        if self.failed_in_a_row >= MAX_FAILED_IN_A_ROW {
            return Err(e);
        }
        self.h *= SHRINK;
        self.rejected_last = true;
        Ok(())
    }

    /// After an accepted step of scaled error `err`: the next step's size (no growth right
    /// after a rejection).
    fn accepted(&mut self, err: f64) {
        let grow = if self.rejected_last { 1.0 } else { GROW };
        let factor = if err > 0.0 {
            (SAFETY * err.powf(-self.exponent)).clamp(SHRINK, grow)
        } else {
            grow
        };
        self.h *= factor;
        self.rejected_last = false;
        self.failed_in_a_row = 0;
    }
}

/// The error of a run that reached [`MAX_STEPS`] at `t0`.
fn too_many_steps(t0: f64, tol: f64) -> Error {
    Error::solver_failed_at(
        format!(
            "the accurate mode took {MAX_STEPS} steps and reached t = {t0}: the error \
             tolerance {tol} is below what round-off lets its error estimate see for this model, \
             or the model is too stiff for an explicit method; loosen the tolerance, or use the \
             fast mode; the state is the last accepted step's"
        ),
        t0,
        None,
        None,
    )
}

/// The error of a step size that fell below round-off at `t0`.
fn step_underflow(h: f64, t0: f64, tol: f64) -> Error {
    Error::solver_failed_at(
        format!(
            "the accurate mode's step size fell to {h} at t = {t0}: the error tolerance {tol} \
             cannot be met here (a singularity, or a tolerance below round-off); the state is \
             the last accepted step's"
        ),
        t0,
        None,
        None,
    )
}

impl Simulation {
    /// The accurate mode's dynamic solve behind [`Simulation::solve_observed`].
    pub(super) fn run_accurate(
        &mut self,
        settings: &SimulationSettings,
        observer: &mut dyn FnMut(&Simulation, Progress),
    ) -> Result<()> {
        let ti = &settings.time_integration;
        settings.validate_dynamic()?;
        if let Some(&start) = self.topology.lie_nodes.first() {
            return Err(Error::solver_failed(format!(
                "{}: a RotVecLG (Lie-group) node, which the accurate mode does not integrate; \
                 use the exact or fast mode",
                self.topology.ode2_owner[start]
            )));
        }
        let pair = Pair::dop853();
        let s = pair.stages;
        let duration = ti.end_time - ti.start_time;
        self.prepare_sensor_data(
            settings,
            ti.number_of_steps,
            duration,
            true,
            "timeIntegration.numberOfSteps",
        )?;
        self.statistics = Default::default();
        self.load_item_states();
        let started = std::time::Instant::now();
        let topo_n = (
            self.topology.n_ode2,
            self.topology.n_ode1,
            self.topology.n_ae,
        );
        let mut st = Stages::new(s, topo_n.0, topo_n.1, topo_n.2);
        let mut index1 = Index1::new(&self.topology, settings);
        self.state.time = ti.start_time;
        let tol = settings.error_tolerance;
        self.accurate_start(&mut index1, &mut st, tol)?;
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
        let h = self.first_step(&mut index1, &mut st, tol, pair.exponent, duration)?;
        let mut control = StepControl::new(h, pair.exponent);
        let mut writer = self.sensor_writer(settings);
        let end = ti.end_time;
        let mut steps = 0usize;
        let mut largest_constraint = 0.0f64;
        let stats = self.statistics.newton;
        while self.state.time < end - 1e-12 * duration.max(1.0) {
            let t0 = self.state.time;
            if steps + self.statistics.rejected_automatic_steps >= MAX_STEPS {
                return Err(too_many_steps(t0, tol));
            }
            if end - t0 < control.h * 1.01 {
                control.h = end - t0;
            }
            let h = control.h;
            if let Err(e) = self.accurate_stages(&mut index1, &mut st, &pair, h) {
                // a stage far from the motion (a step too long): shorter, unless it keeps failing
                self.restore_accurate_start(&st, t0);
                self.statistics.rejected_automatic_steps += 1;
                control.failed(e)?;
                continue;
            }
            // the last stage is the eighth-order solution (FSAL): st.q, st.v, st.y hold it
            let (err, position_error) = scaled_error(&st, &pair.estimate, h, tol);
            if !(err <= 1.0) {
                self.statistics.rejected_automatic_steps += 1;
                self.restore_accurate_start(&st, t0);
                control.rejected(err);
                if control.h <= 16.0 * f64::EPSILON * t0.abs().max(duration) {
                    return Err(step_underflow(control.h, t0, tol));
                }
                continue;
            }
            self.state.time = t0 + h;
            let projected = match self.accept_accurate_step(&mut index1, &mut st, settings) {
                Ok(projected) => projected,
                Err(e) => {
                    // the projection did not reach the constraints from this far: shorter
                    self.restore_accurate_start(&st, t0);
                    self.statistics.rejected_automatic_steps += 1;
                    control.failed(e)?;
                    continue;
                }
            };
            largest_constraint = largest_constraint.max(projected);
            self.statistics.estimated_error += position_error;
            steps += 1;
            self.write_rows_within_step(&mut writer, &st, t0, h);
            writer.post_newton(self, ConstraintLevel::Position, None);
            let progress = Progress {
                time: self.state.time,
                start_time: ti.start_time,
                end_time: end,
                steps,
            };
            report_step(self, stats, h, &mut writer, observer, progress);
            control.accepted(err);
        }
        let system = index1.system();
        self.statistics.sparse_solver = system.is_sparse();
        self.statistics.matrix_nonzeros = system.nonzeros();
        self.statistics.factor_nonzeros = system.factor_nonzeros();
        self.statistics.sparse_factorizations = system.factorization_counts();
        self.statistics.largest_constraint_residual = largest_constraint;
        self.statistics.solver_seconds = started.elapsed().as_secs_f64();
        Ok(())
    }

    /// The start: q̈ and λ at the initial state, after projecting initial positions and
    /// velocities that miss the constraints onto them (in the mass metric: for the velocities,
    /// the impulse that generalized-α's first steps apply as h → 0).
    fn accurate_start(&mut self, index1: &mut Index1, st: &mut Stages, tol: f64) -> Result<()> {
        self.state.y_t.fill(0.0);
        self.stage(index1, st, 0, true)?;
        let (q, v, lambda) = (&mut self.state.q, &mut self.state.v, &st.lambda[0]);
        let projected = index1.project(&self.topology, q, v, lambda, projection_tolerance(tol));
        if projected.is_nan() || st.q != self.state.q || st.v != self.state.v {
            self.stage(index1, st, 0, true)?;
        }
        self.state.a.copy_from_slice(&st.kv[0]);
        self.state.lambda.copy_from_slice(&st.lambda[0]);
        Ok(())
    }

    /// The stages 1… of a step of size `h` from the state (saved as the step's start): their
    /// derivatives, and the last stage's state in `st.q`, `st.v`, `st.y`.
    fn accurate_stages(
        &mut self,
        index1: &mut Index1,
        st: &mut Stages,
        pair: &Pair,
        h: f64,
    ) -> Result<()> {
        let t0 = self.state.time;
        st.q0.copy_from_slice(&self.state.q);
        st.v0.copy_from_slice(&self.state.v);
        st.y0.copy_from_slice(&self.state.y);
        st.a0.copy_from_slice(&self.state.a);
        st.lambda0.copy_from_slice(&self.state.lambda);
        st.data0.clone_from(&self.state.data);
        let s = pair.stages;
        for i in 1..s {
            st.combine(&pair.a[i * s..i * s + i], h);
            self.state.time = t0 + pair.c[i] * h;
            self.stage(index1, st, i, false)?;
        }
        Ok(())
    }

    /// An accepted step: its end projected onto the constraints, checked, made the state; the
    /// last stage moved to the first (FSAL) with the projected velocities. The largest
    /// |residual| left of a position row.
    fn accept_accurate_step(
        &mut self,
        index1: &mut Index1,
        st: &mut Stages,
        settings: &SimulationSettings,
    ) -> Result<f64> {
        let s = st.kq.len();
        let tol = settings.error_tolerance;
        let projected = index1.project(
            &self.topology,
            &mut st.q,
            &mut st.v,
            &st.lambda[s - 1],
            projection_tolerance(tol),
        );
        self.topology.check_constraint_rows(
            index1.residual(),
            settings.constraint_tolerance,
            self.state.time,
            "position",
        )?;
        self.state.q.copy_from_slice(&st.q);
        self.state.v.copy_from_slice(&st.v);
        self.state.y.copy_from_slice(&st.y);
        self.state.a.copy_from_slice(&st.kv[s - 1]);
        self.state.lambda.copy_from_slice(&st.lambda[s - 1]);
        self.state.y_t.copy_from_slice(&st.ky[s - 1]);
        st.kq.swap(0, s - 1);
        st.kv.swap(0, s - 1);
        st.ky.swap(0, s - 1);
        st.lambda.swap(0, s - 1);
        st.kq[0].copy_from_slice(&self.state.v);
        Ok(projected)
    }

    /// The sensor rows due inside the step just accepted (from t0, of size h): the state set to
    /// its quintic Hermite interpolant at each (λ and the ODE1 coordinates linear), the rows
    /// recorded, the step's end put back. The data coordinates are still the step's start's.
    fn write_rows_within_step(&mut self, writer: &mut SensorWriter, st: &Stages, t0: f64, h: f64) {
        let t1 = self.state.time;
        let Some(mut tw) = writer.due_before(t1) else {
            return;
        };
        let (a1, lambda1) = (&st.kv[0], &st.lambda[0]);
        loop {
            let theta = (tw - t0) / h;
            let state = &mut self.state;
            state.time = tw;
            let ends = st
                .q0
                .iter()
                .zip(&st.v0)
                .zip(&st.a0)
                .zip(&st.q)
                .zip(&st.v)
                .zip(a1);
            let now = state
                .q
                .iter_mut()
                .zip(state.v.iter_mut())
                .zip(state.a.iter_mut());
            for (((q, v), a), (((((q0, v0), a0), q1), v1), a1)) in now.zip(ends) {
                [*q, *v, *a] = hermite5(theta, h, *q0, *v0, *a0, *q1, *v1, *a1);
            }
            for (k, l) in state.lambda.iter_mut().enumerate() {
                *l = st.lambda0[k] + theta * (lambda1[k] - st.lambda0[k]);
            }
            for (k, y) in state.y.iter_mut().enumerate() {
                *y = st.y0[k] + theta * (st.y[k] - st.y0[k]);
            }
            writer.record_due(self);
            match writer.due_before(t1) {
                Some(next) => tw = next,
                None => break,
            }
        }
        let state = &mut self.state;
        state.time = t1;
        state.q.copy_from_slice(&st.q);
        state.v.copy_from_slice(&st.v);
        state.a.copy_from_slice(a1);
        state.lambda.copy_from_slice(lambda1);
        state.y.copy_from_slice(&st.y);
    }

    /// Stage `i`: q̈ and λ at the stage state (`at_state`: at the simulation's state instead),
    /// q's derivative the stage's velocities, y's f1.
    fn stage(
        &mut self,
        index1: &mut Index1,
        st: &mut Stages,
        i: usize,
        at_state: bool,
    ) -> Result<()> {
        if at_state {
            st.q.copy_from_slice(&self.state.q);
            st.v.copy_from_slice(&self.state.v);
            st.y.copy_from_slice(&self.state.y);
        }
        self.statistics.evaluations += 1;
        let topo = &self.topology;
        let t = self.state.time;
        index1.accelerations(
            topo,
            &st.q,
            &st.v,
            &self.state.data,
            t,
            &mut st.kv[i],
            &mut st.lambda[i],
        )?;
        st.kq[i].copy_from_slice(&st.v);
        if topo.n_ode1 > 0 {
            index1.ode1(topo, &st.y, &mut st.ky[i]);
        }
        Ok(())
    }

    /// The first step size (Hairer, Nørsett, Wanner I, II.4, "starting step size"): from the
    /// size of x and x' at the start and of x'' by one explicit Euler step, capped by the
    /// nominal step (`timeIntegration.numberOfSteps`).
    fn first_step(
        &mut self,
        index1: &mut Index1,
        st: &mut Stages,
        tol: f64,
        exponent: f64,
        duration: f64,
    ) -> Result<f64> {
        let sc = |x: f64| tol * (1.0 + x.abs());
        let rms = |xs: &mut dyn Iterator<Item = f64>| {
            let (mut sum, mut n) = (0.0, 0usize);
            for x in xs {
                sum += x * x;
                n += 1;
            }
            if n == 0 { 0.0 } else { (sum / n as f64).sqrt() }
        };
        let (q, v) = (&self.state.q, &self.state.v);
        let d0 = rms(&mut q.iter().chain(v).map(|x| x / sc(*x)));
        let d1 = rms(&mut v
            .iter()
            .zip(q)
            .chain(st.kv[0].iter().zip(v))
            .map(|(d, x)| d / sc(*x)));
        let h0 = if d0 < 1e-5 || d1 < 1e-5 {
            1e-6
        } else {
            0.01 * d0 / d1
        };
        let h0 = h0.min(duration);
        // one explicit Euler step, its accelerations
        let n2 = self.topology.n_ode2;
        for k in 0..n2 {
            st.q[k] = self.state.q[k] + h0 * self.state.v[k];
            st.v[k] = self.state.v[k] + h0 * st.kv[0][k];
        }
        st.y.copy_from_slice(&self.state.y);
        let topo = &self.topology;
        let (mut a1, mut l1) = (vec![0.0; n2], vec![0.0; topo.n_ae]);
        index1.accelerations(topo, &st.q, &st.v, &self.state.data, h0, &mut a1, &mut l1)?;
        self.statistics.evaluations += 1;
        let d2 = rms(&mut (0..n2)
            .map(|k| (st.v[k] - self.state.v[k]) / sc(self.state.q[k]))
            .chain((0..n2).map(|k| (a1[k] - st.kv[0][k]) / sc(self.state.v[k]))))
            / h0;
        let d = d1.max(d2);
        let h1 = if d <= 1e-15 {
            (h0 * 1e-3).max(1e-6)
        } else {
            (0.01 / d).powf(exponent)
        };
        // from rest (d0 ≈ 0) h0 is arbitrary and says nothing of the motion: h1 decides
        let h = if d0 < 1e-5 { h1 } else { (100.0 * h0).min(h1) };
        Ok(h.min(duration))
    }

    /// Back to the step's start (before a retry, and what a failed run leaves).
    fn restore_accurate_start(&mut self, st: &Stages, t0: f64) {
        self.state.q.copy_from_slice(&st.q0);
        self.state.v.copy_from_slice(&st.v0);
        self.state.y.copy_from_slice(&st.y0);
        self.state.a.copy_from_slice(&st.a0);
        self.state.lambda.copy_from_slice(&st.lambda0);
        self.state.data.clone_from(&st.data0);
        self.state.time = t0;
    }
}

#[cfg(test)]
mod tests {
    use super::hermite5;

    /// Exact on a quintic: value, rate and second rate at interior points of a step.
    #[test]
    fn hermite5_interpolates_quintics_exactly() {
        let p = |t: f64| {
            [0.3, -1.2, 0.7, 2.5, -0.4, 1.1]
                .iter()
                .rev()
                .fold(0.0, |s, c| s * t + c)
        };
        let dp = |t: f64| {
            -1.2 + 2.0 * 0.7 * t + 3.0 * 2.5 * t * t - 4.0 * 0.4 * t.powi(3) + 5.0 * 1.1 * t.powi(4)
        };
        let ddp = |t: f64| 2.0 * 0.7 + 6.0 * 2.5 * t - 12.0 * 0.4 * t * t + 20.0 * 1.1 * t.powi(3);
        let (t0, h) = (0.4, 0.25);
        let t1 = t0 + h;
        for theta in [0.0, 0.1, 0.5, 0.93, 1.0] {
            let t = t0 + theta * h;
            let [x, v, a] = hermite5(theta, h, p(t0), dp(t0), ddp(t0), p(t1), dp(t1), ddp(t1));
            assert!((x - p(t)).abs() < 1e-14, "{theta}: {x} {}", p(t));
            assert!((v - dp(t)).abs() < 1e-12, "{theta}: {v} {}", dp(t));
            assert!((a - ddp(t)).abs() < 1e-10, "{theta}: {a} {}", ddp(t));
        }
        // a sixth-degree term is not: the check can fail
        let q = |t: f64| t.powi(6);
        let [x, ..] = hermite5(
            0.5,
            h,
            q(t0),
            6.0 * t0.powi(5),
            30.0 * t0.powi(4),
            q(t1),
            6.0 * t1.powi(5),
            30.0 * t1.powi(4),
        );
        assert!((x - q(t0 + 0.5 * h)).abs() > 1e-8);
    }
}
