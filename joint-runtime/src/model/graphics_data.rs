//! Items' `VgraphicsData` (Exudyn's `exudyn.graphics` dictionaries), read strictly: each
//! type's keys, its arrays' shapes, and indices that name points that are there.

use serde_json::{Map, Value};

use super::fields::describe;
use crate::error::{Error, ItemRef, Result};

/// An RGBA colour; a red component of −1 means "the default colour of the item's class".
pub type Color = [f64; 4];

/// One entry of an item's `VgraphicsData` (Exudyn's `exudyn.graphics` dictionaries), in the
/// body's local frame.
#[derive(Clone, Debug, PartialEq)]
pub enum GraphicsData {
    /// `TriangleList`: points with one colour each, optional normals, and triangles (from
    /// `triangles`, and from `triangles6`, whose quadratic triangles are split into four).
    Triangles {
        /// Vertices, local.
        points: Vec<[f64; 3]>,
        /// One RGBA per vertex.
        colors: Vec<Color>,
        /// Empty, or one per point.
        normals: Vec<[f64; 3]>,
        /// Vertex indices, counter-clockwise seen from outside.
        triangles: Vec<[u32; 3]>,
    },
    /// `Lines` (1.13: points and a colour per point) or `Line` (1.11: flat `data`, one
    /// `color`): a polyline.
    Lines {
        /// The polyline's points, local.
        points: Vec<[f64; 3]>,
        /// One RGBA per point.
        colors: Vec<Color>,
    },
    /// `Spheres`: spheres with `resolution` tiles.
    Spheres {
        /// Sphere centres, local.
        points: Vec<[f64; 3]>,
        /// One radius per sphere.
        radii: Vec<f64>,
        /// One RGBA per sphere.
        colors: Vec<Color>,
        /// `nTiles`: segments around a sphere.
        resolution: usize,
    },
    /// `Circle`: a circle in the local x-y plane (normal z) as a closed line.
    Circle {
        /// Centre, local.
        position: [f64; 3],
        /// Radius.
        radius: f64,
        /// RGBA.
        color: Color,
    },
    /// `Text`: read, but not drawn (a glTF scene has no text).
    Text {
        /// Where, local.
        position: [f64; 3],
        /// The text.
        text: String,
        /// RGBA.
        color: Color,
    },
}

/// A `VgraphicsData` list. Exudyn exports `[{"graphicsData": "<not requested>"}]` when the
/// graphics were not asked for; that is no graphics.
pub(super) fn graphics_list(item: &ItemRef, key: &str, v: &Value) -> Result<Vec<GraphicsData>> {
    let err = |message: String| Error::item(item.clone(), key, message);
    let list = v.as_array().ok_or_else(|| {
        err(format!(
            "expected an array of graphics data dictionaries, found {}",
            describe(v)
        ))
    })?;
    let mut out = Vec::with_capacity(list.len());
    for (k, g) in list.iter().enumerate() {
        let map = g.as_object().ok_or_else(|| {
            err(format!(
                "element {k}: expected a graphics data dictionary, found {}",
                describe(g)
            ))
        })?;
        if map.len() == 1 && map.get("graphicsData").is_some_and(Value::is_string) {
            continue;
        }
        out.push(graphics_data(map).map_err(|m| err(format!("element {k}: {m}")))?);
    }
    Ok(out)
}

/// One graphics data dictionary; errors are messages for the caller to place.
fn graphics_data(map: &Map<String, Value>) -> std::result::Result<GraphicsData, String> {
    let ty = match map.get("type") {
        Some(Value::String(s)) => s.as_str(),
        Some(other) => {
            return Err(format!(
                "`type` must be a string, found {}",
                describe(other)
            ));
        }
        None => {
            return Err(
                "missing `type` (TriangleList, Lines, Line, Spheres, Circle or Text)".into(),
            );
        }
    };
    let known: &[&str] = match ty {
        "TriangleList" => &[
            "type",
            "points",
            "colors",
            "normals",
            "triangles",
            "triangles6",
            "edgeColor",
            "edgeOn",
        ],
        "Lines" => &["type", "points", "colors"],
        "Line" => &["type", "data", "color"],
        "Spheres" => &["type", "points", "radii", "colors", "resolution"],
        "Circle" => &["type", "position", "radius", "color"],
        "Text" => &["type", "position", "text", "color", "fontSize", "offset"],
        other => {
            return Err(format!(
                "unknown graphics data type \"{other}\" (known: TriangleList, Lines, Line, Spheres, Circle, Text)"
            ));
        }
    };
    if let Some(k) = map.keys().find(|k| !known.contains(&k.as_str())) {
        return Err(format!(
            "unknown key `{k}` for {ty} (known keys: {})",
            known.join(", ")
        ));
    }
    let get = |k: &str| map.get(k).ok_or_else(|| format!("{ty}: missing `{k}`"));
    match ty {
        "TriangleList" => triangle_list(map),
        "Lines" => {
            let points = rows::<3>(ty, "points", get("points")?)?;
            let colors = rows::<4>(ty, "colors", get("colors")?)?;
            if colors.len() != points.len() {
                return Err(format!(
                    "Lines: {} colors for {} points (one per point expected)",
                    colors.len(),
                    points.len()
                ));
            }
            Ok(GraphicsData::Lines { points, colors })
        }
        "Line" => {
            let points = rows::<3>(ty, "data", get("data")?)?;
            let color = one::<4>(ty, "color", get("color")?)?;
            Ok(GraphicsData::Lines {
                colors: vec![color; points.len()],
                points,
            })
        }
        "Spheres" => spheres(map),
        "Circle" => {
            let radius = one::<1>(ty, "radius", get("radius")?)?[0];
            if !(radius > 0.0) {
                return Err(format!("Circle: radius {radius} (expected > 0)"));
            }
            Ok(GraphicsData::Circle {
                position: one::<3>(ty, "position", get("position")?)?,
                radius,
                color: one::<4>(ty, "color", get("color")?)?,
            })
        }
        _ => Ok(GraphicsData::Text {
            position: one::<3>(ty, "position", get("position")?)?,
            text: match get("text")? {
                Value::String(s) => s.clone(),
                other => {
                    return Err(format!(
                        "Text: `text` must be a string, found {}",
                        describe(other)
                    ));
                }
            },
            color: match map.get("color") {
                None => [0.0, 0.0, 0.0, 1.0],
                Some(c) => one::<4>(ty, "color", c)?,
            },
        }),
    }
}

/// Finite numbers of an array that is flat (`[x0, y0, z0, x1, …]`) or of rows (`[[x0, y0,
/// z0], …]`), in groups of N. A bare number is one group of one.
fn rows<const N: usize>(
    ty: &str,
    key: &str,
    v: &Value,
) -> std::result::Result<Vec<[f64; N]>, String> {
    let bad = |what: String| format!("{ty}: `{key}`: {what}");
    let mut flat = Vec::new();
    let mut push = |e: &Value, at: String| -> std::result::Result<(), String> {
        match e.as_f64().filter(|x| x.is_finite()) {
            Some(x) => {
                flat.push(x);
                Ok(())
            }
            None => Err(bad(format!(
                "{at}expected a finite number, found {}",
                describe(e)
            ))),
        }
    };
    match v {
        Value::Array(a) => {
            for (i, e) in a.iter().enumerate() {
                match e {
                    Value::Array(row) => {
                        if row.len() != N {
                            return Err(bad(format!(
                                "row {i}: expected {N} numbers, found {}",
                                row.len()
                            )));
                        }
                        for (j, x) in row.iter().enumerate() {
                            push(x, format!("row {i}, element {j}: "))?;
                        }
                    }
                    _ => push(e, format!("element {i}: "))?,
                }
            }
        }
        Value::Number(_) if N == 1 => push(v, String::new())?,
        other => {
            return Err(bad(format!(
                "expected an array of numbers, found {}",
                describe(other)
            )));
        }
    }
    if flat.len() % N != 0 {
        return Err(bad(format!(
            "{} numbers, not a multiple of {N}",
            flat.len()
        )));
    }
    Ok(flat
        .chunks_exact(N)
        .map(|c| std::array::from_fn(|k| c[k]))
        .collect())
}

fn one<const N: usize>(ty: &str, key: &str, v: &Value) -> std::result::Result<[f64; N], String> {
    let r = rows::<N>(ty, key, v)?;
    match r.as_slice() {
        [x] => Ok(*x),
        _ => Err(format!(
            "{ty}: `{key}`: expected {N} numbers, found {}",
            r.len() * N
        )),
    }
}

/// Point indices in groups of N, each below `points`.
fn indices<const N: usize>(
    ty: &str,
    key: &str,
    v: &Value,
    points: usize,
) -> std::result::Result<Vec<[u32; N]>, String> {
    let groups = rows::<N>(ty, key, v)?;
    let mut out = Vec::with_capacity(groups.len());
    for (i, g) in groups.iter().enumerate() {
        let mut t = [0u32; N];
        for (k, &x) in g.iter().enumerate() {
            if x < 0.0 || x.fract() != 0.0 || x >= points as f64 {
                return Err(format!(
                    "{ty}: `{key}`: entry {i}: {x} is not a point index (there are {points} points)"
                ));
            }
            t[k] = x as u32;
        }
        out.push(t);
    }
    Ok(out)
}

/// TriangleList: points, optional colors and normals (one per point), linear or quadratic
/// triangles.
fn triangle_list(map: &Map<String, Value>) -> std::result::Result<GraphicsData, String> {
    let ty = "TriangleList";
    let get = |k: &str| map.get(k).ok_or_else(|| format!("{ty}: missing `{k}`"));
    let points = rows::<3>(ty, "points", get("points")?)?;
    let n = points.len();
    let colors = match map.get("colors") {
        None => Vec::new(),
        Some(c) => rows::<4>(ty, "colors", c)?,
    };
    if !colors.is_empty() && colors.len() != n {
        return Err(format!(
            "TriangleList: {} colors for {n} points (one per point expected)",
            colors.len()
        ));
    }
    let normals = match map.get("normals") {
        None => Vec::new(),
        Some(v) => rows::<3>(ty, "normals", v)?,
    };
    if !normals.is_empty() && normals.len() != n {
        return Err(format!(
            "TriangleList: {} normals for {n} points (none or one per point expected)",
            normals.len()
        ));
    }
    let mut triangles = Vec::new();
    if let Some(t) = map.get("triangles") {
        triangles.extend(indices::<3>(ty, "triangles", t, n)?);
    }
    if let Some(t) = map.get("triangles6") {
        // quadratic triangles [c0, c1, c2, m01, m12, m20]: four linear ones
        for [c0, c1, c2, m01, m12, m20] in indices::<6>(ty, "triangles6", t, n)? {
            triangles.extend([
                [c0, m01, m20],
                [m01, c1, m12],
                [m20, m12, c2],
                [m01, m12, m20],
            ]);
        }
    }
    if map.get("triangles").is_none() && map.get("triangles6").is_none() {
        return Err("TriangleList: missing `triangles` (or `triangles6`)".into());
    }
    Ok(GraphicsData::Triangles {
        points,
        colors,
        normals,
        triangles,
    })
}

/// Spheres: points with their radii (> 0) and colors, and the tessellation's resolution.
fn spheres(map: &Map<String, Value>) -> std::result::Result<GraphicsData, String> {
    let ty = "Spheres";
    let get = |k: &str| map.get(k).ok_or_else(|| format!("{ty}: missing `{k}`"));
    let points = rows::<3>(ty, "points", get("points")?)?;
    let radii = rows::<1>(ty, "radii", get("radii")?)?
        .into_iter()
        .map(|[r]| r)
        .collect::<Vec<_>>();
    let colors = rows::<4>(ty, "colors", get("colors")?)?;
    if radii.len() != points.len() || colors.len() != points.len() {
        return Err(format!(
            "Spheres: {} points, {} radii and {} colors (one each expected)",
            points.len(),
            radii.len(),
            colors.len()
        ));
    }
    if let Some(r) = radii.iter().find(|r| !(**r > 0.0)) {
        return Err(format!("Spheres: radius {r} (expected > 0)"));
    }
    let resolution = match map.get("resolution") {
        None => 8,
        Some(v) => v.as_u64().filter(|&r| r >= 2).ok_or_else(|| {
            format!(
                "Spheres: `resolution` must be an integer ≥ 2, found {}",
                describe(v)
            )
        })? as usize,
    };
    Ok(GraphicsData::Spheres {
        points,
        radii,
        colors,
        resolution,
    })
}
