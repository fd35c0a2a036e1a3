//! ObjectConnectorCoordinateVector's keys and defaults (Exudyn's connectors read theirs in
//! their own files of `items/connectors/`).

use super::Dict;
use crate::error::Result;
use crate::items::joints::{CoordinateVectorObject, DynValue};
use crate::items::{MarkerIndex, Object};

/// An ObjectConnectorCoordinateVector from its dictionary.
pub(super) fn read_exudyn_coordinate_vector(d: &mut Dict, name: String) -> Result<Object> {
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
    Ok(Object::CoordinateVector(
        CoordinateVectorObject::exudyn(
            [MarkerIndex(m0), MarkerIndex(m1)],
            scaling,
            quadratic,
            offset,
            velocity_level,
        )
        .named(&name)
        .with_active(d.bool_or("activeConnector", true)?),
    ))
}
