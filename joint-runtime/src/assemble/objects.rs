//! The constraint and connector objects, in object order: joints get their AE coordinates,
//! connectors their markers and parameters checked.

use super::ConnectorTopology;
use super::checks::finite;
use super::force_connectors::force_element;
use super::joints::assemble_joint;
use crate::error::{Error, ItemRef, Result};
use crate::items::Object;
use crate::items::joints::{
    CoordinateVectorObject, CoordinateVectorTopology, JointTopology, with_views,
};
use crate::markers::ResolvedMarker;
use crate::system::MultibodySystem;

/// The joints and coordinate-vector joints (with their AE coordinates appended to `ae_owner`,
/// in object order) and the connectors.
pub(super) fn joints_and_connectors(
    mbs: &MultibodySystem,
    markers: &[ResolvedMarker],
    node_data: &[usize],
    ae_owner: &mut Vec<ItemRef>,
) -> Result<(
    Vec<JointTopology>,
    Vec<ConnectorTopology>,
    Vec<CoordinateVectorTopology>,
)> {
    let mut joints = Vec::new();
    let mut coordinate_vectors = Vec::new();
    let mut connectors = Vec::new();
    for (i, object) in mbs.objects.iter().enumerate() {
        let item = mbs.object_ref(i);
        match object {
            Object::Joint(joint) => {
                let mut topology = assemble_joint(mbs, &item, i, joint, markers)?;
                topology.ae = ae_owner.len();
                for _ in 0..topology.rows() {
                    ae_owner.push(item.clone());
                }
                joints.push(topology);
            }
            Object::CoordinateVector(c) => {
                let mut topology = assemble_coordinate_vector(mbs, &item, i, c, markers)?;
                topology.ae = ae_owner.len();
                for _ in 0..topology.rows {
                    ae_owner.push(item.clone());
                }
                coordinate_vectors.push(topology);
            }
            Object::Connector(c) => {
                connectors.push(super::connector_families::assemble_family(
                    mbs, &item, i, c, markers, node_data,
                )?);
            }
            Object::Force(force) => {
                connectors.push(force_element(mbs, &item, i, force, markers)?);
            }
            _ => {}
        }
    }
    Ok((joints, connectors, coordinate_vectors))
}

/// A coordinate-vector joint: two coordinate-vector markers, its parameters' count, values and
/// shapes against the markers' coordinates, and its row count.
fn assemble_coordinate_vector(
    mbs: &MultibodySystem,
    item: &ItemRef,
    object: usize,
    c: &CoordinateVectorObject,
    markers: &[ResolvedMarker],
) -> Result<CoordinateVectorTopology> {
    for (k, mk) in c.markers.iter().enumerate() {
        let marker = mbs.marker_checked(item, "markerNumbers", *mk)?;
        if !markers[mk.0].is_coordinate_vector() {
            return Err(Error::item(
                item.clone(),
                "markerNumbers",
                format!(
                    "marker {} (markerNumbers[{k}]) is a {}; expected a coordinate-vector marker (NodeCoordinates or ObjectODE2Coordinates)",
                    mk.0,
                    marker.type_name()
                ),
            ));
        }
    }
    let definition = c.definition;
    if c.parameters.len() != definition.parameters.len()
        || c.parameters.len() > crate::items::joints::MAX_DYN_PARAMETERS
    {
        return Err(Error::item(
            item.clone(),
            "parameters",
            format!(
                "{} takes {} parameters, found {}",
                definition.name,
                definition.parameters.len(),
                c.parameters.len()
            ),
        ));
    }
    for (i, p) in c.parameters.iter().enumerate() {
        if p.rows.checked_mul(p.columns) != Some(p.values.len()) {
            return Err(Error::item(
                item.clone(),
                c.key_of(i),
                format!(
                    "{} × {} needs {} values, found {}",
                    p.rows,
                    p.columns,
                    p.rows.saturating_mul(p.columns),
                    p.values.len()
                ),
            ));
        }
        finite(item, c.key_of(i), &p.values)?;
    }
    let idx = [c.markers[0].0, c.markers[1].0];
    let (n0, n1) = (markers[idx[0]].columns.len(), markers[idx[1]].columns.len());
    let rows = with_views(&c.parameters, |p| (definition.rows)(p, n0, n1)).map_err(|e| {
        let markers = format!("the markers have {n0} and {n1} coordinates");
        match e {
            joint_core::DynSizeError::Shape {
                parameter,
                expected,
                found,
            } => {
                let key = definition
                    .parameter(parameter)
                    .map_or("parameters", |(i, _)| c.key_of(i));
                Error::item(
                    item.clone(),
                    key,
                    format!("{} × {}, expected {expected} ({markers})", found.0, found.1),
                )
            }
            other => Error::item(item.clone(), "parameters", format!("{other} ({markers})")),
        }
    })?;
    if n0 == 0 && n1 == 0 {
        return Err(Error::item(
            item.clone(),
            "markerNumbers",
            "both markers have no coordinates (ground): there is nothing to constrain",
        ));
    }
    Ok(CoordinateVectorTopology {
        object,
        markers: idx,
        definition,
        parameters: c.parameters.clone(),
        ae: 0,
        rows,
        active: c.active,
    })
}
