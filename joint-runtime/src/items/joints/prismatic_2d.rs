//! Exudyn's ObjectJointPrismatic2D.

use super::joint_type::{Axes, Drawing, JointType, ParameterKey};
use super::object::JointObject;
use super::outputs::JointOutputs;
use crate::items::MarkerIndex;
use crate::items::OutputVariable;
use crate::items::output_variable::put3;
use crate::kernels::prismatic_2d;
use nalgebra::Vector3;

/// Exudyn's ObjectJointPrismatic2D: marker 1 slides along marker 0's axis `axisMarker0`
/// (`Δp·n1 = 0`, `n1` = marker 1's `normalMarker1`) and, with `constrainRotation` (default),
/// does not turn relative to it (`t0·n1 = 0`).
pub static JOINT_PRISMATIC_2D: JointType = JointType {
    type_name: "JointPrismatic2D",
    spellings: &["ObjectJointPrismatic2D", "PrismaticJoint2D"],
    definition: &prismatic_2d::DEFINITION,
    parameter_keys: &[
        ParameterKey {
            key: "axisMarker0",
            parameter: "axis_marker0",
            default: Some(&[1.0, 0.0, 0.0]),
        },
        ParameterKey {
            key: "normalMarker1",
            parameter: "normal_marker1",
            default: Some(&[0.0, 1.0, 0.0]),
        },
    ],
    axes: Axes::Flags(&[("constrainRotation", 1)]),
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

/// Exudyn 1.13.6's outputs (measured): marker 0's position and velocity, the slide
/// `Δp·(A_0·axisMarker0)` as Distance and the relative angle about z as Rotation.
fn outputs(ctx: &JointOutputs, var: OutputVariable, out: &mut Vec<f64>) -> Option<()> {
    let (m0, m1) = (&ctx.m0, &ctx.m1);
    match var {
        OutputVariable::Position => put3(out, m0.position()),
        OutputVariable::Velocity => put3(out, m0.velocity()),
        OutputVariable::Distance => {
            let p = ctx.parameters;
            let axis = m0.rotation() * Vector3::new(p[0], p[1], p[2]);
            out.push((m1.position() - m0.position()).dot(&axis));
        }
        OutputVariable::Rotation => {
            let r = m0.rotation().transpose() * m1.rotation();
            out.push(r[(1, 0)].atan2(r[(0, 0)]));
        }
        _ => return None,
    }
    Some(())
}

impl JointObject {
    /// `ObjectJointPrismatic2D(markerNumbers=markers, axisMarker0=axis, normalMarker1=normal,
    /// constrainRotation=constrain_rotation)`.
    pub fn prismatic_2d(
        markers: [MarkerIndex; 2],
        axis_marker0: [f64; 3],
        normal_marker1: [f64; 3],
        constrain_rotation: bool,
    ) -> Self {
        let mut parameters = axis_marker0.to_vec();
        parameters.extend_from_slice(&normal_marker1);
        JointObject::of_type(JOINT_PRISMATIC_2D, markers, parameters)
            .with_constrained_axes(&[1, i64::from(constrain_rotation)])
    }
}
