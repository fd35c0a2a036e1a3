//! Exudyn's ObjectJointRollingDisc.

use super::joint_type::{Axes, Drawing, JointType, ParameterKey};
use super::object::JointObject;
use super::outputs::JointOutputs;
use crate::items::{MarkerIndex, OutputVariable};
use crate::kernels::rolling_disc;

/// Exudyn's ObjectJointRollingDisc: a disc (marker 1) rolls without slipping on the plane of
/// marker 0; rows at velocity level only (lateral, forward, normal; `constrainedAxes`).
pub static JOINT_ROLLING_DISC: JointType = JointType {
    type_name: "JointRollingDisc",
    spellings: &["ObjectJointRollingDisc", "RollingDiscJoint"],
    definition: &rolling_disc::DEFINITION,
    parameter_keys: &[
        ParameterKey {
            key: "discRadius",
            parameter: "disc_radius",
            default: Some(&[0.0]),
        },
        ParameterKey {
            key: "discAxis",
            parameter: "disc_axis",
            default: Some(&[1.0, 0.0, 0.0]),
        },
        ParameterKey {
            key: "planeNormal",
            parameter: "plane_normal",
            default: Some(&[0.0, 0.0, 1.0]),
        },
    ],
    axes: Axes::Mask,
    generic_outputs: false,
    outputs: Some(outputs),
    check: Some(check),
    frame_parameters: None,
    marker_level: false,
    // Exudyn draws the disc; scenes here do not yet
    drawing: Drawing::None,
    size_key: "VdiscWidth",
    default_size: 0.1,
    extra_keys: &[],
};

/// The radius is a length ≥ 0 (Exudyn's PReal); the axis and the normal give directions, so
/// they cannot be zero (Exudyn assumes them of unit length and does not normalize them), and,
/// as Exudyn checks, the normal is not longer than 1 + 1e-13.
fn check(parameters: &[f64]) -> Result<(), (&'static str, String)> {
    let radius = parameters[0];
    if !(radius.is_finite() && radius >= 0.0) {
        return Err((
            "discRadius",
            format!("expected a finite radius ≥ 0, found {radius}"),
        ));
    }
    for (key, v) in [
        ("discAxis", &parameters[1..4]),
        ("planeNormal", &parameters[4..7]),
    ] {
        let norm = v.iter().map(|x| x * x).sum::<f64>().sqrt();
        if !(norm.is_finite() && norm > 0.0) {
            return Err((
                key,
                format!("expected a direction (a nonzero vector), found {v:?}"),
            ));
        }
        if key == "planeNormal" && norm - 1.0 > 1e-13 {
            return Err((
                key,
                format!(
                    "expected a unit vector, found one of length {norm} (Exudyn: normalize it)"
                ),
            ));
        }
    }
    Ok(())
}

fn outputs(ctx: &JointOutputs, var: OutputVariable, out: &mut Vec<f64>) -> Option<()> {
    match var {
        // the contact point
        OutputVariable::Position => ctx.named("contact_position", out)?,
        // the velocity of the contact point along its trail
        OutputVariable::Velocity => ctx.named("trail_velocity", out)?,
        // the force on the disc in the joint frame [lateral, forward, normal]: −λ (Exudyn)
        OutputVariable::ForceLocal => out.extend(ctx.lambda.iter().map(|l| -l)),
        // the joint frame's axes as columns [lateral, forward, normal], row-major
        OutputVariable::RotationMatrix => {
            let start = out.len();
            for name in ["lateral", "forward", "normal"] {
                ctx.named(name, out)?;
            }
            // the axes were appended as rows: transpose in place (no allocation: sensors
            // call this every write)
            let m = &mut out[start..start + 9];
            m.swap(1, 3);
            m.swap(2, 6);
            m.swap(5, 7);
        }
        _ => return None,
    }
    Some(())
}

impl JointObject {
    /// `ObjectJointRollingDisc(markerNumbers=markers, discRadius=disc_radius,
    /// discAxis=disc_axis, planeNormal=plane_normal)`.
    pub fn rolling_disc(
        markers: [MarkerIndex; 2],
        disc_radius: f64,
        disc_axis: [f64; 3],
        plane_normal: [f64; 3],
    ) -> Self {
        let mut parameters = vec![disc_radius];
        parameters.extend_from_slice(&disc_axis);
        parameters.extend_from_slice(&plane_normal);
        JointObject::of_type(JOINT_ROLLING_DISC, markers, parameters)
    }
}
