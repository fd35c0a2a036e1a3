//! The `jointsim` program: results equal the library's, bad model files fail cleanly (a message
//! naming the item and key, a non-zero exit code that is not a panic, no result file left).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const JOINTSIM: &str = env!("CARGO_BIN_EXE_jointsim");
const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

fn jointsim(args: &[&str]) -> Output {
    Command::new(JOINTSIM)
        .args(args)
        .output()
        .expect("jointsim starts")
}

/// A fresh, empty folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("jointsim-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn entries(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

#[test]
fn run_writes_the_result_file_and_csvs() {
    let dir = scratch("run");
    let model = format!("{ROOT}/tests/reference/exudyn_cases/seed_mini_pendulum.json");
    let out = dir.join("result.json");
    let csv = dir.join("csv");
    let o = jointsim(&[
        "run",
        &model,
        "--out",
        out.to_str().unwrap(),
        "--csv",
        csv.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        o.stdout.is_empty() && o.stderr.is_empty(),
        "--quiet and --out print nothing"
    );
    let result: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let z = result["ode2Coordinates"][2].as_f64().unwrap();
    assert!((z - -0.003_786_192_183_655_731).abs() < 1e-10, "z = {z}");
    assert_eq!(result["statistics"]["newtonIterations"], 6669);
    assert_eq!(
        entries(&dir),
        ["csv", "result.json"],
        "no temporary files left"
    );
    assert_eq!(entries(&csv), ["sensor0.csv", "sensor1.csv"]);
    let text = std::fs::read_to_string(csv.join("sensor1.csv")).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("time,Force[0],Force[1],Force[2]"));
    assert_eq!(lines.count(), 101, "rows at t = 0, 0.01, …, 1");
}

#[test]
fn run_without_out_prints_the_result_on_stdout() {
    let model = format!("{ROOT}/tests/reference/exudyn_cases/static_spring_hang.json");
    let o = jointsim(&["run", &model]);
    assert!(o.status.success());
    let result: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(result["statistics"]["steps"], 5);
    assert!(String::from_utf8_lossy(&o.stderr).contains("Newton iterations"));
}

#[test]
fn check_summarizes_items_equations_and_kernels() {
    let model = format!("{ROOT}/tests/reference/exudyn_cases/sphericalJointTest.json");
    let o = jointsim(&["check", &model]);
    assert!(o.status.success());
    let text = String::from_utf8_lossy(&o.stdout);
    for part in [
        "4 nodes (RigidBodyEP 4)",
        "28 ODE2, 16 AE",
        "4 Euler-parameter constraints, 12 joint rows (1 free or inactive)",
        "spherical::ground_point_to_node_ep: objects[2]",
        "spherical::rigid_ep_point_to_rigid_ep_point: objects[4], objects[6], objects[8]",
        "generalized-α (spectralRadius = 0.6)",
    ] {
        assert!(text.contains(part), "summary lacks `{part}`:\n{text}");
    }
}

/// A joint written at velocity level shows as such (a rolling disc on a turning table).
#[test]
fn check_counts_rows_at_velocity_level() {
    let model = format!("{ROOT}/tests/reference/own_cases/rolling_disc_turntable.json");
    let o = jointsim(&["check", &model]);
    assert!(o.status.success());
    let text = String::from_utf8_lossy(&o.stdout);
    for part in [
        "8 joint rows (0 free or inactive, 3 at velocity level only)",
        "rolling_disc::rigid_ep_point_to_rigid_rxyz_point: objects[4]",
    ] {
        assert!(text.contains(part), "summary lacks `{part}`:\n{text}");
    }
}

#[test]
fn bad_model_files_fail_with_a_message_naming_item_and_key_and_leave_nothing() {
    let bad = format!("{ROOT}/jointsim/tests/bad_models");
    let expected: serde_json::Map<String, serde_json::Value> = serde_json::from_str(
        &std::fs::read_to_string(format!("{bad}/expected_messages.json")).unwrap(),
    )
    .unwrap();
    assert!(expected.len() >= 15);
    for (name, parts) in &expected {
        let dir = scratch(&format!("bad-{name}"));
        let out = dir.join("result.json");
        let model = format!("{bad}/{name}.json");
        for command in [
            vec![
                "run",
                &model,
                "--out",
                out.to_str().unwrap(),
                "--csv",
                dir.to_str().unwrap(),
            ],
            vec!["check", &model],
        ] {
            let o = jointsim(&command);
            let stderr = String::from_utf8_lossy(&o.stderr);
            let code = o.status.code();
            assert!(
                matches!(code, Some(1) | Some(3)),
                "{name}: {command:?} exit code {code:?}, stderr {stderr}"
            );
            assert!(!stderr.contains("panicked"), "{name}: {stderr}");
            for p in parts.as_array().unwrap() {
                let p = p.as_str().unwrap();
                assert!(
                    stderr.contains(p),
                    "{name}: message `{stderr}` does not mention `{p}`"
                );
            }
            if command[0] == "run" {
                assert!(
                    entries(&dir).is_empty(),
                    "{name}: files left behind: {:?}",
                    entries(&dir)
                );
            }
        }
    }
}

#[test]
fn unreadable_model_is_an_input_output_error() {
    let o = jointsim(&["run", "/nonexistent/model.json"]);
    assert_eq!(o.status.code(), Some(4));
    assert!(String::from_utf8_lossy(&o.stderr).contains("cannot read /nonexistent/model.json"));
}

#[test]
fn run_solver_fast_takes_its_own_newton_path_to_the_same_motion() {
    let model = format!("{ROOT}/tests/reference/exudyn_cases/seed_mini_pendulum.json");
    let result = |mode: &str| -> serde_json::Value {
        let o = jointsim(&["run", &model, "--quiet", "--solver", mode]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        serde_json::from_slice(&o.stdout).unwrap()
    };
    let (exact, fast) = (result("exact"), result("fast"));
    assert_eq!(
        exact["statistics"]["newtonIterations"], 6669,
        "Exudyn's count"
    );
    let iterations = fast["statistics"]["newtonIterations"].as_u64().unwrap();
    assert!(
        iterations < 4000,
        "the fast path iterates less: {iterations}"
    );
    let q = |r: &serde_json::Value| -> Vec<f64> {
        r["ode2Coordinates"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect()
    };
    // Exudyn's default run is 1.8e-9 from the converged solution (tests/fast_solver.rs)
    for (a, b) in q(&exact).iter().zip(&q(&fast)) {
        assert!((a - b).abs() < 1e-8, "{a} vs {b}");
    }
}

#[test]
fn run_refuses_an_unknown_solver_mode() {
    let model = format!("{ROOT}/tests/reference/exudyn_cases/seed_mini_pendulum.json");
    let o = jointsim(&["run", &model, "--solver", "quick"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("'quick'") && err.contains("exact") && err.contains("fast"),
        "{err}"
    );
}

/// `--solver accurate --tolerance`: the seed pendulum within the tolerance's reach of the
/// converged solution (tests/reference/converged_solutions.json), its evaluations and estimated
/// error in the result file; `--repeat 3` the same result; bad values refused by name.
#[test]
fn run_solver_accurate_reaches_the_converged_solution() {
    let model = format!("{ROOT}/tests/reference/exudyn_cases/seed_mini_pendulum.json");
    let converged: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(format!("{ROOT}/tests/reference/converged_solutions.json"))
            .unwrap(),
    )
    .unwrap();
    let truth = &converged["exudyn_cases/seed_mini_pendulum.json"]["ode2Coordinates"];
    let run = |extra: &[&str]| -> serde_json::Value {
        let mut args = vec!["run", &model, "--quiet", "--solver", "accurate"];
        args.extend_from_slice(extra);
        let o = jointsim(&args);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        serde_json::from_slice(&o.stdout).unwrap()
    };
    let error = |r: &serde_json::Value| -> f64 {
        let q = r["ode2Coordinates"].as_array().unwrap();
        q.iter()
            .zip(truth.as_array().unwrap())
            .map(|(a, b)| (a.as_f64().unwrap() - b.as_f64().unwrap()).abs())
            .fold(0.0, f64::max)
    };
    let loose = run(&["--tolerance", "1e-4"]);
    let tight = run(&["--tolerance", "1e-9"]);
    let (e_loose, e_tight) = (error(&loose), error(&tight));
    assert!(
        e_tight < 1e-8 && e_tight < e_loose / 100.0,
        "{e_loose:e} {e_tight:e}"
    );
    let st = &tight["statistics"];
    assert!(st["evaluations"].as_u64().unwrap() > 12 * st["steps"].as_u64().unwrap() / 2);
    assert!(st["estimatedError"].as_f64().unwrap() >= e_tight);
    let repeated = run(&["--tolerance", "1e-9", "--repeat", "3"]);
    assert_eq!(repeated["ode2Coordinates"], tight["ode2Coordinates"]);
    for (flag, value, says) in [
        ("--tolerance", "0", "error_tolerance"),
        ("--repeat", "0", "--repeat"),
    ] {
        let o = jointsim(&[
            "run", &model, "--quiet", "--solver", "accurate", flag, value,
        ]);
        assert!(!o.status.success());
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(says), "{err}");
    }
}
