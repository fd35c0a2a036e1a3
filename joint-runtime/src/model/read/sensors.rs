//! Sensors: what each sensor type reads and its output variable, checked against the item
//! kinds that have it.

use serde_json::Value;

use super::{List, open_item};
use crate::error::Result;
use crate::items::OutputVariable;
use crate::items::joints::JointRegistry;
use crate::items::{LoadIndex, MarkerIndex, NodeIndex, ObjectIndex, Sensor, SensorTarget};

pub(crate) fn read_sensor(index: usize, value: &Value, registry: &JointRegistry) -> Result<Sensor> {
    let (t, mut d) = open_item(List::Sensors, index, value)?;
    let name = d.name()?;
    let target = match t {
        "Node" => SensorTarget::Node(NodeIndex(d.index("nodeNumber")?)),
        "Object" => SensorTarget::Object(ObjectIndex(d.index("objectNumber")?)),
        "Body" => SensorTarget::Body {
            body: ObjectIndex(d.index("bodyNumber")?),
            local_position: d.vec_or("localPosition", [0.0; 3])?,
        },
        "Marker" => SensorTarget::Marker(MarkerIndex(d.index("markerNumber")?)),
        "Load" => SensorTarget::Load(LoadIndex(d.index("loadNumber")?)),
        "KinematicTree" => SensorTarget::KinematicTree {
            object: ObjectIndex(d.index("objectNumber")?),
            link: d.index("linkNumber")?,
            local_position: d.vec_or("localPosition", [0.0; 3])?,
        },
        "SuperElement" => SensorTarget::SuperElement {
            body: ObjectIndex(d.index("bodyNumber")?),
            mesh_node: d.index("meshNodeNumber")?,
        },
        _ => unreachable!("sensor type table"),
    };
    let output = if matches!(target, SensorTarget::Load(_)) {
        // SensorLoad has no outputVariableType; its values are the load vector.
        OutputVariable::Force
    } else {
        let s = d.opt_str("outputVariableType")?.ok_or_else(|| {
            d.err(
                "outputVariableType",
                "missing (Exudyn's default `_None` gives no output; give e.g. \"Position\")",
            )
        })?;
        match s.parse::<OutputVariable>() {
            Ok(o) => o,
            Err(e) => match registry.output_name(s) {
                Some(name) => OutputVariable::Named(name),
                None => {
                    let named = registry.output_names();
                    let hint = if named.is_empty() {
                        String::new()
                    } else {
                        format!(
                            "; the registered joints' named outputs are {}",
                            named.join(", ")
                        )
                    };
                    return Err(d.err("outputVariableType", format!("{e}{hint}")));
                }
            },
        }
    };
    // Exudyn's defaults: writeToFile=True, fileName='', storeInternal=False.
    let write_to_file = d.bool_or("writeToFile", true)?;
    let file_name = d.opt_str("fileName")?.unwrap_or("").to_owned();
    let store_internal = d.bool_or("storeInternal", false)?;
    d.finish()?;
    Ok(Sensor {
        name,
        target,
        output,
        store_internal,
        write_to_file,
        file_name,
    })
}
