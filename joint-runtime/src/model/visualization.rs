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
use super::graphics_data::{Color, GraphicsData, graphics_list};
use crate::error::{Error, ItemRef, Result};
use crate::system::MultibodySystem;

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
    /// `contact.*`: how ObjectContactSphereSphere's spheres are drawn.
    pub contact: ContactSettings,
}

/// `contact.showSpheres`, `contact.tilingSpheres`, `contact.colorSpheres`.
#[derive(Clone, Debug, PartialEq)]
pub struct ContactSettings {
    /// `showSpheres`: whether contact spheres are drawn (Exudyn's default: no).
    pub show_spheres: bool,
    /// `tilingSpheres`.
    pub tiling_spheres: usize,
    /// `colorSpheres`: the colour of a contact whose `Vcolor` is the default.
    pub color_spheres: Color,
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
            contact: ContactSettings {
                show_spheres: false,
                tiling_spheres: 4,
                color_spheres: [0.8, 0.5, 0.2, 1.0],
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

/// Exudyn 1.13.6's keys of `contact` (`SC.visualizationSettings.contact`).
const CONTACT_KEYS: [&str; 17] = [
    "colorBoundingBoxes",
    "colorSearchTree",
    "colorSpheres",
    "colorTori",
    "colorTriangles",
    "contactForcesFactor",
    "contactPointsDefaultSize",
    "showBoundingBoxes",
    "showContactForces",
    "showContactForcesValues",
    "showSearchTree",
    "showSearchTreeCells",
    "showSpheres",
    "showTori",
    "showTriangles",
    "tilingCurves",
    "tilingSpheres",
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
    if let Some(mut d) = top.opt_section("contact")? {
        strict(&mut d, &CONTACT_KEYS);
        d.set_bool("showSpheres", &mut s.contact.show_spheres)?;
        tiling(&mut d, "tilingSpheres", &mut s.contact.tiling_spheres)?;
        s.contact.color_spheres = d.vec_or("colorSpheres", s.contact.color_spheres)?;
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
