//! The markers of the position outputs of nodes, bodies and mesh nodes: resolved at assembly
//! for the sensors (`Topology::sensor_markers`), per call for `Outputs::output`, by the same
//! resolver as the marker items.

use super::MarkerResolver;
use crate::error::{ItemRef, Result};
use crate::items::{Node, NodeIndex, Object, ObjectIndex, SensorTarget};
use crate::markers::ResolvedMarker;

/// The markers a node, body or mesh-node output reads.
#[derive(Clone, Debug, Default)]
pub(crate) struct OutputMarkers {
    /// The node's marker (nodes with a position), or a body's node's.
    pub(crate) node: Option<ResolvedMarker>,
    /// A rigid body's marker at the local position.
    pub(crate) point: Option<ResolvedMarker>,
}

impl MarkerResolver<'_> {
    /// Per sensor, the markers its output reads.
    pub(crate) fn sensor_markers(&self) -> Result<Vec<OutputMarkers>> {
        let sensors = &self.mbs.sensors;
        let mut markers = Vec::with_capacity(sensors.len());
        for (i, s) in sensors.iter().enumerate() {
            markers.push(self.output_markers(&self.mbs.sensor_ref(i), &s.target)?);
        }
        Ok(markers)
    }

    /// The markers the output of `target` reads; errors name `item`.
    pub(crate) fn output_markers(
        &self,
        item: &ItemRef,
        target: &SensorTarget,
    ) -> Result<OutputMarkers> {
        Ok(match target {
            SensorTarget::Node(n) => OutputMarkers {
                node: self.node_output_marker(item, *n),
                point: None,
            },
            SensorTarget::Body {
                body,
                local_position,
            } => self.body_output_markers(item, *body, *local_position)?,
            SensorTarget::SuperElement { body, mesh_node } => {
                let node = match self.mbs.objects.get(body.0) {
                    Some(Object::GenericODE2 { nodes, .. }) => nodes.get(*mesh_node),
                    Some(Object::FFRFreducedOrder { nodes, .. }) => nodes.first(),
                    _ => None,
                };
                OutputMarkers {
                    node: node.and_then(|n| self.node_output_marker(item, *n)),
                    point: None,
                }
            }
            _ => OutputMarkers::default(),
        })
    }

    /// The marker of node `n`'s position outputs: its position marker, with its orientation
    /// where it has one; `None` for nodes without a position, for ground nodes (whose outputs
    /// are constants) and for nodes that do not exist.
    fn node_output_marker(&self, item: &ItemRef, n: NodeIndex) -> Option<ResolvedMarker> {
        let node = self.mbs.nodes.get(n.0)?;
        if matches!(node, Node::PointGround { .. }) {
            return None;
        }
        self.node_marker(item, n, node.is_rigid()).ok()
    }

    /// The markers of a body's position outputs at `local`: its node's (see
    /// [`MarkerResolver::node_output_marker`]) and, for a rigid body, the marker at `local`.
    fn body_output_markers(
        &self,
        item: &ItemRef,
        b: ObjectIndex,
        local: [f64; 3],
    ) -> Result<OutputMarkers> {
        let object = self.mbs.objects.get(b.0);
        let node = match object {
            Some(
                Object::MassPoint { node, .. }
                | Object::MassPoint2D { node, .. }
                | Object::RigidBody2D { node, .. }
                | Object::RigidBody { node, .. },
            ) => self.node_output_marker(item, *node),
            _ => None,
        };
        let point = match object {
            Some(Object::RigidBody { .. } | Object::RigidBody2D { .. }) if node.is_some() => {
                Some(self.body_marker(item, b, local, true, false)?)
            }
            _ => None,
        };
        Ok(OutputMarkers { node, point })
    }
}
