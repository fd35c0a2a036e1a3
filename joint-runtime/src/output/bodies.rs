//! Body outputs at a local point (Exudyn's `mbs.GetObjectOutputBody`, SensorBody): ground,
//! mass points, 1D masses and rotors, and rigid bodies (3-D and planar).

use nalgebra::{Matrix3, Vector3};

use super::{OutputMarkers, Outputs, entry, unsupported};
use crate::error::{Error, Result};
use crate::items::output_variable::{put_row_major, put3, rotation_matrix_to_rot_xyz};
use crate::items::{Object, OutputVariable};
use crate::markers::MarkerState;

impl Outputs<'_> {
    /// [`Outputs::output`] of a body point appended to `out`, at total coordinates `qt`.
    pub(super) fn body_values(
        &self,
        body: usize,
        local: [f64; 3],
        var: OutputVariable,
        qt: &[f64],
        markers: &OutputMarkers,
        out: &mut Vec<f64>,
    ) -> Result<()> {
        let item = || self.mbs.object_ref(body);
        let object = entry(&self.mbs.objects, body, item, "bodyNumber", "object")?;
        match object {
            Object::Ground {
                reference_position,
                reference_rotation,
                ..
            } => self.ground_values(
                body,
                reference_position,
                reference_rotation,
                local,
                var,
                out,
            ),
            Object::MassPoint { node, .. } if markers.node.is_none() => {
                self.grounded_mass_point_values(body, *node, local, var, out)
            }
            Object::MassPoint { .. } => {
                self.mass_point_values(body, false, local, var, qt, markers, out)
            }
            Object::MassPoint2D { .. } => {
                self.mass_point_values(body, true, local, var, qt, markers, out)
            }
            Object::Mass1D {
                node,
                reference_position,
                reference_rotation,
                ..
            } => self.mass_1d_values(
                body,
                *node,
                reference_position,
                reference_rotation,
                local,
                var,
                qt,
                out,
            ),
            Object::RotationalMass1D {
                node,
                reference_position,
                reference_rotation,
                ..
            } => self.rotational_mass_1d_values(
                body,
                *node,
                reference_position,
                reference_rotation,
                local,
                var,
                qt,
                out,
            ),
            Object::RigidBody { .. } | Object::RigidBody2D { .. } => {
                let planar = matches!(object, Object::RigidBody2D { .. });
                self.rigid_body_values(body, planar, local, var, qt, markers, out)
            }
            other => Err(Error::item(
                item(),
                "bodyNumber",
                format!("a {} is not a body", other.type_name()),
            )),
        }
    }

    /// ObjectGround: fixed at its reference frame.
    #[allow(clippy::too_many_arguments)]
    fn ground_values(
        &self,
        body: usize,
        reference_position: &[f64; 3],
        reference_rotation: &[[f64; 3]; 3],
        local: [f64; 3],
        var: OutputVariable,
        out: &mut Vec<f64>,
    ) -> Result<()> {
        let item = || self.mbs.object_ref(body);
        use OutputVariable as O;
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
        Ok(())
    }

    /// A MassPoint on a NodePointGround: fixed where the node is.
    #[allow(clippy::too_many_arguments)]
    fn grounded_mass_point_values(
        &self,
        body: usize,
        node: crate::items::NodeIndex,
        local: [f64; 3],
        var: OutputVariable,
        out: &mut Vec<f64>,
    ) -> Result<()> {
        let item = || self.mbs.object_ref(body);
        use OutputVariable as O;
        // on a NodePointGround: fixed where the node is
        let Some(crate::items::Node::PointGround { position, .. }) = self.mbs.nodes.get(node.0)
        else {
            unreachable!("checked at assemble: mass points have a position node");
        };
        match var {
            O::Position => put3(out, Vector3::from(*position) + Vector3::from(local)),
            O::Displacement | O::Velocity | O::Acceleration => {
                out.extend_from_slice(&[0.0; 3]);
            }
            O::RotationMatrix => put_row_major(out, &Matrix3::identity()),
            O::Rotation | O::AngularVelocity | O::AngularVelocityLocal => {
                out.extend_from_slice(&[0.0; 3]);
            }
            other => return Err(unsupported(item(), other)),
        }
        Ok(())
    }

    /// A MassPoint on its node or a MassPoint2D (`planar`) on its NodePoint2D.
    #[allow(clippy::too_many_arguments)]
    fn mass_point_values(
        &self,
        body: usize,
        planar: bool,
        local: [f64; 3],
        var: OutputVariable,
        qt: &[f64],
        markers: &OutputMarkers,
        out: &mut Vec<f64>,
    ) -> Result<()> {
        let item = || self.mbs.object_ref(body);
        use OutputVariable as O;
        let st = &self.state;
        let m = markers
            .node
            .as_ref()
            .expect("checked at assemble: a mass point has a position node");
        let ms = MarkerState::new(m, qt, &st.v);
        let s = m.columns[0];
        let point = |x: &[f64]| {
            let z = if planar { 0.0 } else { x[s + 2] };
            [x[s], x[s + 1], z]
        };
        match var {
            O::Position => put3(out, ms.position() + Vector3::from(local)),
            O::Displacement => out.extend_from_slice(&point(&st.q)),
            O::Velocity if planar => out.extend_from_slice(&point(&st.v)),
            O::Velocity => put3(out, ms.velocity()),
            O::Acceleration => out.extend_from_slice(&point(&st.a)),
            O::RotationMatrix => put_row_major(out, &Matrix3::identity()),
            O::Rotation | O::AngularVelocity | O::AngularVelocityLocal => {
                out.extend_from_slice(&[0.0; 3]);
            }
            other => return Err(unsupported(item(), other)),
        }
        Ok(())
    }

    /// A Mass1D: R·([p₀, 0, 0] + b) + p_ref, p₀ its node's total coordinate.
    #[allow(clippy::too_many_arguments)]
    fn mass_1d_values(
        &self,
        body: usize,
        node: crate::items::NodeIndex,
        reference_position: &[f64; 3],
        reference_rotation: &[[f64; 3]; 3],
        local: [f64; 3],
        var: OutputVariable,
        qt: &[f64],
        out: &mut Vec<f64>,
    ) -> Result<()> {
        let item = || self.mbs.object_ref(body);
        use OutputVariable as O;
        let st = &self.state;
        // Exudyn: R·([p₀, 0, 0] + b) + p_ref with p₀ the total coordinate
        let c = self.topology.node_ode2[node.0];
        let r = Matrix3::from_row_slice(reference_rotation.as_flattened());
        let along = |x: f64| r * Vector3::new(x, 0.0, 0.0);
        match var {
            O::Position => put3(
                out,
                r * (Vector3::new(qt[c], 0.0, 0.0) + Vector3::from(local))
                    + Vector3::from(*reference_position),
            ),
            O::Displacement => put3(out, along(st.q[c])),
            O::Velocity => put3(out, along(st.v[c])),
            O::AngularVelocity | O::AngularVelocityLocal => {
                out.extend_from_slice(&[0.0; 3]);
            }
            O::RotationMatrix => put_row_major(out, &r),
            O::Rotation => out.extend_from_slice(&rotation_matrix_to_rot_xyz(&r)),
            other => return Err(unsupported(item(), other)),
        }
        Ok(())
    }

    /// A RotationalMass1D: A = R·Rz(θ), θ its node's total coordinate; p = A·b + p_ref.
    #[allow(clippy::too_many_arguments)]
    fn rotational_mass_1d_values(
        &self,
        body: usize,
        node: crate::items::NodeIndex,
        reference_position: &[f64; 3],
        reference_rotation: &[[f64; 3]; 3],
        local: [f64; 3],
        var: OutputVariable,
        qt: &[f64],
        out: &mut Vec<f64>,
    ) -> Result<()> {
        let item = || self.mbs.object_ref(body);
        use OutputVariable as O;
        let st = &self.state;
        // Exudyn: A = R·Rz(θ), θ the total coordinate; p = A·b + p_ref
        let c = self.topology.node_ode2[node.0];
        let r = Matrix3::from_row_slice(reference_rotation.as_flattened());
        let rotation = |theta: f64| {
            let (sn, cs) = theta.sin_cos();
            r * Matrix3::new(cs, -sn, 0.0, sn, cs, 0.0, 0.0, 0.0, 1.0)
        };
        let b = Vector3::from(local);
        let a = rotation(qt[c]);
        let omega_local = Vector3::new(0.0, 0.0, st.v[c]);
        match var {
            O::Position => put3(out, a * b + Vector3::from(*reference_position)),
            O::Displacement => {
                let reference = rotation(self.topology.reference[c]);
                put3(out, a * b - reference * b);
            }
            O::Velocity => put3(out, a * omega_local.cross(&b)),
            O::Rotation => out.push(qt[c]),
            O::AngularVelocity => put3(out, r * omega_local),
            O::RotationMatrix => put_row_major(out, &a),
            other => return Err(unsupported(item(), other)),
        }
        Ok(())
    }

    /// A RigidBody or RigidBody2D (`planar`) at its point marker.
    #[allow(clippy::too_many_arguments)]
    fn rigid_body_values(
        &self,
        body: usize,
        planar: bool,
        local: [f64; 3],
        var: OutputVariable,
        qt: &[f64],
        markers: &OutputMarkers,
        out: &mut Vec<f64>,
    ) -> Result<()> {
        let item = || self.mbs.object_ref(body);
        use OutputVariable as O;
        let st = &self.state;
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
            let node = if planar {
                Vector3::new(st.a[s], st.a[s + 1], 0.0)
            } else {
                Vector3::new(st.a[s], st.a[s + 1], st.a[s + 2])
            };
            node + alpha.cross(&ab) + omega.cross(&omega.cross(&ab))
        };
        if planar && var == O::Rotation {
            // Exudyn's ObjectRigidBody2D: the node's angle coordinate, without its
            // reference value (its NodeRigidBody2D reports the total)
            out.push(st.q[s + 2]);
            return Ok(());
        }
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
        Ok(())
    }
}
