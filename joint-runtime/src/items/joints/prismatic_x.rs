//! Exudyn's ObjectJointPrismaticX.

use super::joint_type::{Axes, JointType};
use super::object::JointObject;
use super::outputs::JointOutputs;
use super::rigid_frames;
use crate::items::MarkerIndex;
use crate::items::OutputVariable;
use crate::kernels::prismatic_x;

/// Exudyn's ObjectJointPrismaticX: marker 1 slides along marker 0's x axis without rotating.
pub static JOINT_PRISMATIC_X: JointType = rigid_frames::rigid_joint(
    "JointPrismaticX",
    &["ObjectJointPrismaticX", "PrismaticJointX"],
    &prismatic_x::DEFINITION,
    Axes::Fixed,
    outputs,
    &[],
);

fn outputs(ctx: &JointOutputs, var: OutputVariable, out: &mut Vec<f64>) -> Option<()> {
    let l = ctx.lambda;
    match var {
        // the raw multipliers, as Exudyn reports them
        // rows: t_y0·Δp, t_z0·Δp, then the three rotations
        OutputVariable::ForceLocal => out.extend_from_slice(&[0.0, l[0], l[1]]),
        OutputVariable::TorqueLocal => out.extend_from_slice(&l[2..5]),
        other => return rigid_frames::outputs(ctx, other, out),
    }
    Some(())
}

impl JointObject {
    /// `ObjectJointPrismaticX(markerNumbers=markers, rotationMarker0=r0, rotationMarker1=r1)`.
    pub fn prismatic_x(
        markers: [MarkerIndex; 2],
        rotation_marker0: [[f64; 3]; 3],
        rotation_marker1: [[f64; 3]; 3],
    ) -> Self {
        rigid_frames::rigid_object(
            JOINT_PRISMATIC_X,
            markers,
            rotation_marker0,
            rotation_marker1,
        )
    }
}
