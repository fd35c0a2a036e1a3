//! Superelement markers (MarkerSuperElementPosition, MarkerSuperElementRigid): the weighted
//! mesh nodes of a GenericODE2 or FFRFreducedOrder object, checked, with the constant parts of
//! their kinematics precomputed.

use nalgebra::{DMatrix, Matrix3, Vector3};

use super::BodyTopology;
use super::checks::finite;
use crate::error::{Error, ItemRef, Result};
use crate::items::{Node, Object};
use crate::markers::super_element::{SuperElementFrame, SuperElementMarker, SuperElementRotation};
use crate::markers::{MarkerModel, ResolvedMarker};
use crate::system::MultibodySystem;

/// A superelement marker: the weighted mesh nodes of a GenericODE2 or FFRFreducedOrder
/// object, with the constant parts of its kinematics precomputed.
#[allow(clippy::too_many_arguments)]
pub(super) fn resolve_super_element(
    mbs: &MultibodySystem,
    item: &ItemRef,
    body: crate::items::ObjectIndex,
    mesh_nodes: &[usize],
    weights: &[f64],
    rigid: Option<([f64; 3], bool, i64)>,
    node_ode2: &[usize],
    object_body: &[Option<usize>],
    bodies: &[BodyTopology],
) -> Result<ResolvedMarker> {
    let object = mbs.object_checked(item, "bodyNumber", body)?;
    if !object.is_super_element() {
        return Err(Error::item(
            item.clone(),
            "bodyNumber",
            format!(
                "object {} is a {}; superelement markers need a GenericODE2 or FFRFreducedOrder object",
                body.0,
                object.type_name()
            ),
        ));
    }
    if mesh_nodes.is_empty() {
        return Err(Error::item(
            item.clone(),
            "meshNodeNumbers",
            "at least one mesh node is needed",
        ));
    }
    if weights.len() != mesh_nodes.len() {
        return Err(Error::item(
            item.clone(),
            "weightingFactors",
            format!(
                "{} weights for {} mesh nodes",
                weights.len(),
                mesh_nodes.len()
            ),
        ));
    }
    finite(item, "weightingFactors", weights)?;
    let weight_sum: f64 = weights.iter().sum();
    let mut reference_positions = Vec::with_capacity(mesh_nodes.len());
    let (frame, columns, jacobian_blocks) = match object {
        Object::GenericODE2 { nodes, .. } => {
            let mut starts = Vec::with_capacity(mesh_nodes.len());
            for &k in mesh_nodes {
                let Some(n) = nodes.get(k) else {
                    return Err(Error::item(
                        item.clone(),
                        "meshNodeNumbers",
                        format!(
                            "mesh node {k} does not exist (object {} has {} nodes)",
                            body.0,
                            nodes.len()
                        ),
                    ));
                };
                let node = &mbs.nodes[n.0];
                if !matches!(node, Node::Point { .. }) {
                    return Err(Error::item(
                        item.clone(),
                        "meshNodeNumbers",
                        format!(
                            "mesh node {k} is node {} ({}); marked mesh nodes must be Point nodes (3 coordinates)",
                            n.0,
                            node.type_name()
                        ),
                    ));
                }
                let r = node.reference_coordinates();
                reference_positions.push(Vector3::new(r[0], r[1], r[2]));
                starts.push(node_ode2[n.0]);
            }
            if rigid.is_some()
                && nodes
                    .iter()
                    .any(|n| !matches!(mbs.nodes[n.0], Node::Point { .. }))
            {
                return Err(Error::item(
                    item.clone(),
                    "bodyNumber",
                    "MarkerSuperElementRigid on a GenericODE2 needs all of its nodes to be Point nodes",
                ));
            }
            // Jacobian column blocks: unique nodes in first-appearance order, each with the
            // last weight given for it (Exudyn writes, not adds, repeated nodes' blocks).
            let mut blocks: Vec<(usize, f64)> = Vec::new();
            for (s, w) in starts.iter().zip(weights) {
                match blocks.iter_mut().find(|(b, _)| b == s) {
                    Some(b) => b.1 = *w,
                    None => blocks.push((*s, *w)),
                }
            }
            let columns = blocks.iter().flat_map(|(s, _)| *s..*s + 3).collect();
            (
                SuperElementFrame::None {
                    node_starts: starts,
                },
                columns,
                blocks,
            )
        }
        Object::FFRFreducedOrder { parameters, .. } => {
            let b = object_body[body.0].expect("FFRF objects are bodies");
            let BodyTopology::Ffrf {
                frame, modal, data, ..
            } = &bodies[b]
            else {
                unreachable!("object_body maps FFRF objects to FFRF bodies")
            };
            let n_modes = data.modes();
            let n_mesh = parameters.reference_positions.len() / 3;
            let mut mode_rows = Vec::with_capacity(mesh_nodes.len());
            for &k in mesh_nodes {
                if k >= n_mesh {
                    return Err(Error::item(
                        item.clone(),
                        "meshNodeNumbers",
                        format!(
                            "mesh node {k} does not exist (object {} has {n_mesh} mesh nodes)",
                            body.0
                        ),
                    ));
                }
                let x = &parameters.reference_positions[3 * k..3 * k + 3];
                reference_positions.push(Vector3::new(x[0], x[1], x[2]));
                mode_rows.push(parameters.mode_basis.rows(3 * k, 3).into_owned());
            }
            let mut weighted_modes = DMatrix::zeros(3, n_modes);
            for (psi, w) in mode_rows.iter().zip(weights) {
                weighted_modes += psi * *w;
            }
            let columns = (*frame..*frame + 7)
                .chain(*modal..*modal + n_modes)
                .collect();
            let weighted_modes_row_major = (0..3)
                .flat_map(|r| (0..n_modes).map(move |c| (r, c)))
                .map(|(r, c)| weighted_modes[(r, c)])
                .collect();
            let f = SuperElementFrame::Ffrf {
                frame: *frame,
                modal: *modal,
                mode_rows,
                weighted_modes,
                weighted_modes_row_major,
                tilde_weighted_modes: DMatrix::zeros(3, n_modes),
            };
            (f, columns, Vec::new())
        }
        _ => unreachable!("checked is_super_element"),
    };
    let weighted_reference: Vector3<f64> = reference_positions
        .iter()
        .zip(weights)
        .map(|(x, w)| *w * x)
        .sum();
    let mut frame = frame;
    let rotation = match rigid {
        None => None,
        Some((offset, alternative, mode)) => {
            let arms: Vec<Vector3<f64>> = reference_positions
                .iter()
                .map(|x| x - weighted_reference)
                .collect();
            let w_inverse = if alternative {
                let mut w = Matrix3::zeros();
                for (p, wi) in arms.iter().zip(weights) {
                    let t = crate::markers::rotation_vector::skew(p);
                    w -= (t * t) * *wi;
                }
                w.try_inverse().filter(|m| m.iter().all(|x| x.is_finite())).ok_or_else(|| {
                    Error::item(
                        item.clone(),
                        "meshNodeNumbers",
                        "the weighted mesh nodes do not determine a rotation (W = −Σ w P̃ P̃ is singular): mark at least three non-collinear nodes",
                    )
                })?
            } else {
                let s: f64 = arms
                    .iter()
                    .zip(weights)
                    .map(|(p, w)| w * p.norm_squared())
                    .sum();
                if s == 0.0 || !s.is_finite() {
                    return Err(Error::item(
                        item.clone(),
                        "meshNodeNumbers",
                        "Σ w |P|² = 0: the marked nodes do not determine a rotation",
                    ));
                }
                Matrix3::identity() / s
            };
            let tilde = |i: usize| crate::markers::rotation_vector::skew(&arms[i]) * weights[i];
            let mut tilde_weights = Vec::new();
            match &mut frame {
                SuperElementFrame::None { node_starts } => {
                    for (s, _) in &jacobian_blocks {
                        let mut m = Matrix3::zeros();
                        for (i, n) in node_starts.iter().enumerate() {
                            if n == s {
                                m += tilde(i);
                            }
                        }
                        tilde_weights.push(m);
                    }
                }
                SuperElementFrame::Ffrf {
                    mode_rows,
                    tilde_weighted_modes,
                    ..
                } => {
                    for (i, psi) in mode_rows.iter().enumerate() {
                        *tilde_weighted_modes += tilde(i) * psi;
                    }
                }
            }
            Some(SuperElementRotation {
                offset: Vector3::from(offset),
                alternative,
                mode,
                w_inverse,
                arms,
                tilde_weights,
            })
        }
    };
    let orientation = rotation.is_some();
    Ok(ResolvedMarker {
        model: MarkerModel::SuperElement(Box::new(SuperElementMarker {
            frame,
            weights: weights.to_vec(),
            weight_sum,
            reference_positions,
            weighted_reference,
            block_starts: jacobian_blocks.iter().map(|b| b.0).collect(),
            block_weights: jacobian_blocks.iter().map(|b| b.1).collect(),
            jacobian_blocks,
            rotation,
        })),
        columns,
        mass: 0.0,
        provides_position: true,
        provides_orientation: orientation,
        local_rotation: None,
    })
}
