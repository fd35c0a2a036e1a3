//! A user's force element (`Object::Force`): a force definition with its parameters checked
//! and laid out once, a [`ConnectorKind::Defined`] as Exudyn's connectors with a defined force
//! (`connector_families.rs`) become too.

use super::checks::finite;
use super::joints::{check_coordinate_markers, check_position_markers};
use super::{ConnectorKind, ConnectorTopology, ForceHook};
use crate::error::{Error, ItemRef, Result};
use crate::items::joints::ForceObject;
use crate::markers::{MarkerModel, ResolvedMarker};
use crate::system::MultibodySystem;
use joint_core::Capability;

/// A user's force element: its markers against its definition's capabilities, its
/// parameter values' count and finiteness.
pub(super) fn force_element(
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
pub(super) fn analytic_connector_jacobian(
    markers: [usize; 2],
    resolved: &[ResolvedMarker],
) -> bool {
    markers
        .iter()
        .all(|&m| matches!(resolved[m].model, MarkerModel::Kind { .. }))
}
