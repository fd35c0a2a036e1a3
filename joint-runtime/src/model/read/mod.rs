//! Items from their Exudyn dictionaries (spec/items.md §1, spec/model-format.md).
//!
//! One file per item list (`nodes`, `objects`, `joints`, `markers`, `loads`, `sensors`), the
//! superelement and kinematic-tree data, and the shared frame keys and lists; here the
//! opening of an item: its dictionary, its type string and its strict accessor.

mod connectors;
mod coordinate_vector;
mod forces;
mod frames;
mod joints;
mod kinematic_tree;
mod lists;
mod loads;
mod markers;
mod nodes;
mod objects;
mod sensors;
mod super_element;

pub(crate) use loads::read_load;
pub(crate) use markers::read_marker;
pub(crate) use nodes::read_node;
pub(crate) use objects::read_object;
pub(crate) use sensors::read_sensor;

use serde_json::{Map, Value};

use super::fields::{Dict, Owner, describe};
use crate::error::{Error, ItemRef, Result};
use crate::items::joints::JointRegistry;

/// The kinds of item lists, with their type key and the accepted type strings.
#[derive(Clone, Copy)]
pub(crate) enum List {
    Nodes,
    Objects,
    Markers,
    Loads,
    Sensors,
}

/// An item list's types: (canonical name, every spelling model files use).
type TypeTable = &'static [(&'static str, &'static [&'static str])];

/// Node types: the canonical name and every spelling model files use.
const NODE_TYPES: TypeTable = &[
    ("Point", &["Point", "NodePoint"]),
    (
        "RigidBodyEP",
        &["RigidBodyEP", "NodeRigidBodyEP", "RigidEP"],
    ),
    (
        "RigidBodyRxyz",
        &["RigidBodyRxyz", "NodeRigidBodyRxyz", "RigidRxyz"],
    ),
    (
        "RigidBodyRotVecLG",
        &[
            "RigidBodyRotVecLG",
            "NodeRigidBodyRotVecLG",
            "RigidRotVecLG",
        ],
    ),
    ("GenericODE2", &["GenericODE2", "NodeGenericODE2"]),
    ("Point2D", &["Point2D", "NodePoint2D"]),
    (
        "RigidBody2D",
        &["RigidBody2D", "NodeRigidBody2D", "Rigid2D"],
    ),
    ("1D", &["1D", "Node1D"]),
    ("PointGround", &["PointGround", "NodePointGround"]),
    ("GenericData", &["GenericData", "NodeGenericData"]),
    ("GenericODE1", &["GenericODE1", "NodeGenericODE1"]),
];

/// Object types: the canonical name and every spelling model files use.
const OBJECT_TYPES: TypeTable = &[
    ("Ground", &["Ground", "ObjectGround"]),
    ("MassPoint", &["MassPoint", "ObjectMassPoint"]),
    ("RigidBody", &["RigidBody", "ObjectRigidBody"]),
    ("GenericODE2", &["GenericODE2", "ObjectGenericODE2"]),
    ("GenericODE1", &["GenericODE1", "ObjectGenericODE1"]),
    ("KinematicTree", &["KinematicTree", "ObjectKinematicTree"]),
    (
        "FFRFreducedOrder",
        &["FFRFreducedOrder", "ObjectFFRFreducedOrder"],
    ),
    ("MassPoint2D", &["MassPoint2D", "ObjectMassPoint2D"]),
    ("RigidBody2D", &["RigidBody2D", "ObjectRigidBody2D"]),
    (
        "BeamGeometricallyExact2D",
        &[
            "BeamGeometricallyExact2D",
            "ObjectBeamGeometricallyExact2D",
            "Beam2D",
        ],
    ),
    ("Mass1D", &["Mass1D", "ObjectMass1D"]),
    (
        "RotationalMass1D",
        &["RotationalMass1D", "ObjectRotationalMass1D", "Rotor1D"],
    ),
    (
        "ConnectorCoordinateVector",
        &[
            "ConnectorCoordinateVector",
            "ObjectConnectorCoordinateVector",
            "CoordinateVectorConstraint",
        ],
    ),
];

/// Marker types: the canonical name and every spelling model files use.
const MARKER_TYPES: TypeTable = &[
    ("BodyMass", &["BodyMass", "MarkerBodyMass"]),
    ("BodyPosition", &["BodyPosition", "MarkerBodyPosition"]),
    ("BodyRigid", &["BodyRigid", "MarkerBodyRigid"]),
    ("NodePosition", &["NodePosition", "MarkerNodePosition"]),
    ("NodeRigid", &["NodeRigid", "MarkerNodeRigid"]),
    (
        "NodeCoordinate",
        &["NodeCoordinate", "MarkerNodeCoordinate"],
    ),
    (
        "NodeRotationCoordinate",
        &["NodeRotationCoordinate", "MarkerNodeRotationCoordinate"],
    ),
    (
        "NodeCoordinates",
        &["NodeCoordinates", "MarkerNodeCoordinates"],
    ),
    (
        "ObjectODE2Coordinates",
        &["ObjectODE2Coordinates", "MarkerObjectODE2Coordinates"],
    ),
    (
        "KinematicTreeRigid",
        &["KinematicTreeRigid", "MarkerKinematicTreeRigid"],
    ),
    (
        "SuperElementPosition",
        &["SuperElementPosition", "MarkerSuperElementPosition"],
    ),
    (
        "SuperElementRigid",
        &["SuperElementRigid", "MarkerSuperElementRigid"],
    ),
];

/// Load types: the canonical name and every spelling model files use.
const LOAD_TYPES: TypeTable = &[
    (
        "MassProportional",
        &["MassProportional", "LoadMassProportional", "Gravity"],
    ),
    ("ForceVector", &["ForceVector", "LoadForceVector", "Force"]),
    (
        "TorqueVector",
        &["TorqueVector", "LoadTorqueVector", "Torque"],
    ),
    ("Coordinate", &["Coordinate", "LoadCoordinate"]),
];

/// Sensor types: the canonical name and every spelling model files use.
const SENSOR_TYPES: TypeTable = &[
    ("Node", &["Node", "SensorNode"]),
    ("Object", &["Object", "SensorObject"]),
    ("Body", &["Body", "SensorBody"]),
    ("Marker", &["Marker", "SensorMarker"]),
    ("Load", &["Load", "SensorLoad"]),
    ("KinematicTree", &["KinematicTree", "SensorKinematicTree"]),
    ("SuperElement", &["SuperElement", "SensorSuperElement"]),
];

impl List {
    pub(crate) fn name(self) -> &'static str {
        match self {
            List::Nodes => "nodes",
            List::Objects => "objects",
            List::Markers => "markers",
            List::Loads => "loads",
            List::Sensors => "sensors",
        }
    }

    fn type_key(self) -> &'static str {
        match self {
            List::Nodes => "nodeType",
            List::Objects => "objectType",
            List::Markers => "markerType",
            List::Loads => "loadType",
            List::Sensors => "sensorType",
        }
    }

    /// (canonical short type name, accepted spellings).
    fn types(self) -> TypeTable {
        match self {
            List::Nodes => NODE_TYPES,
            List::Objects => OBJECT_TYPES,
            List::Markers => MARKER_TYPES,
            List::Loads => LOAD_TYPES,
            List::Sensors => SENSOR_TYPES,
        }
    }

    fn singular(self) -> &'static str {
        match self {
            List::Nodes => "node",
            List::Objects => "object",
            List::Markers => "marker",
            List::Loads => "load",
            List::Sensors => "sensor",
        }
    }
}

/// Open item `index` of `list`: check it is a dictionary, resolve its type string, and return
/// the canonical type name with a strict accessor.
pub(crate) fn open_item<'a>(
    list: List,
    index: usize,
    value: &'a Value,
) -> Result<(&'static str, Dict<'a>)> {
    open_item_with(list, index, value, None)
}

/// The `objectType` string of an object dictionary, if it has one.
/// The canonical name of the runtime's own object type spelled `name` (`ObjectConnectorSpringDamper`
/// and `SpringDamper` are `ConnectorSpringDamper`), if it is one.
pub(super) fn builtin_object_type(name: &str) -> Option<&'static str> {
    List::Objects
        .types()
        .iter()
        .find(|(_, spellings)| spellings.contains(&name))
        .map(|(c, _)| *c)
        .or_else(|| crate::items::connectors::connector_type(name).map(|t| t.name))
}

pub(super) fn object_type(value: &Value) -> Option<&str> {
    value.as_object()?.get("objectType")?.as_str()
}

/// [`open_item`]; `registry`: the joint types it knows too (named in the error for an unknown
/// type).
pub(super) fn open_item_with<'a>(
    list: List,
    index: usize,
    value: &'a Value,
    registry: Option<&JointRegistry>,
) -> Result<(&'static str, Dict<'a>)> {
    let map: &Map<String, Value> = value.as_object().ok_or_else(|| Error::Model {
        message: format!(
            "{}[{index}]: expected a dictionary, found {}",
            list.name(),
            describe(value)
        ),
    })?;
    let key = list.type_key();
    let item = |type_name: &str| ItemRef {
        list: list.name(),
        index,
        type_name: type_name.to_owned(),
    };
    let type_name = match map.get(key) {
        None => {
            return Err(Error::item(
                item("?"),
                key,
                format!("missing (every {} needs its type)", list.singular()),
            ));
        }
        Some(Value::String(s)) => s.as_str(),
        Some(other) => {
            return Err(Error::item(
                item("?"),
                key,
                format!("expected a type string, found {}", describe(other)),
            ));
        }
    };
    let canonical = list
        .types()
        .iter()
        .find(|(_, spellings)| spellings.contains(&type_name))
        .map(|(c, _)| *c)
        .ok_or_else(|| {
            let mut supported: Vec<&str> = list.types().iter().map(|(c, _)| *c).collect();
            if matches!(list, List::Objects) {
                supported.extend(
                    crate::items::connectors::CONNECTOR_TYPES
                        .iter()
                        .map(|t| t.name),
                );
            }
            if let Some(r) = registry {
                supported.extend(r.types().iter().map(|t| t.type_name));
                supported.extend(r.forces().iter().map(|f| f.name));
                supported.extend(r.coordinate_vectors().iter().map(|c| c.name));
            }
            Error::item(
                item(type_name),
                key,
                format!(
                    "unknown or unsupported {} type `{type_name}` (supported: {})",
                    list.singular(),
                    supported.join(", ")
                ),
            )
        })?;
    let mut d = Dict::new(Owner::Item(item(canonical)), map);
    d.get(key);
    d.accept_visualization();
    // Visualization keys are accepted with any value, except a graphics user function.
    if map.contains_key("VgraphicsDataUserFunction") {
        d.no_user_function("VgraphicsDataUserFunction")?;
    }
    Ok((canonical, d))
}
