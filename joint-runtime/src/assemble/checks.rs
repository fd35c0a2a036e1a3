//! Checks that are not layout: the value checks the passes share, and the sensors' references
//! (a separate pass: sensors take no coordinates; their outputs are checked when first
//! evaluated).

use crate::error::{Error, ItemRef, Result};
use crate::items::OutputVariable;
use crate::system::MultibodySystem;

pub(super) fn finite(item: &ItemRef, key: &str, values: &[f64]) -> Result<()> {
    if let Some(v) = values.iter().find(|v| !v.is_finite()) {
        return Err(Error::item(
            item.clone(),
            key,
            format!("expected finite numbers, found {v}"),
        ));
    }
    Ok(())
}

pub(super) fn check_mass(item: &ItemRef, key: &str, mass: f64) -> Result<()> {
    if !mass.is_finite() || mass < 0.0 {
        return Err(Error::item(
            item.clone(),
            key,
            format!("the {key} must be finite and ≥ 0, found {mass}"),
        ));
    }
    Ok(())
}

/// The node `node` (read from `key`) if `accepts` it, else the error "node N is a T; `needs`".
pub(super) fn node_of_type<'a>(
    mbs: &'a MultibodySystem,
    item: &ItemRef,
    key: &str,
    node: crate::items::NodeIndex,
    accepts: impl Fn(&crate::items::Node) -> bool,
    needs: &str,
) -> Result<&'a crate::items::Node> {
    let n = mbs.node_checked(item, key, node)?;
    if !accepts(n) {
        return Err(Error::item(
            item.clone(),
            key,
            format!("node {} is a {}; {needs}", node.0, n.type_name()),
        ));
    }
    Ok(n)
}

pub(super) fn claim_node(
    node_body: &mut [Option<usize>],
    item: &ItemRef,
    node: usize,
    object: usize,
) -> Result<()> {
    if let Some(other) = node_body[node] {
        return Err(Error::item(
            item.clone(),
            "nodeNumber",
            format!("node {node} already belongs to object {other}; each node carries one body"),
        ));
    }
    node_body[node] = Some(object);
    Ok(())
}

/// Every sensor's item references: the node, object, body, marker, load, link or mesh node it
/// reads must exist and be of a kind that has outputs.
pub(super) fn check_sensors(mbs: &MultibodySystem) -> Result<()> {
    for (i, s) in mbs.sensors.iter().enumerate() {
        let item = mbs.sensor_ref(i);
        use crate::items::SensorTarget::*;
        match &s.target {
            Node(n) => {
                mbs.node_checked(&item, "nodeNumber", *n)?;
            }
            Object(o) => {
                mbs.object_checked(&item, "objectNumber", *o)?;
            }
            Body {
                body,
                local_position,
            } => {
                let b = mbs.object_checked(&item, "bodyNumber", *body)?;
                if !b.is_body() {
                    return Err(Error::item(
                        item,
                        "bodyNumber",
                        format!("object {} is a {}, not a body", body.0, b.type_name()),
                    ));
                }
                finite(&item, "localPosition", local_position)?;
            }
            Marker(m) => {
                mbs.marker_checked(&item, "markerNumber", *m)?;
            }
            KinematicTree {
                object,
                link,
                local_position,
            } => {
                let o = mbs.object_checked(&item, "objectNumber", *object)?;
                let crate::items::Object::KinematicTree { parameters, .. } = o else {
                    return Err(Error::item(
                        item,
                        "objectNumber",
                        format!(
                            "object {} is a {}; SensorKinematicTree needs a KinematicTree",
                            object.0,
                            o.type_name()
                        ),
                    ));
                };
                if *link >= parameters.joint_types.len() {
                    return Err(Error::item(
                        item,
                        "linkNumber",
                        format!(
                            "link {link} does not exist (the tree has {} links)",
                            parameters.joint_types.len()
                        ),
                    ));
                }
                finite(&item, "localPosition", local_position)?;
            }
            SuperElement { body, mesh_node } => {
                let o = mbs.object_checked(&item, "bodyNumber", *body)?;
                let mesh_nodes = match o {
                    crate::items::Object::GenericODE2 { nodes, .. } => nodes.len(),
                    crate::items::Object::FFRFreducedOrder { parameters, .. } => {
                        parameters.reference_positions.len() / 3
                    }
                    _ => {
                        return Err(Error::item(
                            item,
                            "bodyNumber",
                            format!(
                                "object {} is a {}; SensorSuperElement needs a GenericODE2 or FFRFreducedOrder",
                                body.0,
                                o.type_name()
                            ),
                        ));
                    }
                };
                if *mesh_node >= mesh_nodes {
                    return Err(Error::item(
                        item,
                        "meshNodeNumber",
                        format!(
                            "mesh node {mesh_node} does not exist (the {} has {mesh_nodes} mesh nodes)",
                            o.type_name()
                        ),
                    ));
                }
                if let (
                    OutputVariable::StressLocal | OutputVariable::StrainLocal,
                    crate::items::Object::FFRFreducedOrder { parameters, .. },
                ) = (s.output, o)
                    && parameters.output_variable_type_mode_basis != Some(s.output)
                {
                    return Err(Error::item(
                        item,
                        "outputVariableType",
                        format!(
                            "{} needs the FFRFreducedOrder's outputVariableTypeModeBasis to be {} (it is {})",
                            s.output,
                            s.output,
                            parameters
                                .output_variable_type_mode_basis
                                .map_or("_None".to_string(), |t| t.to_string())
                        ),
                    ));
                }
            }
            Load(l) => {
                if l.0 >= mbs.loads.len() {
                    return Err(Error::item(
                        item,
                        "loadNumber",
                        format!(
                            "load number {} does not exist (the system has {} loads)",
                            l.0,
                            mbs.loads.len()
                        ),
                    ));
                }
            }
        }
    }
    Ok(())
}
