//! The multibody system builder: add items, get typed indices back — as Exudyn's `mbs.Add…`.

use crate::error::{Error, ItemRef, Result};
use crate::items::{
    Load, LoadIndex, Marker, MarkerIndex, Node, NodeIndex, Object, ObjectIndex, Sensor, SensorIndex,
};

/// A multibody system: the items in Exudyn's index order. `assemble()` checks them and turns
/// them into a [`crate::Simulation`] (the topology, computed once, and the state) that the
/// solvers run.
#[derive(Clone, Debug, Default)]
pub struct MultibodySystem {
    /// Nodes, in index order.
    pub nodes: Vec<Node>,
    /// Objects (bodies, connectors, joints, superelements, trees), in index order.
    pub objects: Vec<Object>,
    /// Markers, in index order.
    pub markers: Vec<Marker>,
    /// Loads, in index order.
    pub loads: Vec<Load>,
    /// Sensors, in index order.
    pub sensors: Vec<Sensor>,
}

impl MultibodySystem {
    /// An empty system.
    pub fn new() -> Self {
        Self::default()
    }

    /// `mbs.AddNode`: add `node` and return its index.
    pub fn add_node(&mut self, node: Node) -> NodeIndex {
        self.nodes.push(node);
        NodeIndex(self.nodes.len() - 1)
    }

    /// `mbs.AddObject`: add `object` and return its index.
    pub fn add_object(&mut self, object: Object) -> ObjectIndex {
        self.objects.push(object);
        ObjectIndex(self.objects.len() - 1)
    }

    /// `mbs.AddMarker`: add `marker` and return its index.
    pub fn add_marker(&mut self, marker: Marker) -> MarkerIndex {
        self.markers.push(marker);
        MarkerIndex(self.markers.len() - 1)
    }

    /// `mbs.AddLoad`: add `load` and return its index.
    pub fn add_load(&mut self, load: Load) -> LoadIndex {
        self.loads.push(load);
        LoadIndex(self.loads.len() - 1)
    }

    /// `mbs.AddSensor`: add `sensor` and return its index.
    pub fn add_sensor(&mut self, sensor: Sensor) -> SensorIndex {
        self.sensors.push(sensor);
        SensorIndex(self.sensors.len() - 1)
    }

    /// Node `i` as error messages name it (`nodes[2] (RigidBodyEP)`).
    pub(crate) fn node_ref(&self, i: usize) -> ItemRef {
        ItemRef {
            list: "nodes",
            index: i,
            type_name: self.nodes.get(i).map_or("?", Node::type_name).to_owned(),
        }
    }

    /// Object `i` as error messages name it.
    pub(crate) fn object_ref(&self, i: usize) -> ItemRef {
        ItemRef {
            list: "objects",
            index: i,
            type_name: self
                .objects
                .get(i)
                .map_or("?", Object::type_name)
                .to_owned(),
        }
    }

    /// Marker `i` as error messages name it.
    pub(crate) fn marker_ref(&self, i: usize) -> ItemRef {
        ItemRef {
            list: "markers",
            index: i,
            type_name: self
                .markers
                .get(i)
                .map_or("?", Marker::type_name)
                .to_owned(),
        }
    }

    /// Load `i` as error messages name it.
    pub(crate) fn load_ref(&self, i: usize) -> ItemRef {
        ItemRef {
            list: "loads",
            index: i,
            type_name: self.loads.get(i).map_or("?", Load::type_name).to_owned(),
        }
    }

    /// Sensor `i` as error messages name it.
    pub(crate) fn sensor_ref(&self, i: usize) -> ItemRef {
        ItemRef {
            list: "sensors",
            index: i,
            type_name: self
                .sensors
                .get(i)
                .map_or("?", Sensor::type_name)
                .to_owned(),
        }
    }

    /// Item name as Exudyn reports it (`node0`, `object3`, … when none was given).
    pub fn display_name(list: &str, index: usize, name: &str) -> String {
        if name.is_empty() {
            let singular = list.trim_end_matches('s');
            format!("{singular}{index}")
        } else {
            name.to_owned()
        }
    }

    pub(crate) fn node_checked(&self, owner: &ItemRef, key: &str, n: NodeIndex) -> Result<&Node> {
        self.nodes.get(n.0).ok_or_else(|| {
            Error::item(
                owner.clone(),
                key,
                format!(
                    "node number {} does not exist (the system has {} nodes)",
                    n.0,
                    self.nodes.len()
                ),
            )
        })
    }

    pub(crate) fn object_checked(
        &self,
        owner: &ItemRef,
        key: &str,
        o: ObjectIndex,
    ) -> Result<&Object> {
        self.objects.get(o.0).ok_or_else(|| {
            Error::item(
                owner.clone(),
                key,
                format!(
                    "object number {} does not exist (the system has {} objects)",
                    o.0,
                    self.objects.len()
                ),
            )
        })
    }

    pub(crate) fn marker_checked(
        &self,
        owner: &ItemRef,
        key: &str,
        m: MarkerIndex,
    ) -> Result<&Marker> {
        self.markers.get(m.0).ok_or_else(|| {
            Error::item(
                owner.clone(),
                key,
                format!(
                    "marker number {} does not exist (the system has {} markers)",
                    m.0,
                    self.markers.len()
                ),
            )
        })
    }
}
