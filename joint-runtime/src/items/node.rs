//! Nodes: the carriers of coordinates.

/// A node, with Exudyn's parameters. Coordinates are displacements relative to
/// `reference_coordinates`.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Node {
    /// NodePoint: 3 ODE2 coordinates [x, y, z].
    Point {
        /// The item's `name` (empty: none given).
        name: String,
        /// `referenceCoordinates`: the reference configuration.
        reference_coordinates: [f64; 3],
        /// `initialCoordinates`: the displacement at the start, relative to the reference.
        initial_coordinates: [f64; 3],
        /// `initialCoordinates_t`: the velocities at the start.
        initial_velocities: [f64; 3],
    },
    /// NodeRigidBodyEP: [x, y, z, θ0, θ1, θ2, θ3] and, with `add_constraint_equation`, one AE
    /// coordinate for θ·θ − 1 = 0.
    RigidBodyEP {
        /// The item's `name` (empty: none given).
        name: String,
        /// `referenceCoordinates`: the reference configuration.
        reference_coordinates: [f64; 7],
        /// `initialCoordinates`: the displacement at the start, relative to the reference.
        initial_coordinates: [f64; 7],
        /// `initialCoordinates_t`: the velocities at the start.
        initial_velocities: [f64; 7],
        /// `addConstraintEquation`: add the Euler-parameter constraint θ·θ − 1 = 0.
        add_constraint_equation: bool,
    },
    /// NodeRigidBodyRxyz: [x, y, z, ψ0, ψ1, ψ2], Tait–Bryan angles x-y-z.
    RigidBodyRxyz {
        /// The item's `name` (empty: none given).
        name: String,
        /// `referenceCoordinates`: the reference configuration.
        reference_coordinates: [f64; 6],
        /// `initialCoordinates`: the displacement at the start, relative to the reference.
        initial_coordinates: [f64; 6],
        /// `initialCoordinates_t`: the velocities at the start.
        initial_velocities: [f64; 6],
    },
    /// NodeRigidBodyRotVecLG: [x, y, z, ν0, ν1, ν2], a rotation vector, integrated on the Lie
    /// group: its velocity coordinates are [ẋ, ẏ, ż, ω̄] (the body-frame angular velocity, not
    /// ν̇), and solvers update ν by composition (Exudyn's Lie-group integration).
    RigidBodyRotVecLG {
        /// The item's `name` (empty: none given).
        name: String,
        /// `referenceCoordinates`: the reference configuration.
        reference_coordinates: [f64; 6],
        /// `initialCoordinates`: the displacement at the start, relative to the reference.
        initial_coordinates: [f64; 6],
        /// `initialVelocities`: [ẋ, ẏ, ż, ω̄] at the start.
        initial_velocities: [f64; 6],
    },
    /// NodePointGround: a fixed point with no coordinates, for markers, connectors and joints
    /// that attach to ground through a node.
    PointGround {
        /// The item's `name` (empty: none given).
        name: String,
        /// `referenceCoordinates`: the point's global position (it never moves).
        position: [f64; 3],
    },
    /// NodePoint2D: 2 ODE2 coordinates [x, y] of a point in the x–y plane (z = 0).
    Point2D {
        /// The item's `name` (empty: none given).
        name: String,
        /// `referenceCoordinates`.
        reference_coordinates: [f64; 2],
        /// `initialCoordinates`: the displacement at the start.
        initial_coordinates: [f64; 2],
        /// `initialVelocities`.
        initial_velocities: [f64; 2],
    },
    /// NodeRigidBody2D: 3 ODE2 coordinates [x, y, ψ] of a body moving in the x–y plane, turned
    /// by ψ about z.
    RigidBody2D {
        /// The item's `name` (empty: none given).
        name: String,
        /// `referenceCoordinates`.
        reference_coordinates: [f64; 3],
        /// `initialCoordinates`: the displacement at the start.
        initial_coordinates: [f64; 3],
        /// `initialVelocities`.
        initial_velocities: [f64; 3],
    },
    /// Node1D: one ODE2 coordinate (a translation or a rotation, as its object reads it).
    Node1D {
        /// The item's `name` (empty: none given).
        name: String,
        /// `referenceCoordinates`.
        reference_coordinates: [f64; 1],
        /// `initialCoordinates`: the displacement at the start.
        initial_coordinates: [f64; 1],
        /// `initialVelocities`.
        initial_velocities: [f64; 1],
    },
    /// NodeGenericODE2: `numberOfODE2Coordinates` plain coordinates (modal coordinates of a
    /// superelement, joint coordinates of a kinematic tree).
    GenericODE2 {
        /// The item's `name` (empty: none given).
        name: String,
        /// `referenceCoordinates`: the reference configuration.
        reference_coordinates: Vec<f64>,
        /// `initialCoordinates`: the displacement at the start, relative to the reference.
        initial_coordinates: Vec<f64>,
        /// `initialCoordinates_t`: the velocities at the start.
        initial_velocities: Vec<f64>,
    },
    /// NodeGenericODE1: `numberOfODE1Coordinates` first-order coordinates y (a state-space
    /// system's states), integrated by the trapezoidal rule in the implicit solvers and by the
    /// stages of the explicit ones. They have no ODE2 coordinates and no position.
    GenericODE1 {
        /// The item's `name` (empty: none given).
        name: String,
        /// `referenceCoordinates`: y_ref (the `CoordinatesTotal` output adds them; the
        /// equations see the displacements y only).
        reference_coordinates: Vec<f64>,
        /// `initialCoordinates`: y at the start (displacements).
        initial_coordinates: Vec<f64>,
    },
    /// NodeGenericData: `numberOfDataCoordinates` data coordinates (history variables), not
    /// solved for: objects update them after each converged step (a TorsionalSpringDamper's
    /// continuous angle).
    GenericData {
        /// The item's `name` (empty: none given).
        name: String,
        /// `initialCoordinates`: the data coordinates at the start.
        initial_coordinates: Vec<f64>,
    },
}

impl Node {
    /// Exudyn's type name without the `Node` prefix (`RigidBodyEP`).
    pub fn type_name(&self) -> &'static str {
        match self {
            Node::Point { .. } => "Point",
            Node::RigidBodyEP { .. } => "RigidBodyEP",
            Node::RigidBodyRxyz { .. } => "RigidBodyRxyz",
            Node::RigidBodyRotVecLG { .. } => "RigidBodyRotVecLG",
            Node::GenericODE2 { .. } => "GenericODE2",
            Node::Node1D { .. } => "1D",
            Node::Point2D { .. } => "Point2D",
            Node::RigidBody2D { .. } => "RigidBody2D",
            Node::PointGround { .. } => "PointGround",
            Node::GenericData { .. } => "GenericData",
            Node::GenericODE1 { .. } => "GenericODE1",
        }
    }

    /// The item's `name`.
    pub fn name(&self) -> &str {
        match self {
            Node::Point { name, .. }
            | Node::RigidBodyEP { name, .. }
            | Node::RigidBodyRxyz { name, .. }
            | Node::RigidBodyRotVecLG { name, .. }
            | Node::GenericODE2 { name, .. }
            | Node::Node1D { name, .. }
            | Node::Point2D { name, .. }
            | Node::RigidBody2D { name, .. }
            | Node::PointGround { name, .. }
            | Node::GenericData { name, .. }
            | Node::GenericODE1 { name, .. } => name,
        }
    }

    /// Number of ODE2 coordinates.
    pub fn ode2_size(&self) -> usize {
        self.reference_coordinates().len()
    }

    /// Number of AE coordinates (1 for a RigidBodyEP with its constraint, else 0).
    pub fn ae_size(&self) -> usize {
        match self {
            Node::RigidBodyEP {
                add_constraint_equation: true,
                ..
            } => 1,
            _ => 0,
        }
    }

    /// (reference, initial, initial velocities)
    fn vectors(&self) -> (&[f64], &[f64], &[f64]) {
        match self {
            Node::Point {
                reference_coordinates: r,
                initial_coordinates: i,
                initial_velocities: v,
                ..
            } => (r, i, v),
            Node::RigidBodyEP {
                reference_coordinates: r,
                initial_coordinates: i,
                initial_velocities: v,
                ..
            } => (r, i, v),
            Node::RigidBodyRxyz {
                reference_coordinates: r,
                initial_coordinates: i,
                initial_velocities: v,
                ..
            } => (r, i, v),
            Node::RigidBodyRotVecLG {
                reference_coordinates: r,
                initial_coordinates: i,
                initial_velocities: v,
                ..
            } => (r, i, v),
            Node::GenericODE2 {
                reference_coordinates: r,
                initial_coordinates: i,
                initial_velocities: v,
                ..
            } => (r, i, v),
            Node::Node1D {
                reference_coordinates: r,
                initial_coordinates: i,
                initial_velocities: v,
                ..
            } => (r, i, v),
            Node::Point2D {
                reference_coordinates: r,
                initial_coordinates: i,
                initial_velocities: v,
                ..
            } => (r, i, v),
            Node::RigidBody2D {
                reference_coordinates: r,
                initial_coordinates: i,
                initial_velocities: v,
                ..
            } => (r, i, v),
            // its position is not a coordinate; data and ODE1 coordinates are not ODE2 coordinates
            Node::PointGround { .. } | Node::GenericData { .. } | Node::GenericODE1 { .. } => {
                (&[], &[], &[])
            }
        }
    }

    /// `referenceCoordinates`.
    pub fn reference_coordinates(&self) -> &[f64] {
        self.vectors().0
    }

    /// `initialCoordinates` (displacements).
    pub fn initial_coordinates(&self) -> &[f64] {
        self.vectors().1
    }

    /// `initialCoordinates_t`.
    pub fn initial_velocities(&self) -> &[f64] {
        self.vectors().2
    }

    /// Whether the node has a rotation (and thus orientation outputs that are not identity).
    pub fn is_rigid(&self) -> bool {
        matches!(
            self,
            Node::RigidBodyEP { .. }
                | Node::RigidBodyRxyz { .. }
                | Node::RigidBodyRotVecLG { .. }
                | Node::RigidBody2D { .. }
        )
    }

    /// Whether the node has a position (all but NodeGenericODE2 and Node1D, whose coordinate
    /// its object turns into a position or a rotation).
    pub fn has_position(&self) -> bool {
        !matches!(
            self,
            Node::GenericODE2 { .. }
                | Node::Node1D { .. }
                | Node::GenericData { .. }
                | Node::GenericODE1 { .. }
        )
    }

    /// Number of ODE1 coordinates (NodeGenericODE1; 0 for every other node).
    pub fn ode1_size(&self) -> usize {
        self.ode1_reference().len()
    }

    /// The ODE1 reference coordinates (NodeGenericODE1; empty for every other node).
    pub fn ode1_reference(&self) -> &[f64] {
        match self {
            Node::GenericODE1 {
                reference_coordinates,
                ..
            } => reference_coordinates,
            _ => &[],
        }
    }

    /// The ODE1 coordinates at the start (NodeGenericODE1; empty for every other node).
    pub fn ode1_initial(&self) -> &[f64] {
        match self {
            Node::GenericODE1 {
                initial_coordinates,
                ..
            } => initial_coordinates,
            _ => &[],
        }
    }

    /// The data coordinates at the start (NodeGenericData; empty for every other node).
    pub fn initial_data(&self) -> &[f64] {
        match self {
            Node::GenericData {
                initial_coordinates,
                ..
            } => initial_coordinates,
            _ => &[],
        }
    }

    /// `NodePointGround(referenceCoordinates=position)`.
    pub fn point_ground(position: [f64; 3]) -> Node {
        Node::PointGround {
            name: String::new(),
            position,
        }
    }

    /// `NodePoint(referenceCoordinates=reference)`, at rest at its reference.
    pub fn point(reference: [f64; 3]) -> Node {
        Node::Point {
            name: String::new(),
            reference_coordinates: reference,
            initial_coordinates: [0.0; 3],
            initial_velocities: [0.0; 3],
        }
    }

    /// `NodeRigidBodyEP(referenceCoordinates=reference)` [x, y, z, θ0..θ3], with its constraint.
    pub fn rigid_body_ep(reference: [f64; 7]) -> Node {
        Node::RigidBodyEP {
            name: String::new(),
            reference_coordinates: reference,
            initial_coordinates: [0.0; 7],
            initial_velocities: [0.0; 7],
            add_constraint_equation: true,
        }
    }

    /// `NodeRigidBodyRxyz(referenceCoordinates=reference)` [x, y, z, ψ0, ψ1, ψ2].
    pub fn rigid_body_rxyz(reference: [f64; 6]) -> Node {
        Node::RigidBodyRxyz {
            name: String::new(),
            reference_coordinates: reference,
            initial_coordinates: [0.0; 6],
            initial_velocities: [0.0; 6],
        }
    }

    /// `NodeRigidBodyRotVecLG(referenceCoordinates=reference)` [x, y, z, ν0, ν1, ν2].
    pub fn rigid_body_rot_vec_lg(reference: [f64; 6]) -> Node {
        Node::RigidBodyRotVecLG {
            name: String::new(),
            reference_coordinates: reference,
            initial_coordinates: [0.0; 6],
            initial_velocities: [0.0; 6],
        }
    }

    /// Whether the node's rotation is integrated on the Lie group (NodeRigidBodyRotVecLG).
    pub fn is_lie_group(&self) -> bool {
        matches!(self, Node::RigidBodyRotVecLG { .. })
    }

    /// `NodeRigidBody2D(referenceCoordinates=reference)` [x, y, ψ].
    pub fn rigid_body_2d(reference: [f64; 3]) -> Node {
        Node::RigidBody2D {
            name: String::new(),
            reference_coordinates: reference,
            initial_coordinates: [0.0; 3],
            initial_velocities: [0.0; 3],
        }
    }
}
