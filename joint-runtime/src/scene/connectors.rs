//! Connectors and joints drawn as Exudyn draws them: springs, rods, joint frames.

use super::*;
use crate::items::connectors::FamilyDrawing;
use crate::model::{ObjectVisual, VisualizationSettings};

impl Builder<'_> {
    pub(super) fn connectors(&mut self) {
        let settings = self.vis.settings.clone();
        if !settings.connectors.show {
            return;
        }
        for (i, object) in self.model.mbs.objects.iter().enumerate() {
            let Some(v) = self.vis.objects.get(i) else {
                continue;
            };
            let Some((markers, kind)) = Self::connector_kind(object, v, &settings) else {
                continue;
            };
            let default_color = match kind {
                Connector::ContactSpheres { .. } => settings.contact.color_spheres,
                _ => settings.connectors.default_color,
            };
            let color = if v.color[0] < 0.0 {
                default_color
            } else {
                v.color
            };
            let (Some(p0), Some(p1)) = (
                self.marker_poses(markers[0].0),
                self.marker_poses(markers[1].0),
            ) else {
                continue;
            };
            let name = self.item_name("objects", i);
            let cylinder_poses = || -> Vec<Pose> {
                p0.iter()
                    .zip(&p1)
                    .map(|(a, b)| Pose::between(a.translation, b.translation))
                    .collect()
            };
            match kind {
                Connector::Spherical { radius, cylinder } => {
                    let s0 = self.sphere_mesh(
                        radius,
                        settings.sphere_tiling,
                        rgba(modify_color(color, 0.25)),
                    );
                    let s1 = self.sphere_mesh(radius, settings.sphere_tiling, rgba(color));
                    if cylinder {
                        let c = self.mesh(
                            format!(
                                "cylinder r={} tiling={} {color:?}",
                                0.5 * radius,
                                settings.cylinder_tiling
                            ),
                            || {
                                vec![unit_cylinder(
                                    0.5 * radius,
                                    settings.cylinder_tiling,
                                    rgba(modify_color(color, 0.5)),
                                )]
                            },
                        );
                        self.add(format!("{name} cylinder"), c, cylinder_poses());
                    }
                    self.add(format!("{name} marker 0 sphere"), s0, p0);
                    self.add(format!("{name} marker 1 sphere"), s1, p1);
                }
                Connector::Spheres { radius } => {
                    let s = self.sphere_mesh(radius, settings.sphere_tiling, rgba(color));
                    self.add(format!("{name} marker 0 sphere"), s, p0);
                    self.add(format!("{name} marker 1 sphere"), s, p1);
                }
                Connector::ContactSpheres { radii } => {
                    let tiling = settings.contact.tiling_spheres;
                    let s0 = self.sphere_mesh(radii[0], tiling, rgba(color));
                    let s1 = self.sphere_mesh(radii[1], tiling, rgba(color));
                    self.add(format!("{name} marker 0 sphere"), s0, p0);
                    self.add(format!("{name} marker 1 sphere"), s1, p1);
                }
                Connector::Cylinder { radius } => {
                    let c = self.mesh(
                        format!(
                            "cylinder r={radius} tiling={} {color:?}",
                            settings.cylinder_tiling
                        ),
                        || {
                            vec![unit_cylinder(
                                radius,
                                settings.cylinder_tiling,
                                rgba(modify_color(color, 0.5)),
                            )]
                        },
                    );
                    self.add(format!("{name} cylinder"), c, cylinder_poses());
                }
            }
        }
    }

    /// How object `object` is drawn between which markers (`None`: not drawn).
    fn connector_kind(
        object: &Object,
        v: &ObjectVisual,
        settings: &VisualizationSettings,
    ) -> Option<([MarkerIndex; 2], Connector)> {
        Some(match object {
            Object::Joint(joint) => {
                let jv = &joint.visualization;
                if !jv.show {
                    return None;
                }
                let size = jv.size;
                let kind = match joint.joint_type.drawing {
                    Drawing::None => return None,
                    Drawing::Spherical => Connector::Spherical {
                        radius: size,
                        cylinder: joint.constrained_axes.iter().any(|&a| a != 1),
                    },
                    Drawing::Spheres => Connector::Spheres {
                        radius: if size > 0.0 {
                            size
                        } else {
                            0.2 * settings.connectors.default_size
                        },
                    },
                    Drawing::Cylinder => Connector::Cylinder {
                        radius: if size > 0.0 {
                            0.5 * size
                        } else {
                            0.25 * settings.connectors.default_size
                        },
                    },
                };
                (joint.markers, kind)
            }
            Object::Force(force) if force.show && v.show => (
                force.markers,
                Connector::Cylinder {
                    radius: 0.25 * settings.connectors.default_size,
                },
            ),
            Object::Connector(c) if v.show => match c.family.drawing() {
                FamilyDrawing::Line => (
                    c.markers,
                    Connector::Cylinder {
                        radius: if v.size > 0.0 {
                            0.5 * v.size
                        } else {
                            0.25 * settings.connectors.default_size
                        },
                    },
                ),
                FamilyDrawing::ContactSpheres { radii } if settings.contact.show_spheres => {
                    (c.markers, Connector::ContactSpheres { radii })
                }
                _ => return None,
            },
            _ => return None,
        })
    }
}

enum Connector {
    Spherical {
        radius: f64,
        cylinder: bool,
    },
    Spheres {
        radius: f64,
    },
    Cylinder {
        radius: f64,
    },
    /// A sphere of each radius at its marker (ObjectContactSphereSphere).
    ContactSpheres {
        radii: [f64; 2],
    },
}
