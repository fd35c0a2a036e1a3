//! Reader tests: valid files, and malformed ones whose errors must name the item and the key.

use serde_json::{Value, json};

use super::{SolveKind, read_model, result_json};
use crate::items::OutputVariable;
use crate::items::{Load, Marker, Node, Object, SensorTarget};
use crate::settings::{DynamicSolverType, LinearSolverType};

mod item_errors;
mod settings;

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
