//! The bodies, in object order: mass points, rigid bodies, GenericODE2, kinematic trees and
//! FFRF objects on their nodes, with their data checked (a node carries at most one body).

use nalgebra::DMatrix;

use super::checks::{check_mass, claim_node, finite, node_of_type};
use super::kinematic_tree::kinematic_tree_data;
use super::{BodyTopology, Rotation, rigid_inertia};
use crate::error::{Error, Result};
use crate::items::{MatrixContainer, Node, Object};
use crate::system::MultibodySystem;
use std::sync::Arc;

/// Every body's topology and, per object, the index of its body (`None`: not a body).
pub(super) fn bodies(
    mbs: &MultibodySystem,
    node_ode2: &[usize],
) -> Result<(Vec<BodyTopology>, Vec<Option<usize>>)> {
    let mut node_body: Vec<Option<usize>> = vec![None; mbs.nodes.len()];
    // object index → index into `bodies`
    let mut object_body: Vec<Option<usize>> = vec![None; mbs.objects.len()];
    let mut bodies = Vec::new();
    for (i, object) in mbs.objects.iter().enumerate() {
        let item = mbs.object_ref(i);
        match object {
            Object::Ground {
                reference_position,
                reference_rotation,
                ..
            } => {
                finite(&item, "referencePosition", reference_position)?;
                finite(
                    &item,
                    "referenceRotation",
                    reference_rotation.as_flattened(),
                )?;
            }
            Object::MassPoint { mass, node, .. } => {
                let n = mbs.node_checked(&item, "nodeNumber", *node)?;
                if !n.has_position() {
                    return Err(Error::item(
                        item,
                        "nodeNumber",
                        format!(
                            "node {} is a {}, which has no position",
                            node.0,
                            n.type_name()
                        ),
                    ));
                }
                check_mass(&item, "mass", *mass)?;
                if matches!(n, Node::PointGround { .. }) {
                    // Exudyn accepts it: a mass point that cannot move (no coordinates, no
                    // equations)
                    continue;
                }
                claim_node(&mut node_body, &item, node.0, i)?;
                object_body[i] = Some(bodies.len());
                bodies.push(BodyTopology::MassPoint {
                    ode2: node_ode2[node.0],
                    mass: *mass,
                });
            }
            Object::MassPoint2D { mass, node, .. } => {
                node_of_type(
                    mbs,
                    &item,
                    "nodeNumber",
                    *node,
                    |n| matches!(n, Node::Point2D { .. }),
                    "ObjectMassPoint2D needs a NodePoint2D",
                )?;
                check_mass(&item, "mass", *mass)?;
                claim_node(&mut node_body, &item, node.0, i)?;
                object_body[i] = Some(bodies.len());
                bodies.push(BodyTopology::MassPoint2D {
                    ode2: node_ode2[node.0],
                    mass: *mass,
                });
            }
            Object::Mass1D {
                mass,
                node,
                reference_position,
                reference_rotation,
                ..
            }
            | Object::RotationalMass1D {
                inertia: mass,
                node,
                reference_position,
                reference_rotation,
                ..
            } => {
                let key = if matches!(object, Object::Mass1D { .. }) {
                    "mass"
                } else {
                    "inertia"
                };
                node_of_type(
                    mbs,
                    &item,
                    "nodeNumber",
                    *node,
                    |n| matches!(n, Node::Node1D { .. }),
                    &format!("Object{} needs a Node1D", object.type_name()),
                )?;
                check_mass(&item, key, *mass)?;
                finite(&item, "referencePosition", reference_position)?;
                finite(
                    &item,
                    "referenceRotation",
                    reference_rotation.as_flattened(),
                )?;
                claim_node(&mut node_body, &item, node.0, i)?;
                object_body[i] = Some(bodies.len());
                bodies.push(BodyTopology::Mass1D {
                    ode2: node_ode2[node.0],
                    mass: *mass,
                });
            }
            Object::BeamGeometricallyExact2D { nodes, beam, .. } => {
                // beams share their nodes (with other beams, not with bodies): no claim
                let mut columns = [0; 6];
                for (k, n) in nodes.iter().enumerate() {
                    node_of_type(
                        mbs,
                        &item,
                        "nodeNumbers",
                        *n,
                        |n| matches!(n, Node::RigidBody2D { .. }),
                        "ObjectBeamGeometricallyExact2D needs NodeRigidBody2D nodes",
                    )?;
                    for c in 0..3 {
                        columns[3 * k + c] = node_ode2[n.0] + c;
                    }
                }
                if nodes[0] == nodes[1] {
                    return Err(Error::item(
                        item,
                        "nodeNumbers",
                        format!("node {} is given twice", nodes[0].0),
                    ));
                }
                for (key, value) in beam.values() {
                    finite(&item, key, &[value])?;
                }
                if beam.length <= 0.0 {
                    return Err(Error::item(
                        item,
                        "physicsLength",
                        format!("the length must be > 0, found {}", beam.length),
                    ));
                }
                check_mass(&item, "physicsMassPerLength", beam.mass_per_length)?;
                check_mass(
                    &item,
                    "physicsCrossSectionInertia",
                    beam.cross_section_inertia,
                )?;
                object_body[i] = Some(bodies.len());
                bodies.push(BodyTopology::Beam2D {
                    columns,
                    beam: *beam,
                });
            }
            Object::RigidBody2D {
                mass,
                inertia,
                center_of_mass,
                node,
                ..
            } => {
                node_of_type(
                    mbs,
                    &item,
                    "nodeNumber",
                    *node,
                    |n| matches!(n, Node::RigidBody2D { .. }),
                    "ObjectRigidBody2D needs a NodeRigidBody2D",
                )?;
                check_mass(&item, "mass", *mass)?;
                check_mass(&item, "inertia", *inertia)?;
                finite(&item, "centerOfMass", center_of_mass)?;
                claim_node(&mut node_body, &item, node.0, i)?;
                object_body[i] = Some(bodies.len());
                bodies.push(BodyTopology::Rigid2D {
                    ode2: node_ode2[node.0],
                    mass: *mass,
                    inertia: *inertia,
                    center_of_mass: *center_of_mass,
                });
            }
            Object::RigidBody {
                mass,
                inertia,
                center_of_mass,
                node,
                ..
            } => {
                let n = mbs.node_checked(&item, "nodeNumber", *node)?;
                let rotation = match n {
                    Node::RigidBodyEP { .. } => Rotation::EulerParameters,
                    Node::RigidBodyRxyz { .. } => Rotation::TaitBryanXyz,
                    Node::RigidBodyRotVecLG { .. } => Rotation::RotationVectorLieGroup,
                    other => {
                        return Err(Error::item(
                            item,
                            "nodeNumber",
                            format!(
                                "node {} is a {}; ObjectRigidBody needs a rigid-body node (RigidBodyEP, RigidBodyRxyz or RigidBodyRotVecLG)",
                                node.0,
                                other.type_name()
                            ),
                        ));
                    }
                };
                check_mass(&item, "mass", *mass)?;
                finite(&item, "inertia", inertia)?;
                finite(&item, "centerOfMass", center_of_mass)?;
                claim_node(&mut node_body, &item, node.0, i)?;
                let start = node_ode2[node.0];
                object_body[i] = Some(bodies.len());
                bodies.push(BodyTopology::Rigid {
                    ode2: start..start + n.ode2_size(),
                    rotation,
                    mass: *mass,
                    inertia: rigid_inertia(inertia),
                    center_of_mass: *center_of_mass,
                });
            }
            Object::GenericODE2 {
                nodes,
                mass_matrix,
                stiffness_matrix,
                damping_matrix,
                force_vector,
                ..
            } => {
                if nodes.is_empty() {
                    return Err(Error::item(
                        item,
                        "nodeNumbers",
                        "a GenericODE2 needs at least one node",
                    ));
                }
                let mut columns = Vec::new();
                for (k, n) in nodes.iter().enumerate() {
                    let node = mbs.node_checked(&item, "nodeNumbers", *n)?;
                    if nodes[..k].contains(n) {
                        return Err(Error::item(
                            item,
                            "nodeNumbers",
                            format!("node {} is listed twice", n.0),
                        ));
                    }
                    claim_node(&mut node_body, &item, n.0, i)?;
                    let start = node_ode2[n.0];
                    columns.extend(start..start + node.ode2_size());
                }
                let n = columns.len();
                // its mass, stiffness and damping are kept as dense n × n matrices
                crate::items::matrix::check_dense_size(n, n, 3)
                    .map_err(|message| Error::item(item.clone(), "nodeNumbers", message))?;
                let matrix = |key: &str, m: &MatrixContainer| -> Result<DMatrix<f64>> {
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
                    finite(&item, key, d.as_slice())?;
                    Ok(d)
                };
                if !stiffness_matrix.is_empty()
                    && !damping_matrix.is_empty()
                    && stiffness_matrix.is_sparse() != damping_matrix.is_sparse()
                {
                    return Err(Error::item(
                        item,
                        "dampingMatrix",
                        "stiffnessMatrix and dampingMatrix must both be dense or both sparse (as in Exudyn)",
                    ));
                }
                let mass = matrix("massMatrix", mass_matrix)?;
                let stiffness = matrix("stiffnessMatrix", stiffness_matrix)?;
                let damping = matrix("dampingMatrix", damping_matrix)?;
                let force = if force_vector.is_empty() {
                    vec![0.0; n]
                } else if force_vector.len() == n {
                    finite(&item, "forceVector", force_vector)?;
                    force_vector.clone()
                } else {
                    return Err(Error::item(
                        item,
                        "forceVector",
                        format!(
                            "expected {n} entries (or none), found {}",
                            force_vector.len()
                        ),
                    ));
                };
                object_body[i] = Some(bodies.len());
                bodies.push(BodyTopology::GenericODE2 {
                    columns,
                    mass,
                    stiffness,
                    damping,
                    force,
                });
            }
            Object::KinematicTree {
                node, parameters, ..
            } => {
                let n = mbs.node_checked(&item, "nodeNumber", *node)?;
                if !matches!(n, Node::GenericODE2 { .. }) {
                    return Err(Error::item(
                        item,
                        "nodeNumber",
                        format!(
                            "node {} is a {}; ObjectKinematicTree needs a GenericODE2 node",
                            node.0,
                            n.type_name()
                        ),
                    ));
                }
                let data = kinematic_tree_data(&item, parameters, n.ode2_size())?;
                claim_node(&mut node_body, &item, node.0, i)?;
                object_body[i] = Some(bodies.len());
                bodies.push(BodyTopology::KinematicTree {
                    start: node_ode2[node.0],
                    data: Arc::new(data),
                });
            }
            Object::FFRFreducedOrder {
                nodes, parameters, ..
            } => {
                let frame_node = mbs.node_checked(&item, "nodeNumbers", nodes[0])?;
                if !matches!(frame_node, Node::RigidBodyEP { .. }) {
                    return Err(Error::item(
                        item,
                        "nodeNumbers",
                        format!(
                            "nodeNumbers[0] = {} is a {}; the reference frame must be a RigidBodyEP node (Tait–Bryan frames are not supported)",
                            nodes[0].0,
                            frame_node.type_name()
                        ),
                    ));
                }
                let modal_node = mbs.node_checked(&item, "nodeNumbers", nodes[1])?;
                if !matches!(modal_node, Node::GenericODE2 { .. }) {
                    return Err(Error::item(
                        item,
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
                        item,
                        "nodeNumbers",
                        format!(
                            "the modal node {}'s reference coordinates must be zero",
                            nodes[1].0
                        ),
                    ));
                }
                claim_node(&mut node_body, &item, nodes[0].0, i)?;
                claim_node(&mut node_body, &item, nodes[1].0, i)?;
                let data = crate::superelement::ffrf::FfrfData::from_parameters(
                    parameters,
                    modal_node.ode2_size(),
                )
                .map_err(|(key, message)| Error::item(item.clone(), &key, message))?;
                object_body[i] = Some(bodies.len());
                bodies.push(BodyTopology::Ffrf {
                    frame: node_ode2[nodes[0].0],
                    modal: node_ode2[nodes[1].0],
                    data: Box::new(data),
                });
            }
            _ => {}
        }
    }
    Ok((bodies, object_body))
}
