//! Markers: node and body markers (with `localHT`), BodyMass, superelement and
//! kinematic-tree markers.

use serde_json::Value;

use super::frames::{local_ht, local_ht_frame};
use super::{List, open_item};
use crate::error::Result;
use crate::items::{Marker, NodeIndex, ObjectIndex};

pub(crate) fn read_marker(index: usize, value: &Value) -> Result<Marker> {
    let (t, mut d) = open_item(List::Markers, index, value)?;
    let name = d.name()?;
    let marker = match t {
        "BodyMass" => Marker::BodyMass {
            name,
            body: ObjectIndex(d.index("bodyNumber")?),
        },
        "BodyPosition" => Marker::BodyPosition {
            name,
            body: ObjectIndex(d.index("bodyNumber")?),
            local_position: d.vec_or("localPosition", [0.0; 3])?,
        },
        "BodyRigid" => {
            let body = ObjectIndex(d.index("bodyNumber")?);
            let given = d.opt_vec::<3>("localPosition")?;
            let (local_position, local_rotation) = local_ht_frame(&mut d, given, "localPosition")?;
            Marker::BodyRigid {
                name,
                body,
                local_position,
                local_rotation,
            }
        }
        "NodePosition" => Marker::NodePosition {
            name,
            node: NodeIndex(d.index("nodeNumber")?),
        },
        "NodeCoordinate" => Marker::NodeCoordinate {
            name,
            node: NodeIndex(d.index("nodeNumber")?),
            coordinate: d.index("coordinate")?,
        },
        "NodeCoordinates" => Marker::NodeCoordinates {
            name,
            node: NodeIndex(d.index("nodeNumber")?),
        },
        "ObjectODE2Coordinates" => Marker::ObjectODE2Coordinates {
            name,
            object: ObjectIndex(d.index("objectNumber")?),
        },
        "NodeRotationCoordinate" => {
            let node = NodeIndex(d.index("nodeNumber")?);
            let rotation_coordinate = d.index("rotationCoordinate")?;
            if rotation_coordinate > 2 {
                return Err(d.err(
                    "rotationCoordinate",
                    format!(
                        "{rotation_coordinate}: expected 0, 1 or 2 (the angle about x, y or z)"
                    ),
                ));
            }
            Marker::NodeRotationCoordinate {
                name,
                node,
                rotation_coordinate,
            }
        }
        "NodeRigid" => {
            let node = NodeIndex(d.index("nodeNumber")?);
            // A node marker sits at the node: the translation of localHT must be zero.
            let (_, local_rotation) =
                local_ht_frame(&mut d, Some([0.0; 3]), "the node position (zero offset)")?;
            Marker::NodeRigid {
                name,
                node,
                local_rotation,
            }
        }
        "KinematicTreeRigid" => {
            let object = ObjectIndex(d.index("objectNumber")?);
            let link = d.index("linkNumber")?;
            let given = d.opt_vec::<3>("localPosition")?;
            let local_position = local_ht(&mut d, given, "localPosition")?;
            Marker::KinematicTreeRigid {
                name,
                object,
                link,
                local_position,
            }
        }
        "SuperElementPosition" => {
            let body = ObjectIndex(d.index("bodyNumber")?);
            let mesh_nodes = d.opt_index_list("meshNodeNumbers")?.unwrap_or_default();
            let weights = d.opt_dvec("weightingFactors")?.unwrap_or_default();
            Marker::SuperElementPosition {
                name,
                body,
                mesh_nodes,
                weights,
            }
        }
        "SuperElementRigid" => {
            let body = ObjectIndex(d.index("bodyNumber")?);
            let given = d.opt_vec::<3>("offset")?;
            let offset = local_ht(&mut d, given, "offset")?;
            let mesh_nodes = d.opt_index_list("meshNodeNumbers")?.unwrap_or_default();
            let weights = d.opt_dvec("weightingFactors")?.unwrap_or_default();
            let use_alternative_approach = d.bool_or("useAlternativeApproach", true)?;
            let rotations_exponential_map = match d.opt_f64("rotationsExponentialMap")? {
                None => 2,
                Some(x) if x.fract() == 0.0 && x.abs() < 1e9 => x as i64,
                Some(x) => {
                    return Err(d.err(
                        "rotationsExponentialMap",
                        format!("expected an integer, found {x}"),
                    ));
                }
            };
            Marker::SuperElementRigid {
                name,
                body,
                offset,
                mesh_nodes,
                weights,
                use_alternative_approach,
                rotations_exponential_map,
            }
        }
        _ => unreachable!("marker type table"),
    };
    d.finish()?;
    Ok(marker)
}
