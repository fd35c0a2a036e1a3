//! A marker resolved at assembly against its body or node: how its kinematics are computed
//! (its model) and which global ODE2 columns its Jacobians span.

use nalgebra::Matrix3;

use super::kinematic_tree::KinematicTreeMarker;
use super::lie_group::LieGroupMarker;
use super::super_element::{SuperElementFrame, SuperElementMarker};
use joint_core::MarkerKind;

/// How a marker's kinematics are computed.
#[derive(Clone, Debug)]
pub enum MarkerModel {
    /// A built-in kind of the compiler: its coordinates are the marker's contiguous `columns`.
    Kind {
        kind: MarkerKind,
        /// Kernel parameters (local position, ground pose, …).
        parameters: Vec<f64>,
    },
    /// BodyMass on an FFRFreducedOrder object (`body` indexes `Topology::bodies`): the
    /// mass-weighted Jacobian of the object.
    FfrfMass { body: usize },
    /// MarkerSuperElementPosition / MarkerSuperElementRigid.
    SuperElement(Box<SuperElementMarker>),
    /// MarkerKinematicTreeRigid: its columns are the joints on the path to the base.
    KinematicTree(Box<KinematicTreeMarker>),
    /// A position, rigid or mass marker on a NodeRigidBodyRotVecLG (or its rigid body): its
    /// columns are the node's 6.
    LieGroup(LieGroupMarker),
    /// MarkerNodeCoordinates, MarkerObjectODE2Coordinates: the whole coordinate vector over its
    /// `columns` (total values: reference + displacement), for coordinate-vector joints.
    Coordinates,
    /// MarkerNodeRotationCoordinate: Tait–Bryan angle `index` of the rotation of `node` (that
    /// node's rigid marker, over the same columns).
    RotationCoordinate {
        node: Box<ResolvedMarker>,
        index: usize,
    },
}

/// A marker resolved against its body or node.
#[derive(Clone, Debug)]
pub struct ResolvedMarker {
    pub model: MarkerModel,
    /// Global ODE2 index of each column of the marker's Jacobians.
    pub columns: Vec<usize>,
    /// Mass factor of a BodyMass marker's Jacobian (0 on ground).
    pub mass: f64,
    pub provides_position: bool,
    pub provides_orientation: bool,
    /// The rotation of a BodyRigid/NodeRigid marker's localHT (`None`: identity); the marker
    /// frame is `A_body·R`, its local angular velocity `Rᵀω̄_body`, its Jacobians the body's.
    pub local_rotation: Option<Matrix3<f64>>,
}

impl ResolvedMarker {
    pub fn kind(&self) -> Option<MarkerKind> {
        match &self.model {
            MarkerModel::Kind { kind, .. } => Some(*kind),
            _ => None,
        }
    }

    /// A coordinate marker: a MarkerNodeCoordinate (kind NodeCoordinate: one column, the
    /// coordinate; or GroundCoordinate on a ground node: none) or a MarkerNodeRotationCoordinate
    /// on a node with a rotation (its node's columns; `coordinate_state`).
    pub fn is_coordinate(&self) -> bool {
        self.kind().is_some_and(MarkerKind::is_coordinate) || self.is_rotation_coordinate()
    }

    /// A MarkerNodeRotationCoordinate on a node with a rotation.
    pub fn is_rotation_coordinate(&self) -> bool {
        matches!(self.model, MarkerModel::RotationCoordinate { .. })
    }

    /// The module of the marker's generated kinematics, as the summary names it
    /// (`marker_kinematics::rigid_ep_point`).
    pub fn kinematics_name(&self) -> &'static str {
        match &self.model {
            MarkerModel::Kind { kind, .. } => kind.snake_name(),
            MarkerModel::FfrfMass { .. } => "ffrf_body_mass",
            MarkerModel::SuperElement(se) => match (&se.frame, se.rotation.is_some()) {
                (SuperElementFrame::None { .. }, false) => "super_element_position_generic_ode2",
                (SuperElementFrame::None { .. }, true) => "super_element_rigid_generic_ode2",
                (SuperElementFrame::Ffrf { .. }, false) => "super_element_position_ffrf",
                (SuperElementFrame::Ffrf { .. }, true) => "super_element_rigid_ffrf",
            },
            MarkerModel::KinematicTree(_) => "kinematic_tree_rigid",
            MarkerModel::LieGroup(_) => "rot_vec_lie_group",
            MarkerModel::RotationCoordinate { .. } => "node_rotation_coordinate",
            MarkerModel::Coordinates => "coordinates",
        }
    }

    pub(crate) fn of_kind(kind: MarkerKind, start: usize, n: usize, parameters: Vec<f64>) -> Self {
        ResolvedMarker {
            model: MarkerModel::Kind { kind, parameters },
            columns: (start..start + n).collect(),
            mass: 0.0,
            provides_position: true,
            provides_orientation: false,
            local_rotation: None,
        }
    }

    /// A coordinate-vector marker over `columns` (empty on ground).
    pub(crate) fn coordinates(columns: Vec<usize>) -> Self {
        ResolvedMarker {
            model: MarkerModel::Coordinates,
            columns,
            mass: 0.0,
            provides_position: false,
            provides_orientation: false,
            local_rotation: None,
        }
    }

    /// Whether it is a coordinate-vector marker (MarkerNodeCoordinates,
    /// MarkerObjectODE2Coordinates).
    pub fn is_coordinate_vector(&self) -> bool {
        matches!(self.model, MarkerModel::Coordinates)
    }

    /// A coordinate marker on a ground node: value 0, no column.
    pub(crate) fn ground_coordinate() -> Self {
        ResolvedMarker {
            model: MarkerModel::Kind {
                kind: MarkerKind::GroundCoordinate,
                parameters: Vec::new(),
            },
            columns: Vec::new(),
            mass: 0.0,
            provides_position: false,
            provides_orientation: false,
            local_rotation: None,
        }
    }

    /// A marker on a NodeRigidBodyRotVecLG whose 6 columns start at `start`, at `local` in the
    /// node frame.
    pub(crate) fn lie_group(start: usize, local: nalgebra::Vector3<f64>) -> Self {
        ResolvedMarker {
            model: MarkerModel::LieGroup(LieGroupMarker {
                local_position: local,
            }),
            columns: (start..start + 6).collect(),
            mass: 0.0,
            provides_position: true,
            provides_orientation: false,
            local_rotation: None,
        }
    }
}
