//! Superelement markers (MarkerSuperElementPosition, MarkerSuperElementRigid): the weighted
//! mesh nodes of a GenericODE2 or FFRFreducedOrder object, checked, with the constant parts of
//! their kinematics precomputed.

use nalgebra::{DMatrix, Matrix3, Vector3};

use super::{MarkerResolver, finite};
use crate::assemble::BodyTopology;
use crate::error::{Error, ItemRef, Result};
use crate::items::{Node, NodeIndex, Object, ObjectIndex};
use crate::markers::rotation_vector::skew;
use crate::markers::super_element::{SuperElementFrame, SuperElementMarker, SuperElementRotation};
use crate::markers::{MarkerModel, ResolvedMarker};

/// MarkerSuperElementRigid's own keys: offset, useAlternativeApproach,
/// rotationsExponentialMap.
type RigidKeys = ([f64; 3], bool, i64);

/// The marked mesh nodes' frame, Jacobian columns, Jacobian blocks (first column, weight) and
/// reference positions.
struct MeshNodes {
    frame: SuperElementFrame,
    columns: Vec<usize>,
    jacobian_blocks: Vec<(usize, f64)>,
    reference_positions: Vec<Vector3<f64>>,
}

impl MarkerResolver<'_> {
    /// MarkerSuperElementRigid: its own keys checked, then the weighted mesh nodes.
    pub(super) fn super_element_rigid(
        &self,
        item: &ItemRef,
        body: ObjectIndex,
        mesh_nodes: &[usize],
        weights: &[f64],
        rigid: RigidKeys,
    ) -> Result<ResolvedMarker> {
        finite(item, "offset", &rigid.0)?;
        let mode = rigid.2;
        if !(0..=2).contains(&mode) {
            return Err(Error::item(
                item.clone(),
                "rotationsExponentialMap",
                format!(
                    "{mode} is not supported; 0 (I + θ̃), 1 (ExpSO3) and 2 (ExpSO3 with its tangent operator, the default) are"
                ),
            ));
        }
        self.super_element(item, body, mesh_nodes, weights, Some(rigid))
    }

    /// A superelement marker: the weighted mesh nodes of a GenericODE2 or FFRFreducedOrder
    /// object, with the constant parts of its kinematics precomputed (and its rotation's, for
    /// MarkerSuperElementRigid's `rigid` keys).
    pub(super) fn super_element(
        &self,
        item: &ItemRef,
        body: ObjectIndex,
        mesh_nodes: &[usize],
        weights: &[f64],
        rigid: Option<RigidKeys>,
    ) -> Result<ResolvedMarker> {
        let object = self.mbs.object_checked(item, "bodyNumber", body)?;
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
        let MeshNodes {
            mut frame,
            columns,
            jacobian_blocks,
            reference_positions,
        } = match object {
            Object::GenericODE2 { nodes, .. } => {
                self.generic_ode2_nodes(item, body, nodes, mesh_nodes, weights, rigid.is_some())?
            }
            Object::FFRFreducedOrder { parameters, .. } => {
                let n_mesh = parameters.reference_positions.len() / 3;
                let mut reference_positions = Vec::with_capacity(mesh_nodes.len());
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
                self.ffrf_nodes(body, mode_rows, weights, reference_positions)
            }
            _ => unreachable!("checked is_super_element"),
        };
        let weighted_reference: Vector3<f64> = reference_positions
            .iter()
            .zip(weights)
            .map(|(x, w)| *w * x)
            .sum();
        let rotation = match rigid {
            None => None,
            Some(keys) => Some(rotation(
                item,
                keys,
                weights,
                &reference_positions,
                weighted_reference,
                &jacobian_blocks,
                &mut frame,
            )?),
        };
        let orientation = rotation.is_some();
        Ok(ResolvedMarker {
            model: MarkerModel::SuperElement(Box::new(SuperElementMarker {
                frame,
                weights: weights.to_vec(),
                weight_sum: weights.iter().sum(),
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

    /// The marked nodes of a GenericODE2 object: Point nodes, each a Jacobian block.
    fn generic_ode2_nodes(
        &self,
        item: &ItemRef,
        body: ObjectIndex,
        nodes: &[NodeIndex],
        mesh_nodes: &[usize],
        weights: &[f64],
        rigid: bool,
    ) -> Result<MeshNodes> {
        let mut starts = Vec::with_capacity(mesh_nodes.len());
        let mut reference_positions = Vec::with_capacity(mesh_nodes.len());
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
            let node = &self.mbs.nodes[n.0];
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
            starts.push(self.node_ode2[n.0]);
        }
        if rigid
            && nodes
                .iter()
                .any(|n| !matches!(self.mbs.nodes[n.0], Node::Point { .. }))
        {
            return Err(Error::item(
                item.clone(),
                "bodyNumber",
                "MarkerSuperElementRigid on a GenericODE2 needs all of its nodes to be Point nodes",
            ));
        }
        // Jacobian column blocks: unique nodes in first-appearance order, each with the last
        // weight given for it (Exudyn writes, not adds, repeated nodes' blocks).
        let mut blocks: Vec<(usize, f64)> = Vec::new();
        for (s, w) in starts.iter().zip(weights) {
            match blocks.iter_mut().find(|(b, _)| b == s) {
                Some(b) => b.1 = *w,
                None => blocks.push((*s, *w)),
            }
        }
        Ok(MeshNodes {
            frame: SuperElementFrame::None {
                node_starts: starts,
            },
            columns: blocks.iter().flat_map(|(s, _)| *s..*s + 3).collect(),
            jacobian_blocks: blocks,
            reference_positions,
        })
    }

    /// The marked nodes of an FFRFreducedOrder object: the frame's and all modal columns,
    /// with the weighted mode rows.
    fn ffrf_nodes(
        &self,
        body: ObjectIndex,
        mode_rows: Vec<DMatrix<f64>>,
        weights: &[f64],
        reference_positions: Vec<Vector3<f64>>,
    ) -> MeshNodes {
        let BodyTopology::Ffrf {
            frame, modal, data, ..
        } = self.body_of(body.0)
        else {
            unreachable!("FFRF objects are FFRF bodies")
        };
        let n_modes = data.modes();
        let mut weighted_modes = DMatrix::zeros(3, n_modes);
        for (psi, w) in mode_rows.iter().zip(weights) {
            weighted_modes += psi * *w;
        }
        let weighted_modes_row_major = (0..3)
            .flat_map(|r| (0..n_modes).map(move |c| (r, c)))
            .map(|(r, c)| weighted_modes[(r, c)])
            .collect();
        MeshNodes {
            frame: SuperElementFrame::Ffrf {
                frame: *frame,
                modal: *modal,
                mode_rows,
                weighted_modes,
                weighted_modes_row_major,
                tilde_weighted_modes: DMatrix::zeros(3, n_modes),
            },
            columns: (*frame..*frame + 7)
                .chain(*modal..*modal + n_modes)
                .collect(),
            jacobian_blocks: Vec::new(),
            reference_positions,
        }
    }
}

/// MarkerSuperElementRigid's rotation: the arms from the weighted reference, W⁻¹ (Exudyn's
/// alternative approach) or 1/Σ w |P|², and the weighted skew arms written into `frame`'s
/// blocks.
fn rotation(
    item: &ItemRef,
    (offset, alternative, mode): RigidKeys,
    weights: &[f64],
    reference_positions: &[Vector3<f64>],
    weighted_reference: Vector3<f64>,
    jacobian_blocks: &[(usize, f64)],
    frame: &mut SuperElementFrame,
) -> Result<SuperElementRotation> {
    let arms: Vec<Vector3<f64>> = reference_positions
        .iter()
        .map(|x| x - weighted_reference)
        .collect();
    let w_inverse = if alternative {
        let mut w = Matrix3::zeros();
        for (p, wi) in arms.iter().zip(weights) {
            let t = skew(p);
            w -= (t * t) * *wi;
        }
        w.try_inverse()
            .filter(|m| m.iter().all(|x| x.is_finite()))
            .ok_or_else(|| {
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
    let tilde = |i: usize| skew(&arms[i]) * weights[i];
    let mut tilde_weights = Vec::new();
    match frame {
        SuperElementFrame::None { node_starts } => {
            for (s, _) in jacobian_blocks {
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
    Ok(SuperElementRotation {
        offset: Vector3::from(offset),
        alternative,
        mode,
        w_inverse,
        arms,
        tilde_weights,
    })
}
