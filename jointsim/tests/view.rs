//! `jointsim view`: the page is loaded in headless Chromium (tools/js/view_screenshots.mjs,
//! playwright-core with /usr/bin/chromium, WebGL by SwiftShader), the time slider is moved to
//! two times and the play button is pressed, as a user would. The screenshots must show the
//! joint's spheres (coloured red through `Vcolor`) and the bodies (yellow through
//! `visualizationSettings.bodies.defaultColor`), and show them where the motion puts them.
//!
//! Needs node, `npm ci` in tools/js and Debian's chromium (as .ci/run installs); fails, never
//! skips, without them.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};

const JOINTSIM: &str = env!("CARGO_BIN_EXE_jointsim");
const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
const CASES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../tests/reference/exudyn_cases"
);

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("jointsim-view-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The case `name` with red joints and yellow bodies, as a page; returns the page's path.
/// `inertia`: replace the bodies' inertia (sphericalJointTest's [6, 1, 6] for 2 kg would be a
/// box as large as the scene).
fn page(dir: &Path, name: &str, inertia: Option<[f64; 6]>) -> PathBuf {
    let mut m: Value =
        serde_json::from_str(&std::fs::read_to_string(format!("{CASES}/{name}.json")).unwrap())
            .unwrap();
    for o in m["objects"].as_array_mut().unwrap() {
        if o["objectType"] == "JointSpherical" {
            o["Vcolor"] = json!([1.0, 0.0, 0.0, 1.0]);
        }
        if let (Some(j), "RigidBody") = (inertia, o["objectType"].as_str().unwrap_or("")) {
            o["inertia"] = json!(j);
        }
    }
    m["visualizationSettings"] = json!({"bodies": {"defaultColor": [1.0, 0.8, 0.0, 1.0]}});
    let model = dir.join(format!("{name}.json"));
    std::fs::write(&model, serde_json::to_string(&m).unwrap()).unwrap();
    let html = dir.join(format!("{name}.html"));
    let o = Command::new(JOINTSIM)
        .arg("view")
        .arg(&model)
        .arg("-o")
        .arg(&html)
        .arg("--quiet")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    html
}

/// Screenshots of `html` at `times` through the page's slider; the script's report.
fn screenshots(html: &Path, dir: &Path, times: &[f64]) -> (Value, Vec<image::RgbaImage>) {
    let script = format!("{ROOT}/tools/js/view_screenshots.mjs");
    let o = Command::new("node")
        .arg(&script)
        .arg(html)
        .arg(dir)
        .args(times.iter().map(f64::to_string))
        .output()
        .unwrap_or_else(|e| {
            panic!("node not found ({e}); install Node.js, chromium and `npm ci` in tools/js")
        });
    let report = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        o.status.success(),
        "the page failed in headless Chromium (is `npm ci` done in tools/js and /usr/bin/chromium installed?): {report}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let report: Value = serde_json::from_str(&report).unwrap();
    let images = report["screenshots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| image::open(p.as_str().unwrap()).unwrap().to_rgba8())
        .collect();
    (report, images)
}

/// Pixel count and centroid of the pixels that `is` picks.
fn blob(img: &image::RgbaImage, is: impl Fn([u8; 4]) -> bool) -> (usize, [f64; 2]) {
    let (mut n, mut x, mut y) = (0usize, 0.0, 0.0);
    for (px, py, p) in img.enumerate_pixels() {
        if is(p.0) {
            n += 1;
            x += f64::from(px);
            y += f64::from(py);
        }
    }
    (n, [x / n.max(1) as f64, y / n.max(1) as f64])
}

/// Red as lit by the viewer: red well above green and blue.
fn red(p: [u8; 4]) -> bool {
    let [r, g, b, _] = p.map(f64::from);
    r > 90.0 && g < 0.45 * r && b < 0.45 * r
}

/// Yellow as lit: red and green both high, blue low.
fn yellow(p: [u8; 4]) -> bool {
    let [r, g, b, _] = p.map(f64::from);
    r > 90.0 && g > 0.6 * r && b < 0.35 * r
}

fn distance(a: [f64; 2], b: [f64; 2]) -> f64 {
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)).sqrt()
}

/// The seed pendulum: its joint stays at the pivot, so the red spheres are seen at the same
/// place at both times, while the yellow body has swung down.
#[test]
fn seed_pendulum_page_shows_the_joint_and_the_swinging_body() {
    let dir = scratch("seed");
    let html = page(&dir, "seed_mini_pendulum", None);
    let (report, shots) = screenshots(&html, &dir, &[0.0, 0.5]);
    assert_eq!(report["duration"].as_f64(), Some(1.0));
    assert_eq!(report["labels"], json!(["t = 0.000 s", "t = 0.500 s"]));
    assert_eq!(report["playAdvanced"], json!(true));
    assert_eq!(report["externalRequests"], json!([]));
    let joint: Vec<_> = shots.iter().map(|s| blob(s, red)).collect();
    let body: Vec<_> = shots.iter().map(|s| blob(s, yellow)).collect();
    for (k, ((jn, _), (bn, _))) in joint.iter().zip(&body).enumerate() {
        assert!(*jn > 300, "screenshot {k}: only {jn} red (joint) pixels");
        assert!(*bn > 1000, "screenshot {k}: only {bn} yellow (body) pixels");
    }
    assert!(
        distance(joint[0].1, joint[1].1) < 5.0,
        "the pivot moved on screen: {joint:?}"
    );
    assert!(
        distance(body[0].1, body[1].1) > 30.0,
        "the body did not swing: {body:?}"
    );
}

/// sphericalJointTest (four bodies hanging by spherical joints): the lower joints swing with
/// the chain, so the red spheres move between the two times.
#[test]
fn chain_page_shows_the_joints_moving() {
    let dir = scratch("chain");
    // a 0.6 × 0.1 × 0.1 cuboid of 2 kg
    let html = page(
        &dir,
        "sphericalJointTest",
        Some([0.00333, 0.0617, 0.0617, 0.0, 0.0, 0.0]),
    );
    let (_, shots) = screenshots(&html, &dir, &[0.0, 0.6]);
    let joint: Vec<_> = shots.iter().map(|s| blob(s, red)).collect();
    for (k, (n, _)) in joint.iter().enumerate() {
        assert!(*n > 300, "screenshot {k}: only {n} red (joint) pixels");
    }
    assert!(
        distance(joint[0].1, joint[1].1) > 20.0,
        "the joints did not move: {joint:?}"
    );
}
