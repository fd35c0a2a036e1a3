//! Joint assembly: a joint object's markers checked against what its definition needs, its
//! parameters checked and turned by the markers' local rotations, its rows selected by
//! `constrainedAxes`, and its kernel chosen (a pairing of marker kinds, or marker level).

use nalgebra::Matrix3;

use super::checks::finite;
use crate::error::{Error, ItemRef, Result};
use crate::items::joints::{Axes, JointKernel, JointObject, JointTopology};
use crate::markers::ResolvedMarker;
use crate::system::MultibodySystem;
use joint_core::{Capability, JointDefinition, MarkerKind};

/// The two markers' indices, if they are not the same marker.
fn distinct(item: &ItemRef, m: [crate::items::MarkerIndex; 2]) -> Result<[usize; 2]> {
    if m[0] == m[1] {
        return Err(Error::item(
            item.clone(),
            "markerNumbers",
            format!(
                "both entries are marker {}; a connector needs two markers",
                m[0].0
            ),
        ));
    }
    Ok([m[0].0, m[1].0])
}

/// Both markers coordinate markers (MarkerNodeCoordinate), and not the same one.
pub(super) fn check_coordinate_markers(
    mbs: &MultibodySystem,
    item: &ItemRef,
    m: [crate::items::MarkerIndex; 2],
    resolved: &[ResolvedMarker],
) -> Result<[usize; 2]> {
    for (k, mk) in m.iter().enumerate() {
        let marker = mbs.marker_checked(item, "markerNumbers", *mk)?;
        if !resolved[mk.0].is_coordinate() {
            return Err(Error::item(
                item.clone(),
                "markerNumbers",
                format!(
                    "marker {} (markerNumbers[{k}]) is a {}; expected a coordinate marker (NodeCoordinate or NodeRotationCoordinate)",
                    mk.0,
                    marker.type_name()
                ),
            ));
        }
    }
    distinct(item, m)
}

/// Both markers with orientation (BodyRigid, NodeRigid, …), and not the same one.
pub(super) fn check_orientation_markers(
    mbs: &MultibodySystem,
    item: &ItemRef,
    m: [crate::items::MarkerIndex; 2],
    resolved: &[ResolvedMarker],
) -> Result<[usize; 2]> {
    let idx = check_position_markers(mbs, item, m, resolved)?;
    for (k, &mi) in idx.iter().enumerate() {
        if !resolved[mi].provides_orientation {
            return Err(Error::item(
                item.clone(),
                "markerNumbers",
                format!(
                    "marker {mi} (markerNumbers[{k}]) is a {}, which gives no orientation; expected BodyRigid or NodeRigid",
                    mbs.markers[mi].type_name()
                ),
            ));
        }
    }
    Ok(idx)
}

pub(super) fn check_position_markers(
    mbs: &MultibodySystem,
    item: &ItemRef,
    m: [crate::items::MarkerIndex; 2],
    resolved: &[ResolvedMarker],
) -> Result<[usize; 2]> {
    for (k, mk) in m.iter().enumerate() {
        let marker = mbs.marker_checked(item, "markerNumbers", *mk)?;
        if !resolved[mk.0].provides_position {
            return Err(Error::item(
                item.clone(),
                "markerNumbers",
                format!(
                    "marker {} (markerNumbers[{k}]) is a {}, which gives no position; expected BodyPosition, BodyRigid, NodePosition, NodeRigid, SuperElementPosition, SuperElementRigid or KinematicTreeRigid",
                    mk.0,
                    marker.type_name()
                ),
            ));
        }
    }
    distinct(item, m)
}

/// A constraint between two ground markers: no generated pairing exists (nothing to
/// constrain).
pub(super) fn both_on_ground(item: &ItemRef, k0: MarkerKind, k1: MarkerKind) -> Error {
    Error::item(
        item.clone(),
        "markerNumbers",
        format!(
            "both markers lie on ground ({} and {}): a joint needs at least one marker with coordinates",
            k0.name(),
            k1.name()
        ),
    )
}

/// `constrainedAxes` as a mask (true = constrained); every entry must be 0 or 1.
pub(super) fn constrained_axes_mask(item: &ItemRef, axes: &[i64]) -> Result<Vec<bool>> {
    axes.iter()
        .enumerate()
        .map(|(k, &a)| match a {
            0 => Ok(false),
            1 => Ok(true),
            other => Err(Error::item(
                item.clone(),
                "constrainedAxes",
                format!("entry {k} is {other}; each entry must be 0 (free) or 1 (constrained)"),
            )),
        })
        .collect()
}

/// A joint object's topology: its markers checked against what its definition needs, its
/// parameters checked and (for Exudyn's rigid joints) turned by the markers' local rotations,
/// its rows selected by `constrainedAxes`, and its kernel: the pairing of its markers' kinds,
/// or the marker-level kernels for markers without a generated kind. `ae` is set by the caller.
pub(super) fn assemble_joint(
    mbs: &MultibodySystem,
    item: &ItemRef,
    object: usize,
    joint: &JointObject,
    markers: &[ResolvedMarker],
) -> Result<JointTopology> {
    let idx = joint_markers(mbs, item, joint, markers)?;
    check_joint_parameters(item, joint)?;
    let kinds = (markers[idx[0]].kind(), markers[idx[1]].kind());
    let (definition, equations) = narrowed(item, joint, joint_equations(item, joint)?, kinds)?;
    let (kernel, parameters) = joint_kernel(item, joint, definition, idx, markers)?;
    let rows_are_kernel_rows =
        JointTopology::equations_are_kernel_rows(&equations, definition.rows());
    Ok(JointTopology {
        object,
        markers: idx,
        definition,
        kernel,
        parameters,
        ae: 0,
        equations,
        active: joint.active,
        rows_are_kernel_rows,
    })
}

/// A joint's two markers against its definition's capabilities (coordinate, position,
/// rigid): their indices.
fn joint_markers(
    mbs: &MultibodySystem,
    item: &ItemRef,
    joint: &JointObject,
    markers: &[ResolvedMarker],
) -> Result<[usize; 2]> {
    let jt = &joint.joint_type;
    let definition = jt.definition;
    let coordinate = |k: usize| definition.markers[k].capability == Capability::Coordinate;
    let idx = if coordinate(0) && coordinate(1) {
        check_coordinate_markers(mbs, item, joint.markers, markers)?
    } else if !coordinate(0) && !coordinate(1) {
        check_position_markers(mbs, item, joint.markers, markers)?
    } else {
        // a user's joint between a coordinate and a position marker
        for k in 0..2 {
            let mk = joint.markers[k];
            let marker = mbs.marker_checked(item, "markerNumbers", mk)?;
            let ok = if coordinate(k) {
                markers[mk.0].is_coordinate()
            } else {
                markers[mk.0].provides_position
            };
            if !ok {
                return Err(Error::item(
                    item.clone(),
                    "markerNumbers",
                    format!(
                        "marker {} (markerNumbers[{k}]) is a {}; {} needs a {} marker there",
                        mk.0,
                        marker.type_name(),
                        jt.type_name,
                        if coordinate(k) {
                            "coordinate (NodeCoordinate)"
                        } else {
                            "position"
                        }
                    ),
                ));
            }
        }
        [joint.markers[0].0, joint.markers[1].0]
    };
    for (k, &mi) in idx.iter().enumerate() {
        let needs = definition.markers[k].capability;
        if needs == Capability::Rigid && !markers[mi].provides_orientation {
            return Err(Error::item(
                item.clone(),
                "markerNumbers",
                format!(
                    "marker {mi} (markerNumbers[{k}]) is a {}, which gives no orientation; a {} needs BodyRigid or NodeRigid markers",
                    mbs.markers[mi].type_name(),
                    jt.type_name
                ),
            ));
        }
    }
    Ok(idx)
}

/// A joint's parameters: their count, finite values, the type's own checks, and its drawing's
/// size.
fn check_joint_parameters(item: &ItemRef, joint: &JointObject) -> Result<()> {
    let jt = &joint.joint_type;
    let definition = jt.definition;
    let expected = definition.parameter_len();
    if joint.parameters.len() != expected {
        let list: Vec<String> = definition
            .parameters
            .iter()
            .map(|p| format!("{} ({})", jt.key_of(p.name).0, p.shape.keyword()))
            .chain(
                definition
                    .states
                    .iter()
                    .map(|s| format!("{} (state, initial value)", s.name)),
            )
            .collect();
        return Err(Error::item(
            item.clone(),
            "parameters",
            format!(
                "{} values given; {} takes {expected}: {}",
                joint.parameters.len(),
                jt.type_name,
                if list.is_empty() {
                    "none".to_owned()
                } else {
                    list.join(", ")
                }
            ),
        ));
    }
    let mut offset = 0;
    for p in definition.parameters {
        let n = p.shape.value_count();
        finite(
            item,
            jt.key_of(p.name).0,
            &joint.parameters[offset..offset + n],
        )?;
        offset += n;
    }
    for s in definition.states {
        finite(item, s.name, &joint.parameters[offset..=offset])?;
        offset += 1;
    }
    if let Some(check) = jt.check {
        check(&joint.parameters)
            .map_err(|(key, message)| Error::item(item.clone(), key, message))?;
    }
    if !joint.visualization.size.is_finite() {
        return Err(Error::item(
            item.clone(),
            jt.size_key,
            "expected a finite size",
        ));
    }
    Ok(())
}

/// Per AE row of a joint, the kernel row that is its equation (`None`: a free row), from its
/// type's axes and the item's `constrainedAxes`.
fn joint_equations(item: &ItemRef, joint: &JointObject) -> Result<Vec<Option<usize>>> {
    let jt = &joint.joint_type;
    let definition = jt.definition;
    Ok(match jt.axes {
        Axes::Fixed => (0..definition.rows()).map(Some).collect(),
        Axes::Mask | Axes::Flags(_) | Axes::Select { .. } => {
            let count = jt.axes_count();
            if joint.constrained_axes.len() != count {
                return Err(Error::item(
                    item.clone(),
                    "constrainedAxes",
                    format!(
                        "{} entries given; {} has {count}",
                        joint.constrained_axes.len(),
                        jt.type_name,
                    ),
                ));
            }
            let mask = constrained_axes_mask(item, &joint.constrained_axes)?;
            match jt.axes {
                Axes::Select { select, .. } => select(&mask),
                _ => mask
                    .iter()
                    .enumerate()
                    .map(|(k, &c)| c.then_some(k))
                    .collect(),
            }
        }
    })
}

/// The definition that evaluates a joint, and its equations in that definition's rows: the
/// type's, or the first of its narrower ones that has every selected row.
fn narrowed(
    item: &ItemRef,
    joint: &JointObject,
    equations: Vec<Option<usize>>,
    kinds: (Option<MarkerKind>, Option<MarkerKind>),
) -> Result<(&'static JointDefinition, Vec<Option<usize>>)> {
    let jt = &joint.joint_type;
    // where the type has an unrolled pairing for these kinds, the narrower one must have it too
    let unrolled = |d: &JointDefinition| match kinds {
        (Some(k0), Some(k1)) => d.pairing(k0, k1).is_some(),
        _ => false,
    };
    if let Axes::Select { narrow, .. } = jt.axes {
        for n in narrow {
            let Some(e) = n.equations(&equations) else {
                continue;
            };
            let wide = jt.definition;
            let d = n.definition;
            let states = |d: &JointDefinition| d.states.iter().map(|s| s.name).collect::<Vec<_>>();
            if d.parameters != wide.parameters || states(d) != states(wide) || d.level != wide.level
            {
                return Err(Error::item(
                    item.clone(),
                    "objectType",
                    format!(
                        "{}'s narrower definition `{}` does not take the parameters and level of `{}`: a joint type's narrow definitions must (the type is wrong, not the model)",
                        jt.type_name, d.name, wide.name
                    ),
                ));
            }
            if unrolled(d) || !unrolled(wide) {
                return Ok((d, e));
            }
        }
    }
    Ok((jt.definition, equations))
}

/// A joint's kernel by its markers' kinds in `definition` (its type's, or a narrower one), and
/// its parameters as the kernel takes them (the markers' local rotations folded into the frame
/// parameters of an unrolled pairing).
fn joint_kernel(
    item: &ItemRef,
    joint: &JointObject,
    definition: &'static JointDefinition,
    idx: [usize; 2],
    markers: &[ResolvedMarker],
) -> Result<(JointKernel, Vec<f64>)> {
    let jt = &joint.joint_type;
    let mut parameters = joint.parameters.clone();
    let kinds = (markers[idx[0]].kind(), markers[idx[1]].kind());
    let local = [
        markers[idx[0]].local_rotation,
        markers[idx[1]].local_rotation,
    ];
    let turned = local.iter().any(Option::is_some);
    // the marker-level kernels see the markers' frames, local rotations included
    let marker_level = turned && jt.frame_parameters.is_none();
    let kernel = match kinds {
        (Some(k0), Some(k1)) if k0.coordinate_count() + k1.coordinate_count() == 0 => {
            return Err(both_on_ground(item, k0, k1));
        }
        (Some(k0), Some(k1)) if !marker_level => match definition.pairing(k0, k1) {
            Some(p) => JointKernel::Pairing(p),
            // kinds the definition has no unrolled pairing for (its default form, or kinds it
            // does not list)
            None => JointKernel::MarkerLevel,
        },
        (Some(_), Some(_)) => JointKernel::MarkerLevel,
        _ if jt.marker_level => JointKernel::MarkerLevel,
        // a rotation coordinate has no kind: the marker-level kernel, which reads a coordinate
        // marker's value and velocity (`MarkerState::quantities`)
        _ if idx.iter().all(|&m| markers[m].is_coordinate()) => JointKernel::MarkerLevel,
        _ => {
            return Err(Error::item(
                item.clone(),
                "markerNumbers",
                format!(
                    "{} supports markers on ground, mass points, rigid bodies and nodes; superelement and kinematic-tree markers are not supported yet",
                    jt.type_name
                ),
            ));
        }
    };
    if let (Some(frames), true, JointKernel::Pairing(_)) = (jt.frame_parameters, turned, kernel) {
        // A marker's localHT rotation R_l turns its joint frame exactly as rotationMarker does:
        // A_J = A_body·R_l·rotationMarker. A pairing takes the body's coordinates, so R_l goes
        // into the frame parameters (the marker level sees the marker's frame A_body·R_l).
        for (k, name) in frames.iter().enumerate() {
            let (at, _) = definition
                .parameter(name)
                .expect("a frame parameter of the type's own definition");
            let r = Matrix3::from_row_slice(&parameters[at..at + 9]);
            let frame = local[k].unwrap_or_else(Matrix3::identity) * r;
            for (i, x) in parameters[at..at + 9].iter_mut().enumerate() {
                *x = frame[(i / 3, i % 3)];
            }
        }
    }
    Ok((kernel, parameters))
}
