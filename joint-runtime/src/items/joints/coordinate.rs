//! Exudyn's ObjectConnectorCoordinate.

use super::joint_type::{Axes, Drawing, ExtraKey, ExtraKeyKind, JointType, ParameterKey};
use super::object::JointObject;
use super::outputs::JointOutputs;
use crate::items::{MarkerIndex, OutputVariable};
use crate::kernels::{coordinate_constraint, coordinate_velocity_constraint};
use crate::markers::MarkerState;

/// Exudyn's ObjectConnectorCoordinate: `factor1·q_m1 − q_m0 − offset = 0` on two coordinate
/// markers (MarkerNodeCoordinate, MarkerNodeRotationCoordinate: then through the marker-level
/// kernel, with Exudyn's rotation-Jacobian row); with `velocityLevel` true it is [`CONNECTOR_COORDINATE_VELOCITY`].
pub static CONNECTOR_COORDINATE: JointType = JointType {
    type_name: "ConnectorCoordinate",
    spellings: &["ObjectConnectorCoordinate", "CoordinateConstraint"],
    definition: &coordinate_constraint::DEFINITION,
    ..CONNECTOR_COORDINATE_VELOCITY
};

/// Exudyn's ObjectConnectorCoordinate with `velocityLevel = True`:
/// `factor1·q̇_m1 − q̇_m0 − offset = 0`, a constraint written at velocity level.
pub static CONNECTOR_COORDINATE_VELOCITY: JointType = JointType {
    type_name: "ConnectorCoordinate",
    // found through ConnectorCoordinate's `velocityLevel`, not by name
    spellings: &[],
    definition: &coordinate_velocity_constraint::DEFINITION,
    parameter_keys: &[
        ParameterKey {
            key: "offset",
            parameter: "offset",
            default: Some(&[0.0]),
        },
        ParameterKey {
            key: "factor1",
            parameter: "factor1",
            default: Some(&[1.0]),
        },
    ],
    axes: Axes::Fixed,
    generic_outputs: false,
    outputs: Some(outputs),
    check: None,
    frame_parameters: None,
    marker_level: false,
    // Exudyn draws a line between the coordinates' nodes; coordinate markers have no position
    drawing: Drawing::None,
    size_key: "VdrawSize",
    default_size: -1.0,
    extra_keys: &[
        ExtraKey {
            key: "offsetUserFunction",
            kind: ExtraKeyKind::UserFunction,
        },
        ExtraKey {
            key: "offsetUserFunction_t",
            kind: ExtraKeyKind::UserFunction,
        },
        ExtraKey {
            key: "velocityLevel",
            kind: ExtraKeyKind::Variant {
                when_false: &CONNECTOR_COORDINATE,
                when_true: &CONNECTOR_COORDINATE_VELOCITY,
            },
        },
    ],
};

/// A coordinate marker's value and velocity (a node coordinate's displacement, a rotation
/// coordinate's angle; 0 on a ground node).
fn coordinate(m: &MarkerState) -> (f64, f64) {
    let q = m.quantities();
    (q.position[0], q.velocity[0])
}

fn outputs(ctx: &JointOutputs, var: OutputVariable, out: &mut Vec<f64>) -> Option<()> {
    let (q0, v0) = coordinate(&ctx.m0);
    let (q1, v1) = coordinate(&ctx.m1);
    match var {
        // Exudyn: without factor1
        OutputVariable::Displacement => out.push(q1 - q0),
        OutputVariable::Velocity => out.push(v1 - v0),
        OutputVariable::Force => out.push(ctx.lambda[0]),
        // the residual as written: factor1·q_m1 − q_m0 − offset, or at velocity level
        // factor1·q̇_m1 − q̇_m0 − offset (offset, factor1 the item's parameters)
        OutputVariable::ConstraintEquation if ctx.topology.velocity_level() => {
            out.push(ctx.parameters[1] * v1 - v0 - ctx.parameters[0]);
        }
        OutputVariable::ConstraintEquation => {
            out.push(ctx.parameters[1] * q1 - q0 - ctx.parameters[0]);
        }
        _ => return None,
    }
    Some(())
}

impl JointObject {
    /// `ObjectConnectorCoordinate(markerNumbers=markers, offset=offset, factor1=factor1)`.
    pub fn coordinate_constraint(markers: [MarkerIndex; 2], offset: f64, factor1: f64) -> Self {
        JointObject::of_type(CONNECTOR_COORDINATE, markers, vec![offset, factor1])
    }

    /// `ObjectConnectorCoordinate(markerNumbers=markers, offset=offset, factor1=factor1,
    /// velocityLevel=True)`.
    pub fn coordinate_velocity_constraint(
        markers: [MarkerIndex; 2],
        offset: f64,
        factor1: f64,
    ) -> Self {
        JointObject::of_type(
            CONNECTOR_COORDINATE_VELOCITY,
            markers,
            vec![offset, factor1],
        )
    }
}
