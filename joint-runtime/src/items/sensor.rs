//! Sensors: output variables recorded over time.

use crate::items::OutputVariable;
use crate::items::{LoadIndex, MarkerIndex, NodeIndex, ObjectIndex};

#[derive(Clone, Debug, PartialEq)]
pub enum SensorTarget {
    Node(NodeIndex),
    Object(ObjectIndex),
    Body {
        body: ObjectIndex,
        local_position: [f64; 3],
    },
    Marker(MarkerIndex),
    Load(LoadIndex),
    /// SensorKinematicTree: a point `local_position` of link `link` of a tree.
    KinematicTree {
        object: ObjectIndex,
        link: usize,
        local_position: [f64; 3],
    },
    /// SensorSuperElement: mesh node `mesh_node` of a GenericODE2 or FFRFreducedOrder object.
    SuperElement {
        body: ObjectIndex,
        mesh_node: usize,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct Sensor {
    pub name: String,
    pub target: SensorTarget,
    /// Unused for SensorLoad.
    pub output: OutputVariable,
    pub store_internal: bool,
    pub write_to_file: bool,
    pub file_name: String,
}

impl Sensor {
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

    pub fn node(node: NodeIndex, output: OutputVariable) -> Sensor {
        Sensor::new(SensorTarget::Node(node), output)
    }

    pub fn object(object: ObjectIndex, output: OutputVariable) -> Sensor {
        Sensor::new(SensorTarget::Object(object), output)
    }

    pub fn body(body: ObjectIndex, local_position: [f64; 3], output: OutputVariable) -> Sensor {
        Sensor::new(
            SensorTarget::Body {
                body,
                local_position,
            },
            output,
        )
    }

    pub fn marker(marker: MarkerIndex, output: OutputVariable) -> Sensor {
        Sensor::new(SensorTarget::Marker(marker), output)
    }

    /// SensorSuperElement: mesh node `mesh_node` of the superelement `body`.
    pub fn super_element(body: ObjectIndex, mesh_node: usize, output: OutputVariable) -> Sensor {
        Sensor::new(SensorTarget::SuperElement { body, mesh_node }, output)
    }

    pub fn load(load: LoadIndex) -> Sensor {
        Sensor::new(SensorTarget::Load(load), OutputVariable::Force)
    }
}
