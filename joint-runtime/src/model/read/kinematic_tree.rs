//! ObjectKinematicTree: its joint types, offsets, inertias and the link data lists.

use serde_json::Value;

use super::frames::{same_matrix, same_vector, split_ht};
use super::lists::{list_of, matrices_of};
use crate::error::Result;
use crate::items::{NodeIndex, Object};
use crate::model::fields::{Dict, describe};

pub(super) fn read_kinematic_tree(d: &mut Dict, name: String) -> Result<Object> {
    let node = NodeIndex(d.index("nodeNumber")?);
    d.no_user_function("forceUserFunction")?;
    let joint_types = match d.get("jointTypes") {
        None => Vec::new(),
        Some(Value::Array(a)) => {
            let mut out = Vec::with_capacity(a.len());
            for (i, e) in a.iter().enumerate() {
                let t = match e {
                    Value::String(s) => match s.strip_prefix("JointType.").unwrap_or(s) {
                        "RevoluteX" => Some(1),
                        "RevoluteY" => Some(2),
                        "RevoluteZ" => Some(3),
                        "PrismaticX" => Some(4),
                        "PrismaticY" => Some(5),
                        "PrismaticZ" => Some(6),
                        _ => None,
                    },
                    Value::Number(n) => n.as_u64().filter(|u| (1..=6).contains(u)).map(|u| u as u8),
                    _ => None,
                };
                out.push(t.ok_or_else(|| {
                    d.err(
                        "jointTypes",
                        format!(
                            "entry {i}: expected RevoluteX/Y/Z or PrismaticX/Y/Z, found {}",
                            describe(e)
                        ),
                    )
                })?);
            }
            out
        }
        Some(other) => {
            return Err(d.err(
                "jointTypes",
                format!("expected a list of joint types, found {}", describe(other)),
            ));
        }
    };
    let link_parents = match d.get("linkParents") {
        None => Vec::new(),
        Some(Value::Array(a)) => {
            let mut out = Vec::with_capacity(a.len());
            for (i, e) in a.iter().enumerate() {
                out.push(e.as_i64().ok_or_else(|| {
                    d.err(
                        "linkParents",
                        format!(
                            "entry {i}: expected an integer link number (−1 = base), found {}",
                            describe(e)
                        ),
                    )
                })?);
            }
            out
        }
        Some(other) => {
            return Err(d.err(
                "linkParents",
                format!("expected a list of integers, found {}", describe(other)),
            ));
        }
    };
    let mut joint_transformations = matrices_of::<3, 3>(d, "jointTransformations")?;
    let mut joint_offsets = list_of::<3>(d, "jointOffsets")?;
    // jointHTs (Exudyn 1.13): HT(A_i, o_i); consistent with the other two, or defining them.
    let hts = matrices_of::<4, 4>(d, "jointHTs")?;
    if !hts.is_empty() {
        let mut from_ht = Vec::with_capacity(hts.len());
        for ht in &hts {
            from_ht.push(split_ht(d, "jointHTs", ht)?);
        }
        if joint_transformations.is_empty() && joint_offsets.is_empty() {
            joint_transformations = from_ht.iter().map(|(r, _)| *r).collect();
            joint_offsets = from_ht.iter().map(|(_, p)| *p).collect();
        } else {
            let consistent = from_ht.len() == joint_transformations.len()
                && from_ht.len() == joint_offsets.len()
                && from_ht
                    .iter()
                    .zip(joint_transformations.iter().zip(&joint_offsets))
                    .all(|((r, p), (a, o))| same_matrix(r, a) && same_vector(p, o));
            if !consistent {
                return Err(d.err(
                    "jointHTs",
                    "jointHTs and jointTransformations or jointOffsets are given and differ",
                ));
            }
        }
    }
    let parameters = crate::items::KinematicTreeParameters {
        joint_types,
        link_parents,
        joint_transformations,
        joint_offsets,
        link_inertias_com: matrices_of::<3, 3>(d, "linkInertiasCOM")?,
        link_coms: list_of::<3>(d, "linkCOMs")?,
        link_masses: d.opt_dvec("linkMasses")?.unwrap_or_default(),
        link_forces: list_of::<3>(d, "linkForces")?,
        link_torques: list_of::<3>(d, "linkTorques")?,
        joint_force_vector: d.opt_dvec("jointForceVector")?.unwrap_or_default(),
        joint_position_offset_vector: d.opt_dvec("jointPositionOffsetVector")?.unwrap_or_default(),
        joint_velocity_offset_vector: d.opt_dvec("jointVelocityOffsetVector")?.unwrap_or_default(),
        joint_p_control_vector: d.opt_dvec("jointPControlVector")?.unwrap_or_default(),
        joint_d_control_vector: d.opt_dvec("jointDControlVector")?.unwrap_or_default(),
        gravity: d.vec_or("gravity", [0.0; 3])?,
        base_offset: d.vec_or("baseOffset", [0.0; 3])?,
    };
    Ok(Object::KinematicTree {
        name,
        node,
        parameters: Box::new(parameters),
    })
}
