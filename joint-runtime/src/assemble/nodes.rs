//! The nodes' layout: each node's ODE2 coordinates in node order (Exudyn's), its ODE1
//! coordinates (NodeGenericODE1) in node order too, the AE coordinate of a NodeRigidBodyEP's
//! Euler-parameter constraint, and the node checks.

use super::EulerParameterConstraint;
use super::checks::finite;
use crate::error::{Error, ItemRef, Result};
use crate::items::Node;
use crate::system::MultibodySystem;

/// The coordinates of the nodes.
pub(super) struct NodeLayout {
    /// First ODE2 index per node.
    pub node_ode2: Vec<usize>,
    /// First data coordinate per node (NodeGenericData; the count so far for the others).
    pub node_data: Vec<usize>,
    /// First ODE1 coordinate per node (NodeGenericODE1; the count so far for the others).
    pub node_ode1: Vec<usize>,
    /// ODE1 reference coordinates, all nodes.
    pub ode1_reference: Vec<f64>,
    /// The node of each ODE1 coordinate.
    pub ode1_owner: Vec<ItemRef>,
    /// Reference coordinates, all nodes.
    pub reference: Vec<f64>,
    /// The item of each AE equation so far.
    pub ae_owner: Vec<ItemRef>,
    /// The node of each ODE2 coordinate.
    pub ode2_owner: Vec<ItemRef>,
    /// The Euler-parameter constraints.
    pub ep_constraints: Vec<EulerParameterConstraint>,
}

/// The nodes' layout, in node order, with every node checked.
pub(super) fn node_layout(mbs: &MultibodySystem) -> Result<NodeLayout> {
    let mut node_ode2 = Vec::with_capacity(mbs.nodes.len());
    let mut node_data = Vec::with_capacity(mbs.nodes.len());
    let mut n_data = 0;
    let mut node_ode1 = Vec::with_capacity(mbs.nodes.len());
    let mut ode1_reference = Vec::new();
    let mut ode1_owner = Vec::new();
    let mut reference = Vec::new();
    let mut ae_owner = Vec::new();
    let mut ode2_owner = Vec::new();
    let mut ep_constraints = Vec::new();
    for (i, node) in mbs.nodes.iter().enumerate() {
        let item = mbs.node_ref(i);
        finite(&item, "referenceCoordinates", node.reference_coordinates())?;
        finite(&item, "initialCoordinates", node.initial_coordinates())?;
        finite(&item, "initialVelocities", node.initial_velocities())?;
        if let Node::PointGround { position, .. } = node {
            finite(&item, "referenceCoordinates", position)?;
        }
        finite(&item, "initialCoordinates", node.initial_data())?;
        node_data.push(n_data);
        n_data += node.initial_data().len();
        finite(&item, "referenceCoordinates", node.ode1_reference())?;
        finite(&item, "initialCoordinates", node.ode1_initial())?;
        node_ode1.push(ode1_reference.len());
        ode1_reference.extend_from_slice(node.ode1_reference());
        for _ in 0..node.ode1_size() {
            ode1_owner.push(item.clone());
        }
        if let Node::RigidBodyEP {
            reference_coordinates: r,
            ..
        } = node
        {
            let norm = (r[3] * r[3] + r[4] * r[4] + r[5] * r[5] + r[6] * r[6]).sqrt();
            if (norm - 1.0).abs() > 100.0 * f64::EPSILON {
                return Err(Error::item(
                    item,
                    "referenceCoordinates",
                    format!(
                        "the reference Euler parameters [{}, {}, {}, {}] must have unit length (|θ| = {norm})",
                        r[3], r[4], r[5], r[6]
                    ),
                ));
            }
        }
        node_ode2.push(reference.len());
        if node.ae_size() > 0 {
            ep_constraints.push(EulerParameterConstraint {
                ode2: reference.len() + 3,
                ae: ae_owner.len(),
            });
            ae_owner.push(item.clone());
        }
        reference.extend_from_slice(node.reference_coordinates());
        for _ in 0..node.ode2_size() {
            ode2_owner.push(item.clone());
        }
    }
    Ok(NodeLayout {
        node_ode2,
        node_data,
        node_ode1,
        ode1_reference,
        ode1_owner,
        reference,
        ae_owner,
        ode2_owner,
        ep_constraints,
    })
}
