//! Marker kinematics, defined once per marker kind as symbolic expressions of that kind's
//! coordinates and parameters.
//!
//! A *marker kind* is what a joint sees of a marker: which coordinates it depends on, which
//! constant parameters it carries, and its position and velocity (and, for kinds on rigid nodes
//! or ground, its rotation matrix and angular velocity). Exudyn's marker types map onto them:
//!
//! | kind | Exudyn markers | coordinates | parameters |
//! |---|---|---|---|
//! | `GroundPoint` | BodyPosition / BodyRigid on ObjectGround | — | the marker's point p_g + R_g·b (formed once by the runtime), R_g |
//! | `MassPointBody` | BodyPosition on ObjectMassPoint | node x, y, z | local position |
//! | `RigidEpPoint` | BodyPosition / BodyRigid on ObjectRigidBody with NodeRigidBodyEP | x, y, z, θ0…θ3 | local position |
//! | `RigidRxyzPoint` | BodyPosition / BodyRigid on ObjectRigidBody with NodeRigidBodyRxyz | x, y, z, ψ0…ψ2 | local position |
//! | `NodePoint` | NodePosition on NodePoint | x, y, z | — |
//! | `NodeEp` | NodePosition / NodeRigid on NodeRigidBodyEP | x, y, z, θ0…θ3 | — |
//! | `NodeRxyz` | NodePosition / NodeRigid on NodeRigidBodyRxyz | x, y, z, ψ0…ψ2 | — |
//! | `MassPoint2DBody` | BodyPosition on ObjectMassPoint2D | node x, y | local position |
//! | `NodePoint2D` | NodePosition on NodePoint2D | x, y | — |
//! | `Rigid2DPoint` | BodyPosition / BodyRigid on ObjectRigidBody2D | x, y, ψ | local position |
//! | `NodeRigid2D` | NodePosition / NodeRigid on NodeRigidBody2D | x, y, ψ | — |
//! | `NodeCoordinate` | NodeCoordinate on a node with coordinates | c | c_ref |
//! | `GroundCoordinate` | NodeCoordinate on NodePointGround | — | — |
//!
//! Coordinates are the node's *total* coordinates (reference + displacement); velocities are
//! their time derivatives. The velocity is written with Exudyn's kinematic relations
//! (v = ẋ + A(ω̄ × b), ω̄ = Ḡθ̇), so its derivative with respect to the coordinate velocities is
//! Exudyn's position Jacobian `[I | −A·skew(b)·Ḡ]`, not ∂(A b)/∂θ.
//!
//! The coordinate kinds give one scalar instead of a position: the coordinate's displacement
//! `c − c_ref` (Exudyn's coordinate markers exclude the reference value) and its velocity, and
//! 0 on a ground node. Their position and velocity are zero: they give none
//! (`provides(Position)` is false, so no position joint pairs with them).

pub mod ground;
pub mod marker_level;
pub mod mass_point;
pub mod node;
pub mod rigid_body;
pub mod rigid_body_lhs;
pub mod rotation;
pub mod tree_joint;

use crate::symbolic::vector::{Mat3, Vec3};
use crate::symbolic::{Graph, Id};

/// A built-in marker kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MarkerKind {
    GroundPoint,
    MassPointBody,
    RigidEpPoint,
    RigidRxyzPoint,
    NodePoint,
    NodeEp,
    NodeRxyz,
    NodeCoordinate,
    GroundCoordinate,
    MassPoint2DBody,
    NodePoint2D,
    Rigid2DPoint,
    NodeRigid2D,
}

/// A marker capability a joint can require.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Capability {
    /// Position and velocity.
    Position,
    /// Position, velocity, rotation matrix and angular velocity.
    Rigid,
    /// One scalar coordinate (a displacement) and its velocity.
    Coordinate,
}

/// The symbolic quantities of one marker.
pub struct Kinematics {
    /// Global position.
    pub position: Vec3,
    /// Global velocity.
    pub velocity: Vec3,
    /// Rotation matrix (local to global), for kinds with orientation.
    pub rotation: Option<Mat3>,
    /// Global angular velocity.
    pub angular_velocity: Option<Vec3>,
    /// Angular velocity in the marker's (body) frame.
    pub angular_velocity_local: Option<Vec3>,
    /// A coordinate kind's scalar and its velocity.
    pub coordinate: Option<(Id, Id)>,
    /// Coordinate variables, in the node's order.
    pub coordinates: Vec<Id>,
    /// Coordinate-velocity variables, in the same order.
    pub velocities: Vec<Id>,
}

impl MarkerKind {
    /// Every built-in kind in canonical order (also the order of the generated kind indices).
    pub const ALL: [MarkerKind; 13] = [
        MarkerKind::GroundPoint,
        MarkerKind::MassPointBody,
        MarkerKind::RigidEpPoint,
        MarkerKind::RigidRxyzPoint,
        MarkerKind::NodePoint,
        MarkerKind::NodeEp,
        MarkerKind::NodeRxyz,
        MarkerKind::NodeCoordinate,
        MarkerKind::GroundCoordinate,
        MarkerKind::MassPoint2DBody,
        MarkerKind::NodePoint2D,
        MarkerKind::Rigid2DPoint,
        MarkerKind::NodeRigid2D,
    ];

    pub fn name(self) -> &'static str {
        match self {
            MarkerKind::GroundPoint => "GroundPoint",
            MarkerKind::MassPointBody => "MassPointBody",
            MarkerKind::RigidEpPoint => "RigidEpPoint",
            MarkerKind::RigidRxyzPoint => "RigidRxyzPoint",
            MarkerKind::NodePoint => "NodePoint",
            MarkerKind::NodeEp => "NodeEp",
            MarkerKind::NodeRxyz => "NodeRxyz",
            MarkerKind::NodeCoordinate => "NodeCoordinate",
            MarkerKind::GroundCoordinate => "GroundCoordinate",
            MarkerKind::MassPoint2DBody => "MassPoint2DBody",
            MarkerKind::NodePoint2D => "NodePoint2D",
            MarkerKind::Rigid2DPoint => "Rigid2DPoint",
            MarkerKind::NodeRigid2D => "NodeRigid2D",
        }
    }

    pub fn snake_name(self) -> &'static str {
        match self {
            MarkerKind::GroundPoint => "ground_point",
            MarkerKind::MassPointBody => "mass_point_body",
            MarkerKind::RigidEpPoint => "rigid_ep_point",
            MarkerKind::RigidRxyzPoint => "rigid_rxyz_point",
            MarkerKind::NodePoint => "node_point",
            MarkerKind::NodeEp => "node_ep",
            MarkerKind::NodeRxyz => "node_rxyz",
            MarkerKind::NodeCoordinate => "node_coordinate",
            MarkerKind::GroundCoordinate => "ground_coordinate",
            MarkerKind::MassPoint2DBody => "mass_point_2d_body",
            MarkerKind::NodePoint2D => "node_point_2d",
            MarkerKind::Rigid2DPoint => "rigid_2d_point",
            MarkerKind::NodeRigid2D => "node_rigid_2d",
        }
    }

    pub fn description(self) -> &'static str {
        match self {
            MarkerKind::GroundPoint => {
                "MarkerBodyPosition or MarkerBodyRigid on ObjectGround: its point p = p_g + R_g·b, formed once by the runtime, and A = R_g"
            }
            MarkerKind::MassPointBody => "MarkerBodyPosition on ObjectMassPoint: p = x + b",
            MarkerKind::RigidEpPoint => {
                "MarkerBodyPosition or MarkerBodyRigid on ObjectRigidBody with NodeRigidBodyEP: p = x + A(θ)·b"
            }
            MarkerKind::RigidRxyzPoint => {
                "MarkerBodyPosition or MarkerBodyRigid on ObjectRigidBody with NodeRigidBodyRxyz: p = x + A(ψ)·b"
            }
            MarkerKind::NodePoint => "MarkerNodePosition on NodePoint: p = x",
            MarkerKind::NodeEp => "MarkerNodePosition or MarkerNodeRigid on NodeRigidBodyEP: p = x",
            MarkerKind::NodeRxyz => {
                "MarkerNodePosition or MarkerNodeRigid on NodeRigidBodyRxyz: p = x"
            }
            MarkerKind::NodeCoordinate => {
                "MarkerNodeCoordinate: the coordinate's displacement c − c_ref (no position)"
            }
            MarkerKind::GroundCoordinate => {
                "MarkerNodeCoordinate on NodePointGround: a coordinate that is always 0"
            }
            MarkerKind::MassPoint2DBody => {
                "MarkerBodyPosition on ObjectMassPoint2D: p = [x, y, 0] + b"
            }
            MarkerKind::NodePoint2D => "MarkerNodePosition on NodePoint2D: p = [x, y, 0]",
            MarkerKind::Rigid2DPoint => {
                "MarkerBodyPosition or MarkerBodyRigid on ObjectRigidBody2D: p = [x, y, 0] + Rz(ψ)·b"
            }
            MarkerKind::NodeRigid2D => {
                "MarkerNodePosition or MarkerNodeRigid on NodeRigidBody2D: p = [x, y, 0]"
            }
        }
    }

    /// Names of the kind's coordinates (total values; velocities append `_t`).
    pub fn coordinate_names(self) -> &'static [&'static str] {
        match self {
            MarkerKind::GroundPoint | MarkerKind::GroundCoordinate => &[],
            MarkerKind::NodeCoordinate => &["c"],
            MarkerKind::MassPoint2DBody | MarkerKind::NodePoint2D => &["x", "y"],
            MarkerKind::MassPointBody | MarkerKind::NodePoint => &["x", "y", "z"],
            MarkerKind::RigidEpPoint | MarkerKind::NodeEp => {
                &["x", "y", "z", "ep0", "ep1", "ep2", "ep3"]
            }
            MarkerKind::RigidRxyzPoint | MarkerKind::NodeRxyz => {
                &["x", "y", "z", "psi0", "psi1", "psi2"]
            }
            MarkerKind::Rigid2DPoint | MarkerKind::NodeRigid2D => &["x", "y", "psi"],
        }
    }

    /// Names of the kind's constant parameters, in argument order.
    pub fn parameter_names(self) -> &'static [&'static str] {
        match self {
            MarkerKind::GroundPoint => &[
                "point0", "point1", "point2", "rg00", "rg01", "rg02", "rg10", "rg11", "rg12",
                "rg20", "rg21", "rg22",
            ],
            MarkerKind::MassPointBody
            | MarkerKind::RigidEpPoint
            | MarkerKind::RigidRxyzPoint
            | MarkerKind::MassPoint2DBody
            | MarkerKind::Rigid2DPoint => &["b0", "b1", "b2"],
            MarkerKind::NodePoint
            | MarkerKind::NodeEp
            | MarkerKind::NodeRxyz
            | MarkerKind::GroundCoordinate
            | MarkerKind::NodePoint2D
            | MarkerKind::NodeRigid2D => &[],
            MarkerKind::NodeCoordinate => &["c_ref"],
        }
    }

    pub fn coordinate_count(self) -> usize {
        self.coordinate_names().len()
    }

    pub fn parameter_count(self) -> usize {
        self.parameter_names().len()
    }

    /// Whether the kind provides a rotation matrix and angular velocity.
    pub fn has_orientation(self) -> bool {
        !matches!(
            self,
            MarkerKind::MassPointBody
                | MarkerKind::NodePoint
                | MarkerKind::NodeCoordinate
                | MarkerKind::GroundCoordinate
                | MarkerKind::MassPoint2DBody
                | MarkerKind::NodePoint2D
        )
    }

    /// Whether the kind gives one scalar coordinate instead of a position.
    pub fn is_coordinate(self) -> bool {
        matches!(
            self,
            MarkerKind::NodeCoordinate | MarkerKind::GroundCoordinate
        )
    }

    pub fn provides(self, capability: Capability) -> bool {
        match capability {
            Capability::Position => !self.is_coordinate(),
            Capability::Rigid => self.has_orientation(),
            Capability::Coordinate => self.is_coordinate(),
        }
    }

    /// Build the kind's kinematics in `g`; variables are named `{prefix}{name}`.
    pub fn build(self, g: &mut Graph, prefix: &str) -> Kinematics {
        let coordinates: Vec<Id> = self
            .coordinate_names()
            .iter()
            .map(|n| g.var(&format!("{prefix}{n}")))
            .collect();
        let velocities: Vec<Id> = self
            .coordinate_names()
            .iter()
            .map(|n| g.var(&format!("{prefix}{n}_t")))
            .collect();
        let parameters: Vec<Id> = self
            .parameter_names()
            .iter()
            .map(|n| g.var(&format!("{prefix}{n}")))
            .collect();
        let q = Coordinates {
            coordinates,
            velocities,
            parameters,
        };
        match self {
            MarkerKind::GroundPoint => ground::point(g, q),
            MarkerKind::MassPointBody => mass_point::body_point(g, q),
            MarkerKind::RigidEpPoint => {
                rigid_body::point(g, q, rotation::euler_parameters::parametrization)
            }
            MarkerKind::RigidRxyzPoint => {
                rigid_body::point(g, q, rotation::tait_bryan::parametrization)
            }
            MarkerKind::NodePoint => node::point(g, q),
            MarkerKind::NodeEp => node::rigid(g, q, rotation::euler_parameters::parametrization),
            MarkerKind::NodeRxyz => node::rigid(g, q, rotation::tait_bryan::parametrization),
            MarkerKind::NodeCoordinate => node::coordinate(g, q),
            MarkerKind::GroundCoordinate => ground::coordinate(g, q),
            MarkerKind::MassPoint2DBody => mass_point::body_point_2d(g, q),
            MarkerKind::NodePoint2D => node::point_2d(g, q),
            MarkerKind::Rigid2DPoint => rigid_body::point_2d(g, q),
            MarkerKind::NodeRigid2D => node::rigid_2d(g, q),
        }
    }
}

/// The variables a kind's kinematics are built from.
pub struct Coordinates {
    pub coordinates: Vec<Id>,
    pub velocities: Vec<Id>,
    pub parameters: Vec<Id>,
}

/// A rotation parametrization constructor (Euler parameters, Tait–Bryan angles, …).
pub type ParametrizationFn = fn(&mut Graph, &[Id]) -> rotation::Parametrization;
