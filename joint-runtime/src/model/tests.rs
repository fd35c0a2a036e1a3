//! Reader tests: valid files, and malformed ones whose errors must name the item and the key.

use serde_json::{Value, json};

use super::{SolveKind, read_model, result_json};
use crate::items::OutputVariable;
use crate::items::{Load, Marker, Node, Object, SensorTarget};
use crate::settings::{DynamicSolverType, LinearSolverType};

const CASES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../tests/reference/exudyn_cases/"
);

/// The seed pendulum as Exudyn 1.13.6 dumps it (trimmed): nodes[0] RigidBodyEP,
/// objects[0] Ground, objects[1] RigidBody, objects[2] JointSpherical, markers[0] BodyMass,
/// markers[1..2] BodyPosition, loads[0] MassProportional, sensors[0] Node, sensors[1] Object.
fn base() -> Value {
    json!({
        "nodes": [{"nodeType": "RigidBodyEP", "referenceCoordinates": [0.5, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0],
                   "addConstraintEquation": true, "initialCoordinates": [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
                   "initialVelocities": [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], "name": "node0", "Vshow": true, "VdrawSize": -1.0,
                   "Vcolor": [-1.0, -1.0, -1.0, -1.0]}],
        "objects": [
            {"objectType": "Ground", "referencePosition": [0.0, 0.0, 0.0],
             "referenceRotation": [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
             "referenceHT": [[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0]],
             "name": "object0", "Vshow": true, "VgraphicsDataUserFunction": 0,
             "VgraphicsData": [{"graphicsData": "<not requested>"}]},
            {"objectType": "RigidBody", "mass": 10.0, "inertia": [0.0166, 0.84, 0.84, 0.0, 0.0, 0.0],
             "centerOfMass": [0.0, 0.0, 0.0], "nodeNumber": 0, "name": "object1"},
            {"objectType": "JointSpherical", "markerNumbers": [1, 2], "constrainedAxes": [1, 1, 1],
             "activeConnector": true, "name": "object2", "Vshow": true,
             "VjointRadius": 0.10000000149011612, "Vcolor": [-1.0, -1.0, -1.0, -1.0]}
        ],
        "markers": [
            {"markerType": "BodyMass", "bodyNumber": 1, "name": "marker0", "Vshow": true},
            {"markerType": "BodyPosition", "bodyNumber": 0, "localPosition": [0.0, 0.0, 0.0]},
            {"markerType": "BodyPosition", "bodyNumber": 1, "localPosition": [-0.5, 0.0, 0.0]}
        ],
        "loads": [{"loadType": "MassProportional", "markerNumber": 0, "loadVector": [0.0, 0.0, -9.81],
                   "loadVectorUserFunction": 0, "name": "load0", "Vshow": true}],
        "sensors": [
            {"sensorType": "Node", "nodeNumber": 0, "writeToFile": true, "fileName": "",
             "outputVariableType": "Position", "storeInternal": true, "name": "sensor0", "Vshow": true},
            {"sensorType": "Object", "objectNumber": 2, "outputVariableType": "OutputVariableType.Force",
             "storeInternal": true}
        ],
        "simulationSettings": {"timeIntegration": {"numberOfSteps": 1000.0, "endTime": 1.0}},
        "solve": "dynamic"
    })
}

fn read(v: &Value) -> super::Result<super::Model> {
    read_model(&v.to_string())
}

/// Apply `edit` to the base model and expect an error whose message contains every `needle`.
fn expect_error(edit: impl FnOnce(&mut Value), needles: &[&str]) {
    let mut v = base();
    edit(&mut v);
    let e = match read(&v) {
        Ok(_) => panic!("expected an error containing {needles:?}, the model was accepted"),
        Err(e) => e.to_string(),
    };
    for n in needles {
        assert!(e.contains(n), "error `{e}` does not contain `{n}`");
    }
}

fn settings_mut<'a>(v: &'a mut Value, path: &[&str]) -> &'a mut Value {
    let mut cur = &mut v["simulationSettings"];
    for p in path {
        if cur.get(*p).is_none() {
            cur[*p] = json!({});
        }
        cur = &mut cur[*p];
    }
    cur
}

// ----- valid files -----------------------------------------------------------------------

#[test]
fn model_base_reads() {
    let m = read(&base()).unwrap();
    assert_eq!(m.mbs.nodes.len(), 1);
    assert_eq!(m.mbs.objects.len(), 3);
    assert_eq!(m.mbs.markers.len(), 3);
    assert_eq!(m.mbs.loads.len(), 1);
    assert_eq!(m.mbs.sensors.len(), 2);
    assert_eq!(m.solve, SolveKind::Dynamic);
    assert_eq!(m.settings.time_integration.number_of_steps, 1000);
    assert_eq!(m.mbs.nodes[0].name(), "node0");
    assert_eq!(m.mbs.sensors[1].output, OutputVariable::Force);
    assert!(m.mbs.sensors[1].store_internal);
    match &m.mbs.objects[2] {
        Object::Joint(joint) => {
            assert_eq!(joint.joint_type.type_name, "JointSpherical");
            assert_eq!(joint.visualization.size, 0.10000000149011612);
            assert_eq!(joint.constrained_axes, [1, 1, 1]);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn model_reference_cases_read_and_assemble() {
    for case in [
        "seed_mini_pendulum",
        "sphericalJointTest",
        "mass_point_pendulum",
        "static_spring_hang",
        "superelement_position",
        "kinematic_tree_tip",
    ] {
        let text = std::fs::read_to_string(format!("{CASES}{case}.json")).unwrap();
        let m = read_model(&text).unwrap_or_else(|e| panic!("{case}: {e}"));
        m.mbs.assemble().unwrap_or_else(|e| panic!("{case}: {e}"));
    }
    let m =
        read_model(&std::fs::read_to_string(format!("{CASES}static_spring_hang.json")).unwrap())
            .unwrap();
    assert_eq!(m.solve, SolveKind::Static);
    assert_eq!(m.settings.static_solver.number_of_load_steps, 5);
    let m =
        read_model(&std::fs::read_to_string(format!("{CASES}sphericalJointTest.json")).unwrap())
            .unwrap();
    assert_eq!(
        m.settings
            .time_integration
            .generalized_alpha
            .spectral_radius,
        0.6
    );
}

#[test]
fn model_aliases_and_defaults() {
    let v = json!({
        "nodes": [{"nodeType": "NodePoint"}, {"nodeType": "RigidRxyz"}, {"nodeType": "NodeRigidBodyEP",
                   "referenceCoordinates": [0, 0, 0, 1, 0, 0, 0]}],
        "objects": [{"objectType": "ObjectGround"}, {"objectType": "MassPoint", "physicsMass": 2, "nodeNumber": 0},
                    {"objectType": "ObjectRigidBody", "physicsMass": 4, "mass": 2, "inertia": [1, 2, 3, 0, 0, 0],
                     "physicsInertia": [4, 5, 6, 0, 0, 0], "nodeNumber": 1},
                    {"objectType": "SphericalJoint", "markerNumbers": [0, 1]},
                    {"objectType": "SpringDamper", "markerNumbers": [0, 1], "stiffness": 10},
                    {"objectType": "CartesianSpringDamper", "markerNumbers": [0, 1]}],
        "markers": [{"markerType": "MarkerBodyPosition", "bodyNumber": 0},
                    {"markerType": "MarkerNodePosition", "nodeNumber": 0},
                    {"markerType": "BodyRigid", "bodyNumber": 2, "localPosition": [1, 0, 0],
                     "localHT": [[1, 0, 0, 1], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]},
                    {"markerType": "NodeRigid", "nodeNumber": 1,
                     "localHT": [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]},
                    {"markerType": "BodyMass", "bodyNumber": 1}],
        "loads": [{"loadType": "Gravity", "markerNumber": 4, "loadVector": [0, 0, -9.81]},
                  {"loadType": "Force", "markerNumber": 1, "loadVector": [1, 0, 0]},
                  {"loadType": "Torque", "markerNumber": 3, "bodyFixed": true}],
        "sensors": [{"sensorType": "SensorBody", "bodyNumber": 2, "localPosition": [0, 1, 0],
                     "outputVariableType": "Velocity"},
                    {"sensorType": "Load", "loadNumber": 1, "storeInternal": true},
                    {"sensorType": "Marker", "markerNumber": 2, "outputVariableType": "Coordinates_t"}],
        "simulationSettings": {
            "timeIntegration": {"solverType": "DynamicSolverType.TrapezoidalIndex2"},
            "linearSolver": {"solverType": "LinearSolverType.EigenSparse"},
            "solution": {"sensorsWritePeriod": 0.5, "writeInitialValues": false, "anything": [1, 2]}
        },
        "solve": "static"
    });
    let m = read(&v).unwrap();
    assert!(matches!(m.mbs.nodes[0], Node::Point { .. }));
    assert!(matches!(m.mbs.nodes[1], Node::RigidBodyRxyz { .. }));
    assert_eq!(m.mbs.objects[0], Object::ground());
    match &m.mbs.objects[1] {
        Object::MassPoint { mass, .. } => assert_eq!(*mass, 2.0),
        other => panic!("{other:?}"),
    }
    match &m.mbs.objects[2] {
        // the deprecated spelling wins when both are given
        Object::RigidBody { mass, inertia, .. } => {
            assert_eq!(*mass, 4.0);
            assert_eq!(inertia[0], 4.0);
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        &m.mbs.objects[3],
        Object::Joint(joint) if joint.constrained_axes == [1, 1, 1] && joint.active
    ));
    match &m.mbs.markers[2] {
        Marker::BodyRigid { local_position, .. } => assert_eq!(*local_position, [1.0, 0.0, 0.0]),
        other => panic!("{other:?}"),
    }
    assert!(matches!(m.mbs.loads[0], Load::MassProportional { .. }));
    assert!(matches!(
        m.mbs.loads[2],
        Load::TorqueVector {
            body_fixed: true,
            ..
        }
    ));
    // Exudyn's sensor defaults: storeInternal False, writeToFile True
    assert!(!m.mbs.sensors[0].store_internal);
    assert!(m.mbs.sensors[0].write_to_file);
    assert!(matches!(
        m.mbs.sensors[0].target,
        SensorTarget::Body {
            local_position: [0.0, 1.0, 0.0],
            ..
        }
    ));
    assert_eq!(m.mbs.sensors[2].output, OutputVariable::CoordinatesT);
    // TrapezoidalIndex2 is Newmark with index-2 constraints for the run; the settings as written
    let ti = &m.settings.time_integration;
    assert_eq!(ti.solver_type, DynamicSolverType::TrapezoidalIndex2);
    assert!(!ti.generalized_alpha.use_newmark);
    let ga = ti.generalized_alpha_for_run();
    assert!(ga.use_newmark && ga.use_index2_constraints);
    assert_eq!(m.settings.linear_solver, LinearSolverType::EigenSparse);
    assert_eq!(m.settings.solution.sensors_write_period, 0.5);
    assert!(!m.settings.solution.write_initial_values);
    assert_eq!(m.solve, SolveKind::Static);
}

#[test]
fn model_empty_file_is_an_empty_dynamic_model() {
    let m = read_model("{}").unwrap();
    assert!(m.mbs.nodes.is_empty());
    assert_eq!(m.solve, SolveKind::Dynamic);
    assert_eq!(m.settings, crate::SimulationSettings::default());
}

#[test]
fn model_result_json_has_the_documented_keys() {
    let mut v = base();
    v["simulationSettings"]["timeIntegration"]["numberOfSteps"] = json!(10);
    v["simulationSettings"]["timeIntegration"]["endTime"] = json!(0.01);
    v["sensors"][0]["name"] = json!("");
    let m = read(&v).unwrap();
    let sim = m.run().unwrap();
    let r = result_json(&sim);
    for key in [
        "time",
        "ode2Coordinates",
        "ode2Velocities",
        "ode2Accelerations",
        "aeCoordinates",
        "sensors",
        "statistics",
    ] {
        assert!(r.get(key).is_some(), "missing {key}");
    }
    assert_eq!(r["ode2Coordinates"].as_array().unwrap().len(), 7);
    assert_eq!(r["aeCoordinates"].as_array().unwrap().len(), 4);
    assert_eq!(r["sensors"][0]["name"], "sensor0");
    assert_eq!(r["sensors"][1]["outputVariableType"], "Force");
    assert_eq!(r["sensors"][0]["values"][0].as_array().unwrap().len(), 4);
    assert_eq!(r["statistics"]["steps"], 10);
    for key in [
        "newtonIterations",
        "jacobianEvaluations",
        "rejectedModifiedNewtonSteps",
        "lastStepSize",
        "solverSeconds",
        "linearSolver",
        "matrixNonzeros",
        "factorNonzeros",
        "sparseFactorizations",
    ] {
        assert!(
            r["statistics"].get(key).is_some(),
            "missing statistics.{key}"
        );
    }
}

// ----- malformed files -------------------------------------------------------------------

#[test]
fn model_error_broken_json() {
    let e = read_model(r#"{"nodes": [ {"nodeType": "Point"} "#)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("model file") && e.contains("not valid JSON"),
        "{e}"
    );
    let e =
        read_model(r#"{"nodes": [{"nodeType": "Point", "referenceCoordinates": [NaN, 0, 0]}]}"#)
            .unwrap_err()
            .to_string();
    assert!(e.contains("not valid JSON") && e.contains("NaN"), "{e}");
}

#[test]
fn model_error_top_level() {
    let e = read_model("[1, 2]").unwrap_err().to_string();
    assert!(e.contains("top level must be a dictionary"), "{e}");
    expect_error(
        |v| v["bodies"] = json!([]),
        &["unknown top-level key `bodies`"],
    );
    expect_error(
        |v| v["objects"] = json!({}),
        &["`objects` must be an array"],
    );
    expect_error(|v| v["solve"] = json!("eigen"), &["`solve`", "\"eigen\""]);
    expect_error(
        |v| v["markers"][1] = json!(3),
        &["markers[1]", "expected a dictionary"],
    );
}

#[test]
fn model_error_unknown_item_type() {
    expect_error(
        |v| v["objects"][2]["objectType"] = json!("JointRevolute"),
        &[
            "objects[2] (JointRevolute)",
            "`objectType`",
            "unknown or unsupported object type",
        ],
    );
    expect_error(
        |v| v["nodes"][0]["nodeType"] = json!("Point3DSlope1"),
        &["nodes[0] (Point3DSlope1)", "`nodeType`"],
    );
    expect_error(
        |v| v["markers"][0]["markerType"] = json!(7),
        &["markers[0] (?)", "`markerType`", "expected a type string"],
    );
    expect_error(
        |v| {
            v["loads"][0].as_object_mut().unwrap().remove("loadType");
        },
        &["loads[0] (?)", "`loadType`", "missing"],
    );
}

#[test]
fn model_error_unknown_item_key() {
    expect_error(
        |v| v["objects"][2]["constrainedAxis"] = json!([1, 1, 1]),
        &[
            "objects[2] (JointSpherical)",
            "`constrainedAxis`",
            "unknown key",
            "constrainedAxes",
        ],
    );
    // a key of another item type
    expect_error(
        |v| v["markers"][1]["nodeNumber"] = json!(0),
        &["markers[1] (BodyPosition)", "`nodeNumber`", "unknown key"],
    );
    // SensorLoad has no outputVariableType
    expect_error(
        |v| {
            v["sensors"][1] =
                json!({"sensorType": "Load", "loadNumber": 0, "outputVariableType": "Force"})
        },
        &["sensors[1] (Load)", "`outputVariableType`", "unknown key"],
    );
}

#[test]
fn model_error_wrong_value_type() {
    expect_error(
        |v| v["objects"][1]["mass"] = json!("10"),
        &[
            "objects[1] (RigidBody)",
            "`mass`",
            "expected a number",
            "the string \"10\"",
        ],
    );
    expect_error(
        |v| v["objects"][2]["activeConnector"] = json!(1),
        &[
            "objects[2] (JointSpherical)",
            "`activeConnector`",
            "expected true or false",
        ],
    );
    expect_error(
        |v| v["sensors"][0]["outputVariableType"] = json!("Positio"),
        &["sensors[0] (Node)", "`outputVariableType`", "Positio"],
    );
    expect_error(
        |v| v["sensors"][0]["fileName"] = json!(null),
        &["sensors[0] (Node)", "`fileName`", "expected a string"],
    );
    expect_error(
        |v| v["nodes"][0]["name"] = json!(3),
        &["nodes[0] (RigidBodyEP)", "`name`", "expected a string"],
    );
}

#[test]
fn model_error_bad_item_numbers() {
    expect_error(
        |v| v["objects"][2]["markerNumbers"] = json!([1, -2]),
        &[
            "objects[2] (JointSpherical)",
            "`markerNumbers`",
            "element 1",
            "non-negative integer",
        ],
    );
    expect_error(
        |v| v["objects"][2]["markerNumbers"] = json!([1.5, 2]),
        &[
            "objects[2] (JointSpherical)",
            "`markerNumbers`",
            "element 0",
            "1.5",
        ],
    );
    expect_error(
        |v| v["objects"][2]["markerNumbers"] = json!([1, 2, 3]),
        &[
            "objects[2] (JointSpherical)",
            "`markerNumbers`",
            "array of 2",
        ],
    );
    expect_error(
        |v| v["loads"][0]["markerNumber"] = json!(-1),
        &[
            "loads[0] (MassProportional)",
            "`markerNumber`",
            "non-negative",
        ],
    );
    expect_error(
        |v| {
            v["objects"][1]
                .as_object_mut()
                .unwrap()
                .remove("nodeNumber");
        },
        &["objects[1] (RigidBody)", "`nodeNumber`", "missing"],
    );
}

#[test]
fn model_error_user_function_set() {
    expect_error(
        |v| v["loads"][0]["loadVectorUserFunction"] = json!("<function UFload>"),
        &[
            "loads[0] (MassProportional)",
            "`loadVectorUserFunction`",
            "user functions are not supported",
        ],
    );
    expect_error(
        |v| v["objects"][0]["VgraphicsDataUserFunction"] = json!(1),
        &[
            "objects[0] (Ground)",
            "`VgraphicsDataUserFunction`",
            "user functions are not supported",
        ],
    );
    expect_error(
        |v| {
            v["objects"][2] = json!({"objectType": "ConnectorSpringDamper", "markerNumbers": [1, 2],
                                     "springForceUserFunction": "UFspring"})
        },
        &[
            "objects[2] (ConnectorSpringDamper)",
            "`springForceUserFunction`",
            "not supported",
        ],
    );
}

/// ObjectConnectorRigidBodySpringDamper's keys: its 6 × 6 matrices, its two user functions,
/// and the deprecated `intrinsicFormulation` contradicting `useIntrinsicFormulation`.
#[test]
fn model_error_rigid_body_spring_damper() {
    let rbsd = |extra: Value| {
        let mut o =
            json!({"objectType": "ConnectorRigidBodySpringDamper", "markerNumbers": [1, 2]});
        for (k, x) in extra.as_object().unwrap() {
            o[k] = x.clone();
        }
        o
    };
    expect_error(
        |v| v["objects"][2] = rbsd(json!({"stiffness": [[1, 0, 0, 0, 0], [0, 1, 0, 0, 0]]})),
        &[
            "objects[2] (ConnectorRigidBodySpringDamper)",
            "`stiffness`",
            "array of 6 rows",
        ],
    );
    expect_error(
        |v| v["objects"][2] = rbsd(json!({ "damping": vec![vec![0.0; 5]; 6] })),
        &[
            "objects[2] (ConnectorRigidBodySpringDamper)",
            "`damping`",
            "6 numbers",
        ],
    );
    for key in [
        "springForceTorqueUserFunction",
        "postNewtonStepUserFunction",
    ] {
        expect_error(
            |v| {
                v["objects"][2] = rbsd(json!({}));
                v["objects"][2][key] = json!("<function UF>");
            },
            &[
                "objects[2] (ConnectorRigidBodySpringDamper)",
                key,
                "user functions are not supported",
            ],
        );
    }
    expect_error(
        |v| {
            v["objects"][2] =
                rbsd(json!({"useIntrinsicFormulation": true, "intrinsicFormulation": false}))
        },
        &[
            "objects[2] (ConnectorRigidBodySpringDamper)",
            "`intrinsicFormulation`",
            "deprecated name of useIntrinsicFormulation",
        ],
    );
}

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
fn model_error_wrong_vector_length() {
    expect_error(
        |v| v["nodes"][0]["referenceCoordinates"] = json!([0.5, 0, 0, 1, 0, 0]),
        &[
            "nodes[0] (RigidBodyEP)",
            "`referenceCoordinates`",
            "array of 7 numbers",
            "length 6",
        ],
    );
    expect_error(
        |v| v["objects"][1]["inertia"] = json!([1, 1, 1]),
        &["objects[1] (RigidBody)", "`inertia`", "array of 6 numbers"],
    );
    expect_error(
        |v| v["objects"][0]["referenceRotation"] = json!([[1, 0, 0], [0, 1, 0]]),
        &[
            "objects[0] (Ground)",
            "`referenceRotation`",
            "array of 3 rows",
        ],
    );
    expect_error(
        |v| v["markers"][2]["localPosition"] = json!([-0.5, 0, "0"]),
        &[
            "markers[2] (BodyPosition)",
            "`localPosition`",
            "element 2",
            "expected a number",
        ],
    );
    expect_error(
        |v| v["objects"][2]["Vcolor"] = json!([1, 0, 0]),
        &[
            "objects[2] (JointSpherical)",
            "`Vcolor`",
            "array of 4 numbers",
        ],
    );
}

#[test]
fn model_error_bad_constrained_axes() {
    expect_error(
        |v| v["objects"][2]["constrainedAxes"] = json!([1, "1", 1]),
        &[
            "objects[2] (JointSpherical)",
            "`constrainedAxes`",
            "element 1",
            "expected an integer",
        ],
    );
    expect_error(
        |v| v["objects"][2]["constrainedAxes"] = json!([1, 0.5, 1]),
        &[
            "objects[2] (JointSpherical)",
            "`constrainedAxes`",
            "expected an integer",
        ],
    );
    expect_error(
        |v| v["objects"][2]["constrainedAxes"] = json!(true),
        &[
            "objects[2] (JointSpherical)",
            "`constrainedAxes`",
            "array of 3 integers",
        ],
    );
}

#[test]
fn model_error_derived_keys_disagree() {
    expect_error(
        |v| v["objects"][0]["referenceHT"][0][3] = json!(0.5),
        &["objects[0] (Ground)", "`referenceHT`", "must agree"],
    );
    expect_error(
        |v| {
            v["markers"][2] = json!({"markerType": "BodyRigid", "bodyNumber": 1, "localPosition": [-0.5, 0, 0],
                                     "localHT": [[1, 0, 0, 0.5], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]})
        },
        &[
            "markers[2] (BodyRigid)",
            "`localHT`",
            "must equal localPosition",
        ],
    );
}

/// A BodyRigid localHT rotation turns the marker frame (`A_body·R`); it is kept, not rejected.
#[test]
fn body_rigid_local_ht_rotation_is_read() {
    let mut v = base();
    v["markers"][2] = json!({"markerType": "BodyRigid", "bodyNumber": 1, "localPosition": [0, 0, 0],
                             "localHT": [[0, -1, 0, 0], [1, 0, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]});
    let model = read(&v).expect("a turned marker frame is valid");
    match &model.mbs.markers[2] {
        Marker::BodyRigid { local_rotation, .. } => assert_eq!(
            *local_rotation,
            [[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]]
        ),
        other => panic!("expected a BodyRigid marker, found {other:?}"),
    }
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

/// MarkerNodeRotationCoordinate: the index 0..2 and a node with a 3-D rotation (or ground), as
/// Exudyn checks them; on the EP node it reads and assembles.
#[test]
fn model_error_rotation_coordinate_marker() {
    let marker = |index: Value| json!({"markerType": "NodeRotationCoordinate", "nodeNumber": 0, "rotationCoordinate": index});
    let mut v = base();
    v["markers"].as_array_mut().unwrap().push(marker(json!(2)));
    read(&v).unwrap().mbs.assemble().unwrap();
    expect_error(
        |v| v["markers"].as_array_mut().unwrap().push(marker(json!(3))),
        &[
            "markers[3] (NodeRotationCoordinate)",
            "`rotationCoordinate`",
            "expected 0, 1 or 2",
        ],
    );
    expect_error(
        |v| v["markers"].as_array_mut().unwrap().push(marker(json!(-1))),
        &[
            "markers[3] (NodeRotationCoordinate)",
            "`rotationCoordinate`",
        ],
    );
    let mut v = base();
    v["nodes"]
        .as_array_mut()
        .unwrap()
        .push(json!({"nodeType": "Point"}));
    let mut on_point = marker(json!(0));
    on_point["nodeNumber"] = json!(1);
    v["markers"].as_array_mut().unwrap().push(on_point);
    let e = read(&v).unwrap().mbs.assemble().unwrap_err().to_string();
    for needle in [
        "markers[3] (NodeRotationCoordinate)",
        "`nodeNumber`",
        "node 1 is a Point, which has no 3-D rotation",
    ] {
        assert!(
            e.contains(needle),
            "error `{e}` does not contain `{needle}`"
        );
    }
}
