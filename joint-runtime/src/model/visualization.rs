//! What a model file says about drawing it: the items' `V…` keys (graphics data, colours,
//! sizes, `Vshow`) and the top-level `visualizationSettings` (Exudyn's
//! `SC.visualizationSettings.GetDictionary()`). Only `jointsim scene` and `jointsim view` read
//! them; running a model ignores them, as Exudyn's solvers do.
//!
//! Strict where it matters: a value of the wrong type, graphics data that do not fit together
//! (a triangle naming a point that is not there) and unknown keys in the sections that are
//! read are errors that name the item or the setting. Sections of `visualizationSettings`
//! that no drawing here uses (`openGL`, `view0`, …) are accepted with any content.

use serde_json::{Map, Value};

use super::fields::{Dict, Owner, describe};
use crate::error::{Error, ItemRef, Result};
use crate::system::MultibodySystem;

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

/// `nodes`, `markers`, `bodies` or `connectors` of `visualizationSettings`.
#[derive(Clone, Debug, PartialEq)]
pub struct ClassSettings {
    /// `show`: whether items of the class are drawn.
    pub show: bool,
    /// −1: chosen from the scene's size.
    pub default_size: f64,
    /// `defaultColor`.
    pub default_color: Color,
}

/// The parts of Exudyn's `visualizationSettings` that the scene uses, with Exudyn 1.13.6's
/// defaults.
#[derive(Clone, Debug, PartialEq)]
pub struct VisualizationSettings {
    /// `general.sphereTiling`: segments around a sphere's equator.
    pub sphere_tiling: usize,
    /// `general.cylinderTiling`: segments around a cylinder.
    pub cylinder_tiling: usize,
    /// `general.circleTiling`: segments of a `Circle` graphics item.
    pub circle_tiling: usize,
    /// `general.minSceneSize`.
    pub min_scene_size: f64,
    /// `general.backgroundColor`.
    pub background_color: Color,
    /// `nodes.*`; `nodes.tiling` is the tiling of a node's sphere.
    pub nodes: ClassSettings,
    /// `nodes.tiling`: the tiling of a node's sphere.
    pub node_tiling: usize,
    /// `markers.*`.
    pub markers: ClassSettings,
    /// `bodies.*`.
    pub bodies: ClassSettings,
    /// `connectors.*`.
    pub connectors: ClassSettings,
}

impl Default for VisualizationSettings {
    fn default() -> Self {
        // Exudyn stores these as float32: 0.2 reads back as 0.20000000298023224. The scene
        // is drawn in float32 anyway.
        VisualizationSettings {
            sphere_tiling: 16,
            cylinder_tiling: 16,
            circle_tiling: 16,
            min_scene_size: 0.1,
            background_color: [1.0, 1.0, 1.0, 1.0],
            nodes: ClassSettings {
                show: true,
                default_size: -1.0,
                default_color: [0.2, 0.2, 1.0, 1.0],
            },
            node_tiling: 4,
            markers: ClassSettings {
                show: true,
                default_size: -1.0,
                default_color: [0.1, 0.5, 0.1, 1.0],
            },
            bodies: ClassSettings {
                show: true,
                default_size: 1.0,
                default_color: [0.3, 0.3, 1.0, 1.0],
            },
            connectors: ClassSettings {
                show: true,
                default_size: 0.1,
                default_color: [0.2, 0.2, 1.0, 1.0],
            },
        }
    }
}

/// `Vshow`, `VdrawSize` and `Vcolor` of a node.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeVisual {
    /// `Vshow`.
    pub show: bool,
    /// −1: the default size; 0: not drawn.
    pub draw_size: f64,
    /// `Vcolor` (−1: the class default).
    pub color: Color,
}

/// The visualization keys of an object.
#[derive(Clone, Debug, PartialEq)]
pub struct ObjectVisual {
    /// `Vshow`.
    pub show: bool,
    /// `VgraphicsData` (Ground, RigidBody, MassPoint); empty if absent or not exported.
    pub graphics: Vec<GraphicsData>,
    /// `VgraphicsDataList` of a KinematicTree: per link (empty if absent).
    pub link_graphics: Vec<Vec<GraphicsData>>,
    /// `Vcolor` (−1: the class default).
    pub color: Color,
    /// `VjointRadius` (spherical joint), `VaxisRadius` (revolute, prismatic, generic joints),
    /// `VdrawSize` (connectors); −1: the class default.
    pub size: f64,
}

/// A model file's visualization.
#[derive(Clone, Debug, PartialEq)]
pub struct Visualization {
    /// The scene's `visualizationSettings`.
    pub settings: VisualizationSettings,
    /// Per node, its visualization keys.
    pub nodes: Vec<NodeVisual>,
    /// Per object, its visualization keys.
    pub objects: Vec<ObjectVisual>,
    /// `Vshow` of each marker.
    pub markers: Vec<bool>,
}

const SECTIONS: [&str; 18] = [
    "nodes",
    "bodies",
    "connectors",
    "markers",
    "loads",
    "sensors",
    "contour",
    "contact",
    "view0",
    "view1",
    "view2",
    "view3",
    "openGL",
    "raytracer",
    "general",
    "interactive",
    "dialogs",
    "exportImages",
];

/// Exudyn 1.13.6's keys of the sections that are read (the others are accepted unread).
const GENERAL_KEYS: [&str; 32] = [
    "autoFitScene",
    "axesTiling",
    "backgroundColor",
    "backgroundColorBottom",
    "boundingBoxZoomAllFactor",
    "boundingBoxZoomAllOffset",
    "circleTiling",
    "coordinateSystemSize",
    "cylinderTiling",
    "displayScaleFactor",
    "graphicsUpdateInterval",
    "limitWindowToScreenSize",
    "minSceneSize",
    "pointSize",
    "reallyQuitTimeLimit",
    "renderWindowString",
    "rendererPrecision",
    "rendererStartupTimeout",
    "showHelpOnStartup",
    "showSolutionInformation",
    "showSolverInformation",
    "showSolverTime",
    "sphereTiling",
    "textAlwaysInFront",
    "textColor",
    "textHasBackground",
    "textOffsetFactor",
    "threadSafeGraphicsUpdate",
    "useBitmapText",
    "useGradientBackground",
    "useMultiThreadedRendering",
    "zoomAllUseBoundingBox",
];
const NODES_KEYS: [&str; 9] = [
    "basisSize",
    "defaultColor",
    "defaultSize",
    "drawNodesAsPoint",
    "show",
    "showBasis",
    "showNodalSlopes",
    "showNumbers",
    "tiling",
];
const MARKERS_KEYS: [&str; 7] = [
    "basisSize",
    "defaultColor",
    "defaultSize",
    "drawSimplified",
    "show",
    "showBasis",
    "showNumbers",
];
const BODIES_KEYS: [&str; 8] = [
    "beams",
    "defaultColor",
    "defaultSize",
    "deformationScaleFactor",
    "kinematicTree",
    "shells",
    "show",
    "showNumbers",
];
const CONNECTORS_KEYS: [&str; 12] = [
    "contactPointsDefaultSize",
    "curveTiling",
    "defaultColor",
    "defaultSize",
    "drawSimplified",
    "jointAxesLength",
    "jointAxesRadius",
    "show",
    "showContact",
    "showJointAxes",
    "showNumbers",
    "springNumberOfWindings",
];

/// The visualization of a model file's JSON whose items `mbs` holds (read from the same JSON;
/// [`super::read_model_and_visualization`]).
pub(super) fn visualization_from(root: &Value, mbs: &MultibodySystem) -> Result<Visualization> {
    let top = root.as_object().ok_or_else(|| Error::Model {
        message: format!(
            "the top level must be a dictionary, found {}",
            describe(root)
        ),
    })?;
    let settings = match top.get("visualizationSettings") {
        None => VisualizationSettings::default(),
        Some(Value::Object(map)) => read_settings(map)?,
        Some(other) => {
            return Err(Error::Model {
                message: format!(
                    "`visualizationSettings` must be a dictionary, found {}",
                    describe(other)
                ),
            });
        }
    };
    let items = |list: &str| -> &[Value] {
        top.get(list)
            .and_then(Value::as_array)
            .map_or(&[], Vec::as_slice)
    };
    let mut nodes = Vec::new();
    for (i, v) in items("nodes").iter().enumerate() {
        let item = mbs.node_ref(i);
        let mut d = dict(item, v)?;
        nodes.push(NodeVisual {
            show: d.bool_or("Vshow", true)?,
            draw_size: d.f64_or("VdrawSize", -1.0)?,
            color: d.vec_or("Vcolor", [-1.0; 4])?,
        });
    }
    let mut objects = Vec::new();
    for (i, v) in items("objects").iter().enumerate() {
        let item = mbs.object_ref(i);
        let mut d = dict(item.clone(), v)?;
        let size_key = match item.type_name.as_str() {
            "JointSpherical" => "VjointRadius",
            "JointRevoluteZ" | "JointPrismaticX" | "JointGeneric" => "VaxisRadius",
            _ => "VdrawSize",
        };
        let default_size = if size_key == "VjointRadius" {
            0.1
        } else {
            -1.0
        };
        let graphics = match d.get("VgraphicsData") {
            None => Vec::new(),
            Some(g) => graphics_list(&item, "VgraphicsData", g)?,
        };
        let link_graphics = match d.get("VgraphicsDataList") {
            None => Vec::new(),
            Some(Value::Array(links)) => links
                .iter()
                .enumerate()
                .map(|(k, g)| graphics_list(&item, &format!("VgraphicsDataList[{k}]"), g))
                .collect::<Result<_>>()?,
            Some(other) => {
                return Err(Error::item(
                    item,
                    "VgraphicsDataList",
                    format!(
                        "expected an array (one graphics data list per link), found {}",
                        describe(other)
                    ),
                ));
            }
        };
        objects.push(ObjectVisual {
            show: d.bool_or("Vshow", true)?,
            graphics,
            link_graphics,
            color: d.vec_or("Vcolor", [-1.0; 4])?,
            size: d.f64_or(size_key, default_size)?,
        });
    }
    let mut markers = Vec::new();
    for (i, v) in items("markers").iter().enumerate() {
        let mut d = dict(mbs.marker_ref(i), v)?;
        markers.push(d.bool_or("Vshow", true)?);
    }
    Ok(Visualization {
        settings,
        nodes,
        objects,
        markers,
    })
}

fn dict(item: ItemRef, v: &Value) -> Result<Dict<'_>> {
    match v {
        Value::Object(map) => Ok(Dict::new(Owner::Item(item), map)),
        other => Err(Error::Model {
            message: format!(
                "{item}: expected an item dictionary, found {}",
                describe(other)
            ),
        }),
    }
}

fn read_settings(map: &Map<String, Value>) -> Result<VisualizationSettings> {
    let mut s = VisualizationSettings::default();
    let mut top = Dict::new(Owner::Visualization(String::new()), map);
    if let Some(mut g) = top.opt_section("general")? {
        strict(&mut g, &GENERAL_KEYS);
        tiling(&mut g, "sphereTiling", &mut s.sphere_tiling)?;
        tiling(&mut g, "cylinderTiling", &mut s.cylinder_tiling)?;
        tiling(&mut g, "circleTiling", &mut s.circle_tiling)?;
        g.set_f64("minSceneSize", &mut s.min_scene_size)?;
        s.background_color = g.vec_or("backgroundColor", s.background_color)?;
        g.finish()?;
    }
    if let Some(mut n) = top.opt_section("nodes")? {
        strict(&mut n, &NODES_KEYS);
        class(&mut n, &mut s.nodes)?;
        tiling(&mut n, "tiling", &mut s.node_tiling)?;
        n.finish()?;
    }
    if let Some(mut d) = top.opt_section("markers")? {
        strict(&mut d, &MARKERS_KEYS);
        class(&mut d, &mut s.markers)?;
        d.finish()?;
    }
    if let Some(mut d) = top.opt_section("connectors")? {
        strict(&mut d, &CONNECTORS_KEYS);
        class(&mut d, &mut s.connectors)?;
        d.finish()?;
    }
    if let Some(mut d) = top.opt_section("bodies")? {
        strict(&mut d, &BODIES_KEYS);
        // bodies.defaultSize is a 3-vector (Exudyn's default box); only show and colour are
        // used here
        d.set_bool("show", &mut s.bodies.show)?;
        s.bodies.default_color = d.vec_or("defaultColor", s.bodies.default_color)?;
        d.finish()?;
    }
    top.ignore(&SECTIONS);
    top.finish()?;
    Ok(s)
}

/// Mark Exudyn's other keys of a section as accepted; `finish` then rejects only misspellings.
fn strict(d: &mut Dict<'_>, keys: &[&'static str]) {
    d.ignore(keys);
}

fn class(d: &mut Dict<'_>, c: &mut ClassSettings) -> Result<()> {
    d.set_bool("show", &mut c.show)?;
    d.set_f64("defaultSize", &mut c.default_size)?;
    c.default_color = d.vec_or("defaultColor", c.default_color)?;
    Ok(())
}

/// The largest tiling accepted: a sphere of this tiling is already half a million triangles,
/// and a larger one would take the scene's memory and time without limit.
pub const MAX_TILING: usize = 1024;

fn tiling(d: &mut Dict<'_>, key: &'static str, target: &mut usize) -> Result<()> {
    d.set_count(key, target)?;
    if !(2..=MAX_TILING).contains(target) {
        return Err(d.err(
            key,
            format!("expected a tiling from 2 to {MAX_TILING}, found {target}"),
        ));
    }
    Ok(())
}

/// A `VgraphicsData` list. Exudyn exports `[{"graphicsData": "<not requested>"}]` when the
/// graphics were not asked for; that is no graphics.
fn graphics_list(item: &ItemRef, key: &str, v: &Value) -> Result<Vec<GraphicsData>> {
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
