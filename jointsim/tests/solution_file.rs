//! `jointsim run MODEL --solution-file F`: F is Exudyn's coordinates solution file. Checked by
//! tools/check_solution_file.py with pip Exudyn: LoadSolutionFile reads it, its rows and times
//! follow solution.file.writePeriod, its last row equals the result file's final coordinates,
//! and header, footer and values equal the file Exudyn itself writes for the same model.
//!
//! Needs python3 with exudyn 1.13.6 (`python3 -m pip install exudyn==1.13.6`); fails without.

use std::path::{Path, PathBuf};
use std::process::Command;

const JOINTSIM: &str = env!("CARGO_BIN_EXE_jointsim");
const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
const CASES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../tests/reference/exudyn_cases"
);

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("jointsim-solfile-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Fails (never skips) without python3 and exudyn.
fn require_exudyn() {
    let found = Command::new("python3")
        .args(["-c", "import exudyn; print(exudyn.__version__)"])
        .output();
    match found {
        Ok(o) if o.status.success() => {
            let v = String::from_utf8_lossy(&o.stdout);
            if v.trim() != "1.13.6" {
                eprintln!(
                    "note: exudyn {} found; the format is that of 1.13.6",
                    v.trim()
                );
            }
        }
        Ok(o) => panic!(
            "python3 cannot import exudyn ({}); install it with: python3 -m pip install exudyn==1.13.6",
            String::from_utf8_lossy(&o.stderr).trim()
        ),
        Err(e) => panic!(
            "python3 not found ({e}); install Python 3 and then: python3 -m pip install exudyn==1.13.6"
        ),
    }
}

/// Run `model` with `--solution-file` and `--out`, then the checker; returns the file's text.
fn run_and_check(model: &Path, dir: &Path) -> String {
    require_exudyn();
    let sol = dir.join("coordinatesSolution.txt");
    let out = dir.join("result.json");
    let run = Command::new(JOINTSIM)
        .arg("run")
        .arg(model)
        .arg("--out")
        .arg(&out)
        .arg("--solution-file")
        .arg(&sol)
        .arg("--quiet")
        .output()
        .expect("jointsim starts");
    assert!(
        run.status.success(),
        "jointsim failed: {}",
        String::from_utf8_lossy(&run.stderr)
    );
    let check = Command::new("python3")
        .arg(format!("{ROOT}/tools/check_solution_file.py"))
        .arg(&sol)
        .arg(model)
        .arg("--result")
        .arg(&out)
        .output()
        .expect("python3 starts");
    assert!(
        check.status.success(),
        "check_solution_file.py failed:\n{}{}",
        String::from_utf8_lossy(&check.stdout),
        String::from_utf8_lossy(&check.stderr)
    );
    println!("{}", String::from_utf8_lossy(&check.stdout));
    std::fs::read_to_string(&sol).unwrap()
}

#[test]
fn seed_pendulum_solution_file_loads_and_matches_exudyn() {
    let dir = scratch("seed");
    let text = run_and_check(Path::new(&format!("{CASES}/seed_mini_pendulum.json")), &dir);
    let rows = text.lines().filter(|l| !l.starts_with('#')).count();
    assert_eq!(rows, 101, "t = 0, 0.01, …, 1");
    assert!(text.lines().nth(4).unwrap().ends_with("= [7,7,7,0,0,4,0]"));
    // nothing but the file and the result is left behind (written under a temporary name)
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["coordinatesSolution.txt", "result.json"]);
}

#[test]
fn static_solution_file_loads_and_matches_exudyn() {
    let dir = scratch("static");
    let text = run_and_check(Path::new(&format!("{CASES}/static_spring_hang.json")), &dir);
    assert!(text.starts_with("#Exudyn nonlinear static solver"));
}

/// Data coordinates (NodeGenericData: two continuous angles and a further value) follow the AE
/// coordinates in every row, as in Exudyn's file.
#[test]
fn data_coordinates_solution_file_matches_exudyn() {
    let dir = scratch("data");
    let model =
        format!("{ROOT}/tests/reference/own_cases/connector_torsional_continuous_angle.json");
    let text = run_and_check(Path::new(&model), &dir);
    let written = text.lines().nth(4).unwrap();
    assert!(written.ends_with(",3]"), "{written}");
    assert!(
        text.lines()
            .nth(2)
            .unwrap()
            .ends_with(", AE coordinates, Data coordinates")
    );
}

/// The solution settings are respected: period, initial values, exports, precision,
/// information line, no footer.
#[test]
fn solution_settings_are_respected() {
    let dir = scratch("settings");
    let mut model: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(format!("{CASES}/seed_mini_pendulum.json")).unwrap(),
    )
    .unwrap();
    let sol = &mut model["simulationSettings"]["solution"];
    sol["precision"] = 16.into();
    let file = &mut sol["file"];
    file["writePeriod"] = 0.03.into();
    file["writeInitialValues"] = false.into();
    file["writeFooter"] = false.into();
    file["information"] = "jointsim test".into();
    file["export"]["accelerations"] = false.into();
    model["simulationSettings"]["timeIntegration"]["numberOfSteps"] = 100.into();
    let path = dir.join("model.json");
    std::fs::write(&path, serde_json::to_string(&model).unwrap()).unwrap();
    let text = run_and_check(&path, &dir);
    assert!(text.contains("\n#solution information = jointsim test\n"));
    assert!(!text.contains("#Solver Info"));
    let first = text.lines().find(|l| !l.starts_with('#')).unwrap();
    assert!(first.starts_with("0.01,"), "{first}");
    assert_eq!(first.split(',').count(), 1 + 7 + 7 + 4);
}

#[test]
fn failed_run_leaves_no_solution_file() {
    let dir = scratch("failed");
    let sol = dir.join("coordinatesSolution.txt");
    let run = Command::new(JOINTSIM)
        .arg("run")
        .arg(format!("{CASES}/seed_mini_pendulum.json"))
        .arg("--solution-file")
        .arg(dir.join("missing-folder/coordinatesSolution.txt"))
        .arg("--quiet")
        .output()
        .expect("jointsim starts");
    assert_eq!(run.status.code(), Some(4), "an input/output error");
    assert!(!sol.exists());
}
