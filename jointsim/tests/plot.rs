//! `jointsim plot`: the PNG has the expected size, each component's line is drawn in its own
//! colour and follows the data (not flat), the labels are rendered, several sensors stack as
//! subplots, and bad arguments fail with a message and exit code, leaving no file.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use image::RgbImage;

const JOINTSIM: &str = env!("CARGO_BIN_EXE_jointsim");
const MODEL: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../tests/reference/exudyn_cases/seed_mini_pendulum.json"
);

/// The first three line colours (Tableau 10: blue, orange, green).
const COLOURS: [[u8; 3]; 3] = [[31, 119, 180], [255, 127, 14], [44, 160, 44]];

fn jointsim(args: &[&str]) -> Output {
    Command::new(JOINTSIM)
        .args(args)
        .output()
        .expect("jointsim starts")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("jointsim-plot-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The seed pendulum's result file (sensor 0: node Position, sensor 1: object Force), made once.
fn result_file() -> &'static Path {
    static RESULT: OnceLock<PathBuf> = OnceLock::new();
    RESULT.get_or_init(|| {
        let dir = scratch("result");
        let out = dir.join("result.json");
        let o = jointsim(&["run", MODEL, "--out", out.to_str().unwrap(), "--quiet"]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        out
    })
}

fn plot(name: &str, extra: &[&str]) -> (Output, PathBuf) {
    let png = scratch(name).join("plot.png");
    let mut args = vec![
        "plot",
        result_file().to_str().unwrap(),
        "-o",
        png.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    (jointsim(&args), png)
}

fn decode(png: &Path) -> RgbImage {
    image::open(png).expect("a PNG").to_rgb8()
}

fn is_colour(p: &image::Rgb<u8>, c: [u8; 3]) -> bool {
    p.0.iter().zip(c).all(|(&a, b)| a.abs_diff(b) <= 12)
}

/// The rows of pixels of colour `c` in the rectangle, per column: (column, mean row).
fn line_rows(
    img: &RgbImage,
    c: [u8; 3],
    x: std::ops::Range<u32>,
    y: std::ops::Range<u32>,
) -> Vec<(u32, f64)> {
    x.filter_map(|px| {
        let rows: Vec<u32> = y
            .clone()
            .filter(|&py| is_colour(img.get_pixel(px, py), c))
            .collect();
        (!rows.is_empty()).then(|| (px, rows.iter().sum::<u32>() as f64 / rows.len() as f64))
    })
    .collect()
}

fn dark_pixels(img: &RgbImage, x: std::ops::Range<u32>, y: std::ops::Range<u32>) -> usize {
    x.flat_map(|px| y.clone().map(move |py| (px, py)))
        .filter(|&(px, py)| img.get_pixel(px, py).0.iter().all(|&v| v < 100))
        .count()
}

#[test]
fn one_sensor_draws_three_labelled_lines() {
    let (o, png) = plot("one", &["--sensor", "0"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let img = decode(&png);
    assert_eq!(img.dimensions(), (1000, 350));
    // The plot area: right of the y labels, below the caption, above the x labels.
    let (px, py) = (95..970, 40..290);
    for (k, c) in COLOURS.iter().enumerate() {
        let rows = line_rows(&img, *c, px.clone(), py.clone());
        // The legend's sample line is ~20 px; a drawn curve spans most of the width.
        assert!(
            rows.len() > 400,
            "component {k}: colour {c:?} in only {} columns",
            rows.len()
        );
        let (lo, hi) = rows.iter().fold((f64::MAX, f64::MIN), |(lo, hi), &(_, r)| {
            (lo.min(r), hi.max(r))
        });
        // The pendulum swings in x and z; y stays 0 (a flat line is right for it).
        if k != 1 {
            assert!(hi - lo > 50.0, "component {k} is flat: rows {lo}..{hi}");
        }
    }
    // Text: the caption at the top, the tick labels and "time (s)" below the plot area, the
    // y description and tick labels on the left.
    // (The regions leave out the axis lines.)
    assert!(dark_pixels(&img, 300..700, 0..30) > 100, "caption");
    assert!(dark_pixels(&img, 80..1000, 302..350) > 200, "x labels");
    assert!(dark_pixels(&img, 0..80, 40..290) > 200, "y labels");
    assert!(
        dark_pixels(&img, 95..900, 40..290) < 50,
        "no text over the curves"
    );
}

#[test]
fn sensors_by_index_and_name_stack_as_subplots() {
    let (o, png) = plot("two", &["--sensor", "0", "--sensor", "sensor1"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let img = decode(&png);
    assert_eq!(img.dimensions(), (1000, 700));
    // Both subplots have lines: the lower one (the force) has its own blue curve.
    let lower = line_rows(&img, COLOURS[0], 95..970, 390..640);
    assert!(lower.len() > 400, "second subplot: {} columns", lower.len());
    assert!(
        dark_pixels(&img, 300..700, 350..385) > 100,
        "second caption"
    );

    // Without --sensor: every sensor with stored values, the same two.
    let (o, png) = plot("all", &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(decode(&png).dimensions(), (1000, 700));
}

#[test]
fn bad_arguments_fail_with_a_message_and_no_file() {
    let (o, png) = plot("range", &["--sensor", "7"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("--sensor 7: out of range"), "{err}");
    assert!(
        err.contains("0 sensor0 (Position)") && err.contains("1 sensor1 (Force)"),
        "{err}"
    );
    assert!(!png.exists());

    let (o, png) = plot("name", &["--sensor", "tip"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("no sensor of that name") && err.contains("sensor1"),
        "{err}"
    );
    assert!(!png.exists());

    let dir = scratch("missing");
    let png = dir.join("plot.png");
    let o = jointsim(&[
        "plot",
        dir.join("nothing.json").to_str().unwrap(),
        "-o",
        png.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(4), "{err}");
    assert!(
        err.contains("cannot read") && err.contains("nothing.json"),
        "{err}"
    );
    assert!(!png.exists());

    // A model file is not a result file.
    let o = jointsim(&["plot", MODEL, "-o", png.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("not a result file"), "{err}");

    // A sensor without stored values.
    let text = std::fs::read_to_string(result_file()).unwrap();
    let mut json: serde_json::Value = serde_json::from_str(&text).unwrap();
    json["sensors"][1]["values"] = serde_json::json!([]);
    let edited = dir.join("edited.json");
    std::fs::write(&edited, json.to_string()).unwrap();
    let o = jointsim(&[
        "plot",
        edited.to_str().unwrap(),
        "--sensor",
        "1",
        "-o",
        png.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("no stored values"), "{err}");

    // An unwritable output path.
    let o = jointsim(&[
        "plot",
        result_file().to_str().unwrap(),
        "-o",
        dir.join("no/such/dir/plot.png").to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(4), "{err}");
    assert!(err.contains("cannot write"), "{err}");
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        1,
        "only edited.json is left"
    );
}
