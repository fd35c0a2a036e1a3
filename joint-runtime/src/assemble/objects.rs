//! The constraint and connector objects, in object order: joints get their AE coordinates,
//! connectors their markers and parameters checked.

use super::checks::finite;
use super::joints::{
    assemble_joint, check_coordinate_markers, check_orientation_markers, check_position_markers,
};
use super::{ConnectorKind, ConnectorTopology};
use crate::error::{Error, ItemRef, Result};
use crate::items::Object;
use crate::items::joints::{
    CoordinateVectorObject, CoordinateVectorTopology, JointTopology, with_views,
};
use crate::markers::{MarkerModel, ResolvedMarker};
use crate::system::MultibodySystem;
use joint_core::Capability;
use nalgebra::Matrix3;

/// The joints and coordinate-vector joints (with their AE coordinates appended to `ae_owner`,
/// in object order) and the connectors.
pub(super) fn joints_and_connectors(
    mbs: &MultibodySystem,
    markers: &[ResolvedMarker],
    node_data: &[usize],
    ae_owner: &mut Vec<ItemRef>,
) -> Result<(
    Vec<JointTopology>,
    Vec<ConnectorTopology>,
    Vec<CoordinateVectorTopology>,
)> {
    let mut joints = Vec::new();
    let mut coordinate_vectors = Vec::new();
    let mut connectors = Vec::new();
    for (i, object) in mbs.objects.iter().enumerate() {
        let item = mbs.object_ref(i);
        match object {
            Object::Joint(joint) => {
                let mut topology = assemble_joint(mbs, &item, i, joint, markers)?;
                topology.ae = ae_owner.len();
                for _ in 0..topology.rows() {
                    ae_owner.push(item.clone());
                }
                joints.push(topology);
            }
            Object::ConnectorSpringDamper {
                markers: m,
                reference_length,
                stiffness,
                damping,
                force,
                velocity_offset,
                active,
                ..
            } => {
                let idx = check_position_markers(mbs, &item, *m, markers)?;
                for (key, v) in [
                    ("referenceLength", reference_length),
                    ("stiffness", stiffness),
                    ("damping", damping),
                    ("force", force),
                    ("velocityOffset", velocity_offset),
                ] {
                    finite(&item, key, &[*v])?;
                }
                connectors.push(ConnectorTopology {
                    object: i,
                    markers: idx,
                    kind: ConnectorKind::SpringDamper {
                        reference_length: *reference_length,
                        stiffness: *stiffness,
                        damping: *damping,
                        force: *force,
                        velocity_offset: *velocity_offset,
                    },
                    active: *active,
                    analytic_jacobian: analytic_connector_jacobian(idx, markers),
                    derived_jacobian: false,
                });
            }
            Object::ConnectorCartesianSpringDamper {
                markers: m,
                stiffness,
                damping,
                offset,
                active,
                ..
            } => {
                let idx = check_position_markers(mbs, &item, *m, markers)?;
                finite(&item, "stiffness", stiffness)?;
                finite(&item, "damping", damping)?;
                finite(&item, "offset", offset)?;
                connectors.push(ConnectorTopology {
                    object: i,
                    markers: idx,
                    kind: ConnectorKind::CartesianSpringDamper {
                        stiffness: *stiffness,
                        damping: *damping,
                        offset: *offset,
                    },
                    active: *active,
                    analytic_jacobian: analytic_connector_jacobian(idx, markers),
                    derived_jacobian: false,
                });
            }
            Object::ConnectorLinearSpringDamper {
                markers: m,
                stiffness,
                damping,
                axis_marker0,
                offset,
                velocity_offset,
                force,
                active,
                ..
            } => {
                let idx = check_orientation_markers(mbs, &item, *m, markers)?;
                for (key, v) in [
                    ("stiffness", stiffness),
                    ("damping", damping),
                    ("offset", offset),
                    ("velocityOffset", velocity_offset),
                    ("force", force),
                ] {
                    finite(&item, key, &[*v])?;
                }
                finite(&item, "axisMarker0", axis_marker0)?;
                connectors.push(ConnectorTopology {
                    object: i,
                    markers: idx,
                    kind: ConnectorKind::LinearSpringDamper {
                        stiffness: *stiffness,
                        damping: *damping,
                        axis: *axis_marker0,
                        offset: *offset,
                        velocity_offset: *velocity_offset,
                        force: *force,
                    },
                    active: *active,
                    // Exudyn has no analytic Jacobian for it: object-wise forward differences
                    analytic_jacobian: false,
                    // its force definition's derivatives, which the fast path takes instead
                    derived_jacobian: analytic_connector_jacobian(idx, markers),
                });
            }
            Object::ConnectorRigidBodySpringDamper {
                markers: m,
                stiffness,
                damping,
                rotation_marker0,
                rotation_marker1,
                offset,
                intrinsic,
                active,
                ..
            } => {
                let idx = check_orientation_markers(mbs, &item, *m, markers)?;
                finite(&item, "stiffness", stiffness.as_flattened())?;
                finite(&item, "damping", damping.as_flattened())?;
                finite(&item, "offset", offset)?;
                finite(&item, "rotationMarker0", rotation_marker0.as_flattened())?;
                finite(&item, "rotationMarker1", rotation_marker1.as_flattened())?;
                connectors.push(ConnectorTopology {
                    object: i,
                    markers: idx,
                    kind: ConnectorKind::RigidBodySpringDamper {
                        stiffness: Box::new(nalgebra::Matrix6::from_row_slice(
                            stiffness.as_flattened(),
                        )),
                        damping: Box::new(nalgebra::Matrix6::from_row_slice(
                            damping.as_flattened(),
                        )),
                        offset: nalgebra::Vector6::from_row_slice(offset),
                        rotation0: Matrix3::from_row_slice(rotation_marker0.as_flattened()),
                        rotation1: Matrix3::from_row_slice(rotation_marker1.as_flattened()),
                        intrinsic: *intrinsic,
                    },
                    active: *active,
                    // Exudyn differentiates the default formulation analytically (here: its
                    // force definition's derivatives, kernels::RigidBodySpringDamper) where
                    // every marker provides the Jacobian's derivative, the intrinsic one by
                    // object-wise forward differences
                    analytic_jacobian: !*intrinsic && analytic_connector_jacobian(idx, markers),
                    derived_jacobian: false,
                });
            }
            Object::CoordinateVector(c) => {
                let mut topology = assemble_coordinate_vector(mbs, &item, i, c, markers)?;
                topology.ae = ae_owner.len();
                for _ in 0..topology.rows {
                    ae_owner.push(item.clone());
                }
                coordinate_vectors.push(topology);
            }
            Object::Force(force) => {
                let definition = force.definition;
                let between_coordinates = definition
                    .markers
                    .iter()
                    .all(|m| m.capability == Capability::Coordinate);
                let idx = if between_coordinates {
                    check_coordinate_markers(mbs, &item, force.markers, markers)?
                } else {
                    check_position_markers(mbs, &item, force.markers, markers)?
                };
                for (k, (&mi, decl)) in idx.iter().zip(&definition.markers).enumerate() {
                    if decl.capability == Capability::Rigid && !markers[mi].provides_orientation {
                        return Err(crate::error::Error::item(
                            item.clone(),
                            "markerNumbers",
                            format!(
                                "marker {mi} (markerNumbers[{k}]) is a {}, which gives no orientation; {}'s marker {} is Rigid: expected BodyRigid or NodeRigid",
                                mbs.markers[mi].type_name(),
                                definition.name,
                                decl.name
                            ),
                        ));
                    }
                }
                if force.parameters.len() != definition.parameter_len() {
                    return Err(crate::error::Error::item(
                        item.clone(),
                        "parameters",
                        format!(
                            "{} takes {} parameter values, found {}",
                            definition.name,
                            definition.parameter_len(),
                            force.parameters.len()
                        ),
                    ));
                }
                let mut offset = 0;
                for p in definition.parameters {
                    let n = p.shape.value_count();
                    finite(&item, p.name, &force.parameters[offset..offset + n])?;
                    offset += n;
                }
                for s in definition.states {
                    finite(&item, s.name, &force.parameters[offset..=offset])?;
                    offset += 1;
                }
                connectors.push(ConnectorTopology {
                    object: i,
                    markers: idx,
                    kind: ConnectorKind::Defined {
                        definition,
                        parameters: force.parameters.clone().into_boxed_slice(),
                    },
                    active: force.active,
                    // as Exudyn's connectors: a marker without the Jacobian's derivative
                    // (superelement, kinematic tree, rotation coordinate) takes differences
                    analytic_jacobian: analytic_connector_jacobian(idx, markers)
                        && !idx.iter().any(|&m| markers[m].is_rotation_coordinate()),
                    derived_jacobian: false,
                });
            }
            Object::ConnectorGravity {
                markers: m,
                gravitational_constant,
                mass0,
                mass1,
                min_distance_regularization,
                active,
                ..
            } => {
                let idx = check_position_markers(mbs, &item, *m, markers)?;
                for (key, v) in [
                    ("gravitationalConstant", gravitational_constant),
                    ("mass0", mass0),
                    ("mass1", mass1),
                    ("minDistanceRegularization", min_distance_regularization),
                ] {
                    finite(&item, key, &[*v])?;
                }
                for (key, v) in [
                    ("mass0", mass0),
                    ("mass1", mass1),
                    ("minDistanceRegularization", min_distance_regularization),
                ] {
                    if *v < 0.0 {
                        return Err(crate::error::Error::item(
                            item.clone(),
                            key,
                            format!("must not be negative, found {v}"),
                        ));
                    }
                }
                connectors.push(ConnectorTopology {
                    object: i,
                    markers: idx,
                    kind: ConnectorKind::Gravity {
                        factor: gravitational_constant * (mass0 * mass1),
                        min_distance: *min_distance_regularization,
                    },
                    active: *active,
                    // Exudyn has no analytic Jacobian for it: object-wise forward differences;
                    // the fast path takes its definition's derivatives
                    analytic_jacobian: false,
                    derived_jacobian: analytic_connector_jacobian(idx, markers),
                });
            }
            Object::Connector(c) => {
                connectors.push(super::connector_families::assemble_family(
                    mbs, &item, i, c, markers, node_data,
                )?);
            }
            _ => {}
        }
    }
    Ok((joints, connectors, coordinate_vectors))
}

/// Exudyn's rule for a connector's ODE2 Jacobian: analytic if every marker provides the
/// Jacobian derivative (the built-in body and node markers), numerical otherwise.
pub(super) fn analytic_connector_jacobian(
    markers: [usize; 2],
    resolved: &[ResolvedMarker],
) -> bool {
    markers
        .iter()
        .all(|&m| matches!(resolved[m].model, MarkerModel::Kind { .. }))
}

/// A coordinate-vector joint: two coordinate-vector markers, its parameters' count, values and
/// shapes against the markers' coordinates, and its row count.
fn assemble_coordinate_vector(
    mbs: &MultibodySystem,
    item: &ItemRef,
    object: usize,
    c: &CoordinateVectorObject,
    markers: &[ResolvedMarker],
) -> Result<CoordinateVectorTopology> {
    for (k, mk) in c.markers.iter().enumerate() {
        let marker = mbs.marker_checked(item, "markerNumbers", *mk)?;
        if !markers[mk.0].is_coordinate_vector() {
            return Err(Error::item(
                item.clone(),
                "markerNumbers",
                format!(
                    "marker {} (markerNumbers[{k}]) is a {}; expected a coordinate-vector marker (NodeCoordinates or ObjectODE2Coordinates)",
                    mk.0,
                    marker.type_name()
                ),
            ));
        }
    }
    let definition = c.definition;
    if c.parameters.len() != definition.parameters.len()
        || c.parameters.len() > crate::items::joints::MAX_DYN_PARAMETERS
    {
        return Err(Error::item(
            item.clone(),
            "parameters",
            format!(
                "{} takes {} parameters, found {}",
                definition.name,
                definition.parameters.len(),
                c.parameters.len()
            ),
        ));
    }
    for (i, p) in c.parameters.iter().enumerate() {
        if p.rows.checked_mul(p.columns) != Some(p.values.len()) {
            return Err(Error::item(
                item.clone(),
                c.key_of(i),
                format!(
                    "{} × {} needs {} values, found {}",
                    p.rows,
                    p.columns,
                    p.rows.saturating_mul(p.columns),
                    p.values.len()
                ),
            ));
        }
        finite(item, c.key_of(i), &p.values)?;
    }
    let idx = [c.markers[0].0, c.markers[1].0];
    let (n0, n1) = (markers[idx[0]].columns.len(), markers[idx[1]].columns.len());
    let rows = with_views(&c.parameters, |p| (definition.rows)(p, n0, n1)).map_err(|e| {
        let markers = format!("the markers have {n0} and {n1} coordinates");
        match e {
            joint_core::DynSizeError::Shape {
                parameter,
                expected,
                found,
            } => {
                let key = definition
                    .parameter(parameter)
                    .map_or("parameters", |(i, _)| c.key_of(i));
                Error::item(
                    item.clone(),
                    key,
                    format!("{} × {}, expected {expected} ({markers})", found.0, found.1),
                )
            }
            other => Error::item(item.clone(), "parameters", format!("{other} ({markers})")),
        }
    })?;
    if n0 == 0 && n1 == 0 {
        return Err(Error::item(
            item.clone(),
            "markerNumbers",
            "both markers have no coordinates (ground): there is nothing to constrain",
        ));
    }
    Ok(CoordinateVectorTopology {
        object,
        markers: idx,
        definition,
        parameters: c.parameters.clone(),
        ae: 0,
        rows,
        active: c.active,
    })
}
