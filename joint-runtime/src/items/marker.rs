//! Markers: where loads and connectors attach to bodies and nodes.

use crate::items::{NodeIndex, ObjectIndex};

#[derive(Clone, Debug, PartialEq)]
/// A marker: a point or frame on a body or node that joints, connectors, loads and sensors attach to (Exudyn's Marker… items).
#[non_exhaustive]
pub enum Marker {
    /// The body's mass distribution (for LoadMassProportional); gives no position.
    BodyMass {
        /// The item's `name` (empty: none given).
        name: String,
        /// `bodyNumber`: the body (or superelement object) it sits on.
        body: ObjectIndex,
    },
    /// MarkerBodyPosition: a point of a body.
    BodyPosition {
        /// The item's `name` (empty: none given).
        name: String,
        /// `bodyNumber`: the body (or superelement object) it sits on.
        body: ObjectIndex,
        /// `localPosition`: the point in the body's (or link's) frame.
        local_position: [f64; 3],
    },
    /// MarkerBodyRigid: a frame of a rigid body, at `local_position`, turned by `local_rotation`.
    BodyRigid {
        /// The item's `name` (empty: none given).
        name: String,
        /// `bodyNumber`: the body (or superelement object) it sits on.
        body: ObjectIndex,
        /// `localPosition`: the point in the body's (or link's) frame.
        local_position: [f64; 3],
        /// The rotation of localHT (row-major): the marker frame is `A_body·R`.
        local_rotation: [[f64; 3]; 3],
    },
    /// MarkerNodePosition: a node's position.
    NodePosition {
        /// The item's `name` (empty: none given).
        name: String,
        /// `nodeNumber`: the node it sits on.
        node: NodeIndex,
    },
    /// MarkerNodeRigid: a rigid node's frame, turned by `local_rotation`.
    NodeRigid {
        /// The item's `name` (empty: none given).
        name: String,
        /// `nodeNumber`: the node it sits on.
        node: NodeIndex,
        /// The rotation of localHT (row-major): the marker frame is `A_node·R`.
        local_rotation: [[f64; 3]; 3],
    },
    /// A frame fixed to a link of an ObjectKinematicTree, at `local_position`.
    KinematicTreeRigid {
        /// The item's `name` (empty: none given).
        name: String,
        /// `objectNumber`: the object.
        object: ObjectIndex,
        /// `linkNumber`: the kinematic tree's link.
        link: usize,
        /// `localPosition`: the point in the body's (or link's) frame.
        local_position: [f64; 3],
    },
    /// MarkerNodeCoordinate: one ODE2 coordinate of a node, for coordinate loads and
    /// connectors; on a NodePointGround a 'coordinate' that is always zero.
    NodeCoordinate {
        /// The item's `name` (empty: none given).
        name: String,
        /// `nodeNumber`: the node it sits on.
        node: NodeIndex,
        /// `coordinate`: the index of the coordinate within the node's ODE2 coordinates.
        coordinate: usize,
    },
    /// MarkerNodeCoordinates: all ODE2 coordinates of a node, reference values included (none
    /// on a NodePointGround), for coordinate-vector constraints.
    NodeCoordinates {
        /// The item's `name` (empty: none given).
        name: String,
        /// `nodeNumber`: the node.
        node: NodeIndex,
    },
    /// MarkerObjectODE2Coordinates: all ODE2 coordinates of a body, its nodes' in their order,
    /// reference values included (none on a ground object), for coordinate-vector constraints.
    ObjectODE2Coordinates {
        /// The item's `name` (empty: none given).
        name: String,
        /// `objectNumber`: the body.
        object: ObjectIndex,
    },
    /// MarkerNodeRotationCoordinate: one Tait–Bryan angle (xyz) of a rigid node's rotation, as
    /// a coordinate for coordinate loads and connectors. Exudyn's: its value is the angle
    /// recomputed from the rotation matrix, its velocity the global angular velocity's component
    /// and its Jacobian that component's row of the node's rotation Jacobian (not the angle's
    /// derivative); on a NodePointGround zero.
    NodeRotationCoordinate {
        /// The item's `name` (empty: none given).
        name: String,
        /// `nodeNumber`: the node it sits on (with a rotation, or a ground node).
        node: NodeIndex,
        /// `rotationCoordinate`: 0, 1 or 2, the angle about x, y or z.
        rotation_coordinate: usize,
    },
    /// Weighted mean of mesh nodes of a GenericODE2 or FFRFreducedOrder object.
    SuperElementPosition {
        /// The item's `name` (empty: none given).
        name: String,
        /// `bodyNumber`: the body (or superelement object) it sits on.
        body: ObjectIndex,
        /// `meshNodeNumbers`: the superelement's mesh nodes it averages.
        mesh_nodes: Vec<usize>,
        /// `weightingFactors`: one weight per mesh node (summing to 1).
        weights: Vec<f64>,
    },
    /// A frame at the weighted mean of mesh nodes, rotating with their weighted rotation.
    SuperElementRigid {
        /// The item's `name` (empty: none given).
        name: String,
        /// `bodyNumber`: the body (or superelement object) it sits on.
        body: ObjectIndex,
        /// `offset`: a fixed offset of the marker point, in the superelement's frame.
        offset: [f64; 3],
        /// `meshNodeNumbers`: the superelement's mesh nodes it averages.
        mesh_nodes: Vec<usize>,
        /// `weightingFactors`: one weight per mesh node (summing to 1).
        weights: Vec<f64>,
        /// `useAlternativeApproach`: Exudyn's alternative rotation average.
        use_alternative_approach: bool,
        /// 0: I + θ̃, 1 and 2: ExpSO3 (2 also with the tangent operator in ω)
        rotations_exponential_map: i64,
    },
}

impl Marker {
    /// Exudyn's type name without the `Marker` prefix (`BodyRigid`).
    pub fn type_name(&self) -> &'static str {
        match self {
            Marker::BodyMass { .. } => "BodyMass",
            Marker::BodyPosition { .. } => "BodyPosition",
            Marker::BodyRigid { .. } => "BodyRigid",
            Marker::NodePosition { .. } => "NodePosition",
            Marker::NodeRigid { .. } => "NodeRigid",
            Marker::NodeCoordinate { .. } => "NodeCoordinate",
            Marker::NodeRotationCoordinate { .. } => "NodeRotationCoordinate",
            Marker::NodeCoordinates { .. } => "NodeCoordinates",
            Marker::ObjectODE2Coordinates { .. } => "ObjectODE2Coordinates",
            Marker::SuperElementPosition { .. } => "SuperElementPosition",
            Marker::SuperElementRigid { .. } => "SuperElementRigid",
            Marker::KinematicTreeRigid { .. } => "KinematicTreeRigid",
        }
    }

    /// The item's `name`.
    pub fn name(&self) -> &str {
        match self {
            Marker::BodyMass { name, .. }
            | Marker::BodyPosition { name, .. }
            | Marker::BodyRigid { name, .. }
            | Marker::NodePosition { name, .. }
            | Marker::NodeRigid { name, .. }
            | Marker::NodeCoordinate { name, .. }
            | Marker::NodeRotationCoordinate { name, .. }
            | Marker::NodeCoordinates { name, .. }
            | Marker::ObjectODE2Coordinates { name, .. }
            | Marker::SuperElementPosition { name, .. }
            | Marker::SuperElementRigid { name, .. }
            | Marker::KinematicTreeRigid { name, .. } => name,
        }
    }

    /// Whether the marker provides a position (everything but BodyMass and the coordinate
    /// markers).
    pub fn provides_position(&self) -> bool {
        !matches!(
            self,
            Marker::BodyMass { .. }
                | Marker::NodeCoordinate { .. }
                | Marker::NodeRotationCoordinate { .. }
                | Marker::NodeCoordinates { .. }
                | Marker::ObjectODE2Coordinates { .. }
        )
    }

    /// Whether the marker provides an orientation.
    pub fn provides_orientation(&self) -> bool {
        matches!(
            self,
            Marker::BodyRigid { .. }
                | Marker::NodeRigid { .. }
                | Marker::SuperElementRigid { .. }
                | Marker::KinematicTreeRigid { .. }
        )
    }

    /// `MarkerBodyPosition(bodyNumber=body, localPosition=local_position)`.
    pub fn body_position(body: ObjectIndex, local_position: [f64; 3]) -> Marker {
        Marker::BodyPosition {
            name: String::new(),
            body,
            local_position,
        }
    }

    /// `MarkerBodyMass(bodyNumber=body)`.
    pub fn body_mass(body: ObjectIndex) -> Marker {
        Marker::BodyMass {
            name: String::new(),
            body,
        }
    }

    /// `MarkerNodePosition(nodeNumber=node)`.
    pub fn node_position(node: NodeIndex) -> Marker {
        Marker::NodePosition {
            name: String::new(),
            node,
        }
    }

    /// `MarkerNodeCoordinates(nodeNumber=node)`: all of the node's ODE2 coordinates.
    pub fn node_coordinates(node: NodeIndex) -> Marker {
        Marker::NodeCoordinates {
            name: String::new(),
            node,
        }
    }

    /// `MarkerObjectODE2Coordinates(objectNumber=object)`: all of a body's ODE2 coordinates.
    pub fn object_ode2_coordinates(object: ObjectIndex) -> Marker {
        Marker::ObjectODE2Coordinates {
            name: String::new(),
            object,
        }
    }

    /// `MarkerBodyRigid(bodyNumber=body, localPosition=local_position)`: the body's frame at a
    /// point of it.
    pub fn body_rigid(body: ObjectIndex, local_position: [f64; 3]) -> Marker {
        Marker::BodyRigid {
            name: String::new(),
            body,
            local_position,
            local_rotation: IDENTITY,
        }
    }

    /// `MarkerNodeRigid(nodeNumber=node)`: the node's frame.
    pub fn node_rigid(node: NodeIndex) -> Marker {
        Marker::NodeRigid {
            name: String::new(),
            node,
            local_rotation: IDENTITY,
        }
    }
}

const IDENTITY: [[f64; 3]; 3] = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
