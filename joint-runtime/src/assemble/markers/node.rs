//! Markers on a node's position and orientation (MarkerNodePosition, MarkerNodeRigid), and the
//! node marker of a node's outputs.

use nalgebra::Vector3;

use super::MarkerResolver;
use crate::error::{Error, ItemRef, Result};
use crate::items::{Node, NodeIndex};
use crate::markers::ResolvedMarker;
use joint_core::MarkerKind;

impl MarkerResolver<'_> {
    /// The marker on node `n`'s position (and its orientation when `orientation`); errors
    /// name `item`'s "nodeNumber".
    pub(crate) fn node_marker(
        &self,
        item: &ItemRef,
        n: NodeIndex,
        orientation: bool,
    ) -> Result<ResolvedMarker> {
        let node = self.mbs.node_checked(item, "nodeNumber", n)?;
        let refuse = |what: String| Err(Error::item(item.clone(), "nodeNumber", what));
        let kind = match node {
            Node::PointGround { position, .. } => {
                if orientation {
                    return refuse(format!(
                        "node {} is a PointGround, which has no orientation; MarkerNodeRigid needs a rigid-body node",
                        n.0
                    ));
                }
                // a ground point at the node's position: no columns
                let identity = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
                let p = super::ground_point(position, &identity, &[0.0; 3]);
                return Ok(ResolvedMarker::of_kind(MarkerKind::GroundPoint, 0, 0, p));
            }
            Node::Point { .. } => MarkerKind::NodePoint,
            Node::Point2D { .. } => MarkerKind::NodePoint2D,
            Node::RigidBody2D { .. } => MarkerKind::NodeRigid2D,
            Node::RigidBodyEP { .. } => MarkerKind::NodeEp,
            Node::RigidBodyRxyz { .. } => MarkerKind::NodeRxyz,
            Node::RigidBodyRotVecLG { .. } => {
                let mut m = ResolvedMarker::lie_group(self.node_ode2[n.0], Vector3::zeros());
                m.provides_orientation = orientation;
                return Ok(m);
            }
            Node::GenericData { .. } => {
                return refuse(format!(
                    "node {} is a GenericData node: it has data coordinates only, no position",
                    n.0
                ));
            }
            Node::GenericODE1 { .. } => {
                return refuse(format!(
                    "node {} is a GenericODE1 node: it has ODE1 coordinates only, no position",
                    n.0
                ));
            }
            Node::GenericODE2 { .. } | Node::Node1D { .. } => {
                return refuse(format!(
                    "node {} is a {} node, which has no position; use MarkerNodeCoordinate",
                    n.0,
                    node.type_name()
                ));
            }
        };
        if orientation && !node.is_rigid() {
            return refuse(format!(
                "node {} is a Point, which has no orientation; MarkerNodeRigid needs a rigid-body node",
                n.0
            ));
        }
        let mut m =
            ResolvedMarker::of_kind(kind, self.node_ode2[n.0], node.ode2_size(), Vec::new());
        m.provides_orientation = orientation;
        Ok(m)
    }
}
