//! Markers on coordinates: one node coordinate (MarkerNodeCoordinate), one rotation
//! coordinate (MarkerNodeRotationCoordinate), a node's or an object's ODE2 coordinates
//! (MarkerNodeCoordinates, MarkerObjectODE2Coordinates).

use super::MarkerResolver;
use crate::error::{Error, ItemRef, Result};
use crate::items::{Node, NodeIndex, ObjectIndex};
use crate::markers::{MarkerModel, ResolvedMarker};
use joint_core::MarkerKind;

impl MarkerResolver<'_> {
    /// MarkerNodeCoordinate: the kernels read the displacement c − c_ref.
    pub(super) fn node_coordinate(
        &self,
        item: &ItemRef,
        node: NodeIndex,
        coordinate: usize,
    ) -> Result<ResolvedMarker> {
        let n = self.mbs.node_checked(item, "nodeNumber", node)?;
        if matches!(n, Node::PointGround { .. }) {
            // Exudyn lets coordinate constraints and connectors act on a ground node's
            // 'coordinate', which is always zero: no column
            return Ok(ResolvedMarker::ground_coordinate());
        }
        if coordinate >= n.ode2_size() {
            return Err(Error::item(
                item.clone(),
                "coordinate",
                format!(
                    "coordinate {coordinate} does not exist: node {} is a {} with {} ODE2 coordinates",
                    node.0,
                    n.type_name(),
                    n.ode2_size()
                ),
            ));
        }
        Ok(ResolvedMarker {
            model: MarkerModel::Kind {
                kind: MarkerKind::NodeCoordinate,
                parameters: vec![n.reference_coordinates()[coordinate]],
            },
            columns: vec![self.node_ode2[node.0] + coordinate],
            mass: 0.0,
            provides_position: false,
            provides_orientation: false,
            local_rotation: None,
        })
    }

    /// MarkerNodeRotationCoordinate: rotation coordinate `index` of a 3-D rigid node's
    /// orientation.
    pub(super) fn rotation_coordinate(
        &self,
        item: &ItemRef,
        node: NodeIndex,
        index: usize,
    ) -> Result<ResolvedMarker> {
        match self.mbs.node_checked(item, "nodeNumber", node)? {
            // Exudyn's: value 0 and no column
            Node::PointGround { .. } => Ok(ResolvedMarker::ground_coordinate()),
            Node::RigidBodyEP { .. }
            | Node::RigidBodyRxyz { .. }
            | Node::RigidBodyRotVecLG { .. } => {
                let rigid = self.node_marker(item, node, true)?;
                Ok(ResolvedMarker {
                    columns: rigid.columns.clone(),
                    model: MarkerModel::RotationCoordinate {
                        node: Box::new(rigid),
                        index,
                    },
                    mass: 0.0,
                    provides_position: false,
                    provides_orientation: false,
                    local_rotation: None,
                })
            }
            other => Err(Error::item(
                item.clone(),
                "nodeNumber",
                format!(
                    "node {} is a {}, which has no 3-D rotation; MarkerNodeRotationCoordinate needs a RigidBodyEP, RigidBodyRxyz or RigidBodyRotVecLG node (or a PointGround)",
                    node.0,
                    other.type_name()
                ),
            )),
        }
    }

    /// MarkerNodeCoordinates: all ODE2 coordinates of a node.
    pub(super) fn node_coordinates(
        &self,
        item: &ItemRef,
        node: NodeIndex,
    ) -> Result<ResolvedMarker> {
        let n = self.mbs.node_checked(item, "nodeNumber", node)?;
        if matches!(n, Node::PointGround { .. }) {
            // Exudyn's ground 'coordinates': none (the connector's terms on them vanish)
            return Ok(ResolvedMarker::coordinates(Vec::new()));
        }
        if n.ode2_size() == 0 {
            return Err(Error::item(
                item.clone(),
                "nodeNumber",
                format!(
                    "node {} is a {} node without ODE2 coordinates; MarkerNodeCoordinates takes a node's ODE2 coordinates",
                    node.0,
                    n.type_name()
                ),
            ));
        }
        let start = self.node_ode2[node.0];
        Ok(ResolvedMarker::coordinates(
            (start..start + n.ode2_size()).collect(),
        ))
    }

    /// MarkerObjectODE2Coordinates: the ODE2 coordinates of all nodes of a body.
    pub(super) fn object_coordinates(
        &self,
        item: &ItemRef,
        object: ObjectIndex,
    ) -> Result<ResolvedMarker> {
        let o = self.mbs.object_checked(item, "objectNumber", object)?;
        let Some(nodes) = o.ode2_nodes() else {
            return Err(Error::item(
                item.clone(),
                "objectNumber",
                format!(
                    "object {} is a {}, not a body with ODE2 coordinates (MarkerObjectODE2Coordinates needs a body)",
                    object.0,
                    o.type_name()
                ),
            ));
        };
        let mut columns = Vec::new();
        for n in nodes {
            let node = self.mbs.node_checked(item, "objectNumber", n)?;
            let start = self.node_ode2[n.0];
            columns.extend(start..start + node.ode2_size());
        }
        Ok(ResolvedMarker::coordinates(columns))
    }
}
