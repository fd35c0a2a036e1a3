//! Node outputs (Exudyn's `mbs.GetNodeOutput`, SensorNode).

use nalgebra::Vector3;

use super::{OutputMarkers, Outputs, entry, unsupported};
use crate::error::Result;
use crate::items::output_variable::{put_row_major, put3, rotation_matrix_to_rot_xyz};
use crate::items::{Node, OutputVariable};
use crate::markers::{MarkerModel, MarkerState, ResolvedMarker};
use joint_core::MarkerKind;

impl Outputs<'_> {
    /// Angular acceleration of a rigid marker kind: G θ̈ + G_t θ̇.
    pub(super) fn angular_acceleration(&self, m: &ResolvedMarker, qt: &[f64]) -> Vector3<f64> {
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
    pub(super) fn node_values(
        &self,
        node: usize,
        var: OutputVariable,
        qt: &[f64],
        markers: &OutputMarkers,
        out: &mut Vec<f64>,
    ) -> Result<()> {
        let item = || self.mbs.node_ref(node);
        let n = entry(&self.mbs.nodes, node, item, "nodeNumber", "node")?;
        use OutputVariable as O;
        let start = self.topology.node_ode2[node];
        let r = start..start + n.ode2_size();
        let st = &self.state;
        if let Node::PointGround { position, .. } = n {
            // Exudyn's NodePointGround: fixed, unrotated, without coordinates
            match var {
                O::Position => out.extend_from_slice(position),
                O::Displacement
                | O::Velocity
                | O::AngularVelocity
                | O::AngularVelocityLocal
                | O::Rotation => out.extend_from_slice(&[0.0; 3]),
                O::RotationMatrix => put_row_major(out, &nalgebra::Matrix3::identity()),
                O::Coordinates | O::CoordinatesT | O::CoordinatesTotal => {}
                other => return Err(unsupported(item(), other)),
            }
            return Ok(());
        }
        if let Node::GenericData {
            initial_coordinates,
            ..
        } = n
        {
            // Exudyn's NodeGenericData: its data coordinates only
            let d = self.topology.node_data[node];
            return match var {
                O::Coordinates => {
                    out.extend_from_slice(&st.data[d..d + initial_coordinates.len()]);
                    Ok(())
                }
                other => Err(unsupported(item(), other)),
            };
        }
        if let Node::GenericODE1 { .. } = n {
            // Exudyn's NodeGenericODE1: its ODE1 coordinates and velocities
            let start = self.topology.node_ode1[node];
            let r = start..start + n.ode1_size();
            match var {
                O::Coordinates => out.extend_from_slice(&st.y[r]),
                O::CoordinatesT => out.extend_from_slice(&st.y_t[r]),
                O::CoordinatesTotal => out.extend(
                    st.y[r.clone()]
                        .iter()
                        .zip(&self.topology.ode1_reference[r])
                        .map(|(y, reference)| reference + y),
                ),
                other => return Err(unsupported(item(), other)),
            }
            return Ok(());
        }
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
        if let Node::Point2D { .. } = n {
            // [q0, q1, 0]: the plane's vectors in 3-D
            let planar = |x: &[f64]| [x[r.start], x[r.start + 1], 0.0];
            match var {
                O::Position => put3(out, ms.position()),
                O::Displacement => out.extend_from_slice(&planar(&st.q)),
                O::Velocity => out.extend_from_slice(&planar(&st.v)),
                O::Acceleration => out.extend_from_slice(&planar(&st.a)),
                O::Coordinates => out.extend_from_slice(&st.q[r]),
                O::CoordinatesT => out.extend_from_slice(&st.v[r]),
                O::CoordinatesTT => out.extend_from_slice(&st.a[r]),
                O::CoordinatesTotal => out.extend_from_slice(&qt[r]),
                O::RotationMatrix => put_row_major(out, &ms.rotation()),
                O::Rotation | O::AngularVelocity | O::AngularVelocityLocal => {
                    out.extend_from_slice(&[0.0; 3]);
                }
                other => return Err(unsupported(item(), other)),
            }
            return Ok(());
        }
        if let Node::RigidBody2D { .. } = n {
            // [q0, q1, 0] vectors; Rotation [0, 0, ψ] with ψ the total angle, unwrapped
            let planar = |x: &[f64]| [x[r.start], x[r.start + 1], 0.0];
            let own = match var {
                O::Displacement => Some(planar(&st.q)),
                O::Acceleration => Some(planar(&st.a)),
                O::Rotation => Some([0.0, 0.0, qt[r.start + 2]]),
                _ => None,
            };
            if let Some(x) = own {
                out.extend_from_slice(&x);
                return Ok(());
            }
        }
        if n.is_lie_group() && matches!(var, O::CoordinatesTT | O::AngularAcceleration) {
            // Exudyn's RotVecLG node has no second derivative of its rotation coordinates
            return Err(unsupported(item(), var));
        }
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
}
