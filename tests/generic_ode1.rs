//! First-order coordinates (NodeGenericODE1, ObjectGenericODE1) in every solver, against
//! independent oracles: the trapezoidal rule's invariant and closed form in the implicit solver,
//! the exact solution and each method's order in the explicit ones, and the mixed ODE2 + ODE1
//! system's decoupling. The reference cases (tests/reference_cases, `own_generic_ode1_*`) pin
//! Exudyn's numbers and counts.

use joint::runtime::model::read_model;
use serde_json::{Value, json};

const OMEGA: f64 = 10.0;

/// ẏ = A·y + f with A = [[0, 1], [−ω², 0]] (an undamped oscillator in state space) and f = 0,
/// y(0) = [0.1, 0.5]; with `mass_point`, an unrelated falling mass point beside it.
fn oscillator(solver: &str, steps: usize, mass_point: bool) -> Value {
    let mut m = json!({
        "nodes": [{"nodeType": "GenericODE1", "referenceCoordinates": [0.0, 0.0],
                   "initialCoordinates": [0.1, 0.5], "numberOfODE1Coordinates": 2}],
        "objects": [{"objectType": "GenericODE1", "nodeNumbers": [0],
                     "systemMatrix": [[0.0, 1.0], [-OMEGA * OMEGA, 0.0]], "rhsVector": [0.0, 0.0]}],
        "markers": [],
        "loads": [],
        "sensors": [],
        "simulationSettings": {"timeIntegration": {"numberOfSteps": steps, "endTime": 1.0}},
        "dynamicSolverType": solver
    });
    if mass_point {
        m["nodes"].as_array_mut().unwrap().push(json!(
            {"nodeType": "Point", "referenceCoordinates": [0.0, 0.0, 0.0]}));
        m["objects"].as_array_mut().unwrap().push(json!(
            {"objectType": "MassPoint", "mass": 2.0, "nodeNumber": 1}));
        m["markers"].as_array_mut().unwrap().push(json!(
            {"markerType": "BodyMass", "bodyNumber": 1}));
        m["loads"].as_array_mut().unwrap().push(json!(
            {"loadType": "MassProportional", "markerNumber": 0, "loadVector": [0.0, -9.81, 0.0]}));
    }
    m
}

fn run(model: &Value) -> joint::runtime::simulation::Simulation {
    let model = read_model(&model.to_string()).unwrap();
    let mut sim = model.mbs.assemble().unwrap();
    sim.solve_dynamic(&model.settings).unwrap();
    sim
}

fn exact(t: f64) -> [f64; 2] {
    let (y0, v0) = (0.1, 0.5);
    [
        y0 * (OMEGA * t).cos() + v0 / OMEGA * (OMEGA * t).sin(),
        -y0 * OMEGA * (OMEGA * t).sin() + v0 * (OMEGA * t).cos(),
    ]
}

/// The trapezoidal rule is the Cayley transform for a linear system: it keeps the oscillator's
/// energy ω²y₀² + y₁² exactly and advances y by (I − h/2·A)⁻¹(I + h/2·A) each step; ẏ at the
/// end is A·y. Generalized-α (any ρ) and Newmark integrate ODE1 coordinates by this rule. The
/// first step is Exudyn's: it starts from ẏ₀ = 0, not A·y₀, so it solves (I − h/2·A)·y₁ = y₀
/// and the energy is kept from y₁ on. The ODE1 Jacobian is Exudyn's forward difference, so
/// Newton's one iteration per step lands within ~1e-10 relative of the rule's solution (far
/// below what starting from ẏ₀ = A·y₀ would change: 6e-4 in the energy).
#[test]
fn implicit_solvers_integrate_ode1_by_the_trapezoidal_rule() {
    let steps = 200;
    let h = 1.0 / steps as f64;
    let a = h / 2.0;
    let w2 = OMEGA * OMEGA;
    let det = 1.0 + a * a * w2;
    // (I − h/2·A)⁻¹ r
    let solve = |r: [f64; 2]| [(r[0] + a * r[1]) / det, (r[1] - a * w2 * r[0]) / det];
    let mut z = solve([0.1, 0.5]);
    let energy = |y: &[f64]| w2 * y[0] * y[0] + y[1] * y[1];
    let e1 = energy(&z);
    for _ in 1..steps {
        z = solve([z[0] + a * z[1], z[1] - a * w2 * z[0]]);
    }
    for settings in [
        json!({}),
        json!({"spectralRadius": 0.6}),
        json!({"useNewmark": true}),
    ] {
        let mut m = oscillator("GeneralizedAlpha", steps, false);
        m["simulationSettings"]["timeIntegration"]["generalizedAlpha"] = settings.clone();
        let sim = run(&m);
        let y = &sim.state().y;
        assert!(
            (energy(y) - e1).abs() < 1e-9 * e1,
            "{settings}: energy {} against {e1}",
            energy(y)
        );
        for i in 0..2 {
            assert!(
                (y[i] - z[i]).abs() < 1e-10,
                "{settings}: y {y:?} against {z:?}"
            );
        }
        // ẏ = A·y at the end, up to Newton's residual (ẏ carries y's increments times 2/h)
        let y_t = &sim.state().y_t;
        assert!(
            (y_t[0] - y[1]).abs() < 1e-7 && (y_t[1] + w2 * y[0]).abs() < 1e-7,
            "{settings}: ẏ {y_t:?} against A·y"
        );
    }
}

/// ODE1 and ODE2 coordinates side by side, not coupled: each integrates as if alone.
#[test]
fn ode1_and_ode2_coordinates_integrate_side_by_side() {
    for solver in ["GeneralizedAlpha", "TrapezoidalIndex2", "RK44", "DOPRI5"] {
        let alone = run(&oscillator(solver, 100, false));
        let mixed = run(&oscillator(solver, 100, true));
        for i in 0..2 {
            // the mixed run's Newton/error norms differ, so not bitwise
            assert!(
                (alone.state().y[i] - mixed.state().y[i]).abs() < 1e-8,
                "{solver}: {:?} against {:?}",
                mixed.state().y,
                alone.state().y
            );
        }
        // the mass point falls freely: y = −g t²/2 at t = 1 (exact for these integrators)
        let fall = mixed.state().q[1];
        assert!((fall + 9.81 / 2.0).abs() < 1e-6, "{solver}: fell {fall}");
    }
}

#[test]
fn explicit_methods_integrate_ode1_with_their_order() {
    for (solver, order) in [
        ("ExplicitEuler", 1.0),
        ("ExplicitMidpoint", 2.0),
        ("RK33", 3.0),
        ("RK44", 4.0),
        ("RK67", 6.0),
    ] {
        let n = if order >= 6.0 { 100 } else { 400 };
        let error = |steps: usize| {
            let sim = run(&oscillator(solver, steps, false));
            let e = exact(1.0);
            (sim.state().y[0] - e[0])
                .abs()
                .max((sim.state().y[1] - e[1]).abs())
        };
        let (e1, e2) = (error(n), error(2 * n));
        let observed = (e1 / e2).log2();
        assert!(
            (observed - order).abs() < 0.25,
            "{solver}: observed order {observed:.3} (errors {e1:e}, {e2:e}), expected {order}"
        );
    }
}

/// The embedded pairs' error includes the ODE1 coordinates: tightening the tolerance on an
/// ODE1-only system takes more steps and lands closer.
#[test]
fn error_control_sees_ode1_coordinates() {
    let run_tol = |tol: f64| {
        let mut m = oscillator("DOPRI5", 10, false);
        let ti = &mut m["simulationSettings"]["timeIntegration"];
        ti["absoluteTolerance"] = json!(tol);
        ti["relativeTolerance"] = json!(tol);
        let sim = run(&m);
        let e = exact(1.0);
        let err = (sim.state().y[0] - e[0]).abs();
        (sim.statistics().steps, err)
    };
    let (loose_steps, loose) = run_tol(1e-3);
    let (tight_steps, tight) = run_tol(1e-9);
    assert!(
        tight_steps > loose_steps,
        "{tight_steps} vs {loose_steps} steps"
    );
    assert!(
        tight < 1e-6 && tight < loose,
        "errors {tight:e} (tight) {loose:e} (loose)"
    );
}

/// The static solver holds the ODE1 coordinates.
#[test]
fn static_solver_holds_ode1_coordinates() {
    let m = oscillator("GeneralizedAlpha", 10, false);
    let model = read_model(&m.to_string()).unwrap();
    let mut sim = model.mbs.assemble().unwrap();
    sim.solve_static(&model.settings).unwrap();
    assert_eq!(sim.state().y, vec![0.1, 0.5]);
}

/// An edit of the oscillator's model file and the error it must give.
type BadCase = (fn(&mut Value), &'static str);

#[test]
fn bad_ode1_items_are_named() {
    let cases: [BadCase; 5] = [
        (
            |m| m["nodes"][0]["initialCoordinates"] = json!([1.0]),
            "nodes[0] (GenericODE1): `initialCoordinates`: expected numberOfODE1Coordinates = 2 entries, found 1",
        ),
        (
            |m| m["objects"][0]["systemMatrix"] = json!([[1.0, 0.0, 0.0]]),
            "objects[0] (GenericODE1): `systemMatrix`: expected a 2 × 2 matrix",
        ),
        (
            |m| m["objects"][0]["rhsVector"] = json!([1.0]),
            "objects[0] (GenericODE1): `rhsVector`: expected 2 entries",
        ),
        (
            |m| {
                m["nodes"][0] =
                    json!({"nodeType": "Point", "referenceCoordinates": [0.0, 0.0, 0.0]})
            },
            "objects[0] (GenericODE1): `nodeNumbers`: node 0 is a Point; ObjectGenericODE1 needs NodeGenericODE1 nodes",
        ),
        (
            |m| m["objects"][0]["rhsUserFunction"] = json!({"a": 1}),
            "objects[0] (GenericODE1): `rhsUserFunction`: user functions are not supported",
        ),
    ];
    for (edit, expected) in cases {
        let mut m = oscillator("GeneralizedAlpha", 10, false);
        edit(&mut m);
        let error = read_model(&m.to_string())
            .and_then(|model| model.mbs.assemble().map(|_| ()))
            .expect_err(expected)
            .to_string();
        assert!(error.contains(expected), "{error}\nexpected: {expected}");
    }
}
