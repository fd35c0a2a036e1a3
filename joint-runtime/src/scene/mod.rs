//! A 3-D scene of a model and its motion, drawn as Exudyn draws it, for glTF export
//! ([`glb`]) and the HTML viewer of `jointsim view`.
//!
//! What is drawn, in the model's own coordinates (glTF's y-up is not imposed; the scene's
//! `up` says which way is up, from gravity):
//! * **spherical joints** as Exudyn's `VisualizationObjectJointSpherical`: a sphere of radius
//!   `VjointRadius` at marker 0 in `ModifyColor(color, 0.25)`, one at marker 1 in the full
//!   colour, and, if fewer than 3 axes are constrained, a cylinder of radius `0.5·VjointRadius`
//!   between them in `ModifyColor(color, 0.5)`; `color` is `Vcolor`, or
//!   `connectors.defaultColor` when its red component is −1; nothing when `Vshow` (or
//!   `connectors.show`) is false. Spheres are tessellated with `general.sphereTiling`
//!   segments around, cylinders with `general.cylinderTiling`;
//! * **other connectors**: revolute, prismatic and generic joints as spheres of `VaxisRadius`
//!   at both markers; distance constraints and spring-dampers as a cylinder between the markers
//!   of radius `VdrawSize/2` (`connectors.defaultSize/4` by default), in
//!   `ModifyColor(color, 0.5)`;
//! * **bodies** (ground, rigid bodies, mass points, kinematic-tree links) as their graphics
//!   data (`VgraphicsData`, `VgraphicsDataList`); a rigid body or link without graphics as the
//!   uniform box that has its mass and inertia about its centre of mass, along its principal
//!   axes (at most the scene's size), in `bodies.defaultColor`;
//! * **nodes and markers** (those with a position) as small spheres (`nodes.tiling`) of
//!   diameter `VdrawSize` or `nodes.defaultSize` / `markers.defaultSize`, or 2 % (markers
//!   1.5 %) of the scene's size when those are −1, in their colours.
//!
//! Superelements (GenericODE2, FFRFreducedOrder) are drawn through their nodes and markers
//! only; their meshes would need deforming geometry.

mod bodies;
mod connectors;
pub mod glb;
pub mod mesh;
pub mod motion;

use std::collections::HashMap;

use nalgebra::{Matrix3, Rotation3, SymmetricEigen, UnitQuaternion, Vector3};

use crate::error::{Error, Result};
use crate::items::OutputVariable;
use crate::items::joints::Drawing;
use crate::items::{Load, MarkerIndex, Node, NodeIndex, Object, ObjectIndex};
use crate::model::{Color, Model, Visualization};
use crate::simulation::Simulation;
use mesh::{Mesh, Primitive, cuboid, graphics_primitives, rgba, sphere, unit_cylinder};
pub use motion::Motion;

/// Where a scene node is at one time: translation, rotation and scale (glTF's TRS).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pose {
    /// Translation.
    pub translation: [f64; 3],
    /// Rotation.
    pub rotation: UnitQuaternion<f64>,
    /// Scale per axis.
    pub scale: [f64; 3],
}

impl Pose {
    /// At `translation`, unrotated, unscaled.
    pub fn at(translation: [f64; 3]) -> Self {
        Pose {
            translation,
            rotation: UnitQuaternion::identity(),
            scale: [1.0; 3],
        }
    }

    fn frame(translation: [f64; 3], rotation: &Matrix3<f64>) -> Self {
        Pose {
            translation,
            rotation: UnitQuaternion::from_rotation_matrix(&Rotation3::from_matrix_unchecked(
                *rotation,
            )),
            scale: [1.0; 3],
        }
    }

    /// The local unit cylinder (z from 0 to 1) stretched from `p0` to `p1`.
    fn between(p0: [f64; 3], p1: [f64; 3]) -> Self {
        let d = Vector3::from(p1) - Vector3::from(p0);
        let length = d.norm();
        let rotation = if length > 0.0 {
            UnitQuaternion::rotation_between(&Vector3::z(), &d).unwrap_or_else(|| {
                UnitQuaternion::from_axis_angle(&Vector3::x_axis(), std::f64::consts::PI)
            })
        } else {
            UnitQuaternion::identity()
        };
        // a zero scale would make the node's matrix singular
        Pose {
            translation: p0,
            rotation,
            scale: [1.0, 1.0, length.max(1e-9)],
        }
    }

    /// `local` in the global frame.
    pub fn apply(&self, local: [f64; 3]) -> [f64; 3] {
        let s = Vector3::from(local).component_mul(&Vector3::from(self.scale));
        (self.rotation * s + Vector3::from(self.translation)).into()
    }
}

/// A drawn thing: a mesh and its pose at each time of the scene (one pose: it does not move).
#[derive(Clone, Debug, PartialEq)]
pub struct SceneNode {
    /// The item it draws and what part: `objects[2] (JointSpherical) marker 1 sphere`.
    pub name: String,
    /// Index of its mesh in `Scene::meshes`.
    pub mesh: usize,
    /// One pose per time of `Scene::times`, or one for a still node.
    pub poses: Vec<Pose>,
}

/// A model's scene and motion.
#[derive(Clone, Debug, PartialEq)]
pub struct Scene {
    /// The scene's title (the model's name).
    pub title: String,
    /// The meshes.
    pub meshes: Vec<Mesh>,
    /// The drawn things.
    pub nodes: Vec<SceneNode>,
    /// Strictly increasing times of the poses.
    pub times: Vec<f64>,
    /// The up direction (against gravity; y if there is none).
    pub up: [f64; 3],
    /// Bounds of everything drawn over the whole motion.
    pub bounds: ([f64; 3], [f64; 3]),
    /// Background RGBA (`general.backgroundColor`).
    pub background: [f32; 4],
}

/// Exudyn's `ModifyColor(c, f) = (1−f)·[0.5, 0.5, 0.5, c3] + f·c`: `c` faded towards grey.
pub fn modify_color(c: Color, f: f64) -> Color {
    [
        (1.0 - f) * 0.5 + f * c[0],
        (1.0 - f) * 0.5 + f * c[1],
        (1.0 - f) * 0.5 + f * c[2],
        c[3],
    ]
}

/// What one time of the motion puts where.
struct Frame {
    /// Per node: position and rotation (None for nodes without a pose).
    nodes: Vec<Option<([f64; 3], Matrix3<f64>)>>,
    /// Per marker: position (None for markers that give none).
    markers: Vec<Option<[f64; 3]>>,
    /// Per object: the frames of a kinematic tree's links.
    links: Vec<Vec<([f64; 3], Matrix3<f64>)>>,
}

fn evaluate(sim: &Simulation) -> Result<Frame> {
    let mut nodes = Vec::with_capacity(sim.mbs.nodes.len());
    for (i, node) in sim.mbs.nodes.iter().enumerate() {
        nodes.push(match node {
            // no position of their own (a Node1D's is its object's; Exudyn hides it by default)
            Node::GenericODE2 { .. }
            | Node::Node1D { .. }
            | Node::GenericData { .. }
            | Node::GenericODE1 { .. } => None,
            Node::Point { .. } | Node::Point2D { .. } | Node::PointGround { .. } => Some((
                vec3(&sim.node_output(NodeIndex(i), OutputVariable::Position)?),
                Matrix3::identity(),
            )),
            Node::RigidBodyEP { .. }
            | Node::RigidBodyRxyz { .. }
            | Node::RigidBodyRotVecLG { .. }
            | Node::RigidBody2D { .. } => Some((
                vec3(&sim.node_output(NodeIndex(i), OutputVariable::Position)?),
                Matrix3::from_row_slice(
                    &sim.node_output(NodeIndex(i), OutputVariable::RotationMatrix)?,
                ),
            )),
        });
    }
    let markers = (0..sim.mbs.markers.len())
        .map(|m| {
            sim.marker_output(MarkerIndex(m), OutputVariable::Position)
                .ok()
                .map(|p| vec3(&p))
        })
        .collect();
    let mut links = Vec::with_capacity(sim.mbs.objects.len());
    for (i, object) in sim.mbs.objects.iter().enumerate() {
        let mut frames = Vec::new();
        if let Object::KinematicTree { parameters, .. } = object {
            for link in 0..parameters.link_masses.len() {
                let p = sim.kinematic_tree_output(
                    ObjectIndex(i),
                    link,
                    [0.0; 3],
                    OutputVariable::Position,
                )?;
                let r = sim.kinematic_tree_output(
                    ObjectIndex(i),
                    link,
                    [0.0; 3],
                    OutputVariable::RotationMatrix,
                )?;
                frames.push((vec3(&p), Matrix3::from_row_slice(&r)));
            }
        }
        links.push(frames);
    }
    Ok(Frame {
        nodes,
        markers,
        links,
    })
}

fn vec3(v: &[f64]) -> [f64; 3] {
    [v[0], v[1], v[2]]
}

/// Build the scene of `model` (assembled in `sim`, whose state is overwritten) moving as
/// `motion` says. Frames at a time not after the previous one replace it, so the scene's
/// times increase strictly (Exudyn's solution files may repeat the last time).
pub fn build_scene(
    model: &Model,
    visualization: &Visualization,
    sim: &mut Simulation,
    motion: &Motion,
    title: &str,
) -> Result<Scene> {
    let n2 = sim.topology.n_ode2;
    let mut times: Vec<f64> = Vec::new();
    let mut frames: Vec<Frame> = Vec::new();
    for (t, q) in motion.times.iter().zip(&motion.coordinates) {
        if q.len() != n2 {
            return Err(Error::Model {
                message: format!(
                    "the motion has {} ODE2 coordinates at t = {t}, the model {n2}",
                    q.len()
                ),
            });
        }
        sim.state.time = *t;
        sim.state.q.copy_from_slice(q);
        let frame = evaluate(sim)?;
        if times.last().is_some_and(|last| !(*t > *last)) {
            *frames.last_mut().expect("a frame per time") = frame;
            *times.last_mut().expect("a time") = *t;
        } else {
            times.push(*t);
            frames.push(frame);
        }
    }
    if frames.is_empty() {
        return Err(Error::Model {
            message: "the motion has no frames".into(),
        });
    }
    let mut b = Builder {
        model,
        vis: visualization,
        frames: &frames,
        meshes: Vec::new(),
        cache: HashMap::new(),
        nodes: Vec::new(),
    };
    let scene_size = b.scene_size();
    b.bodies(scene_size);
    b.connectors();
    b.points(scene_size);

    let mut lo = [f64::INFINITY; 3];
    let mut hi = [f64::NEG_INFINITY; 3];
    for node in &b.nodes {
        let (mlo, mhi) = b.meshes[node.mesh].bounds();
        for pose in &node.poses {
            for corner in 0..8 {
                let local = [0, 1, 2].map(|k| {
                    if corner & (1 << k) == 0 {
                        f64::from(mlo[k])
                    } else {
                        f64::from(mhi[k])
                    }
                });
                let g = pose.apply(local);
                for k in 0..3 {
                    lo[k] = lo[k].min(g[k]);
                    hi[k] = hi[k].max(g[k]);
                }
            }
        }
    }
    if lo[0] > hi[0] {
        (lo, hi) = ([0.0; 3], [0.0; 3]);
    }
    Ok(Scene {
        title: title.to_owned(),
        meshes: b.meshes,
        nodes: b.nodes,
        times,
        up: up_direction(model),
        bounds: (lo, hi),
        background: rgba(visualization.settings.background_color),
    })
}

/// Against the first gravity in the model (a mass-proportional load, else a kinematic tree's
/// `gravity`); y if there is none.
fn up_direction(model: &Model) -> [f64; 3] {
    let loads = model.mbs.loads.iter().filter_map(|l| match l {
        Load::MassProportional { load_vector, .. } => Some(*load_vector),
        _ => None,
    });
    let trees = model.mbs.objects.iter().filter_map(|o| match o {
        Object::KinematicTree { parameters, .. } => Some(parameters.gravity),
        _ => None,
    });
    for g in loads.chain(trees) {
        let g = Vector3::from(g);
        if g.norm() > 0.0 {
            return (-g / g.norm()).into();
        }
    }
    [0.0, 1.0, 0.0]
}

struct Builder<'a> {
    model: &'a Model,
    vis: &'a Visualization,
    frames: &'a [Frame],
    meshes: Vec<Mesh>,
    /// Meshes shared by key (kind, size, colour).
    cache: HashMap<String, usize>,
    nodes: Vec<SceneNode>,
}

impl Builder<'_> {
    /// The extent of the nodes' and markers' positions over the motion, at least
    /// `general.minSceneSize`.
    fn scene_size(&self) -> f64 {
        let mut lo = [f64::INFINITY; 3];
        let mut hi = [f64::NEG_INFINITY; 3];
        for f in self.frames {
            let points = f.nodes.iter().flatten().map(|(p, _)| p);
            let points = points.chain(f.markers.iter().flatten());
            let points = points.chain(f.links.iter().flatten().map(|(p, _)| p));
            for p in points {
                for k in 0..3 {
                    lo[k] = lo[k].min(p[k]);
                    hi[k] = hi[k].max(p[k]);
                }
            }
        }
        let extent = (0..3).map(|k| hi[k] - lo[k]).fold(0.0, f64::max);
        extent.max(self.vis.settings.min_scene_size)
    }

    fn mesh(&mut self, key: String, make: impl FnOnce() -> Vec<Primitive>) -> usize {
        if let Some(&m) = self.cache.get(&key) {
            return m;
        }
        self.meshes.push(Mesh {
            name: key.clone(),
            primitives: make(),
        });
        self.cache.insert(key, self.meshes.len() - 1);
        self.meshes.len() - 1
    }

    /// A mesh of its own (not shared).
    fn own_mesh(&mut self, name: &str, primitives: Vec<Primitive>) -> usize {
        self.meshes.push(Mesh {
            name: name.to_owned(),
            primitives,
        });
        self.meshes.len() - 1
    }

    fn sphere_mesh(&mut self, radius: f64, tiling: usize, color: [f32; 4]) -> usize {
        self.mesh(
            format!("sphere r={radius} tiling={tiling} {color:?}"),
            || vec![sphere([0.0; 3], radius, tiling, color)],
        )
    }

    fn add(&mut self, name: String, mesh: usize, poses: Vec<Pose>) {
        self.nodes.push(SceneNode { name, mesh, poses })
    }

    fn item_name(&self, list: &str, i: usize) -> String {
        match list {
            "objects" => self.model.mbs.object_ref(i).to_string(),
            "nodes" => self.model.mbs.node_ref(i).to_string(),
            _ => self.model.mbs.marker_ref(i).to_string(),
        }
    }

    /// A node's pose at each time (`rotate`: with its rotation).
    fn node_poses(&self, node: usize, rotate: bool) -> Vec<Pose> {
        self.frames
            .iter()
            .map(|f| match f.nodes[node] {
                Some((p, r)) if rotate => Pose::frame(p, &r),
                Some((p, _)) => Pose::at(p),
                None => Pose::at([0.0; 3]),
            })
            .collect()
    }

    fn marker_poses(&self, marker: usize) -> Option<Vec<Pose>> {
        self.frames
            .iter()
            .map(|f| f.markers.get(marker).copied().flatten().map(Pose::at))
            .collect()
    }

    fn points(&mut self, scene_size: f64) {
        let settings = self.vis.settings.clone();
        if settings.nodes.show {
            for (i, node) in self.model.mbs.nodes.iter().enumerate() {
                let Some(v) = self.vis.nodes.get(i) else {
                    continue;
                };
                if matches!(node, Node::GenericODE2 { .. }) || !v.show || v.draw_size == 0.0 {
                    continue;
                }
                let size = if v.draw_size > 0.0 {
                    v.draw_size
                } else if settings.nodes.default_size > 0.0 {
                    settings.nodes.default_size
                } else {
                    0.02 * scene_size
                };
                let color = if v.color[0] < 0.0 {
                    settings.nodes.default_color
                } else {
                    v.color
                };
                let m = self.sphere_mesh(0.5 * size, settings.node_tiling, rgba(color));
                let poses = self.node_poses(i, false);
                let name = format!("{} point", self.item_name("nodes", i));
                self.add(name, m, poses);
            }
        }
        if settings.markers.show {
            let size = if settings.markers.default_size > 0.0 {
                settings.markers.default_size
            } else {
                0.015 * scene_size
            };
            for m in 0..self.model.mbs.markers.len() {
                if !self.vis.markers.get(m).copied().unwrap_or(true) {
                    continue;
                }
                let Some(poses) = self.marker_poses(m) else {
                    continue;
                };
                let mesh = self.sphere_mesh(
                    0.5 * size,
                    settings.node_tiling,
                    rgba(settings.markers.default_color),
                );
                let name = format!("{} point", self.item_name("markers", m));
                self.add(name, mesh, poses);
            }
        }
    }
}

/// The uniform box with `mass` and inertia `j_com` about its centre `com`: along the principal
/// axes, with sides `a² = 6 (J₂ + J₃ − J₁) / m` (and cyclically) from the principal moments
/// J₁, J₂, J₃. Sides that come out tiny (a rod, a point mass) get 1 % of the largest, a box
/// larger than the scene is shrunk to its size (same shape), and a massless body is a cube of
/// 5 % of the scene.
pub fn inertia_box(
    mass: f64,
    j_com: &Matrix3<f64>,
    com: [f64; 3],
    color: [f32; 4],
    scene_size: f64,
) -> Primitive {
    let eigen = SymmetricEigen::new(*j_com);
    let m = eigen.eigenvalues;
    let mut sides = [0, 1, 2].map(|k| {
        let (a, b) = ((k + 1) % 3, (k + 2) % 3);
        if mass > 0.0 {
            (6.0 * (m[a] + m[b] - m[k]) / mass).max(0.0).sqrt()
        } else {
            0.0
        }
    });
    let largest = sides.iter().copied().fold(0.0, f64::max);
    if !(largest > 0.0) || !largest.is_finite() {
        sides = [0.05 * scene_size; 3];
    } else {
        // an inertia far larger than the mass's spread (test models have them) would give a
        // box that hides the scene: keep the shape, at most the scene's size
        let shrink = (scene_size / largest).min(1.0);
        for s in &mut sides {
            *s = s.max(0.01 * largest) * shrink;
        }
    }
    let mut axes = eigen.eigenvectors;
    if axes.determinant() < 0.0 {
        axes.column_mut(2).neg_mut();
    }
    let mut p = cuboid([0.0; 3], sides, color);
    let c = Vector3::from(com);
    for v in &mut p.positions {
        let g = axes * Vector3::new(f64::from(v[0]), f64::from(v[1]), f64::from(v[2])) + c;
        *v = [g.x as f32, g.y as f32, g.z as f32];
    }
    for n in &mut p.normals {
        let g = axes * Vector3::new(f64::from(n[0]), f64::from(n[1]), f64::from(n[2]));
        *n = [g.x as f32, g.y as f32, g.z as f32];
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The box built from a cuboid's inertia is that cuboid: sides back from the moments,
    /// turned to the principal axes.
    #[test]
    fn inertia_box_recovers_the_cuboid() {
        let (m, a, b, c) = (2.0, 1.0, 0.2, 0.1);
        let local = Matrix3::from_diagonal(&Vector3::new(
            m * (b * b + c * c) / 12.0,
            m * (a * a + c * c) / 12.0,
            m * (a * a + b * b) / 12.0,
        ));
        let r = Rotation3::from_euler_angles(0.3, -0.2, 0.9).into_inner();
        let p = inertia_box(
            m,
            &(r * local * r.transpose()),
            [0.5, 0.0, 0.0],
            [1.0; 4],
            1.0,
        );
        // the box's vertices, taken back to the cuboid's axes, span a × b × c about the centre
        let mut extent = [0.0f64; 3];
        for v in &p.positions {
            let l = r.transpose()
                * (Vector3::new(v[0].into(), v[1].into(), v[2].into())
                    - Vector3::new(0.5, 0.0, 0.0));
            for k in 0..3 {
                extent[k] = extent[k].max(2.0 * l[k].abs());
            }
        }
        for (e, want) in extent.iter().zip([a, b, c]) {
            assert!((e - want).abs() < 1e-5, "{extent:?}");
        }
    }

    #[test]
    fn modify_color_fades_to_grey() {
        assert_eq!(
            modify_color([0.2, 0.2, 1.0, 1.0], 0.25),
            [0.425, 0.425, 0.625, 1.0]
        );
        assert_eq!(
            modify_color([0.2, 0.2, 1.0, 0.5], 1.0),
            [0.2, 0.2, 1.0, 0.5]
        );
    }

    #[test]
    fn cylinder_pose_spans_the_markers() {
        let pose = Pose::between([1.0, 2.0, 3.0], [1.0, 4.0, 3.0]);
        let end = pose.apply([0.0, 0.0, 1.0]);
        for (e, want) in end.iter().zip([1.0, 4.0, 3.0]) {
            assert!((e - want).abs() < 1e-12);
        }
        let flipped = Pose::between([0.0; 3], [0.0, 0.0, -2.0]).apply([0.0, 0.0, 1.0]);
        assert!((flipped[2] + 2.0).abs() < 1e-12);
    }
}
