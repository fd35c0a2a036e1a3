//! The reference cases of tests/reference/exudyn_cases (NAME.json model, NAME.ref.json pip
//! Exudyn 1.13.6's results): read the model, assemble, solve as the file asks, compare the final
//! state and every stored sensor row with Exudyn's.

use std::fmt::Write as _;

use joint::runtime::model::{SolveKind, read_model, result_json};
use joint::runtime::settings::DynamicSolverType;
use serde_json::Value;

mod cases;
mod constraint_tolerance;
mod explicit_and_lie_group_cases;
mod joint_cases;
mod superelement_and_tree_cases;

// The modules' items, for each other (modules holding only tests add none).
#[allow(unused_imports)]
use {
    cases::*, constraint_tolerance::*, explicit_and_lie_group_cases::*, joint_cases::*,
    superelement_and_tree_cases::*,
};

/// The cases exported by Exudyn's maintainers' seed (../shared/reference/cases, copied).
const CASES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/reference/exudyn_cases/");
/// Our own corpus, made by tools/reference/make_spherical_cases.py with pip Exudyn 1.13.6.
const OWN_CASES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/reference/own_cases/");

/// Relative tolerances, each applied as `tol·max(1, |ref|)`.
const TOL_ODE2: f64 = 1e-8;
const TOL_VELOCITY: f64 = 1e-6;
const TOL_AE: f64 = 1e-5;
const TOL_SENSOR_TIME: f64 = 1e-9;
const TOL_SENSOR: f64 = 1e-6;
const TOL_SENSOR_FORCE: f64 = 1e-4;

/// Collects mismatches and the largest scaled error per quantity.
struct Comparison {
    case: &'static str,
    /// Tolerance of the λ-derived sensors (Force, ForceLocal, TorqueLocal).
    lambda_tol: f64,
    /// Absolute tolerance of the sensors' time stamps.
    sensor_time_tol: f64,
    /// A lower bound of every sensor value's tolerance (0: the defaults).
    sensor_tol_floor: f64,
    failures: Vec<String>,
    /// (quantity, largest |x − ref| / max(1, |ref|), where).
    largest: Vec<(&'static str, f64, String)>,
}

impl Comparison {
    fn new(case: &'static str) -> Self {
        Comparison {
            case,
            lambda_tol: f64::NAN,
            sensor_time_tol: TOL_SENSOR_TIME,
            sensor_tol_floor: 0.0,
            failures: Vec::new(),
            largest: Vec::new(),
        }
    }

    fn fail(&mut self, message: String) {
        self.failures.push(format!("{}: {message}", self.case));
    }

    /// Remember `err` as a candidate for the largest error of `quantity`.
    fn record(&mut self, quantity: &'static str, entry: &str, err: f64) {
        let err = if err.is_nan() { f64::INFINITY } else { err };
        match self.largest.iter_mut().find(|(q, _, _)| *q == quantity) {
            Some(l) if err > l.1 => *l = (quantity, err, entry.to_owned()),
            Some(_) => {}
            None => self.largest.push((quantity, err, entry.to_owned())),
        }
    }

    /// Compare with tolerance `tol·max(1, |ref|)`.
    fn value(&mut self, quantity: &'static str, entry: &str, x: f64, reference: f64, tol: f64) {
        let scaled = (x - reference).abs() / reference.abs().max(1.0);
        self.record(quantity, entry, scaled);
        if scaled.is_nan() || scaled > tol {
            self.fail(format!(
                "{entry} = {x:e}, Exudyn {reference:e} (error {:e}, tolerance {tol:e}·max(1,|ref|))",
                x - reference
            ));
        }
    }

    fn vector(&mut self, quantity: &'static str, ours: &Value, reference: &Value, tol: f64) {
        let (Some(a), Some(b)) = (numbers(ours), numbers(reference)) else {
            self.fail(format!(
                "{quantity}: not an array of numbers (ours {ours}, Exudyn {reference})"
            ));
            return;
        };
        if a.len() != b.len() {
            self.fail(format!(
                "{quantity}: length {}, Exudyn {}",
                a.len(),
                b.len()
            ));
            return;
        }
        for (i, (x, r)) in a.iter().zip(&b).enumerate() {
            let name = quantity.split(' ').next().unwrap_or(quantity);
            self.value(quantity, &format!("{name}[{i}]"), *x, *r, tol);
        }
    }

    fn sensors(&mut self, ours: &Value, reference: &Value) {
        let (Some(ours), Some(reference)) = (ours.as_array(), reference.as_array()) else {
            self.fail("sensors: not an array".to_owned());
            return;
        };
        if ours.len() != reference.len() {
            self.fail(format!(
                "sensors: {} sensors, Exudyn {}",
                ours.len(),
                reference.len()
            ));
            return;
        }
        for (s, (o, r)) in ours.iter().zip(reference).enumerate() {
            let output = r["outputVariableType"].as_str().unwrap_or("?");
            if o["outputVariableType"] != r["outputVariableType"] {
                self.fail(format!(
                    "sensors[{s}]: outputVariableType {}, Exudyn {}",
                    o["outputVariableType"], r["outputVariableType"]
                ));
            }
            let from_lambda = matches!(output, "Force" | "ForceLocal" | "TorqueLocal");
            let tol = if output == "Force" {
                TOL_SENSOR_FORCE
            } else {
                TOL_SENSOR
            }
            .max(self.sensor_tol_floor);
            // a case may widen the λ tolerance (never narrow the defaults' meaning)
            let tol = if from_lambda && self.lambda_tol.is_finite() {
                tol.max(self.lambda_tol)
            } else {
                tol
            };
            let quantity: &'static str = if output == "Force" {
                "sensor values (Force)"
            } else {
                "sensor values"
            };
            let (Some(rows), Some(ref_rows)) = (o["values"].as_array(), r["values"].as_array())
            else {
                self.fail(format!("sensors[{s}]: values are not arrays"));
                continue;
            };
            if rows.len() != ref_rows.len() {
                self.fail(format!(
                    "sensors[{s}] ({output}): {} rows, Exudyn {}",
                    rows.len(),
                    ref_rows.len()
                ));
                continue;
            }
            for (k, (row, ref_row)) in rows.iter().zip(ref_rows).enumerate() {
                let (Some(row), Some(ref_row)) = (numbers(row), numbers(ref_row)) else {
                    self.fail(format!("sensors[{s}].values[{k}]: not an array of numbers"));
                    continue;
                };
                if row.len() != ref_row.len() {
                    self.fail(format!(
                        "sensors[{s}].values[{k}]: {} columns, Exudyn {}",
                        row.len(),
                        ref_row.len()
                    ));
                    continue;
                }
                // time stamp: absolute tolerance
                let dt = (row[0] - ref_row[0]).abs();
                self.record(
                    "sensor time (absolute)",
                    &format!("sensors[{s}].values[{k}][0]"),
                    dt,
                );
                if dt.is_nan() || dt > self.sensor_time_tol {
                    self.fail(format!(
                        "sensors[{s}].values[{k}][0] (time) = {}, Exudyn {}",
                        row[0], ref_row[0]
                    ));
                }
                for c in 1..row.len() {
                    // Rotation angles at ±π lie on atan2's branch cut, where a zero's sign
                    // (±0 from round-off) picks the side: compare angles modulo 2π.
                    let ours = if output == "Rotation" {
                        use std::f64::consts::{PI, TAU};
                        let d = (row[c] - ref_row[c] + PI).rem_euclid(TAU) - PI;
                        ref_row[c] + d
                    } else {
                        row[c]
                    };
                    self.value(
                        quantity,
                        &format!(
                            "sensors[{s}] ({output}).values[{k}][{c}] at t = {}",
                            ref_row[0]
                        ),
                        ours,
                        ref_row[c],
                        tol,
                    );
                }
            }
        }
    }

    fn summary(&self) -> String {
        let mut s = format!(
            "{}: largest errors (|x − ref| / max(1, |ref|), time absolute):",
            self.case
        );
        for (q, e, at) in &self.largest {
            let _ = write!(s, "\n  {q}: {e:.3e} at {at}");
        }
        s
    }

    fn finish(self) {
        eprintln!("{}", self.summary());
        if !self.failures.is_empty() {
            let n = self.failures.len();
            let shown: Vec<&str> = self.failures.iter().take(20).map(String::as_str).collect();
            panic!(
                "{n} mismatch(es) against Exudyn:\n{}{}\n{}",
                shown.join("\n"),
                if n > 20 {
                    format!("\n… and {} more", n - 20)
                } else {
                    String::new()
                },
                self.summary()
            );
        }
    }
}

fn numbers(v: &Value) -> Option<Vec<f64>> {
    v.as_array()?.iter().map(Value::as_f64).collect()
}

fn run_case(case: &'static str) {
    run_case_in(CASES, case);
}

fn run_case_in(dir: &str, case: &'static str) {
    run_case_with_slack(dir, case, 0);
}

/// `iteration_slack`: how far the Newton iteration count may differ from Exudyn's (a
/// round-off flip of res/r0 around relTol can add or save one iteration, spec/solver.md §8.2).
fn run_case_with_slack(dir: &str, case: &'static str, iteration_slack: u64) {
    run_case_with_tolerances(dir, case, iteration_slack, 0, f64::NAN);
}

/// `run_case_in` for an explicit solver's case: no Newton, so the steps taken and, with error
/// control, the steps rejected must be Exudyn's.
///
/// An embedded pair's error estimate is the difference of two solutions that agree to ~1e-10,
/// so its last digits are round-off, and the step sizes it proposes follow Exudyn's to ~1e-8
/// relative only (the mass matrix solve's rounding differs: Exudyn multiplies by an explicit
/// inverse), and rejections amplify that: after a few hundred steps the step times are up to
/// ~3e-5 apart (ODE23 with automaticStepSize off). The steps and rejections counted and the
/// final state (at the same end time) are still compared at the usual tolerances; the sensor
/// rows, sampled at those step times, only to 1e-4 in time and 1e-2 in value.
fn run_explicit_case(case: &'static str) {
    let reference: Value = serde_json::from_str(
        &std::fs::read_to_string(format!("{OWN_CASES}{case}.ref.json"))
            .unwrap_or_else(|e| panic!("{case}: cannot read the reference: {e}")),
    )
    .unwrap_or_else(|e| panic!("{case}: reference: {e}"));
    let model = read_model(
        &std::fs::read_to_string(format!("{OWN_CASES}{case}.json"))
            .unwrap_or_else(|e| panic!("{case}: cannot read the model: {e}")),
    )
    .unwrap_or_else(|e| panic!("{case}: reading the model: {e}"));
    assert!(
        model.settings.time_integration.solver_type.is_explicit(),
        "{case}: not an explicit solver's case"
    );
    let mut sim = model.mbs.assemble().unwrap();
    sim.solve_dynamic(&model.settings)
        .unwrap_or_else(|e| panic!("{case}: {e}"));
    let ours = result_json(&sim);
    for key in ["steps", "rejectedAutomaticStepSizeSteps"] {
        let (a, b) = (
            ours["statistics"][key].as_u64(),
            reference["statistics"][key].as_u64(),
        );
        assert!(
            matches!((a, b), (Some(a), Some(b)) if a == b),
            "{case}: statistics.{key} = {a:?}, Exudyn {b:?}"
        );
    }
    let controlled = matches!(
        model.settings.time_integration.solver_type,
        DynamicSolverType::ODE23 | DynamicSolverType::DOPRI5
    );
    let sampling = if controlled {
        (1e-4, 1e-2)
    } else {
        (TOL_SENSOR_TIME, 0.0)
    };
    run_case_full(OWN_CASES, case, 0, 0, f64::NAN, sampling);
}

/// `run_case_in` with slack on the Newton iteration and Jacobian counts and a wider tolerance
/// for λ-derived sensors, for cases whose reference is only as converged as Exudyn's default
/// Newton tolerances make it (each use says how that was measured).
fn run_case_with_tolerances(
    dir: &str,
    case: &'static str,
    iteration_slack: u64,
    jacobian_slack: u64,
    lambda_tol: f64,
) {
    run_case_full(
        dir,
        case,
        iteration_slack,
        jacobian_slack,
        lambda_tol,
        (TOL_SENSOR_TIME, 0.0),
    );
}

fn run_case_full(
    dir: &str,
    case: &'static str,
    iteration_slack: u64,
    jacobian_slack: u64,
    lambda_tol: f64,
    (sensor_time_tol, sensor_tol_floor): (f64, f64),
) {
    let model_text = std::fs::read_to_string(format!("{dir}{case}.json"))
        .unwrap_or_else(|e| panic!("{case}: cannot read the model: {e}"));
    let ref_text = std::fs::read_to_string(format!("{dir}{case}.ref.json"))
        .unwrap_or_else(|e| panic!("{case}: cannot read the reference: {e}"));
    let reference: Value =
        serde_json::from_str(&ref_text).unwrap_or_else(|e| panic!("{case}: reference: {e}"));

    let model =
        read_model(&model_text).unwrap_or_else(|e| panic!("{case}: reading the model: {e}"));
    let mut sim = model
        .mbs
        .assemble()
        .unwrap_or_else(|e| panic!("{case}: assemble: {e}"));
    match model.solve {
        SolveKind::Dynamic => sim.solve_dynamic(&model.settings),
        SolveKind::Static => sim.solve_static(&model.settings),
    }
    .unwrap_or_else(|e| panic!("{case}: {:?} solve: {e}", model.solve));
    let ours = result_json(&sim);

    let mut c = Comparison::new(case);
    c.lambda_tol = lambda_tol;
    c.sensor_time_tol = sensor_time_tol;
    c.sensor_tol_floor = sensor_tol_floor;
    c.vector(
        "ode2Coordinates",
        &ours["ode2Coordinates"],
        &reference["ode2Coordinates"],
        TOL_ODE2,
    );
    c.vector(
        "ode2Velocities",
        &ours["ode2Velocities"],
        &reference["ode2Velocities"],
        TOL_VELOCITY,
    );
    // the AE coordinates are the multipliers λ: a case's λ tolerance widens them too
    let ae_tol = if lambda_tol.is_finite() {
        TOL_AE.max(lambda_tol)
    } else {
        TOL_AE
    };
    c.vector(
        "aeCoordinates",
        &ours["aeCoordinates"],
        &reference["aeCoordinates"],
        ae_tol,
    );
    if reference.get("ode1Coordinates").is_some() {
        c.vector(
            "ode1Coordinates",
            &ours["ode1Coordinates"],
            &reference["ode1Coordinates"],
            TOL_ODE2,
        );
        c.vector(
            "ode1Velocities",
            &ours["ode1Velocities"],
            &reference["ode1Velocities"],
            TOL_VELOCITY,
        );
    }
    c.sensors(&ours["sensors"], &reference["sensors"]);
    // Accelerations have no tolerance of their own; their largest error is only reported.
    c.vector(
        "ode2Accelerations (reported only)",
        &ours["ode2Accelerations"],
        &reference["ode2Accelerations"],
        f64::INFINITY,
    );
    eprintln!(
        "{case}: statistics {} (Exudyn {})",
        ours["statistics"], reference["statistics"]
    );
    // Exudyn's Newton path: iteration, Jacobian and rejection counts must be Exudyn's.
    let count = |v: &Value, key: &str| v["statistics"][key].as_u64();
    for (key, slack) in [
        ("newtonIterations", iteration_slack),
        ("jacobianEvaluations", jacobian_slack),
        ("rejectedModifiedNewtonSteps", 0),
    ] {
        match (count(&ours, key), count(&reference, key)) {
            (Some(a), Some(b)) if a.abs_diff(b) <= slack => {}
            (a, b) => c.fail(format!("statistics.{key} = {a:?}, Exudyn {b:?}")),
        }
    }
    c.finish();
}
