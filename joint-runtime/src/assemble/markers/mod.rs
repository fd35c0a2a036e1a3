//! Marker resolution: every marker bound to the generated kinematics of its kind over its
//! body's or node's coordinates (or to a superelement or kinematic-tree model), with its
//! Jacobian columns. One [`MarkerResolver`] serves the assembly (the marker items) and the
//! outputs (a node's or body's marker for its position outputs), so that the mapping from an
//! item to a marker kind is written once.

mod body;
mod coordinates;
mod kinematic_tree;
mod node;
mod output;
mod super_element;

use nalgebra::Matrix3;

pub(crate) use output::OutputMarkers;

use super::checks::finite;
use super::{BodyTopology, ObjectTopology};
use crate::error::{ItemRef, Result};
use crate::items::Marker;
use crate::markers::ResolvedMarker;
use crate::system::MultibodySystem;

/// What resolving a marker reads: the items and the layout assembled before the markers.
#[derive(Clone, Copy)]
pub(crate) struct MarkerResolver<'a> {
    pub(crate) mbs: &'a MultibodySystem,
    /// Per node, its first ODE2 column.
    pub(crate) node_ode2: &'a [usize],
    /// Per object, what it became (the markers read the bodies').
    pub(crate) objects: &'a [ObjectTopology],
    pub(crate) bodies: &'a [BodyTopology],
}

impl MarkerResolver<'_> {
    /// Every marker resolved, in marker order.
    pub(super) fn resolve_all(&self) -> Result<Vec<ResolvedMarker>> {
        let mut markers = Vec::with_capacity(self.mbs.markers.len());
        for (i, marker) in self.mbs.markers.iter().enumerate() {
            markers.push(self.resolve(&self.mbs.marker_ref(i), marker)?);
        }
        Ok(markers)
    }

    /// The body index of object `object` (a body by the item checks before).
    fn body_index(&self, object: usize) -> usize {
        match self.objects[object] {
            ObjectTopology::Body(b) => b,
            _ => unreachable!("object {object} was checked to be a body"),
        }
    }

    /// The body topology of object `object` (a body by the item checks before).
    fn body_of(&self, object: usize) -> &BodyTopology {
        &self.bodies[self.body_index(object)]
    }

    /// Marker `marker`; errors name `item`.
    fn resolve(&self, item: &ItemRef, marker: &Marker) -> Result<ResolvedMarker> {
        match marker {
            Marker::NodeCoordinate {
                node, coordinate, ..
            } => self.node_coordinate(item, *node, *coordinate),
            Marker::NodeRotationCoordinate {
                node,
                rotation_coordinate,
                ..
            } => self.rotation_coordinate(item, *node, *rotation_coordinate),
            Marker::NodeCoordinates { node, .. } => self.node_coordinates(item, *node),
            Marker::ObjectODE2Coordinates { object, .. } => self.object_coordinates(item, *object),
            Marker::BodyMass { body, .. } => self.body_marker(item, *body, [0.0; 3], false, true),
            Marker::BodyPosition {
                body,
                local_position,
                ..
            } => self.body_marker(item, *body, *local_position, false, false),
            Marker::BodyRigid {
                body,
                local_position,
                local_rotation,
                ..
            } => with_local_rotation(
                item,
                self.body_marker(item, *body, *local_position, true, false)?,
                local_rotation,
            ),
            Marker::NodePosition { node, .. } => self.node_marker(item, *node, false),
            Marker::NodeRigid {
                node,
                local_rotation,
                ..
            } => with_local_rotation(item, self.node_marker(item, *node, true)?, local_rotation),
            Marker::KinematicTreeRigid {
                object,
                link,
                local_position,
                ..
            } => self.kinematic_tree(item, *object, *link, local_position),
            Marker::SuperElementPosition {
                body,
                mesh_nodes,
                weights,
                ..
            } => self.super_element(item, *body, mesh_nodes, weights, None),
            Marker::SuperElementRigid {
                body,
                offset,
                mesh_nodes,
                weights,
                use_alternative_approach,
                rotations_exponential_map,
                ..
            } => self.super_element_rigid(
                item,
                *body,
                mesh_nodes,
                weights,
                (
                    *offset,
                    *use_alternative_approach,
                    *rotations_exponential_map,
                ),
            ),
        }
    }
}

/// A BodyRigid/NodeRigid marker with its localHT rotation (kept only when not the identity).
pub(super) fn with_local_rotation(
    item: &ItemRef,
    mut marker: ResolvedMarker,
    rotation: &[[f64; 3]; 3],
) -> Result<ResolvedMarker> {
    finite(item, "localHT", rotation.as_flattened())?;
    let r = Matrix3::from_row_slice(rotation.as_flattened());
    if r != Matrix3::identity() {
        marker.local_rotation = Some(r);
    }
    Ok(marker)
}

/// A GroundPoint marker's parameters: its point p = p_g + R_g·b, formed once here (the kernels
/// take it as it is), then R_g row-major. Each component as the kernels formed it when they
/// took p_g, R_g and b, p_g + ((r_0·b_0 + r_1·b_1) + r_2·b_2), so the arithmetic is theirs.
pub(super) fn ground_point(
    position: &[f64; 3],
    rotation: &[[f64; 3]; 3],
    b: &[f64; 3],
) -> Vec<f64> {
    let mut p: Vec<f64> = (0..3)
        .map(|i| {
            let r = rotation[i];
            position[i] + ((r[0] * b[0] + r[1] * b[1]) + r[2] * b[2])
        })
        .collect();
    p.extend_from_slice(rotation.as_flattened());
    p
}

#[cfg(test)]
mod tests {
    /// p = p_g + R_g·b, then R_g row-major.
    #[test]
    fn a_ground_points_parameters_are_its_point_and_frame() {
        let r = [[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]];
        let p = super::ground_point(&[1.0, 2.0, 3.0], &r, &[0.5, 0.25, -1.0]);
        assert_eq!(p[..3], [0.75, 2.5, 2.0]);
        assert_eq!(p[3..], *r.as_flattened());
    }
}
