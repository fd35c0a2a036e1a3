//! Force element objects of any registered force element (`pub force Name { … }`): each of its
//! definition's parameters by its own name (required), `activeConnector`, the visualization.

use serde_json::Value;

use crate::error::{ItemRef, Result};
use crate::items::{MarkerIndex, Object};
use crate::joints::ForceObject;
use crate::model::fields::{Dict, Owner};
use joint_core::{ForceDefinition, ParameterShape};

/// A force element item of `definition`.
pub(super) fn read_force(
    index: usize,
    value: &Value,
    definition: &'static ForceDefinition,
) -> Result<Object> {
    let map = value
        .as_object()
        .expect("an object dictionary: its type was read");
    let item = ItemRef {
        list: "objects",
        index,
        type_name: definition.name.to_owned(),
    };
    let mut d = Dict::new(Owner::Item(item), map);
    d.get("objectType");
    d.accept_visualization();
    if map.contains_key("VgraphicsDataUserFunction") {
        d.no_user_function("VgraphicsDataUserFunction")?;
    }
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
