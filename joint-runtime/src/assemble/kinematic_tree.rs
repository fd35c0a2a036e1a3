//! A kinematic tree's data (ObjectKinematicTree), every list checked against its node's
//! coordinates.

use nalgebra::{Matrix3, Vector3};

use super::checks::finite;
use crate::error::{Error, ItemRef, Result};
use crate::tree::KinematicTreeData;

/// The tree's data, with every list checked against the node's `n` coordinates.
pub(super) fn kinematic_tree_data(
    item: &ItemRef,
    p: &crate::items::KinematicTreeParameters,
    n: usize,
) -> Result<KinematicTreeData> {
    let len = |key: &str, got: usize, may_be_empty: bool| -> Result<()> {
        if got == n || (may_be_empty && got == 0) {
            Ok(())
        } else {
            Err(Error::item(
                item.clone(),
                key,
                format!(
                    "expected {n} entries (one per link: the tree's node has {n} coordinates){}, found {got}",
                    if may_be_empty { " or none" } else { "" }
                ),
            ))
        }
    };
    len("jointTypes", p.joint_types.len(), false)?;
    len("linkParents", p.link_parents.len(), false)?;
    len("jointTransformations", p.joint_transformations.len(), false)?;
    len("jointOffsets", p.joint_offsets.len(), false)?;
    len("linkInertiasCOM", p.link_inertias_com.len(), false)?;
    len("linkCOMs", p.link_coms.len(), false)?;
    len("linkMasses", p.link_masses.len(), false)?;
    len("linkForces", p.link_forces.len(), true)?;
    len("linkTorques", p.link_torques.len(), true)?;
    len("jointForceVector", p.joint_force_vector.len(), true)?;
    len(
        "jointPositionOffsetVector",
        p.joint_position_offset_vector.len(),
        true,
    )?;
    len(
        "jointVelocityOffsetVector",
        p.joint_velocity_offset_vector.len(),
        true,
    )?;
    len("jointPControlVector", p.joint_p_control_vector.len(), true)?;
    len("jointDControlVector", p.joint_d_control_vector.len(), true)?;
    if p.joint_position_offset_vector.len() != p.joint_p_control_vector.len() {
        return Err(Error::item(
            item.clone(),
            "jointPControlVector",
            "jointPositionOffsetVector and jointPControlVector must have the same length",
        ));
    }
    if p.joint_velocity_offset_vector.len() != p.joint_d_control_vector.len() {
        return Err(Error::item(
            item.clone(),
            "jointDControlVector",
            "jointVelocityOffsetVector and jointDControlVector must have the same length",
        ));
    }
    for (i, t) in p.joint_types.iter().enumerate() {
        if !(1..=6).contains(t) {
            return Err(Error::item(
                item.clone(),
                "jointTypes",
                format!("entry {i}: joint type {t} is not RevoluteX/Y/Z or PrismaticX/Y/Z"),
            ));
        }
    }
    let mut parents = Vec::with_capacity(n);
    for (i, &pi) in p.link_parents.iter().enumerate() {
        if pi < -1 || pi >= i as i64 {
            return Err(Error::item(
                item.clone(),
                "linkParents",
                format!(
                    "entry {i} is {pi}; a link's parent must be −1 (the base) or an earlier link (< {i})"
                ),
            ));
        }
        parents.push(pi as isize);
    }
    for (i, m) in p.link_masses.iter().enumerate() {
        if !m.is_finite() || *m < 0.0 {
            return Err(Error::item(
                item.clone(),
                "linkMasses",
                format!("entry {i}: the mass must be finite and ≥ 0, found {m}"),
            ));
        }
    }
    let matrices = |v: &[[[f64; 3]; 3]]| -> Vec<f64> {
        v.iter().flat_map(|m| m.as_flattened().to_vec()).collect()
    };
    finite(
        item,
        "jointTransformations",
        &matrices(&p.joint_transformations),
    )?;
    finite(item, "jointOffsets", p.joint_offsets.as_flattened())?;
    finite(item, "linkInertiasCOM", &matrices(&p.link_inertias_com))?;
    finite(item, "linkCOMs", p.link_coms.as_flattened())?;
    finite(item, "linkForces", p.link_forces.as_flattened())?;
    finite(item, "linkTorques", p.link_torques.as_flattened())?;
    for (key, v) in [
        ("jointForceVector", &p.joint_force_vector),
        ("jointPositionOffsetVector", &p.joint_position_offset_vector),
        ("jointVelocityOffsetVector", &p.joint_velocity_offset_vector),
        ("jointPControlVector", &p.joint_p_control_vector),
        ("jointDControlVector", &p.joint_d_control_vector),
    ] {
        finite(item, key, v)?;
    }
    finite(item, "gravity", &p.gravity)?;
    finite(item, "baseOffset", &p.base_offset)?;
    Ok(KinematicTreeData {
        joint_types: p.joint_types.clone(),
        parents,
        transformations: p.joint_transformations.clone(),
        offsets: p.joint_offsets.clone(),
        inertias_com: p
            .link_inertias_com
            .iter()
            .map(|m| Matrix3::from_row_slice(m.as_flattened()))
            .collect(),
        coms: p.link_coms.iter().map(|c| Vector3::from(*c)).collect(),
        masses: p.link_masses.clone(),
        link_forces: p.link_forces.iter().map(|c| Vector3::from(*c)).collect(),
        link_torques: p.link_torques.iter().map(|c| Vector3::from(*c)).collect(),
        joint_forces: p.joint_force_vector.clone(),
        position_offsets: p.joint_position_offset_vector.clone(),
        p_control: p.joint_p_control_vector.clone(),
        velocity_offsets: p.joint_velocity_offset_vector.clone(),
        d_control: p.joint_d_control_vector.clone(),
        gravity: Vector3::from(p.gravity),
        base_offset: p.base_offset,
    })
}
