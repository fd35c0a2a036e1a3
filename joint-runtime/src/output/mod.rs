//! The outputs of nodes, bodies, markers, objects, loads and sensors at a state, as Exudyn's
//! `mbs.Get…Output` functions give them: one file per kind of item, all reading the same
//! [`Outputs`] view (items, topology, state).

mod bodies;
mod connectors;
mod kinematic_tree;
mod markers;
mod nodes;
mod objects;
mod super_element;

use crate::assemble::{MarkerResolver, OutputMarkers, Topology};
use crate::error::{Error, ItemRef, Result};
use crate::items::{OutputVariable, SensorIndex, SensorTarget};
use crate::state::State;
use crate::system::MultibodySystem;

fn unsupported(item: ItemRef, var: OutputVariable) -> Error {
    Error::item(
        item,
        "outputVariableType",
        format!("the item has no output variable {var}"),
    )
}

/// Entry `i` of `items`, or the error "no such …" on the key that refers to it (`item` names
/// the referring item only when there is an error: the sensors' rows allocate nothing).
fn entry<'t, T>(
    items: &'t [T],
    i: usize,
    item: impl FnOnce() -> ItemRef,
    key: &str,
    what: &str,
) -> Result<&'t T> {
    items
        .get(i)
        .ok_or_else(|| Error::item(item(), key, format!("no such {what}")))
}

/// The outputs of a system at a state: what the `*_output` functions and the sensors read, and
/// all they read (the items, the topology and the state). [`crate::Simulation::outputs`]
/// gives the view of a simulation.
#[derive(Clone, Copy)]
pub struct Outputs<'a> {
    /// The items.
    pub(crate) mbs: &'a MultibodySystem,
    /// The assembled topology of the items.
    pub(crate) topology: &'a Topology,
    /// The state the outputs are read at.
    pub(crate) state: &'a State,
}

impl Outputs<'_> {
    /// Output `var` of `target` (a node, an object, a body point, a marker, a load, a kinematic
    /// tree's link or a superelement's mesh node), as Exudyn's `mbs.Get…Output` functions give
    /// it in the current configuration.
    pub fn output(&self, target: &SensorTarget, var: OutputVariable) -> Result<Vec<f64>> {
        let mut out = Vec::new();
        let markers = self
            .resolver()
            .output_markers(&self.target_item(target), target)?;
        self.target_values(target, var, &self.total(), &markers, &mut out)?;
        Ok(out)
    }

    /// The current value of sensor `i` (without time).
    pub fn sensor_value(&self, sensor: SensorIndex) -> Result<Vec<f64>> {
        let i = sensor.0;
        let s = self.mbs.sensors.get(i).ok_or_else(|| {
            Error::item(
                self.mbs.sensor_ref(i),
                "sensorNumber",
                format!("no such sensor: the system has {}", self.mbs.sensors.len()),
            )
        })?;
        self.output(&s.target, s.output)
            .map_err(|e| self.sensor_error(i, e))
    }

    fn total(&self) -> Vec<f64> {
        let mut qt = vec![0.0; self.topology.n_ode2];
        self.topology.total_coordinates(&self.state.q, &mut qt);
        qt
    }

    /// An item's output error, as sensor `i`'s.
    fn sensor_error(&self, i: usize, e: Error) -> Error {
        match e {
            Error::Item { key, message, .. } => Error::item(self.mbs.sensor_ref(i), &key, message),
            other => other,
        }
    }

    /// The item `target` names, for the errors of its markers.
    fn target_item(&self, target: &SensorTarget) -> ItemRef {
        match target {
            SensorTarget::Node(n) => self.mbs.node_ref(n.0),
            SensorTarget::Body { body: o, .. }
            | SensorTarget::SuperElement { body: o, .. }
            | SensorTarget::Object(o)
            | SensorTarget::KinematicTree { object: o, .. } => self.mbs.object_ref(o.0),
            SensorTarget::Marker(m) => self.mbs.marker_ref(m.0),
            SensorTarget::Load(l) => self.mbs.load_ref(l.0),
        }
    }

    /// The marker resolver of the assembly, over these items and their topology.
    fn resolver(&self) -> MarkerResolver<'_> {
        MarkerResolver {
            mbs: self.mbs,
            node_ode2: &self.topology.node_ode2,
            objects: &self.topology.objects,
            bodies: &self.topology.bodies,
        }
    }

    /// [`Outputs::sensor_value`] appended to `out`, at total coordinates `qt`, with the
    /// markers the assembly resolved: allocates nothing once `out` has room.
    pub(crate) fn sensor_values(&self, i: usize, qt: &[f64], out: &mut Vec<f64>) -> Result<()> {
        let s = &self.mbs.sensors[i];
        let markers = &self.topology.sensor_markers[i];
        self.target_values(&s.target, s.output, qt, markers, out)
            .map_err(|e| self.sensor_error(i, e))
    }

    /// [`Outputs::output`] appended to `out`, at total coordinates `qt`, with the markers
    /// `target` reads.
    fn target_values(
        &self,
        target: &SensorTarget,
        var: OutputVariable,
        qt: &[f64],
        markers: &OutputMarkers,
        out: &mut Vec<f64>,
    ) -> Result<()> {
        match target {
            SensorTarget::Node(n) => self.node_values(n.0, var, qt, markers, out),
            SensorTarget::Object(o) => self.object_values(o.0, var, qt, out),
            SensorTarget::Body {
                body,
                local_position,
            } => self.body_values(body.0, *local_position, var, qt, markers, out),
            SensorTarget::Marker(m) => self.marker_values(m.0, var, qt, out),
            SensorTarget::Load(l) => {
                out.extend_from_slice(self.mbs.loads[l.0].values());
                Ok(())
            }
            SensorTarget::KinematicTree {
                object,
                link,
                local_position,
            } => self.kinematic_tree_values(object.0, *link, *local_position, var, qt, out),
            SensorTarget::SuperElement { body, mesh_node } => {
                self.super_element_values(body.0, *mesh_node, var, qt, markers, out)
            }
        }
    }
}
