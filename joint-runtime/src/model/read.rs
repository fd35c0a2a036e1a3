//! Items from their Exudyn dictionaries (spec/items.md §1, spec/model-format.md).

use serde_json::{Map, Value};

use super::fields::{Dict, Owner, describe};
use crate::error::{Error, ItemRef, Result};
use crate::items::OutputVariable;
use crate::items::{
    Load, LoadIndex, Marker, MarkerIndex, Node, NodeIndex, Object, ObjectIndex, Sensor,
    SensorTarget,
};
use crate::joints::{ExtraKeyKind, JointObject, JointRegistry, JointType, JointVisualization};
use joint_core::ParameterShape;

/// Tolerance for derived keys (`referenceHT`, `localHT`) that must agree with the primary ones.
const DERIVED_TOLERANCE: f64 = 1e-12;

const IDENTITY3: [[f64; 3]; 3] = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];

/// The kinds of item lists, with their type key and the accepted type strings.
#[derive(Clone, Copy)]
pub(crate) enum List {
    Nodes,
    Objects,
    Markers,
    Loads,
    Sensors,
}

impl List {
    pub(crate) fn name(self) -> &'static str {
        match self {
            List::Nodes => "nodes",
            List::Objects => "objects",
            List::Markers => "markers",
            List::Loads => "loads",
            List::Sensors => "sensors",
        }
    }

    fn type_key(self) -> &'static str {
        match self {
            List::Nodes => "nodeType",
            List::Objects => "objectType",
            List::Markers => "markerType",
            List::Loads => "loadType",
            List::Sensors => "sensorType",
        }
    }

    /// (canonical short type name, accepted spellings).
    fn types(self) -> &'static [(&'static str, &'static [&'static str])] {
        match self {
            List::Nodes => &[
                ("Point", &["Point", "NodePoint"]),
                (
                    "RigidBodyEP",
                    &["RigidBodyEP", "NodeRigidBodyEP", "RigidEP"],
                ),
                (
                    "RigidBodyRxyz",
                    &["RigidBodyRxyz", "NodeRigidBodyRxyz", "RigidRxyz"],
                ),
                ("GenericODE2", &["GenericODE2", "NodeGenericODE2"]),
            ],
            List::Objects => &[
                ("Ground", &["Ground", "ObjectGround"]),
                ("MassPoint", &["MassPoint", "ObjectMassPoint"]),
                ("RigidBody", &["RigidBody", "ObjectRigidBody"]),
                ("GenericODE2", &["GenericODE2", "ObjectGenericODE2"]),
                ("KinematicTree", &["KinematicTree", "ObjectKinematicTree"]),
                (
                    "FFRFreducedOrder",
                    &["FFRFreducedOrder", "ObjectFFRFreducedOrder"],
                ),
                (
                    "ConnectorSpringDamper",
                    &[
                        "ConnectorSpringDamper",
                        "ObjectConnectorSpringDamper",
                        "SpringDamper",
                    ],
                ),
                (
                    "ConnectorCartesianSpringDamper",
                    &[
                        "ConnectorCartesianSpringDamper",
                        "ObjectConnectorCartesianSpringDamper",
                        "CartesianSpringDamper",
                    ],
                ),
            ],
            List::Markers => &[
                ("BodyMass", &["BodyMass", "MarkerBodyMass"]),
                ("BodyPosition", &["BodyPosition", "MarkerBodyPosition"]),
                ("BodyRigid", &["BodyRigid", "MarkerBodyRigid"]),
                ("NodePosition", &["NodePosition", "MarkerNodePosition"]),
                ("NodeRigid", &["NodeRigid", "MarkerNodeRigid"]),
                (
                    "KinematicTreeRigid",
                    &["KinematicTreeRigid", "MarkerKinematicTreeRigid"],
                ),
                (
                    "SuperElementPosition",
                    &["SuperElementPosition", "MarkerSuperElementPosition"],
                ),
                (
                    "SuperElementRigid",
                    &["SuperElementRigid", "MarkerSuperElementRigid"],
                ),
            ],
            List::Loads => &[
                (
                    "MassProportional",
                    &["MassProportional", "LoadMassProportional", "Gravity"],
                ),
                ("ForceVector", &["ForceVector", "LoadForceVector", "Force"]),
                (
                    "TorqueVector",
                    &["TorqueVector", "LoadTorqueVector", "Torque"],
                ),
            ],
            List::Sensors => &[
                ("Node", &["Node", "SensorNode"]),
                ("Object", &["Object", "SensorObject"]),
                ("Body", &["Body", "SensorBody"]),
                ("Marker", &["Marker", "SensorMarker"]),
                ("Load", &["Load", "SensorLoad"]),
                ("KinematicTree", &["KinematicTree", "SensorKinematicTree"]),
                ("SuperElement", &["SuperElement", "SensorSuperElement"]),
            ],
        }
    }

    fn singular(self) -> &'static str {
        match self {
            List::Nodes => "node",
            List::Objects => "object",
            List::Markers => "marker",
            List::Loads => "load",
            List::Sensors => "sensor",
        }
    }
}

/// Open item `index` of `list`: check it is a dictionary, resolve its type string, and return
/// the canonical type name with a strict accessor.
pub(crate) fn open_item<'a>(
    list: List,
    index: usize,
    value: &'a Value,
) -> Result<(&'static str, Dict<'a>)> {
    open_item_with(list, index, value, None)
}

/// The `objectType` string of an object dictionary, if it has one.
fn object_type(value: &Value) -> Option<&str> {
    value.as_object()?.get("objectType")?.as_str()
}

/// [`open_item`]; `registry`: the joint types it knows too (named in the error for an unknown
/// type).
fn open_item_with<'a>(
    list: List,
    index: usize,
    value: &'a Value,
    registry: Option<&JointRegistry>,
) -> Result<(&'static str, Dict<'a>)> {
    let map: &Map<String, Value> = value.as_object().ok_or_else(|| Error::Model {
        message: format!(
            "{}[{index}]: expected a dictionary, found {}",
            list.name(),
            describe(value)
        ),
    })?;
    let key = list.type_key();
    let item = |type_name: &str| ItemRef {
        list: list.name(),
        index,
        type_name: type_name.to_owned(),
    };
    let type_name = match map.get(key) {
        None => {
            return Err(Error::item(
                item("?"),
                key,
                format!("missing (every {} needs its type)", list.singular()),
            ));
        }
        Some(Value::String(s)) => s.as_str(),
        Some(other) => {
            return Err(Error::item(
                item("?"),
                key,
                format!("expected a type string, found {}", describe(other)),
            ));
        }
    };
    let canonical = list
        .types()
        .iter()
        .find(|(_, spellings)| spellings.contains(&type_name))
        .map(|(c, _)| *c)
        .ok_or_else(|| {
            let mut supported: Vec<&str> = list.types().iter().map(|(c, _)| *c).collect();
            if let Some(r) = registry {
                supported.extend(r.types().iter().map(|t| t.type_name));
            }
            Error::item(
                item(type_name),
                key,
                format!(
                    "unknown or unsupported {} type `{type_name}` (supported: {})",
                    list.singular(),
                    supported.join(", ")
                ),
            )
        })?;
    let mut d = Dict::new(Owner::Item(item(canonical)), map);
    d.get(key);
    d.accept_visualization();
    // Visualization keys are accepted with any value, except a graphics user function.
    if map.contains_key("VgraphicsDataUserFunction") {
        d.no_user_function("VgraphicsDataUserFunction")?;
    }
    Ok((canonical, d))
}

pub(crate) fn read_node(index: usize, value: &Value) -> Result<Node> {
    let (t, mut d) = open_item(List::Nodes, index, value)?;
    let name = d.name()?;
    let node = match t {
        "Point" => Node::Point {
            name,
            reference_coordinates: d.vec_or("referenceCoordinates", [0.0; 3])?,
            initial_coordinates: d.vec_or("initialCoordinates", [0.0; 3])?,
            initial_velocities: d.vec_or("initialVelocities", [0.0; 3])?,
        },
        "RigidBodyEP" => Node::RigidBodyEP {
            name,
            reference_coordinates: d.vec_or("referenceCoordinates", [0.0; 7])?,
            initial_coordinates: d.vec_or("initialCoordinates", [0.0; 7])?,
            initial_velocities: d.vec_or("initialVelocities", [0.0; 7])?,
            add_constraint_equation: d.bool_or("addConstraintEquation", true)?,
        },
        "RigidBodyRxyz" => Node::RigidBodyRxyz {
            name,
            reference_coordinates: d.vec_or("referenceCoordinates", [0.0; 6])?,
            initial_coordinates: d.vec_or("initialCoordinates", [0.0; 6])?,
            initial_velocities: d.vec_or("initialVelocities", [0.0; 6])?,
        },
        "GenericODE2" => {
            let reference_coordinates = d.opt_dvec("referenceCoordinates")?.unwrap_or_default();
            let n = reference_coordinates.len();
            if let Some(count) = d.opt_f64("numberOfODE2Coordinates")?
                && count != n as f64
            {
                return Err(d.err(
                    "numberOfODE2Coordinates",
                    format!("{count} does not match the {n} reference coordinates"),
                ));
            }
            let mut vector = |key: &'static str| -> Result<Vec<f64>> {
                match d.opt_dvec(key)? {
                    None => Ok(vec![0.0; n]),
                    Some(v) if v.is_empty() || v.len() == n => {
                        Ok(if v.is_empty() { vec![0.0; n] } else { v })
                    }
                    Some(v) => Err(d.err(
                        key,
                        format!(
                            "expected {n} entries (one per coordinate), found {}",
                            v.len()
                        ),
                    )),
                }
            };
            let initial_coordinates = vector("initialCoordinates")?;
            let initial_velocities = vector("initialCoordinates_t")?;
            Node::GenericODE2 {
                name,
                reference_coordinates,
                initial_coordinates,
                initial_velocities,
            }
        }
        _ => unreachable!("node type table"),
    };
    d.finish()?;
    Ok(node)
}

/// A 1.13 key with its deprecated 1.11 spelling: the deprecated one wins if both are given.
fn f64_aliased(d: &mut Dict, key: &'static str, old: &'static str) -> Result<f64> {
    let new = d.opt_f64(key)?;
    let old = d.opt_f64(old)?;
    Ok(old.or(new).unwrap_or(0.0))
}

fn vec_aliased<const N: usize>(
    d: &mut Dict,
    key: &'static str,
    old: &'static str,
) -> Result<[f64; N]> {
    let new = d.opt_vec::<N>(key)?;
    let old = d.opt_vec::<N>(old)?;
    Ok(old.or(new).unwrap_or([0.0; N]))
}

fn agrees(a: f64, b: f64) -> bool {
    (a - b).abs() <= DERIVED_TOLERANCE * a.abs().max(b.abs()).max(1.0)
}

/// Check a 4×4 homogeneous transformation: bottom row [0,0,0,1]; returns (R, p).
fn split_ht(d: &Dict, key: &str, ht: &[[f64; 4]; 4]) -> Result<([[f64; 3]; 3], [f64; 3])> {
    let bottom = [0.0, 0.0, 0.0, 1.0];
    if !(0..4).all(|c| agrees(ht[3][c], bottom[c])) {
        return Err(d.err(
            key,
            format!(
                "the last row of a homogeneous transformation must be [0, 0, 0, 1], found {:?}",
                ht[3]
            ),
        ));
    }
    let mut r = [[0.0; 3]; 3];
    let mut p = [0.0; 3];
    for i in 0..3 {
        r[i].copy_from_slice(&ht[i][..3]);
        p[i] = ht[i][3];
    }
    Ok((r, p))
}

fn same_matrix(a: &[[f64; 3]; 3], b: &[[f64; 3]; 3]) -> bool {
    (0..3).all(|i| (0..3).all(|j| agrees(a[i][j], b[i][j])))
}

fn same_vector(a: &[f64; 3], b: &[f64; 3]) -> bool {
    (0..3).all(|i| agrees(a[i], b[i]))
}

/// `localHT` of a rigid marker whose frame may turn (BodyRigid, NodeRigid): its translation
/// must equal `local_position` (when that is given; otherwise it defines it). Returns the
/// translation and the rotation.
fn local_ht_frame(
    d: &mut Dict,
    local_position: Option<[f64; 3]>,
    position_key: &str,
) -> Result<([f64; 3], [[f64; 3]; 3])> {
    let Some(ht) = d.opt_matrix::<4, 4>("localHT")? else {
        return Ok((local_position.unwrap_or([0.0; 3]), IDENTITY3));
    };
    let (r, p) = split_ht(d, "localHT", &ht)?;
    match local_position {
        Some(lp) if !same_vector(&lp, &p) => Err(d.err(
            "localHT",
            format!("its translation {p:?} must equal {position_key} {lp:?}"),
        )),
        _ => Ok((p, r)),
    }
}

/// `localHT` of a marker whose frame rotation is not supported yet (KinematicTreeRigid,
/// SuperElementRigid): as [`local_ht_frame`], with only the identity rotation.
fn local_ht(
    d: &mut Dict,
    local_position: Option<[f64; 3]>,
    position_key: &str,
) -> Result<[f64; 3]> {
    let (p, r) = local_ht_frame(d, local_position, position_key)?;
    if !same_matrix(&r, &IDENTITY3) {
        return Err(d.err(
            "localHT",
            format!(
                "only the identity rotation is supported in this marker's localHT, found {r:?}"
            ),
        ));
    }
    Ok(p)
}

/// A joint item of type `jt`: its markers, each of its definition's parameters by the type's
/// key for it, `constrainedAxes` (if the type has them), `activeConnector`, the type's further
/// keys, and its visualization.
fn read_joint(index: usize, value: &Value, jt: &JointType) -> Result<Object> {
    let map = value
        .as_object()
        .expect("an object dictionary: its type was read");
    let item = ItemRef {
        list: "objects",
        index,
        type_name: jt.type_name.to_owned(),
    };
    let mut d = Dict::new(Owner::Item(item), map);
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
                return Err(d.err(
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
    let count = jt.axes_count();
    let constrained_axes = if count > 0 {
        d.opt_ints("constrainedAxes", count)?
            .unwrap_or_else(|| jt.default_axes())
    } else {
        Vec::new()
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

pub(crate) fn read_object(index: usize, value: &Value, registry: &JointRegistry) -> Result<Object> {
    if let Some(jt) = object_type(value).and_then(|t| registry.find(t)) {
        return read_joint(index, value, jt);
    }
    let (t, mut d) = open_item_with(List::Objects, index, value, Some(registry))?;
    let name = d.name()?;
    let object = match t {
        "Ground" => {
            let position = d.opt_vec::<3>("referencePosition")?;
            let rotation = d.opt_matrix::<3, 3>("referenceRotation")?;
            let (reference_position, reference_rotation) = match d
                .opt_matrix::<4, 4>("referenceHT")?
            {
                None => (position.unwrap_or([0.0; 3]), rotation.unwrap_or(IDENTITY3)),
                Some(ht) => {
                    let (r, p) = split_ht(&d, "referenceHT", &ht)?;
                    let position = position.unwrap_or(p);
                    let rotation = rotation.unwrap_or(r);
                    if !same_vector(&position, &p) || !same_matrix(&rotation, &r) {
                        return Err(d.err(
                            "referenceHT",
                            format!(
                                "must agree with referencePosition {position:?} and referenceRotation {rotation:?}, found {ht:?}"
                            ),
                        ));
                    }
                    (position, rotation)
                }
            };
            Object::Ground {
                name,
                reference_position,
                reference_rotation,
            }
        }
        "MassPoint" => Object::MassPoint {
            name,
            mass: f64_aliased(&mut d, "mass", "physicsMass")?,
            node: NodeIndex(d.index("nodeNumber")?),
        },
        "RigidBody" => {
            let mass = f64_aliased(&mut d, "mass", "physicsMass")?;
            let inertia = vec_aliased::<6>(&mut d, "inertia", "physicsInertia")?;
            let center_of_mass = vec_aliased::<3>(&mut d, "centerOfMass", "physicsCenterOfMass")?;
            let node = NodeIndex(d.index("nodeNumber")?);
            Object::RigidBody {
                name,
                mass,
                inertia,
                center_of_mass,
                node,
            }
        }
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
        "GenericODE2" => {
            let nodes = d.opt_index_list("nodeNumbers")?.unwrap_or_default();
            for key in [
                "forceUserFunction",
                "massMatrixUserFunction",
                "jacobianUserFunction",
            ] {
                d.no_user_function(key)?;
            }
            // derived and scratch keys
            d.ignore(&[
                "coordinateIndexPerNode",
                "tempCoordinates",
                "tempCoordinates_t",
                "tempCoordinates_tt",
            ]);
            Object::GenericODE2 {
                name,
                nodes: nodes.into_iter().map(NodeIndex).collect(),
                mass_matrix: d.opt_matrix_container("massMatrix")?.unwrap_or_default(),
                stiffness_matrix: d
                    .opt_matrix_container("stiffnessMatrix")?
                    .unwrap_or_default(),
                damping_matrix: d.opt_matrix_container("dampingMatrix")?.unwrap_or_default(),
                force_vector: d.opt_dvec("forceVector")?.unwrap_or_default(),
            }
        }
        "FFRFreducedOrder" => read_ffrf(&mut d, name)?,
        "KinematicTree" => read_kinematic_tree(&mut d, name)?,
        _ => unreachable!("object type table"),
    };
    d.finish()?;
    Ok(object)
}

pub(crate) fn read_marker(index: usize, value: &Value) -> Result<Marker> {
    let (t, mut d) = open_item(List::Markers, index, value)?;
    let name = d.name()?;
    let marker = match t {
        "BodyMass" => Marker::BodyMass {
            name,
            body: ObjectIndex(d.index("bodyNumber")?),
        },
        "BodyPosition" => Marker::BodyPosition {
            name,
            body: ObjectIndex(d.index("bodyNumber")?),
            local_position: d.vec_or("localPosition", [0.0; 3])?,
        },
        "BodyRigid" => {
            let body = ObjectIndex(d.index("bodyNumber")?);
            let given = d.opt_vec::<3>("localPosition")?;
            let (local_position, local_rotation) = local_ht_frame(&mut d, given, "localPosition")?;
            Marker::BodyRigid {
                name,
                body,
                local_position,
                local_rotation,
            }
        }
        "NodePosition" => Marker::NodePosition {
            name,
            node: NodeIndex(d.index("nodeNumber")?),
        },
        "NodeRigid" => {
            let node = NodeIndex(d.index("nodeNumber")?);
            // A node marker sits at the node: the translation of localHT must be zero.
            let (_, local_rotation) =
                local_ht_frame(&mut d, Some([0.0; 3]), "the node position (zero offset)")?;
            Marker::NodeRigid {
                name,
                node,
                local_rotation,
            }
        }
        "KinematicTreeRigid" => {
            let object = ObjectIndex(d.index("objectNumber")?);
            let link = d.index("linkNumber")?;
            let given = d.opt_vec::<3>("localPosition")?;
            let local_position = local_ht(&mut d, given, "localPosition")?;
            Marker::KinematicTreeRigid {
                name,
                object,
                link,
                local_position,
            }
        }
        "SuperElementPosition" => {
            let body = ObjectIndex(d.index("bodyNumber")?);
            let mesh_nodes = d.opt_index_list("meshNodeNumbers")?.unwrap_or_default();
            let weights = d.opt_dvec("weightingFactors")?.unwrap_or_default();
            Marker::SuperElementPosition {
                name,
                body,
                mesh_nodes,
                weights,
            }
        }
        "SuperElementRigid" => {
            let body = ObjectIndex(d.index("bodyNumber")?);
            let given = d.opt_vec::<3>("offset")?;
            let offset = local_ht(&mut d, given, "offset")?;
            let mesh_nodes = d.opt_index_list("meshNodeNumbers")?.unwrap_or_default();
            let weights = d.opt_dvec("weightingFactors")?.unwrap_or_default();
            let use_alternative_approach = d.bool_or("useAlternativeApproach", true)?;
            let rotations_exponential_map = match d.opt_f64("rotationsExponentialMap")? {
                None => 2,
                Some(x) if x.fract() == 0.0 && x.abs() < 1e9 => x as i64,
                Some(x) => {
                    return Err(d.err(
                        "rotationsExponentialMap",
                        format!("expected an integer, found {x}"),
                    ));
                }
            };
            Marker::SuperElementRigid {
                name,
                body,
                offset,
                mesh_nodes,
                weights,
                use_alternative_approach,
                rotations_exponential_map,
            }
        }
        _ => unreachable!("marker type table"),
    };
    d.finish()?;
    Ok(marker)
}

pub(crate) fn read_load(index: usize, value: &Value) -> Result<Load> {
    let (t, mut d) = open_item(List::Loads, index, value)?;
    let name = d.name()?;
    let marker = MarkerIndex(d.index("markerNumber")?);
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

fn read_ffrf(d: &mut Dict, name: String) -> Result<Object> {
    let [n0, n1] = d.indices::<2>("nodeNumbers")?;
    for key in ["forceUserFunction", "massMatrixUserFunction"] {
        d.no_user_function(key)?;
    }
    // derived keys
    d.ignore(&[
        "objectIsInitialized",
        "centerOfMassTilde",
        "tempUserFunctionForce",
    ]);
    let matrix = |d: &mut Dict, key: &'static str| -> Result<nalgebra::DMatrix<f64>> {
        Ok(d.opt_dmatrix(key)?
            .unwrap_or_else(|| nalgebra::DMatrix::zeros(0, 0)))
    };
    // `inertia`: Exudyn 1.13.6 emits a 3×3 matrix; a 6-vector is accepted too.
    let inertia = match d.get("inertia").or(d.get("physicsInertia")) {
        None => [0.0; 6],
        Some(Value::Array(a)) if a.len() == 6 => vec_aliased::<6>(d, "inertia", "physicsInertia")?,
        Some(_) => {
            let m = match d.opt_matrix::<3, 3>("physicsInertia")? {
                Some(m) => m,
                None => d.opt_matrix::<3, 3>("inertia")?.unwrap_or([[0.0; 3]; 3]),
            };
            [m[0][0], m[1][1], m[2][2], m[1][2], m[0][2], m[0][1]]
        }
    };
    let parameters = crate::items::FfrfParameters {
        mass_matrix_reduced: d
            .opt_matrix_container("massMatrixReduced")?
            .unwrap_or_default(),
        stiffness_matrix_reduced: d
            .opt_matrix_container("stiffnessMatrixReduced")?
            .unwrap_or_default(),
        damping_matrix_reduced: d
            .opt_matrix_container("dampingMatrixReduced")?
            .unwrap_or_default(),
        mode_basis: matrix(d, "modeBasis")?,
        reference_positions: d.opt_dvec("referencePositions")?.unwrap_or_default(),
        m_psi_tilde_psi: matrix(d, "mPsiTildePsi")?,
        m_psi_tilde_psi_tilde: matrix(d, "mPsiTildePsiTilde")?,
        m_phit_t_psi: matrix(d, "mPhitTPsi")?,
        m_phit_t_psi_tilde: matrix(d, "mPhitTPsiTilde")?,
        m_xref_tilde_psi: matrix(d, "mXRefTildePsi")?,
        m_xref_tilde_psi_tilde: matrix(d, "mXRefTildePsiTilde")?,
        mass: f64_aliased(d, "mass", "physicsMass")?,
        inertia,
        center_of_mass: vec_aliased::<3>(d, "centerOfMass", "physicsCenterOfMass")?,
        compute_ffrf_terms: d.bool_or("computeFFRFterms", true)?,
        output_variable_mode_basis: matrix(d, "outputVariableModeBasis")?,
        output_variable_type_mode_basis: match d.opt_str("outputVariableTypeModeBasis")? {
            None => None,
            Some(s) => match s.strip_prefix("OutputVariableType.").unwrap_or(s) {
                "_None" => None,
                "StressLocal" => Some(OutputVariable::StressLocal),
                "StrainLocal" => Some(OutputVariable::StrainLocal),
                other => {
                    return Err(d.err(
                        "outputVariableTypeModeBasis",
                        format!(
                            "expected `_None`, `StressLocal` or `StrainLocal`, found `{other}`"
                        ),
                    ));
                }
            },
        },
    };
    Ok(Object::FFRFreducedOrder {
        name,
        nodes: [NodeIndex(n0), NodeIndex(n1)],
        parameters: Box::new(parameters),
    })
}

/// A list of fixed-size numeric arrays (`[[…], …]`), e.g. Exudyn's Vector3DList.
fn list_of<const N: usize>(d: &mut Dict, key: &'static str) -> Result<Vec<[f64; N]>> {
    let Some(v) = d.get(key) else {
        return Ok(Vec::new());
    };
    let a = v.as_array().ok_or_else(|| {
        d.err(
            key,
            format!("expected a list of {N}-vectors, found {}", describe(v)),
        )
    })?;
    let mut out = Vec::with_capacity(a.len());
    for (i, e) in a.iter().enumerate() {
        let row = e.as_array().filter(|r| r.len() == N).ok_or_else(|| {
            d.err(
                key,
                format!("entry {i}: expected {N} numbers, found {}", describe(e)),
            )
        })?;
        let mut x = [0.0; N];
        for (k, n) in row.iter().enumerate() {
            x[k] = n.as_f64().filter(|f| f.is_finite()).ok_or_else(|| {
                d.err(
                    key,
                    format!(
                        "entry {i}, element {k}: expected a finite number, found {}",
                        describe(n)
                    ),
                )
            })?;
        }
        out.push(x);
    }
    Ok(out)
}

/// A list of R × C matrices (Exudyn's Matrix3DList, or a list of 4 × 4 HTs).
fn matrices_of<const R: usize, const C: usize>(
    d: &mut Dict,
    key: &'static str,
) -> Result<Vec<[[f64; C]; R]>> {
    let Some(v) = d.get(key) else {
        return Ok(Vec::new());
    };
    let a = v.as_array().ok_or_else(|| {
        d.err(
            key,
            format!("expected a list of {R}×{C} matrices, found {}", describe(v)),
        )
    })?;
    let mut out = Vec::with_capacity(a.len());
    for (i, m) in a.iter().enumerate() {
        let rows = m.as_array().filter(|r| r.len() == R).ok_or_else(|| {
            d.err(
                key,
                format!(
                    "entry {i}: expected a {R}×{C} matrix, found {}",
                    describe(m)
                ),
            )
        })?;
        let mut x = [[0.0; C]; R];
        for (r, row) in rows.iter().enumerate() {
            let cols = row.as_array().filter(|c| c.len() == C).ok_or_else(|| {
                d.err(
                    key,
                    format!(
                        "entry {i}, row {r}: expected {C} numbers, found {}",
                        describe(row)
                    ),
                )
            })?;
            for (c, n) in cols.iter().enumerate() {
                x[r][c] = n.as_f64().filter(|f| f.is_finite()).ok_or_else(|| {
                    d.err(
                        key,
                        format!(
                            "entry {i}, row {r}: expected a finite number, found {}",
                            describe(n)
                        ),
                    )
                })?;
            }
        }
        out.push(x);
    }
    Ok(out)
}

fn read_kinematic_tree(d: &mut Dict, name: String) -> Result<Object> {
    let node = NodeIndex(d.index("nodeNumber")?);
    d.no_user_function("forceUserFunction")?;
    let joint_types = match d.get("jointTypes") {
        None => Vec::new(),
        Some(Value::Array(a)) => {
            let mut out = Vec::with_capacity(a.len());
            for (i, e) in a.iter().enumerate() {
                let t = match e {
                    Value::String(s) => match s.strip_prefix("JointType.").unwrap_or(s) {
                        "RevoluteX" => Some(1),
                        "RevoluteY" => Some(2),
                        "RevoluteZ" => Some(3),
                        "PrismaticX" => Some(4),
                        "PrismaticY" => Some(5),
                        "PrismaticZ" => Some(6),
                        _ => None,
                    },
                    Value::Number(n) => n.as_u64().filter(|u| (1..=6).contains(u)).map(|u| u as u8),
                    _ => None,
                };
                out.push(t.ok_or_else(|| {
                    d.err(
                        "jointTypes",
                        format!(
                            "entry {i}: expected RevoluteX/Y/Z or PrismaticX/Y/Z, found {}",
                            describe(e)
                        ),
                    )
                })?);
            }
            out
        }
        Some(other) => {
            return Err(d.err(
                "jointTypes",
                format!("expected a list of joint types, found {}", describe(other)),
            ));
        }
    };
    let link_parents = match d.get("linkParents") {
        None => Vec::new(),
        Some(Value::Array(a)) => {
            let mut out = Vec::with_capacity(a.len());
            for (i, e) in a.iter().enumerate() {
                out.push(e.as_i64().ok_or_else(|| {
                    d.err(
                        "linkParents",
                        format!(
                            "entry {i}: expected an integer link number (−1 = base), found {}",
                            describe(e)
                        ),
                    )
                })?);
            }
            out
        }
        Some(other) => {
            return Err(d.err(
                "linkParents",
                format!("expected a list of integers, found {}", describe(other)),
            ));
        }
    };
    let mut joint_transformations = matrices_of::<3, 3>(d, "jointTransformations")?;
    let mut joint_offsets = list_of::<3>(d, "jointOffsets")?;
    // jointHTs (Exudyn 1.13): HT(A_i, o_i); consistent with the other two, or defining them.
    let hts = matrices_of::<4, 4>(d, "jointHTs")?;
    if !hts.is_empty() {
        let mut from_ht = Vec::with_capacity(hts.len());
        for ht in &hts {
            from_ht.push(split_ht(d, "jointHTs", ht)?);
        }
        if joint_transformations.is_empty() && joint_offsets.is_empty() {
            joint_transformations = from_ht.iter().map(|(r, _)| *r).collect();
            joint_offsets = from_ht.iter().map(|(_, p)| *p).collect();
        } else {
            let consistent = from_ht.len() == joint_transformations.len()
                && from_ht.len() == joint_offsets.len()
                && from_ht
                    .iter()
                    .zip(joint_transformations.iter().zip(&joint_offsets))
                    .all(|((r, p), (a, o))| same_matrix(r, a) && same_vector(p, o));
            if !consistent {
                return Err(d.err(
                    "jointHTs",
                    "jointHTs and jointTransformations or jointOffsets are given and differ",
                ));
            }
        }
    }
    let parameters = crate::items::KinematicTreeParameters {
        joint_types,
        link_parents,
        joint_transformations,
        joint_offsets,
        link_inertias_com: matrices_of::<3, 3>(d, "linkInertiasCOM")?,
        link_coms: list_of::<3>(d, "linkCOMs")?,
        link_masses: d.opt_dvec("linkMasses")?.unwrap_or_default(),
        link_forces: list_of::<3>(d, "linkForces")?,
        link_torques: list_of::<3>(d, "linkTorques")?,
        joint_force_vector: d.opt_dvec("jointForceVector")?.unwrap_or_default(),
        joint_position_offset_vector: d.opt_dvec("jointPositionOffsetVector")?.unwrap_or_default(),
        joint_velocity_offset_vector: d.opt_dvec("jointVelocityOffsetVector")?.unwrap_or_default(),
        joint_p_control_vector: d.opt_dvec("jointPControlVector")?.unwrap_or_default(),
        joint_d_control_vector: d.opt_dvec("jointDControlVector")?.unwrap_or_default(),
        gravity: d.vec_or("gravity", [0.0; 3])?,
        base_offset: d.vec_or("baseOffset", [0.0; 3])?,
    };
    Ok(Object::KinematicTree {
        name,
        node,
        parameters: Box::new(parameters),
    })
}
