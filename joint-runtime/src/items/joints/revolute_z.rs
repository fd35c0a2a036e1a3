//! Exudyn's ObjectJointRevoluteZ.

use super::joint_type::{Axes, JointType};
use super::object::JointObject;
use super::outputs::JointOutputs;
use super::rigid_frames;
use crate::items::MarkerIndex;
use crate::items::OutputVariable;
use crate::items::output_variable::put3;
use crate::kernels::revolute_z;

/// Exudyn's ObjectJointRevoluteZ: the markers' positions coincide and marker 1 turns only about marker 0's z axis.
pub static JOINT_REVOLUTE_Z: JointType = rigid_frames::rigid_joint(
    "JointRevoluteZ",
    &["ObjectJointRevoluteZ", "RevoluteJointZ"],
    &revolute_z::DEFINITION,
    Axes::Fixed,
    outputs,
    &[],
);

fn outputs(ctx: &JointOutputs, var: OutputVariable, out: &mut Vec<f64>) -> Option<()> {
    let l = ctx.lambda;
    match var {
        // the raw multipliers, as Exudyn reports them
        OutputVariable::ForceLocal => put3(out, rigid_frames::local(ctx, [l[0], l[1], l[2]])),
        OutputVariable::TorqueLocal => out.extend_from_slice(&[l[3], l[4], 0.0]),
        other => return rigid_frames::outputs(ctx, other, out),
    }
    Some(())
}

impl JointObject {
    /// `ObjectJointRevoluteZ(markerNumbers=markers, rotationMarker0=r0, rotationMarker1=r1)`.
    pub fn revolute_z(
        markers: [MarkerIndex; 2],
        rotation_marker0: [[f64; 3]; 3],
        rotation_marker1: [[f64; 3]; 3],
    ) -> Self {
        rigid_frames::rigid_object(
            JOINT_REVOLUTE_Z,
            markers,
            rotation_marker0,
            rotation_marker1,
        )
    }
}
