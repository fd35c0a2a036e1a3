//! Joints and force elements that keep states between steps (`state NAME = …;`), each against
//! an oracle: the analytic motion of a screw, a gear pair and a rack and pinion over many
//! turns, the energy balance of the gears, and the discontinuous iteration's counts for a
//! state that switches a force. And the runs that must fail: the screw with `atan2` fails
//! loudly and leaves the last converged step's state.

#[allow(dead_code)]
#[path = "../examples/joints_with_memory.rs"]
mod memory;

use joint::runtime::model::read_model_with;
use joint::runtime::{
    Error, JointRegistry, Load, Marker, MultibodySystem, Node, Object, OutputVariable,
    SimulationSettings, SolverMode,
};
use memory::{
    SCREW, SCREW_TIME, Screw, screw, screw_errors, screw_errors_with, screw_exact, settings,
};

/// Errors of successive runs, each with twice the steps: the order of convergence between
/// each pair (log₂ of their ratio).
fn orders(errors: &[f64]) -> Vec<f64> {
    errors.windows(2).map(|w| (w[0] / w[1]).log2()).collect()
}

/// The screw with its turn as a state turns 10.6 times and follows the analytic descent
/// z = −a·t²/2, a = g·m·p²/(m·p² + J_z), with the turn z/p read from the state: second order
/// in the step over four refinements, and within 1e-8 (z and turn) with 2 million steps.
#[test]
fn screw_follows_the_analytic_descent_over_ten_turns() {
    let mut ez = Vec::new();
    let mut et = Vec::new();
    for steps in [1000, 2000, 4000, 8000] {
        let (z, t, sim) = screw_errors(steps, SolverMode::Exact).unwrap();
        ez.push(z);
        et.push(t);
        // one solve per step: the continuous angle never asks for another
        let s = &sim.statistics();
        assert_eq!(s.discontinuous_iterations, steps);
    }
    for (name, e) in [("z", &ez), ("turn", &et)] {
        for p in orders(e) {
            assert!(
                (p - 2.0).abs() < 0.05,
                "{name}: errors {e:?}, orders {:?}",
                orders(e)
            );
        }
    }
    let (ez, et, sim) = screw_errors(2_000_000, SolverMode::Fast).unwrap();
    assert!(
        ez <= 1e-8 && et <= 1e-8,
        "z error {ez:e}, turn error {et:e}"
    );
    // more than ten turns, continuous: the state at the end is the analytic turn
    let joint = joint::runtime::ObjectIndex(sim.system().objects.len() - 1);
    let turn = sim.object_output(joint, screw::outputs::TURN).unwrap()[0];
    let exact = screw_exact(SCREW_TIME).1;
    assert!(exact.abs() > 10.0 * std::f64::consts::TAU, "{exact}");
    assert!((turn - exact).abs() < 1e-8, "turn {turn}, exact {exact}");
    // the state is a data coordinate: after the nodes' (none here), the last converged turn
    assert_eq!(sim.state().data, [turn]);
}

/// The same screw in the accurate mode (tolerance 1e-11): z on the analytic motion to 1e-10
/// over every sensor row (those between steps interpolated) and the turn at the end to 1e-8,
/// in a few hundred steps where generalized-α takes two million.
#[test]
fn screw_in_the_accurate_mode() {
    let mut s = settings(1000, SCREW_TIME);
    s.solver_mode = SolverMode::Accurate;
    s.error_tolerance = 1e-11;
    let (ez, _, sim) = screw_errors_with(&s).unwrap();
    assert!(ez < 1e-10, "z error {ez:e}");
    let joint = joint::runtime::ObjectIndex(sim.system().objects.len() - 1);
    let turn = sim.object_output(joint, screw::outputs::TURN).unwrap()[0];
    let exact = screw_exact(SCREW_TIME).1;
    assert!((turn - exact).abs() < 1e-8, "turn {turn}, exact {exact}");
    assert!(sim.statistics().steps < 500, "{:?}", sim.statistics());
}

/// The screw written with `atan2` (in (−π, π]) fails where the body first turns past −π,
/// naming the equation, the time and the residual, where it used to return `Ok` 1929 m down;
/// and it leaves the last converged step's state: the same as a run that ends there.
#[test]
fn atan2_screw_fails_loudly_and_leaves_the_last_converged_state() {
    let (sim, e) = memory::atan_screw();
    let Error::SolverFailed {
        message,
        time,
        equation,
        residual,
        ..
    } = &e
    else {
        panic!("expected SolverFailed, found {e}");
    };
    let t = time.expect("the failure's time");
    // the body passes −π (turn −π at z = −π·p) near t = √(2πp/a) = 0.358 s
    let (_, _, p) = SCREW;
    let a = -2.0 * screw_exact(1.0).0;
    let crossing = (2.0 * std::f64::consts::PI * p / a).sqrt();
    assert!(
        (t - crossing).abs() < 0.01,
        "failed at {t}, −π at {crossing}"
    );
    let equation = equation.as_deref().expect("the worst equation");
    assert!(
        equation.contains("nodes[0]") || equation.contains("objects[2]"),
        "{equation}"
    );
    assert!(residual.expect("its residual").abs() > 1e-4, "{e}");
    assert!(message.contains("constraint tolerance"), "{message}");
    // the state left: the last converged step, before the failure
    let t_n = sim.state().time;
    assert!(t_n < t && t - t_n < 1e-3, "left at {t_n}, failed at {t}");
    // the Euler parameters: reference [1, 0, 0, 0] plus the displacement
    let theta = [
        1.0 + sim.state().q[3],
        sim.state().q[4],
        sim.state().q[5],
        sim.state().q[6],
    ];
    let norm: f64 = theta.iter().map(|x| x * x).sum();
    assert!((norm - 1.0).abs() < 1e-6, "|θ|² = {norm}");
    // the sensor rows end at or before it
    let last = (0..sim.system().sensors.len())
        .filter_map(|i| sim.sensor_rows(joint::runtime::SensorIndex(i)).ok()?.last())
        .map(|r| r[0]);
    assert!(
        last.clone().all(|r| r <= t_n + 1e-12),
        "{:?}",
        last.collect::<Vec<_>>()
    );
}

/// The gear pair, gear 0 spun at 10 rad/s and driven by 1 N·m for 4 s (12.7 turns): the mesh
/// θ1 + r·θ0 holds to 1e-10 at every sensor row, gear 0 follows θ0̈ = τ/(J0 + r²·J1), and the
/// kinetic energy grows by the torque's work, both to second order in the step.
#[test]
fn gear_pair_meshes_over_twelve_turns_and_balances_energy() {
    let coarse = memory::gears(4000).unwrap();
    let fine = memory::gears(8000).unwrap();
    for run in [&coarse, &fine] {
        assert!(run.mesh <= 1e-10, "mesh {:e}", run.mesh);
        assert!(
            run.final_turn / std::f64::consts::TAU > 12.0,
            "{}",
            run.final_turn
        );
    }
    // the work done: τ·θ0 = 80 J, beside 10 J at the start
    assert!(fine.energy < 2e-3, "energy balance {:e} J", fine.energy);
    for (name, c, f) in [
        ("energy", coarse.energy, fine.energy),
        ("turn", coarse.turn, fine.turn),
    ] {
        let p = (c / f).log2();
        assert!((p - 2.0).abs() < 0.1, "{name}: {c:e} → {f:e}, order {p}");
    }
}

/// The rack and pinion: the pinion's turn and the rack's travel against the analytic motion
/// θ̈ = τ/(J + M·R²), x = −R·θ, to second order.
#[test]
fn rack_and_pinion_follows_the_analytic_motion() {
    let (t1, x1, turn) = memory::rack_and_pinion(2000).unwrap();
    let (t2, x2, _) = memory::rack_and_pinion(4000).unwrap();
    assert!(turn > 4.0 * std::f64::consts::TAU, "{turn}");
    assert!(t2 < 1e-4 && x2 < 5e-6, "turn {t2:e}, x {x2:e}");
    for (name, c, f) in [("turn", t1, t2), ("x", x1, x2)] {
        let p = (c / f).log2();
        assert!((p - 2.0).abs() < 0.1, "{name}: {c:e} → {f:e}, order {p}");
    }
}

/// A model file carries a state's initial value: the screw started three turns down (its body
/// at z = −6π·p, `"turn": −6π`) moves exactly as the one started at zero, shifted; without the
/// key its turn starts at 0 and the screw row is violated by 6π·p.
#[test]
fn model_file_carries_the_initial_turn() {
    let (_, _, p) = SCREW;
    let turn0 = -6.0 * std::f64::consts::PI;
    let model = |turn: Option<f64>| {
        let mut joint =
            serde_json::json!({"objectType": "Screw", "markerNumbers": [1, 2], "lead": p});
        if let Some(t) = turn {
            joint["turn"] = t.into();
        }
        serde_json::json!({
            "nodes": [{"nodeType": "RigidBodyEP", "referenceCoordinates": [0, 0, p * turn0, 1, 0, 0, 0]}],
            "objects": [
                {"objectType": "Ground"},
                {"objectType": "RigidBody", "physicsMass": SCREW.0,
                 "physicsInertia": [0.02, 0.02, SCREW.1, 0, 0, 0], "nodeNumber": 0},
                joint
            ],
            "markers": [
                {"markerType": "BodyMass", "bodyNumber": 1},
                {"markerType": "BodyRigid", "bodyNumber": 0, "localPosition": [0, 0, 0]},
                {"markerType": "BodyRigid", "bodyNumber": 1, "localPosition": [0, 0, 0]}
            ],
            "loads": [{"loadType": "MassProportional", "markerNumber": 0, "loadVector": [0, 0, -memory::G]}],
            "sensors": [{"sensorType": "Object", "objectNumber": 2, "outputVariableType": "turn",
                         "storeInternal": true}],
            "simulationSettings": {"timeIntegration": {"numberOfSteps": 400, "endTime": 0.4}}
        })
        .to_string()
    };
    let registry = JointRegistry::exudyn().with::<Screw>().unwrap();
    // without the key: turn 0, the body three turns below where the screw has it
    let m = read_model_with(&model(None), &registry).unwrap();
    let sim = m.mbs.assemble().unwrap();
    let joint = joint::runtime::ObjectIndex(2);
    let rows = sim
        .object_output(joint, OutputVariable::Displacement)
        .unwrap();
    assert!((rows[4] - p * turn0).abs() < 1e-12, "{rows:?}");
    // with it: consistent, and the fresh screw's motion shifted
    let m = read_model_with(&model(Some(turn0)), &registry).unwrap();
    let mut sim = m.mbs.assemble().unwrap();
    assert_eq!(sim.state().data, [turn0]);
    sim.solve_dynamic(&m.settings).unwrap();
    let end = sim.state().time;
    let turn = sim.object_output(joint, screw::outputs::TURN).unwrap()[0];
    let z = sim.state().q[2];
    let (m_, j, _) = SCREW;
    let a = memory::G * m_ * p * p / (m_ * p * p + j);
    let fresh_z = -0.5 * a * end * end;
    assert!((z - fresh_z).abs() < 2e-4, "z {z}, analytic {fresh_z}");
    assert!(
        (turn - (turn0 + z / p)).abs() < 1e-9,
        "turn {turn}, from z {}",
        turn0 + z / p
    );
    assert_eq!(sim.state().data, [turn]);
    // the result file's sensor reads the state as the joint's output
    let last = sim
        .sensor_rows(joint::runtime::SensorIndex(0))
        .unwrap()
        .last()
        .unwrap();
    assert_eq!(last[1], turn);
}

joint::joint! {
    /// A spring towards z = 0 that engages once its point has gone below z = 0 and then
    /// stays engaged: the state switches the force, so the step that crosses is solved again.
    pub force Latch {
        marker m0: Position;
        marker m1: Position;
        param stiffness: scalar;
        state engaged = if m1.position[2] < 0.0 { 1.0 } else { last(engaged) };
        force = [0.0, 0.0, stiffness * last(engaged) * m1.position[2]];
    }
}

/// A mass point dropped 0.1 m onto a latch: `discontinuous.iterationTolerance` small, the step
/// that crosses z = 0 is solved twice (the latch's force changes by k·|z|), every other once;
/// with `maxIterations` 1 none is repeated, and with `ignoreMaxIterations` off that is a
/// failure naming the discontinuous iteration.
#[test]
fn a_switching_state_repeats_the_crossing_step() {
    let build = || {
        let mut mbs = MultibodySystem::new();
        let ground = mbs.add_object(Object::ground());
        let node = mbs.add_node(Node::point([0.0, 0.0, 0.1]));
        let mass = mbs.add_object(Object::MassPoint {
            name: String::new(),
            mass: 1.0,
            node,
        });
        let m0 = mbs.add_marker(Marker::body_position(ground, [0.0; 3]));
        let m1 = mbs.add_marker(Marker::body_position(mass, [0.0; 3]));
        mbs.add_load(Load::force(m1, [0.0, 0.0, -9.81]));
        let params = latch::Parameters {
            stiffness: 1e4,
            ..Default::default()
        };
        mbs.add_object(Object::force::<Latch>([m0, m1], params));
        (mbs, node)
    };
    let mut settings = SimulationSettings::default();
    settings.time_integration.number_of_steps = 500;
    settings.time_integration.end_time = 0.5;
    settings.time_integration.discontinuous.iteration_tolerance = 1e-9;
    let (mbs, node) = build();
    let mut sim = mbs.assemble().unwrap();
    sim.solve_dynamic(&settings).unwrap();
    assert_eq!(sim.statistics().discontinuous_iterations, 501);
    assert_eq!(sim.state().data, [1.0]);
    // caught by the spring: it oscillates about z = −m·g/k with the amplitude v/ω ≈ 0.014 m
    // (free, it would be 1.1 m down)
    let z = sim.node_output(node, OutputVariable::Position).unwrap()[2];
    assert!(z.abs() < 0.016, "{z}");

    let mut once = settings.clone();
    once.time_integration.discontinuous.max_iterations = 1;
    let mut sim = build().0.assemble().unwrap();
    sim.solve_dynamic(&once).unwrap();
    assert_eq!(sim.statistics().discontinuous_iterations, 500);

    once.time_integration.discontinuous.ignore_max_iterations = false;
    let mut sim = build().0.assemble().unwrap();
    let e = sim.solve_dynamic(&once).unwrap_err().to_string();
    assert!(e.contains("discontinuous iteration did not settle"), "{e}");
    assert!(
        sim.state().data == [0.0],
        "the latch as it was: {:?}",
        sim.state().data
    );
}
