//! The outputs of nodes, bodies, markers, objects, loads and sensors at a state, as Exudyn's
//! `mbs.Get…Output` functions give them.

use nalgebra::{Matrix3, Vector3};

use crate::assemble::Topology;
use crate::error::{Error, ItemRef, Result};
use crate::items::output_variable::{put_row_major, put3, rotation_matrix_to_rot_xyz};
use crate::items::{Node, Object, OutputVariable, SensorTarget};
use crate::joints::JointTopology;
use crate::kernels::marker_kinematics::kinematic_tree::LinkFrame;
use crate::markers::{MarkerModel, MarkerState, ResolvedMarker};
use crate::physics::ConnectorForce;
use crate::simulation::state::State;
use crate::system::MultibodySystem;

use joint_core::MarkerKind;

fn unsupported(item: ItemRef, var: OutputVariable) -> Error {
    Error::item(
        item,
        "outputVariableType",
        format!("the item has no output variable {var}"),
    )
}

/// The markers a node or body output needs that the topology does not hold: built per call by
/// the `*_output` functions, once per solve for the sensors (so that recording a row allocates
/// nothing).
#[derive(Clone, Debug, Default)]
pub struct OutputMarkers {
    /// The node's marker (nodes with a position), or a body's node's.
    node: Option<ResolvedMarker>,
    /// A rigid body's marker at the local position.
    point: Option<ResolvedMarker>,
}

/// The outputs of a system at a state: what the `*_output` functions and the sensors read, and
/// all they read (the items, the topology and the state). [`crate::Simulation::outputs`]
/// gives the view of a simulation.
#[derive(Clone, Copy)]
pub struct Outputs<'a> {
    pub mbs: &'a MultibodySystem,
    pub topology: &'a Topology,
    pub state: &'a State,
}

impl Outputs<'_> {
    /// A node marker for the node's outputs (`None` for nodes without a position and for
    /// nodes that do not exist).
    fn node_marker(&self, node: usize) -> Option<ResolvedMarker> {
        let n = self.mbs.nodes.get(node)?;
        let kind = match n {
            Node::Point { .. } => MarkerKind::NodePoint,
            Node::RigidBodyEP { .. } => MarkerKind::NodeEp,
            Node::RigidBodyRxyz { .. } => MarkerKind::NodeRxyz,
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

    /// The markers of `node_output(node, …)`.
    fn node_output_markers(&self, node: usize) -> OutputMarkers {
        OutputMarkers {
            node: self.node_marker(node),
            point: None,
        }
    }

    /// The markers of `body_output(body, local, …)`: the body's node's, and for a rigid body
    /// the marker at `local`.
    fn body_output_markers(&self, body: usize, local: [f64; 3]) -> OutputMarkers {
        let node = match self.mbs.objects.get(body) {
            Some(Object::MassPoint { node, .. } | Object::RigidBody { node, .. }) => {
                self.node_marker(node.0)
            }
            _ => None,
        };
        let point = match (self.mbs.objects.get(body), &node) {
            (Some(Object::RigidBody { .. }), Some(node_m)) => {
                let kind = match node_m.kind() {
                    Some(MarkerKind::NodeEp) => MarkerKind::RigidEpPoint,
                    _ => MarkerKind::RigidRxyzPoint,
                };
                Some(ResolvedMarker {
                    model: MarkerModel::Kind {
                        kind,
                        parameters: local.to_vec(),
                    },
                    columns: node_m.columns.clone(),
                    mass: 0.0,
                    provides_position: true,
                    provides_orientation: true,
                    local_rotation: None,
                })
            }
            _ => None,
        };
        OutputMarkers { node, point }
    }

    /// The markers the output of `target` needs.
    fn target_markers(&self, target: &SensorTarget) -> OutputMarkers {
        match target {
            SensorTarget::Node(n) => self.node_output_markers(n.0),
            SensorTarget::Body {
                body,
                local_position,
            } => self.body_output_markers(body.0, *local_position),
            SensorTarget::SuperElement { body, mesh_node } => {
                self.super_element_output_markers(body.0, *mesh_node)
            }
            _ => OutputMarkers::default(),
        }
    }

    /// The markers sensor `i`'s output needs.
    pub(crate) fn sensor_output_markers(&self, i: usize) -> OutputMarkers {
        self.target_markers(&self.mbs.sensors[i].target)
    }

    /// Output `var` of `target` (a node, an object, a body point, a marker, a load, a kinematic
    /// tree's link or a superelement's mesh node), as Exudyn's `mbs.Get…Output` functions give
    /// it in the current configuration.
    pub fn output(&self, target: &SensorTarget, var: OutputVariable) -> Result<Vec<f64>> {
        let mut out = Vec::new();
        let markers = self.target_markers(target);
        self.target_values(target, var, &self.total(), &markers, &mut out)?;
        Ok(out)
    }

    /// The current value of sensor `i` (without time).
    pub fn sensor_value(&self, i: usize) -> Result<Vec<f64>> {
        let s = &self.mbs.sensors[i];
        self.output(&s.target, s.output)
            .map_err(|e| self.sensor_error(i, e))
    }

    /// The markers of `super_element_output(body, mesh_node, …)`: a GenericODE2 mesh node's
    /// node, or an FFRF object's reference-frame node.
    fn super_element_output_markers(&self, body: usize, mesh_node: usize) -> OutputMarkers {
        match self.mbs.objects.get(body) {
            Some(Object::GenericODE2 { nodes, .. }) => nodes
                .get(mesh_node)
                .map_or_else(OutputMarkers::default, |n| self.node_output_markers(n.0)),
            Some(Object::FFRFreducedOrder { nodes, .. }) => self.node_output_markers(nodes[0].0),
            _ => OutputMarkers::default(),
        }
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
        if n == 0 || matches!(kind, MarkerKind::MassPointBody | MarkerKind::NodePoint) {
            return Vector3::zeros();
        }
        let r = m.columns[0]..m.columns[0] + n;
        // rigid kinds have at most 7 coordinates
        let mut jac = [0.0; 21];
        let jac = &mut jac[..3 * n];
        mk::rotation_jacobian(kind.index(), parameters, &qt[r.clone()], jac).expect("rigid");
        let mut alpha = Vector3::zeros();
        for row in 0..3 {
            alpha[row] = (0..n)
                .map(|c| jac[row * n + c] * self.state.a[r.start + c])
                .sum();
        }
        if matches!(kind, MarkerKind::NodeRxyz | MarkerKind::RigidRxyzPoint) {
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

    /// [`Outputs::output`] of a node appended to `out`, at total coordinates `qt`.
    fn node_values(
        &self,
        node: usize,
        var: OutputVariable,
        qt: &[f64],
        markers: &OutputMarkers,
        out: &mut Vec<f64>,
    ) -> Result<()> {
        let item = || self.mbs.node_ref(node);
        let n = self
            .mbs
            .nodes
            .get(node)
            .ok_or_else(|| Error::item(item(), "nodeNumber", "no such node"))?;
        use OutputVariable as O;
        let start = self.topology.node_ode2[node];
        let r = start..start + n.ode2_size();
        let st = &self.state;
        let Some(m) = &markers.node else {
            // NodeGenericODE2: coordinates only
            match var {
                O::Coordinates => out.extend_from_slice(&st.q[r]),
                O::CoordinatesT => out.extend_from_slice(&st.v[r]),
                O::CoordinatesTT => out.extend_from_slice(&st.a[r]),
                O::CoordinatesTotal => out.extend_from_slice(&qt[r]),
                other => return Err(unsupported(item(), other)),
            }
            return Ok(());
        };
        let ms = MarkerState::new(m, qt, &st.v);
        match var {
            O::Position => put3(out, ms.position()),
            O::Displacement => out.extend_from_slice(&st.q[r.start..r.start + 3]),
            O::Velocity => put3(out, ms.velocity()),
            O::Acceleration => out.extend_from_slice(&st.a[r.start..r.start + 3]),
            O::Coordinates => out.extend_from_slice(&st.q[r]),
            O::CoordinatesT => out.extend_from_slice(&st.v[r]),
            O::CoordinatesTT => out.extend_from_slice(&st.a[r]),
            O::CoordinatesTotal => out.extend_from_slice(&qt[r]),
            O::RotationMatrix => put_row_major(out, &ms.rotation()),
            O::Rotation => match n {
                Node::Point { .. } => out.extend_from_slice(&[0.0; 3]),
                // Rxyz nodes return the raw total angles
                Node::RigidBodyRxyz { .. } => out.extend_from_slice(&qt[r.start + 3..r.start + 6]),
                _ => out.extend_from_slice(&rotation_matrix_to_rot_xyz(&ms.rotation())),
            },
            O::AngularVelocity => put3(out, ms.angular_velocity()),
            O::AngularVelocityLocal => put3(out, ms.angular_velocity_local()),
            O::AngularAcceleration if n.is_rigid() => put3(out, self.angular_acceleration(m, qt)),
            other => return Err(unsupported(item(), other)),
        }
        Ok(())
    }

    /// [`Outputs::output`] of a body point appended to `out`, at total coordinates `qt`.
    fn body_values(
        &self,
        body: usize,
        local: [f64; 3],
        var: OutputVariable,
        qt: &[f64],
        markers: &OutputMarkers,
        out: &mut Vec<f64>,
    ) -> Result<()> {
        let item = || self.mbs.object_ref(body);
        let object = self
            .mbs
            .objects
            .get(body)
            .ok_or_else(|| Error::item(item(), "bodyNumber", "no such object"))?;
        use OutputVariable as O;
        let st = &self.state;
        match object {
            Object::Ground {
                reference_position,
                reference_rotation,
                ..
            } => {
                let r = Matrix3::from_row_slice(reference_rotation.as_flattened());
                let p = r * Vector3::from(local) + Vector3::from(*reference_position);
                match var {
                    O::Position => put3(out, p),
                    O::Displacement | O::Velocity | O::AngularVelocity => {
                        out.extend_from_slice(&[0.0; 3]);
                    }
                    O::RotationMatrix => put_row_major(out, &r),
                    other => return Err(unsupported(item(), other)),
                }
            }
            Object::MassPoint { .. } => {
                let m = markers
                    .node
                    .as_ref()
                    .expect("checked at assemble: mass points have a position node");
                let ms = MarkerState::new(m, qt, &st.v);
                let s = m.columns[0];
                match var {
                    O::Position => put3(out, ms.position() + Vector3::from(local)),
                    O::Displacement => out.extend_from_slice(&st.q[s..s + 3]),
                    O::Velocity => put3(out, ms.velocity()),
                    O::Acceleration => out.extend_from_slice(&st.a[s..s + 3]),
                    O::RotationMatrix => put_row_major(out, &Matrix3::identity()),
                    O::Rotation | O::AngularVelocity | O::AngularVelocityLocal => {
                        out.extend_from_slice(&[0.0; 3]);
                    }
                    other => return Err(unsupported(item(), other)),
                }
            }
            Object::RigidBody { .. } => {
                let (Some(node_m), Some(m)) = (&markers.node, &markers.point) else {
                    panic!("checked at assemble: rigid bodies have a rigid node");
                };
                let ms = MarkerState::new(m, qt, &st.v);
                let a = ms.rotation();
                let s = m.columns[0];
                let alpha = self.angular_acceleration(node_m, qt);
                let omega = ms.angular_velocity();
                let acc = || {
                    let ab = a * Vector3::from(local);
                    Vector3::new(st.a[s], st.a[s + 1], st.a[s + 2])
                        + alpha.cross(&ab)
                        + omega.cross(&omega.cross(&ab))
                };
                match var {
                    O::Position => put3(out, ms.position()),
                    O::Displacement => {
                        let reference = &self.topology.reference;
                        let ms_ref = MarkerState::new(m, reference, &st.v);
                        put3(out, ms.position() - ms_ref.position());
                    }
                    O::Velocity => put3(out, ms.velocity()),
                    O::VelocityLocal => put3(out, a.transpose() * ms.velocity()),
                    O::Acceleration => put3(out, acc()),
                    O::AccelerationLocal => put3(out, a.transpose() * acc()),
                    O::RotationMatrix => put_row_major(out, &a),
                    O::Rotation => out.extend_from_slice(&rotation_matrix_to_rot_xyz(&a)),
                    O::AngularVelocity => put3(out, omega),
                    O::AngularVelocityLocal => put3(out, ms.angular_velocity_local()),
                    O::AngularAcceleration => put3(out, alpha),
                    O::AngularAccelerationLocal => put3(out, a.transpose() * alpha),
                    other => return Err(unsupported(item(), other)),
                }
            }
            other => {
                return Err(Error::item(
                    item(),
                    "bodyNumber",
                    format!("a {} is not a body", other.type_name()),
                ));
            }
        }
        Ok(())
    }

    /// [`Outputs::output`] of a kinematic tree's link appended to `out`, at total coordinates `qt`.
    fn kinematic_tree_values(
        &self,
        object: usize,
        link: usize,
        local: [f64; 3],
        var: OutputVariable,
        qt: &[f64],
        out: &mut Vec<f64>,
    ) -> Result<()> {
        let item = || self.mbs.object_ref(object);
        let body = self
            .topology
            .bodies
            .iter()
            .find(|b| matches!(b, crate::assemble::BodyTopology::KinematicTree { object: o, .. } if *o == object));
        let Some(crate::assemble::BodyTopology::KinematicTree { start, data, .. }) = body else {
            return Err(Error::item(item(), "objectNumber", "not a KinematicTree"));
        };
        let n = data.links();
        let r = *start..*start + n;
        let v = &self.state.v[r.clone()];
        // the link's rotation and the point's global position
        let at = |frames: &[LinkFrame]| {
            let f = frames[link];
            let rot = Matrix3::from_row_slice(f.rotation.as_flattened());
            (rot, Vector3::from(f.position) + rot * Vector3::from(local))
        };
        data.with_frames(&qt[r.clone()], v, |frames| {
            let (rot, position) = at(frames);
            let w = Vector3::from(frames[link].angular_velocity);
            let arm = rot * Vector3::from(local);
            let velocity = Vector3::from(frames[link].velocity) + w.cross(&arm);
            let acc = || {
                data.with_accelerations(frames, v, &self.state.a[r.clone()], |a| {
                    let (alpha, a_o) = a[link];
                    (alpha, a_o + alpha.cross(&arm) + w.cross(&w.cross(&arm)))
                })
            };
            use OutputVariable as O;
            match var {
                O::Position => put3(out, position),
                O::Displacement => {
                    let reference =
                        data.with_frames(&self.topology.reference[r.clone()], v, |f| at(f).1);
                    put3(out, position - reference);
                }
                O::Velocity => put3(out, velocity),
                O::VelocityLocal => put3(out, rot.transpose() * velocity),
                O::Acceleration => put3(out, acc().1),
                O::AccelerationLocal => put3(out, rot.transpose() * acc().1),
                O::RotationMatrix => put_row_major(out, &rot),
                O::Rotation => out.extend_from_slice(&rotation_matrix_to_rot_xyz(&rot)),
                O::AngularVelocity => put3(out, w),
                O::AngularVelocityLocal => put3(out, rot.transpose() * w),
                O::AngularAcceleration => put3(out, acc().0),
                O::AngularAccelerationLocal => put3(out, rot.transpose() * acc().0),
                other => return Err(unsupported(item(), other)),
            }
            Ok(())
        })
    }

    /// [`Outputs::output`] of a superelement's mesh node appended to `out`, at total coordinates `qt`.
    ///
    /// A GenericODE2 mesh node gives its node's outputs. An FFRF mesh node i sits at the local
    /// point x_i = x_ref,i + Ψ_i ζ of the frame (p, A, ω, α); Exudyn's outputs are
    /// Position p + A x_i, Displacement (that minus the reference configuration's),
    /// Velocity ṗ + A(ω̄ × x_i + Ψ_i ζ̇), Acceleration
    /// p̈ + A Ψ_i ζ̈ + 2ω × A Ψ_i ζ̇ + α × A x_i + ω × (ω × A x_i), DisplacementLocal Ψ_i ζ,
    /// VelocityLocal Ψ_i ζ̇, and StressLocal or StrainLocal (whichever `outputVariableTypeModeBasis`
    /// names) Σ_m Ψ_S[i, 6m..6m+6] ζ_m.
    fn super_element_values(
        &self,
        body: usize,
        mesh_node: usize,
        var: OutputVariable,
        qt: &[f64],
        markers: &OutputMarkers,
        out: &mut Vec<f64>,
    ) -> Result<()> {
        let item = || self.mbs.object_ref(body);
        let (nodes, parameters) = match self.mbs.objects.get(body) {
            Some(Object::GenericODE2 { nodes, .. }) => {
                let node = nodes
                    .get(mesh_node)
                    .ok_or_else(|| Error::item(item(), "meshNodeNumber", "no such mesh node"))?;
                return self.node_values(node.0, var, qt, markers, out);
            }
            Some(Object::FFRFreducedOrder {
                nodes, parameters, ..
            }) => (nodes, parameters),
            _ => {
                return Err(Error::item(
                    item(),
                    "bodyNumber",
                    "not a GenericODE2 or FFRFreducedOrder",
                ));
            }
        };
        let Some(frame_marker) = &markers.node else {
            return Err(Error::item(item(), "bodyNumber", "no reference-frame node"));
        };
        let psi = &parameters.mode_basis;
        if 3 * mesh_node + 3 > psi.nrows()
            || 3 * mesh_node + 3 > parameters.reference_positions.len()
        {
            return Err(Error::item(item(), "meshNodeNumber", "no such mesh node"));
        }
        let st = &self.state;
        let modal = self.topology.node_ode2[nodes[1].0];
        let n_modes = psi.ncols();
        // Ψ_i·x over the modal coordinates x (ζ, ζ̇ or ζ̈)
        let modal_at = |x: &[f64]| {
            Vector3::from_fn(|r, _| {
                (0..n_modes)
                    .map(|m| psi[(3 * mesh_node + r, m)] * x[modal + m])
                    .sum()
            })
        };
        let x_ref = Vector3::from_fn(|r, _| parameters.reference_positions[3 * mesh_node + r]);
        let u = modal_at(qt);
        let x = x_ref + u;
        let frame = MarkerState::new(frame_marker, qt, &st.v);
        let a = frame.rotation();
        let global_position =
            |frame: &MarkerState, x: Vector3<f64>| frame.position() + frame.rotation() * x;
        use OutputVariable as O;
        match var {
            O::Position => put3(out, global_position(&frame, x)),
            O::Displacement => {
                let reference = MarkerState::new(frame_marker, &self.topology.reference, &st.v);
                put3(
                    out,
                    global_position(&frame, x) - global_position(&reference, x_ref),
                );
            }
            O::Velocity => put3(
                out,
                frame.velocity()
                    + a * frame.angular_velocity_local().cross(&x)
                    + a * modal_at(&st.v),
            ),
            O::Acceleration => {
                let s = frame_marker.columns[0];
                let ax = a * x;
                let omega = frame.angular_velocity();
                let alpha = self.angular_acceleration(frame_marker, qt);
                put3(
                    out,
                    Vector3::new(st.a[s], st.a[s + 1], st.a[s + 2])
                        + a * modal_at(&st.a)
                        + 2.0 * omega.cross(&(a * modal_at(&st.v)))
                        + alpha.cross(&ax)
                        + omega.cross(&omega.cross(&ax)),
                );
            }
            O::DisplacementLocal => put3(out, u),
            O::VelocityLocal => put3(out, modal_at(&st.v)),
            // Ψ_S row i, six components per mode, times ζ (the modal reference coordinates
            // are zero, so total and displacement coordinates agree)
            O::StressLocal | O::StrainLocal
                if parameters.output_variable_type_mode_basis == Some(var) =>
            {
                let psi_s = &parameters.output_variable_mode_basis;
                out.extend((0..6).map(|c| {
                    (0..n_modes)
                        .map(|m| psi_s[(mesh_node, 6 * m + c)] * qt[modal + m])
                        .sum::<f64>()
                }));
            }
            other => return Err(unsupported(item(), other)),
        }
        Ok(())
    }

    /// [`Outputs::output`] of a marker appended to `out`, at total coordinates `qt`.
    fn marker_values(
        &self,
        marker: usize,
        var: OutputVariable,
        qt: &[f64],
        out: &mut Vec<f64>,
    ) -> Result<()> {
        let item = || self.mbs.marker_ref(marker);
        let m = self
            .topology
            .markers
            .get(marker)
            .ok_or_else(|| Error::item(item(), "markerNumber", "no such marker"))?;
        if !m.provides_position {
            return Err(Error::item(
                item(),
                "outputVariableType",
                "a BodyMass marker has no output variables",
            ));
        }
        let ms = MarkerState::new(m, qt, &self.state.v);
        use OutputVariable as O;
        match var {
            O::Position => put3(out, ms.position()),
            O::Velocity => put3(out, ms.velocity()),
            O::Displacement => {
                let ms_ref = MarkerState::new(m, &self.topology.reference, &self.state.v);
                put3(out, ms.position() - ms_ref.position());
            }
            O::AngularVelocity if m.provides_orientation => put3(out, ms.angular_velocity()),
            O::AngularVelocityLocal if m.provides_orientation => {
                put3(out, ms.angular_velocity_local());
            }
            O::RotationMatrix if m.provides_orientation => put_row_major(out, &ms.rotation()),
            O::Rotation if m.provides_orientation => {
                out.extend_from_slice(&rotation_matrix_to_rot_xyz(&ms.rotation()));
            }
            other => return Err(unsupported(item(), other)),
        }
        Ok(())
    }

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

    /// [`Outputs::output`] of an object appended to `out`, at total coordinates `qt`.
    fn object_values(
        &self,
        object: usize,
        var: OutputVariable,
        qt: &[f64],
        out: &mut Vec<f64>,
    ) -> Result<()> {
        let item = || self.mbs.object_ref(object);
        let o = self
            .mbs
            .objects
            .get(object)
            .ok_or_else(|| Error::item(item(), "objectNumber", "no such object"))?;
        use OutputVariable as O;
        match o {
            Object::Joint(joint) => {
                let (j, m0, m1) = self.constraint_and_markers(object, joint.markers, qt);
                let ctx = crate::joints::JointOutputs {
                    parameters: &joint.parameters,
                    topology: j,
                    m0,
                    m1,
                    lambda: &self.state.lambda[j.ae..j.ae + j.rows()],
                };
                let jt = &joint.joint_type;
                let handled = jt.outputs.and_then(|f| f(&ctx, var, out)).or_else(|| {
                    jt.generic_outputs
                        .then(|| crate::joints::generic(&ctx, var, out))
                        .flatten()
                });
                if handled.is_none() {
                    return Err(unsupported(item(), var));
                }
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
                    .connector_force(c, qt, &self.state.v)
                    .unwrap_or_else(|| {
                        // inactive: no force, geometry still reported
                        let con = &self.topology.connectors[c];
                        let m0 = MarkerState::new(
                            &self.topology.markers[con.markers[0]],
                            qt,
                            &self.state.v,
                        );
                        let m1 = MarkerState::new(
                            &self.topology.markers[con.markers[1]],
                            qt,
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
                match var {
                    O::Distance => out.push(cf.delta_p.norm()),
                    O::Displacement => put3(out, cf.delta_p),
                    O::Velocity => put3(out, cf.delta_v),
                    O::Force => put3(out, cf.force),
                    O::ForceLocal if spring => out.push(cf.scalar),
                    other => return Err(unsupported(item(), other)),
                }
            }
            _ => {
                return Err(Error::item(
                    item(),
                    "objectNumber",
                    "SensorObject on a body: use SensorBody (bodies have no object outputs)",
                ));
            }
        }
        Ok(())
    }

    /// An item's output error, as sensor `i`'s.
    fn sensor_error(&self, i: usize, e: Error) -> Error {
        match e {
            Error::Item { key, message, .. } => Error::item(self.mbs.sensor_ref(i), &key, message),
            other => other,
        }
    }

    /// [`Outputs::sensor_value`] appended to `out`, at total coordinates `qt`, with the
    /// markers of [`Outputs::sensor_output_markers`]: allocates nothing once `out` has room.
    pub(crate) fn sensor_values(
        &self,
        i: usize,
        qt: &[f64],
        markers: &OutputMarkers,
        out: &mut Vec<f64>,
    ) -> Result<()> {
        let s = &self.mbs.sensors[i];
        self.target_values(&s.target, s.output, qt, markers, out)
            .map_err(|e| self.sensor_error(i, e))
    }

    /// [`Outputs::output`] appended to `out`, at total coordinates `qt`, with the markers of
    /// [`Outputs::target_markers`].
    fn target_values(
        &self,
        target: &SensorTarget,
        var: OutputVariable,
        qt: &[f64],
        markers: &OutputMarkers,
        out: &mut Vec<f64>,
    ) -> Result<()> {
        match target {
            SensorTarget::Node(n) => self.node_values(n.0, var, qt, markers, out),
            SensorTarget::Object(o) => self.object_values(o.0, var, qt, out),
            SensorTarget::Body {
                body,
                local_position,
            } => self.body_values(body.0, *local_position, var, qt, markers, out),
            SensorTarget::Marker(m) => self.marker_values(m.0, var, qt, out),
            SensorTarget::Load(l) => {
                out.extend_from_slice(&self.mbs.loads[l.0].load_vector());
                Ok(())
            }
            SensorTarget::KinematicTree {
                object,
                link,
                local_position,
            } => self.kinematic_tree_values(object.0, *link, *local_position, var, qt, out),
            SensorTarget::SuperElement { body, mesh_node } => {
                self.super_element_values(body.0, *mesh_node, var, qt, markers, out)
            }
        }
    }
}
