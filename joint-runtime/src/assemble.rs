//! Assemble: from items to the system's topology, computed once — coordinate layout in Exudyn's
//! order, every marker resolved to a generated kinematics kind, every joint to its generated
//! pairing kernel — with every check the items allow before anything runs.

use nalgebra::{DMatrix, Matrix3, Vector3};

use crate::error::{Error, ItemRef, Result};
use crate::items::{Load, Marker, MatrixContainer, Node, Object};
use crate::joints::{Axes, JointKernel, JointObject, JointTopology};
use crate::markers::{MarkerModel, ResolvedMarker};
use crate::markers::kinematic_tree::KinematicTreeMarker;
use crate::markers::super_element::{SuperElementFrame, SuperElementMarker, SuperElementRotation};
use crate::items::OutputVariable;
use crate::system::MultibodySystem;
use crate::tree::KinematicTreeData;
use joint_core::{Capability, MarkerKind};
use std::sync::Arc;

/// Rotation parametrization of a rigid node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rotation {
    EulerParameters,
    TaitBryanXyz,
}

#[derive(Clone, Debug)]
pub enum BodyTopology {
    MassPoint {
        ode2: usize,
        mass: f64,
    },
    /// ObjectGenericODE2: constant M, K, D and f over `columns` (the stacked node coordinates).
    GenericODE2 {
        columns: Vec<usize>,
        mass: DMatrix<f64>,
        stiffness: DMatrix<f64>,
        damping: DMatrix<f64>,
        force: Vec<f64>,
    },
    /// ObjectKinematicTree: its node's coordinates at `start`..+links.
    KinematicTree {
        object: usize,
        start: usize,
        data: Arc<KinematicTreeData>,
    },
    /// ObjectFFRFreducedOrder: EP frame at `frame`..+7, modal coordinates at `modal`..+n_m.
    Ffrf {
        object: usize,
        frame: usize,
        modal: usize,
        data: Box<crate::superelement::ffrf::FfrfData>,
    },
    Rigid {
        ode2: std::ops::Range<usize>,
        rotation: Rotation,
        mass: f64,
        inertia: Matrix3<f64>,
        center_of_mass: [f64; 3],
    },
}

#[derive(Clone, Debug)]
pub enum ConnectorKind {
    SpringDamper {
        reference_length: f64,
        stiffness: f64,
        damping: f64,
        force: f64,
        velocity_offset: f64,
    },
    CartesianSpringDamper {
        stiffness: [f64; 3],
        damping: [f64; 3],
        offset: [f64; 3],
    },
}

#[derive(Clone, Debug)]
pub struct ConnectorTopology {
    pub object: usize,
    pub markers: [usize; 2],
    pub kind: ConnectorKind,
    pub active: bool,
    /// Whether Exudyn takes the analytic connector Jacobian: only if both markers provide the
    /// Jacobian derivative (`Marker::JacobianDerivativeAvailable`, set by the body and node
    /// markers, not by superelement or kinematic-tree markers); otherwise it differentiates the
    /// connector's LHS numerically (spec/solver.md §2.5).
    pub analytic_jacobian: bool,
}

/// The Euler-parameter constraint of a NodeRigidBodyEP.
#[derive(Clone, Debug)]
pub struct EulerParameterConstraint {
    pub node: usize,
    /// ODE2 index of θ0.
    pub ode2: usize,
    pub ae: usize,
}

#[derive(Clone, Debug)]
pub struct LoadTopology {
    pub load: usize,
    pub marker: usize,
    pub kind: LoadKind,
    pub vector: [f64; 3],
    pub body_fixed: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoadKind {
    MassProportional,
    Force,
    Torque,
}

/// The topology of an assembled system: computed once, read by the solvers every step.
#[derive(Clone, Debug)]
pub struct Topology {
    pub n_ode2: usize,
    pub n_ae: usize,
    /// First ODE2 index per node.
    pub node_ode2: Vec<usize>,
    /// AE index per node (EP constraint), if any.
    pub node_ae: Vec<Option<usize>>,
    pub reference: Vec<f64>,
    pub markers: Vec<ResolvedMarker>,
    pub bodies: Vec<BodyTopology>,
    pub connectors: Vec<ConnectorTopology>,
    pub joints: Vec<JointTopology>,
    pub ep_constraints: Vec<EulerParameterConstraint>,
    pub loads: Vec<LoadTopology>,
    /// For every AE equation: the item it belongs to (for singular-system messages).
    pub ae_owner: Vec<ItemRef>,
    /// For every ODE2 coordinate: its node.
    pub ode2_owner: Vec<ItemRef>,
    /// Whether every body's mass matrix is constant (mass points, GenericODE2).
    pub constant_mass_matrix: bool,
    /// The largest number of Jacobian columns of a marker or coordinates of a body (sizes the
    /// evaluation scratch space).
    pub max_columns: usize,
    /// The largest number of rows a joint's kernels evaluate (sizes the row buffers).
    pub max_kernel_rows: usize,
}

fn finite(item: &ItemRef, key: &str, values: &[f64]) -> Result<()> {
    if let Some(v) = values.iter().find(|v| !v.is_finite()) {
        return Err(Error::item(
            item.clone(),
            key,
            format!("expected finite numbers, found {v}"),
        ));
    }
    Ok(())
}

pub fn rigid_inertia(j: &[f64; 6]) -> Matrix3<f64> {
    // [Jxx, Jyy, Jzz, Jyz, Jxz, Jxy]
    Matrix3::new(j[0], j[5], j[4], j[5], j[1], j[3], j[4], j[3], j[2])
}

impl Topology {
    pub fn build(mbs: &MultibodySystem) -> Result<Topology> {
        // --- nodes: ODE2 layout and node AE coordinates, in node order
        let mut node_ode2 = Vec::with_capacity(mbs.nodes.len());
        let mut node_ae = Vec::with_capacity(mbs.nodes.len());
        let mut reference = Vec::new();
        let mut ae_owner = Vec::new();
        let mut ode2_owner = Vec::new();
        let mut ep_constraints = Vec::new();
        for (i, node) in mbs.nodes.iter().enumerate() {
            let item = mbs.node_ref(i);
            finite(&item, "referenceCoordinates", node.reference_coordinates())?;
            finite(&item, "initialCoordinates", node.initial_coordinates())?;
            finite(&item, "initialVelocities", node.initial_velocities())?;
            if let Node::RigidBodyEP {
                reference_coordinates: r,
                ..
            } = node
            {
                let norm = (r[3] * r[3] + r[4] * r[4] + r[5] * r[5] + r[6] * r[6]).sqrt();
                if (norm - 1.0).abs() > 100.0 * f64::EPSILON {
                    return Err(Error::item(
                        item,
                        "referenceCoordinates",
                        format!(
                            "the reference Euler parameters [{}, {}, {}, {}] must have unit length (|θ| = {norm})",
                            r[3], r[4], r[5], r[6]
                        ),
                    ));
                }
            }
            node_ode2.push(reference.len());
            if node.ae_size() > 0 {
                ep_constraints.push(EulerParameterConstraint {
                    node: i,
                    ode2: reference.len() + 3,
                    ae: ae_owner.len(),
                });
                node_ae.push(Some(ae_owner.len()));
                ae_owner.push(item.clone());
            } else {
                node_ae.push(None);
            }
            reference.extend_from_slice(node.reference_coordinates());
            for _ in 0..node.ode2_size() {
                ode2_owner.push(item.clone());
            }
        }
        let n_ode2 = reference.len();

        // --- bodies, in object order; a node may carry at most one body
        let mut node_body: Vec<Option<usize>> = vec![None; mbs.nodes.len()];
        // object index → index into `bodies`
        let mut object_body: Vec<Option<usize>> = vec![None; mbs.objects.len()];
        let mut bodies = Vec::new();
        for (i, object) in mbs.objects.iter().enumerate() {
            let item = mbs.object_ref(i);
            match object {
                Object::Ground {
                    reference_position,
                    reference_rotation,
                    ..
                } => {
                    finite(&item, "referencePosition", reference_position)?;
                    finite(
                        &item,
                        "referenceRotation",
                        reference_rotation.as_flattened(),
                    )?;
                }
                Object::MassPoint { mass, node, .. } => {
                    let n = mbs.node_checked(&item, "nodeNumber", *node)?;
                    if !n.has_position() {
                        return Err(Error::item(
                            item,
                            "nodeNumber",
                            format!(
                                "node {} is a {}, which has no position",
                                node.0,
                                n.type_name()
                            ),
                        ));
                    }
                    check_mass(&item, "mass", *mass)?;
                    claim_node(&mut node_body, &item, node.0, i)?;
                    object_body[i] = Some(bodies.len());
                    bodies.push(BodyTopology::MassPoint {
                        ode2: node_ode2[node.0],
                        mass: *mass,
                    });
                }
                Object::RigidBody {
                    mass,
                    inertia,
                    center_of_mass,
                    node,
                    ..
                } => {
                    let n = mbs.node_checked(&item, "nodeNumber", *node)?;
                    let rotation = match n {
                        Node::RigidBodyEP { .. } => Rotation::EulerParameters,
                        Node::RigidBodyRxyz { .. } => Rotation::TaitBryanXyz,
                        other => {
                            return Err(Error::item(
                                item,
                                "nodeNumber",
                                format!(
                                    "node {} is a {}; ObjectRigidBody needs a rigid-body node (RigidBodyEP or RigidBodyRxyz)",
                                    node.0,
                                    other.type_name()
                                ),
                            ));
                        }
                    };
                    check_mass(&item, "mass", *mass)?;
                    finite(&item, "inertia", inertia)?;
                    finite(&item, "centerOfMass", center_of_mass)?;
                    claim_node(&mut node_body, &item, node.0, i)?;
                    let start = node_ode2[node.0];
                    object_body[i] = Some(bodies.len());
                    bodies.push(BodyTopology::Rigid {
                        ode2: start..start + n.ode2_size(),
                        rotation,
                        mass: *mass,
                        inertia: rigid_inertia(inertia),
                        center_of_mass: *center_of_mass,
                    });
                }
                Object::GenericODE2 {
                    nodes,
                    mass_matrix,
                    stiffness_matrix,
                    damping_matrix,
                    force_vector,
                    ..
                } => {
                    if nodes.is_empty() {
                        return Err(Error::item(
                            item,
                            "nodeNumbers",
                            "a GenericODE2 needs at least one node",
                        ));
                    }
                    let mut columns = Vec::new();
                    for (k, n) in nodes.iter().enumerate() {
                        let node = mbs.node_checked(&item, "nodeNumbers", *n)?;
                        if nodes[..k].contains(n) {
                            return Err(Error::item(
                                item,
                                "nodeNumbers",
                                format!("node {} is listed twice", n.0),
                            ));
                        }
                        claim_node(&mut node_body, &item, n.0, i)?;
                        let start = node_ode2[n.0];
                        columns.extend(start..start + node.ode2_size());
                    }
                    let n = columns.len();
                    // its mass, stiffness and damping are kept as dense n × n matrices
                    crate::items::matrix::check_dense_size(n, n, 3)
                        .map_err(|message| Error::item(item.clone(), "nodeNumbers", message))?;
                    let matrix = |key: &str, m: &MatrixContainer| -> Result<DMatrix<f64>> {
                        let shape = m.shape();
                        if m.is_empty() {
                            return Ok(DMatrix::zeros(n, n));
                        }
                        if shape != (n, n) {
                            return Err(Error::item(
                                item.clone(),
                                key,
                                format!(
                                    "expected a {n} × {n} matrix (the nodes' {n} coordinates) or an empty one, found {} × {}",
                                    shape.0, shape.1
                                ),
                            ));
                        }
                        let d = m
                            .to_dense()
                            .map_err(|message| Error::item(item.clone(), key, message))?;
                        finite(&item, key, d.as_slice())?;
                        Ok(d)
                    };
                    if !stiffness_matrix.is_empty()
                        && !damping_matrix.is_empty()
                        && stiffness_matrix.is_sparse() != damping_matrix.is_sparse()
                    {
                        return Err(Error::item(
                            item,
                            "dampingMatrix",
                            "stiffnessMatrix and dampingMatrix must both be dense or both sparse (as in Exudyn)",
                        ));
                    }
                    let mass = matrix("massMatrix", mass_matrix)?;
                    let stiffness = matrix("stiffnessMatrix", stiffness_matrix)?;
                    let damping = matrix("dampingMatrix", damping_matrix)?;
                    let force = if force_vector.is_empty() {
                        vec![0.0; n]
                    } else if force_vector.len() == n {
                        finite(&item, "forceVector", force_vector)?;
                        force_vector.clone()
                    } else {
                        return Err(Error::item(
                            item,
                            "forceVector",
                            format!(
                                "expected {n} entries (or none), found {}",
                                force_vector.len()
                            ),
                        ));
                    };
                    object_body[i] = Some(bodies.len());
                    bodies.push(BodyTopology::GenericODE2 {
                        columns,
                        mass,
                        stiffness,
                        damping,
                        force,
                    });
                }
                Object::KinematicTree {
                    node, parameters, ..
                } => {
                    let n = mbs.node_checked(&item, "nodeNumber", *node)?;
                    if !matches!(n, Node::GenericODE2 { .. }) {
                        return Err(Error::item(
                            item,
                            "nodeNumber",
                            format!(
                                "node {} is a {}; ObjectKinematicTree needs a GenericODE2 node",
                                node.0,
                                n.type_name()
                            ),
                        ));
                    }
                    let data = kinematic_tree_data(&item, parameters, n.ode2_size())?;
                    claim_node(&mut node_body, &item, node.0, i)?;
                    object_body[i] = Some(bodies.len());
                    bodies.push(BodyTopology::KinematicTree {
                        object: i,
                        start: node_ode2[node.0],
                        data: Arc::new(data),
                    });
                }
                Object::FFRFreducedOrder {
                    nodes, parameters, ..
                } => {
                    let frame_node = mbs.node_checked(&item, "nodeNumbers", nodes[0])?;
                    if !matches!(frame_node, Node::RigidBodyEP { .. }) {
                        return Err(Error::item(
                            item,
                            "nodeNumbers",
                            format!(
                                "nodeNumbers[0] = {} is a {}; the reference frame must be a RigidBodyEP node (Tait–Bryan frames are not supported)",
                                nodes[0].0,
                                frame_node.type_name()
                            ),
                        ));
                    }
                    let modal_node = mbs.node_checked(&item, "nodeNumbers", nodes[1])?;
                    if !matches!(modal_node, Node::GenericODE2 { .. }) {
                        return Err(Error::item(
                            item,
                            "nodeNumbers",
                            format!(
                                "nodeNumbers[1] = {} is a {}; the modal coordinates must be a GenericODE2 node",
                                nodes[1].0,
                                modal_node.type_name()
                            ),
                        ));
                    }
                    if modal_node.reference_coordinates().iter().any(|&x| x != 0.0) {
                        return Err(Error::item(
                            item,
                            "nodeNumbers",
                            format!(
                                "the modal node {}'s reference coordinates must be zero",
                                nodes[1].0
                            ),
                        ));
                    }
                    claim_node(&mut node_body, &item, nodes[0].0, i)?;
                    claim_node(&mut node_body, &item, nodes[1].0, i)?;
                    let data = crate::superelement::ffrf::FfrfData::from_parameters(
                        parameters,
                        modal_node.ode2_size(),
                    )
                    .map_err(|(key, message)| Error::item(item.clone(), &key, message))?;
                    object_body[i] = Some(bodies.len());
                    bodies.push(BodyTopology::Ffrf {
                        object: i,
                        frame: node_ode2[nodes[0].0],
                        modal: node_ode2[nodes[1].0],
                        data: Box::new(data),
                    });
                }
                _ => {}
            }
        }

        // --- markers
        let mut markers = Vec::with_capacity(mbs.markers.len());
        for (i, marker) in mbs.markers.iter().enumerate() {
            markers.push(resolve_marker(
                mbs,
                i,
                marker,
                &node_ode2,
                &object_body,
                &bodies,
            )?);
        }

        // --- constraints' AE coordinates (object order), connectors
        let mut joints = Vec::new();
        let mut connectors = Vec::new();
        for (i, object) in mbs.objects.iter().enumerate() {
            let item = mbs.object_ref(i);
            match object {
                Object::Joint(joint) => {
                    let mut topology = assemble_joint(mbs, &item, i, joint, &markers)?;
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
                    let idx = check_position_markers(mbs, &item, *m, &markers)?;
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
                        analytic_jacobian: analytic_connector_jacobian(idx, &markers),
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
                    let idx = check_position_markers(mbs, &item, *m, &markers)?;
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
                        analytic_jacobian: analytic_connector_jacobian(idx, &markers),
                    });
                }
                _ => {}
            }
        }

        // --- loads
        let mut loads = Vec::new();
        for (i, load) in mbs.loads.iter().enumerate() {
            let item = mbs.load_ref(i);
            let m = load.marker();
            let marker = mbs.marker_checked(&item, "markerNumber", m)?;
            finite(&item, "loadVector", &load.load_vector())?;
            let (kind, body_fixed) = match load {
                Load::MassProportional { .. } => {
                    if !matches!(marker, Marker::BodyMass { .. }) {
                        return Err(Error::item(
                            item,
                            "markerNumber",
                            format!(
                                "marker {} is a {}; LoadMassProportional needs a BodyMass marker",
                                m.0,
                                marker.type_name()
                            ),
                        ));
                    }
                    (LoadKind::MassProportional, false)
                }
                Load::ForceVector { body_fixed, .. } => {
                    if !marker.provides_position() {
                        return Err(Error::item(
                            item,
                            "markerNumber",
                            format!(
                                "marker {} is a {}; LoadForceVector needs a marker that gives a position",
                                m.0,
                                marker.type_name()
                            ),
                        ));
                    }
                    if *body_fixed && !marker.provides_orientation() {
                        return Err(Error::item(
                            item,
                            "bodyFixed",
                            format!(
                                "bodyFixed needs a marker with orientation (BodyRigid or NodeRigid); marker {} is a {}",
                                m.0,
                                marker.type_name()
                            ),
                        ));
                    }
                    (LoadKind::Force, *body_fixed)
                }
                Load::TorqueVector { body_fixed, .. } => {
                    if !marker.provides_orientation() {
                        return Err(Error::item(
                            item,
                            "markerNumber",
                            format!(
                                "marker {} is a {}; LoadTorqueVector needs a marker with orientation (BodyRigid or NodeRigid)",
                                m.0,
                                marker.type_name()
                            ),
                        ));
                    }
                    (LoadKind::Torque, *body_fixed)
                }
            };
            loads.push(LoadTopology {
                load: i,
                marker: m.0,
                kind,
                vector: load.load_vector(),
                body_fixed,
            });
        }

        // --- sensors: only index checks here (outputs are checked when first evaluated)
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

        let constant_mass_matrix = bodies.iter().all(|b| {
            matches!(
                b,
                BodyTopology::MassPoint { .. } | BodyTopology::GenericODE2 { .. }
            )
        });
        let max_columns = markers
            .iter()
            .map(|m| m.columns.len())
            .chain(bodies.iter().map(|b| match b {
                BodyTopology::MassPoint { .. } => 3,
                BodyTopology::Rigid { ode2, .. } => ode2.len(),
                BodyTopology::GenericODE2 { columns, .. } => columns.len(),
                BodyTopology::Ffrf { data, .. } => 7 + data.modes(),
                BodyTopology::KinematicTree { data, .. } => data.links(),
            }))
            .max()
            .unwrap_or(0);
        let max_kernel_rows = joints
            .iter()
            .map(JointTopology::kernel_rows)
            .max()
            .unwrap_or(0);
        Ok(Topology {
            n_ode2,
            n_ae: ae_owner.len(),
            node_ode2,
            node_ae,
            reference,
            markers,
            bodies,
            connectors,
            joints,
            ep_constraints,
            loads,
            ae_owner,
            ode2_owner,
            constant_mass_matrix,
            max_columns,
            max_kernel_rows,
        })
    }
}

fn check_mass(item: &ItemRef, key: &str, mass: f64) -> Result<()> {
    if !mass.is_finite() || mass < 0.0 {
        return Err(Error::item(
            item.clone(),
            key,
            format!("the mass must be finite and ≥ 0, found {mass}"),
        ));
    }
    Ok(())
}

fn claim_node(
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

/// Exudyn's rule for a connector's ODE2 Jacobian: analytic if every marker provides the
/// Jacobian derivative (the built-in body and node markers), numerical otherwise.
fn analytic_connector_jacobian(markers: [usize; 2], resolved: &[ResolvedMarker]) -> bool {
    markers
        .iter()
        .all(|&m| matches!(resolved[m].model, MarkerModel::Kind { .. }))
}

fn check_position_markers(
    mbs: &MultibodySystem,
    item: &ItemRef,
    m: [crate::items::MarkerIndex; 2],
    resolved: &[ResolvedMarker],
) -> Result<[usize; 2]> {
    for (k, mk) in m.iter().enumerate() {
        let marker = mbs.marker_checked(item, "markerNumbers", *mk)?;
        if !resolved[mk.0].provides_position {
            return Err(Error::item(
                item.clone(),
                "markerNumbers",
                format!(
                    "marker {} (markerNumbers[{k}]) is a {}, which gives no position; expected BodyPosition, BodyRigid, NodePosition, NodeRigid, SuperElementPosition, SuperElementRigid or KinematicTreeRigid",
                    mk.0,
                    marker.type_name()
                ),
            ));
        }
    }
    if m[0] == m[1] {
        return Err(Error::item(
            item.clone(),
            "markerNumbers",
            format!(
                "both entries are marker {}; a connector needs two markers",
                m[0].0
            ),
        ));
    }
    Ok([m[0].0, m[1].0])
}

/// A constraint between two ground markers: no generated pairing exists (nothing to
/// constrain).
fn both_on_ground(item: &ItemRef, k0: MarkerKind, k1: MarkerKind) -> Error {
    Error::item(
        item.clone(),
        "markerNumbers",
        format!(
            "both markers lie on ground ({} and {}): a joint needs at least one marker with coordinates",
            k0.name(),
            k1.name()
        ),
    )
}

/// `constrainedAxes` as a mask (true = constrained); every entry must be 0 or 1.
fn constrained_axes_mask(item: &ItemRef, axes: &[i64]) -> Result<Vec<bool>> {
    axes.iter()
        .enumerate()
        .map(|(k, &a)| match a {
            0 => Ok(false),
            1 => Ok(true),
            other => Err(Error::item(
                item.clone(),
                "constrainedAxes",
                format!("entry {k} is {other}; each entry must be 0 (free) or 1 (constrained)"),
            )),
        })
        .collect()
}

/// A joint object's topology: its markers checked against what its definition needs, its
/// parameters checked and (for Exudyn's rigid joints) turned by the markers' local rotations,
/// its rows selected by `constrainedAxes`, and its kernel: the pairing of its markers' kinds,
/// or the marker-level kernels for markers without a generated kind. `ae` is set by the caller.
fn assemble_joint(
    mbs: &MultibodySystem,
    item: &ItemRef,
    object: usize,
    joint: &JointObject,
    markers: &[ResolvedMarker],
) -> Result<JointTopology> {
    let jt = &joint.joint_type;
    let definition = jt.definition;
    let idx = check_position_markers(mbs, item, joint.markers, markers)?;
    for (k, &mi) in idx.iter().enumerate() {
        let needs = definition.markers[k].capability;
        if needs == Capability::Rigid && !markers[mi].provides_orientation {
            return Err(Error::item(
                item.clone(),
                "markerNumbers",
                format!(
                    "marker {mi} (markerNumbers[{k}]) is a {}, which gives no orientation; a {} needs BodyRigid or NodeRigid markers",
                    mbs.markers[mi].type_name(),
                    jt.type_name
                ),
            ));
        }
    }
    // parameters: their count, finite values, the type's own checks
    let expected = definition.parameter_len();
    if joint.parameters.len() != expected {
        let list: Vec<String> = definition
            .parameters
            .iter()
            .map(|p| format!("{} ({})", jt.key_of(p.name).0, p.shape.keyword()))
            .collect();
        return Err(Error::item(
            item.clone(),
            "parameters",
            format!(
                "{} values given; {} takes {expected}: {}",
                joint.parameters.len(),
                jt.type_name,
                if list.is_empty() {
                    "none".to_owned()
                } else {
                    list.join(", ")
                }
            ),
        ));
    }
    let mut offset = 0;
    for p in definition.parameters {
        let n = p.shape.value_count();
        finite(
            item,
            jt.key_of(p.name).0,
            &joint.parameters[offset..offset + n],
        )?;
        offset += n;
    }
    if let Some(check) = jt.check {
        check(&joint.parameters).map_err(|(key, message)| Error::item(item.clone(), key, message))?;
    }
    if !joint.visualization.size.is_finite() {
        return Err(Error::item(
            item.clone(),
            jt.size_key,
            "expected a finite size",
        ));
    }
    // rows
    let equations: Vec<Option<usize>> = match jt.axes {
        Axes::Fixed => (0..definition.rows()).map(Some).collect(),
        Axes::Mask | Axes::Select { .. } => {
            let count = jt.axes_count();
            if joint.constrained_axes.len() != count {
                return Err(Error::item(
                    item.clone(),
                    "constrainedAxes",
                    format!(
                        "{} entries given; {} has {count}",
                        joint.constrained_axes.len(),
                        jt.type_name,
                    ),
                ));
            }
            let mask = constrained_axes_mask(item, &joint.constrained_axes)?;
            match jt.axes {
                Axes::Select { select, .. } => select(&mask),
                _ => mask
                    .iter()
                    .enumerate()
                    .map(|(k, &c)| c.then_some(k))
                    .collect(),
            }
        }
    };
    // kernel, and the local rotations of the markers
    let mut parameters = joint.parameters.clone();
    let kinds = (markers[idx[0]].kind(), markers[idx[1]].kind());
    let local = [
        markers[idx[0]].local_rotation,
        markers[idx[1]].local_rotation,
    ];
    let turned = local.iter().any(Option::is_some);
    let mut marker_level = false;
    match (jt.frame_parameters, turned) {
        (Some(frames), true) => {
            // A marker's localHT rotation R_l turns its joint frame exactly as rotationMarker
            // does: A_J = A_body·R_l·rotationMarker.
            for (k, name) in frames.iter().enumerate() {
                let (at, _) = definition
                    .parameter(name)
                    .expect("a frame parameter of the type's own definition");
                let r = Matrix3::from_row_slice(&parameters[at..at + 9]);
                let frame = local[k].unwrap_or_else(Matrix3::identity) * r;
                for (i, x) in parameters[at..at + 9].iter_mut().enumerate() {
                    *x = frame[(i / 3, i % 3)];
                }
            }
        }
        // the marker-level kernels see the markers' frames, local rotations included
        (None, true) => marker_level = true,
        _ => {}
    }
    let kernel = match kinds {
        (Some(k0), Some(k1)) if k0.coordinate_count() + k1.coordinate_count() == 0 => {
            return Err(both_on_ground(item, k0, k1));
        }
        (Some(k0), Some(k1)) if !marker_level => match definition.pairing(k0, k1) {
            Some(p) => JointKernel::Pairing(p),
            // kinds the definition was not generated for (`marker m0: Rigid(…)`)
            None => JointKernel::MarkerLevel,
        },
        (Some(_), Some(_)) => JointKernel::MarkerLevel,
        _ if jt.marker_level => JointKernel::MarkerLevel,
        _ => {
            return Err(Error::item(
                item.clone(),
                "markerNumbers",
                format!(
                    "{} supports markers on ground, mass points, rigid bodies and nodes; superelement and kinematic-tree markers are not supported yet",
                    jt.type_name
                ),
            ));
        }
    };
    Ok(JointTopology {
        object,
        markers: idx,
        definition,
        kernel,
        parameters,
        ae: 0,
        equations,
        active: joint.active,
    })
}

/// A BodyRigid/NodeRigid marker with its localHT rotation (kept only when not the identity).
fn with_local_rotation(
    item: &ItemRef,
    mut marker: ResolvedMarker,
    rotation: &[[f64; 3]; 3],
) -> Result<ResolvedMarker> {
    finite(item, "localHT", rotation.as_flattened())?;
    let r = Matrix3::from_row_slice(rotation.as_flattened());
    if r != Matrix3::identity() {
        marker.local_rotation = Some(r);
    }
    Ok(marker)
}

fn resolve_marker(
    mbs: &MultibodySystem,
    i: usize,
    marker: &Marker,
    node_ode2: &[usize],
    object_body: &[Option<usize>],
    bodies: &[BodyTopology],
) -> Result<ResolvedMarker> {
    let item = mbs.marker_ref(i);
    let node_marker = |n: crate::items::NodeIndex, orientation: bool| -> Result<ResolvedMarker> {
        let node = mbs.node_checked(&item, "nodeNumber", n)?;
        let kind = match node {
            Node::Point { .. } => MarkerKind::NodePoint,
            Node::RigidBodyEP { .. } => MarkerKind::NodeEp,
            Node::RigidBodyRxyz { .. } => MarkerKind::NodeRxyz,
            Node::GenericODE2 { .. } => {
                return Err(Error::item(
                    item.clone(),
                    "nodeNumber",
                    format!("node {} is a GenericODE2 node, which has no position", n.0),
                ));
            }
        };
        if orientation && !node.is_rigid() {
            return Err(Error::item(
                item.clone(),
                "nodeNumber",
                format!(
                    "node {} is a Point, which has no orientation; MarkerNodeRigid needs a rigid-body node",
                    n.0
                ),
            ));
        }
        let mut m = ResolvedMarker::of_kind(kind, node_ode2[n.0], node.ode2_size(), Vec::new());
        m.provides_orientation = orientation;
        Ok(m)
    };
    let body_marker = |b: crate::items::ObjectIndex,
                       local: [f64; 3],
                       orientation: bool,
                       mass_marker: bool|
     -> Result<ResolvedMarker> {
        finite(&item, "localPosition", &local)?;
        let object = mbs.object_checked(&item, "bodyNumber", b)?;
        let mut m = match object {
            Object::Ground {
                reference_position,
                reference_rotation,
                ..
            } => {
                let mut p = reference_position.to_vec();
                p.extend_from_slice(reference_rotation.as_flattened());
                p.extend_from_slice(&local);
                ResolvedMarker::of_kind(MarkerKind::GroundPoint, 0, 0, p)
            }
            Object::MassPoint { node, mass, .. } => {
                if orientation {
                    return Err(Error::item(
                        item.clone(),
                        "bodyNumber",
                        format!(
                            "object {} is a MassPoint, which has no orientation; MarkerBodyRigid needs a rigid body or ground",
                            b.0
                        ),
                    ));
                }
                mbs.node_checked(&item, "nodeNumber", *node)?;
                // A mass point uses the first three coordinates of its node.
                let mut m = ResolvedMarker::of_kind(
                    MarkerKind::MassPointBody,
                    node_ode2[node.0],
                    3,
                    local.to_vec(),
                );
                m.mass = *mass;
                m
            }
            Object::RigidBody {
                node,
                mass,
                center_of_mass,
                ..
            } => {
                let n = mbs.node_checked(&item, "nodeNumber", *node)?;
                let kind = match n {
                    Node::RigidBodyEP { .. } => MarkerKind::RigidEpPoint,
                    Node::RigidBodyRxyz { .. } => MarkerKind::RigidRxyzPoint,
                    other => {
                        return Err(Error::item(
                            item.clone(),
                            "bodyNumber",
                            format!(
                                "object {} is a RigidBody on a {} node",
                                b.0,
                                other.type_name()
                            ),
                        ));
                    }
                };
                let p = if mass_marker {
                    center_of_mass.to_vec()
                } else {
                    local.to_vec()
                };
                let mut m = ResolvedMarker::of_kind(kind, node_ode2[node.0], n.ode2_size(), p);
                m.mass = *mass;
                m
            }
            Object::FFRFreducedOrder { .. } if mass_marker => {
                let body = object_body[b.0].expect("FFRF objects are bodies");
                let BodyTopology::Ffrf {
                    frame, modal, data, ..
                } = &bodies[body]
                else {
                    unreachable!("object_body maps FFRF objects to FFRF bodies")
                };
                ResolvedMarker {
                    model: MarkerModel::FfrfMass { body },
                    columns: (*frame..*frame + 7)
                        .chain(*modal..*modal + data.modes())
                        .collect(),
                    mass: 1.0,
                    provides_position: false,
                    provides_orientation: false,
                    local_rotation: None,
                }
            }
            other => {
                let hint = if other.is_super_element() {
                    "; use MarkerSuperElementPosition or MarkerSuperElementRigid on superelements"
                } else {
                    ""
                };
                return Err(Error::item(
                    item.clone(),
                    "bodyNumber",
                    format!(
                        "object {} is a {}, not a body (Ground, MassPoint or RigidBody){hint}",
                        b.0,
                        other.type_name()
                    ),
                ));
            }
        };
        m.provides_position = !mass_marker;
        m.provides_orientation = orientation;
        Ok(m)
    };
    match marker {
        Marker::BodyMass { body, .. } => body_marker(*body, [0.0; 3], false, true),
        Marker::BodyPosition {
            body,
            local_position,
            ..
        } => body_marker(*body, *local_position, false, false),
        Marker::BodyRigid {
            body,
            local_position,
            local_rotation,
            ..
        } => with_local_rotation(
            &item,
            body_marker(*body, *local_position, true, false)?,
            local_rotation,
        ),
        Marker::NodePosition { node, .. } => node_marker(*node, false),
        Marker::NodeRigid {
            node,
            local_rotation,
            ..
        } => with_local_rotation(&item, node_marker(*node, true)?, local_rotation),
        Marker::KinematicTreeRigid {
            object,
            link,
            local_position,
            ..
        } => {
            finite(&item, "localPosition", local_position)?;
            let o = mbs.object_checked(&item, "objectNumber", *object)?;
            let Object::KinematicTree { .. } = o else {
                return Err(Error::item(
                    item,
                    "objectNumber",
                    format!(
                        "object {} is a {}; MarkerKinematicTreeRigid needs a KinematicTree",
                        object.0,
                        o.type_name()
                    ),
                ));
            };
            let b = object_body[object.0].expect("trees are bodies");
            let BodyTopology::KinematicTree { start, data, .. } = &bodies[b] else {
                unreachable!("object_body maps trees to tree bodies")
            };
            if *link >= data.links() {
                return Err(Error::item(
                    item,
                    "linkNumber",
                    format!(
                        "link {link} does not exist (the tree has {} links)",
                        data.links()
                    ),
                ));
            }
            let mut columns = Vec::new();
            let mut j = *link as isize;
            while j >= 0 {
                columns.push(start + j as usize);
                j = data.parents[j as usize];
            }
            Ok(ResolvedMarker {
                model: MarkerModel::KinematicTree(Box::new(KinematicTreeMarker {
                    tree: Arc::clone(data),
                    start: *start,
                    link: *link,
                    local_position: Vector3::from(*local_position),
                })),
                columns,
                mass: 0.0,
                provides_position: true,
                provides_orientation: true,
                local_rotation: None,
            })
        }
        Marker::SuperElementPosition {
            body,
            mesh_nodes,
            weights,
            ..
        } => resolve_super_element(
            mbs,
            &item,
            *body,
            mesh_nodes,
            weights,
            None,
            node_ode2,
            object_body,
            bodies,
        ),
        Marker::SuperElementRigid {
            body,
            offset,
            mesh_nodes,
            weights,
            use_alternative_approach,
            rotations_exponential_map,
            ..
        } => {
            finite(&item, "offset", offset)?;
            if !(0..=2).contains(rotations_exponential_map) {
                return Err(Error::item(
                    item,
                    "rotationsExponentialMap",
                    format!(
                        "{rotations_exponential_map} is not supported; 0 (I + θ̃), 1 (ExpSO3) and 2 (ExpSO3 with its tangent operator, the default) are"
                    ),
                ));
            }
            resolve_super_element(
                mbs,
                &item,
                *body,
                mesh_nodes,
                weights,
                Some((
                    *offset,
                    *use_alternative_approach,
                    *rotations_exponential_map,
                )),
                node_ode2,
                object_body,
                bodies,
            )
        }
    }
}

/// A superelement marker: the weighted mesh nodes of a GenericODE2 or FFRFreducedOrder
/// object, with the constant parts of its kinematics precomputed.
#[allow(clippy::too_many_arguments)]
fn resolve_super_element(
    mbs: &MultibodySystem,
    item: &ItemRef,
    body: crate::items::ObjectIndex,
    mesh_nodes: &[usize],
    weights: &[f64],
    rigid: Option<([f64; 3], bool, i64)>,
    node_ode2: &[usize],
    object_body: &[Option<usize>],
    bodies: &[BodyTopology],
) -> Result<ResolvedMarker> {
    let object = mbs.object_checked(item, "bodyNumber", body)?;
    if !object.is_super_element() {
        return Err(Error::item(
            item.clone(),
            "bodyNumber",
            format!(
                "object {} is a {}; superelement markers need a GenericODE2 or FFRFreducedOrder object",
                body.0,
                object.type_name()
            ),
        ));
    }
    if mesh_nodes.is_empty() {
        return Err(Error::item(
            item.clone(),
            "meshNodeNumbers",
            "at least one mesh node is needed",
        ));
    }
    if weights.len() != mesh_nodes.len() {
        return Err(Error::item(
            item.clone(),
            "weightingFactors",
            format!(
                "{} weights for {} mesh nodes",
                weights.len(),
                mesh_nodes.len()
            ),
        ));
    }
    finite(item, "weightingFactors", weights)?;
    let weight_sum: f64 = weights.iter().sum();
    let mut reference_positions = Vec::with_capacity(mesh_nodes.len());
    let (frame, columns, jacobian_blocks) = match object {
        Object::GenericODE2 { nodes, .. } => {
            let mut starts = Vec::with_capacity(mesh_nodes.len());
            for &k in mesh_nodes {
                let Some(n) = nodes.get(k) else {
                    return Err(Error::item(
                        item.clone(),
                        "meshNodeNumbers",
                        format!(
                            "mesh node {k} does not exist (object {} has {} nodes)",
                            body.0,
                            nodes.len()
                        ),
                    ));
                };
                let node = &mbs.nodes[n.0];
                if !matches!(node, Node::Point { .. }) {
                    return Err(Error::item(
                        item.clone(),
                        "meshNodeNumbers",
                        format!(
                            "mesh node {k} is node {} ({}); marked mesh nodes must be Point nodes (3 coordinates)",
                            n.0,
                            node.type_name()
                        ),
                    ));
                }
                let r = node.reference_coordinates();
                reference_positions.push(Vector3::new(r[0], r[1], r[2]));
                starts.push(node_ode2[n.0]);
            }
            if rigid.is_some()
                && nodes
                    .iter()
                    .any(|n| !matches!(mbs.nodes[n.0], Node::Point { .. }))
            {
                return Err(Error::item(
                    item.clone(),
                    "bodyNumber",
                    "MarkerSuperElementRigid on a GenericODE2 needs all of its nodes to be Point nodes",
                ));
            }
            // Jacobian column blocks: unique nodes in first-appearance order, each with the
            // last weight given for it (Exudyn writes, not adds, repeated nodes' blocks).
            let mut blocks: Vec<(usize, f64)> = Vec::new();
            for (s, w) in starts.iter().zip(weights) {
                match blocks.iter_mut().find(|(b, _)| b == s) {
                    Some(b) => b.1 = *w,
                    None => blocks.push((*s, *w)),
                }
            }
            let columns = blocks.iter().flat_map(|(s, _)| *s..*s + 3).collect();
            (
                SuperElementFrame::None {
                    node_starts: starts,
                },
                columns,
                blocks,
            )
        }
        Object::FFRFreducedOrder { parameters, .. } => {
            let b = object_body[body.0].expect("FFRF objects are bodies");
            let BodyTopology::Ffrf {
                frame, modal, data, ..
            } = &bodies[b]
            else {
                unreachable!("object_body maps FFRF objects to FFRF bodies")
            };
            let n_modes = data.modes();
            let n_mesh = parameters.reference_positions.len() / 3;
            let mut mode_rows = Vec::with_capacity(mesh_nodes.len());
            for &k in mesh_nodes {
                if k >= n_mesh {
                    return Err(Error::item(
                        item.clone(),
                        "meshNodeNumbers",
                        format!(
                            "mesh node {k} does not exist (object {} has {n_mesh} mesh nodes)",
                            body.0
                        ),
                    ));
                }
                let x = &parameters.reference_positions[3 * k..3 * k + 3];
                reference_positions.push(Vector3::new(x[0], x[1], x[2]));
                mode_rows.push(parameters.mode_basis.rows(3 * k, 3).into_owned());
            }
            let mut weighted_modes = DMatrix::zeros(3, n_modes);
            for (psi, w) in mode_rows.iter().zip(weights) {
                weighted_modes += psi * *w;
            }
            let columns = (*frame..*frame + 7)
                .chain(*modal..*modal + n_modes)
                .collect();
            let weighted_modes_row_major = (0..3)
                .flat_map(|r| (0..n_modes).map(move |c| (r, c)))
                .map(|(r, c)| weighted_modes[(r, c)])
                .collect();
            let f = SuperElementFrame::Ffrf {
                frame: *frame,
                modal: *modal,
                mode_rows,
                weighted_modes,
                weighted_modes_row_major,
                tilde_weighted_modes: DMatrix::zeros(3, n_modes),
            };
            (f, columns, Vec::new())
        }
        _ => unreachable!("checked is_super_element"),
    };
    let weighted_reference: Vector3<f64> = reference_positions
        .iter()
        .zip(weights)
        .map(|(x, w)| *w * x)
        .sum();
    let mut frame = frame;
    let rotation = match rigid {
        None => None,
        Some((offset, alternative, mode)) => {
            let arms: Vec<Vector3<f64>> = reference_positions
                .iter()
                .map(|x| x - weighted_reference)
                .collect();
            let w_inverse = if alternative {
                let mut w = Matrix3::zeros();
                for (p, wi) in arms.iter().zip(weights) {
                    let t = crate::markers::rotation_vector::skew(p);
                    w -= (t * t) * *wi;
                }
                w.try_inverse().filter(|m| m.iter().all(|x| x.is_finite())).ok_or_else(|| {
                    Error::item(
                        item.clone(),
                        "meshNodeNumbers",
                        "the weighted mesh nodes do not determine a rotation (W = −Σ w P̃ P̃ is singular): mark at least three non-collinear nodes",
                    )
                })?
            } else {
                let s: f64 = arms
                    .iter()
                    .zip(weights)
                    .map(|(p, w)| w * p.norm_squared())
                    .sum();
                if s == 0.0 || !s.is_finite() {
                    return Err(Error::item(
                        item.clone(),
                        "meshNodeNumbers",
                        "Σ w |P|² = 0: the marked nodes do not determine a rotation",
                    ));
                }
                Matrix3::identity() / s
            };
            let tilde = |i: usize| crate::markers::rotation_vector::skew(&arms[i]) * weights[i];
            let mut tilde_weights = Vec::new();
            match &mut frame {
                SuperElementFrame::None { node_starts } => {
                    for (s, _) in &jacobian_blocks {
                        let mut m = Matrix3::zeros();
                        for (i, n) in node_starts.iter().enumerate() {
                            if n == s {
                                m += tilde(i);
                            }
                        }
                        tilde_weights.push(m);
                    }
                }
                SuperElementFrame::Ffrf {
                    mode_rows,
                    tilde_weighted_modes,
                    ..
                } => {
                    for (i, psi) in mode_rows.iter().enumerate() {
                        *tilde_weighted_modes += tilde(i) * psi;
                    }
                }
            }
            Some(SuperElementRotation {
                offset: Vector3::from(offset),
                alternative,
                mode,
                w_inverse,
                arms,
                tilde_weights,
            })
        }
    };
    let orientation = rotation.is_some();
    Ok(ResolvedMarker {
        model: MarkerModel::SuperElement(Box::new(SuperElementMarker {
            frame,
            weights: weights.to_vec(),
            weight_sum,
            reference_positions,
            weighted_reference,
            block_starts: jacobian_blocks.iter().map(|b| b.0).collect(),
            block_weights: jacobian_blocks.iter().map(|b| b.1).collect(),
            jacobian_blocks,
            rotation,
        })),
        columns,
        mass: 0.0,
        provides_position: true,
        provides_orientation: orientation,
        local_rotation: None,
    })
}

/// The tree's data, with every list checked against the node's `n` coordinates.
fn kinematic_tree_data(
    item: &ItemRef,
    p: &crate::items::KinematicTreeParameters,
    n: usize,
) -> Result<KinematicTreeData> {
    let len = |key: &str, got: usize, may_be_empty: bool| -> Result<()> {
        if got == n || (may_be_empty && got == 0) {
            Ok(())
        } else {
            Err(Error::item(
                item.clone(),
                key,
                format!(
                    "expected {n} entries (one per link: the tree's node has {n} coordinates){}, found {got}",
                    if may_be_empty { " or none" } else { "" }
                ),
            ))
        }
    };
    len("jointTypes", p.joint_types.len(), false)?;
    len("linkParents", p.link_parents.len(), false)?;
    len("jointTransformations", p.joint_transformations.len(), false)?;
    len("jointOffsets", p.joint_offsets.len(), false)?;
    len("linkInertiasCOM", p.link_inertias_com.len(), false)?;
    len("linkCOMs", p.link_coms.len(), false)?;
    len("linkMasses", p.link_masses.len(), false)?;
    len("linkForces", p.link_forces.len(), true)?;
    len("linkTorques", p.link_torques.len(), true)?;
    len("jointForceVector", p.joint_force_vector.len(), true)?;
    len(
        "jointPositionOffsetVector",
        p.joint_position_offset_vector.len(),
        true,
    )?;
    len(
        "jointVelocityOffsetVector",
        p.joint_velocity_offset_vector.len(),
        true,
    )?;
    len("jointPControlVector", p.joint_p_control_vector.len(), true)?;
    len("jointDControlVector", p.joint_d_control_vector.len(), true)?;
    if p.joint_position_offset_vector.len() != p.joint_p_control_vector.len() {
        return Err(Error::item(
            item.clone(),
            "jointPControlVector",
            "jointPositionOffsetVector and jointPControlVector must have the same length",
        ));
    }
    if p.joint_velocity_offset_vector.len() != p.joint_d_control_vector.len() {
        return Err(Error::item(
            item.clone(),
            "jointDControlVector",
            "jointVelocityOffsetVector and jointDControlVector must have the same length",
        ));
    }
    for (i, t) in p.joint_types.iter().enumerate() {
        if !(1..=6).contains(t) {
            return Err(Error::item(
                item.clone(),
                "jointTypes",
                format!("entry {i}: joint type {t} is not RevoluteX/Y/Z or PrismaticX/Y/Z"),
            ));
        }
    }
    let mut parents = Vec::with_capacity(n);
    for (i, &pi) in p.link_parents.iter().enumerate() {
        if pi < -1 || pi >= i as i64 {
            return Err(Error::item(
                item.clone(),
                "linkParents",
                format!(
                    "entry {i} is {pi}; a link's parent must be −1 (the base) or an earlier link (< {i})"
                ),
            ));
        }
        parents.push(pi as isize);
    }
    for (i, m) in p.link_masses.iter().enumerate() {
        if !m.is_finite() || *m < 0.0 {
            return Err(Error::item(
                item.clone(),
                "linkMasses",
                format!("entry {i}: the mass must be finite and ≥ 0, found {m}"),
            ));
        }
    }
    let matrices = |v: &[[[f64; 3]; 3]]| -> Vec<f64> {
        v.iter().flat_map(|m| m.as_flattened().to_vec()).collect()
    };
    finite(
        item,
        "jointTransformations",
        &matrices(&p.joint_transformations),
    )?;
    finite(item, "jointOffsets", p.joint_offsets.as_flattened())?;
    finite(item, "linkInertiasCOM", &matrices(&p.link_inertias_com))?;
    finite(item, "linkCOMs", p.link_coms.as_flattened())?;
    finite(item, "linkForces", p.link_forces.as_flattened())?;
    finite(item, "linkTorques", p.link_torques.as_flattened())?;
    for (key, v) in [
        ("jointForceVector", &p.joint_force_vector),
        ("jointPositionOffsetVector", &p.joint_position_offset_vector),
        ("jointVelocityOffsetVector", &p.joint_velocity_offset_vector),
        ("jointPControlVector", &p.joint_p_control_vector),
        ("jointDControlVector", &p.joint_d_control_vector),
    ] {
        finite(item, key, v)?;
    }
    finite(item, "gravity", &p.gravity)?;
    finite(item, "baseOffset", &p.base_offset)?;
    Ok(KinematicTreeData {
        joint_types: p.joint_types.clone(),
        parents,
        transformations: p.joint_transformations.clone(),
        offsets: p.joint_offsets.clone(),
        inertias_com: p
            .link_inertias_com
            .iter()
            .map(|m| Matrix3::from_row_slice(m.as_flattened()))
            .collect(),
        coms: p.link_coms.iter().map(|c| Vector3::from(*c)).collect(),
        masses: p.link_masses.clone(),
        link_forces: p.link_forces.iter().map(|c| Vector3::from(*c)).collect(),
        link_torques: p.link_torques.iter().map(|c| Vector3::from(*c)).collect(),
        joint_forces: p.joint_force_vector.clone(),
        position_offsets: p.joint_position_offset_vector.clone(),
        p_control: p.joint_p_control_vector.clone(),
        velocity_offsets: p.joint_velocity_offset_vector.clone(),
        d_control: p.joint_d_control_vector.clone(),
        gravity: Vector3::from(p.gravity),
        base_offset: p.base_offset,
    })
}
