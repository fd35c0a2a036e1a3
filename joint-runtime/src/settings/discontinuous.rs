//! Exudyn's discontinuous iteration around Newton (spec/solver.md §4.4): after a converged
//! step PostNewton updates the items' states (`physics/states.rs`) and returns how far that
//! moves their equations; beyond `iterationTolerance` the step is solved again from its start
//! with the new states, at most `maxIterations` times in all.

/// `timeIntegration.discontinuous` and `staticSolver.discontinuous`.
#[derive(Clone, Debug, PartialEq)]
pub struct DiscontinuousSettings {
    /// `maxIterations`: solves of one step at most (Newton, then PostNewton), ≥ 1.
    pub max_iterations: usize,
    /// `iterationTolerance`: the largest change of an item's equations (its residual rows, or a
    /// force element's force and torque, in their own units) the new states may make without
    /// the step being solved again.
    pub iteration_tolerance: f64,
    /// `ignoreMaxIterations`: accept the step when the last solve still exceeds the tolerance
    /// (else the step fails as a Newton failure does: reduced, or the run fails).
    pub ignore_max_iterations: bool,
    /// `useRecommendedStepSize`: accepted for Exudyn's models; no item here recommends a step
    /// size, so it changes nothing.
    pub use_recommended_step_size: bool,
}

impl Default for DiscontinuousSettings {
    /// Exudyn's defaults: 5, 1, True, True.
    fn default() -> Self {
        Self {
            max_iterations: 5,
            iteration_tolerance: 1.0,
            ignore_max_iterations: true,
            use_recommended_step_size: true,
        }
    }
}

/// What PostNewton's discontinuous error asks of the step after solve number `solves`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Discontinuous {
    /// Accept the step.
    Accept,
    /// Solve it again from its start, with the states PostNewton stored.
    Repeat,
    /// The step fails (the last solve still exceeds the tolerance, `ignoreMaxIterations` off).
    Fail,
}

impl DiscontinuousSettings {
    /// The decision after solve number `solves` (from 1) of a step whose PostNewton returned
    /// `error`.
    pub fn decide(&self, error: f64, solves: usize) -> Discontinuous {
        if error <= self.iteration_tolerance {
            Discontinuous::Accept
        } else if solves < self.max_iterations {
            Discontinuous::Repeat
        } else if self.ignore_max_iterations {
            Discontinuous::Accept
        } else {
            Discontinuous::Fail
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Within the tolerance a step is accepted at once; beyond it repeated until the limit,
    /// then accepted or failed as `ignoreMaxIterations` says; a NaN error is never accepted
    /// before the limit.
    #[test]
    fn decisions_follow_exudyns_loop() {
        let mut s = DiscontinuousSettings::default();
        assert_eq!(s.decide(0.0, 1), Discontinuous::Accept);
        assert_eq!(s.decide(1.0, 1), Discontinuous::Accept);
        assert_eq!(s.decide(1.5, 1), Discontinuous::Repeat);
        assert_eq!(s.decide(1.5, 4), Discontinuous::Repeat);
        assert_eq!(s.decide(1.5, 5), Discontinuous::Accept);
        assert_eq!(s.decide(f64::NAN, 2), Discontinuous::Repeat);
        s.ignore_max_iterations = false;
        assert_eq!(s.decide(1.5, 5), Discontinuous::Fail);
        assert_eq!(s.decide(0.5, 5), Discontinuous::Accept);
        s.max_iterations = 1;
        assert_eq!(s.decide(1.5, 1), Discontinuous::Fail);
    }
}
