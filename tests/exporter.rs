//! tools/exudyn_export.py refuses a system that holds a system-level Python user function
//! (pre-step, post-step, post-Newton, pre-Newton residual, system Jacobian), naming it and
//! leaving no file, and exports one without (tools/check_exporter.py, with pip Exudyn 1.13.6,
//! which tools/install_test_deps.sh installs; fails, never skips, without it).

use std::process::Command;

#[test]
fn exporter_refuses_system_user_functions() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../tools/check_exporter.py");
    let out = Command::new("python3")
        .arg(script)
        .output()
        .expect("python3 runs (install Python 3 and pip exudyn==1.13.6)");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{script} failed:\n{text}");
    assert!(text.contains("exporter checks passed"), "{text}");
}
