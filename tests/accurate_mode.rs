//! The accurate mode (`SolverMode::Accurate`, `jointsim run --solver accurate`) is judged by
//! accuracy against the solution converged in time: on every dynamic model of the corpus whose
//! converged solution is verified, its final coordinates at the tolerance [`TOLERANCE`] must be
//! no further from it than Exudyn's own run is, with a margin of 1.5.
//!
//! The converged solutions (tools/reference/make_converged_solutions.py →
//! tests/reference/converged_solutions.json) are computed twice, by the accurate mode at a
//! tolerance of 1e-12 and by generalized-α (the fast mode) at 16 and 32 times the model's step
//! count extrapolated (Richardson); a solution counts as verified where the two agree to a tenth
//! of Exudyn's error (the distance of Exudyn's tightly converged discretization,
//! tests/reference/tight_solutions.json, from it).

use joint::runtime::model::{SolveKind, read_model};
use joint::runtime::{
    Marker, MultibodySystem, Node, Object, OutputVariable, Sensor, Simulation, SimulationSettings,
    SolverMode,
};
use serde_json::Value;

const REFERENCE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/reference/");

/// The margin over Exudyn's error that the contract allows.
const MARGIN: f64 = 1.5;

/// The error tolerance of the runs: each model's error below Exudyn's needs it (Exudyn's runs
/// are as close as 2.6e-7 to the converged solution).
const TOLERANCE: f64 = 1e-8;

/// Below this × max(1, max |q|), a distance is the level at which the converged solution is
/// itself known (the two methods agree to about 1e-11 on most models).
const FLOOR: f64 = 1e-10;

fn solve(path: &str, tolerance: f64) -> Result<Simulation, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("reading {path}: {e}"))?;
    let mut model = read_model(&text).map_err(|e| e.to_string())?;
    assert_eq!(model.solve, SolveKind::Dynamic, "{path}: a dynamic model");
    model.settings.solver_mode = SolverMode::Accurate;
    model.settings.error_tolerance = tolerance;
    let mut sim = model.mbs.assemble().map_err(|e| e.to_string())?;
    sim.solve_dynamic(&model.settings)
        .map_err(|e| e.to_string())?;
    Ok(sim)
}

fn numbers(v: &Value) -> Vec<f64> {
    v.as_array()
        .expect("an array")
        .iter()
        .map(|x| x.as_f64().expect("a number"))
        .collect()
}

fn converged() -> serde_json::Map<String, Value> {
    let text = std::fs::read_to_string(format!("{REFERENCE}converged_solutions.json"))
        .expect("tests/reference/converged_solutions.json");
    serde_json::from_str(&text).expect("JSON")
}

fn distance(sim: &Simulation, entry: &Value) -> f64 {
    let mut truth = numbers(&entry["ode2Coordinates"]);
    truth.extend(
        entry
            .get("ode1Coordinates")
            .map(numbers)
            .unwrap_or_default(),
    );
    let q: Vec<f64> = sim
        .state()
        .q
        .iter()
        .chain(&sim.state().y)
        .copied()
        .collect();
    assert_eq!(q.len(), truth.len(), "coordinates");
    q.iter()
        .zip(&truth)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f64::max)
}

/// Models without a verified converged solution, and why: a generalized-α run of a model whose
/// initial positions miss its constraints has no limit as h → 0 (its first step's velocity
/// jump grows as 1/h), and Exudyn's explicit solver types run as Exudyn's.
#[test]
fn accurate_mode_is_as_close_to_the_converged_solution_as_exudyn() {
    let mut failures = Vec::new();
    let mut report = String::new();
    let mut verified = 0;
    for (rel, entry) in &converged() {
        if let Some(why) = entry.get("failed") {
            report += &format!("{rel:60} not converged: {why}\n");
            continue;
        }
        let exudyn = entry["exudynDistance"].as_f64().expect("a number");
        let methods = entry["methodsDistance"].as_f64().expect("a number");
        if methods.is_nan() || methods > 0.1 * exudyn {
            report += &format!(
                "{rel:60} not verified: the methods differ by {methods:.1e}, Exudyn {exudyn:.1e}\n"
            );
            continue;
        }
        verified += 1;
        let sim = match solve(&format!("{REFERENCE}{rel}"), TOLERANCE) {
            Ok(sim) => sim,
            Err(e) => {
                failures.push(format!("{rel}: {e}"));
                continue;
            }
        };
        let d = distance(&sim, entry);
        let scale = numbers(&entry["ode2Coordinates"])
            .iter()
            .fold(1.0, |m: f64, x| m.max(x.abs()));
        let allowed = (MARGIN * exudyn).max(FLOOR * scale);
        let st = &sim.statistics();
        report += &format!(
            "{rel:60} accurate {d:8.1e} Exudyn {exudyn:8.1e} ({:5.2}) {:5} steps {:6} evaluations\n",
            d / exudyn,
            st.steps,
            st.evaluations
        );
        if d.is_nan() || d > allowed {
            failures.push(format!(
                "{rel}: the accurate mode is {d:e} from the converged solution, Exudyn {exudyn:e} (allowed {allowed:e})"
            ));
        }
    }
    println!("{report}");
    assert!(
        verified >= 100,
        "only {verified} verified converged solutions"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The error falls with the tolerance (fifth order and eighth order pairs), the run's own
/// estimate is not below the error it makes, and the constraints hold to a thousandth of the
/// tolerance after every step (the projection).
#[test]
fn error_follows_the_tolerance_on_the_chain() {
    let entries = converged();
    let entry = &entries["benchmarks/chain_10.json"];
    let path = format!("{REFERENCE}benchmarks/chain_10.json");
    let mut last = f64::INFINITY;
    for tolerance in [1e-4, 1e-6, 1e-8, 1e-10] {
        let sim = solve(&path, tolerance).expect("solves");
        let d = distance(&sim, entry);
        let st = &sim.statistics();
        assert!(
            d < last / 10.0,
            "tolerance {tolerance}: error {d:e} after {last:e}"
        );
        assert!(d < 100.0 * tolerance, "tolerance {tolerance}: error {d:e}");
        assert!(
            st.estimated_error >= d,
            "tolerance {tolerance}: estimated {:e}, error {d:e}",
            st.estimated_error
        );
        assert!(
            st.largest_constraint_residual <= 1e-3 * tolerance,
            "tolerance {tolerance}: constraints {:e}",
            st.largest_constraint_residual
        );
        assert!(st.evaluations > 6 * st.steps, "{st:?}");
        last = d;
    }
}

joint::joint! {
    /// The markers at `length` from each other.
    pub joint Rod {
        marker m0: Position;
        marker m1: Position;
        param length: scalar;
        axes [distance];
        position = [norm(m1.position - m0.position) - length];
    }
}

/// A point of mass `mass` on a rod of length 1 from the origin, at (1, 0, 0) with velocity
/// (0.5, 2, 0): half a metre per second across the rod's direction it cannot have.
fn rod_pendulum(mass: f64) -> (MultibodySystem, joint::runtime::NodeIndex) {
    let mut mbs = MultibodySystem::new();
    let ground = mbs.add_object(Object::ground());
    let node = mbs.add_node(Node::Point {
        name: String::new(),
        reference_coordinates: [1.0, 0.0, 0.0],
        initial_coordinates: [0.0; 3],
        initial_velocities: [0.5, 2.0, 0.0],
    });
    let point = mbs.add_object(Object::MassPoint {
        name: String::new(),
        mass,
        node,
    });
    let m0 = mbs.add_marker(Marker::body_position(ground, [0.0; 3]));
    let m1 = mbs.add_marker(Marker::body_position(point, [0.0; 3]));
    mbs.add_object(Object::joint::<Rod>(
        [m0, m1],
        rod::Parameters { length: 1.0 },
    ));
    (mbs, node)
}

fn accurate(tolerance: f64) -> SimulationSettings {
    SimulationSettings {
        solver_mode: SolverMode::Accurate,
        error_tolerance: tolerance,
        ..Default::default()
    }
}

/// A pendulum started with a velocity across its rod: the run projects it (M-orthogonally:
/// for a point mass, the radial part removed) before it starts, then keeps the uniform circular
/// motion without gravity.
#[test]
fn inconsistent_initial_velocities_are_projected() {
    let (mbs, node) = rod_pendulum(3.0);
    let mut sim = mbs.assemble().unwrap();
    sim.solve_dynamic(&accurate(1e-10)).unwrap();
    // 2 rad in the 1 s at 2 m/s on the unit circle
    let q = sim.node_output(node, OutputVariable::Position).unwrap();
    let angle = q[1].atan2(q[0]);
    assert!((angle - 2.0).abs() < 1e-8, "{angle}");
    assert!((q[0].hypot(q[1]) - 1.0).abs() < 1e-10, "{q:?}");
    let v = sim.node_output(node, OutputVariable::Velocity).unwrap();
    assert!((v[0].hypot(v[1]) - 2.0).abs() < 1e-9, "{v:?}");
}

/// Sensor rows at their write period although a step spans many of them: the state between
/// steps is the quintic Hermite interpolant of its ends, on the analytic circle to 1e-7, its
/// velocity tangent at 2 m/s; the step ends and the write times fall on one grid.
#[test]
fn sensor_rows_between_steps_are_interpolated() {
    let (mut mbs, node) = rod_pendulum(3.0);
    let mut sensor = Sensor::node(node, OutputVariable::Position);
    sensor.store_internal = true;
    let position = mbs.add_sensor(sensor);
    let mut sensor = Sensor::node(node, OutputVariable::Velocity);
    sensor.store_internal = true;
    let velocity = mbs.add_sensor(sensor);
    let mut sim = mbs.assemble().unwrap();
    let mut settings = accurate(1e-10);
    settings.solution.sensors_write_period = 0.01;
    sim.solve_dynamic(&settings).unwrap();
    assert!(sim.statistics().steps < 50, "{}", sim.statistics().steps);
    let rows = sim.sensor_rows(position).unwrap();
    assert_eq!(rows.len(), 101);
    for (k, row) in rows.into_iter().enumerate() {
        let t = row[0];
        assert!((t - k as f64 * 0.01).abs() < 1e-12, "row {k} at {t}");
        let (x, y) = ((2.0 * t).cos(), (2.0 * t).sin());
        assert!(
            (row[1] - x).abs() < 1e-7 && (row[2] - y).abs() < 1e-7,
            "{row:?}"
        );
    }
    for row in sim.sensor_rows(velocity).unwrap() {
        let t = row[0];
        let (vx, vy) = (-2.0 * (2.0 * t).sin(), 2.0 * (2.0 * t).cos());
        assert!(
            (row[1] - vx).abs() < 1e-6 && (row[2] - vy).abs() < 1e-6,
            "{row:?}"
        );
    }
}

/// Bad input: a tolerance out of range is refused naming the setting; a point without mass on
/// a rod makes the index-1 matrix singular, which fails naming the equation and leaves the
/// initial state.
#[test]
fn bad_input_is_named() {
    for bad in [0.0, -1.0, 1e-15, 2.0, f64::NAN] {
        let mut sim = rod_pendulum(1.0).0.assemble().unwrap();
        let err = sim.solve_dynamic(&accurate(bad)).unwrap_err();
        assert!(err.to_string().contains("error_tolerance"), "{err}");
    }
    let mut sim = rod_pendulum(0.0).0.assemble().unwrap();
    let q0 = sim.state().q.clone();
    let err = sim.solve_dynamic(&accurate(1e-6)).unwrap_err().to_string();
    assert!(
        err.contains("index-1 system") && err.contains("singular"),
        "{err}"
    );
    assert!(
        err.contains("nodes[0]") || err.contains("objects[2]"),
        "{err}"
    );
    assert_eq!(sim.state().q, q0);
    assert_eq!(sim.state().time, 0.0);
}

/// A step too long for the motion (perf3DRigidBodies at a tolerance of 1e-2: its first trial
/// steps reach stages where the index-1 system is singular, or the projection cannot reach the
/// constraints) is retried shorter, not the end of the run; the constraints still end tight.
#[test]
fn steps_whose_stages_fail_are_retried_shorter() {
    let sim = solve(
        &format!("{REFERENCE}benchmarks/perf3DRigidBodies.json"),
        1e-2,
    )
    .expect("a loose tolerance runs through");
    let st = &sim.statistics();
    assert!(st.rejected_automatic_steps > 0, "{st:?}");
    assert!(st.largest_constraint_residual < 1e-8, "{st:?}");
    assert!((sim.state().time - 1.0).abs() < 1e-12);
}
