//! The force connectors: a user's force element (`Object::Force`) and Exudyn's built-in ones
//! (SpringDamper, CartesianSpringDamper, LinearSpringDamper, Gravity, RigidBodySpringDamper)
//! all become one [`ConnectorKind::Defined`] — a force definition (the built-ins' from
//! `kernels`) with its parameters flattened here, once, and the [`ForceHook`] of what the
//! built-in adds.

use super::checks::finite;
use super::joints::{check_coordinate_markers, check_orientation_markers, check_position_markers};
use super::{ConnectorKind, ConnectorTopology, ForceHook};
use crate::error::{Error, ItemRef, Result};
use crate::items::Object;
use crate::items::joints::ForceObject;
use crate::kernels::{
    cartesian_spring_damper, gravity, linear_spring_damper, rigid_body_spring_damper, spring_damper,
};
use crate::markers::{MarkerModel, ResolvedMarker};
use crate::system::MultibodySystem;
use joint_core::{Capability, ForceDefinition, JointParameters};

/// Object `i`'s connector if it is a force connector (`None`: another object).
pub(super) fn force_connector(
    mbs: &MultibodySystem,
    item: &ItemRef,
    i: usize,
    object: &Object,
    markers: &[ResolvedMarker],
) -> Result<Option<ConnectorTopology>> {
    let defined =
        |definition: &'static ForceDefinition, values: Vec<f64>, hook| ConnectorKind::Defined {
            definition,
            parameters: values.into_boxed_slice(),
            hook,
        };
    Ok(Some(match object {
        Object::ConnectorSpringDamper {
            markers: m,
            reference_length,
            stiffness,
            damping,
            force,
            velocity_offset,
            active,
            ..
        } => {
            let idx = check_position_markers(mbs, item, *m, markers)?;
            for (key, v) in [
                ("referenceLength", reference_length),
                ("stiffness", stiffness),
                ("damping", damping),
                ("force", force),
                ("velocityOffset", velocity_offset),
            ] {
                finite(item, key, &[*v])?;
            }
            let p = spring_damper::Parameters {
                reference_length: *reference_length,
                stiffness: *stiffness,
                damping: *damping,
                force_offset: *force,
                velocity_offset: *velocity_offset,
            };
            ConnectorTopology {
                object: i,
                markers: idx,
                kind: defined(
                    &spring_damper::DEFINITION,
                    p.to_values(),
                    ForceHook::ZeroLength,
                ),
                active: *active,
                analytic_jacobian: analytic_connector_jacobian(idx, markers),
                derived_jacobian: false,
            }
        }
        Object::ConnectorCartesianSpringDamper {
            markers: m,
            stiffness,
            damping,
            offset,
            active,
            ..
        } => {
            let idx = check_position_markers(mbs, item, *m, markers)?;
            finite(item, "stiffness", stiffness)?;
            finite(item, "damping", damping)?;
            finite(item, "offset", offset)?;
            let p = cartesian_spring_damper::Parameters {
                stiffness: *stiffness,
                damping: *damping,
                offset: *offset,
            };
            ConnectorTopology {
                object: i,
                markers: idx,
                kind: defined(
                    &cartesian_spring_damper::DEFINITION,
                    p.to_values(),
                    ForceHook::DisplacementOffset(*offset),
                ),
                active: *active,
                analytic_jacobian: analytic_connector_jacobian(idx, markers),
                derived_jacobian: false,
            }
        }
        Object::ConnectorLinearSpringDamper {
            markers: m,
            stiffness,
            damping,
            axis_marker0,
            offset,
            velocity_offset,
            force,
            active,
            ..
        } => {
            let idx = check_orientation_markers(mbs, item, *m, markers)?;
            for (key, v) in [
                ("stiffness", stiffness),
                ("damping", damping),
                ("offset", offset),
                ("velocityOffset", velocity_offset),
                ("force", force),
            ] {
                finite(item, key, &[*v])?;
            }
            finite(item, "axisMarker0", axis_marker0)?;
            let p = linear_spring_damper::Parameters {
                stiffness: *stiffness,
                damping: *damping,
                axis: *axis_marker0,
                offset: *offset,
                velocity_offset: *velocity_offset,
                force_offset: *force,
            };
            ConnectorTopology {
                object: i,
                markers: idx,
                kind: defined(
                    &linear_spring_damper::DEFINITION,
                    p.to_values(),
                    ForceHook::None,
                ),
                active: *active,
                // Exudyn has no analytic Jacobian for it: object-wise forward differences
                analytic_jacobian: false,
                // its force definition's derivatives, which the fast path takes instead
                derived_jacobian: analytic_connector_jacobian(idx, markers),
            }
        }
        Object::ConnectorGravity { .. } => gravity_connector(mbs, item, i, object, markers)?,
        Object::ConnectorRigidBodySpringDamper { .. } => {
            rigid_body_spring_damper(mbs, item, i, object, markers)?
        }
        Object::Force(force) => force_element(mbs, item, i, force, markers)?,
        _ => return Ok(None),
    }))
}

/// ObjectConnectorGravity: `kernels::gravity` with `factor` = G·m₀·m₁.
fn gravity_connector(
    mbs: &MultibodySystem,
    item: &ItemRef,
    i: usize,
    object: &Object,
    markers: &[ResolvedMarker],
) -> Result<ConnectorTopology> {
    let Object::ConnectorGravity {
        markers: m,
        gravitational_constant,
        mass0,
        mass1,
        min_distance_regularization,
        active,
        ..
    } = object
    else {
        unreachable!("called for gravity connectors")
    };
    let idx = check_position_markers(mbs, item, *m, markers)?;
    for (key, v) in [
        ("gravitationalConstant", gravitational_constant),
        ("mass0", mass0),
        ("mass1", mass1),
        ("minDistanceRegularization", min_distance_regularization),
    ] {
        finite(item, key, &[*v])?;
    }
    for (key, v) in [
        ("mass0", mass0),
        ("mass1", mass1),
        ("minDistanceRegularization", min_distance_regularization),
    ] {
        if *v < 0.0 {
            return Err(Error::item(
                item.clone(),
                key,
                format!("must not be negative, found {v}"),
            ));
        }
    }
    let p = gravity::Parameters {
        factor: gravitational_constant * (mass0 * mass1),
        min_distance: *min_distance_regularization,
    };
    Ok(ConnectorTopology {
        object: i,
        markers: idx,
        kind: ConnectorKind::Defined {
            definition: &gravity::DEFINITION,
            parameters: p.to_values().into_boxed_slice(),
            hook: ForceHook::None,
        },
        active: *active,
        // Exudyn has no analytic Jacobian for it: object-wise forward differences; the fast
        // path takes its definition's derivatives
        analytic_jacobian: false,
        derived_jacobian: analytic_connector_jacobian(idx, markers),
    })
}

/// ObjectConnectorRigidBodySpringDamper, in either formulation.
fn rigid_body_spring_damper(
    mbs: &MultibodySystem,
    item: &ItemRef,
    i: usize,
    object: &Object,
    markers: &[ResolvedMarker],
) -> Result<ConnectorTopology> {
    let Object::ConnectorRigidBodySpringDamper {
        markers: m,
        stiffness,
        damping,
        rotation_marker0,
        rotation_marker1,
        offset,
        intrinsic,
        active,
        ..
    } = object
    else {
        unreachable!("called for rigid-body spring-dampers")
    };
    let idx = check_orientation_markers(mbs, item, *m, markers)?;
    finite(item, "stiffness", stiffness.as_flattened())?;
    finite(item, "damping", damping.as_flattened())?;
    finite(item, "offset", offset)?;
    finite(item, "rotationMarker0", rotation_marker0.as_flattened())?;
    finite(item, "rotationMarker1", rotation_marker1.as_flattened())?;
    // K and D by 3 × 3 blocks, as the definition takes them
    let block = |m: &[[f64; 6]; 6], r: usize, c: usize| -> [[f64; 3]; 3] {
        std::array::from_fn(|i| std::array::from_fn(|j| m[r + i][c + j]))
    };
    let p = rigid_body_spring_damper::Parameters {
        stiffness_pp: block(stiffness, 0, 0),
        stiffness_pr: block(stiffness, 0, 3),
        stiffness_rp: block(stiffness, 3, 0),
        stiffness_rr: block(stiffness, 3, 3),
        damping_pp: block(damping, 0, 0),
        damping_pr: block(damping, 0, 3),
        damping_rp: block(damping, 3, 0),
        damping_rr: block(damping, 3, 3),
        offset_p: [offset[0], offset[1], offset[2]],
        offset_r: [offset[3], offset[4], offset[5]],
        rotation_marker0: *rotation_marker0,
        rotation_marker1: *rotation_marker1,
    };
    Ok(ConnectorTopology {
        object: i,
        markers: idx,
        kind: ConnectorKind::Defined {
            definition: &rigid_body_spring_damper::DEFINITION,
            parameters: p.to_values().into_boxed_slice(),
            hook: ForceHook::RigidBodySpring {
                intrinsic: *intrinsic,
            },
        },
        active: *active,
        // Exudyn differentiates the default formulation analytically (here: its force
        // definition's derivatives) where every marker provides the Jacobian's derivative,
        // the intrinsic one by object-wise forward differences
        analytic_jacobian: !*intrinsic && analytic_connector_jacobian(idx, markers),
        derived_jacobian: false,
    })
}

/// A user's force element: its markers against its definition's capabilities, its
/// parameter values' count and finiteness.
fn force_element(
    mbs: &MultibodySystem,
    item: &ItemRef,
    i: usize,
    force: &ForceObject,
    markers: &[ResolvedMarker],
) -> Result<ConnectorTopology> {
    let definition = force.definition;
    let between_coordinates = definition
        .markers
        .iter()
        .all(|m| m.capability == Capability::Coordinate);
    let idx = if between_coordinates {
        check_coordinate_markers(mbs, item, force.markers, markers)?
    } else {
        check_position_markers(mbs, item, force.markers, markers)?
    };
    for (k, (&mi, decl)) in idx.iter().zip(&definition.markers).enumerate() {
        if decl.capability == Capability::Rigid && !markers[mi].provides_orientation {
            return Err(Error::item(
                item.clone(),
                "markerNumbers",
                format!(
                    "marker {mi} (markerNumbers[{k}]) is a {}, which gives no orientation; {}'s marker {} is Rigid: expected BodyRigid or NodeRigid",
                    mbs.markers[mi].type_name(),
                    definition.name,
                    decl.name
                ),
            ));
        }
    }
    if force.parameters.len() != definition.parameter_len() {
        return Err(Error::item(
            item.clone(),
            "parameters",
            format!(
                "{} takes {} parameter values, found {}",
                definition.name,
                definition.parameter_len(),
                force.parameters.len()
            ),
        ));
    }
    let mut offset = 0;
    for p in definition.parameters {
        let n = p.shape.value_count();
        finite(item, p.name, &force.parameters[offset..offset + n])?;
        offset += n;
    }
    for s in definition.states {
        finite(item, s.name, &force.parameters[offset..=offset])?;
        offset += 1;
    }
    Ok(ConnectorTopology {
        object: i,
        markers: idx,
        kind: ConnectorKind::Defined {
            definition,
            parameters: force.parameters.clone().into_boxed_slice(),
            hook: ForceHook::None,
        },
        active: force.active,
        // as Exudyn's connectors: a marker without the Jacobian's derivative (superelement,
        // kinematic tree, rotation coordinate) takes differences
        analytic_jacobian: analytic_connector_jacobian(idx, markers)
            && !idx.iter().any(|&m| markers[m].is_rotation_coordinate()),
        derived_jacobian: false,
    })
}

/// Exudyn's rule for a connector's ODE2 Jacobian: analytic if every marker provides the
/// Jacobian derivative (the built-in body and node markers), numerical otherwise.
fn analytic_connector_jacobian(markers: [usize; 2], resolved: &[ResolvedMarker]) -> bool {
    markers
        .iter()
        .all(|&m| matches!(resolved[m].model, MarkerModel::Kind { .. }))
}
