//! The simulation's side of the items' states (`physics/states.rs`): their data coordinates
//! are the truth, and the kernels' parameter slices, in the topology and in the model's
//! objects (which outputs read), mirror them.

use super::Simulation;
use crate::items::Object;

impl Simulation {
    /// The items' states from `State::data` into every parameter slice that carries them:
    /// before a solve (a caller may have set `State::data`), and after a state is restored.
    pub(crate) fn load_item_states(&mut self) {
        if self.topology.item_states.is_empty() {
            return;
        }
        self.topology.load_states(&self.state.data);
        self.mirror_item_states();
    }

    /// The items' states from `State::data` into the model's objects.
    pub(crate) fn mirror_item_states(&mut self) {
        for s in &self.topology.item_states {
            let values = &self.state.data[s.data_range()];
            let parameters = match &mut self.mbs.objects[s.object] {
                Object::Joint(j) => &mut j.parameters,
                Object::Force(f) => &mut f.parameters,
                _ => unreachable!("states belong to joints and force elements"),
            };
            parameters[s.parameter_range()].copy_from_slice(values);
        }
    }

    /// Each item's states' initial values, from its parameter slice, appended to `data` (after
    /// the nodes' data coordinates) at assembly.
    pub(crate) fn initial_item_states(topology: &crate::assemble::Topology, data: &mut Vec<f64>) {
        for s in &topology.item_states {
            let parameters: &[f64] = match s.owner {
                crate::assemble::StateOwner::Joint(k) => &topology.joints[k].parameters,
                crate::assemble::StateOwner::Connector(k) => match &topology.connectors[k].kind {
                    crate::assemble::ConnectorKind::Defined { parameters, .. } => parameters,
                    _ => unreachable!("states belong to force elements defined with joint!"),
                },
            };
            debug_assert_eq!(data.len(), s.data);
            data.extend_from_slice(&parameters[s.parameter_range()]);
        }
    }
}
