//! Sensors: output variables recorded over time.

use crate::items::OutputVariable;
use crate::items::{LoadIndex, MarkerIndex, NodeIndex, ObjectIndex};

#[derive(Clone, Debug, PartialEq)]
/// What a sensor reads.
#[non_exhaustive]
pub enum SensorTarget {
    /// SensorNode: a node's output.
    Node(NodeIndex),
    /// SensorObject: an object's output (joints, connectors).
    Object(ObjectIndex),
    /// SensorBody: a point of a body.
    Body {
        /// `bodyNumber`: the body (or superelement object) it sits on.
        body: ObjectIndex,
        /// `localPosition`: the point in the body's (or link's) frame.
        local_position: [f64; 3],
    },
    /// SensorMarker: a marker's output.
    Marker(MarkerIndex),
    /// SensorLoad: the load's vector.
    Load(LoadIndex),
    /// SensorKinematicTree: a point `local_position` of link `link` of a tree.
    KinematicTree {
        /// `objectNumber`: the object.
        object: ObjectIndex,
        /// `linkNumber`: the kinematic tree's link.
        link: usize,
        /// `localPosition`: the point in the body's (or link's) frame.
        local_position: [f64; 3],
    },
    /// SensorSuperElement: mesh node `mesh_node` of a GenericODE2 or FFRFreducedOrder object.
    SuperElement {
        /// `bodyNumber`: the body (or superelement object) it sits on.
        body: ObjectIndex,
        /// `meshNodeNumber`: the superelement's mesh node.
        mesh_node: usize,
    },
}

#[derive(Clone, Debug, PartialEq)]
/// A sensor: one output variable of one item, recorded over time (Exudyn's Sensor… items).
pub struct Sensor {
    /// The item's `name`.
    pub name: String,
    /// What it reads.
    pub target: SensorTarget,
    /// Unused for SensorLoad.
    pub output: OutputVariable,
    /// `storeInternal`: keep the rows in memory ([`Simulation::sensor_rows`](crate::Simulation::sensor_rows)).
    pub store_internal: bool,
    /// `writeToFile`: write the rows to `file_name`.
    pub write_to_file: bool,
    /// `fileName`: the sensor's text file (Exudyn's layout).
    pub file_name: String,
}

impl Sensor {
    /// Exudyn's type name without the `Sensor` prefix (`Body`).
    pub fn type_name(&self) -> &'static str {
        match self.target {
            SensorTarget::Node(_) => "Node",
            SensorTarget::Object(_) => "Object",
            SensorTarget::Body { .. } => "Body",
            SensorTarget::Marker(_) => "Marker",
            SensorTarget::Load(_) => "Load",
            SensorTarget::KinematicTree { .. } => "KinematicTree",
            SensorTarget::SuperElement { .. } => "SuperElement",
        }
    }

    /// A sensor of `output` at `target`, its rows kept (storeInternal) and not written to a file.
    pub fn new(target: SensorTarget, output: OutputVariable) -> Sensor {
        Sensor {
            name: String::new(),
            target,
            output,
            store_internal: true,
            write_to_file: false,
            file_name: String::new(),
        }
    }

    /// SensorNode of `output` at `node`.
    pub fn node(node: NodeIndex, output: OutputVariable) -> Sensor {
        Sensor::new(SensorTarget::Node(node), output)
    }

    /// SensorObject of `output` at `object` (a joint's named output as its module's constant,
    /// `my_joint::outputs::DISTANCE`).
    pub fn object(object: ObjectIndex, output: impl Into<OutputVariable>) -> Sensor {
        Sensor::new(SensorTarget::Object(object), output.into())
    }

    /// SensorBody of `output` at the point `local_position` of `body`.
    pub fn body(body: ObjectIndex, local_position: [f64; 3], output: OutputVariable) -> Sensor {
        Sensor::new(
            SensorTarget::Body {
                body,
                local_position,
            },
            output,
        )
    }

    /// SensorMarker of `output` at `marker`.
    pub fn marker(marker: MarkerIndex, output: OutputVariable) -> Sensor {
        Sensor::new(SensorTarget::Marker(marker), output)
    }

    /// SensorSuperElement: mesh node `mesh_node` of the superelement `body`.
    pub fn super_element(body: ObjectIndex, mesh_node: usize, output: OutputVariable) -> Sensor {
        Sensor::new(SensorTarget::SuperElement { body, mesh_node }, output)
    }

    /// SensorLoad: the vector of `load`.
    pub fn load(load: LoadIndex) -> Sensor {
        Sensor::new(SensorTarget::Load(load), OutputVariable::Force)
    }
}
