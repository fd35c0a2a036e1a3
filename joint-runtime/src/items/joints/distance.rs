//! Exudyn's ObjectConnectorDistance.

use super::joint_type::{Axes, Drawing, JointType, ParameterKey};
use super::object::JointObject;
use super::outputs::JointOutputs;
use crate::items::MarkerIndex;
use crate::items::OutputVariable;
use crate::items::output_variable::put3;
use crate::kernels::distance;

/// Exudyn's ObjectConnectorDistance: the markers' distance is `distance`.
pub static CONNECTOR_DISTANCE: JointType = JointType {
    type_name: "ConnectorDistance",
    spellings: &["ObjectConnectorDistance", "DistanceConstraint"],
    definition: &distance::DEFINITION,
    // Exudyn has no usable default: its placeholder 0 is rejected at creation.
    parameter_keys: &[ParameterKey {
        key: "distance",
        parameter: "distance",
        default: None,
    }],
    axes: Axes::Fixed,
    generic_outputs: false,
    outputs: Some(outputs),
    check: Some(check),
    frame_parameters: None,
    marker_level: false,
    drawing: Drawing::Cylinder,
    size_key: "VdrawSize",
    default_size: -1.0,
    extra_keys: &[],
};

fn check(parameters: &[f64]) -> Result<(), (&'static str, String)> {
    let d = parameters.first().copied().unwrap_or(f64::NAN);
    if d.is_finite() && d > 0.0 {
        Ok(())
    } else {
        Err((
            "distance",
            format!("expected a finite distance > 0, found {d}"),
        ))
    }
}

fn outputs(ctx: &JointOutputs, var: OutputVariable, out: &mut Vec<f64>) -> Option<()> {
    let (m0, m1) = (&ctx.m0, &ctx.m1);
    let delta = m1.position() - m0.position();
    match var {
        OutputVariable::Displacement => put3(out, delta),
        // Exudyn: the relative velocity (the joints give marker 0's velocity instead)
        OutputVariable::Velocity => put3(out, m1.velocity() - m0.velocity()),
        OutputVariable::Distance => out.push(delta.norm()),
        OutputVariable::Force => out.push(ctx.lambda[0]),
        _ => return None,
    }
    Some(())
}

impl JointObject {
    /// `ObjectConnectorDistance(markerNumbers=markers, distance=d)`.
    pub fn distance(markers: [MarkerIndex; 2], distance: f64) -> Self {
        JointObject::of_type(CONNECTOR_DISTANCE, markers, vec![distance])
    }
}
