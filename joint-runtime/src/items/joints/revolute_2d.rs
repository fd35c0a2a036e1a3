//! Exudyn's ObjectJointRevolute2D.

use super::joint_type::{Axes, Drawing, JointType};
use super::object::JointObject;
use super::outputs::JointOutputs;
use crate::items::MarkerIndex;
use crate::items::OutputVariable;
use crate::items::output_variable::put3;
use crate::kernels::revolute_2d;

/// Exudyn's ObjectJointRevolute2D: the markers' positions coincide in the x–y plane.
pub static JOINT_REVOLUTE_2D: JointType = JointType {
    type_name: "JointRevolute2D",
    spellings: &["ObjectJointRevolute2D", "RevoluteJoint2D"],
    definition: &revolute_2d::DEFINITION,
    parameter_keys: &[],
    axes: Axes::Fixed,
    generic_outputs: false,
    outputs: Some(outputs),
    check: None,
    frame_parameters: None,
    marker_level: true,
    drawing: Drawing::Spheres,
    size_key: "VdrawSize",
    default_size: -1.0,
    extra_keys: &[],
};

/// Exudyn 1.13.6's outputs (measured): marker 0's position and velocity, Δp, and λ as a force.
fn outputs(ctx: &JointOutputs, var: OutputVariable, out: &mut Vec<f64>) -> Option<()> {
    let (m0, m1) = (&ctx.m0, &ctx.m1);
    match var {
        OutputVariable::Position => put3(out, m0.position()),
        OutputVariable::Velocity => put3(out, m0.velocity()),
        OutputVariable::Displacement => put3(out, m1.position() - m0.position()),
        OutputVariable::Force => out.extend_from_slice(&[ctx.lambda[0], ctx.lambda[1], 0.0]),
        _ => return None,
    }
    Some(())
}

impl JointObject {
    /// `ObjectJointRevolute2D(markerNumbers=markers)`.
    pub fn revolute_2d(markers: [MarkerIndex; 2]) -> Self {
        JointObject::of_type(JOINT_REVOLUTE_2D, markers, Vec::new())
    }
}
