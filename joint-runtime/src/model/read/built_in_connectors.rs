//! Exudyn's built-in force connectors and ObjectConnectorCoordinateVector: their keys and
//! defaults (the connector families read theirs in `connectors.rs`).

use super::Dict;
use super::frames::IDENTITY3;
use crate::error::Result;
use crate::items::joints::{CoordinateVectorObject, DynValue};
use crate::items::{MarkerIndex, Object};

/// Object type `t` (one of the built-in connectors) from its dictionary.
pub(super) fn read_built_in_connector(t: &str, d: &mut Dict, name: String) -> Result<Object> {
    Ok(match t {
        "ConnectorSpringDamper" => {
            let [m0, m1] = d.indices::<2>("markerNumbers")?;
            d.no_user_function("springForceUserFunction")?;
            Object::ConnectorSpringDamper {
                name,
                markers: [MarkerIndex(m0), MarkerIndex(m1)],
                reference_length: d.f64_or("referenceLength", 0.0)?,
                stiffness: d.f64_or("stiffness", 0.0)?,
                damping: d.f64_or("damping", 0.0)?,
                force: d.f64_or("force", 0.0)?,
                velocity_offset: d.f64_or("velocityOffset", 0.0)?,
                active: d.bool_or("activeConnector", true)?,
            }
        }
        "ConnectorCartesianSpringDamper" => {
            let [m0, m1] = d.indices::<2>("markerNumbers")?;
            d.no_user_function("springForceUserFunction")?;
            Object::ConnectorCartesianSpringDamper {
                name,
                markers: [MarkerIndex(m0), MarkerIndex(m1)],
                stiffness: d.vec_or("stiffness", [0.0; 3])?,
                damping: d.vec_or("damping", [0.0; 3])?,
                offset: d.vec_or("offset", [0.0; 3])?,
                active: d.bool_or("activeConnector", true)?,
            }
        }
        "ConnectorCoordinateVector" => {
            let [m0, m1] = d.indices::<2>("markerNumbers")?;
            d.no_user_function("constraintUserFunction")?;
            d.no_user_function("jacobianUserFunction")?;
            let matrix = |d: &mut crate::model::fields::Dict, key: &'static str| {
                Ok::<_, crate::error::Error>(match d.opt_dmatrix(key)? {
                    Some(m) => DynValue {
                        rows: m.nrows(),
                        columns: m.ncols(),
                        // row-major
                        values: m.transpose().as_slice().to_vec(),
                    },
                    None => DynValue::default(),
                })
            };
            let scaling = [matrix(d, "scalingMarker0")?, matrix(d, "scalingMarker1")?];
            let quadratic = [
                matrix(d, "quadraticTermMarker0")?,
                matrix(d, "quadraticTermMarker1")?,
            ];
            let offset = DynValue::vector(&d.opt_dvec("offset")?.unwrap_or_default());
            let velocity_level = d.bool_or("velocityLevel", false)?;
            Object::CoordinateVector(
                CoordinateVectorObject::exudyn(
                    [MarkerIndex(m0), MarkerIndex(m1)],
                    scaling,
                    quadratic,
                    offset,
                    velocity_level,
                )
                .named(&name)
                .with_active(d.bool_or("activeConnector", true)?),
            )
        }
        "ConnectorLinearSpringDamper" => {
            let [m0, m1] = d.indices::<2>("markerNumbers")?;
            d.no_user_function("springForceUserFunction")?;
            Object::ConnectorLinearSpringDamper {
                name,
                markers: [MarkerIndex(m0), MarkerIndex(m1)],
                stiffness: d.f64_or("stiffness", 0.0)?,
                damping: d.f64_or("damping", 0.0)?,
                axis_marker0: d.vec_or("axisMarker0", [1.0, 0.0, 0.0])?,
                offset: d.f64_or("offset", 0.0)?,
                velocity_offset: d.f64_or("velocityOffset", 0.0)?,
                force: d.f64_or("force", 0.0)?,
                active: d.bool_or("activeConnector", true)?,
            }
        }
        "ConnectorRigidBodySpringDamper" => {
            let [m0, m1] = d.indices::<2>("markerNumbers")?;
            d.no_user_function("springForceTorqueUserFunction")?;
            d.no_user_function("postNewtonStepUserFunction")?;
            // the NodeGenericData of the post-Newton user function, which cannot travel in a
            // file: Exudyn does not use it without one
            d.opt_f64("nodeNumber")?;
            let intrinsic = match (
                d.opt_bool("useIntrinsicFormulation")?,
                d.opt_bool("intrinsicFormulation")?,
            ) {
                (Some(a), Some(b)) if a != b => {
                    return Err(d.err(
                        "intrinsicFormulation",
                        format!(
                            "the deprecated name of useIntrinsicFormulation, given as {b} where useIntrinsicFormulation is {a}"
                        ),
                    ));
                }
                (a, b) => a.or(b).unwrap_or(false),
            };
            Object::ConnectorRigidBodySpringDamper {
                name,
                markers: [MarkerIndex(m0), MarkerIndex(m1)],
                stiffness: Box::new(d.opt_matrix::<6, 6>("stiffness")?.unwrap_or([[0.0; 6]; 6])),
                damping: Box::new(d.opt_matrix::<6, 6>("damping")?.unwrap_or([[0.0; 6]; 6])),
                rotation_marker0: d
                    .opt_matrix::<3, 3>("rotationMarker0")?
                    .unwrap_or(IDENTITY3),
                rotation_marker1: d
                    .opt_matrix::<3, 3>("rotationMarker1")?
                    .unwrap_or(IDENTITY3),
                offset: d.vec_or("offset", [0.0; 6])?,
                intrinsic,
                active: d.bool_or("activeConnector", true)?,
            }
        }
        "ConnectorGravity" => {
            let [m0, m1] = d.indices::<2>("markerNumbers")?;
            Object::ConnectorGravity {
                name,
                markers: [MarkerIndex(m0), MarkerIndex(m1)],
                gravitational_constant: d.f64_or("gravitationalConstant", 6.67430e-11)?,
                mass0: d.f64_or("mass0", 0.0)?,
                mass1: d.f64_or("mass1", 0.0)?,
                min_distance_regularization: d.f64_or("minDistanceRegularization", 0.0)?,
                active: d.bool_or("activeConnector", true)?,
            }
        }
        _ => unreachable!("a built-in connector's type"),
    })
}
