//! `jointsim sweep`: each result equals `jointsim run` on the model edited by hand, the results
//! do not depend on `--jobs`, `--index K` runs entry K alone, and bad overrides fail before
//! anything runs, with a message naming the entry and the path, leaving nothing behind.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const JOINTSIM: &str = env!("CARGO_BIN_EXE_jointsim");
const MODEL: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../tests/reference/exudyn_cases/seed_mini_pendulum.json"
);

/// Three runs: a heavier body; a light one for half the time; a weaker gravity.
const OVERRIDES: &str = r#"[
  {"/objects/1/mass": 12.5},
  {"/objects/1/mass": 2.0, "/simulationSettings/timeIntegration/endTime": 0.5},
  {"/loads/0/loadVector": [0.0, 0.0, -3.7]}
]"#;

/// The same three models, edited by hand: (text in the model file, its replacement).
const BY_HAND: [&[(&str, &str)]; 3] = [
    &[(r#""mass":10.0"#, r#""mass":12.5"#)],
    &[
        (r#""mass":10.0"#, r#""mass":2.0"#),
        (r#""endTime": 1.0"#, r#""endTime": 0.5"#),
    ],
    &[(
        r#""loadVector":[0.0,0.0,-9.81]"#,
        r#""loadVector":[0.0, 0.0, -3.7]"#,
    )],
];

fn jointsim(args: &[&str]) -> Output {
    Command::new(JOINTSIM)
        .args(args)
        .output()
        .expect("jointsim starts")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A fresh, empty folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("jointsim-sweep-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn entries(dir: &Path) -> Vec<String> {
    let Ok(read) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut v: Vec<String> = read
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_owned()
}

fn result_file(i: usize) -> String {
    format!("seed_mini_pendulum.override-{i:04}.json")
}

/// A result file's text without the one line that is a wall-clock time.
fn without_timing(path: &Path) -> String {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .filter(|l| !l.contains("\"solverSeconds\""))
        .collect::<Vec<_>>()
        .join("\n")
}

fn sweep(dir: &Path, overrides: &str, extra: &[&str]) -> Output {
    let overrides = write(dir, "overrides.json", overrides);
    let out = dir.join("results");
    let mut args = vec![
        "sweep",
        MODEL,
        &overrides,
        "--out-dir",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    jointsim(&args)
}

#[test]
fn each_result_equals_run_on_the_model_edited_by_hand() {
    let dir = scratch("equal");
    let o = sweep(&dir, OVERRIDES, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let table = String::from_utf8_lossy(&o.stdout);
    assert!(table.contains("Newton it."), "{table}");
    assert!(table.contains("3 of 3 ok, 0 failed"), "{table}");
    let results = dir.join("results");
    assert_eq!(
        entries(&results),
        (0..3).map(result_file).collect::<Vec<_>>()
    );

    let original = std::fs::read_to_string(MODEL).unwrap();
    let mut finals = Vec::new();
    for (i, edits) in BY_HAND.iter().enumerate() {
        let mut text = original.clone();
        for (from, to) in *edits {
            assert_eq!(
                text.matches(from).count(),
                1,
                "`{from}` is unique in the model"
            );
            text = text.replace(from, to);
        }
        let model = write(&dir, &format!("by_hand_{i}.json"), &text);
        let out = dir.join(format!("by_hand_{i}.result.json"));
        let o = jointsim(&["run", &model, "--out", out.to_str().unwrap(), "--quiet"]);
        assert!(o.status.success(), "{}", stderr(&o));

        let swept = results.join(result_file(i));
        assert_eq!(without_timing(&swept), without_timing(&out), "override {i}");
        let value = |p: &Path| -> serde_json::Value {
            serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
        };
        let bits = |v: &serde_json::Value| -> Vec<u64> {
            v["ode2Coordinates"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_f64().unwrap().to_bits())
                .collect()
        };
        let (a, b) = (value(&swept), value(&out));
        assert_eq!(
            bits(&a),
            bits(&b),
            "override {i}: final coordinates bit for bit"
        );
        finals.push(bits(&a));
    }
    assert!(
        finals[0] != finals[1] && finals[1] != finals[2] && finals[0] != finals[2],
        "the overrides change the results"
    );
}

#[test]
fn one_job_and_two_jobs_write_identical_files() {
    let one = scratch("jobs1");
    let two = scratch("jobs2");
    let o = sweep(&one, OVERRIDES, &["--jobs", "1", "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        o.stdout.is_empty() && o.stderr.is_empty(),
        "--quiet prints nothing"
    );
    let o = sweep(&two, OVERRIDES, &["--jobs", "2", "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let names = entries(&one.join("results"));
    assert_eq!(names, entries(&two.join("results")));
    assert_eq!(names.len(), 3);
    for name in &names {
        assert_eq!(
            without_timing(&one.join("results").join(name)),
            without_timing(&two.join("results").join(name)),
            "{name}"
        );
    }
}

#[test]
fn index_runs_only_that_entry_and_writes_what_the_whole_sweep_writes() {
    let all = scratch("index-all");
    let one = scratch("index-one");
    assert!(sweep(&all, OVERRIDES, &["--quiet"]).status.success());
    let o = sweep(&one, OVERRIDES, &["--index", "1", "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(entries(&one.join("results")), [result_file(1)]);
    assert_eq!(
        without_timing(&one.join("results").join(result_file(1))),
        without_timing(&all.join("results").join(result_file(1)))
    );

    let o = sweep(&one, OVERRIDES, &["--index", "3"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("3 is out of range, the overrides file has 3 entries"));
}

#[test]
fn check_validates_and_runs_nothing() {
    let dir = scratch("check");
    let o = sweep(&dir, OVERRIDES, &["--check"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("3 of 3 overrides"));
    assert!(entries(&dir.join("results")).is_empty());
}

/// Runs a sweep that must fail before running anything; returns its standard error.
fn fails_before_running(name: &str, overrides: &str) -> String {
    let dir = scratch(name);
    let o = sweep(&dir, overrides, &[]);
    let message = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{name}: {message}");
    assert!(!message.contains("panicked"), "{name}: {message}");
    assert!(o.stdout.is_empty(), "{name}: no table");
    assert!(
        entries(&dir.join("results")).is_empty(),
        "{name}: files left behind"
    );
    assert_eq!(
        entries(&dir),
        ["overrides.json"],
        "{name}: files left behind"
    );
    message
}

#[test]
fn a_path_that_is_not_in_the_model_names_entry_path_and_closest_parent() {
    let e = fails_before_running(
        "missing",
        r#"[{"/objects/1/mass": 3.0}, {"/objects/1/mass": 4.0},
            {"/objects/1/physicsMass": 2.0}, {"/objects/7/mass": 1.0}]"#,
    );
    for part in [
        "override 2",
        "/objects/1/physicsMass",
        "/objects/1 has no key `physicsMass` (did you mean `mass`?)",
        "override 3",
        "/objects is an array of 3 (indices 0 to 2), there is no element 7",
        "2 of 4 overrides are invalid; nothing was run",
    ] {
        assert!(e.contains(part), "`{part}` not in: {e}");
    }
    assert!(
        !e.contains("override 0") && !e.contains("override 1"),
        "{e}"
    );
}

#[test]
fn an_invalid_value_is_that_entrys_error_with_the_readers_message() {
    let e = fails_before_running(
        "negative-mass",
        r#"[{"/objects/1/mass": 3.0}, {"/objects/1/mass": -1.0}]"#,
    );
    for part in [
        "override 1",
        "/objects/1/mass = -1.0",
        "objects[1] (RigidBody)",
        "`mass`",
    ] {
        assert!(e.contains(part), "`{part}` not in: {e}");
    }
    let e = fails_before_running("kind", r#"[{"/objects/1/mass": "3.0"}]"#);
    assert!(
        e.contains("override 0")
            && e.contains("the model has a number there, the override gives a string"),
        "{e}"
    );
}

#[test]
fn a_malformed_overrides_file_is_an_error() {
    for (name, text, part) in [
        ("broken", r#"[{"/objects/1/mass": 3.0},"#, "not valid JSON"),
        (
            "not-array",
            r#"{"/objects/1/mass": 3.0}"#,
            "must be a JSON array",
        ),
        ("empty", "[]", "empty"),
        (
            "not-dict",
            r#"[{"/objects/1/mass": 3.0}, 5]"#,
            "entry 1 must be a dictionary",
        ),
        (
            "no-slash",
            r#"[{"objects/1/mass": 3.0}]"#,
            "must start with `/`",
        ),
        (
            "twice",
            r#"[{"/objects/1/mass": 3.0, "/objects/1/mass": 4.0}]"#,
            "given twice",
        ),
    ] {
        let e = fails_before_running(name, text);
        assert!(
            e.contains("overrides.json") && e.contains(part),
            "{name}: {e}"
        );
    }
}

#[test]
fn a_failed_solve_leaves_the_others_results_and_no_stale_file() {
    let dir = scratch("solver-failure");
    let fail = r#"{"/simulationSettings/timeIntegration/adaptiveStep": false,
                   "/simulationSettings/timeIntegration/newton/maxIterations": 1,
                   "/simulationSettings/timeIntegration/newton/useModifiedNewton": false}"#;
    let results = dir.join("results");
    // An older result of entry 1 must not survive a failed entry 1.
    std::fs::create_dir_all(&results).unwrap();
    std::fs::write(results.join(result_file(1)), "stale").unwrap();
    let o = sweep(
        &dir,
        &format!(r#"[{{"/objects/1/mass": 3.0}}, {fail}, {{"/objects/1/mass": 4.0}}]"#),
        &["--jobs", "2"],
    );
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(3), "{e}");
    assert!(
        e.contains("override 1 (") && e.contains("solver failed"),
        "{e}"
    );
    assert!(String::from_utf8_lossy(&o.stdout).contains("solver failed"));
    assert_eq!(entries(&results), [result_file(0), result_file(2)]);
}

#[test]
fn unreadable_files_are_input_output_errors() {
    let dir = scratch("unreadable");
    let o = jointsim(&["sweep", MODEL, "/nonexistent/overrides.json"]);
    assert_eq!(o.status.code(), Some(4));
    assert!(stderr(&o).contains("cannot read /nonexistent/overrides.json"));
    let overrides = write(&dir, "o.json", OVERRIDES);
    let o = jointsim(&["sweep", "/nonexistent/model.json", &overrides]);
    assert_eq!(o.status.code(), Some(4));
}

/// What parallel runs of the library need (the sweep itself keeps each run on one thread).
#[test]
fn the_simulation_types_are_send() {
    fn send<T: Send>() {}
    send::<joint_runtime::Simulation>();
    send::<joint_runtime::MultibodySystem>();
    send::<joint_runtime::model::Model>();
}

#[test]
fn sweep_with_solver_fast_equals_run_with_solver_fast() {
    let dir = scratch("fast");
    let o = sweep(
        &dir,
        r#"[{"/objects/1/mass": 12.5}]"#,
        &["--solver", "fast"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(MODEL)
        .unwrap()
        .replace(r#""mass":10.0"#, r#""mass":12.5"#);
    let model = write(&dir, "by_hand.json", &text);
    let out = dir.join("by_hand.result.json");
    let o = jointsim(&[
        "run",
        &model,
        "--out",
        out.to_str().unwrap(),
        "--quiet",
        "--solver",
        "fast",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let swept = dir.join("results").join(result_file(0));
    assert_eq!(without_timing(&swept), without_timing(&out));
    // the fast path's own count, not Exudyn's 6669 (the exact mode's, as for mass 10)
    let result: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&swept).unwrap()).unwrap();
    let iterations = result["statistics"]["newtonIterations"].as_u64().unwrap();
    assert!(iterations < 5000, "{iterations} Newton iterations");
}
