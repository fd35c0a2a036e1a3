//! Loads: forces, torques and mass-proportional loads.

use serde_json::Value;

use super::{List, open_item};
use crate::error::Result;
use crate::items::{Load, MarkerIndex};

pub(crate) fn read_load(index: usize, value: &Value) -> Result<Load> {
    let (t, mut d) = open_item(List::Loads, index, value)?;
    let name = d.name()?;
    let marker = MarkerIndex(d.index("markerNumber")?);
    if t == "Coordinate" {
        let load = d.f64_or("load", 0.0)?;
        d.no_user_function("loadUserFunction")?;
        d.finish()?;
        return Ok(Load::Coordinate { name, marker, load });
    }
    let load_vector = d.vec_or("loadVector", [0.0; 3])?;
    d.no_user_function("loadVectorUserFunction")?;
    let load = match t {
        "MassProportional" => Load::MassProportional {
            name,
            marker,
            load_vector,
        },
        "ForceVector" => Load::ForceVector {
            name,
            marker,
            load_vector,
            body_fixed: d.bool_or("bodyFixed", false)?,
        },
        "TorqueVector" => Load::TorqueVector {
            name,
            marker,
            load_vector,
            body_fixed: d.bool_or("bodyFixed", false)?,
        },
        _ => unreachable!("load type table"),
    };
    d.finish()?;
    Ok(load)
}
