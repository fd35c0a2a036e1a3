//! Bodies drawn as Exudyn draws them: their graphics data, or a default shape from their inertia.

use super::*;

impl Builder<'_> {
    pub(super) fn bodies(&mut self, scene_size: f64) {
        let settings = &self.vis.settings;
        if !settings.bodies.show {
            return;
        }
        let body_color = settings.bodies.default_color;
        let circle_tiling = settings.circle_tiling;
        for (i, object) in self.model.mbs.objects.iter().enumerate() {
            let Some(v) = self.vis.objects.get(i) else {
                continue;
            };
            if !v.show {
                continue;
            }
            let name = self.item_name("objects", i);
            let graphics = graphics_primitives(&v.graphics, body_color, circle_tiling);
            match object {
                Object::Ground {
                    reference_position,
                    reference_rotation,
                    ..
                } if !graphics.is_empty() => {
                    let m = self.own_mesh(&name, graphics);
                    let r = Matrix3::from_row_slice(reference_rotation.as_flattened());
                    self.add(name, m, vec![Pose::frame(*reference_position, &r)]);
                }
                Object::RigidBody {
                    mass,
                    inertia,
                    center_of_mass,
                    node,
                    ..
                } => {
                    let primitives = if graphics.is_empty() {
                        let j = Matrix3::new(
                            inertia[0], inertia[5], inertia[4], inertia[5], inertia[1], inertia[3],
                            inertia[4], inertia[3], inertia[2],
                        );
                        let c = Vector3::from(*center_of_mass);
                        // about the centre of mass (parallel-axis theorem)
                        let j_com = j - *mass
                            * (c.norm_squared() * Matrix3::identity() - c * c.transpose());
                        vec![inertia_box(
                            *mass,
                            &j_com,
                            *center_of_mass,
                            rgba(body_color),
                            scene_size,
                        )]
                    } else {
                        graphics
                    };
                    let m = self.own_mesh(&name, primitives);
                    let poses = self.node_poses(node.0, true);
                    self.add(name, m, poses);
                }
                Object::MassPoint { node, .. } | Object::MassPoint2D { node, .. }
                    if !graphics.is_empty() =>
                {
                    let m = self.own_mesh(&name, graphics);
                    let poses = self.node_poses(node.0, false);
                    self.add(name, m, poses);
                }
                Object::RigidBody2D { node, .. } if !graphics.is_empty() => {
                    let m = self.own_mesh(&name, graphics);
                    let poses = self.node_poses(node.0, true);
                    self.add(name, m, poses);
                }
                Object::KinematicTree { parameters, .. } => {
                    for link in 0..parameters.link_masses.len() {
                        let link_graphics =
                            v.link_graphics.get(link).map_or(&[][..], Vec::as_slice);
                        let graphics =
                            graphics_primitives(link_graphics, body_color, circle_tiling);
                        let primitives = if graphics.is_empty() {
                            let j = Matrix3::from_row_slice(
                                parameters.link_inertias_com[link].as_flattened(),
                            );
                            vec![inertia_box(
                                parameters.link_masses[link],
                                &j,
                                parameters.link_coms[link],
                                rgba(body_color),
                                scene_size,
                            )]
                        } else {
                            graphics
                        };
                        let link_name = format!("{name} link {link}");
                        let m = self.own_mesh(&link_name, primitives);
                        let poses = self
                            .frames
                            .iter()
                            .map(|f| {
                                let (p, r) = f.links[i][link];
                                Pose::frame(p, &r)
                            })
                            .collect();
                        self.add(link_name, m, poses);
                    }
                }
                _ => {}
            }
        }
    }
}
