//! The bodies on GenericODE2 nodes: ObjectGenericODE2 (its matrices), ObjectKinematicTree (its
//! links) and ObjectFFRFreducedOrder (a reference frame and modal coordinates).

use nalgebra::DMatrix;
use std::sync::Arc;

use super::BodyPass;
use crate::assemble::BodyTopology;
use crate::assemble::checks::finite;
use crate::assemble::kinematic_tree::kinematic_tree_data;
use crate::error::{Error, ItemRef, Result};
use crate::items::{
    FfrfParameters, KinematicTreeParameters, MatrixContainer, Node, NodeIndex, Object,
};

impl BodyPass<'_> {
    /// A GenericODE2 object: its nodes' coordinates, with dense mass, stiffness and damping
    /// matrices and a force vector (empty ones: zero).
    pub(super) fn generic_ode2(
        &mut self,
        i: usize,
        item: &ItemRef,
        object: &Object,
    ) -> Result<BodyTopology> {
        let Object::GenericODE2 {
            nodes,
            mass_matrix,
            stiffness_matrix,
            damping_matrix,
            force_vector,
            ..
        } = object
        else {
            unreachable!("called for GenericODE2 objects")
        };
        if nodes.is_empty() {
            return Err(Error::item(
                item.clone(),
                "nodeNumbers",
                "a GenericODE2 needs at least one node",
            ));
        }
        let mut columns = Vec::new();
        for (k, n) in nodes.iter().enumerate() {
            let node = self.mbs.node_checked(item, "nodeNumbers", *n)?;
            if nodes[..k].contains(n) {
                return Err(Error::item(
                    item.clone(),
                    "nodeNumbers",
                    format!("node {} is listed twice", n.0),
                ));
            }
            self.claim(item, *n, i)?;
            let start = self.node_ode2[n.0];
            columns.extend(start..start + node.ode2_size());
        }
        let n = columns.len();
        // its mass, stiffness and damping are kept as dense n × n matrices
        crate::items::matrix::check_dense_size(n, n, 3)
            .map_err(|message| Error::item(item.clone(), "nodeNumbers", message))?;
        if !stiffness_matrix.is_empty()
            && !damping_matrix.is_empty()
            && stiffness_matrix.is_sparse() != damping_matrix.is_sparse()
        {
            return Err(Error::item(
                item.clone(),
                "dampingMatrix",
                "stiffnessMatrix and dampingMatrix must both be dense or both sparse (as in Exudyn)",
            ));
        }
        let mass = square_matrix(item, "massMatrix", mass_matrix, n)?;
        let stiffness = square_matrix(item, "stiffnessMatrix", stiffness_matrix, n)?;
        let damping = square_matrix(item, "dampingMatrix", damping_matrix, n)?;
        let force = if force_vector.is_empty() {
            vec![0.0; n]
        } else if force_vector.len() == n {
            finite(item, "forceVector", force_vector)?;
            force_vector.clone()
        } else {
            return Err(Error::item(
                item.clone(),
                "forceVector",
                format!(
                    "expected {n} entries (or none), found {}",
                    force_vector.len()
                ),
            ));
        };
        Ok(BodyTopology::GenericODE2 {
            columns,
            mass,
            stiffness,
            damping,
            force,
        })
    }

    /// A KinematicTree on its GenericODE2 node of joint coordinates.
    pub(super) fn kinematic_tree(
        &mut self,
        i: usize,
        item: &ItemRef,
        node: NodeIndex,
        parameters: &KinematicTreeParameters,
    ) -> Result<BodyTopology> {
        let n = self.mbs.node_checked(item, "nodeNumber", node)?;
        if !matches!(n, Node::GenericODE2 { .. }) {
            return Err(Error::item(
                item.clone(),
                "nodeNumber",
                format!(
                    "node {} is a {}; ObjectKinematicTree needs a GenericODE2 node",
                    node.0,
                    n.type_name()
                ),
            ));
        }
        let data = kinematic_tree_data(item, parameters, n.ode2_size())?;
        self.claim(item, node, i)?;
        Ok(BodyTopology::KinematicTree {
            start: self.node_ode2[node.0],
            data: Arc::new(data),
        })
    }

    /// An FFRFreducedOrder object: a RigidBodyEP reference frame and a GenericODE2 node of
    /// modal coordinates (reference zero).
    pub(super) fn ffrf(
        &mut self,
        i: usize,
        item: &ItemRef,
        nodes: &[NodeIndex; 2],
        parameters: &FfrfParameters,
    ) -> Result<BodyTopology> {
        let frame_node = self.mbs.node_checked(item, "nodeNumbers", nodes[0])?;
        if !matches!(frame_node, Node::RigidBodyEP { .. }) {
            return Err(Error::item(
                item.clone(),
                "nodeNumbers",
                format!(
                    "nodeNumbers[0] = {} is a {}; the reference frame must be a RigidBodyEP node (Tait–Bryan frames are not supported)",
                    nodes[0].0,
                    frame_node.type_name()
                ),
            ));
        }
        let modal_node = self.mbs.node_checked(item, "nodeNumbers", nodes[1])?;
        if !matches!(modal_node, Node::GenericODE2 { .. }) {
            return Err(Error::item(
                item.clone(),
                "nodeNumbers",
                format!(
                    "nodeNumbers[1] = {} is a {}; the modal coordinates must be a GenericODE2 node",
                    nodes[1].0,
                    modal_node.type_name()
                ),
            ));
        }
        if modal_node.reference_coordinates().iter().any(|&x| x != 0.0) {
            return Err(Error::item(
                item.clone(),
                "nodeNumbers",
                format!(
                    "the modal node {}'s reference coordinates must be zero",
                    nodes[1].0
                ),
            ));
        }
        self.claim(item, nodes[0], i)?;
        self.claim(item, nodes[1], i)?;
        let data = crate::superelement::ffrf::FfrfData::from_parameters(
            parameters,
            modal_node.ode2_size(),
        )
        .map_err(|(key, message)| Error::item(item.clone(), &key, message))?;
        Ok(BodyTopology::Ffrf {
            frame: self.node_ode2[nodes[0].0],
            modal: self.node_ode2[nodes[1].0],
            data: Box::new(data),
        })
    }
}

/// A GenericODE2 matrix as a dense `n × n` one (an empty one: zero), checked.
fn square_matrix(item: &ItemRef, key: &str, m: &MatrixContainer, n: usize) -> Result<DMatrix<f64>> {
    let shape = m.shape();
    if m.is_empty() {
        return Ok(DMatrix::zeros(n, n));
    }
    if shape != (n, n) {
        return Err(Error::item(
            item.clone(),
            key,
            format!(
                "expected a {n} × {n} matrix (the nodes' {n} coordinates) or an empty one, found {} × {}",
                shape.0, shape.1
            ),
        ));
    }
    let d = m
        .to_dense()
        .map_err(|message| Error::item(item.clone(), key, message))?;
    finite(item, key, d.as_slice())?;
    Ok(d)
}
