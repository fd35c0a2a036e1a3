//! The readers of jointsim's other inputs, at random and mutated input (proptest): the
//! overrides file of `sweep` with its application to a model file, and the solution and result
//! files `scene --result` and `view --result` read. Each gives a value or an error, never a
//! panic; what they accept is what they must.

use joint_runtime::scene::Motion;
use jointsim::overrides::{Base, parse_overrides};
use proptest::prelude::*;

const MODEL: &str = include_str!("../../tests/reference/exudyn_cases/seed_mini_pendulum.json");

/// JSON Pointer-like keys: real paths of the model, and near misses.
fn pointer() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("/objects/1/mass".to_owned()),
        Just("/objects/1/inertia".to_owned()),
        Just("/simulationSettings/timeIntegration/endTime".to_owned()),
        Just("/loads/0/loadVector".to_owned()),
        Just("/loads/0/loadVector/2".to_owned()),
        Just("/nodes/0/referenceCoordinates/9".to_owned()),
        Just("/objects/99999999999999999999/mass".to_owned()),
        Just("/objects/-1".to_owned()),
        Just("".to_owned()),
        "(/[a-zA-Z0-9~_-]{0,12}){0,5}",
    ]
}

/// JSON values as text, some not of the kind the model has there.
fn value() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("2.0".to_owned()),
        Just("[0, 0, -3.7]".to_owned()),
        Just("[[1,0,0],[0,1,0],[0,0,1]]".to_owned()),
        Just("\"x\"".to_owned()),
        Just("null".to_owned()),
        Just("1e400".to_owned()),
        Just("{}".to_owned()),
        (-1e3f64..1e3).prop_map(|x| format!("{x}")),
    ]
}

/// Overrides files: well-formed ones, and their text cut or with a byte changed.
fn overrides() -> impl Strategy<Value = String> {
    let entry = proptest::collection::vec((pointer(), value()), 0..4).prop_map(|kv| {
        let members: Vec<String> = kv
            .iter()
            .map(|(k, v)| format!("{}: {v}", serde_json::to_string(k).unwrap()))
            .collect();
        format!("{{{}}}", members.join(", "))
    });
    let file = proptest::collection::vec(entry, 0..4).prop_map(|e| format!("[{}]", e.join(",\n ")));
    (file, any::<usize>(), any::<u8>(), 0..3u8).prop_map(|(text, at, byte, how)| {
        let mut b = text.into_bytes();
        let at = at % (b.len() + 1);
        match how {
            0 => {}
            1 => b.truncate(at),
            _ => {
                if at < b.len() {
                    b[at] = byte;
                }
            }
        }
        String::from_utf8_lossy(&b).into_owned()
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn overrides_are_read_and_applied_without_a_panic(text in overrides()) {
        let base = Base::new(MODEL).expect("the model is JSON");
        if let Ok(entries) = parse_overrides(&text) {
            for e in &entries {
                if let Ok(applied) = base.apply(e) {
                    // an applied override is the model file edited: still JSON
                    prop_assert!(serde_json::from_str::<serde_json::Value>(&applied).is_ok());
                }
            }
        }
    }

    #[test]
    fn solution_and_result_files_are_read_without_a_panic(
        lines in proptest::collection::vec(
            prop_oneof![
                Just("#Exudyn implicit second order time integration solver solution file".to_owned()),
                Just("#number of written coordinates [nODE2, nVel2, nAcc2, nODE1, nVel1, nAlgebraic, nData] = [7,7,7,0,0,1,0]".to_owned()),
                proptest::collection::vec(-1e3f64..1e3, 0..24).prop_map(|v| {
                    v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(",")
                }),
                "[0-9eE.,+ -]{0,40}",
                Just("{\"time\": 1.0, \"ode2Coordinates\": [0,0,0,0,0,0,0]}".to_owned()),
                Just("nan,inf,1e999".to_owned()),
            ],
            0..12,
        ),
        n_ode2 in 0usize..10,
    ) {
        let text = lines.join("\n");
        if let Ok(m) = Motion::read(&text, "fuzz", n_ode2) {
            prop_assert_eq!(m.times.len(), m.coordinates.len());
            prop_assert!(m.coordinates.iter().all(|q| q.len() == n_ode2));
        }
    }
}
