//! Objects of registered definitions other than joints: force elements (`pub force Name
//! { … }`) and coordinate-vector joints (`Coordinates` markers), each of the definition's
//! parameters by its own name (required), `activeConnector`, the visualization.

use serde_json::Value;

use crate::error::{ItemRef, Result};
use crate::items::joints::ForceObject;
use crate::items::{MarkerIndex, Object};
use crate::model::fields::{Dict, Owner};
use joint_core::{CoordinateVectorDefinition, DynShape, ForceDefinition, ParameterShape};

use crate::items::joints::{CoordinateVectorObject, DynValue};

/// A force element item of `definition`.
/// The dictionary of object `index` of a registered definition named `type_name`, with its
/// type and visualization keys taken.
fn open_registered<'a>(index: usize, value: &'a Value, type_name: &str) -> Result<Dict<'a>> {
    let map = value
        .as_object()
        .expect("an object dictionary: its type was read");
    let item = ItemRef {
        list: "objects",
        index,
        type_name: type_name.to_owned(),
    };
    let mut d = Dict::new(Owner::Item(item), map);
    d.get("objectType");
    d.accept_visualization();
    if map.contains_key("VgraphicsDataUserFunction") {
        d.no_user_function("VgraphicsDataUserFunction")?;
    }
    Ok(d)
}

/// A coordinate-vector joint item of `definition`.
pub(super) fn read_coordinate_vector(
    index: usize,
    value: &Value,
    definition: &'static CoordinateVectorDefinition,
) -> Result<Object> {
    let mut d = open_registered(index, value, definition.name)?;
    let name = d.name()?;
    let [m0, m1] = d.indices::<2>("markerNumbers")?;
    let mut parameters = Vec::with_capacity(definition.parameters.len());
    for p in definition.parameters {
        let key = p.name;
        let value = match p.shape {
            DynShape::Scalar => d.opt_f64(key)?.map(DynValue::scalar),
            DynShape::Vector => d.opt_dvec(key)?.map(|v| DynValue::vector(&v)),
            DynShape::Matrix => d.opt_dmatrix(key)?.map(|m| DynValue {
                rows: m.nrows(),
                columns: m.ncols(),
                values: m.transpose().as_slice().to_vec(),
            }),
        };
        let Some(value) = value else {
            return Err(d.err(
                key,
                format!(
                    "required ({}) and missing",
                    match p.shape {
                        DynShape::Scalar => "a number",
                        DynShape::Vector => "a list of numbers, one per row ([] for none)",
                        DynShape::Matrix => "a matrix as a list of rows ([] for none)",
                    }
                ),
            ));
        };
        parameters.push(value);
    }
    let mut object = CoordinateVectorObject::of_definition(
        definition,
        [MarkerIndex(m0), MarkerIndex(m1)],
        parameters,
    )
    .named(&name);
    object.active = d.bool_or("activeConnector", true)?;
    d.finish()?;
    Ok(Object::CoordinateVector(object))
}

pub(super) fn read_force(
    index: usize,
    value: &Value,
    definition: &'static ForceDefinition,
) -> Result<Object> {
    let mut d = open_registered(index, value, definition.name)?;
    let name = d.name()?;
    let [m0, m1] = d.indices::<2>("markerNumbers")?;
    let mut parameters = Vec::with_capacity(definition.parameter_len());
    for p in definition.parameters {
        let key = p.name;
        let value: Option<Vec<f64>> = match p.shape {
            ParameterShape::Scalar => d.opt_f64(key)?.map(|x| vec![x]),
            ParameterShape::Vector => d.opt_vec::<3>(key)?.map(|v| v.to_vec()),
            ParameterShape::Matrix => d
                .opt_matrix::<3, 3>(key)?
                .map(|m| m.as_flattened().to_vec()),
        };
        let Some(value) = value else {
            return Err(d.err(
                key,
                format!(
                    "required ({}) and missing",
                    match p.shape {
                        ParameterShape::Scalar => "a number",
                        ParameterShape::Vector => "a vector of 3 numbers",
                        ParameterShape::Matrix => "a 3×3 matrix as 3 rows of 3 numbers",
                    }
                ),
            ));
        };
        parameters.extend(value);
    }
    // the states' initial values: optional (0 by default)
    for s in definition.states {
        parameters.push(d.f64_or(s.name, 0.0)?);
    }
    let object = ForceObject {
        definition,
        name,
        markers: [MarkerIndex(m0), MarkerIndex(m1)],
        parameters,
        active: d.bool_or("activeConnector", true)?,
        show: d.bool_or("Vshow", true)?,
    };
    d.finish()?;
    Ok(Object::Force(object))
}
