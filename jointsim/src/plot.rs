//! `jointsim plot RESULT.json [--sensor N …] -o FILE.png`: each sensor's stored values over
//! time as one subplot of a PNG, one line per component, with a legend.
//!
//! Text is drawn with DejaVu Sans, embedded in the program (jointsim/vendor/, with its licence), so
//! no system font is needed.

use std::path::{Path, PathBuf};
use std::sync::Once;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::FontStyle;
use serde_json::Value;

use super::Failure;
use super::files::Pending;

/// What `plot` is asked for.
pub struct Options<'a> {
    pub result: &'a PathBuf,
    /// Sensor indices or names; empty: every sensor with stored values.
    pub sensors: &'a [String],
    pub out: &'a PathBuf,
}

/// One sensor of a result file.
struct Sensor {
    index: usize,
    name: String,
    output: String,
    /// The values' names where the result file gives them (a joint's rows by its axes).
    components: Option<Vec<String>>,
    /// Rows `[t, v0, v1, …]`, all of the same length (≥ 2); NaN where the file has `null`.
    rows: Vec<Vec<f64>>,
}

/// The image width, and one subplot's height (smaller with many subplots, see `subplot_height`).
const WIDTH: u32 = 1000;
const SUBPLOT_HEIGHT: u32 = 350;
/// Past this many subplots each one gets shorter, down to `MIN_SUBPLOT_HEIGHT`.
const MAX_HEIGHT: u32 = 2800;
const MIN_SUBPLOT_HEIGHT: u32 = 200;

/// Line colours (Tableau 10), in component order.
const PALETTE: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];

const FONT: &str = "sans-serif";
static FONT_BYTES: &[u8] = include_bytes!("../vendor/DejaVuSans.ttf");

fn register_font() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // The embedded file is a valid font; were it not, text would be missing, not a panic.
        let _ = plotters::style::register_font(FONT, FontStyle::Normal, FONT_BYTES);
    });
}

fn invalid(path: &Path, message: impl std::fmt::Display) -> Failure {
    Failure {
        code: 1,
        message: format!("{}: {message}", path.display()),
    }
}

fn usage(message: String) -> Failure {
    Failure { code: 2, message }
}

/// The sensors of a result file (the `sensors` entries of `result_json`).
fn read_sensors(path: &Path) -> Result<Vec<Sensor>, Failure> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Failure::io(format!("cannot read {}: {e}", path.display())))?;
    let json: Value = serde_json::from_str(&text)
        .map_err(|e| invalid(path, format!("not a result file (invalid JSON: {e})")))?;
    let list = json
        .get("sensors")
        .and_then(Value::as_array)
        .ok_or_else(|| invalid(path, "not a result file (no `sensors` array)"))?;
    list.iter()
        .enumerate()
        .map(|(i, s)| {
            let what = format!("sensors[{i}]");
            let name = s
                .get("name")
                .and_then(Value::as_str)
                .filter(|n| !n.is_empty())
                .map_or_else(|| format!("sensor{i}"), str::to_owned);
            let output = s
                .get("outputVariableType")
                .and_then(Value::as_str)
                .unwrap_or("value")
                .to_owned();
            let index = s
                .get("index")
                .and_then(Value::as_u64)
                .map_or(i, |k| k as usize);
            // the values' names where the item names them (a joint's rows)
            let components = s.get("components").and_then(Value::as_array).map(|names| {
                names
                    .iter()
                    .map(|n| n.as_str().unwrap_or("?").to_owned())
                    .collect::<Vec<_>>()
            });
            let values = s.get("values").and_then(Value::as_array).ok_or_else(|| {
                invalid(
                    path,
                    format!("not a result file ({what} has no `values` array)"),
                )
            })?;
            let mut rows = Vec::with_capacity(values.len());
            for (r, row) in values.iter().enumerate() {
                let bad = || invalid(path, format!("{what}.values[{r}]: not a row [t, v0, …]"));
                let cells = row.as_array().ok_or_else(bad)?;
                let row: Vec<f64> = cells
                    .iter()
                    .map(|c| match c {
                        Value::Null => Some(f64::NAN),
                        c => c.as_f64(),
                    })
                    .collect::<Option<_>>()
                    .ok_or_else(bad)?;
                if row.len() < 2
                    || rows
                        .first()
                        .is_some_and(|f: &Vec<f64>| f.len() != row.len())
                {
                    return Err(invalid(
                        path,
                        format!(
                            "{what}.values[{r}]: expected [t, v0, …] of the first row's length"
                        ),
                    ));
                }
                rows.push(row);
            }
            Ok(Sensor {
                index,
                name,
                output,
                components,
                rows,
            })
        })
        .collect()
}

/// The sensors `--sensor` names (indices or names), or every one with stored values.
fn select<'s>(
    path: &Path,
    sensors: &'s [Sensor],
    wanted: &[String],
) -> Result<Vec<&'s Sensor>, Failure> {
    let available = || {
        if sensors.is_empty() {
            "the result file has no sensors".to_owned()
        } else {
            let list: Vec<String> = sensors
                .iter()
                .enumerate()
                .map(|(i, s)| {
                    let stored = if s.rows.is_empty() {
                        ", no stored values"
                    } else {
                        ""
                    };
                    format!("{i} {} ({}{stored})", s.name, s.output)
                })
                .collect();
            format!("available sensors: {}", list.join(", "))
        }
    };
    if wanted.is_empty() {
        let chosen: Vec<&Sensor> = sensors.iter().filter(|s| !s.rows.is_empty()).collect();
        if chosen.is_empty() {
            return Err(invalid(
                path,
                format!("no sensor has stored values; {}", available()),
            ));
        }
        return Ok(chosen);
    }
    let mut chosen = Vec::with_capacity(wanted.len());
    for w in wanted {
        let found = match w.trim().parse::<usize>() {
            Ok(k) => sensors.get(k).ok_or_else(|| {
                usage(format!(
                    "--sensor {w}: out of range, {} has {} sensors; {}",
                    path.display(),
                    sensors.len(),
                    available()
                ))
            })?,
            Err(_) => sensors.iter().find(|s| s.name == *w).ok_or_else(|| {
                usage(format!(
                    "--sensor {w}: no sensor of that name in {}; {}",
                    path.display(),
                    available()
                ))
            })?,
        };
        if found.rows.is_empty() {
            return Err(invalid(
                path,
                format!(
                    "sensor {} ({}) has no stored values (storeInternal was false)",
                    found.index, found.name
                ),
            ));
        }
        chosen.push(found);
    }
    Ok(chosen)
}

/// Legend names of a sensor's components.
fn component_names(sensor: &Sensor, count: usize) -> Vec<String> {
    if let Some(names) = sensor.components.as_ref().filter(|n| n.len() == count) {
        return names.clone();
    }
    let output = &sensor.output;
    match count {
        1 => vec![output.to_owned()],
        3 => ["x", "y", "z"].iter().map(|s| (*s).to_owned()).collect(),
        _ => (0..count).map(|k| format!("[{k}]")).collect(),
    }
}

/// A padded range around the finite values of `values` (a unit range when they are all equal).
fn padded_range(values: impl Iterator<Item = f64>, pad: f64) -> (f64, f64) {
    let (lo, hi) = values
        .filter(|v| v.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        });
    if lo > hi {
        return (-1.0, 1.0);
    }
    let span = hi - lo;
    if span <= 1e-12 * lo.abs().max(hi.abs()) || span == 0.0 {
        let d = if lo == 0.0 { 1.0 } else { 0.1 * lo.abs() };
        return (lo - d, hi + d);
    }
    (lo - pad * span, hi + pad * span)
}

/// Tick labels with as many decimals as the spacing of at most `ticks` ticks over `range`
/// needs: the spacing is a 1, 2 or 5 times a power of ten, as plotters chooses it.
fn tick_label(range: (f64, f64), ticks: usize) -> impl Fn(&f64) -> String {
    let rough = (range.1 - range.0) / ticks as f64;
    let power = 10f64.powf(rough.log10().floor());
    let step = match rough / power {
        r if r <= 1.0 => power,
        r if r <= 2.0 => 2.0 * power,
        r if r <= 5.0 => 5.0 * power,
        _ => 10.0 * power,
    };
    let magnitude = range.0.abs().max(range.1.abs());
    let scientific = !(1e-3..1e5).contains(&magnitude);
    let step_exponent = step.log10().floor();
    let decimals = (-step_exponent).clamp(0.0, 10.0) as usize;
    let mantissa_decimals = (magnitude.log10().floor() - step_exponent).clamp(0.0, 4.0) as usize;
    move |v: &f64| {
        // A tick at zero may come out as ±1e-17 from the tick arithmetic: print "0", not "-0.0".
        if v.abs() <= 1e-9 * step.abs() {
            "0".to_owned()
        } else if scientific {
            format!("{v:.mantissa_decimals$e}")
        } else {
            format!("{v:.decimals$}")
        }
    }
}

fn draw_error<E: std::error::Error>(e: E) -> Failure {
    Failure {
        code: 1,
        message: format!("cannot draw the plot: {e}"),
    }
}

fn draw_sensor<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    sensor: &Sensor,
) -> Result<(), Failure>
where
    DB::ErrorType: 'static,
{
    let width = sensor.rows[0].len() - 1;
    let x_range = padded_range(sensor.rows.iter().map(|r| r[0]), 0.0);
    let y_range = padded_range(
        sensor.rows.iter().flat_map(|r| r[1..].iter().copied()),
        0.05,
    );
    let (x_ticks, y_ticks) = (10, 6);
    let caption = if sensor.name == format!("sensor{}", sensor.index) {
        format!("{}: {}", sensor.name, sensor.output)
    } else {
        format!(
            "{}: {} (sensor {})",
            sensor.name, sensor.output, sensor.index
        )
    };
    let mut chart = ChartBuilder::on(area)
        .caption(caption, (FONT, 20).into_font())
        .margin_top(8)
        .margin_bottom(8)
        .margin_left(12)
        .margin_right(24)
        .x_label_area_size(46)
        .y_label_area_size(76)
        .build_cartesian_2d(x_range.0..x_range.1, y_range.0..y_range.1)
        .map_err(draw_error)?;
    chart
        .configure_mesh()
        .x_desc("time (s)")
        .y_desc(sensor.output.as_str())
        .x_labels(x_ticks)
        .y_labels(y_ticks)
        .x_label_formatter(&tick_label(x_range, x_ticks))
        .y_label_formatter(&tick_label(y_range, y_ticks))
        .label_style((FONT, 14).into_font())
        .axis_desc_style((FONT, 16).into_font())
        .light_line_style(TRANSPARENT)
        .bold_line_style(RGBColor(215, 215, 215))
        .axis_style(RGBColor(80, 80, 80))
        .draw()
        .map_err(draw_error)?;
    for (k, label) in component_names(sensor, width).into_iter().enumerate() {
        let colour = PALETTE[k % PALETTE.len()];
        let style = colour.stroke_width(2);
        // The line is broken where a value is not finite (`null` in the file).
        let mut segments: Vec<Vec<(f64, f64)>> = vec![Vec::new()];
        for r in &sensor.rows {
            let (t, v) = (r[0], r[k + 1]);
            match segments.last_mut() {
                Some(s) if t.is_finite() && v.is_finite() => s.push((t, v)),
                Some(s) if !s.is_empty() => segments.push(Vec::new()),
                _ => {}
            }
        }
        let series = if sensor.rows.len() == 1 {
            // A single row (a static solve): a dot instead of a line.
            chart.draw_series(
                segments
                    .concat()
                    .into_iter()
                    .map(|p| Circle::new(p, 4, colour.filled())),
            )
        } else {
            chart.draw_series(segments.into_iter().map(|s| PathElement::new(s, style)))
        }
        .map_err(draw_error)?;
        series.label(label).legend(move |(x, y)| {
            PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(3))
        });
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.85))
        .border_style(RGBColor(180, 180, 180))
        .label_font((FONT, 14).into_font())
        .margin(10)
        .draw()
        .map_err(draw_error)?;
    Ok(())
}

/// One subplot's height for `count` subplots.
fn subplot_height(count: usize) -> u32 {
    let count = u32::try_from(count.max(1)).unwrap_or(u32::MAX);
    if count.saturating_mul(SUBPLOT_HEIGHT) <= MAX_HEIGHT {
        SUBPLOT_HEIGHT
    } else {
        (MAX_HEIGHT / count).max(MIN_SUBPLOT_HEIGHT)
    }
}

/// The PNG of the chosen sensors, one subplot each, stacked vertically.
fn render(sensors: &[&Sensor]) -> Result<Vec<u8>, Failure> {
    register_font();
    let height = subplot_height(sensors.len()) * sensors.len() as u32;
    let mut pixels = vec![255u8; WIDTH as usize * height as usize * 3];
    {
        let root = BitMapBackend::with_buffer(&mut pixels, (WIDTH, height)).into_drawing_area();
        root.fill(&WHITE).map_err(draw_error)?;
        let areas = root.split_evenly((sensors.len(), 1));
        for (area, sensor) in areas.iter().zip(sensors) {
            draw_sensor(area, sensor)?;
        }
        root.present().map_err(draw_error)?;
    }
    let mut png = Vec::new();
    image::ImageEncoder::write_image(
        image::codecs::png::PngEncoder::new(&mut png),
        &pixels,
        WIDTH,
        height,
        image::ColorType::Rgb8,
    )
    .map_err(|e| Failure::io(format!("cannot encode the PNG: {e}")))?;
    Ok(png)
}

pub fn plot(o: &Options) -> Result<(), Failure> {
    let sensors = read_sensors(o.result)?;
    let chosen = select(o.result, &sensors, o.sensors)?;
    let png = render(&chosen)?;
    let mut pending = Pending::default();
    pending.add(o.out, &png)?;
    pending.commit()
}
