//! Exudyn's explicit solvers against an analytic solution, and their refusals.
//!
//! The reference cases (tests/reference_cases, `own_explicit_*`) pin Exudyn's results; here
//! the oracle is the linear oscillator's exact motion: each fixed-step method's error must fall
//! with its order when the step is halved, and the error-controlled pairs must meet their
//! tolerance.

use joint::runtime::model::read_model;
use joint::runtime::settings::DynamicSolverType;
use serde_json::{Value, json};

/// A mass point (m = 2) on a spring to ground (k = 200, length 1) moving along the spring's
/// axis: x(t) = 1 + x0·cos ωt + (v0/ω)·sin ωt with ω = 10.
fn oscillator(solver: &str, steps: usize) -> Value {
    json!({
        "nodes": [{"nodeType": "Point", "referenceCoordinates": [1.0, 0.0, 0.0],
                   "initialCoordinates": [0.1, 0.0, 0.0], "initialVelocities": [0.5, 0.0, 0.0]}],
        "objects": [
            {"objectType": "Ground"},
            {"objectType": "MassPoint", "mass": 2.0, "nodeNumber": 0},
            {"objectType": "ConnectorSpringDamper", "markerNumbers": [0, 1], "stiffness": 200.0,
             "referenceLength": 1.0}
        ],
        "markers": [
            {"markerType": "BodyPosition", "bodyNumber": 0, "localPosition": [0.0, 0.0, 0.0]},
            {"markerType": "BodyPosition", "bodyNumber": 1, "localPosition": [0.0, 0.0, 0.0]}
        ],
        "simulationSettings": {"timeIntegration": {"numberOfSteps": steps, "endTime": 1.0}},
        "dynamicSolverType": solver
    })
}

/// |x − x_exact| and |v − v_exact| at t = 1.
fn error_at_end(model: &Value) -> f64 {
    let model = read_model(&model.to_string()).unwrap();
    let mut sim = model.mbs.assemble().unwrap();
    sim.solve_dynamic(&model.settings).unwrap();
    let (x0, v0, w, t) = (0.1f64, 0.5f64, 10.0f64, sim.state().time);
    assert!((t - 1.0).abs() < 1e-12);
    let x = x0 * (w * t).cos() + v0 / w * (w * t).sin();
    let v = -x0 * w * (w * t).sin() + v0 * (w * t).cos();
    (sim.state().q[0] - x)
        .abs()
        .max((sim.state().v[0] - v).abs())
}

#[test]
fn fixed_step_methods_converge_with_their_order() {
    for (solver, order) in [
        ("ExplicitEuler", 1.0),
        ("ExplicitMidpoint", 2.0),
        ("RK33", 3.0),
        ("RK44", 4.0),
        ("RK67", 6.0),
        ("VelocityVerlet", 2.0),
    ] {
        // steps where the error is asymptotic but above round-off
        let n = if order >= 6.0 { 100 } else { 400 };
        let e1 = error_at_end(&oscillator(solver, n));
        let e2 = error_at_end(&oscillator(solver, 2 * n));
        let observed = (e1 / e2).log2();
        assert!(
            (observed - order).abs() < 0.25,
            "{solver}: observed order {observed:.3} (errors {e1:e}, {e2:e}), expected {order}"
        );
    }
}

#[test]
fn error_controlled_pairs_meet_their_tolerance() {
    for solver in ["ODE23", "DOPRI5"] {
        let mut m = oscillator(solver, 10);
        m["simulationSettings"]["timeIntegration"]["absoluteTolerance"] = json!(1e-7);
        m["simulationSettings"]["timeIntegration"]["relativeTolerance"] = json!(1e-7);
        let e = error_at_end(&m);
        // a global error of some local tolerances over the run; far below the 10 nominal steps'
        assert!(e < 1e-5, "{solver}: error {e:e}");
        let loose = error_at_end(&{
            let mut m = m.clone();
            m["simulationSettings"]["timeIntegration"]["automaticStepSize"] = json!(true);
            m["simulationSettings"]["timeIntegration"]["absoluteTolerance"] = json!(1e-3);
            m["simulationSettings"]["timeIntegration"]["relativeTolerance"] = json!(1e-3);
            m
        });
        assert!(
            loose > 10.0 * e,
            "{solver}: tolerance has no effect ({loose:e} vs {e:e})"
        );
    }
}

#[test]
fn solver_type_from_the_settings_or_the_top_level_key() {
    let mut m = oscillator("RK44", 50);
    m.as_object_mut().unwrap().remove("dynamicSolverType");
    m["simulationSettings"]["timeIntegration"]["solverType"] = json!("DynamicSolverType.RK44");
    let settings = read_model(&m.to_string()).unwrap().settings;
    assert_eq!(
        settings.time_integration.solver_type,
        DynamicSolverType::RK44
    );
    // the top-level key takes the setting's place, as SolveDynamic's argument does
    m["dynamicSolverType"] = json!("GeneralizedAlpha");
    let settings = read_model(&m.to_string()).unwrap().settings;
    assert_eq!(
        settings.time_integration.solver_type,
        DynamicSolverType::GeneralizedAlpha
    );
    assert_eq!(
        error_at_end(&oscillator("RK44", 50)),
        error_at_end(&{
            let mut m = oscillator("GeneralizedAlpha", 50);
            m["simulationSettings"]["timeIntegration"]["solverType"] = json!("RK44");
            m.as_object_mut().unwrap().remove("dynamicSolverType");
            m
        })
    );
}

/// A spherical joint: refused with eliminateConstraints (Exudyn's default), naming the joint;
/// ignored without.
#[test]
fn constraints_are_refused_or_ignored() {
    let mut m = oscillator("RK44", 100);
    m["objects"]
        .as_array_mut()
        .unwrap()
        .push(json!({"objectType": "JointSpherical", "markerNumbers": [0, 1]}));
    let model = read_model(&m.to_string()).unwrap();
    let mut sim = model.mbs.assemble().unwrap();
    let e = sim.solve_dynamic(&model.settings).unwrap_err().to_string();
    for needle in [
        "objects[3] (JointSpherical)",
        "RK44",
        "eliminateConstraints",
    ] {
        assert!(e.contains(needle), "`{e}` lacks `{needle}`");
    }
    m["simulationSettings"]["timeIntegration"]["explicit"] = json!({"eliminateConstraints": false});
    assert_eq!(
        error_at_end(&m),
        error_at_end(&oscillator("RK44", 100)),
        "the ignored joint changed the motion"
    );
}

/// An Euler-parameter rigid body's mass matrix is singular without its constraint: a clear error
/// naming the coordinate's node, not a panic.
#[test]
fn singular_mass_matrix_is_an_error() {
    let m = json!({
        "nodes": [{"nodeType": "RigidBodyEP", "referenceCoordinates": [0, 0, 0, 1, 0, 0, 0]}],
        "objects": [{"objectType": "RigidBody", "physicsMass": 1.0,
                     "physicsInertia": [1, 1, 1, 0, 0, 0], "nodeNumber": 0}],
        "simulationSettings": {"timeIntegration": {"numberOfSteps": 10,
                               "explicit": {"eliminateConstraints": false}}},
        "dynamicSolverType": "DOPRI5"
    });
    let model = read_model(&m.to_string()).unwrap();
    let mut sim = model.mbs.assemble().unwrap();
    let e = sim.solve_dynamic(&model.settings).unwrap_err().to_string();
    for needle in ["mass matrix is singular", "nodes[0] (RigidBodyEP)"] {
        assert!(e.contains(needle), "`{e}` lacks `{needle}`");
    }
    // the failed run leaves the last accepted state: here the initial one, whole
    assert_eq!(sim.state().time, 0.0);
    assert_eq!(sim.state().q, vec![0.0; 7]);
    assert_eq!(sim.state().v, vec![0.0; 7]);
}
