//! `simulationSettings`: Exudyn 1.13.6's nested settings dictionary onto [`SimulationSettings`]
//! (spec/solver.md §7, spec/model-format.md).
//!
//! Every key falls in one of four groups: implemented (read and type-checked), output-only
//! (accepted with any value), result-changing but not implemented (accepted only with Exudyn's
//! default) and unknown (an error).

use serde_json::{Map, Value, json};

use super::fields::{Dict, Owner};
use crate::error::Result;
use crate::settings::{
    DiscontinuousSettings, DynamicSolverType, ExplicitSettings, GeneralizedAlphaSettings,
    LinearSolverType, NewtonSettings, SimulationSettings, StaticSolverSettings,
    TimeIntegrationSettings,
};

pub(crate) fn read_settings(map: &Map<String, Value>) -> Result<SimulationSettings> {
    let mut s = SimulationSettings::default();
    let mut d = Dict::new(Owner::Settings(String::new()), map);
    if let Some(ti) = d.opt_section("timeIntegration")? {
        time_integration(ti, &mut s.time_integration)?;
    }
    if let Some(ss) = d.opt_section("staticSolver")? {
        static_solver(ss, &mut s.static_solver)?;
    }
    if let Some(sol) = d.opt_section("solution")? {
        solution(sol, &mut s)?;
    }
    let mut full_pivot = None;
    if let Some(ls) = d.opt_section("linearSolver")? {
        linear_solver(ls, &mut s.linear_solver, &mut full_pivot)?;
    }
    // Exudyn 1.11 spellings (renamed in 1.13, still accepted there with a deprecation warning).
    if let Some(sol) = d.opt_section("solutionSettings")? {
        solution_settings_1_11(sol, &mut s)?;
    }
    if let Some(t) = d.opt_str("linearSolverType")? {
        s.linear_solver = linear_solver_type(&d, "linearSolverType", t)?;
    }
    match full_pivot {
        Some((true, pivot_threshold)) if s.linear_solver == LinearSolverType::EigenDense => {
            s.linear_solver = LinearSolverType::EigenDenseFullPivot { pivot_threshold };
        }
        Some((_, threshold)) if threshold != 0.0 => {
            return Err(d.err(
                "linearSolver.pivotThreshold",
                format!(
                    "is implemented only for Eigen's full-pivoting LU (solverType EigenDense with ignoreSingularJacobian true), found {threshold} with solverType {}; Exudyn's EXUdense pivot threshold changes the results and is not implemented",
                    solver_type_name(s.linear_solver)
                ),
            ));
        }
        _ => {}
    }
    d.ignore(&[
        "simulateInRealtime",
        "realtimeFactor",
        "realtimeWaitMicroseconds",
    ]);
    // Output, bookkeeping and parallelization: any value.
    d.ignore(&[
        "parallel",
        "show",
        "cleanUpMemory",
        "consolePrecision",
        "outputPrecision",
        "pauseAfterEachStep",
        "displayComputationTime",
        "displayGlobalTimers",
        "displayStatistics",
        "verboseMode",
        "verboseModeFile",
        "stepInformation",
    ]);
    d.finish()?;
    Ok(s)
}

/// A `DynamicSolverType` member name (`RK44` or `DynamicSolverType.RK44`), or what is wrong with it.
pub(crate) fn dynamic_solver_type(name: &str) -> std::result::Result<DynamicSolverType, String> {
    DynamicSolverType::from_name(name).ok_or_else(|| {
        let known: Vec<&str> = DynamicSolverType::ALL.iter().map(|t| t.name()).collect();
        format!(
            "unknown solver type `{name}` (Exudyn's DynamicSolverType: {})",
            known.join(", ")
        )
    })
}

/// `timeIntegration.explicit` (with `v1_11`: `explicitIntegration`, which also carried the
/// explicit solver's type; SolveDynamic's argument took its place, so it is read and checked but
/// not used).
fn explicit(mut d: Dict, e: &mut ExplicitSettings, v1_11: bool) -> Result<()> {
    d.set_bool(
        "computeEndOfStepAccelerations",
        &mut e.compute_end_of_step_accelerations,
    )?;
    d.set_bool(
        "computeMassMatrixInversePerBody",
        &mut e.compute_mass_matrix_inverse_per_body,
    )?;
    d.set_bool("eliminateConstraints", &mut e.eliminate_constraints)?;
    d.set_bool("useLieGroupIntegration", &mut e.use_lie_group_integration)?;
    if v1_11 && let Some(t) = d.opt_str("dynamicSolverType")? {
        dynamic_solver_type(t).map_err(|m| d.err("dynamicSolverType", m))?;
    }
    d.finish()
}

fn time_integration(mut d: Dict, ti: &mut TimeIntegrationSettings) -> Result<()> {
    d.set_f64("startTime", &mut ti.start_time)?;
    d.set_f64("endTime", &mut ti.end_time)?;
    d.set_count("numberOfSteps", &mut ti.number_of_steps)?;
    d.set_bool("adaptiveStep", &mut ti.adaptive_step)?;
    d.set_f64("adaptiveStepDecrease", &mut ti.adaptive_step_decrease)?;
    d.set_f64("adaptiveStepIncrease", &mut ti.adaptive_step_increase)?;
    d.set_count(
        "adaptiveStepRecoverySteps",
        &mut ti.adaptive_step_recovery_steps,
    )?;
    d.set_count(
        "adaptiveStepRecoveryIterations",
        &mut ti.adaptive_step_recovery_iterations,
    )?;
    d.set_f64("minimumStepSize", &mut ti.minimum_step_size)?;
    d.set_bool(
        "reuseConstantMassMatrix",
        &mut ti.reuse_constant_mass_matrix,
    )?;
    d.only_default("computeLoadsJacobian", json!(0))?;
    if let Some(t) = d.opt_str("solverType")? {
        ti.solver_type = dynamic_solver_type(t).map_err(|m| d.err("solverType", m))?;
    }
    if let Some(ga) = d.opt_section("generalizedAlpha")? {
        generalized_alpha(ga, &mut ti.generalized_alpha)?;
    }
    if let Some(n) = d.opt_section("newton")? {
        newton(n, &mut ti.newton)?;
    }
    if let Some(dc) = d.opt_section("discontinuous")? {
        discontinuous(dc, &mut ti.discontinuous)?;
    }
    if let Some(e) = d.opt_section("explicit")? {
        explicit(e, &mut ti.explicit, false)?;
    }
    // Exudyn 1.11's spelling of `explicit`
    if let Some(e) = d.opt_section("explicitIntegration")? {
        explicit(e, &mut ti.explicit, true)?;
    }
    d.set_bool("automaticStepSize", &mut ti.automatic_step_size)?;
    d.set_f64("initialStepSize", &mut ti.initial_step_size)?;
    d.set_f64("absoluteTolerance", &mut ti.absolute_tolerance)?;
    d.set_f64("relativeTolerance", &mut ti.relative_tolerance)?;
    d.set_f64("stepSizeSafety", &mut ti.step_size_safety)?;
    d.set_f64("stepSizeMaxIncrease", &mut ti.step_size_max_increase)?;
    // Real-time pacing and output: any value.
    d.ignore(&[
        "realtime",
        "verboseMode",
        "verboseModeFile",
        "stepInformation",
    ]);
    d.finish()
}

fn generalized_alpha(mut d: Dict, ga: &mut GeneralizedAlphaSettings) -> Result<()> {
    d.set_f64("spectralRadius", &mut ga.spectral_radius)?;
    d.set_bool("useNewmark", &mut ga.use_newmark)?;
    d.set_bool("useIndex2Constraints", &mut ga.use_index2_constraints)?;
    d.set_f64("newmarkBeta", &mut ga.newmark_beta)?;
    d.set_f64("newmarkGamma", &mut ga.newmark_gamma)?;
    d.set_bool(
        "computeInitialAccelerations",
        &mut ga.compute_initial_accelerations,
    )?;
    d.set_bool("resetAccelerations", &mut ga.reset_accelerations)?;
    d.set_bool(
        "storeInitialAlgebraicCoordinates",
        &mut ga.store_initial_algebraic_coordinates,
    )?;
    // NodeRigidBodyRotVecLG's implicit update (solver/dynamic.rs)
    d.set_bool(
        "lieGroupAddTangentOperator",
        &mut ga.lie_group_add_tangent_operator,
    )?;
    d.set_bool(
        "lieGroupSimplifiedKinematicRelations",
        &mut ga.lie_group_simplified_kinematic_relations,
    )?;
    d.finish()
}

fn newton(mut d: Dict, n: &mut NewtonSettings) -> Result<()> {
    d.set_bool("active", &mut n.active)?;
    d.set_bool("useModifiedNewton", &mut n.use_modified_newton)?;
    d.set_f64("relativeTolerance", &mut n.relative_tolerance)?;
    d.set_f64("absoluteTolerance", &mut n.absolute_tolerance)?;
    d.set_count("maxIterations", &mut n.max_iterations)?;
    d.set_count(
        "maxModifiedNewtonIterations",
        &mut n.max_modified_newton_iterations,
    )?;
    d.set_count(
        "maxModifiedNewtonRestartIterations",
        &mut n.max_modified_newton_restart_iterations,
    )?;
    d.set_f64(
        "modifiedNewtonContractivity",
        &mut n.modified_newton_contractivity,
    )?;
    d.set_bool(
        "modifiedNewtonJacUpdatePerStep",
        &mut n.modified_newton_jac_update_per_step,
    )?;
    d.set_bool("adaptInitialResidual", &mut n.adapt_initial_residual)?;
    d.set_f64("maximumSolutionNorm", &mut n.maximum_solution_norm)?;
    d.set_bool(
        "weightTolerancePerCoordinate",
        &mut n.weight_tolerance_per_coordinate,
    )?;
    d.only_default("residualMode", json!(0))?;
    // Exudyn 1.11 spellings
    d.set_bool("useNewtonSolver", &mut n.active)?;
    d.only_default("newtonResidualMode", json!(0))?;
    if let Some(mut nd) = d.opt_section("numericalDifferentiation")? {
        let num = &mut n.numerical_differentiation;
        nd.set_f64("relativeEpsilon", &mut num.relative_epsilon)?;
        nd.set_f64("minimumCoordinateSize", &mut num.minimum_coordinate_size)?;
        nd.only_default("addReferenceCoordinatesToEpsilon", json!(false))?;
        nd.only_default("doSystemWideDifferentiation", json!(false))?;
        nd.only_default("forODE2", json!(false))?;
        nd.only_default("forAE", json!(false))?;
        nd.only_default("forODE2Connectors", json!(false))?;
        nd.only_default("jacobianConnectorDerivative", json!(true))?;
        nd.finish()?;
    }
    d.finish()
}

fn discontinuous(mut d: Dict, dc: &mut DiscontinuousSettings) -> Result<()> {
    d.set_bool("ignoreMaxIterations", &mut dc.ignore_max_iterations)?;
    d.set_f64("iterationTolerance", &mut dc.iteration_tolerance)?;
    d.set_count("maxIterations", &mut dc.max_iterations)?;
    d.set_bool("useRecommendedStepSize", &mut dc.use_recommended_step_size)?;
    if dc.max_iterations == 0 {
        return Err(d.err("maxIterations", "must be at least 1 (one solve per step)"));
    }
    if !(dc.iteration_tolerance >= 0.0) {
        return Err(d.err(
            "iterationTolerance",
            format!("must be ≥ 0, found {}", dc.iteration_tolerance),
        ));
    }
    d.finish()
}

fn static_solver(mut d: Dict, ss: &mut StaticSolverSettings) -> Result<()> {
    d.set_count("numberOfLoadSteps", &mut ss.number_of_load_steps)?;
    d.set_f64("loadStepDuration", &mut ss.load_step_duration)?;
    d.set_f64("loadStepStart", &mut ss.load_step_start)?;
    d.set_bool("loadStepGeometric", &mut ss.load_step_geometric)?;
    d.set_f64("loadStepGeometricRange", &mut ss.load_step_geometric_range)?;
    d.set_bool("useLoadFactor", &mut ss.use_load_factor)?;
    d.set_bool("adaptiveStep", &mut ss.adaptive_step)?;
    d.set_f64("adaptiveStepDecrease", &mut ss.adaptive_step_decrease)?;
    d.set_f64("adaptiveStepIncrease", &mut ss.adaptive_step_increase)?;
    d.set_count(
        "adaptiveStepRecoverySteps",
        &mut ss.adaptive_step_recovery_steps,
    )?;
    d.set_count(
        "adaptiveStepRecoveryIterations",
        &mut ss.adaptive_step_recovery_iterations,
    )?;
    d.set_f64("minimumStepSize", &mut ss.minimum_step_size)?;
    d.set_bool("computeLoadsJacobian", &mut ss.compute_loads_jacobian)?;
    d.only_default("stabilizerODE2term", json!(0.0))?;
    if let Some(n) = d.opt_section("newton")? {
        newton(n, &mut ss.newton)?;
    }
    if let Some(dc) = d.opt_section("discontinuous")? {
        discontinuous(dc, &mut ss.discontinuous)?;
    }
    // constrainODE1Coordinates only acts on ODE1 coordinates, which no implemented item has.
    d.ignore(&[
        "constrainODE1Coordinates",
        "verboseMode",
        "verboseModeFile",
        "stepInformation",
    ]);
    d.finish()
}

fn solution(mut d: Dict, s: &mut SimulationSettings) -> Result<()> {
    let sol = &mut s.solution;
    if let Some(mut sensors) = d.opt_section("sensors")? {
        sensors.set_f64("writePeriod", &mut sol.sensors_write_period)?;
        sensors.set_bool("active", &mut sol.sensors_active)?;
        sensors.accept_rest();
        sensors.finish()?;
    }
    if let Some(mut file) = d.opt_section("file")? {
        file.set_bool("writeInitialValues", &mut sol.write_initial_values)?;
        let f = &mut sol.file;
        file.set_f64("writePeriod", &mut f.write_period)?;
        file.set_bool("writeHeader", &mut f.write_header)?;
        file.set_bool("writeFooter", &mut f.write_footer)?;
        if let Some(info) = file.opt_str("information")? {
            f.information = info.to_owned();
        }
        if let Some(mut export) = file.opt_section("export")? {
            export.set_bool("velocities", &mut f.export_velocities)?;
            export.set_bool("accelerations", &mut f.export_accelerations)?;
            export.set_bool("algebraicCoordinates", &mut f.export_algebraic_coordinates)?;
            export.set_bool("dataCoordinates", &mut f.export_data_coordinates)?;
            export.set_bool("ODE1Velocities", &mut f.export_ode1_velocities)?;
            export.finish()?;
        }
        check_solution_write_period(&file, "writePeriod", f.write_period)?;
        file.accept_rest();
        file.finish()?;
    }
    d.set_count("precision", &mut sol.file.precision)?;
    // Flat spellings.
    d.set_f64("sensorsWritePeriod", &mut sol.sensors_write_period)?;
    d.set_bool("writeInitialValues", &mut sol.write_initial_values)?;
    if sol.sensors_write_period < 0.0 {
        return Err(d.err(
            "sensors.writePeriod",
            format!("must be ≥ 0, found {}", sol.sensors_write_period),
        ));
    }
    // Everything else under solution (files, precision, restart, …) steers output only.
    d.accept_rest();
    d.finish()
}

fn linear_solver_type(d: &Dict, key: &str, t: &str) -> Result<LinearSolverType> {
    Ok(match t.strip_prefix("LinearSolverType.").unwrap_or(t) {
        "EXUdense" => LinearSolverType::ExuDense,
        "EigenDense" => LinearSolverType::EigenDense,
        "EigenSparse" => LinearSolverType::EigenSparse,
        other => {
            return Err(d.err(
                key,
                format!(
                    "linear solver `{other}` is not supported (supported: EXUdense, EigenDense, EigenSparse)"
                ),
            ));
        }
    })
}

fn check_solution_write_period(d: &Dict, key: &str, period: f64) -> Result<()> {
    if period.is_nan() || period < 0.0 {
        return Err(d.err(key, format!("must be ≥ 0, found {period}")));
    }
    Ok(())
}

/// Exudyn 1.11's `solutionSettings` (1.13: `solution`).
fn solution_settings_1_11(mut d: Dict, s: &mut SimulationSettings) -> Result<()> {
    let sol = &mut s.solution;
    d.set_f64("sensorsWritePeriod", &mut sol.sensors_write_period)?;
    d.set_bool("writeInitialValues", &mut sol.write_initial_values)?;
    d.set_bool("sensorsStoreAndWriteFiles", &mut sol.sensors_active)?;
    let f = &mut sol.file;
    d.set_f64("solutionWritePeriod", &mut f.write_period)?;
    d.set_bool("writeFileHeader", &mut f.write_header)?;
    d.set_bool("writeFileFooter", &mut f.write_footer)?;
    d.set_bool("exportVelocities", &mut f.export_velocities)?;
    d.set_bool("exportAccelerations", &mut f.export_accelerations)?;
    d.set_bool(
        "exportAlgebraicCoordinates",
        &mut f.export_algebraic_coordinates,
    )?;
    d.set_bool("exportDataCoordinates", &mut f.export_data_coordinates)?;
    if let Some(info) = d.opt_str("solutionInformation")? {
        f.information = info.to_owned();
    }
    d.set_count("outputPrecision", &mut f.precision)?;
    check_solution_write_period(&d, "solutionWritePeriod", f.write_period)?;
    if sol.sensors_write_period < 0.0 {
        return Err(d.err(
            "sensorsWritePeriod",
            format!("must be ≥ 0, found {}", sol.sensors_write_period),
        ));
    }
    // files, periods and precision of the solution file: output only
    d.accept_rest();
    d.finish()
}

/// Exudyn's name of a solver type, for errors.
fn solver_type_name(ls: LinearSolverType) -> &'static str {
    match ls {
        LinearSolverType::ExuDense => "EXUdense",
        LinearSolverType::EigenDense | LinearSolverType::EigenDenseFullPivot { .. } => "EigenDense",
        LinearSolverType::EigenSparse => "EigenSparse",
    }
}

/// The `linearSolver` section: the solver type, and `ignoreSingularJacobian` with
/// `pivotThreshold` into `full_pivot_threshold` if either is not Exudyn's default.
fn linear_solver(
    mut d: Dict,
    ls: &mut LinearSolverType,
    full_pivot_threshold: &mut Option<(bool, f64)>,
) -> Result<()> {
    if let Some(t) = d.opt_str("solverType")? {
        *ls = linear_solver_type(&d, "solverType", t)?;
    }
    // Exudyn's FullPivLU (with EigenDense only: it ignores the flag with the other solvers);
    // resolved in `read_settings` once the solver type is known
    let full_pivot = d.bool_or("ignoreSingularJacobian", false)?;
    let pivot_threshold = d.f64_or("pivotThreshold", 0.0)?;
    if !(pivot_threshold >= 0.0 && pivot_threshold.is_finite()) {
        return Err(d.err(
            "pivotThreshold",
            format!("must be a finite number ≥ 0, found {pivot_threshold}"),
        ));
    }
    *full_pivot_threshold =
        (full_pivot || pivot_threshold != 0.0).then_some((full_pivot, pivot_threshold));
    d.ignore(&["showCausingItems", "reuseAnalyzedPattern"]);
    d.finish()
}
