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

const REFERENCE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/reference/");

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
        let q: Vec<f64> = sim
            .state()
            .q
            .iter()
            .chain(&sim.state().y)
            .copied()
            .collect();
        assert_eq!(q.len(), q_tight.len(), "{rel}: coordinates");
        let distance = q
            .iter()
            .zip(&q_tight)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        let scale = q_tight.iter().fold(1.0, |m: f64, x| m.max(x.abs()));
        let allowed = (MARGIN * exudyn).max(FLOOR * scale);
        let st = &sim.statistics();
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
