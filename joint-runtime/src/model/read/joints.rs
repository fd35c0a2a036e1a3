//! Joint objects of any registered joint type: the type's parameter keys, `constrainedAxes`,
//! its extra keys and visualization, and its own check.

use serde_json::Value;

use crate::error::{ItemRef, Result};
use crate::items::joints::{Axes, ExtraKeyKind, JointObject, JointType, JointVisualization};
use crate::items::{MarkerIndex, Object};
use crate::model::fields::{Dict, Owner};
use joint_core::ParameterShape;

/// A joint item of type `jt`: its markers, each of its definition's parameters by the type's
/// key for it, `constrainedAxes` (if the type has them), `activeConnector`, the type's further
/// keys, and its visualization.
pub(super) fn read_joint(index: usize, value: &Value, jt: &JointType) -> Result<Object> {
    let map = value
        .as_object()
        .expect("an object dictionary: its type was read");
    let item = ItemRef {
        list: "objects",
        index,
        type_name: jt.type_name.to_owned(),
    };
    let mut d = Dict::new(Owner::Item(item), map);
    // a flag that makes the item another type (with the same parameters) is read first
    for extra in jt.extra_keys {
        if let ExtraKeyKind::Variant {
            when_false,
            when_true,
        } = extra.kind
        {
            let variant = if d.bool_or(extra.key, false)? {
                when_true
            } else {
                when_false
            };
            if variant != jt {
                return read_joint(index, value, variant);
            }
        }
    }
    d.get("objectType");
    d.accept_visualization();
    if map.contains_key("VgraphicsDataUserFunction") {
        d.no_user_function("VgraphicsDataUserFunction")?;
    }
    let name = d.name()?;
    let [m0, m1] = d.indices::<2>("markerNumbers")?;
    let definition = jt.definition;
    let mut parameters = Vec::with_capacity(definition.parameter_len());
    for p in definition.parameters {
        let (key, default) = jt.key_of(p.name);
        let value: Option<Vec<f64>> = match p.shape {
            ParameterShape::Scalar => d.opt_f64(key)?.map(|x| vec![x]),
            ParameterShape::Vector => d.opt_vec::<3>(key)?.map(|v| v.to_vec()),
            ParameterShape::Matrix => d
                .opt_matrix::<3, 3>(key)?
                .map(|m| m.as_flattened().to_vec()),
        };
        match (value, default) {
            (Some(v), _) => parameters.extend(v),
            (None, Some(default)) => parameters.extend_from_slice(default),
            (None, None) => {
                return Err(d.missing(
                    key,
                    format!(
                        "required ({}) and missing: {} has no default for it",
                        match p.shape {
                            ParameterShape::Scalar => "a number",
                            ParameterShape::Vector => "a vector of 3 numbers",
                            ParameterShape::Matrix => "a 3×3 matrix as 3 rows of 3 numbers",
                        },
                        jt.type_name,
                    ),
                ));
            }
        }
    }
    // the states' initial values: optional (0 by default)
    for s in definition.states {
        parameters.push(d.f64_or(s.name, 0.0)?);
    }
    let count = jt.axes_count();
    let constrained_axes = match jt.axes {
        Axes::Flags(flags) => {
            let mut mask = jt.default_axes();
            for &(key, row) in flags {
                if !d.bool_or(key, true)? {
                    mask[row] = 0;
                }
            }
            mask
        }
        _ if count > 0 => d
            .opt_ints("constrainedAxes", count)?
            .unwrap_or_else(|| jt.default_axes()),
        _ => Vec::new(),
    };
    let active = d.bool_or("activeConnector", true)?;
    for extra in jt.extra_keys {
        match extra.kind {
            ExtraKeyKind::UserFunction => d.no_user_function(extra.key)?,
            ExtraKeyKind::Unused { len } => {
                if let Some(v) = d.opt_dvec(extra.key)?
                    && v.len() != len
                {
                    return Err(d.err(
                        extra.key,
                        format!("expected {len} numbers, found {}", v.len()),
                    ));
                }
            }
            ExtraKeyKind::False { message } => {
                if d.bool_or(extra.key, false)? {
                    return Err(d.err(extra.key, message));
                }
            }
            // read above
            ExtraKeyKind::Variant { .. } => {}
        }
    }
    let defaults = JointVisualization::of(jt);
    let visualization = JointVisualization {
        show: d.bool_or("Vshow", defaults.show)?,
        size: d.f64_or(jt.size_key, defaults.size)?,
        color: d.vec_or("Vcolor", defaults.color)?,
    };
    let object = JointObject {
        joint_type: *jt,
        name,
        markers: [MarkerIndex(m0), MarkerIndex(m1)],
        parameters,
        constrained_axes,
        active,
        visualization,
    };
    if let Some(check) = jt.check {
        check(&object.parameters).map_err(|(key, message)| d.err(key, message))?;
    }
    d.finish()?;
    Ok(Object::Joint(object))
}
