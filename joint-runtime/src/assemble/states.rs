//! Where the items' states live (`state NAME = EXPR;` of joints and force elements defined
//! with `joint!`): laid out once, at assembly, as data coordinates after the nodes'
//! (`physics/states.rs` evaluates and stores them after each converged solve).

use joint_core::StateInfo;

use super::{ConnectorKind, Topology};

/// The item that owns a set of states.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StateOwner {
    /// `Topology::joints[k]`.
    Joint(usize),
    /// `Topology::connectors[k]` (a force element defined with `joint!`).
    Connector(usize),
}

/// Where one item's states live.
#[derive(Clone, Debug)]
pub struct ItemStates {
    /// The item.
    pub owner: StateOwner,
    /// Its object.
    pub object: usize,
    /// Its first data coordinate in `State::data`.
    pub data: usize,
    /// The offset of its first state in its parameter slice.
    pub offset: usize,
    /// Its definition's states.
    pub states: &'static [StateInfo],
}

impl ItemStates {
    /// The data coordinates of its states.
    pub fn data_range(&self) -> std::ops::Range<usize> {
        self.data..self.data + self.states.len()
    }

    /// The states' slots in its parameter slice.
    pub fn parameter_range(&self) -> std::ops::Range<usize> {
        self.offset..self.offset + self.states.len()
    }
}

impl Topology {
    /// The states of every item that has some, each given its data coordinates after the
    /// nodes' `n_node_data`.
    pub(crate) fn layout_states(&mut self, n_node_data: usize) {
        let mut next = n_node_data;
        let mut items = Vec::new();
        for (k, j) in self.joints.iter().enumerate() {
            let states = j.definition.states;
            if !states.is_empty() {
                items.push(ItemStates {
                    owner: StateOwner::Joint(k),
                    object: j.object,
                    data: next,
                    offset: j.definition.parameter_len() - states.len(),
                    states,
                });
                next += states.len();
            }
        }
        for (k, c) in self.connectors.iter().enumerate() {
            if let ConnectorKind::Defined { definition, .. } = &c.kind
                && !definition.states.is_empty()
            {
                let states = definition.states;
                items.push(ItemStates {
                    owner: StateOwner::Connector(k),
                    object: c.object,
                    data: next,
                    offset: definition.parameter_len() - states.len(),
                    states,
                });
                next += states.len();
            }
        }
        self.item_states = items;
    }
}
