//! The outputs Exudyn's rigid joints (JointRevoluteZ, JointPrismaticX, JointGeneric) share,
//! from their joint frames `A_Ji = A_i·rotationMarker_i`.

use nalgebra::{Matrix3, Vector3};

use super::joint_type::{Axes, Drawing, ExtraKey, JointType, OutputFn, ParameterKey};
use super::object::JointObject;
use super::outputs::JointOutputs;
use crate::items::MarkerIndex;
use crate::items::OutputVariable;
use crate::items::output_variable::{put_homogeneous, put3, rotation_matrix_to_rot_xyz};
use joint_core::JointDefinition;

/// The identity, row-major: rotationMarker0/1 when a model file leaves them out.
const IDENTITY: [f64; 9] = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0];

/// The model-file keys of the rigid joints' `rotation_marker0`, `rotation_marker1` (the
/// deprecated extra marker-frame rotations), the identity by default.
pub const ROTATION_MARKER_KEYS: [ParameterKey; 2] = [
    ParameterKey {
        key: "rotationMarker0",
        parameter: "rotation_marker0",
        default: Some(&IDENTITY),
    },
    ParameterKey {
        key: "rotationMarker1",
        parameter: "rotation_marker1",
        default: Some(&IDENTITY),
    },
];

/// An object of one of Exudyn's rigid joint types, its parameters `rotationMarker0` and
/// `rotationMarker1` (row-major, one after the other).
pub fn rigid_object(
    joint_type: JointType,
    markers: [MarkerIndex; 2],
    rotation_marker0: [[f64; 3]; 3],
    rotation_marker1: [[f64; 3]; 3],
) -> JointObject {
    let mut p = rotation_marker0.as_flattened().to_vec();
    p.extend_from_slice(rotation_marker1.as_flattened());
    JointObject::of_type(joint_type, markers, p)
}

/// The type of one of Exudyn's rigid joints: rotationMarker0/1 (turned by the markers' local
/// rotations), drawn as spheres of `VaxisRadius`, markers on ground, bodies and nodes only.
pub const fn rigid_joint(
    type_name: &'static str,
    spellings: &'static [&'static str],
    definition: &'static JointDefinition,
    axes: Axes,
    outputs: OutputFn,
    extra_keys: &'static [ExtraKey],
) -> JointType {
    JointType {
        type_name,
        spellings,
        definition,
        parameter_keys: &ROTATION_MARKER_KEYS,
        axes,
        generic_outputs: false,
        outputs: Some(outputs),
        check: None,
        frame_parameters: Some(["rotation_marker0", "rotation_marker1"]),
        marker_level: true,
        drawing: Drawing::Spheres,
        size_key: "VaxisRadius",
        default_size: -1.0,
        extra_keys,
    }
}

/// The joint frames A_J0, A_J1 (rotationMarker0/1 are the definition's first two parameters).
pub fn frames(ctx: &JointOutputs) -> (Matrix3<f64>, Matrix3<f64>) {
    let p = ctx.parameters;
    let r0 = Matrix3::from_row_slice(&p[0..9]);
    let r1 = Matrix3::from_row_slice(&p[9..18]);
    (ctx.m0.rotation() * r0, ctx.m1.rotation() * r1)
}

/// Every output but ForceLocal and TorqueLocal (which each joint reports its own way).
pub fn outputs(ctx: &JointOutputs, var: OutputVariable, out: &mut Vec<f64>) -> Option<()> {
    let (aj0, aj1) = frames(ctx);
    let (m0, m1) = (&ctx.m0, &ctx.m1);
    let delta = m1.position() - m0.position();
    use OutputVariable as O;
    match var {
        O::Position => put3(out, m0.position()),
        O::Velocity => put3(out, m0.velocity()),
        O::DisplacementLocal => put3(out, aj0.transpose() * delta),
        // Exudyn leaves out the frame's turning here
        O::VelocityLocal => put3(out, aj0.transpose() * (m1.velocity() - m0.velocity())),
        O::Rotation => out.extend_from_slice(&rotation_matrix_to_rot_xyz(&(aj0.transpose() * aj1))),
        O::AngularVelocityLocal => {
            let (a0, a1) = (m0.rotation(), m1.rotation());
            put3(
                out,
                aj0.transpose()
                    * (a1 * m1.angular_velocity_local() - a0 * m0.angular_velocity_local()),
            );
        }
        O::HomogeneousTransformation => put_homogeneous(out, &aj0, &m0.position()),
        O::HomogeneousTransformationLocal => {
            put_homogeneous(out, &(aj0.transpose() * aj1), &(aj0.transpose() * delta));
        }
        _ => return None,
    }
    Some(())
}

/// The global translation multipliers in J0's frame.
pub fn local(ctx: &JointOutputs, global: [f64; 3]) -> Vector3<f64> {
    frames(ctx).0.transpose() * Vector3::from(global)
}
