//! `jointsim scene`: the .glb is valid according to the Khronos glTF validator (npm
//! `gltf-validator`, run by tools/js/validate_gltf.mjs: no errors and no warnings), draws the
//! spherical joint as Exudyn does (sizes, tessellation, colours from the model and its
//! visualizationSettings), and its animation moves the bodies as Exudyn's own sensor data of
//! the same model say.
//!
//! Needs node and `npm ci` in tools/js (as .ci/run does); fails, never skips, without them.

use std::path::{Path, PathBuf};
use std::process::Command;

use joint_runtime::scene::glb::split_glb;
use serde_json::{Value, json};

const JOINTSIM: &str = env!("CARGO_BIN_EXE_jointsim");
const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
const CASES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/reference");

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("jointsim-scene-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn seed_model() -> Value {
    let text =
        std::fs::read_to_string(format!("{CASES}/exudyn_cases/seed_mini_pendulum.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn write_model(dir: &Path, model: &Value) -> PathBuf {
    let path = dir.join("model.json");
    std::fs::write(&path, serde_json::to_string(model).unwrap()).unwrap();
    path
}

/// `jointsim scene MODEL [ARGS] -o OUT`; panics unless it succeeds.
fn scene(model: &Path, out: &Path, args: &[&str]) -> Vec<u8> {
    let o = Command::new(JOINTSIM)
        .arg("scene")
        .arg(model)
        .args(args)
        .arg("-o")
        .arg(out)
        .arg("--quiet")
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "jointsim scene failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    std::fs::read(out).unwrap()
}

/// The Khronos validator's verdict: no errors and no warnings.
fn validate(glb: &Path) {
    let script = format!("{ROOT}/tools/js/validate_gltf.mjs");
    let o = Command::new("node")
        .arg(&script)
        .arg(glb)
        .output()
        .unwrap_or_else(|e| {
            panic!("node not found ({e}); install Node.js and run `npm ci` in tools/js")
        });
    let report = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "gltf-validator rejects {} (is `npm ci` done in tools/js?): {report}{}",
        glb.display(),
        String::from_utf8_lossy(&o.stderr)
    );
    let v: Value = serde_json::from_str(&report).expect("the validator's JSON report");
    assert_eq!(
        (v["numErrors"].as_u64(), v["numWarnings"].as_u64()),
        (Some(0), Some(0))
    );
}

/// A parsed .glb: its JSON and accessor data as f32 (indices as f32 too).
struct Glb {
    json: Value,
    bin: Vec<u8>,
}

impl Glb {
    fn new(bytes: &[u8]) -> Self {
        let (json, bin) = split_glb(bytes).unwrap();
        Glb {
            json,
            bin: bin.to_vec(),
        }
    }

    fn accessor(&self, i: u64) -> Vec<Vec<f32>> {
        let a = &self.json["accessors"][i as usize];
        let view = &self.json["bufferViews"][a["bufferView"].as_u64().unwrap() as usize];
        let offset = view["byteOffset"].as_u64().unwrap() as usize;
        let width = match a["type"].as_str().unwrap() {
            "SCALAR" => 1,
            "VEC3" => 3,
            "VEC4" => 4,
            t => panic!("type {t}"),
        };
        let count = a["count"].as_u64().unwrap() as usize;
        let bytes = &self.bin[offset..];
        let value = |k: usize| -> f32 {
            match a["componentType"].as_u64().unwrap() {
                5126 => f32::from_le_bytes(bytes[4 * k..4 * k + 4].try_into().unwrap()),
                5123 => f32::from(u16::from_le_bytes(
                    bytes[2 * k..2 * k + 2].try_into().unwrap(),
                )),
                5125 => u32::from_le_bytes(bytes[4 * k..4 * k + 4].try_into().unwrap()) as f32,
                c => panic!("component type {c}"),
            }
        };
        (0..count)
            .map(|e| (0..width).map(|c| value(e * width + c)).collect())
            .collect()
    }

    fn node(&self, name: &str) -> Option<(usize, &Value)> {
        self.json["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .enumerate()
            .find(|(_, n)| n["name"] == name)
    }

    /// The node's first primitive: positions and its material's base colour.
    fn primitive(&self, node: &Value) -> (Vec<Vec<f32>>, Vec<f64>) {
        let mesh = &self.json["meshes"][node["mesh"].as_u64().unwrap() as usize];
        let p = &mesh["primitives"][0];
        let positions = self.accessor(p["attributes"]["POSITION"].as_u64().unwrap());
        let material = &self.json["materials"][p["material"].as_u64().unwrap() as usize];
        let color = material["pbrMetallicRoughness"]["baseColorFactor"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect();
        (positions, color)
    }

    /// The animation's times and the node's values on `path`, if animated.
    fn track(&self, node: usize, path: &str) -> Option<(Vec<f32>, Vec<Vec<f32>>)> {
        let anim = &self.json["animations"][0];
        let channel = anim["channels"]
            .as_array()?
            .iter()
            .find(|c| c["target"]["node"] == node && c["target"]["path"] == path)?;
        let sampler = &anim["samplers"][channel["sampler"].as_u64().unwrap() as usize];
        let times = self.accessor(sampler["input"].as_u64().unwrap());
        Some((
            times.into_iter().map(|t| t[0]).collect(),
            self.accessor(sampler["output"].as_u64().unwrap()),
        ))
    }
}

fn close(a: &[f32], b: &[f64], tol: f64) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| (f64::from(*x) - y).abs() <= tol)
}

/// The seed pendulum: the joint's two spheres of radius 0.1 (VjointRadius) with Exudyn's
/// default tiling 16 at its markers, marker 0's in ModifyColor(default, 0.25), no cylinder
/// (all axes constrained); the body moves as Exudyn's position sensor of the same model says.
#[test]
fn seed_scene_draws_the_joint_and_moves_the_body_as_exudyn() {
    let dir = scratch("seed");
    let model = write_model(&dir, &seed_model());
    let out = dir.join("seed.glb");
    let glb = Glb::new(&scene(&model, &out, &[]));
    validate(&out);

    let extras = &glb.json["scenes"][0]["extras"];
    assert_eq!(extras["up"], json!([0.0, 0.0, 1.0]), "gravity is −z");
    assert_eq!(extras["title"], "model");

    for (name, color) in [
        (
            "objects[2] (JointSpherical) marker 0 sphere",
            [0.425, 0.425, 0.625, 1.0],
        ),
        (
            "objects[2] (JointSpherical) marker 1 sphere",
            [0.2, 0.2, 1.0, 1.0],
        ),
    ] {
        let (_, node) = glb.node(name).unwrap_or_else(|| panic!("no node {name}"));
        let (positions, c) = glb.primitive(node);
        assert!(
            close(
                &c.iter().map(|&x| x as f32).collect::<Vec<_>>(),
                &color,
                1e-6
            ),
            "{name}: {c:?}"
        );
        // tiling 16: 16 segments around, 8 bands, single-vertex poles
        assert_eq!(positions.len(), 2 + 16 * 7, "{name}");
        for p in &positions {
            let r = p.iter().map(|x| f64::from(*x).powi(2)).sum::<f64>().sqrt();
            assert!((r - 0.1).abs() < 1e-6, "{name}: vertex at radius {r}");
        }
    }
    assert!(glb.node("objects[2] (JointSpherical) cylinder").is_none());

    // Exudyn's sensor0: the body's node position at every 0.01 s
    let reference: Value = serde_json::from_str(
        &std::fs::read_to_string(format!("{CASES}/exudyn_cases/seed_mini_pendulum.ref.json"))
            .unwrap(),
    )
    .unwrap();
    let rows = reference["sensors"][0]["values"].as_array().unwrap();
    let (body, _) = glb.node("objects[1] (RigidBody)").unwrap();
    let (times, translations) = glb.track(body, "translation").expect("the body moves");
    assert_eq!(times.len(), rows.len());
    for ((t, p), row) in times.iter().zip(&translations).zip(rows) {
        let row: Vec<f64> = row
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect();
        assert!((f64::from(*t) - row[0]).abs() < 1e-6);
        assert!(
            close(p, &row[1..], 2e-6),
            "t = {t}: {p:?} vs Exudyn {row:?}"
        );
    }
    // the joint's body-side sphere stays at the pivot (the constraint holds)
    let (m1, _) = glb
        .node("objects[2] (JointSpherical) marker 1 sphere")
        .unwrap();
    if let Some((_, positions)) = glb.track(m1, "translation") {
        for p in positions {
            assert!(close(&p, &[0.0; 3], 1e-6), "marker 1 left the pivot: {p:?}");
        }
    }
    // the body is the box of its inertia: a 1 × 0.1 × 0.1 cuboid about its centre
    let (_, body_node) = glb.node("objects[1] (RigidBody)").unwrap();
    let mesh = &glb.json["meshes"][body_node["mesh"].as_u64().unwrap() as usize];
    let a = &glb.json["accessors"][mesh["primitives"][0]["attributes"]["POSITION"]
        .as_u64()
        .unwrap() as usize];
    let lo: Vec<f64> = a["min"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    let hi: Vec<f64> = a["max"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    let mut size: Vec<f64> = (0..3).map(|k| hi[k] - lo[k]).collect();
    size.sort_by(f64::total_cmp);
    assert!(
        close(
            &size.iter().map(|&x| x as f32).collect::<Vec<_>>(),
            &[0.1, 0.1, 1.0],
            1e-5
        ),
        "{size:?}"
    );
}

/// visualizationSettings and the joint's V-keys are honoured: tilings, the default connector
/// colour, Vcolor, VjointRadius, a cylinder of half the radius when an axis is free, and no
/// joint at all with Vshow false.
#[test]
fn visualization_settings_and_joint_keys_are_honoured() {
    let dir = scratch("settings");
    let mut m = seed_model();
    m["visualizationSettings"] = json!({
        "general": {"sphereTiling": 8, "cylinderTiling": 6},
        "connectors": {"defaultColor": [1.0, 0.0, 0.0, 1.0]},
        "openGL": {"anything": "goes here"},
    });
    m["objects"][2]["constrainedAxes"] = json!([1, 1, 0]);
    m["objects"][2]["VjointRadius"] = json!(0.05);
    let out = dir.join("a.glb");
    let glb = Glb::new(&scene(&write_model(&dir, &m), &out, &[]));
    validate(&out);
    let (_, s1) = glb
        .node("objects[2] (JointSpherical) marker 1 sphere")
        .unwrap();
    let (positions, color) = glb.primitive(s1);
    assert_eq!(positions.len(), 2 + 8 * 3);
    assert_eq!(color, vec![1.0, 0.0, 0.0, 1.0]);
    let (_, s0) = glb
        .node("objects[2] (JointSpherical) marker 0 sphere")
        .unwrap();
    assert_eq!(
        glb.primitive(s0).1,
        vec![0.75 * 0.5 + 0.25, 0.375, 0.375, 1.0]
    );
    let (cylinder, c) = glb
        .node("objects[2] (JointSpherical) cylinder")
        .expect("an axis is free");
    let (positions, color) = glb.primitive(c);
    assert_eq!(positions.len(), 2 * 6 + 2 * 7);
    assert_eq!(color, vec![0.75, 0.25, 0.25, 1.0]);
    for p in &positions {
        let r = (f64::from(p[0]).powi(2) + f64::from(p[1]).powi(2)).sqrt();
        assert!(r < 0.025 + 1e-6, "cylinder radius {r}");
    }
    // the cylinder spans the markers: its scale along z is their distance, which grows as
    // the pendulum slides along the free z axis
    let (_, scales) = glb.track(cylinder, "scale").expect("the markers separate");
    assert!(scales.last().unwrap()[2] > 1e-3);

    m["objects"][2]["Vcolor"] = json!([0.0, 1.0, 0.0, 0.5]);
    let glb = Glb::new(&scene(&write_model(&dir, &m), &out, &[]));
    let (_, s1) = glb
        .node("objects[2] (JointSpherical) marker 1 sphere")
        .unwrap();
    assert_eq!(glb.primitive(s1).1, vec![0.0, 1.0, 0.0, 0.5]);
    let material = &glb.json["materials"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["pbrMetallicRoughness"]["baseColorFactor"] == json!([0.0, 1.0, 0.0, 0.5]))
        .unwrap();
    assert_eq!(material["alphaMode"], "BLEND");

    m["objects"][2]["Vshow"] = json!(false);
    let glb = Glb::new(&scene(&write_model(&dir, &m), &out, &[]));
    assert!(
        glb.node("objects[2] (JointSpherical) marker 1 sphere")
            .is_none()
    );
}

/// Graphics data in Exudyn 1.13.6's export form (GetObject(…, addGraphicsData=True)) are
/// drawn instead of the inertia box: triangles with vertex colours, lines, spheres, a circle.
#[test]
fn graphics_data_are_drawn() {
    let dir = scratch("graphics");
    let mut m = seed_model();
    m["objects"][1]["VgraphicsData"] = json!([
        {"type": "TriangleList",
         "points": [[-0.5, -0.05, -0.05], [0.5, -0.05, -0.05], [0.5, 0.05, -0.05], [-0.5, 0.05, 0.05]],
         "colors": [[1, 0, 0, 1], [1, 0, 0, 1], [0, 1, 0, 1], [0, 0, 1, 1]],
         "triangles": [[0, 1, 2], [0, 2, 3]]},
        {"type": "Lines", "points": [[0, 0, 0], [0.5, 0, 0]], "colors": [[0, 0, 0, 1], [0, 0, 0, 1]]},
        {"type": "Spheres", "points": [[0.5, 0, 0]], "radii": [0.05], "colors": [[1, 0.5, 0, 1]], "resolution": 4},
        {"type": "Circle", "radius": 0.2, "color": [0, 0, 0, 1], "position": [0, 0, 0]},
        {"type": "Text", "text": "body", "color": [0, 0, 0, 1], "position": [0, 0, 0]},
    ]);
    m["objects"][0]["VgraphicsData"] = json!([{"graphicsData": "<not requested>"}]);
    let out = dir.join("g.glb");
    let glb = Glb::new(&scene(&write_model(&dir, &m), &out, &[]));
    validate(&out);
    let (_, body) = glb.node("objects[1] (RigidBody)").unwrap();
    let mesh = &glb.json["meshes"][body["mesh"].as_u64().unwrap() as usize];
    let modes: Vec<u64> = mesh["primitives"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["mode"].as_u64().unwrap())
        .collect();
    assert_eq!(
        modes,
        vec![4, 1, 4, 2],
        "triangles, lines, spheres, circle (text is not drawn)"
    );
    let colors = glb.accessor(
        mesh["primitives"][0]["attributes"]["COLOR_0"]
            .as_u64()
            .unwrap(),
    );
    assert_eq!(colors[3], vec![0.0, 0.0, 1.0, 1.0]);
}

/// `--result` takes the motion from a solution file (the same frames as a run) or a result
/// file (its final state only: no animation).
#[test]
fn result_files_give_the_motion() {
    let dir = scratch("result");
    let model = write_model(&dir, &seed_model());
    let sol = dir.join("solution.txt");
    let res = dir.join("result.json");
    let o = Command::new(JOINTSIM)
        .arg("run")
        .arg(&model)
        .arg("--quiet")
        .arg("--out")
        .arg(&res)
        .arg("--solution-file")
        .arg(&sol)
        .output()
        .unwrap();
    assert!(o.status.success());
    let run = Glb::new(&scene(&model, &dir.join("run.glb"), &[]));
    let replay = Glb::new(&scene(
        &model,
        &dir.join("replay.glb"),
        &["--result", sol.to_str().unwrap()],
    ));
    let (body, _) = run.node("objects[1] (RigidBody)").unwrap();
    let (t_run, p_run) = run.track(body, "translation").unwrap();
    let (t_replay, p_replay) = replay.track(body, "translation").unwrap();
    assert_eq!(t_run, t_replay);
    for (a, b) in p_run.iter().zip(&p_replay) {
        assert!(close(
            a,
            &b.iter().map(|&x| f64::from(x)).collect::<Vec<_>>(),
            1e-7
        ));
    }
    let last = Glb::new(&scene(
        &model,
        &dir.join("last.glb"),
        &["--result", res.to_str().unwrap()],
    ));
    assert!(last.json.get("animations").is_none());
    let (_, node) = last.node("objects[1] (RigidBody)").unwrap();
    let final_position: Vec<f64> = node["translation"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    let p = p_run.last().unwrap();
    assert!(close(p, &final_position, 1e-7));
    validate(&dir.join("last.glb"));
}

/// Bad input: one clear error naming the item or setting, exit code 1, and no file written.
#[test]
fn bad_visualization_input_is_reported() {
    let dir = scratch("errors");
    let cases: Vec<(Value, &str)> = vec![
        (
            json!({"visualizationSettings": {"general": {"sphereTilling": 8}}}),
            "visualizationSettings `general.sphereTilling`: unknown key",
        ),
        (
            json!({"visualizationSettings": {"general": {"sphereTiling": 1}}}),
            "visualizationSettings `general.sphereTiling`: expected a tiling from 2 to 1024",
        ),
        (
            json!({"visualizationSettings": {"nodes": {"defaultColor": [1, 0]}}}),
            "visualizationSettings `nodes.defaultColor`",
        ),
        (
            json!({"visualizationSettings": {"lights": {}}}),
            "visualizationSettings `lights`: unknown key",
        ),
        (
            json!({"objects/1/VgraphicsData": [{"type": "TriangleList", "points": [[0, 0, 0]], "triangles": [[0, 0, 1]]}]}),
            "objects[1] (RigidBody): `VgraphicsData`: element 0: TriangleList: `triangles`: entry 0: 1 is not a point index (there are 1 points)",
        ),
        (
            json!({"objects/1/VgraphicsData": [{"type": "Cone"}]}),
            "objects[1] (RigidBody): `VgraphicsData`: element 0: unknown graphics data type \"Cone\"",
        ),
        (
            json!({"objects/2/VjointRadius": "big"}),
            "objects[2] (JointSpherical): `VjointRadius`",
        ),
    ];
    for (change, expected) in cases {
        let mut m = seed_model();
        for (k, v) in change.as_object().unwrap() {
            match k.split_once('/') {
                None => m[k] = v.clone(),
                Some((list, rest)) => {
                    let (i, key) = rest.split_once('/').unwrap();
                    m[list][i.parse::<usize>().unwrap()][key] = v.clone();
                }
            }
        }
        let model = write_model(&dir, &m);
        let out = dir.join("bad.glb");
        let o = Command::new(JOINTSIM)
            .arg("scene")
            .arg(&model)
            .arg("-o")
            .arg(&out)
            .arg("--quiet")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{expected}: {stderr}");
        assert!(
            stderr.contains(expected),
            "expected `{expected}` in: {stderr}"
        );
        assert!(!out.exists());
    }
    // a solution file of another model
    let model = write_model(&dir, &seed_model());
    let other = dir.join("other.txt");
    std::fs::write(&other, "#number of written coordinates [nODE2, nVel2, nAcc2, nODE1, nVel1, nAlgebraic, nData] = [3,0,0,0,0,0,0]\n0,1,2,3\n").unwrap();
    let o = Command::new(JOINTSIM)
        .arg("scene")
        .arg(&model)
        .arg("--result")
        .arg(&other)
        .arg("-o")
        .arg(dir.join("x.glb"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&o.stderr)
            .contains("the solution file has 3 ODE2 coordinates per row, the model 7")
    );
    assert!(!dir.join("x.glb").exists());
}

/// Every reference model (rigid bodies, mass points, kinematic trees, superelements, all the
/// joints, static solves) gives a scene that the validator accepts without a warning.
#[test]
fn every_reference_model_gives_a_valid_scene() {
    let dir = scratch("all");
    let mut count = 0;
    for sub in ["exudyn_cases", "own_cases"] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(format!("{CASES}/{sub}"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| {
                let name = p.file_name().unwrap().to_string_lossy().into_owned();
                name.ends_with(".json") && !name.ends_with(".ref.json")
            })
            .collect();
        files.sort();
        for model in files {
            let out = dir.join(format!(
                "{}.glb",
                model.file_stem().unwrap().to_string_lossy()
            ));
            scene(&model, &out, &[]);
            validate(&out);
            count += 1;
        }
    }
    assert!(count > 70, "{count} models");
}

/// ObjectContactSphereSphere drawn as Exudyn draws it: a sphere of each radius at its marker,
/// only where the item's `Vshow` and `contact.showSpheres` are set, at `contact.tilingSpheres`,
/// in its `Vcolor` or else `contact.colorSpheres`.
#[test]
fn contact_spheres_are_drawn_where_exudyn_draws_them() {
    let dir = scratch("contact");
    let text = std::fs::read_to_string(format!(
        "{CASES}/own_cases/contact_sphere_sphere_bounce.json"
    ))
    .unwrap();
    let mut m: Value = serde_json::from_str(&text).unwrap();
    let out = dir.join("a.glb");
    let name = |k: usize| format!("objects[2] (ContactSphereSphere) marker {k} sphere");
    // as exported: Vshow False; then shown, but showSpheres is off by default
    for vshow in [false, true] {
        m["objects"][2]["Vshow"] = json!(vshow);
        let glb = Glb::new(&scene(&write_model(&dir, &m), &out, &[]));
        assert!(glb.node(&name(0)).is_none() && glb.node(&name(1)).is_none());
    }
    m["visualizationSettings"] = json!({"contact": {"showSpheres": true, "tilingSpheres": 8}});
    for (vcolor, want) in [
        ([0.7, 0.7, 0.7, 1.0], [0.7, 0.7, 0.7, 1.0]),
        ([-1.0, 0.0, 0.0, 1.0], [0.8, 0.5, 0.2, 1.0]),
    ] {
        m["objects"][2]["Vcolor"] = json!(vcolor);
        let glb = Glb::new(&scene(&write_model(&dir, &m), &out, &[]));
        validate(&out);
        for (k, radius) in [(0, 0.3), (1, 0.1)] {
            let (_, node) = glb
                .node(&name(k))
                .unwrap_or_else(|| panic!("{} is drawn", name(k)));
            let (positions, color) = glb.primitive(node);
            assert_eq!(positions.len(), 2 + 8 * 3, "tilingSpheres 8");
            assert!(
                close(
                    &[color[0] as f32, color[1] as f32, color[2] as f32],
                    &want[..3],
                    1e-6
                ),
                "{color:?}"
            );
            for p in &positions {
                let r = p.iter().map(|x| f64::from(*x).powi(2)).sum::<f64>().sqrt();
                assert!(
                    (r - radius).abs() < 1e-6,
                    "sphere {k}: radius {r}, expected {radius}"
                );
            }
        }
    }
}
