//! Assemble: from items to the system's topology, computed once — coordinate layout in Exudyn's
//! order, every marker resolved to a generated kinematics kind, every joint to its generated
//! pairing kernel — with every check the items allow before anything runs.

use nalgebra::Matrix3;

use crate::error::{Error, ItemRef, Result};
use crate::items::{Load, Marker, Node, Object};
use crate::kernels::{KinematicsKind, spherical};
use crate::system::MultibodySystem;

/// A marker resolved against its body or node.
#[derive(Clone, Debug)]
pub struct ResolvedMarker {
    /// Generated kinematics kind (for BodyMass: the body's kind at the centre of mass).
    pub kind: KinematicsKind,
    /// First ODE2 index and count of the coordinates the marker depends on.
    pub ode2: std::ops::Range<usize>,
    /// Kernel parameters (local position, ground pose, …).
    pub parameters: Vec<f64>,
    /// Mass factor of a BodyMass marker's Jacobian (0 on ground).
    pub mass: f64,
    pub provides_position: bool,
    pub provides_orientation: bool,
}

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
}

/// A spherical joint with its generated pairing kernel.
#[derive(Clone, Debug)]
pub struct JointTopology {
    pub object: usize,
    pub markers: [usize; 2],
    pub kernel: spherical::PairingKernel,
    pub ae: usize,
    pub constrained: [bool; 3],
    pub active: bool,
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
    /// Whether every body's mass matrix is constant (only mass points here).
    pub constant_mass_matrix: bool,
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
                    if !matches!(n, Node::Point { .. }) && !n.is_rigid() {
                        unreachable!("all nodes have a position");
                    }
                    check_mass(&item, "mass", *mass)?;
                    claim_node(&mut node_body, &item, node.0, i)?;
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
                        Node::Point { .. } => {
                            return Err(Error::item(
                                item,
                                "nodeNumber",
                                format!(
                                    "node {} is a Point; ObjectRigidBody needs a rigid-body node (RigidBodyEP or RigidBodyRxyz)",
                                    node.0
                                ),
                            ));
                        }
                    };
                    check_mass(&item, "mass", *mass)?;
                    finite(&item, "inertia", inertia)?;
                    finite(&item, "centerOfMass", center_of_mass)?;
                    claim_node(&mut node_body, &item, node.0, i)?;
                    let start = node_ode2[node.0];
                    bodies.push(BodyTopology::Rigid {
                        ode2: start..start + n.ode2_size(),
                        rotation,
                        mass: *mass,
                        inertia: rigid_inertia(inertia),
                        center_of_mass: *center_of_mass,
                    });
                }
                _ => {}
            }
        }

        // --- markers
        let mut markers = Vec::with_capacity(mbs.markers.len());
        for (i, marker) in mbs.markers.iter().enumerate() {
            markers.push(resolve_marker(mbs, i, marker, &node_ode2)?);
        }

        // --- constraints' AE coordinates (object order), connectors
        let mut joints = Vec::new();
        let mut connectors = Vec::new();
        for (i, object) in mbs.objects.iter().enumerate() {
            let item = mbs.object_ref(i);
            match object {
                Object::JointSpherical {
                    markers: m,
                    constrained_axes,
                    active,
                    visualization,
                    ..
                } => {
                    let idx = check_position_markers(mbs, &item, *m, &markers)?;
                    let mut constrained = [true; 3];
                    for (k, &a) in constrained_axes.iter().enumerate() {
                        constrained[k] = match a {
                            0 => false,
                            1 => true,
                            other => {
                                return Err(Error::item(
                                    item,
                                    "constrainedAxes",
                                    format!(
                                        "entry {k} is {other}; each entry must be 0 (free) or 1 (constrained)"
                                    ),
                                ));
                            }
                        };
                    }
                    if !(visualization.joint_radius.is_finite()) {
                        return Err(Error::item(
                            item,
                            "VjointRadius",
                            "expected a finite radius",
                        ));
                    }
                    let k0 = markers[idx[0]].kind.index();
                    let k1 = markers[idx[1]].kind.index();
                    let Some(kernel) = spherical::kernel(k0, k1) else {
                        return Err(Error::item(
                            item,
                            "markerNumbers",
                            format!(
                                "both markers lie on ground ({} and {}): a joint needs at least one marker with coordinates",
                                markers[idx[0]].kind.name(),
                                markers[idx[1]].kind.name()
                            ),
                        ));
                    };
                    let ae = ae_owner.len();
                    for _ in 0..spherical::ROWS {
                        ae_owner.push(item.clone());
                    }
                    joints.push(JointTopology {
                        object: i,
                        markers: idx,
                        kernel,
                        ae,
                        constrained,
                        active: *active,
                    });
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

        let constant_mass_matrix = bodies
            .iter()
            .all(|b| matches!(b, BodyTopology::MassPoint { .. }));
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
                    "marker {} (markerNumbers[{k}]) is a {}, which gives no position; expected BodyPosition, BodyRigid, NodePosition or NodeRigid",
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

fn resolve_marker(
    mbs: &MultibodySystem,
    i: usize,
    marker: &Marker,
    node_ode2: &[usize],
) -> Result<ResolvedMarker> {
    let item = mbs.marker_ref(i);
    let node_marker = |n: crate::items::NodeIndex, orientation: bool| -> Result<ResolvedMarker> {
        let node = mbs.node_checked(&item, "nodeNumber", n)?;
        let kind = match node {
            Node::Point { .. } => KinematicsKind::NodePoint,
            Node::RigidBodyEP { .. } => KinematicsKind::NodeEp,
            Node::RigidBodyRxyz { .. } => KinematicsKind::NodeRxyz,
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
        let start = node_ode2[n.0];
        Ok(ResolvedMarker {
            kind,
            ode2: start..start + node.ode2_size(),
            parameters: Vec::new(),
            mass: 0.0,
            provides_position: true,
            provides_orientation: orientation,
        })
    };
    let body_marker = |b: crate::items::ObjectIndex,
                       local: [f64; 3],
                       orientation: bool,
                       mass_marker: bool|
     -> Result<ResolvedMarker> {
        finite(&item, "localPosition", &local)?;
        let object = mbs.object_checked(&item, "bodyNumber", b)?;
        let (kind, ode2, parameters, mass) = match object {
            Object::Ground {
                reference_position,
                reference_rotation,
                ..
            } => {
                let mut p = reference_position.to_vec();
                p.extend_from_slice(reference_rotation.as_flattened());
                p.extend_from_slice(&local);
                (KinematicsKind::GroundPoint, 0..0, p, 0.0)
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
                let n = mbs.node_checked(&item, "nodeNumber", *node)?;
                let start = node_ode2[node.0];
                // A mass point uses the first three coordinates of its node.
                let _ = n;
                (
                    KinematicsKind::MassPointBody,
                    start..start + 3,
                    local.to_vec(),
                    *mass,
                )
            }
            Object::RigidBody {
                node,
                mass,
                center_of_mass,
                ..
            } => {
                let n = mbs.node_checked(&item, "nodeNumber", *node)?;
                let kind = match n {
                    Node::RigidBodyEP { .. } => KinematicsKind::RigidEpPoint,
                    Node::RigidBodyRxyz { .. } => KinematicsKind::RigidRxyzPoint,
                    Node::Point { .. } => {
                        return Err(Error::item(
                            item.clone(),
                            "bodyNumber",
                            format!("object {} is a RigidBody on a Point node", b.0),
                        ));
                    }
                };
                let start = node_ode2[node.0];
                let p = if mass_marker {
                    center_of_mass.to_vec()
                } else {
                    local.to_vec()
                };
                (kind, start..start + n.ode2_size(), p, *mass)
            }
            other => {
                return Err(Error::item(
                    item.clone(),
                    "bodyNumber",
                    format!(
                        "object {} is a {}, not a body (Ground, MassPoint or RigidBody)",
                        b.0,
                        other.type_name()
                    ),
                ));
            }
        };
        Ok(ResolvedMarker {
            kind,
            ode2,
            parameters,
            mass,
            provides_position: !mass_marker,
            provides_orientation: orientation,
        })
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
            ..
        } => body_marker(*body, *local_position, true, false),
        Marker::NodePosition { node, .. } => node_marker(*node, false),
        Marker::NodeRigid { node, .. } => node_marker(*node, true),
    }
}
