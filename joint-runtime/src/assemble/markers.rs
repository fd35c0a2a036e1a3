//! Marker resolution: every marker bound to the generated kinematics of its kind over its
//! body's or node's coordinates (or to a superelement or kinematic-tree model), with its
//! Jacobian columns.

use nalgebra::{Matrix3, Vector3};

use super::BodyTopology;
use super::checks::finite;
use super::super_element_markers::resolve_super_element;
use crate::error::{Error, ItemRef, Result};
use crate::items::{Marker, Node, Object};
use crate::markers::kinematic_tree::KinematicTreeMarker;
use crate::markers::{MarkerModel, ResolvedMarker};
use crate::system::MultibodySystem;
use joint_core::MarkerKind;
use std::sync::Arc;

/// Every marker resolved, in marker order.
pub(super) fn resolve_markers(
    mbs: &MultibodySystem,
    node_ode2: &[usize],
    object_body: &[Option<usize>],
    bodies: &[BodyTopology],
) -> Result<Vec<ResolvedMarker>> {
    let mut markers = Vec::with_capacity(mbs.markers.len());
    for (i, marker) in mbs.markers.iter().enumerate() {
        markers.push(resolve_marker(
            mbs,
            i,
            marker,
            node_ode2,
            object_body,
            bodies,
        )?);
    }
    Ok(markers)
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

pub(super) fn resolve_marker(
    mbs: &MultibodySystem,
    i: usize,
    marker: &Marker,
    node_ode2: &[usize],
    object_body: &[Option<usize>],
    bodies: &[BodyTopology],
) -> Result<ResolvedMarker> {
    let item = mbs.marker_ref(i);
    let node_marker = |n: crate::items::NodeIndex, orientation: bool| -> Result<ResolvedMarker> {
        let node = mbs.node_checked(&item, "nodeNumber", n)?;
        let kind = match node {
            Node::PointGround { position, .. } => {
                if orientation {
                    return Err(Error::item(
                        item.clone(),
                        "nodeNumber",
                        format!(
                            "node {} is a PointGround, which has no orientation; MarkerNodeRigid needs a rigid-body node",
                            n.0
                        ),
                    ));
                }
                // a ground point at the node's position: no columns
                let mut p = position.to_vec();
                p.extend_from_slice(&[1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]);
                p.extend_from_slice(&[0.0; 3]);
                return Ok(ResolvedMarker::of_kind(MarkerKind::GroundPoint, 0, 0, p));
            }
            Node::Point { .. } => MarkerKind::NodePoint,
            Node::Point2D { .. } => MarkerKind::NodePoint2D,
            Node::RigidBody2D { .. } => MarkerKind::NodeRigid2D,
            Node::RigidBodyEP { .. } => MarkerKind::NodeEp,
            Node::RigidBodyRxyz { .. } => MarkerKind::NodeRxyz,
            Node::RigidBodyRotVecLG { .. } => {
                let mut m = ResolvedMarker::lie_group(node_ode2[n.0], Vector3::zeros());
                m.provides_orientation = orientation;
                return Ok(m);
            }
            Node::GenericData { .. } => {
                return Err(Error::item(
                    item.clone(),
                    "nodeNumber",
                    format!(
                        "node {} is a GenericData node: it has data coordinates only, no position",
                        n.0
                    ),
                ));
            }
            Node::GenericODE1 { .. } => {
                return Err(Error::item(
                    item.clone(),
                    "nodeNumber",
                    format!(
                        "node {} is a GenericODE1 node: it has ODE1 coordinates only, no position",
                        n.0
                    ),
                ));
            }
            Node::GenericODE2 { .. } | Node::Node1D { .. } => {
                return Err(Error::item(
                    item.clone(),
                    "nodeNumber",
                    format!(
                        "node {} is a {} node, which has no position; use MarkerNodeCoordinate",
                        n.0,
                        node.type_name()
                    ),
                ));
            }
        };
        if orientation && !node.is_rigid() {
            return Err(Error::item(
                item.clone(),
                "nodeNumber",
                format!(
                    "node {} is a Point, which has no orientation; MarkerNodeRigid needs a rigid-body node",
                    n.0
                ),
            ));
        }
        let mut m = ResolvedMarker::of_kind(kind, node_ode2[n.0], node.ode2_size(), Vec::new());
        m.provides_orientation = orientation;
        Ok(m)
    };
    let body_marker = |b: crate::items::ObjectIndex,
                       local: [f64; 3],
                       orientation: bool,
                       mass_marker: bool|
     -> Result<ResolvedMarker> {
        finite(&item, "localPosition", &local)?;
        let object = mbs.object_checked(&item, "bodyNumber", b)?;
        let mut m = match object {
            Object::Ground {
                reference_position,
                reference_rotation,
                ..
            } => {
                let mut p = reference_position.to_vec();
                p.extend_from_slice(reference_rotation.as_flattened());
                p.extend_from_slice(&local);
                ResolvedMarker::of_kind(MarkerKind::GroundPoint, 0, 0, p)
            }
            Object::MassPoint { node, mass, .. } => {
                if orientation {
                    return Err(Error::item(
                        item.clone(),
                        "bodyNumber",
                        format!(
                            "object {} is a MassPoint, which has no orientation; MarkerBodyRigid needs a rigid body or ground",
                            b.0
                        ),
                    ));
                }
                let n = mbs.node_checked(&item, "nodeNumber", *node)?;
                if let Node::PointGround { .. } = n {
                    // Exudyn 1.13.6 accepts the mass point, but a spring on such a marker moved
                    // its other end by 2400 m in 1 s: refused rather than disagree
                    return Err(Error::item(
                        item.clone(),
                        "bodyNumber",
                        format!(
                            "object {} is a MassPoint on NodePointGround {}: markers on it are not supported (Exudyn's results with them are wrong); put the marker on the ground node (MarkerNodePosition) or on ObjectGround",
                            b.0, node.0
                        ),
                    ));
                }
                // A mass point uses the first three coordinates of its node.
                let mut m = ResolvedMarker::of_kind(
                    MarkerKind::MassPointBody,
                    node_ode2[node.0],
                    3,
                    local.to_vec(),
                );
                m.mass = *mass;
                m
            }
            Object::RigidBody {
                node,
                mass,
                center_of_mass,
                ..
            } => {
                let n = mbs.node_checked(&item, "nodeNumber", *node)?;
                let p = if mass_marker { *center_of_mass } else { local };
                let kind = match n {
                    Node::RigidBodyEP { .. } => MarkerKind::RigidEpPoint,
                    Node::RigidBodyRxyz { .. } => MarkerKind::RigidRxyzPoint,
                    Node::RigidBodyRotVecLG { .. } => {
                        let mut m = ResolvedMarker::lie_group(node_ode2[node.0], Vector3::from(p));
                        m.mass = *mass;
                        m.provides_position = !mass_marker;
                        m.provides_orientation = orientation;
                        return Ok(m);
                    }
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
                let mut m =
                    ResolvedMarker::of_kind(kind, node_ode2[node.0], n.ode2_size(), p.to_vec());
                m.mass = *mass;
                m
            }
            Object::FFRFreducedOrder { .. } if mass_marker => {
                let body = object_body[b.0].expect("FFRF objects are bodies");
                let BodyTopology::Ffrf {
                    frame, modal, data, ..
                } = &bodies[body]
                else {
                    unreachable!("object_body maps FFRF objects to FFRF bodies")
                };
                ResolvedMarker {
                    model: MarkerModel::FfrfMass { body },
                    columns: (*frame..*frame + 7)
                        .chain(*modal..*modal + data.modes())
                        .collect(),
                    mass: 1.0,
                    provides_position: false,
                    provides_orientation: false,
                    local_rotation: None,
                }
            }
            Object::MassPoint2D { node, mass, .. } => {
                if orientation {
                    return Err(Error::item(
                        item.clone(),
                        "bodyNumber",
                        format!(
                            "object {} is a MassPoint2D, which has no orientation; MarkerBodyRigid needs a rigid body or ground",
                            b.0
                        ),
                    ));
                }
                mbs.node_checked(&item, "nodeNumber", *node)?;
                let mut m = ResolvedMarker::of_kind(
                    MarkerKind::MassPoint2DBody,
                    node_ode2[node.0],
                    2,
                    local.to_vec(),
                );
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
                let mut m =
                    ResolvedMarker::of_kind(MarkerKind::Rigid2DPoint, node_ode2[node.0], 3, p);
                m.mass = *mass;
                m
            }
            Object::Mass1D { .. } | Object::RotationalMass1D { .. } => {
                return Err(Error::item(
                    item.clone(),
                    "bodyNumber",
                    format!(
                        "object {} is a {}: body markers on it are not supported yet; use a MarkerNodeCoordinate on its Node1D",
                        b.0,
                        object.type_name()
                    ),
                ));
            }
            other => {
                let hint = if other.is_super_element() {
                    "; use MarkerSuperElementPosition or MarkerSuperElementRigid on superelements"
                } else {
                    ""
                };
                return Err(Error::item(
                    item.clone(),
                    "bodyNumber",
                    format!(
                        "object {} is a {}, not a body (Ground, MassPoint or RigidBody){hint}",
                        b.0,
                        other.type_name()
                    ),
                ));
            }
        };
        m.provides_position = !mass_marker;
        m.provides_orientation = orientation;
        Ok(m)
    };
    match marker {
        Marker::NodeCoordinate {
            node, coordinate, ..
        } => {
            let n = mbs.node_checked(&item, "nodeNumber", *node)?;
            if matches!(n, crate::items::Node::PointGround { .. }) {
                // Exudyn lets coordinate constraints and connectors act on a ground node's
                // 'coordinate', which is always zero: no column
                return Ok(ResolvedMarker::ground_coordinate());
            }
            if *coordinate >= n.ode2_size() {
                return Err(Error::item(
                    item,
                    "coordinate",
                    format!(
                        "coordinate {coordinate} does not exist: node {} is a {} with {} ODE2 coordinates",
                        node.0,
                        n.type_name(),
                        n.ode2_size()
                    ),
                ));
            }
            let column = node_ode2[node.0] + coordinate;
            Ok(ResolvedMarker {
                // the kernels read the displacement: c − c_ref
                model: MarkerModel::Kind {
                    kind: MarkerKind::NodeCoordinate,
                    parameters: vec![n.reference_coordinates()[*coordinate]],
                },
                columns: vec![column],
                mass: 0.0,
                provides_position: false,
                provides_orientation: false,
                local_rotation: None,
            })
        }
        Marker::NodeRotationCoordinate {
            node,
            rotation_coordinate,
            ..
        } => {
            let n = mbs.node_checked(&item, "nodeNumber", *node)?;
            match n {
                // Exudyn's: value 0 and no column
                Node::PointGround { .. } => Ok(ResolvedMarker::ground_coordinate()),
                Node::RigidBodyEP { .. }
                | Node::RigidBodyRxyz { .. }
                | Node::RigidBodyRotVecLG { .. } => {
                    let rigid = node_marker(*node, true)?;
                    Ok(ResolvedMarker {
                        columns: rigid.columns.clone(),
                        model: MarkerModel::RotationCoordinate {
                            node: Box::new(rigid),
                            index: *rotation_coordinate,
                        },
                        mass: 0.0,
                        provides_position: false,
                        provides_orientation: false,
                        local_rotation: None,
                    })
                }
                other => Err(Error::item(
                    item,
                    "nodeNumber",
                    format!(
                        "node {} is a {}, which has no 3-D rotation; MarkerNodeRotationCoordinate needs a RigidBodyEP, RigidBodyRxyz or RigidBodyRotVecLG node (or a PointGround)",
                        node.0,
                        other.type_name()
                    ),
                )),
            }
        }
        Marker::NodeCoordinates { node, .. } => {
            let n = mbs.node_checked(&item, "nodeNumber", *node)?;
            if matches!(n, Node::PointGround { .. }) {
                // Exudyn's ground 'coordinates': none (the connector's terms on them vanish)
                return Ok(ResolvedMarker::coordinates(Vec::new()));
            }
            if n.ode2_size() == 0 {
                return Err(Error::item(
                    item,
                    "nodeNumber",
                    format!(
                        "node {} is a {} node without ODE2 coordinates; MarkerNodeCoordinates takes a node's ODE2 coordinates",
                        node.0,
                        n.type_name()
                    ),
                ));
            }
            let start = node_ode2[node.0];
            Ok(ResolvedMarker::coordinates(
                (start..start + n.ode2_size()).collect(),
            ))
        }
        Marker::ObjectODE2Coordinates { object, .. } => {
            let o = mbs.object_checked(&item, "objectNumber", *object)?;
            let Some(nodes) = o.ode2_nodes() else {
                return Err(Error::item(
                    item,
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
                let node = mbs.node_checked(&item, "objectNumber", n)?;
                let start = node_ode2[n.0];
                columns.extend(start..start + node.ode2_size());
            }
            Ok(ResolvedMarker::coordinates(columns))
        }
        Marker::BodyMass { body, .. } => body_marker(*body, [0.0; 3], false, true),
        Marker::BodyPosition {
            body,
            local_position,
            ..
        } => body_marker(*body, *local_position, false, false),
        Marker::BodyRigid {
            body,
            local_position,
            local_rotation,
            ..
        } => with_local_rotation(
            &item,
            body_marker(*body, *local_position, true, false)?,
            local_rotation,
        ),
        Marker::NodePosition { node, .. } => node_marker(*node, false),
        Marker::NodeRigid {
            node,
            local_rotation,
            ..
        } => with_local_rotation(&item, node_marker(*node, true)?, local_rotation),
        Marker::KinematicTreeRigid {
            object,
            link,
            local_position,
            ..
        } => {
            finite(&item, "localPosition", local_position)?;
            let o = mbs.object_checked(&item, "objectNumber", *object)?;
            let Object::KinematicTree { .. } = o else {
                return Err(Error::item(
                    item,
                    "objectNumber",
                    format!(
                        "object {} is a {}; MarkerKinematicTreeRigid needs a KinematicTree",
                        object.0,
                        o.type_name()
                    ),
                ));
            };
            let b = object_body[object.0].expect("trees are bodies");
            let BodyTopology::KinematicTree { start, data, .. } = &bodies[b] else {
                unreachable!("object_body maps trees to tree bodies")
            };
            if *link >= data.links() {
                return Err(Error::item(
                    item,
                    "linkNumber",
                    format!(
                        "link {link} does not exist (the tree has {} links)",
                        data.links()
                    ),
                ));
            }
            let mut columns = Vec::new();
            let mut j = *link as isize;
            while j >= 0 {
                columns.push(start + j as usize);
                j = data.parents[j as usize];
            }
            Ok(ResolvedMarker {
                model: MarkerModel::KinematicTree(Box::new(KinematicTreeMarker {
                    tree: Arc::clone(data),
                    start: *start,
                    link: *link,
                    local_position: Vector3::from(*local_position),
                })),
                columns,
                mass: 0.0,
                provides_position: true,
                provides_orientation: true,
                local_rotation: None,
            })
        }
        Marker::SuperElementPosition {
            body,
            mesh_nodes,
            weights,
            ..
        } => resolve_super_element(
            mbs,
            &item,
            *body,
            mesh_nodes,
            weights,
            None,
            node_ode2,
            object_body,
            bodies,
        ),
        Marker::SuperElementRigid {
            body,
            offset,
            mesh_nodes,
            weights,
            use_alternative_approach,
            rotations_exponential_map,
            ..
        } => {
            finite(&item, "offset", offset)?;
            if !(0..=2).contains(rotations_exponential_map) {
                return Err(Error::item(
                    item,
                    "rotationsExponentialMap",
                    format!(
                        "{rotations_exponential_map} is not supported; 0 (I + θ̃), 1 (ExpSO3) and 2 (ExpSO3 with its tangent operator, the default) are"
                    ),
                ));
            }
            resolve_super_element(
                mbs,
                &item,
                *body,
                mesh_nodes,
                weights,
                Some((
                    *offset,
                    *use_alternative_approach,
                    *rotations_exponential_map,
                )),
                node_ode2,
                object_body,
                bodies,
            )
        }
    }
}
