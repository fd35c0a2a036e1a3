//! Exudyn's ObjectJointSpherical.

use super::joint_type::{Axes, Drawing, JointType};
use super::object::JointObject;
use super::outputs::JointOutputs;
use crate::items::MarkerIndex;
use crate::items::OutputVariable;
use crate::items::output_variable::put3;
use crate::kernels::spherical;

/// Exudyn's ObjectJointSpherical: the markers' positions coincide, per global axis (`constrainedAxes`).
pub static JOINT_SPHERICAL: JointType = JointType {
    type_name: "JointSpherical",
    spellings: &["ObjectJointSpherical", "SphericalJoint"],
    definition: &spherical::DEFINITION,
    parameter_keys: &[],
    axes: Axes::Mask,
    generic_outputs: false,
    outputs: Some(outputs),
    check: None,
    frame_parameters: None,
    marker_level: true,
    drawing: Drawing::Spherical,
    size_key: "VjointRadius",
    default_size: 0.1,
    extra_keys: &[],
};

fn outputs(ctx: &JointOutputs, var: OutputVariable, out: &mut Vec<f64>) -> Option<()> {
    let (m0, m1) = (&ctx.m0, &ctx.m1);
    match var {
        OutputVariable::Position => put3(out, m0.position()),
        OutputVariable::Velocity => put3(out, m0.velocity()),
        OutputVariable::Displacement => put3(out, m1.position() - m0.position()),
        OutputVariable::Force => out.extend_from_slice(&ctx.lambda[..3]),
        _ => return None,
    }
    Some(())
}

impl JointObject {
    /// `ObjectJointSpherical(markerNumbers=markers)`.
    pub fn spherical(markers: [MarkerIndex; 2]) -> Self {
        JointObject::of_type(JOINT_SPHERICAL, markers, Vec::new())
    }
}
