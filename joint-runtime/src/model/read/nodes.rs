//! Nodes: Point, RigidBodyEP, RigidBodyRotXYZ (Tait–Bryan), RigidBodyRotVecLG, GenericODE2, Point2D, RigidBody2D, 1D,
//! PointGround, GenericData and GenericODE1.

use serde_json::Value;

use super::{List, open_item};
use crate::error::Result;
use crate::items::Node;

pub(crate) fn read_node(index: usize, value: &Value) -> Result<Node> {
    let (t, mut d) = open_item(List::Nodes, index, value)?;
    let name = d.name()?;
    let node = match t {
        "Point" => Node::Point {
            name,
            reference_coordinates: d.vec_or("referenceCoordinates", [0.0; 3])?,
            initial_coordinates: d.vec_or("initialCoordinates", [0.0; 3])?,
            initial_velocities: d.vec_or("initialVelocities", [0.0; 3])?,
        },
        "RigidBodyEP" => Node::RigidBodyEP {
            name,
            reference_coordinates: d.vec_or("referenceCoordinates", [0.0; 7])?,
            initial_coordinates: d.vec_or("initialCoordinates", [0.0; 7])?,
            initial_velocities: d.vec_or("initialVelocities", [0.0; 7])?,
            add_constraint_equation: d.bool_or("addConstraintEquation", true)?,
        },
        "RigidBodyRxyz" => Node::RigidBodyRxyz {
            name,
            reference_coordinates: d.vec_or("referenceCoordinates", [0.0; 6])?,
            initial_coordinates: d.vec_or("initialCoordinates", [0.0; 6])?,
            initial_velocities: d.vec_or("initialVelocities", [0.0; 6])?,
        },
        "RigidBodyRotVecLG" => Node::RigidBodyRotVecLG {
            name,
            reference_coordinates: d.vec_or("referenceCoordinates", [0.0; 6])?,
            initial_coordinates: d.vec_or("initialCoordinates", [0.0; 6])?,
            initial_velocities: d.vec_or("initialVelocities", [0.0; 6])?,
        },
        "GenericODE2" => {
            let reference_coordinates = d.opt_dvec("referenceCoordinates")?.unwrap_or_default();
            let n = reference_coordinates.len();
            if let Some(count) = d.opt_f64("numberOfODE2Coordinates")?
                && count != n as f64
            {
                return Err(d.err(
                    "numberOfODE2Coordinates",
                    format!("{count} does not match the {n} reference coordinates"),
                ));
            }
            let mut vector = |key: &'static str| -> Result<Vec<f64>> {
                match d.opt_dvec(key)? {
                    None => Ok(vec![0.0; n]),
                    Some(v) if v.is_empty() || v.len() == n => {
                        Ok(if v.is_empty() { vec![0.0; n] } else { v })
                    }
                    Some(v) => Err(d.err(
                        key,
                        format!(
                            "expected {n} entries (one per coordinate), found {}",
                            v.len()
                        ),
                    )),
                }
            };
            let initial_coordinates = vector("initialCoordinates")?;
            let initial_velocities = vector("initialCoordinates_t")?;
            Node::GenericODE2 {
                name,
                reference_coordinates,
                initial_coordinates,
                initial_velocities,
            }
        }
        "Point2D" => Node::Point2D {
            name,
            reference_coordinates: d.vec_or("referenceCoordinates", [0.0; 2])?,
            initial_coordinates: d.vec_or("initialCoordinates", [0.0; 2])?,
            initial_velocities: d.vec_or("initialVelocities", [0.0; 2])?,
        },
        "RigidBody2D" => Node::RigidBody2D {
            name,
            reference_coordinates: d.vec_or("referenceCoordinates", [0.0; 3])?,
            initial_coordinates: d.vec_or("initialCoordinates", [0.0; 3])?,
            initial_velocities: d.vec_or("initialVelocities", [0.0; 3])?,
        },
        "1D" => Node::Node1D {
            name,
            reference_coordinates: d.vec_or("referenceCoordinates", [0.0; 1])?,
            initial_coordinates: d.vec_or("initialCoordinates", [0.0; 1])?,
            initial_velocities: d.vec_or("initialVelocities", [0.0; 1])?,
        },
        "PointGround" => Node::PointGround {
            name,
            position: d.vec_or("referenceCoordinates", [0.0; 3])?,
        },
        "GenericData" => {
            let initial_coordinates = d.opt_dvec("initialCoordinates")?.unwrap_or_default();
            let count = d.opt_index("numberOfDataCoordinates")?.unwrap_or(0);
            // Exudyn's check: the count and the initial values agree
            if count != initial_coordinates.len() {
                return Err(d.err(
                    "numberOfDataCoordinates",
                    format!(
                        "{count} does not match the {} initialCoordinates (Exudyn requires the same size)",
                        initial_coordinates.len()
                    ),
                ));
            }
            Node::GenericData {
                name,
                initial_coordinates,
            }
        }
        "GenericODE1" => {
            // Exudyn has no defaults here: both vectors must hold numberOfODE1Coordinates entries
            let reference_coordinates = d.opt_dvec("referenceCoordinates")?.unwrap_or_default();
            let initial_coordinates = d.opt_dvec("initialCoordinates")?.unwrap_or_default();
            let count = d
                .opt_index("numberOfODE1Coordinates")?
                .unwrap_or(reference_coordinates.len());
            for (key, v) in [
                ("referenceCoordinates", &reference_coordinates),
                ("initialCoordinates", &initial_coordinates),
            ] {
                if v.len() != count {
                    return Err(d.err(
                        key,
                        format!(
                            "expected numberOfODE1Coordinates = {count} entries, found {}",
                            v.len()
                        ),
                    ));
                }
            }
            Node::GenericODE1 {
                name,
                reference_coordinates,
                initial_coordinates,
            }
        }
        _ => unreachable!("node type table"),
    };
    d.finish()?;
    Ok(node)
}
