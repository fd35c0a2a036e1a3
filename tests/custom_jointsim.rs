//! A model file with a user's joint, run through `jointsim` as a library with a registry
//! (examples/custom_jointsim.rs), and read as strictly as Exudyn's items.

#[allow(dead_code)]
#[path = "../examples/custom_joints/mod.rs"]
mod custom_joints;

use custom_joints::{Cylindrical, PointOnPlane, ProgressiveSpring};
use joint::cli;
use joint::runtime::JointRegistry;
use joint::runtime::model::{read_model, read_model_with};
use std::process::ExitCode;

const MODEL: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/models/point_on_incline.json");

fn registry() -> JointRegistry {
    JointRegistry::exudyn()
        .with::<Cylindrical>()
        .and_then(|r| r.with::<PointOnPlane>())
        .and_then(|r| r.with_force::<ProgressiveSpring>())
        .unwrap()
}

const SPRING_MODEL: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/models/progressive_spring.json"
);

/// A model file with a user's force element (examples/custom_joints: ProgressiveSpring, a
/// spring pendulum): `jointsim run` with the registry, its named output as a sensor; and with
/// its cubic term 0, the same file with Exudyn's ConnectorSpringDamper in its place gives the
/// same motion to the bit, with the same Newton iterations and Jacobians (the same force and,
/// from the compiler, the same stiffness and damping).
#[test]
fn jointsim_with_a_registry_runs_a_model_file_with_a_user_force_element() {
    let dir = std::env::temp_dir().join(format!("custom-force-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("result.json");
    let args = [
        "jointsim",
        "run",
        SPRING_MODEL,
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ];
    assert_eq!(cli::run_with_args(args, registry()), ExitCode::SUCCESS);
    let result: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let q: Vec<f64> = serde_json::from_value(result["ode2Coordinates"].clone()).unwrap();
    let p: Vec<f64> = [0.6, 0.0, -0.8]
        .iter()
        .zip(&q)
        .map(|(r, u)| r + u)
        .collect();
    let length = p.iter().map(|x| x * x).sum::<f64>().sqrt();
    let sensors = result["sensors"].as_array().unwrap();
    let rows = sensors[0]["values"].as_array().unwrap();
    let last: Vec<f64> = serde_json::from_value(rows.last().unwrap().clone()).unwrap();
    assert_eq!(last.len(), 2, "time and the stretch: {last:?}");
    assert!(
        (last[0] - 1.0).abs() < 1e-12 && (last[1] - (length - 0.9)).abs() < 1e-12,
        "{last:?}"
    );
    // the bob swung out of its start and the spring moved
    assert!(q.iter().any(|u| u.abs() > 0.05), "{q:?}");
    assert_eq!(
        cli::run_with_args(["jointsim", "check", SPRING_MODEL], registry()),
        ExitCode::SUCCESS
    );
    std::fs::remove_dir_all(&dir).unwrap();

    let linear: serde_json::Value = {
        let mut m: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(SPRING_MODEL).unwrap()).unwrap();
        m["objects"][2]["cubic_stiffness"] = 0.0.into();
        m["sensors"] = serde_json::json!([]);
        m
    };
    let exudyn = {
        let mut m = linear.clone();
        m["objects"][2] = serde_json::json!({"objectType": "ConnectorSpringDamper",
            "markerNumbers": [1, 2], "stiffness": 400.0, "damping": 2.0, "referenceLength": 0.9});
        m
    };
    let solve = |m: &serde_json::Value| {
        let model = read_model_with(&m.to_string(), &registry()).unwrap();
        let mut sim = model.mbs.assemble().unwrap();
        sim.solve_dynamic(&model.settings).unwrap();
        let n = sim.statistics().newton;
        (sim.state().q.clone(), n.iterations, n.jacobians)
    };
    let (user, builtin) = (solve(&linear), solve(&exudyn));
    assert_eq!(user, builtin);
    assert!(user.1 > 1000, "{user:?}");
}

/// The model file's incline: slope 0.3, the point from (0.2, −0.1) in the plane at (0, 0.3, 0).
fn analytic_position(t: f64) -> [f64; 3] {
    let (s, c) = 0.3f64.sin_cos();
    let n = [s, 0.0, c];
    let g = [0.0, 0.0, -9.81];
    let gn: f64 = (0..3).map(|i| g[i] * n[i]).sum();
    let start = [c * 0.2, -0.1, -s * 0.2];
    let v0 = [0.0, 0.3, 0.0];
    std::array::from_fn(|i| start[i] + v0[i] * t + 0.5 * (g[i] - gn * n[i]) * t * t)
}

#[test]
fn jointsim_with_a_registry_runs_a_model_file_with_a_custom_joint() {
    let dir = std::env::temp_dir().join(format!("custom-jointsim-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("result.json");
    let code = cli::run_with_args(
        [
            "jointsim",
            "run",
            MODEL,
            "--out",
            out.to_str().unwrap(),
            "--quiet",
        ],
        registry(),
    );
    assert_eq!(code, ExitCode::SUCCESS);
    let result: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let q: Vec<f64> = serde_json::from_value(result["ode2Coordinates"].clone()).unwrap();
    let reference = [0.19106729782512122, -0.1, -0.05910404133226791];
    let exact = analytic_position(1.0);
    for k in 0..3 {
        let x = reference[k] + q[k];
        assert!(
            (x - exact[k]).abs() < 1e-10,
            "x[{k}] = {x}, analytic {}",
            exact[k]
        );
    }
    // the named output `local_position` as a sensor: on the plane (its z) at the last row
    let sensors = result["sensors"].as_array().unwrap();
    let rows = sensors[0]["values"].as_array().unwrap();
    let last: Vec<f64> = serde_json::from_value(rows.last().unwrap().clone()).unwrap();
    assert_eq!(last.len(), 4, "time and 3 values: {last:?}");
    assert!(last[3].abs() < 1e-10, "{last:?}");
    // λ of the one row: the normal force m g cos α (λ scaled as Exudyn scales it, sign included)
    let force = sensors[1]["values"].as_array().unwrap();
    let last: Vec<f64> = serde_json::from_value(force.last().unwrap().clone()).unwrap();
    assert!(
        (last[1].abs() - 2.0 * 9.81 * 0.3f64.cos()).abs() < 1e-8,
        "λ {last:?}"
    );
    let check = cli::run_with_args(["jointsim", "check", MODEL], registry());
    assert_eq!(check, ExitCode::SUCCESS);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn without_the_joint_registered_the_type_is_unknown() {
    let text = std::fs::read_to_string(MODEL).unwrap();
    let e = read_model(&text).unwrap_err().to_string();
    assert!(
        e.contains("objects[2]") && e.contains("PointOnPlane") && e.contains("objectType"),
        "{e}"
    );
    let code = cli::run_with_args(["jointsim", "check", MODEL], JointRegistry::exudyn());
    assert_eq!(code, ExitCode::from(1));
}

/// Assembly's message for a system that must not assemble.
fn assemble_error(mbs: &joint::runtime::MultibodySystem) -> String {
    match mbs.assemble() {
        Ok(_) => panic!("assemble accepted a bad system"),
        Err(e) => e.to_string(),
    }
}

/// An edit of the joint's item dictionary.
type Edit = Box<dyn FnOnce(&mut serde_json::Map<String, serde_json::Value>)>;

/// The model file with `edit` applied to the joint's item; the reader's or assembly's message.
fn message(edit: impl FnOnce(&mut serde_json::Map<String, serde_json::Value>)) -> String {
    let mut model: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(MODEL).unwrap()).unwrap();
    edit(model["objects"][2].as_object_mut().unwrap());
    let text = model.to_string();
    match read_model_with(&text, &registry()) {
        Err(e) => e.to_string(),
        Ok(m) => assemble_error(&m.mbs),
    }
}

#[test]
fn a_custom_joint_item_is_read_strictly() {
    use serde_json::json;
    let cases: Vec<(Edit, &[&str])> = vec![
        (
            Box::new(|o| {
                o.remove("normal");
            }),
            &["objects[2] (PointOnPlane)", "normal", "required"],
        ),
        (
            Box::new(|o| {
                o.insert("normal".into(), json!([0.0, 1.0]));
            }),
            &["objects[2] (PointOnPlane)", "normal", "3"],
        ),
        (
            Box::new(|o| {
                o.insert("normal".into(), json!("up"));
            }),
            &["objects[2] (PointOnPlane)", "normal"],
        ),
        (
            Box::new(|o| {
                o.insert("stiffness".into(), json!(1.0));
            }),
            &["objects[2] (PointOnPlane)", "stiffness"],
        ),
        (
            Box::new(|o| {
                o.insert("constrainedAxes".into(), json!([1, 1]));
            }),
            &["objects[2] (PointOnPlane)", "constrainedAxes"],
        ),
        (
            Box::new(|o| {
                o.insert("constrainedAxes".into(), json!([2]));
            }),
            &[
                "objects[2] (PointOnPlane)",
                "constrainedAxes",
                "0 (free) or 1",
            ],
        ),
        (
            Box::new(|o| {
                o.insert("markerNumbers".into(), json!([2, 1]));
            }),
            &["objects[2] (PointOnPlane)", "markerNumbers", "orientation"],
        ),
        (
            Box::new(|o| {
                o.insert("markerNumbers".into(), json!([1, 9]));
            }),
            &["objects[2] (PointOnPlane)", "markerNumbers", "9"],
        ),
        (
            Box::new(|o| {
                o.insert("activeConnector".into(), json!(2));
            }),
            &["objects[2] (PointOnPlane)", "activeConnector"],
        ),
    ];
    for (edit, parts) in cases {
        let m = message(edit);
        for p in parts {
            assert!(m.contains(p), "message `{m}` does not mention `{p}`");
        }
    }
}

#[test]
fn an_unknown_sensor_output_names_the_registered_joints_outputs() {
    let mut model: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(MODEL).unwrap()).unwrap();
    model["sensors"][0]["outputVariableType"] = "local_positon".into();
    let e = read_model_with(&model.to_string(), &registry())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("sensors[0]")
            && e.contains("local_positon")
            && (e.contains("slide, local_position") || e.contains("local_position, slide")),
        "{e}"
    );
}

#[test]
fn a_joint_type_name_is_registered_once() {
    let e = JointRegistry::exudyn()
        .with::<PointOnPlane>()
        .and_then(|r| r.with::<PointOnPlane>())
        .unwrap_err()
        .to_string();
    assert!(e.contains("PointOnPlane") && e.contains("taken"), "{e}");
}

/// Through the Rust API, a joint's parameters are checked at assemble: their count and that
/// they are finite, named by the definition.
#[test]
fn custom_joint_parameters_are_checked_at_assemble() {
    use joint::runtime::model::read_model_with;
    use joint::runtime::{JointObject, Object};
    let text = std::fs::read_to_string(MODEL).unwrap();
    let model = read_model_with(&text, &registry()).unwrap();
    let mut bad = model.mbs.clone();
    let Object::Joint(joint) = &bad.objects[2] else {
        panic!("objects[2] is the joint");
    };
    let markers = joint.markers;
    bad.objects[2] = Object::Joint(JointObject::new::<PointOnPlane>(
        markers,
        custom_joints::point_on_plane::Parameters {
            normal: [0.0, f64::NAN, 1.0],
        },
    ));
    let e = assemble_error(&bad);
    assert!(
        e.contains("objects[2] (PointOnPlane)") && e.contains("normal") && e.contains("finite"),
        "{e}"
    );
    let Object::Joint(joint) = &mut bad.objects[2] else {
        unreachable!()
    };
    joint.parameters = vec![0.0; 2];
    let e = assemble_error(&bad);
    assert!(
        e.contains("parameters") && e.contains("normal (vector)"),
        "{e}"
    );
}

/// Regression: on the fast path a step that had converged renewed its Jacobian whenever the
/// residual's contraction at round-off level looked poor — in 158 of this linear model's 1000
/// steps. Now it keeps the one Jacobian its constant-slope constraint needs (a user's joint gets
/// the consistent constraint rows like the built-ins), and the motion is the analytic one.
#[test]
fn fast_path_keeps_the_jacobian_of_a_custom_joint_on_a_linear_model() {
    use joint::runtime::SolverMode;
    let text = std::fs::read_to_string(MODEL).unwrap();
    let mut model = read_model_with(&text, &registry()).unwrap();
    model.settings.solver_mode = SolverMode::Fast;
    let mut sim = model.mbs.assemble().unwrap();
    sim.solve_dynamic(&model.settings).unwrap();
    let st = &sim.statistics();
    assert!(
        st.newton.jacobians <= 2,
        "{} Jacobians",
        st.newton.jacobians
    );
    assert_eq!(st.newton.iterations, st.steps, "one iteration per step");
    let reference = [0.19106729782512122, -0.1, -0.05910404133226791];
    let exact = analytic_position(1.0);
    for k in 0..3 {
        let x = reference[k] + sim.state().q[k];
        assert!(
            (x - exact[k]).abs() < 1e-12,
            "q[{k}] = {x}, analytic {}",
            exact[k]
        );
    }
}

joint::joint! {
    /// A user's gear between two coordinates: `q_m0 = ratio·q_m1` (Coordinate markers).
    pub joint GearCoupling {
        marker m0: Coordinate;
        marker m1: Coordinate;
        param ratio: scalar;
        axes [g = 1];
        position = [m0.coordinate - ratio * m1.coordinate];
    }
}

/// A user's joint on Coordinate markers, from its one-line definition to a model file: two
/// Node1D masses (1 kg, 2 kg) geared 2:1, a 3 N coordinate load on the first. Virtual work gives
/// q̈_b = 2F/(4m_a + m_b) = 1, q̈_a = 2; from rest, q_a(1) = 1 and q_b(1) = 0.5 (generalized-α
/// integrates constant accelerations exactly).
#[test]
fn a_custom_joint_on_coordinate_markers_runs_from_a_model_file() {
    let registry = JointRegistry::exudyn().with::<GearCoupling>().unwrap();
    let model = serde_json::json!({
        "nodes": [
            {"nodeType": "1D", "referenceCoordinates": [0.3]},
            {"nodeType": "1D", "referenceCoordinates": [-0.2]}
        ],
        "objects": [
            {"objectType": "Mass1D", "mass": 1.0, "nodeNumber": 0},
            {"objectType": "Mass1D", "mass": 2.0, "nodeNumber": 1},
            {"objectType": "GearCoupling", "markerNumbers": [0, 1], "ratio": 2.0}
        ],
        "markers": [
            {"markerType": "NodeCoordinate", "nodeNumber": 0, "coordinate": 0},
            {"markerType": "NodeCoordinate", "nodeNumber": 1, "coordinate": 0}
        ],
        "loads": [{"loadType": "Coordinate", "markerNumber": 0, "load": 3.0}],
        "simulationSettings": {"timeIntegration": {"numberOfSteps": 100, "endTime": 1.0}}
    });
    let m = read_model_with(&model.to_string(), &registry).unwrap();
    let mut sim = m.mbs.assemble().unwrap();
    sim.solve_dynamic(&m.settings).unwrap();
    let q = &sim.state().q;
    assert!((q[0] - 1.0).abs() < 1e-10, "q_a = {}", q[0]);
    assert!((q[1] - 0.5).abs() < 1e-10, "q_b = {}", q[1]);
    // λ with Exudyn's sign (M q̈ + C_qᵀλ = f): m_b·q̈_b + (∂g/∂q_b)·λ = 2 − 2λ = 0, so λ = 1
    assert!(
        (sim.state().lambda[0] - 1.0).abs() < 1e-8,
        "λ = {}",
        sim.state().lambda[0]
    );
}

/// A custom joint's per-row sensor goes by its rows' names in the result file and in the CSV
/// tables (`--csv`): PointOnPlane's one row is `n`.
#[test]
fn a_joints_rows_are_named_in_results_and_tables() {
    let dir = std::env::temp_dir().join(format!("custom-names-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("result.json");
    let csv = dir.join("csv");
    let args = [
        "jointsim",
        "run",
        MODEL,
        "--out",
        out.to_str().unwrap(),
        "--csv",
        csv.to_str().unwrap(),
        "--quiet",
    ];
    assert_eq!(cli::run_with_args(args, registry()), ExitCode::SUCCESS);
    let result: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let sensors = result["sensors"].as_array().unwrap();
    assert_eq!(sensors[1]["name"], "normalForce");
    assert_eq!(sensors[1]["components"], serde_json::json!(["n"]));
    // a named output is not per row: no names
    assert!(sensors[0].get("components").is_none());
    let table = std::fs::read_to_string(csv.join("normalForce.csv")).unwrap();
    assert_eq!(table.lines().next(), Some("time,Force[n]"));
    std::fs::remove_dir_all(&dir).unwrap();
}
