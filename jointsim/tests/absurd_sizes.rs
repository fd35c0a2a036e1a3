//! Inputs that size an allocation or a loop, given absurd values: each is refused before
//! anything runs, with a message that names the setting, an exit code that is not a crash, and
//! nothing left behind; never an abort for memory.

use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::{Value, json};

const JOINTSIM: &str = env!("CARGO_BIN_EXE_jointsim");
const SEED: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../tests/reference/exudyn_cases/seed_mini_pendulum.json"
);

fn jointsim(args: &[&str]) -> Output {
    Command::new(JOINTSIM)
        .args(args)
        .output()
        .expect("jointsim starts")
}

/// A test's folder, removed when the test ends (passed or not): tests leave nothing behind.
struct Folder(PathBuf);

impl std::ops::Deref for Folder {
    type Target = PathBuf;
    fn deref(&self) -> &PathBuf {
        &self.0
    }
}

impl Drop for Folder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The seed model with `edit` applied, written into a fresh folder: (folder, model path).
fn model(name: &str, edit: impl FnOnce(&mut Value)) -> (Folder, String) {
    let dir = std::env::temp_dir().join(format!("jointsim-absurd-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut m: Value = serde_json::from_str(&std::fs::read_to_string(SEED).unwrap()).unwrap();
    edit(&mut m);
    let path = dir.join("model.json");
    std::fs::write(&path, m.to_string()).unwrap();
    (Folder(dir), path.to_str().unwrap().to_owned())
}

/// `jointsim ARGS` fails with exit code `code`, a message with every part, and leaves only the
/// model file in `dir`.
fn refused(dir: &PathBuf, args: &[&str], code: i32, parts: &[&str]) {
    let o = jointsim(args);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(code), "{args:?}: {stderr}");
    for p in parts {
        assert!(
            stderr.contains(p),
            "{args:?}: `{stderr}` does not mention `{p}`"
        );
    }
    let left: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, ["model.json"], "{args:?}: files left behind");
}

#[test]
fn a_trillion_steps_with_stored_sensors_is_refused_before_the_run() {
    let (dir, m) = model("steps", |m| {
        let ti = &mut m["simulationSettings"]["timeIntegration"];
        ti["numberOfSteps"] = json!(1e12);
        ti["endTime"] = json!(1e9);
    });
    let out = dir.join("result.json");
    refused(
        &dir,
        &["run", &m, "--out", out.to_str().unwrap(), "--quiet"],
        1,
        &[
            "timeIntegration.numberOfSteps",
            "storage limit",
            "sensorsWritePeriod",
            "storeInternal",
        ],
    );
    refused(
        &dir,
        &[
            "scene",
            &m,
            "-o",
            dir.join("s.glb").to_str().unwrap(),
            "--quiet",
        ],
        1,
        &["storage limit"],
    );
}

#[test]
fn a_solution_file_too_large_to_keep_is_refused_before_the_run() {
    let (dir, m) = model("solution", |m| {
        let s = &mut m["simulationSettings"];
        s["timeIntegration"]["numberOfSteps"] = json!(1e11);
        s["solution"]["file"]["writePeriod"] = json!(1e-12);
        s["solution"]["sensors"]["writePeriod"] = json!(1e6);
    });
    let out = dir.join("result.json");
    let file = dir.join("solution.txt");
    refused(
        &dir,
        &[
            "run",
            &m,
            "--out",
            out.to_str().unwrap(),
            "--solution-file",
            file.to_str().unwrap(),
            "--quiet",
        ],
        1,
        &["solution.file.writePeriod", "storage limit"],
    );
}

#[test]
fn a_trillion_load_steps_is_refused_before_the_run() {
    let (dir, m) = model("load-steps", |m| {
        m["solve"] = json!("static");
        m["simulationSettings"]["staticSolver"]["numberOfLoadSteps"] = json!(1e12);
        m["simulationSettings"]["solution"]["sensors"]["writePeriod"] = json!(1e-9);
    });
    refused(
        &dir,
        &[
            "run",
            &m,
            "--out",
            dir.join("r.json").to_str().unwrap(),
            "--quiet",
        ],
        1,
        &["staticSolver.numberOfLoadSteps", "storage limit"],
    );
}

#[test]
fn the_storage_limit_option_is_checked_and_applies() {
    let (dir, m) = model("limit", |_| {});
    let out = dir.join("result.json");
    for bad in ["0", "-1", "inf", "NaN", "lots"] {
        let o = jointsim(&[
            "run",
            &m,
            "--out",
            out.to_str().unwrap(),
            "--storage-limit",
            bad,
        ]);
        assert_eq!(o.status.code(), Some(2), "--storage-limit {bad}");
    }
    // the seed stores 2 sensors of 3 values, 1001 rows: more than 1 KiB
    refused(
        &dir,
        &[
            "run",
            &m,
            "--out",
            out.to_str().unwrap(),
            "--quiet",
            "--storage-limit",
            "1e-6",
        ],
        1,
        &["storage limit of 1.0 KiB"],
    );
    let o = jointsim(&[
        "run",
        &m,
        "--out",
        out.to_str().unwrap(),
        "--quiet",
        "--storage-limit",
        "1",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn absurd_tilings_are_refused() {
    for key in ["sphereTiling", "cylinderTiling", "circleTiling"] {
        let (dir, m) = model(key, |m| {
            m["visualizationSettings"] = json!({"general": {key: 1_000_000_000u64}});
        });
        refused(
            &dir,
            &[
                "scene",
                &m,
                "-o",
                dir.join("s.glb").to_str().unwrap(),
                "--quiet",
            ],
            1,
            &[key, "from 2 to 1024"],
        );
    }
}

const OWN_CASES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/reference/own_cases/");

/// Assembly's message for a model file that must not assemble.
fn assemble_error(m: &Value) -> String {
    let model = joint_runtime::model::read_model(&m.to_string()).expect("the model reads");
    match model.mbs.assemble() {
        Ok(_) => panic!("assemble accepted an absurd size"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn a_generic_ode2_too_large_for_dense_matrices_is_refused() {
    let n = 200_000;
    let m = json!({
        "nodes": [{"nodeType": "GenericODE2", "referenceCoordinates": vec![0.0; n],
                   "numberOfODE2Coordinates": n}],
        "objects": [{"objectType": "GenericODE2", "nodeNumbers": [0]}],
    });
    let e = assemble_error(&m);
    assert!(
        e.contains("objects[0] (GenericODE2)")
            && e.contains("nodeNumbers")
            && e.contains("memory limit"),
        "{e}"
    );
}

#[test]
fn a_sparse_matrix_of_absurd_declared_size_is_refused() {
    let mut m: Value = serde_json::from_str(
        &std::fs::read_to_string(format!("{OWN_CASES}se_ffrf_rigid_marker_std_dense.json"))
            .unwrap(),
    )
    .unwrap();
    m["objects"][0]["massMatrixReduced"] = json!({
        "numberOfRows": 1_000_000_000u64, "numberOfColumns": 1_000_000_000u64,
        "triplets": [[0, 0, 1.0]]
    });
    let e = assemble_error(&m);
    assert!(
        e.contains("massMatrixReduced") && e.contains("memory limit"),
        "{e}"
    );
}

#[test]
fn a_billion_sweep_jobs_start_no_more_threads_than_entries() {
    let (dir, m) = model("jobs", |_| {});
    let overrides = dir.join("overrides.json");
    std::fs::write(&overrides, r#"[{}, {"/objects/1/mass": 2.0}]"#).unwrap();
    let out = dir.join("out");
    let o = jointsim(&[
        "sweep",
        &m,
        overrides.to_str().unwrap(),
        "--out-dir",
        out.to_str().unwrap(),
        "--jobs",
        "1000000000",
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), 2);
}
