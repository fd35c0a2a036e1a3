//! Assemble: from items to the system's topology, computed once — coordinate layout in Exudyn's
//! order, every marker resolved to a generated kinematics kind, every joint to its generated
//! pairing kernel — with every check the items allow before anything runs.
//!
//! `Topology::build` runs the passes in Exudyn's item order: `nodes` (layout), `bodies`,
//! `markers` (one file per family of marker items; the outputs resolve their node and body
//! markers through the same `MarkerResolver`), `objects` (joints through
//! `joints`, connectors), `ode1` (first-order systems), `loads`, then the sensors' references
//! (`checks`).

mod bodies;
mod checks;
mod connector_families;
mod force_connectors;
mod joints;
mod kinematic_tree;
mod loads;
mod markers;
mod nodes;
mod objects;
mod ode1;
mod states;

use nalgebra::{DMatrix, Matrix3};

pub(crate) use markers::{MarkerResolver, OutputMarkers};
pub use states::{ItemStates, StateOwner};

use crate::error::{ItemRef, Result};
use crate::items::joints::JointTopology;
use crate::markers::ResolvedMarker;
use crate::system::MultibodySystem;
use crate::tree::KinematicTreeData;
use std::sync::Arc;

/// Rotation parametrization of a rigid node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
// the parametrization's own name (a rotation vector on the Lie group), not a repeated prefix;
// the lint fires only when `assemble` is private (default features)
#[allow(clippy::enum_variant_names)]
pub enum Rotation {
    EulerParameters,
    TaitBryanXyz,
    /// NodeRigidBodyRotVecLG: a rotation vector whose velocity coordinates are ω̄ (Ḡ = I).
    RotationVectorLieGroup,
}

#[derive(Clone, Debug)]
pub enum BodyTopology {
    MassPoint {
        ode2: usize,
        mass: f64,
    },
    /// ObjectMassPoint2D: mass on x, y.
    MassPoint2D {
        ode2: usize,
        mass: f64,
    },
    /// ObjectRigidBody2D on [x, y, ψ]: mass, inertia about z at the node, centre of mass in
    /// body axes.
    Rigid2D {
        ode2: usize,
        mass: f64,
        inertia: f64,
        center_of_mass: [f64; 2],
    },
    /// ObjectBeamGeometricallyExact2D on its two NodeRigidBody2D's columns (nodes it may share
    /// with other beams).
    Beam2D {
        columns: [usize; 6],
        beam: crate::items::beam::Beam2D,
    },
    /// ObjectMass1D (mass) or ObjectRotationalMass1D (inertia) on one coordinate.
    Mass1D {
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
        start: usize,
        data: Arc<KinematicTreeData>,
    },
    /// ObjectFFRFreducedOrder: EP frame at `frame`..+7, modal coordinates at `modal`..+n_m.
    Ffrf {
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
    /// A force element defined with `joint!` — a user's, or an Exudyn connector with a
    /// [`DefinedForce`](crate::items::connectors::DefinedForce): its force and derivatives from
    /// its kernels, its parameters flattened once here.
    Defined {
        definition: &'static joint_core::ForceDefinition,
        /// Its parameter values, in the definition's flat layout.
        parameters: Box<[f64]>,
        /// What a built-in connector adds to its definition.
        hook: ForceHook,
    },
    /// A connector of `items/connectors/` with forces of its own, with its data node's
    /// coordinates.
    Family {
        family: std::sync::Arc<dyn crate::items::connectors::ConnectorFamily>,
        data: std::ops::Range<usize>,
    },
}

pub use crate::items::connectors::ForceHook;

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
    /// Where Exudyn differentiates numerically though the force has a definition whose
    /// derivatives apply (LinearSpringDamper on built-in marker kinds): the fast path takes
    /// those derivatives (`SolverMode::Fast`); the exact path keeps Exudyn's differences.
    pub derived_jacobian: bool,
}

impl ConnectorTopology {
    /// Whether its K and D are formed from derivatives (else forward differences): where
    /// Exudyn forms them so, and with `derived` (the fast path) also where only the force
    /// definition's derivatives do.
    pub fn analytic(&self, derived: bool) -> bool {
        self.analytic_jacobian || (derived && self.derived_jacobian)
    }
}

/// An ObjectGenericODE1: ẏ = A·y + f on its nodes' ODE1 coordinates.
#[derive(Clone, Debug)]
pub struct Ode1System {
    pub object: usize,
    /// The ODE1 indices of its stacked coordinates.
    pub columns: Vec<usize>,
    /// `systemMatrix` A, if given.
    pub matrix: Option<DMatrix<f64>>,
    /// `rhsVector` f, if given.
    pub rhs: Option<Vec<f64>>,
}

/// The Euler-parameter constraint of a NodeRigidBodyEP.
#[derive(Clone, Debug)]
pub struct EulerParameterConstraint {
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
    /// Its generalized force does not depend on the state (a global force or a mass-
    /// proportional load through a constant position Jacobian, a node coordinate's load): the
    /// fast residual takes it from [`Topology::constant_loads`].
    pub constant: bool,
    /// A constant load's generalized force over its marker's columns in Exudyn's rounding at
    /// load factor 1, formed once when it comes out the same bits in every state (checked at
    /// assembly, `Topology::sum_constant_loads`); empty otherwise. The exact residual adds
    /// it in place of forming the load's Jacobian again at every iteration.
    pub exact_force: Vec<f64>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoadKind {
    MassProportional,
    Force,
    Torque,
    /// LoadCoordinate: `vector[0]` on its marker's one column.
    Coordinate,
}

/// The topology of an assembled system: computed once, read by the solvers every step.
#[derive(Clone, Debug)]
pub struct Topology {
    pub n_ode2: usize,
    /// ODE1 coordinates (NodeGenericODE1), solved for between the ODE2 and the AE unknowns.
    pub n_ode1: usize,
    pub n_ae: usize,
    /// First ODE2 index per node.
    pub node_ode2: Vec<usize>,
    /// First data coordinate per node (NodeGenericData).
    pub node_data: Vec<usize>,
    /// First ODE1 coordinate per node (NodeGenericODE1).
    pub node_ode1: Vec<usize>,
    pub reference: Vec<f64>,
    /// ODE1 reference coordinates (only the `CoordinatesTotal` outputs read them).
    pub ode1_reference: Vec<f64>,
    /// For every ODE1 coordinate: its node.
    pub ode1_owner: Vec<ItemRef>,
    /// The ObjectGenericODE1s.
    pub ode1_systems: Vec<Ode1System>,
    pub markers: Vec<ResolvedMarker>,
    pub bodies: Vec<BodyTopology>,
    pub connectors: Vec<ConnectorTopology>,
    pub joints: Vec<JointTopology>,
    /// Coordinate-vector joints (ObjectConnectorCoordinateVector and `Coordinates` joints).
    pub coordinate_vectors: Vec<crate::items::joints::CoordinateVectorTopology>,
    pub ep_constraints: Vec<EulerParameterConstraint>,
    pub loads: Vec<LoadTopology>,
    /// The generalized forces of the loads marked `constant`, summed once at assembly (load
    /// factor 1): the fast residual's start, where Exudyn's order evaluates every load at
    /// every residual.
    pub constant_loads: Vec<f64>,
    /// For every AE equation: the item it belongs to (for singular-system messages).
    pub ae_owner: Vec<ItemRef>,
    /// For every ODE2 coordinate: its node.
    pub ode2_owner: Vec<ItemRef>,
    /// Whether every body's mass matrix is constant (mass points, GenericODE2).
    pub constant_mass_matrix: bool,
    /// The first ODE2 column of every NodeRigidBodyRotVecLG, in node order: the nodes whose
    /// rotation vectors solvers update by composition (`physics/lie_group.rs`).
    pub lie_nodes: Vec<usize>,
    /// The largest number of Jacobian columns of a marker or coordinates of a body (sizes the
    /// evaluation scratch space).
    pub max_columns: usize,
    /// The largest number of rows a joint's kernels evaluate (sizes the row buffers).
    pub max_kernel_rows: usize,
    /// Per object, what it became: resolved once, so that outputs and sensors index instead of
    /// searching.
    pub objects: Vec<ObjectTopology>,
    /// Per sensor, the markers its output reads (resolved here, once).
    pub(crate) sensor_markers: Vec<OutputMarkers>,
    /// The items with states (`state NAME = …;`), their data coordinates after the nodes'.
    pub item_states: Vec<ItemStates>,
}

/// What an object became in the topology.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ObjectTopology {
    /// Ground and objects without equations of their own.
    None,
    /// A body: its index in `Topology::bodies`.
    Body(usize),
    /// A joint: its index in `Topology::joints`.
    Joint(usize),
    /// A connector: its index in `Topology::connectors`.
    Connector(usize),
    /// A first-order system: its index in `Topology::ode1_systems`.
    Ode1System(usize),
    /// A coordinate-vector joint: its index in `Topology::coordinate_vectors`.
    CoordinateVector(usize),
}

pub fn rigid_inertia(j: &[f64; 6]) -> Matrix3<f64> {
    // [Jxx, Jyy, Jzz, Jyz, Jxz, Jxy]
    Matrix3::new(j[0], j[5], j[4], j[5], j[1], j[3], j[4], j[3], j[2])
}

impl Topology {
    /// The topology of `mbs`, or the first problem found, naming the item and the key.
    pub fn build(mbs: &MultibodySystem) -> Result<Topology> {
        let nodes::NodeLayout {
            node_ode2,
            node_data,
            node_ode1,
            ode1_reference,
            ode1_owner,
            reference,
            mut ae_owner,
            ode2_owner,
            ep_constraints,
        } = nodes::node_layout(mbs)?;
        let n_ode2 = reference.len();
        let (bodies, object_body) = bodies::bodies(mbs, &node_ode2)?;
        let mut objects: Vec<ObjectTopology> = object_body
            .iter()
            .map(|b| b.map_or(ObjectTopology::None, ObjectTopology::Body))
            .collect();
        let markers = MarkerResolver {
            mbs,
            node_ode2: &node_ode2,
            objects: &objects,
            bodies: &bodies,
        }
        .resolve_all()?;

        let (joints, connectors, coordinate_vectors) =
            objects::joints_and_connectors(mbs, &markers, &node_data, &mut ae_owner)?;
        let ode1_systems = ode1::ode1_systems(mbs, &node_ode1)?;
        let loads = loads::loads(mbs)?;
        checks::check_sensors(mbs)?;

        let constant_mass_matrix = bodies.iter().all(|b| {
            matches!(
                b,
                BodyTopology::MassPoint { .. }
                    | BodyTopology::MassPoint2D { .. }
                    | BodyTopology::Rigid2D {
                        center_of_mass: [0.0, 0.0],
                        ..
                    }
                    // Ḡ = I: M = diag(m I, J) unless the centre of mass is off the node
                    | BodyTopology::Rigid {
                        rotation: Rotation::RotationVectorLieGroup,
                        center_of_mass: [0.0, 0.0, 0.0],
                        ..
                    }
                    | BodyTopology::Beam2D { .. }
                    | BodyTopology::Mass1D { .. }
                    | BodyTopology::GenericODE2 { .. }
            )
        });
        let max_columns = markers
            .iter()
            .map(|m| m.columns.len())
            .chain(bodies.iter().map(|b| match b {
                BodyTopology::MassPoint { .. } => 3,
                BodyTopology::MassPoint2D { .. } => 2,
                BodyTopology::Rigid2D { .. } => 3,
                BodyTopology::Beam2D { .. } => 6,
                BodyTopology::Mass1D { .. } => 1,
                BodyTopology::Rigid { ode2, .. } => ode2.len(),
                BodyTopology::GenericODE2 { columns, .. } => columns.len(),
                BodyTopology::Ffrf { data, .. } => 7 + data.modes(),
                BodyTopology::KinematicTree { data, .. } => data.links(),
            }))
            .chain(ode1_systems.iter().map(|s| s.columns.len()))
            .max()
            .unwrap_or(0);
        let max_kernel_rows = joints
            .iter()
            .map(JointTopology::kernel_rows)
            .chain(coordinate_vectors.iter().map(|c| c.rows))
            .max()
            .unwrap_or(0);
        for (k, j) in joints.iter().enumerate() {
            objects[j.object] = ObjectTopology::Joint(k);
        }
        for (k, c) in connectors.iter().enumerate() {
            objects[c.object] = ObjectTopology::Connector(k);
        }
        for (k, c) in coordinate_vectors.iter().enumerate() {
            objects[c.object] = ObjectTopology::CoordinateVector(k);
        }
        for (k, c) in ode1_systems.iter().enumerate() {
            objects[c.object] = ObjectTopology::Ode1System(k);
        }
        let sensor_markers = (MarkerResolver {
            mbs,
            node_ode2: &node_ode2,
            objects: &objects,
            bodies: &bodies,
        })
        .sensor_markers()?;
        let lie_nodes = mbs
            .nodes
            .iter()
            .zip(&node_ode2)
            .filter(|(n, _)| n.is_lie_group())
            .map(|(_, &start)| start)
            .collect();
        let mut topology = Topology {
            n_ode2,
            n_ode1: ode1_reference.len(),
            n_ae: ae_owner.len(),
            node_ode2,
            node_data,
            node_ode1,
            reference,
            ode1_reference,
            ode1_owner,
            ode1_systems,
            markers,
            bodies,
            connectors,
            joints,
            coordinate_vectors,
            ep_constraints,
            loads,
            ae_owner,
            ode2_owner,
            constant_mass_matrix,
            lie_nodes,
            max_columns,
            max_kernel_rows,
            objects,
            sensor_markers,
            constant_loads: Vec::new(),
            item_states: Vec::new(),
        };
        let n_node_data = mbs.nodes.iter().map(|n| n.initial_data().len()).sum();
        topology.layout_states(n_node_data);
        topology.sum_constant_loads();
        Ok(topology)
    }
}
