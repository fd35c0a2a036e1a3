//! Simulation settings as model files spell them: read, checked, refused where unsupported.

use super::*;

/// `linearSolver.ignoreSingularJacobian`: Eigen's full-pivoting LU with EigenDense (its
/// `pivotThreshold` with it), no effect with the other solvers (as in Exudyn); a pivot
/// threshold without the full-pivoting LU is refused.
#[test]
fn ignore_singular_jacobian_selects_the_full_pivoting_lu() {
    let with = |solver: &str, ignore: bool, threshold: f64| {
        let mut v = base();
        *settings_mut(&mut v, &["linearSolver", "solverType"]) = json!(solver);
        *settings_mut(&mut v, &["linearSolver", "ignoreSingularJacobian"]) = json!(ignore);
        *settings_mut(&mut v, &["linearSolver", "pivotThreshold"]) = json!(threshold);
        read(&v).map(|m| m.settings.linear_solver)
    };
    assert_eq!(
        with("EigenDense", true, 0.0).unwrap(),
        LinearSolverType::EigenDenseFullPivot {
            pivot_threshold: 0.0
        }
    );
    assert_eq!(
        with("EigenDense", true, 1e-10).unwrap(),
        LinearSolverType::EigenDenseFullPivot {
            pivot_threshold: 1e-10
        }
    );
    assert_eq!(
        with("EXUdense", true, 0.0).unwrap(),
        LinearSolverType::ExuDense
    );
    assert_eq!(
        with("EigenDense", false, 0.0).unwrap(),
        LinearSolverType::EigenDense
    );
    for (solver, ignore) in [("EXUdense", true), ("EigenDense", false)] {
        let e = with(solver, ignore, 1e-3).unwrap_err().to_string();
        assert!(
            e.contains("`linearSolver.pivotThreshold`") && e.contains("full-pivoting LU"),
            "{e}"
        );
    }
    let e = with("EigenDense", true, -1.0).unwrap_err().to_string();
    assert!(e.contains("pivotThreshold") && e.contains("≥ 0"), "{e}");
}

/// `lieGroupAddTangentOperator` concerns Lie-group nodes only, which no readable model has:
/// either value is read (a bool), and changes nothing.
#[test]
fn lie_group_settings_are_read() {
    let path = [
        "timeIntegration",
        "generalizedAlpha",
        "lieGroupAddTangentOperator",
    ];
    let mut v = base();
    *settings_mut(&mut v, &path) = json!(false);
    *settings_mut(
        &mut v,
        &[
            "timeIntegration",
            "generalizedAlpha",
            "lieGroupSimplifiedKinematicRelations",
        ],
    ) = json!(true);
    let ga = read(&v)
        .unwrap()
        .settings
        .time_integration
        .generalized_alpha;
    assert!(!ga.lie_group_add_tangent_operator && ga.lie_group_simplified_kinematic_relations);
    let defaults = read(&base())
        .unwrap()
        .settings
        .time_integration
        .generalized_alpha;
    assert!(
        defaults.lie_group_add_tangent_operator
            && !defaults.lie_group_simplified_kinematic_relations
    );
    expect_error(
        |v| *settings_mut(v, &path) = json!(0),
        &[
            "`timeIntegration.generalizedAlpha.lieGroupAddTangentOperator`",
            "true or false",
        ],
    );
}

#[test]
fn model_error_non_integral_number_of_steps() {
    expect_error(
        |v| *settings_mut(v, &["timeIntegration", "numberOfSteps"]) = json!(1000.5),
        &[
            "simulationSettings `timeIntegration.numberOfSteps`",
            "not integral",
        ],
    );
    expect_error(
        |v| *settings_mut(v, &["timeIntegration", "numberOfSteps"]) = json!(-10),
        &["`timeIntegration.numberOfSteps`", "non-negative integer"],
    );
    expect_error(
        |v| *settings_mut(v, &["staticSolver", "numberOfLoadSteps"]) = json!("5"),
        &["`staticSolver.numberOfLoadSteps`", "the string \"5\""],
    );
}

#[test]
fn model_error_strings_for_numbers_in_settings() {
    expect_error(
        |v| *settings_mut(v, &["timeIntegration", "endTime"]) = json!("1.0"),
        &[
            "simulationSettings `timeIntegration.endTime`",
            "expected a number",
        ],
    );
    expect_error(
        |v| {
            *settings_mut(
                v,
                &[
                    "timeIntegration",
                    "newton",
                    "numericalDifferentiation",
                    "relativeEpsilon",
                ],
            ) = json!("NaN")
        },
        &[
            "`timeIntegration.newton.numericalDifferentiation.relativeEpsilon`",
            "expected a number",
        ],
    );
    expect_error(
        |v| *settings_mut(v, &["solution", "sensors", "writePeriod"]) = json!(-0.01),
        &["`solution.sensors.writePeriod`", "≥ 0"],
    );
    expect_error(
        |v| *settings_mut(v, &["timeIntegration", "newton"]) = json!(true),
        &["`timeIntegration.newton`", "expected a dictionary"],
    );
}

#[test]
fn model_error_unsupported_non_default_settings() {
    let cases: [(&[&str], Value); 6] = [
        (&["timeIntegration", "newton", "residualMode"], json!(1)),
        (&["timeIntegration", "computeLoadsJacobian"], json!(1)),
        (&["staticSolver", "stabilizerODE2term"], json!(0.5)),
        (
            &[
                "staticSolver",
                "newton",
                "numericalDifferentiation",
                "doSystemWideDifferentiation",
            ],
            json!(true),
        ),
        (
            &[
                "timeIntegration",
                "newton",
                "numericalDifferentiation",
                "forODE2",
            ],
            json!(true),
        ),
        (
            &[
                "timeIntegration",
                "newton",
                "numericalDifferentiation",
                "addReferenceCoordinatesToEpsilon",
            ],
            json!(true),
        ),
    ];
    for (path, value) in cases {
        let key = path.join(".");
        expect_error(
            |v| *settings_mut(v, path) = value.clone(),
            &[
                &format!("simulationSettings `{key}`"),
                "only Exudyn's default",
            ],
        );
    }
    // the discontinuous iteration's settings are read (and checked)
    expect_error(
        |v| *settings_mut(v, &["timeIntegration", "discontinuous", "maxIterations"]) = json!(0),
        &[
            "`timeIntegration.discontinuous.maxIterations`",
            "at least 1",
        ],
    );
    expect_error(
        |v| {
            *settings_mut(v, &["staticSolver", "discontinuous", "iterationTolerance"]) = json!(-1.0)
        },
        &["`staticSolver.discontinuous.iterationTolerance`", "≥ 0"],
    );
    expect_error(
        |v| *settings_mut(v, &["timeIntegration", "solverType"]) = json!("RK45"),
        &[
            "`timeIntegration.solverType`",
            "RK45",
            "unknown solver type",
            "DOPRI5",
        ],
    );
    expect_error(
        |v| v["dynamicSolverType"] = json!("Euler"),
        &[
            "`dynamicSolverType`",
            "unknown solver type `Euler`",
            "ExplicitEuler",
        ],
    );
    expect_error(
        |v| v["dynamicSolverType"] = json!(3),
        &["`dynamicSolverType`", "must be the name"],
    );
    expect_error(
        |v| {
            v["solve"] = json!("static");
            v["dynamicSolverType"] = json!("RK44");
        },
        &["`dynamicSolverType`", "static solve"],
    );
    expect_error(
        |v| *settings_mut(v, &["timeIntegration", "explicit", "whatever"]) = json!(1),
        &["`timeIntegration.explicit.whatever`", "unknown key"],
    );
    expect_error(
        |v| *settings_mut(v, &["timeIntegration", "explicit", "eliminateConstraints"]) = json!(1.5),
        &["eliminateConstraints"],
    );
    expect_error(
        |v| *settings_mut(v, &["linearSolver", "solverType"]) = json!("EigenSparseSymmetric"),
        &["`linearSolver.solverType`", "EigenSparseSymmetric"],
    );
}

#[test]
fn model_error_unknown_settings_key() {
    expect_error(
        |v| *settings_mut(v, &["timeIntegration", "numberOfStep"]) = json!(10),
        &[
            "simulationSettings `timeIntegration.numberOfStep`",
            "unknown key",
        ],
    );
    expect_error(
        |v| {
            *settings_mut(
                v,
                &["timeIntegration", "generalizedAlpha", "spectralradius"],
            ) = json!(0.5)
        },
        &[
            "`timeIntegration.generalizedAlpha.spectralradius`",
            "unknown key",
        ],
    );
    expect_error(
        // (`solutionSettings`, Exudyn 1.11's name of `solution`, is accepted)
        |v| *settings_mut(v, &["solverSettings"]) = json!({}),
        &["simulationSettings `solverSettings`", "unknown key"],
    );
}

#[test]
fn model_output_only_settings_accept_any_value() {
    let mut v = base();
    *settings_mut(&mut v, &["timeIntegration", "verboseMode"]) = json!(3);
    *settings_mut(&mut v, &["timeIntegration", "realtime", "active"]) = json!(true);
    *settings_mut(&mut v, &["solution", "file", "name"]) = json!("out/solution");
    *settings_mut(&mut v, &["solution", "sensors", "writePeriod"]) = json!(0.1);
    *settings_mut(&mut v, &["parallel", "numberOfThreads"]) = json!(8);
    *settings_mut(&mut v, &["linearSolver", "showCausingItems"]) = json!(false);
    *settings_mut(&mut v, &["displayStatistics"]) = json!(true);
    // defaults of unimplemented keys are accepted
    *settings_mut(&mut v, &["timeIntegration", "newton", "residualMode"]) = json!(0);
    *settings_mut(&mut v, &["linearSolver", "pivotThreshold"]) = json!(0);
    let m = read(&v).unwrap();
    assert_eq!(m.settings.solution.sensors_write_period, 0.1);
}

#[test]
fn model_exudyn_1_11_settings_spellings() {
    let mut v = base();
    v["simulationSettings"] = serde_json::json!({
        "timeIntegration": {
            "numberOfSteps": 20,
            "newton": {"useNewtonSolver": false, "newtonResidualMode": 0},
            "explicitIntegration": {"computeEndOfStepAccelerations": true}
        },
        "solutionSettings": {"sensorsWritePeriod": 0.05, "writeInitialValues": false,
                             "sensorsStoreAndWriteFiles": true, "writeSolutionToFile": false},
        "linearSolverType": "LinearSolverType.EigenSparse",
        "simulateInRealtime": false
    });
    let m = read(&v).unwrap();
    let s = &m.settings;
    assert_eq!(s.time_integration.number_of_steps, 20);
    assert!(!s.time_integration.newton.active);
    assert_eq!(s.solution.sensors_write_period, 0.05);
    assert!(!s.solution.write_initial_values);
    assert_eq!(
        s.linear_solver,
        crate::settings::LinearSolverType::EigenSparse
    );
    expect_error(
        |v| {
            v["simulationSettings"] =
                serde_json::json!({"timeIntegration": {"newton": {"newtonResidualMode": 1}}})
        },
        &["newtonResidualMode"],
    );
}
