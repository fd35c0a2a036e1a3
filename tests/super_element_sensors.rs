//! SensorSuperElement: what it refuses, and the value an FFRF mesh node reports at a state
//! (Exudyn's numbers over a whole run are pinned by `own_se_sensor_super_element` in
//! tests/reference_cases/).

use joint::runtime::OutputVariable;
use joint::runtime::model::read_model;
use serde_json::{Value, json};

const CASE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/reference/own_cases/se_sensor_super_element.json"
);

/// The reference case with `edit` applied: its read-and-assemble error, or `None`.
fn error_after(edit: impl FnOnce(&mut Value)) -> Option<String> {
    let mut m: Value = serde_json::from_str(&std::fs::read_to_string(CASE).unwrap()).unwrap();
    edit(&mut m);
    match read_model(&m.to_string()) {
        Err(e) => Some(e.to_string()),
        Ok(model) => model.mbs.assemble().err().map(|e| e.to_string()),
    }
}

fn expect(edit: impl FnOnce(&mut Value), parts: &[&str]) {
    let message = error_after(edit).expect("the edited model is refused");
    for p in parts {
        assert!(message.contains(p), "`{message}` does not mention `{p}`");
    }
}

/// Object 0 is the FFRFreducedOrder (20 mesh nodes), sensor 0 is on its mesh node 17; the
/// GenericODE2 tetrahedron has 4 mesh nodes.
fn ffrf(m: &mut Value) -> &mut Value {
    let o = &mut m["objects"][0];
    assert_eq!(o["objectType"], "FFRFreducedOrder");
    o
}

#[test]
fn the_case_as_written_is_accepted() {
    assert_eq!(error_after(|_| {}), None);
}

#[test]
fn mesh_node_beyond_the_ffrf_mesh() {
    expect(
        |m| m["sensors"][0]["meshNodeNumber"] = json!(20),
        &[
            "sensors[0] (SuperElement)",
            "meshNodeNumber",
            "20 mesh nodes",
        ],
    );
}

#[test]
fn mesh_node_beyond_the_generic_ode2_nodes() {
    let generic = |m: &Value| {
        m["objects"]
            .as_array()
            .unwrap()
            .iter()
            .position(|o| o["objectType"] == "GenericODE2")
            .unwrap()
    };
    expect(
        |m| {
            let g = generic(m);
            m["sensors"][0]["bodyNumber"] = json!(g);
            m["sensors"][0]["meshNodeNumber"] = json!(4);
            m["sensors"][0]["outputVariableType"] = json!("Position");
        },
        &["sensors[0]", "meshNodeNumber", "4 mesh nodes"],
    );
}

#[test]
fn super_element_sensor_on_ground() {
    let ground = |m: &Value| {
        m["objects"]
            .as_array()
            .unwrap()
            .iter()
            .position(|o| o["objectType"] == "Ground")
            .unwrap()
    };
    expect(
        |m| m["sensors"][0]["bodyNumber"] = json!(ground(m)),
        &[
            "sensors[0]",
            "bodyNumber",
            "Ground",
            "needs a GenericODE2 or FFRFreducedOrder",
        ],
    );
}

#[test]
fn strain_of_a_stress_mode_basis() {
    expect(
        |m| m["sensors"][6]["outputVariableType"] = json!("StrainLocal"),
        &[
            "sensors[6]",
            "outputVariableType",
            "StrainLocal needs",
            "outputVariableTypeModeBasis",
            "(it is StressLocal)",
        ],
    );
    expect(
        |m| ffrf(m)["outputVariableTypeModeBasis"] = json!("_None"),
        &["sensors[6]", "(it is _None)"],
    );
}

#[test]
fn unknown_mode_basis_type() {
    expect(
        |m| ffrf(m)["outputVariableTypeModeBasis"] = json!("Stress"),
        &[
            "objects[0] (FFRFreducedOrder)",
            "outputVariableTypeModeBasis",
            "`StressLocal`",
        ],
    );
}

#[test]
fn mode_basis_of_the_wrong_shape() {
    expect(
        |m| {
            let rows = ffrf(m)["outputVariableModeBasis"].as_array_mut().unwrap();
            rows.pop();
        },
        &[
            "objects[0]",
            "outputVariableModeBasis",
            "(mesh nodes = 20) × (6·modes = 18)",
            "19 × 18",
        ],
    );
}

/// With the type `_None` the matrix is not used and any size is accepted, as in Exudyn.
#[test]
fn unused_mode_basis_may_have_any_shape() {
    assert_eq!(
        error_after(|m| {
            let o = ffrf(m);
            o["outputVariableTypeModeBasis"] = json!("_None");
            o["outputVariableModeBasis"] = json!([[1.0, 2.0]]);
            m["sensors"].as_array_mut().unwrap().remove(6);
        }),
        None
    );
}

/// StressLocal is linear in the modal coordinates: Σ_m Ψ_S[i, 6m + c] ζ_m, checked against the
/// matrix in the file at a state with one modal coordinate set.
#[test]
fn stress_is_the_mode_basis_row_times_the_modal_coordinates() {
    let text = std::fs::read_to_string(CASE).unwrap();
    let model = read_model(&text).unwrap();
    let mut sim = model.mbs.assemble().unwrap();
    let m: Value = serde_json::from_str(&text).unwrap();
    let psi_s = &m["objects"][0]["outputVariableModeBasis"];
    // the modal node is the FFRF's second node; its coordinates follow the 7 of the EP frame
    let modal = 7;
    for mode in 0..3 {
        let mut q = vec![0.0; sim.state().q.len()];
        q[modal + mode] = 0.25;
        sim.state_mut().q.copy_from_slice(&q);
        let stress = sim
            .super_element_output(
                joint::runtime::ObjectIndex(0),
                17,
                OutputVariable::StressLocal,
            )
            .unwrap();
        for (c, s) in stress.iter().enumerate() {
            let expected = 0.25 * psi_s[17][6 * mode + c].as_f64().unwrap();
            assert!(
                (s - expected).abs() <= 1e-12 * expected.abs(),
                "mode {mode} component {c}: {s} vs {expected}"
            );
        }
    }
}
