//! Exudyn's adaptive step size, shared by the dynamic and the static solver: after a failed
//! Newton solve the step shrinks by `adaptiveStepDecrease` (not below `minimumStepSize`); after
//! `adaptiveStepRecoverySteps` accepted steps in a row that each took at most
//! `adaptiveStepRecoveryIterations` iterations it grows by `adaptiveStepIncrease`, up to the
//! nominal step.
//!
//! Also here: what both solvers do after an accepted step (statistics, sensor and solution
//! rows, the observer).

use crate::sensors::SensorWriter;
use crate::simulation::{NewtonStatistics, Progress, Simulation};

/// The current step size and the count of steps since it last changed.
#[derive(Clone, Copy, Debug)]
pub(super) struct StepSize {
    /// The step size of the next step.
    pub h: f64,
    nominal: f64,
    minimum: f64,
    decrease: f64,
    increase: f64,
    recovery_steps: usize,
    recovery_iterations: usize,
    since_change: usize,
}

/// The adaptive-step settings of `timeIntegration` or `staticSolver` (same names in both).
pub(super) struct Adaptive {
    pub minimum: f64,
    pub decrease: f64,
    pub increase: f64,
    pub recovery_steps: usize,
    pub recovery_iterations: usize,
}

impl StepSize {
    /// Starting at `h`, growing back to at most `nominal`.
    pub fn new(h: f64, nominal: f64, adaptive: Adaptive) -> Self {
        StepSize {
            h,
            nominal,
            minimum: adaptive.minimum,
            decrease: adaptive.decrease,
            increase: adaptive.increase,
            recovery_steps: adaptive.recovery_steps,
            recovery_iterations: adaptive.recovery_iterations,
            since_change: 0,
        }
    }

    /// Whether the step is already at the minimum (a failed step cannot be retried smaller).
    pub fn at_minimum(&self) -> bool {
        self.h <= self.minimum
    }

    /// After a failed step: `max(minimum, decrease·h)`.
    pub fn reduce(&mut self) {
        self.reduce_to(None);
    }

    /// Exudyn's ReduceStepSize: to `0.75·h` or the step an item recommends (PostNewton's
    /// `recommended`), whichever is shorter, else by `adaptiveStepDecrease`; at least the
    /// minimum step size.
    pub fn reduce_to(&mut self, recommended: Option<f64>) {
        let h = match recommended {
            Some(r) => (0.75 * self.h).min(r),
            None => self.decrease * self.h,
        };
        self.h = self.minimum.max(h);
        self.since_change = 0;
    }

    /// After an accepted step that took `iterations` (as Exudyn counts them for recovery).
    pub fn accepted(&mut self, iterations: usize) {
        self.since_change += 1;
        if self.since_change >= self.recovery_steps && iterations <= self.recovery_iterations {
            self.h = self.nominal.min(self.increase * self.h);
            self.since_change = 0;
        }
    }
}

/// After an accepted step of size `h` ending at `progress.time`: the statistics so far (for
/// observers), the sensors' and solution file's rows, then the observer.
pub(super) fn report_step(
    sim: &mut Simulation,
    stats: NewtonStatistics,
    h: f64,
    writer: &mut SensorWriter,
    observer: &mut dyn FnMut(&Simulation, Progress),
    progress: Progress,
) {
    sim.statistics.steps = progress.steps;
    sim.statistics.last_step_size = h;
    sim.statistics.newton = stats;
    writer.after_step(sim, h, progress.end_time);
    observer(sim, progress);
}
