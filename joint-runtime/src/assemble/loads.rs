//! Loads on their markers: the marker kind each load type needs, body-fixed or global.

use super::checks::finite;
use super::{LoadKind, LoadTopology};
use crate::error::{Error, Result};
use crate::items::{Load, Marker};
use crate::system::MultibodySystem;

/// Every load, in load order.
pub(super) fn loads(mbs: &MultibodySystem) -> Result<Vec<LoadTopology>> {
    let mut loads = Vec::new();
    for (i, load) in mbs.loads.iter().enumerate() {
        let item = mbs.load_ref(i);
        let m = load.marker();
        let marker = mbs.marker_checked(&item, "markerNumber", m)?;
        finite(&item, load.value_key(), load.values())?;
        let (kind, body_fixed) = match load {
            Load::MassProportional { .. } => {
                if !matches!(marker, Marker::BodyMass { .. }) {
                    return Err(Error::item(
                        item,
                        "markerNumber",
                        format!(
                            "marker {} is a {}; LoadMassProportional needs a BodyMass marker",
                            m.0,
                            marker.type_name()
                        ),
                    ));
                }
                (LoadKind::MassProportional, false)
            }
            Load::ForceVector { body_fixed, .. } => {
                if !marker.provides_position() {
                    return Err(Error::item(
                        item,
                        "markerNumber",
                        format!(
                            "marker {} is a {}; LoadForceVector needs a marker that gives a position",
                            m.0,
                            marker.type_name()
                        ),
                    ));
                }
                if *body_fixed && !marker.provides_orientation() {
                    return Err(Error::item(
                        item,
                        "bodyFixed",
                        format!(
                            "bodyFixed needs a marker with orientation (BodyRigid or NodeRigid); marker {} is a {}",
                            m.0,
                            marker.type_name()
                        ),
                    ));
                }
                (LoadKind::Force, *body_fixed)
            }
            Load::TorqueVector { body_fixed, .. } => {
                if !marker.provides_orientation() {
                    return Err(Error::item(
                        item,
                        "markerNumber",
                        format!(
                            "marker {} is a {}; LoadTorqueVector needs a marker with orientation (BodyRigid or NodeRigid)",
                            m.0,
                            marker.type_name()
                        ),
                    ));
                }
                (LoadKind::Torque, *body_fixed)
            }
            Load::Coordinate { .. } => {
                if !matches!(
                    marker,
                    Marker::NodeCoordinate { .. } | Marker::NodeRotationCoordinate { .. }
                ) {
                    return Err(Error::item(
                        item,
                        "markerNumber",
                        format!(
                            "marker {} is a {}; LoadCoordinate needs a NodeCoordinate or NodeRotationCoordinate marker",
                            m.0,
                            marker.type_name()
                        ),
                    ));
                }
                (LoadKind::Coordinate, false)
            }
        };
        loads.push(LoadTopology {
            load: i,
            marker: m.0,
            kind,
            vector: load.load_vector(),
            body_fixed,
            // decided with the resolved markers (`Topology::sum_constant_loads`)
            constant: false,
            exact_force: Vec::new(),
        });
    }
    Ok(loads)
}
