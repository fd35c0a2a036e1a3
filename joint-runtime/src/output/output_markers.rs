//! The markers a node, body or mesh-node output needs beyond the topology's: built per call
//! for `Outputs::output`, once per solve for the sensors.

use super::{OutputMarkers, Outputs};
use crate::items::{Node, Object, SensorTarget};
use crate::markers::{MarkerModel, ResolvedMarker};
use joint_core::MarkerKind;

impl Outputs<'_> {
    /// A node marker for the node's outputs (`None` for nodes without a position and for
    /// nodes that do not exist).
    pub(super) fn node_marker(&self, node: usize) -> Option<ResolvedMarker> {
        let n = self.mbs.nodes.get(node)?;
        let kind = match n {
            Node::Point { .. } => MarkerKind::NodePoint,
            Node::Point2D { .. } => MarkerKind::NodePoint2D,
            Node::RigidBody2D { .. } => MarkerKind::NodeRigid2D,
            Node::RigidBodyEP { .. } => MarkerKind::NodeEp,
            Node::RigidBodyRxyz { .. } => MarkerKind::NodeRxyz,
            Node::RigidBodyRotVecLG { .. } => {
                let start = self.topology.node_ode2[node];
                let mut m = ResolvedMarker::lie_group(start, nalgebra::Vector3::zeros());
                m.provides_orientation = true;
                return Some(m);
            }
            // GenericODE2 and 1D have no position; a PointGround's outputs need no marker
            Node::GenericODE2 { .. }
            | Node::Node1D { .. }
            | Node::PointGround { .. }
            | Node::GenericData { .. }
            | Node::GenericODE1 { .. } => {
                return None;
            }
        };
        let start = self.topology.node_ode2[node];
        Some(ResolvedMarker {
            model: MarkerModel::Kind {
                kind,
                parameters: Vec::new(),
            },
            columns: (start..start + n.ode2_size()).collect(),
            mass: 0.0,
            provides_position: true,
            provides_orientation: n.is_rigid(),
            local_rotation: None,
        })
    }

    /// The markers of `node_output(node, …)`.
    pub(super) fn node_output_markers(&self, node: usize) -> OutputMarkers {
        OutputMarkers {
            node: self.node_marker(node),
            point: None,
        }
    }

    /// The markers of `body_output(body, local, …)`: the body's node's, and for a rigid body
    /// the marker at `local`.
    pub(super) fn body_output_markers(&self, body: usize, local: [f64; 3]) -> OutputMarkers {
        let node = match self.mbs.objects.get(body) {
            Some(
                Object::MassPoint { node, .. }
                | Object::MassPoint2D { node, .. }
                | Object::RigidBody2D { node, .. }
                | Object::RigidBody { node, .. },
            ) => self.node_marker(node.0),
            _ => None,
        };
        let point = match (self.mbs.objects.get(body), &node) {
            (Some(Object::RigidBody { .. }), Some(node_m))
                if matches!(node_m.model, MarkerModel::LieGroup(_)) =>
            {
                let mut m = ResolvedMarker::lie_group(node_m.columns[0], local.into());
                m.provides_orientation = true;
                Some(m)
            }
            (Some(Object::RigidBody { .. } | Object::RigidBody2D { .. }), Some(node_m)) => {
                let kind = match node_m.kind() {
                    Some(MarkerKind::NodeEp) => MarkerKind::RigidEpPoint,
                    Some(MarkerKind::NodeRigid2D) => MarkerKind::Rigid2DPoint,
                    _ => MarkerKind::RigidRxyzPoint,
                };
                Some(ResolvedMarker {
                    model: MarkerModel::Kind {
                        kind,
                        parameters: local.to_vec(),
                    },
                    columns: node_m.columns.clone(),
                    mass: 0.0,
                    provides_position: true,
                    provides_orientation: true,
                    local_rotation: None,
                })
            }
            _ => None,
        };
        OutputMarkers { node, point }
    }

    /// The markers of `super_element_output(body, mesh_node, …)`: a GenericODE2 mesh node's
    /// node, or an FFRF object's reference-frame node.
    pub(super) fn super_element_output_markers(
        &self,
        body: usize,
        mesh_node: usize,
    ) -> OutputMarkers {
        match self.mbs.objects.get(body) {
            Some(Object::GenericODE2 { nodes, .. }) => nodes
                .get(mesh_node)
                .map_or_else(OutputMarkers::default, |n| self.node_output_markers(n.0)),
            Some(Object::FFRFreducedOrder { nodes, .. }) => self.node_output_markers(nodes[0].0),
            _ => OutputMarkers::default(),
        }
    }

    /// The markers the output of `target` needs.
    pub(super) fn target_markers(&self, target: &SensorTarget) -> OutputMarkers {
        match target {
            SensorTarget::Node(n) => self.node_output_markers(n.0),
            SensorTarget::Body {
                body,
                local_position,
            } => self.body_output_markers(body.0, *local_position),
            SensorTarget::SuperElement { body, mesh_node } => {
                self.super_element_output_markers(body.0, *mesh_node)
            }
            _ => OutputMarkers::default(),
        }
    }

    /// The markers sensor `i`'s output needs.
    pub(crate) fn sensor_output_markers(&self, i: usize) -> OutputMarkers {
        self.target_markers(&self.mbs.sensors[i].target)
    }
}
