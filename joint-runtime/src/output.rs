//! Output variable types (Exudyn's OutputVariableType), as far as the runtime's items have them.

use std::fmt;
use std::str::FromStr;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OutputVariable {
    Position,
    Displacement,
    Velocity,
    VelocityLocal,
    Acceleration,
    AccelerationLocal,
    Rotation,
    RotationMatrix,
    AngularVelocity,
    AngularVelocityLocal,
    AngularAcceleration,
    AngularAccelerationLocal,
    Coordinates,
    CoordinatesT,
    CoordinatesTT,
    CoordinatesTotal,
    Force,
    ForceLocal,
    Distance,
}

impl OutputVariable {
    pub const ALL: [OutputVariable; 19] = [
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
    ];

    /// Exudyn's member name.
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
    fn from_str(s: &str) -> Result<Self, String> {
        let s = s.strip_prefix("OutputVariableType.").unwrap_or(s);
        OutputVariable::ALL
            .iter()
            .copied()
            .find(|o| o.exudyn_name() == s)
            .ok_or_else(|| format!("unknown or unsupported OutputVariableType `{s}`"))
    }
}
