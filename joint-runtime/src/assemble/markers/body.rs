//! Markers on a body (MarkerBodyPosition, MarkerBodyRigid, MarkerBodyMass), and the point
//! marker of a body's outputs.

use nalgebra::Vector3;

use super::MarkerResolver;
use super::finite;
use crate::assemble::BodyTopology;
use crate::error::{Error, ItemRef, Result};
use crate::items::{Node, NodeIndex, Object, ObjectIndex};
use crate::markers::{MarkerModel, ResolvedMarker};
use joint_core::MarkerKind;

/// How a body marker is asked for.
#[derive(Clone, Copy)]
struct BodyMarkerUse {
    /// MarkerBodyRigid: the marker also gives the body's orientation.
    orientation: bool,
    /// MarkerBodyMass: the marker distributes the body's mass (at its centre of mass).
    mass: bool,
}

impl MarkerResolver<'_> {
    /// The marker on body `b` at `local` (at its centre of mass for a mass marker); errors
    /// name `item`'s "bodyNumber" (or "localPosition").
    pub(crate) fn body_marker(
        &self,
        item: &ItemRef,
        b: ObjectIndex,
        local: [f64; 3],
        orientation: bool,
        mass_marker: bool,
    ) -> Result<ResolvedMarker> {
        finite(item, "localPosition", &local)?;
        let object = self.mbs.object_checked(item, "bodyNumber", b)?;
        let refuse = |what: String| Err(Error::item(item.clone(), "bodyNumber", what));
        let no_orientation = |type_name: &str| {
            refuse(format!(
                "object {} is a {type_name}, which has no orientation; MarkerBodyRigid needs a rigid body or ground",
                b.0
            ))
        };
        let how = BodyMarkerUse {
            orientation,
            mass: mass_marker,
        };
        let mut m = match object {
            Object::Ground {
                reference_position,
                reference_rotation,
                ..
            } => {
                let p = super::ground_point(reference_position, reference_rotation, &local);
                ResolvedMarker::of_kind(MarkerKind::GroundPoint, 0, 0, p)
            }
            Object::MassPoint { node, mass, .. } => {
                if orientation {
                    return no_orientation("MassPoint");
                }
                self.mass_point(item, b, *node, *mass, local)?
            }
            Object::RigidBody {
                node,
                mass,
                center_of_mass,
                ..
            } => {
                let p = if mass_marker { *center_of_mass } else { local };
                return self.rigid_body(item, b, *node, *mass, p, how);
            }
            Object::FFRFreducedOrder { .. } if mass_marker => self.ffrf_mass(b),
            Object::MassPoint2D { node, mass, .. } => {
                if orientation {
                    return no_orientation("MassPoint2D");
                }
                self.mbs.node_checked(item, "nodeNumber", *node)?;
                let start = self.node_ode2[node.0];
                let mut m =
                    ResolvedMarker::of_kind(MarkerKind::MassPoint2DBody, start, 2, local.to_vec());
                m.mass = *mass;
                m
            }
            Object::RigidBody2D {
                node,
                mass,
                center_of_mass,
                ..
            } => {
                // checked at bodies: its node is a NodeRigidBody2D
                let p = if mass_marker {
                    vec![center_of_mass[0], center_of_mass[1], 0.0]
                } else {
                    local.to_vec()
                };
                let start = self.node_ode2[node.0];
                let mut m = ResolvedMarker::of_kind(MarkerKind::Rigid2DPoint, start, 3, p);
                m.mass = *mass;
                m
            }
            Object::Mass1D { .. } | Object::RotationalMass1D { .. } => {
                return refuse(format!(
                    "object {} is a {}: body markers on it are not supported yet; use a MarkerNodeCoordinate on its Node1D",
                    b.0,
                    object.type_name()
                ));
            }
            other => {
                let hint = if other.is_super_element() {
                    "; use MarkerSuperElementPosition or MarkerSuperElementRigid on superelements"
                } else {
                    ""
                };
                return refuse(format!(
                    "object {} is a {}, not a body (Ground, MassPoint or RigidBody){hint}",
                    b.0,
                    other.type_name()
                ));
            }
        };
        m.provides_position = !mass_marker;
        m.provides_orientation = orientation;
        Ok(m)
    }

    /// A MassPoint's marker: the first three coordinates of its node.
    fn mass_point(
        &self,
        item: &ItemRef,
        b: ObjectIndex,
        node: NodeIndex,
        mass: f64,
        local: [f64; 3],
    ) -> Result<ResolvedMarker> {
        let n = self.mbs.node_checked(item, "nodeNumber", node)?;
        if let Node::PointGround { .. } = n {
            // Exudyn 1.13.6 accepts the mass point, but a spring on such a marker moved its
            // other end by 2400 m in 1 s: refused rather than disagree
            return Err(Error::item(
                item.clone(),
                "bodyNumber",
                format!(
                    "object {} is a MassPoint on NodePointGround {}: markers on it are not supported (Exudyn's results with them are wrong); put the marker on the ground node (MarkerNodePosition) or on ObjectGround",
                    b.0, node.0
                ),
            ));
        }
        let start = self.node_ode2[node.0];
        let mut m = ResolvedMarker::of_kind(MarkerKind::MassPointBody, start, 3, local.to_vec());
        m.mass = mass;
        Ok(m)
    }

    /// A RigidBody's marker at `p` in the body frame, by its node's kind.
    fn rigid_body(
        &self,
        item: &ItemRef,
        b: ObjectIndex,
        node: NodeIndex,
        mass: f64,
        p: [f64; 3],
        how: BodyMarkerUse,
    ) -> Result<ResolvedMarker> {
        let n = self.mbs.node_checked(item, "nodeNumber", node)?;
        let start = self.node_ode2[node.0];
        let mut m = match n {
            Node::RigidBodyEP { .. } => {
                ResolvedMarker::of_kind(MarkerKind::RigidEpPoint, start, n.ode2_size(), p.to_vec())
            }
            Node::RigidBodyRxyz { .. } => ResolvedMarker::of_kind(
                MarkerKind::RigidRxyzPoint,
                start,
                n.ode2_size(),
                p.to_vec(),
            ),
            Node::RigidBodyRotVecLG { .. } => ResolvedMarker::lie_group(start, Vector3::from(p)),
            other => {
                return Err(Error::item(
                    item.clone(),
                    "bodyNumber",
                    format!(
                        "object {} is a RigidBody on a {} node",
                        b.0,
                        other.type_name()
                    ),
                ));
            }
        };
        m.mass = mass;
        m.provides_position = !how.mass;
        m.provides_orientation = how.orientation;
        Ok(m)
    }

    /// An FFRFreducedOrder object's mass marker: its frame and modal coordinates.
    fn ffrf_mass(&self, b: ObjectIndex) -> ResolvedMarker {
        let BodyTopology::Ffrf {
            frame, modal, data, ..
        } = self.body_of(b.0)
        else {
            unreachable!("FFRF objects are FFRF bodies")
        };
        ResolvedMarker {
            model: MarkerModel::FfrfMass {
                body: self.body_index(b.0),
            },
            columns: (*frame..*frame + 7)
                .chain(*modal..*modal + data.modes())
                .collect(),
            mass: 1.0,
            provides_position: false,
            provides_orientation: false,
            local_rotation: None,
        }
    }
}
