//! Output variable types (Exudyn's OutputVariableType), as far as the runtime's items have them.

use std::fmt;
use std::str::FromStr;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OutputVariable {
    Position,
    Displacement,
    Velocity,
    VelocityLocal,
    Acceleration,
    AccelerationLocal,
    Rotation,
    RotationMatrix,
    AngularVelocity,
    AngularVelocityLocal,
    AngularAcceleration,
    AngularAccelerationLocal,
    Coordinates,
    CoordinatesT,
    CoordinatesTT,
    CoordinatesTotal,
    Force,
    ForceLocal,
    Distance,
    DisplacementLocal,
    TorqueLocal,
    HomogeneousTransformation,
    HomogeneousTransformationLocal,
}

impl OutputVariable {
    pub const ALL: [OutputVariable; 23] = [
        OutputVariable::Position,
        OutputVariable::Displacement,
        OutputVariable::Velocity,
        OutputVariable::VelocityLocal,
        OutputVariable::Acceleration,
        OutputVariable::AccelerationLocal,
        OutputVariable::Rotation,
        OutputVariable::RotationMatrix,
        OutputVariable::AngularVelocity,
        OutputVariable::AngularVelocityLocal,
        OutputVariable::AngularAcceleration,
        OutputVariable::AngularAccelerationLocal,
        OutputVariable::Coordinates,
        OutputVariable::CoordinatesT,
        OutputVariable::CoordinatesTT,
        OutputVariable::CoordinatesTotal,
        OutputVariable::Force,
        OutputVariable::ForceLocal,
        OutputVariable::Distance,
        OutputVariable::DisplacementLocal,
        OutputVariable::TorqueLocal,
        OutputVariable::HomogeneousTransformation,
        OutputVariable::HomogeneousTransformationLocal,
    ];

    /// Exudyn's member name.
    pub fn exudyn_name(self) -> &'static str {
        match self {
            OutputVariable::Position => "Position",
            OutputVariable::Displacement => "Displacement",
            OutputVariable::Velocity => "Velocity",
            OutputVariable::VelocityLocal => "VelocityLocal",
            OutputVariable::Acceleration => "Acceleration",
            OutputVariable::AccelerationLocal => "AccelerationLocal",
            OutputVariable::Rotation => "Rotation",
            OutputVariable::RotationMatrix => "RotationMatrix",
            OutputVariable::AngularVelocity => "AngularVelocity",
            OutputVariable::AngularVelocityLocal => "AngularVelocityLocal",
            OutputVariable::AngularAcceleration => "AngularAcceleration",
            OutputVariable::AngularAccelerationLocal => "AngularAccelerationLocal",
            OutputVariable::Coordinates => "Coordinates",
            OutputVariable::CoordinatesT => "Coordinates_t",
            OutputVariable::CoordinatesTT => "Coordinates_tt",
            OutputVariable::CoordinatesTotal => "CoordinatesTotal",
            OutputVariable::Force => "Force",
            OutputVariable::ForceLocal => "ForceLocal",
            OutputVariable::Distance => "Distance",
            OutputVariable::DisplacementLocal => "DisplacementLocal",
            OutputVariable::TorqueLocal => "TorqueLocal",
            OutputVariable::HomogeneousTransformation => "HomogeneousTransformation",
            OutputVariable::HomogeneousTransformationLocal => "HomogeneousTransformationLocal",
        }
    }
}

impl fmt::Display for OutputVariable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.exudyn_name())
    }
}

impl FromStr for OutputVariable {
    type Err = String;
    /// Accepts `Position` and `OutputVariableType.Position`.
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        let s = s.strip_prefix("OutputVariableType.").unwrap_or(s);
        OutputVariable::ALL
            .iter()
            .copied()
            .find(|o| o.exudyn_name() == s)
            .ok_or_else(|| format!("unknown or unsupported OutputVariableType `{s}`"))
    }
}

use nalgebra::{Matrix3, Vector3};

use crate::assemble::{JointTopology, MarkerModel, ResolvedMarker};
use crate::error::{Error, ItemRef, Result};
use crate::items::{Node, Object, RigidJointType, SensorTarget};
use crate::kernels::KinematicsKind;
use crate::physics::{ConnectorForce, MarkerState};
use crate::simulation::Simulation;

/// Exudyn's `RotationMatrix2RotXYZ` (spec/items.md §2.5).
pub fn rotation_matrix_to_rot_xyz(r: &Matrix3<f64>) -> [f64; 3] {
    let c = (r[(1, 2)] * r[(1, 2)] + r[(2, 2)] * r[(2, 2)]).sqrt();
    let psi1 = r[(0, 2)].atan2(c);
    if c > 1e-14 {
        [
            (-r[(1, 2)]).atan2(r[(2, 2)]),
            psi1,
            (-r[(0, 1)]).atan2(r[(0, 0)]),
        ]
    } else {
        [0.0, psi1, r[(1, 0)].atan2(r[(1, 1)])]
    }
}

fn row_major(m: &Matrix3<f64>) -> Vec<f64> {
    (0..3)
        .flat_map(|r| (0..3).map(move |c| m[(r, c)]))
        .collect()
}

fn vec3(v: Vector3<f64>) -> Vec<f64> {
    vec![v[0], v[1], v[2]]
}

fn unsupported(item: ItemRef, var: OutputVariable) -> Error {
    Error::item(
        item,
        "outputVariableType",
        format!("the item has no output variable {var}"),
    )
}

impl Simulation {
    /// A node marker for the node's outputs (`None` for nodes without a position).
    fn node_marker(&self, node: usize) -> Option<ResolvedMarker> {
        let n = &self.mbs.nodes[node];
        let kind = match n {
            Node::Point { .. } => KinematicsKind::NodePoint,
            Node::RigidBodyEP { .. } => KinematicsKind::NodeEp,
            Node::RigidBodyRxyz { .. } => KinematicsKind::NodeRxyz,
            Node::GenericODE2 { .. } => return None,
        };
        let start = self.topology.node_ode2[node];
        Some(ResolvedMarker {
            model: MarkerModel::Kind {
                kind,
                parameters: Vec::new(),
            },
            columns: (start..start + n.ode2_size()).collect(),
            mass: 0.0,
            provides_position: true,
            provides_orientation: n.is_rigid(),
            local_rotation: None,
        })
    }

    fn total(&self) -> Vec<f64> {
        let mut qt = vec![0.0; self.topology.n_ode2];
        self.topology.total_coordinates(&self.state.q, &mut qt);
        qt
    }

    /// Angular acceleration of a rigid marker kind: G θ̈ + G_t θ̇.
    fn angular_acceleration(&self, m: &ResolvedMarker, qt: &[f64]) -> Vector3<f64> {
        use crate::kernels::marker_kinematics as mk;
        let (Some(kind), MarkerModel::Kind { parameters, .. }) = (m.kind(), &m.model) else {
            return Vector3::zeros();
        };
        let n = m.columns.len();
        if n == 0
            || matches!(
                kind,
                KinematicsKind::MassPointBody | KinematicsKind::NodePoint
            )
        {
            return Vector3::zeros();
        }
        let r = m.columns[0]..m.columns[0] + n;
        let mut jac = vec![0.0; 3 * n];
        mk::rotation_jacobian(kind.index(), parameters, &qt[r.clone()], &mut jac).expect("rigid");
        let mut alpha = Vector3::zeros();
        for row in 0..3 {
            alpha[row] = (0..n)
                .map(|c| jac[row * n + c] * self.state.a[r.start + c])
                .sum();
        }
        if matches!(
            kind,
            KinematicsKind::NodeRxyz | KinematicsKind::RigidRxyzPoint
        ) {
            let part = mk::angular_acceleration_rate_part(
                kind.index(),
                parameters,
                &qt[r.clone()],
                &self.state.v[r],
            )
            .expect("rigid");
            alpha += Vector3::new(part[0], part[1], part[2]);
        }
        alpha
    }

    /// Exudyn's `mbs.GetNodeOutput(node, variable)` (Current configuration).
    pub fn node_output(&self, node: usize, var: OutputVariable) -> Result<Vec<f64>> {
        let item = self.mbs.node_ref(node);
        let n = self
            .mbs
            .nodes
            .get(node)
            .ok_or_else(|| Error::item(item.clone(), "nodeNumber", "no such node"))?;
        let qt = self.total();
        use OutputVariable as O;
        let start = self.topology.node_ode2[node];
        let r = start..start + n.ode2_size();
        let Some(m) = self.node_marker(node) else {
            // NodeGenericODE2: coordinates only
            return Ok(match var {
                O::Coordinates => self.state.q[r].to_vec(),
                O::CoordinatesT => self.state.v[r].to_vec(),
                O::CoordinatesTT => self.state.a[r].to_vec(),
                O::CoordinatesTotal => qt[r].to_vec(),
                other => return Err(unsupported(item, other)),
            });
        };
        let ms = MarkerState::new(&m, &qt, &self.state.v);
        Ok(match var {
            O::Position => vec3(ms.position()),
            O::Displacement => self.state.q[r.start..r.start + 3].to_vec(),
            O::Velocity => vec3(ms.velocity()),
            O::Acceleration => self.state.a[r.start..r.start + 3].to_vec(),
            O::Coordinates => self.state.q[r].to_vec(),
            O::CoordinatesT => self.state.v[r].to_vec(),
            O::CoordinatesTT => self.state.a[r].to_vec(),
            O::CoordinatesTotal => qt[r].to_vec(),
            O::RotationMatrix => row_major(&ms.rotation()),
            O::Rotation => match n {
                Node::Point { .. } => vec![0.0; 3],
                // Rxyz nodes return the raw total angles
                Node::RigidBodyRxyz { .. } => qt[r.start + 3..r.start + 6].to_vec(),
                _ => rotation_matrix_to_rot_xyz(&ms.rotation()).to_vec(),
            },
            O::AngularVelocity => vec3(ms.angular_velocity()),
            O::AngularVelocityLocal => vec3(ms.angular_velocity_local()),
            O::AngularAcceleration if n.is_rigid() => vec3(self.angular_acceleration(&m, &qt)),
            other => return Err(unsupported(item, other)),
        })
    }

    /// Exudyn's `mbs.GetObjectOutputBody(body, variable, localPosition)`.
    pub fn body_output(
        &self,
        body: usize,
        local: [f64; 3],
        var: OutputVariable,
    ) -> Result<Vec<f64>> {
        let item = self.mbs.object_ref(body);
        let object = self
            .mbs
            .objects
            .get(body)
            .ok_or_else(|| Error::item(item.clone(), "bodyNumber", "no such object"))?;
        use OutputVariable as O;
        let qt = self.total();
        match object {
            Object::Ground {
                reference_position,
                reference_rotation,
                ..
            } => {
                let r = Matrix3::from_row_slice(reference_rotation.as_flattened());
                let p = r * Vector3::from(local) + Vector3::from(*reference_position);
                Ok(match var {
                    O::Position => vec3(p),
                    O::Displacement | O::Velocity | O::AngularVelocity => vec![0.0; 3],
                    O::RotationMatrix => row_major(&r),
                    other => return Err(unsupported(item, other)),
                })
            }
            Object::MassPoint { node, .. } => {
                let m = self
                    .node_marker(node.0)
                    .expect("checked at assemble: mass points have a position node");
                let ms = MarkerState::new(&m, &qt, &self.state.v);
                let s = m.columns[0];
                Ok(match var {
                    O::Position => vec3(ms.position() + Vector3::from(local)),
                    O::Displacement => self.state.q[s..s + 3].to_vec(),
                    O::Velocity => vec3(ms.velocity()),
                    O::Acceleration => self.state.a[s..s + 3].to_vec(),
                    O::RotationMatrix => row_major(&Matrix3::identity()),
                    O::Rotation | O::AngularVelocity | O::AngularVelocityLocal => vec![0.0; 3],
                    other => return Err(unsupported(item, other)),
                })
            }
            Object::RigidBody { node, .. } => {
                let node_m = self
                    .node_marker(node.0)
                    .expect("checked at assemble: rigid bodies have a rigid node");
                let kind = match node_m.kind() {
                    Some(KinematicsKind::NodeEp) => KinematicsKind::RigidEpPoint,
                    _ => KinematicsKind::RigidRxyzPoint,
                };
                let m = ResolvedMarker {
                    model: MarkerModel::Kind {
                        kind,
                        parameters: local.to_vec(),
                    },
                    columns: node_m.columns.clone(),
                    mass: 0.0,
                    provides_position: true,
                    provides_orientation: true,
                    local_rotation: None,
                };
                let ms = MarkerState::new(&m, &qt, &self.state.v);
                let a = ms.rotation();
                let s = m.columns[0];
                let alpha = self.angular_acceleration(&node_m, &qt);
                let omega = ms.angular_velocity();
                let acc = || {
                    let ab = a * Vector3::from(local);
                    Vector3::new(self.state.a[s], self.state.a[s + 1], self.state.a[s + 2])
                        + alpha.cross(&ab)
                        + omega.cross(&omega.cross(&ab))
                };
                Ok(match var {
                    O::Position => vec3(ms.position()),
                    O::Displacement => {
                        let reference = &self.topology.reference;
                        let ms_ref = MarkerState::new(&m, reference, &self.state.v);
                        vec3(ms.position() - ms_ref.position())
                    }
                    O::Velocity => vec3(ms.velocity()),
                    O::VelocityLocal => vec3(a.transpose() * ms.velocity()),
                    O::Acceleration => vec3(acc()),
                    O::AccelerationLocal => vec3(a.transpose() * acc()),
                    O::RotationMatrix => row_major(&a),
                    O::Rotation => rotation_matrix_to_rot_xyz(&a).to_vec(),
                    O::AngularVelocity => vec3(omega),
                    O::AngularVelocityLocal => vec3(ms.angular_velocity_local()),
                    O::AngularAcceleration => vec3(alpha),
                    O::AngularAccelerationLocal => vec3(a.transpose() * alpha),
                    other => return Err(unsupported(item, other)),
                })
            }
            other => Err(Error::item(
                item,
                "bodyNumber",
                format!("a {} is not a body", other.type_name()),
            )),
        }
    }

    /// SensorKinematicTree: outputs of the point `local` of link `link` of tree `object`.
    pub fn kinematic_tree_output(
        &self,
        object: usize,
        link: usize,
        local: [f64; 3],
        var: OutputVariable,
    ) -> Result<Vec<f64>> {
        let item = self.mbs.object_ref(object);
        let body = self
            .topology
            .bodies
            .iter()
            .find(|b| matches!(b, crate::assemble::BodyTopology::KinematicTree { object: o, .. } if *o == object));
        let Some(crate::assemble::BodyTopology::KinematicTree { start, data, .. }) = body else {
            return Err(Error::item(item, "objectNumber", "not a KinematicTree"));
        };
        let n = data.links();
        let qt = self.total();
        let r = *start..*start + n;
        let at = |coords: &[f64]| {
            let frames = data.frames(coords, &self.state.v[r.clone()]);
            let f = frames[link];
            let rot = Matrix3::from_row_slice(f.rotation.as_flattened());
            (
                frames,
                rot,
                Vector3::from(f.position) + rot * Vector3::from(local),
            )
        };
        let (frames, rot, position) = at(&qt[r.clone()]);
        let w = Vector3::from(frames[link].angular_velocity);
        let arm = rot * Vector3::from(local);
        let velocity = Vector3::from(frames[link].velocity) + w.cross(&arm);
        let acc = || {
            let a = data.accelerations(&frames, &self.state.v[r.clone()], &self.state.a[r.clone()]);
            let (alpha, a_o) = a[link];
            (alpha, a_o + alpha.cross(&arm) + w.cross(&w.cross(&arm)))
        };
        use OutputVariable as O;
        Ok(match var {
            O::Position => vec3(position),
            O::Displacement => vec3(position - at(&self.topology.reference[r.clone()]).2),
            O::Velocity => vec3(velocity),
            O::VelocityLocal => vec3(rot.transpose() * velocity),
            O::Acceleration => vec3(acc().1),
            O::AccelerationLocal => vec3(rot.transpose() * acc().1),
            O::RotationMatrix => row_major(&rot),
            O::Rotation => rotation_matrix_to_rot_xyz(&rot).to_vec(),
            O::AngularVelocity => vec3(w),
            O::AngularVelocityLocal => vec3(rot.transpose() * w),
            O::AngularAcceleration => vec3(acc().0),
            O::AngularAccelerationLocal => vec3(rot.transpose() * acc().0),
            other => return Err(unsupported(item, other)),
        })
    }

    /// Exudyn's `mbs.GetMarkerOutput(marker, variable)`.
    pub fn marker_output(&self, marker: usize, var: OutputVariable) -> Result<Vec<f64>> {
        let item = self.mbs.marker_ref(marker);
        let m = self
            .topology
            .markers
            .get(marker)
            .ok_or_else(|| Error::item(item.clone(), "markerNumber", "no such marker"))?;
        if !m.provides_position {
            return Err(Error::item(
                item,
                "outputVariableType",
                "a BodyMass marker has no output variables",
            ));
        }
        let qt = self.total();
        let ms = MarkerState::new(m, &qt, &self.state.v);
        use OutputVariable as O;
        Ok(match var {
            O::Position => vec3(ms.position()),
            O::Velocity => vec3(ms.velocity()),
            O::Displacement => {
                let ms_ref = MarkerState::new(m, &self.topology.reference, &self.state.v);
                vec3(ms.position() - ms_ref.position())
            }
            O::AngularVelocity if m.provides_orientation => vec3(ms.angular_velocity()),
            O::AngularVelocityLocal if m.provides_orientation => vec3(ms.angular_velocity_local()),
            O::RotationMatrix if m.provides_orientation => row_major(&ms.rotation()),
            O::Rotation if m.provides_orientation => {
                rotation_matrix_to_rot_xyz(&ms.rotation()).to_vec()
            }
            other => return Err(unsupported(item, other)),
        })
    }

    /// Exudyn's `mbs.GetObjectOutput(object, variable)` for connectors and joints.
    /// A constraint object's topology and its two markers' states at total coordinates `qt`.
    fn constraint_and_markers<'a>(
        &'a self,
        object: usize,
        markers: [crate::items::MarkerIndex; 2],
        qt: &'a [f64],
    ) -> (&'a JointTopology, MarkerState<'a>, MarkerState<'a>) {
        let j = self
            .topology
            .joints
            .iter()
            .find(|j| j.object == object)
            .expect("every constraint object has a topology");
        let state = |m: crate::items::MarkerIndex| {
            MarkerState::new(&self.topology.markers[m.0], qt, &self.state.v)
        };
        (j, state(markers[0]), state(markers[1]))
    }

    pub fn object_output(&self, object: usize, var: OutputVariable) -> Result<Vec<f64>> {
        let item = self.mbs.object_ref(object);
        let o = self
            .mbs
            .objects
            .get(object)
            .ok_or_else(|| Error::item(item.clone(), "objectNumber", "no such object"))?;
        use OutputVariable as O;
        let qt = self.total();
        match o {
            Object::JointSpherical { markers, .. } => {
                let (j, m0, m1) = self.constraint_and_markers(object, *markers, &qt);
                Ok(match var {
                    O::Position => vec3(m0.position()),
                    O::Velocity => vec3(m0.velocity()),
                    O::Displacement => vec3(m1.position() - m0.position()),
                    O::Force => self.state.lambda[j.ae..j.ae + 3].to_vec(),
                    other => return Err(unsupported(item, other)),
                })
            }
            Object::RigidJoint {
                joint,
                markers,
                rotation_markers,
                ..
            } => {
                let (j, m0, m1) = self.constraint_and_markers(object, *markers, &qt);
                let (a0, a1) = (m0.rotation(), m1.rotation());
                // joint frames A_Ji = A_i·rotationMarker_i
                let aj0 = a0 * Matrix3::from_row_slice(rotation_markers[0].as_flattened());
                let aj1 = a1 * Matrix3::from_row_slice(rotation_markers[1].as_flattened());
                let delta = m1.position() - m0.position();
                let l = &self.state.lambda[j.ae..j.ae + j.rows()];
                let homogeneous = |r: Matrix3<f64>, p: Vector3<f64>| {
                    let mut h = Vec::with_capacity(16);
                    for row in 0..3 {
                        h.extend((0..3).map(|c| r[(row, c)]));
                        h.push(p[row]);
                    }
                    h.extend([0.0, 0.0, 0.0, 1.0]);
                    h
                };
                Ok(match var {
                    O::Position => vec3(m0.position()),
                    O::Velocity => vec3(m0.velocity()),
                    O::DisplacementLocal => vec3(aj0.transpose() * delta),
                    // Exudyn leaves out the frame's turning here
                    O::VelocityLocal => vec3(aj0.transpose() * (m1.velocity() - m0.velocity())),
                    O::Rotation => rotation_matrix_to_rot_xyz(&(aj0.transpose() * aj1)).to_vec(),
                    O::AngularVelocityLocal => vec3(
                        aj0.transpose()
                            * (a1 * m1.angular_velocity_local() - a0 * m0.angular_velocity_local()),
                    ),
                    // the raw multipliers, as Exudyn reports them
                    O::ForceLocal => match joint {
                        RigidJointType::RevoluteZ => {
                            vec3(aj0.transpose() * Vector3::new(l[0], l[1], l[2]))
                        }
                        RigidJointType::PrismaticX => vec![0.0, l[0], l[1]],
                        // global rows when all translations are locked, else already local
                        RigidJointType::Generic => {
                            if (0..3).all(|k| j.constrained[k] && j.row_map[k] == k) {
                                vec3(aj0.transpose() * Vector3::new(l[0], l[1], l[2]))
                            } else {
                                l[..3].to_vec()
                            }
                        }
                    },
                    O::TorqueLocal => match joint {
                        RigidJointType::RevoluteZ => vec![l[3], l[4], 0.0],
                        RigidJointType::PrismaticX => l[2..5].to_vec(),
                        RigidJointType::Generic => l[3..6].to_vec(),
                    },
                    O::HomogeneousTransformation => homogeneous(aj0, m0.position()),
                    O::HomogeneousTransformationLocal => {
                        homogeneous(aj0.transpose() * aj1, aj0.transpose() * delta)
                    }
                    other => return Err(unsupported(item, other)),
                })
            }
            Object::ConnectorDistance { markers, .. } => {
                let (j, m0, m1) = self.constraint_and_markers(object, *markers, &qt);
                let delta = m1.position() - m0.position();
                // Exudyn: the relative velocity (the joints give marker 0's velocity instead).
                Ok(match var {
                    O::Displacement => vec3(delta),
                    O::Velocity => vec3(m1.velocity() - m0.velocity()),
                    O::Distance => vec![delta.norm()],
                    O::Force => vec![self.state.lambda[j.ae]],
                    other => return Err(unsupported(item, other)),
                })
            }
            Object::ConnectorSpringDamper { .. }
            | Object::ConnectorCartesianSpringDamper { .. } => {
                let c = self
                    .topology
                    .connectors
                    .iter()
                    .position(|c| c.object == object)
                    .expect("connector topology");
                let cf = self
                    .topology
                    .connector_force(c, &qt, &self.state.v)
                    .unwrap_or_else(|| {
                        // inactive: no force, geometry still reported
                        let con = &self.topology.connectors[c];
                        let m0 = MarkerState::new(
                            &self.topology.markers[con.markers[0]],
                            &qt,
                            &self.state.v,
                        );
                        let m1 = MarkerState::new(
                            &self.topology.markers[con.markers[1]],
                            &qt,
                            &self.state.v,
                        );
                        ConnectorForce {
                            force: Vector3::zeros(),
                            scalar: 0.0,
                            delta_p: m1.position() - m0.position(),
                            delta_v: m1.velocity() - m0.velocity(),
                            d_force_d_delta_p: Matrix3::zeros(),
                            d_force_d_delta_v: Matrix3::zeros(),
                        }
                    });
                let spring = matches!(o, Object::ConnectorSpringDamper { .. });
                Ok(match var {
                    O::Distance => vec![cf.delta_p.norm()],
                    O::Displacement => vec3(cf.delta_p),
                    O::Velocity => vec3(cf.delta_v),
                    O::Force => vec3(cf.force),
                    O::ForceLocal if spring => vec![cf.scalar],
                    other => return Err(unsupported(item, other)),
                })
            }
            _ => Err(Error::item(
                item,
                "objectNumber",
                "SensorObject on a body: use SensorBody (bodies have no object outputs)",
            )),
        }
    }

    /// The current value of sensor `i` (without time).
    pub fn sensor_value(&self, i: usize) -> Result<Vec<f64>> {
        let s = &self.mbs.sensors[i];
        let wrap = |e: Error| match e {
            Error::Item { key, message, .. } => Error::item(self.mbs.sensor_ref(i), &key, message),
            other => other,
        };
        match &s.target {
            SensorTarget::Node(n) => self.node_output(n.0, s.output).map_err(wrap),
            SensorTarget::Object(o) => self.object_output(o.0, s.output).map_err(wrap),
            SensorTarget::Body {
                body,
                local_position,
            } => self
                .body_output(body.0, *local_position, s.output)
                .map_err(wrap),
            SensorTarget::Marker(m) => self.marker_output(m.0, s.output).map_err(wrap),
            SensorTarget::Load(l) => Ok(self.mbs.loads[l.0].load_vector().to_vec()),
            SensorTarget::KinematicTree {
                object,
                link,
                local_position,
            } => self
                .kinematic_tree_output(object.0, *link, *local_position, s.output)
                .map_err(wrap),
        }
    }
}
