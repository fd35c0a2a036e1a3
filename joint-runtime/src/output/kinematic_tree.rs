//! Outputs of a kinematic tree's link at a local point (SensorKinematicTree), from the tree's
//! link frames.

use nalgebra::{Matrix3, Vector3};

use super::{Outputs, unsupported};
use crate::assemble::{BodyTopology, ObjectTopology};
use crate::error::{Error, Result};
use crate::items::OutputVariable;
use crate::items::output_variable::{put_row_major, put3, rotation_matrix_to_rot_xyz};
use crate::kernels::marker_kinematics::kinematic_tree::LinkFrame;

impl Outputs<'_> {
    /// [`Outputs::output`] of a kinematic tree's link appended to `out`, at total coordinates `qt`.
    pub(super) fn kinematic_tree_values(
        &self,
        object: usize,
        link: usize,
        local: [f64; 3],
        var: OutputVariable,
        qt: &[f64],
        out: &mut Vec<f64>,
    ) -> Result<()> {
        let item = || self.mbs.object_ref(object);
        let body = match self.topology.objects.get(object) {
            Some(&ObjectTopology::Body(b)) => Some(&self.topology.bodies[b]),
            _ => None,
        };
        let Some(BodyTopology::KinematicTree { start, data, .. }) = body else {
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
}
