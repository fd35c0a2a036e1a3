//! Exudyn's connectors of `items/connectors/`: their markers and data node checked as each
//! asks, then its own checks; one with a defined force laid out as a user's force element is.

use std::sync::Arc;

use super::force_connectors::analytic_connector_jacobian;
use super::joints::{check_coordinate_markers, check_orientation_markers, check_position_markers};
use super::{ConnectorKind, ConnectorTopology};
use crate::error::{Error, ItemRef, Result};
use crate::items::Node;
use crate::items::connectors::{ConnectorObject, ExudynJacobian, MarkerNeed};
use crate::markers::ResolvedMarker;
use crate::system::MultibodySystem;

/// Object `i`, a connector of a family, as assembled.
pub(super) fn assemble_family(
    mbs: &MultibodySystem,
    item: &ItemRef,
    i: usize,
    c: &ConnectorObject,
    markers: &[ResolvedMarker],
    node_data: &[usize],
) -> Result<ConnectorTopology> {
    let family = &c.family;
    let idx = match family.marker_need() {
        MarkerNeed::Coordinate => check_coordinate_markers(mbs, item, c.markers, markers)?,
        MarkerNeed::Orientation => check_orientation_markers(mbs, item, c.markers, markers)?,
        MarkerNeed::Position => check_position_markers(mbs, item, c.markers, markers)?,
    };
    let size = family.data_size();
    let data = match (size, c.data_node) {
        (0, _) => 0..0,
        (_, None) => {
            return Err(Error::item(
                item.clone(),
                "nodeNumber",
                format!(
                    "missing: because {}, the connector keeps {size} data coordinates in a data node (NodeGenericData)",
                    family.data_reason()
                ),
            ));
        }
        (_, Some(n)) => {
            let node = mbs.node_checked(item, "nodeNumber", n)?;
            let Node::GenericData {
                initial_coordinates,
                ..
            } = node
            else {
                return Err(Error::item(
                    item.clone(),
                    "nodeNumber",
                    format!(
                        "node {} is a {} node; the connector keeps its {size} data coordinates in a NodeGenericData",
                        n.0,
                        node.type_name()
                    ),
                ));
            };
            if initial_coordinates.len() < size {
                return Err(Error::item(
                    item.clone(),
                    "nodeNumber",
                    format!(
                        "node {} has {} data coordinates; the connector keeps {size}",
                        n.0,
                        initial_coordinates.len()
                    ),
                ));
            }
            node_data[n.0]..node_data[n.0] + size
        }
    };
    family
        .check()
        .map_err(|(key, message)| Error::item(item.clone(), key, message))?;
    if let Some(defined) = family.defined_force() {
        let markers_allow = analytic_connector_jacobian(idx, markers);
        let (analytic, derived) = match defined.jacobian {
            ExudynJacobian::Analytic => (markers_allow, false),
            ExudynJacobian::Numerical { fast_derived } => (false, fast_derived && markers_allow),
        };
        return Ok(ConnectorTopology {
            object: i,
            markers: idx,
            kind: ConnectorKind::Defined {
                definition: defined.definition,
                parameters: defined.parameters.into_boxed_slice(),
                hook: defined.hook,
            },
            active: c.active,
            analytic_jacobian: analytic,
            derived_jacobian: derived,
        });
    }
    let analytic = family.takes_analytic_jacobian([&markers[idx[0]], &markers[idx[1]]]);
    Ok(ConnectorTopology {
        object: i,
        markers: idx,
        kind: ConnectorKind::Family {
            family: Arc::clone(family),
            data,
        },
        active: c.active,
        analytic_jacobian: analytic,
        derived_jacobian: false,
    })
}
