//! The fast solver path (`SolverMode::Fast`, `jointsim run --solver fast`) is judged by accuracy:
//! on every dynamic model file of the test corpus and the benchmark models, its final
//! coordinates must be no further from the tightly converged solution of the same
//! discretization than Exudyn's own default run is, with a margin of 1.5.
//!
//! The tight solutions and Exudyn's distances come from pip Exudyn 1.13.6
//! (tools/reference/make_tight_references.py → tests/reference/tight_solutions.json): full
//! Newton with relative tolerance 1e-11 (or 1000 times tighter than the file asks).

use joint::runtime::model::{SolveKind, read_model};
use joint::runtime::{Simulation, SolverMode};
use serde_json::Value;

const REFERENCE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/reference/");

/// The margin over Exudyn's own distance that the issue allows.
const MARGIN: f64 = 1.5;

/// Below this × max(1, max |q|), a distance is the level at which the tight solution itself is
/// known (it is converged to a relative residual of 1e-11, and its last digits are round-off):
/// two cases (a linear superelement, a slider) have Exudyn within 1e-16 of it and the fast
/// path within 1e-14.
const FLOOR: f64 = 1e-12;

/// Model files the fast path does not solve, and why. Each is checked to still fail: a fix
/// shows up as a test failure that asks for the entry to be removed.
const EXCEPTIONS: &[(&str, &str)] = &[];

fn solve_fast(path: &str) -> Result<Simulation, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("reading {path}: {e}"))?;
    let mut model = read_model(&text).map_err(|e| e.to_string())?;
    assert_eq!(model.solve, SolveKind::Dynamic, "{path}: a dynamic model");
    model.settings.solver_mode = SolverMode::Fast;
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

#[test]
fn fast_path_is_as_close_to_the_converged_solution_as_exudyn() {
    let text = std::fs::read_to_string(format!("{REFERENCE}tight_solutions.json"))
        .expect("tests/reference/tight_solutions.json");
    let tight: serde_json::Map<String, Value> = serde_json::from_str(&text).expect("JSON");
    assert!(
        tight.len() >= 90,
        "the corpus has {} dynamic models",
        tight.len()
    );
    let mut failures = Vec::new();
    let mut report = String::new();
    for (rel, entry) in &tight {
        let path = format!("{REFERENCE}{rel}");
        if let Some(failed) = entry.get("tightFailed") {
            report += &format!("{rel:60} no tight solution ({failed})\n");
            continue;
        }
        let exception = EXCEPTIONS.iter().find(|(name, _)| name == rel);
        let sim = match (solve_fast(&path), exception) {
            (Err(_), Some(_)) => {
                report += &format!("{rel:60} fails, as listed\n");
                continue;
            }
            (Ok(_), Some((_, why))) => {
                failures.push(format!(
                    "{rel}: solves now; remove it from EXCEPTIONS ({why})"
                ));
                continue;
            }
            (Err(e), None) => {
                failures.push(format!("{rel}: {e}"));
                continue;
            }
            (Ok(sim), None) => sim,
        };
        // ODE2 and ODE1 coordinates together, as the tight solutions measure the distance
        let mut q_tight = numbers(&entry["ode2Coordinates"]);
        q_tight.extend(
            entry
                .get("ode1Coordinates")
                .map(numbers)
                .unwrap_or_default(),
        );
        let exudyn = entry["exudynDefaultDistance"].as_f64().expect("a number");
        let q: Vec<f64> = sim.state.q.iter().chain(&sim.state.y).copied().collect();
        assert_eq!(q.len(), q_tight.len(), "{rel}: coordinates");
        let distance = q
            .iter()
            .zip(&q_tight)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        let scale = q_tight.iter().fold(1.0, |m: f64, x| m.max(x.abs()));
        let allowed = (MARGIN * exudyn).max(FLOOR * scale);
        let st = &sim.statistics;
        // the ratio to Exudyn's distance (none where Exudyn's run is the tight solution)
        let ratio = if exudyn > 0.0 {
            format!("{:5.2}", distance / exudyn)
        } else {
            "    -".to_owned()
        };
        report += &format!(
            "{rel:60} fast {distance:8.1e} Exudyn {exudyn:8.1e} ({ratio}) {:6} iterations {:5} Jacobians\n",
            st.newton.iterations, st.newton.jacobians
        );
        if distance.is_nan() || distance > allowed {
            failures.push(format!(
                "{rel}: the fast path is {distance:e} from the tight solution, Exudyn {exudyn:e} (allowed {allowed:e})"
            ));
        }
    }
    println!("{report}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn exact_mode_is_the_default() {
    assert_eq!(
        joint::runtime::SimulationSettings::default().solver_mode,
        SolverMode::Exact
    );
}

/// A rigid body under gravity with a marker at its centre and one off it (the loads' tests).
fn body_under_gravity() -> (
    joint::runtime::MultibodySystem,
    joint::runtime::MarkerIndex,
    joint::runtime::MarkerIndex,
) {
    use joint::runtime::{Marker, MultibodySystem, RigidBodyInertia, RigidBodyOptions};
    let mut mbs = MultibodySystem::new();
    let mut o = RigidBodyOptions::new(RigidBodyInertia::cuboid(1000.0, [0.3, 0.1, 0.05]));
    o.gravity = [0.0, 0.0, -9.81];
    let body = mbs.create_rigid_body(&o);
    let centre = mbs.add_marker(Marker::body_rigid(body, [0.0; 3]));
    let off = mbs.add_marker(Marker::body_position(body, [0.15, 0.02, 0.0]));
    (mbs, centre, off)
}

/// The loads the fast residual takes from `Topology::constant_loads` (summed once) are those
/// whose generalized force does not depend on the state: evaluated at a turned, moved state
/// they give the bits of the sum; the others are evaluated at every residual.
#[test]
fn constant_loads_do_not_depend_on_the_state() {
    use joint::runtime::Load;
    use joint::runtime::physics::{RhsForm, Scratch};
    let (mut mbs, centre, off) = body_under_gravity();
    let force = |marker, body_fixed| Load::ForceVector {
        name: String::new(),
        marker,
        load_vector: [1.0, -2.0, 3.0],
        body_fixed,
    };
    mbs.add_load(force(centre, false)); // constant: J_pos = [I | 0]
    mbs.add_load(force(off, false)); // −A·skew(b)·G depends on θ
    mbs.add_load(force(centre, true)); // turns with the body
    mbs.add_load(Load::TorqueVector {
        name: String::new(),
        marker: centre,
        load_vector: [0.5, 0.0, 0.0],
        body_fixed: false,
    });
    let sim = mbs.assemble().expect("assembles");
    let topo = &sim.topology;
    // gravity (a BodyMass marker at the centre of mass) comes first
    let constant: Vec<bool> = topo.loads.iter().map(|l| l.constant).collect();
    assert_eq!(constant, [true, true, false, false, false]);
    let n = topo.n_ode2;
    let mut qt = topo.reference.clone();
    // moved and turned: θ of a unit quaternion away from the reference
    let theta = [0.8f64, 0.1, -0.5, 0.3];
    let norm = theta.iter().map(|x| x * x).sum::<f64>().sqrt();
    qt[0] += 0.4;
    for (i, t) in theta.iter().enumerate() {
        qt[3 + i] = t / norm;
    }
    let v = vec![0.3; n];
    let mut scratch = Scratch::for_topology(topo);
    let mut at_state = vec![0.0; n];
    for l in topo.loads.iter().filter(|l| l.constant) {
        topo.add_load(
            l.load,
            &qt,
            &v,
            1.0,
            &mut at_state,
            &mut scratch,
            RhsForm::Fast,
        );
    }
    assert_eq!(at_state, topo.constant_loads);
    assert!(topo.constant_loads.iter().any(|x| *x != 0.0));
    // a load left out does depend on the state
    let mut turned = vec![0.0; n];
    let mut reference = vec![0.0; n];
    topo.add_load(2, &qt, &v, 1.0, &mut turned, &mut scratch, RhsForm::Fast);
    topo.add_load(
        2,
        &topo.reference,
        &v,
        1.0,
        &mut reference,
        &mut scratch,
        RhsForm::Fast,
    );
    assert_ne!(turned, reference);
}

/// The exact residual adds a constant load's force formed once (`LoadTopology::exact_force`)
/// instead of forming it at every residual: in every state the load rows come out bit for
/// bit as forming each load there gives them (±0 included), so the exact mode's results do
/// not change.
#[test]
fn exact_loads_formed_once_are_the_bits_formed_in_every_state() {
    use joint::runtime::Load;
    use joint::runtime::physics::{RhsForm, Scratch};
    let (mut mbs, centre, off) = body_under_gravity();
    mbs.add_load(Load::ForceVector {
        name: String::new(),
        marker: centre,
        load_vector: [1.0, -2.0, 0.0],
        body_fixed: false,
    });
    mbs.add_load(Load::ForceVector {
        name: String::new(),
        marker: off,
        load_vector: [0.0, 0.5, 3.0],
        body_fixed: false,
    });
    let sim = mbs.assemble().expect("assembles");
    let topo = &sim.topology;
    // gravity and the force at the centre are formed once, the force off the centre is not
    let formed_once: Vec<bool> = topo
        .loads
        .iter()
        .map(|l| !l.exact_force.is_empty())
        .collect();
    assert_eq!(formed_once, [true, true, false]);
    let n = topo.n_ode2;
    let mut scratch = Scratch::for_topology(topo);
    for (k, theta) in [
        [0.8f64, 0.1, -0.5, 0.3],
        [-0.2, 0.9, 0.3, -0.1],
        [1.0, 0.0, 0.0, 0.0],
    ]
    .iter()
    .enumerate()
    {
        let mut qt = topo.reference.clone();
        let norm = theta.iter().map(|x| x * x).sum::<f64>().sqrt();
        qt[0] += 0.4 * k as f64;
        qt[2] -= 1.3;
        for (i, t) in theta.iter().enumerate() {
            qt[3 + i] = t / norm;
        }
        let v: Vec<f64> = (0..n).map(|i| 0.3 - 0.1 * i as f64).collect();
        for load_factor in [1.0, 0.5] {
            let mut summed = vec![0.0; n];
            topo.add_loads(
                &qt,
                &v,
                load_factor,
                &mut summed,
                &mut scratch,
                RhsForm::Exudyn,
            );
            let mut formed = vec![0.0; n];
            for l in &topo.loads {
                topo.add_load(
                    l.load,
                    &qt,
                    &v,
                    load_factor,
                    &mut formed,
                    &mut scratch,
                    RhsForm::Exudyn,
                );
            }
            let bits = |x: &[f64]| x.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(
                bits(&summed),
                bits(&formed),
                "state {k}, load factor {load_factor}"
            );
        }
    }
}
