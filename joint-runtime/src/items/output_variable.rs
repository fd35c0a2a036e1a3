//! Output variable types (Exudyn's OutputVariableType), as far as the runtime's items have them,
//! and how each lays out its values (Rotation as Rxyz angles, matrices row-major).

use std::fmt;
use std::str::FromStr;

use nalgebra::{Matrix3, Vector3};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
/// An output variable type (Exudyn's `exu.OutputVariableType`): what a sensor or a `Get…Output` reads.
#[non_exhaustive]
pub enum OutputVariable {
    /// Global position [x, y, z].
    Position,
    /// Displacement from the reference configuration [x, y, z] (joints: the position-level residual).
    Displacement,
    /// Global velocity [x, y, z] (joints: the velocity-level residual).
    Velocity,
    /// Velocity in the body frame.
    VelocityLocal,
    /// Global acceleration.
    Acceleration,
    /// Acceleration in the body frame.
    AccelerationLocal,
    /// Rotation as Tait–Bryan x-y-z angles [ψ0, ψ1, ψ2] (Rxyz nodes: their raw angles).
    Rotation,
    /// Rotation matrix, row-major (9 values).
    RotationMatrix,
    /// Global angular velocity ω.
    AngularVelocity,
    /// Angular velocity in the body frame ω̄.
    AngularVelocityLocal,
    /// Global angular acceleration.
    AngularAcceleration,
    /// Angular acceleration in the body frame.
    AngularAccelerationLocal,
    /// A node's coordinates (displacements).
    Coordinates,
    /// A node's velocities.
    CoordinatesT,
    /// A node's accelerations.
    CoordinatesTT,
    /// A node's total coordinates (reference + displacement).
    CoordinatesTotal,
    /// Force. A joint's: its Lagrange multipliers λ, one per row, with Exudyn's sign — the
    /// equations are `M·q̈ + C_qᵀλ = f`, so the joint acts on the bodies with −C_qᵀλ, and a row
    /// whose gradient points along the force it must supply has λ < 0 (a 1 kg point held up
    /// against gravity by a row n·Δp with n = +z: λ = −9.81). A connector's and a force element's:
    /// the force f on marker 0 (global; marker 1 receives −f).
    Force,
    /// Force in the joint frame.
    ForceLocal,
    /// A connector's distance between its markers.
    Distance,
    /// Displacement in the local frame (an FFRF mesh node's modal displacement).
    DisplacementLocal,
    /// Torque in the joint frame.
    TorqueLocal,
    /// Torque (global): a sphere–sphere contact's on marker 0, as its LHS has it.
    Torque,
    /// A frame's first axis, or a contact's normal.
    Director1,
    /// Homogeneous transformation, row-major 4 × 4.
    HomogeneousTransformation,
    /// Homogeneous transformation in the local frame, row-major 4 × 4.
    HomogeneousTransformationLocal,
    /// The six stress components of an FFRF mesh node from `outputVariableModeBasis`.
    StressLocal,
    /// The six strain components of an FFRF mesh node from `outputVariableModeBasis`.
    StrainLocal,
    /// The residual of a constraint's equation (ObjectConnectorCoordinate).
    ConstraintEquation,
    /// A spring's potential energy (ObjectConnectorRigidBodySpringDamper).
    PotentialEnergy,
    /// A named output of a joint defined with `joint!` (`output distance = …;`): typed as
    /// `OutputVariable::from(my_joint::outputs::DISTANCE)`, so that a misspelt name does not
    /// compile.
    Named(&'static str),
}

impl From<joint_core::OutputName> for OutputVariable {
    fn from(name: joint_core::OutputName) -> Self {
        OutputVariable::Named(name.0)
    }
}

impl OutputVariable {
    /// Every variable with a fixed name, in Exudyn's order (not `Named`).
    pub const ALL: [OutputVariable; 29] = [
        OutputVariable::Position,
        OutputVariable::Displacement,
        OutputVariable::Velocity,
        OutputVariable::VelocityLocal,
        OutputVariable::Acceleration,
        OutputVariable::AccelerationLocal,
        OutputVariable::Rotation,
        OutputVariable::RotationMatrix,
        OutputVariable::AngularVelocity,
        OutputVariable::AngularVelocityLocal,
        OutputVariable::AngularAcceleration,
        OutputVariable::AngularAccelerationLocal,
        OutputVariable::Coordinates,
        OutputVariable::CoordinatesT,
        OutputVariable::CoordinatesTT,
        OutputVariable::CoordinatesTotal,
        OutputVariable::Force,
        OutputVariable::ForceLocal,
        OutputVariable::Distance,
        OutputVariable::DisplacementLocal,
        OutputVariable::TorqueLocal,
        OutputVariable::Torque,
        OutputVariable::Director1,
        OutputVariable::HomogeneousTransformation,
        OutputVariable::HomogeneousTransformationLocal,
        OutputVariable::StressLocal,
        OutputVariable::StrainLocal,
        OutputVariable::ConstraintEquation,
        OutputVariable::PotentialEnergy,
    ];

    /// Exudyn's member name (a joint output's own name for [`OutputVariable::Named`]).
    pub fn exudyn_name(self) -> &'static str {
        match self {
            OutputVariable::Position => "Position",
            OutputVariable::Displacement => "Displacement",
            OutputVariable::Velocity => "Velocity",
            OutputVariable::VelocityLocal => "VelocityLocal",
            OutputVariable::Acceleration => "Acceleration",
            OutputVariable::AccelerationLocal => "AccelerationLocal",
            OutputVariable::Rotation => "Rotation",
            OutputVariable::RotationMatrix => "RotationMatrix",
            OutputVariable::AngularVelocity => "AngularVelocity",
            OutputVariable::AngularVelocityLocal => "AngularVelocityLocal",
            OutputVariable::AngularAcceleration => "AngularAcceleration",
            OutputVariable::AngularAccelerationLocal => "AngularAccelerationLocal",
            OutputVariable::Coordinates => "Coordinates",
            OutputVariable::CoordinatesT => "Coordinates_t",
            OutputVariable::CoordinatesTT => "Coordinates_tt",
            OutputVariable::CoordinatesTotal => "CoordinatesTotal",
            OutputVariable::Force => "Force",
            OutputVariable::ForceLocal => "ForceLocal",
            OutputVariable::Distance => "Distance",
            OutputVariable::DisplacementLocal => "DisplacementLocal",
            OutputVariable::TorqueLocal => "TorqueLocal",
            OutputVariable::Torque => "Torque",
            OutputVariable::Director1 => "Director1",
            OutputVariable::HomogeneousTransformation => "HomogeneousTransformation",
            OutputVariable::HomogeneousTransformationLocal => "HomogeneousTransformationLocal",
            OutputVariable::StressLocal => "StressLocal",
            OutputVariable::StrainLocal => "StrainLocal",
            OutputVariable::ConstraintEquation => "ConstraintEquation",
            OutputVariable::PotentialEnergy => "PotentialEnergy",
            OutputVariable::Named(name) => name,
        }
    }
}

impl fmt::Display for OutputVariable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.exudyn_name())
    }
}

impl FromStr for OutputVariable {
    type Err = String;
    /// Accepts `Position` and `OutputVariableType.Position`.
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        let s = s.strip_prefix("OutputVariableType.").unwrap_or(s);
        OutputVariable::ALL
            .iter()
            .copied()
            .find(|o| o.exudyn_name() == s)
            .ok_or_else(|| format!("unknown or unsupported OutputVariableType `{s}`"))
    }
}

/// Exudyn's `RotationMatrix2RotXYZ`, where the markers' rotation coordinates need it.
pub use crate::markers::rotation_vector::rotation_matrix_to_rot_xyz;

/// Append the row-major entries of `m`.
pub(crate) fn put_row_major(out: &mut Vec<f64>, m: &Matrix3<f64>) {
    for r in 0..3 {
        out.extend((0..3).map(|c| m[(r, c)]));
    }
}

pub(crate) fn put3(out: &mut Vec<f64>, v: Vector3<f64>) {
    out.extend_from_slice(v.as_slice());
}

/// Append the 4 × 4 homogeneous transformation `[[r, p], [0, 1]]`, row-major.
pub(crate) fn put_homogeneous(out: &mut Vec<f64>, r: &Matrix3<f64>, p: &Vector3<f64>) {
    for row in 0..3 {
        out.extend((0..3).map(|c| r[(row, c)]));
        out.push(p[row]);
    }
    out.extend_from_slice(&[0.0, 0.0, 0.0, 1.0]);
}
