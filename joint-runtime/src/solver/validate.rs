//! Checks of simulation settings, made before a solver starts and when a model file is read.

use crate::error::{Error, Result};
use crate::settings::SimulationSettings;

impl SimulationSettings {
    /// The checks the dynamic solver makes before it starts (also made when a model file is
    /// read, so that nothing runs on bad settings).
    pub fn validate_dynamic(&self) -> Result<()> {
        let ti = &self.time_integration;
        let ga = &ti.generalized_alpha_for_run();
        if ga.use_index2_constraints && !ga.use_newmark {
            return Err(Error::setting(
                "timeIntegration.generalizedAlpha.useIndex2Constraints",
                "index-2 constraints need useNewmark = True (as in Exudyn)",
            ));
        }
        if !(ti.end_time > ti.start_time) || !ti.end_time.is_finite() || !ti.start_time.is_finite()
        {
            return Err(Error::setting(
                "timeIntegration.endTime",
                format!(
                    "endTime ({}) must be finite and greater than startTime ({})",
                    ti.end_time, ti.start_time
                ),
            ));
        }
        if ti.number_of_steps == 0 {
            return Err(Error::setting(
                "timeIntegration.numberOfSteps",
                "must be at least 1",
            ));
        }
        if !(0.0..=1.0).contains(&ga.spectral_radius) {
            return Err(Error::setting(
                "timeIntegration.generalizedAlpha.spectralRadius",
                format!("must lie in [0, 1], found {}", ga.spectral_radius),
            ));
        }
        if ga.use_newmark && !(ga.newmark_beta > 0.0) {
            return Err(Error::setting(
                "timeIntegration.generalizedAlpha.newmarkBeta",
                format!("must be > 0, found {}", ga.newmark_beta),
            ));
        }
        check_steps(
            "timeIntegration",
            ti.adaptive_step_decrease,
            ti.adaptive_step_increase,
            ti.minimum_step_size,
        )?;
        check_newton("timeIntegration.newton", &ti.newton)?;
        self.validate_output()
    }
}

impl SimulationSettings {
    /// The checks the static solver makes before it starts.
    pub fn validate_static(&self) -> Result<()> {
        let s = &self.static_solver;
        if s.number_of_load_steps == 0 {
            return Err(Error::setting(
                "staticSolver.numberOfLoadSteps",
                "must be at least 1",
            ));
        }
        if !(s.load_step_duration > 0.0) || !s.load_step_duration.is_finite() {
            return Err(Error::setting(
                "staticSolver.loadStepDuration",
                format!("must be finite and > 0, found {}", s.load_step_duration),
            ));
        }
        if s.load_step_geometric && !(s.load_step_geometric_range > 1.0) {
            return Err(Error::setting(
                "staticSolver.loadStepGeometricRange",
                format!("must be > 1, found {}", s.load_step_geometric_range),
            ));
        }
        if !s.load_step_start.is_finite() {
            return Err(Error::setting(
                "staticSolver.loadStepStart",
                "must be finite",
            ));
        }
        check_steps(
            "staticSolver",
            s.adaptive_step_decrease,
            s.adaptive_step_increase,
            s.minimum_step_size,
        )?;
        check_newton("staticSolver.newton", &s.newton)?;
        self.validate_output()
    }

    fn validate_output(&self) -> Result<()> {
        let p = self.solution.sensors_write_period;
        if !(p >= 0.0) || !p.is_finite() {
            return Err(Error::setting(
                "solution.sensors.writePeriod",
                format!("must be finite and ≥ 0, found {p}"),
            ));
        }
        let c = self.constraint_tolerance;
        if !(c > 0.0) {
            return Err(Error::setting(
                "constraint_tolerance",
                format!(
                    "must be > 0 (f64::INFINITY checks only that the rows are finite), found {c}"
                ),
            ));
        }
        let e = self.error_tolerance;
        if self.solver_mode == crate::settings::SolverMode::Accurate && !(1e-14..=1.0).contains(&e)
        {
            return Err(Error::setting(
                "error_tolerance",
                format!("must lie in [1e-14, 1] (below, round-off decides the step), found {e}"),
            ));
        }
        Ok(())
    }
}

fn check_steps(prefix: &str, decrease: f64, increase: f64, minimum: f64) -> Result<()> {
    if !(decrease > 0.0 && decrease < 1.0) {
        return Err(Error::setting(
            &format!("{prefix}.adaptiveStepDecrease"),
            format!("must lie in (0, 1), found {decrease}"),
        ));
    }
    if !(increase >= 1.0) || !increase.is_finite() {
        return Err(Error::setting(
            &format!("{prefix}.adaptiveStepIncrease"),
            format!("must be finite and ≥ 1, found {increase}"),
        ));
    }
    if !(minimum > 0.0) || !minimum.is_finite() {
        return Err(Error::setting(
            &format!("{prefix}.minimumStepSize"),
            format!("must be finite and > 0, found {minimum}"),
        ));
    }
    Ok(())
}

fn check_newton(prefix: &str, n: &crate::settings::NewtonSettings) -> Result<()> {
    for (key, v) in [
        ("relativeTolerance", n.relative_tolerance),
        ("absoluteTolerance", n.absolute_tolerance),
        (
            "modifiedNewtonContractivity",
            n.modified_newton_contractivity,
        ),
        ("maximumSolutionNorm", n.maximum_solution_norm),
        (
            "numericalDifferentiation.relativeEpsilon",
            n.numerical_differentiation.relative_epsilon,
        ),
        (
            "numericalDifferentiation.minimumCoordinateSize",
            n.numerical_differentiation.minimum_coordinate_size,
        ),
    ] {
        if !(v > 0.0) || !v.is_finite() {
            return Err(Error::setting(
                &format!("{prefix}.{key}"),
                format!("must be finite and > 0, found {v}"),
            ));
        }
    }
    if n.max_iterations == 0 {
        return Err(Error::setting(
            &format!("{prefix}.maxIterations"),
            "must be at least 1",
        ));
    }
    Ok(())
}
