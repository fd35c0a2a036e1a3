//! Objects: bodies, connectors and constraints.

use nalgebra::DMatrix;

use crate::items::connectors::ConnectorObject;
use crate::items::joints::{CoordinateVectorObject, ForceObject, JointObject};
use crate::items::{MarkerIndex, MatrixContainer, NodeIndex};

/// The parameters of ObjectKinematicTree (model-file keys in comments).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct KinematicTreeParameters {
    /// jointTypes as Exudyn's numbers (RevoluteX/Y/Z = 1/2/3, PrismaticX/Y/Z = 4/5/6)
    pub joint_types: Vec<u8>,
    /// linkParents
    pub link_parents: Vec<i64>,
    /// jointTransformations
    pub joint_transformations: Vec<[[f64; 3]; 3]>,
    /// jointOffsets
    pub joint_offsets: Vec<[f64; 3]>,
    /// linkInertiasCOM
    pub link_inertias_com: Vec<[[f64; 3]; 3]>,
    /// linkCOMs
    pub link_coms: Vec<[f64; 3]>,
    /// linkMasses
    pub link_masses: Vec<f64>,
    /// linkForces
    pub link_forces: Vec<[f64; 3]>,
    /// linkTorques
    pub link_torques: Vec<[f64; 3]>,
    /// jointForceVector
    pub joint_force_vector: Vec<f64>,
    /// jointPositionOffsetVector
    pub joint_position_offset_vector: Vec<f64>,
    /// jointVelocityOffsetVector
    pub joint_velocity_offset_vector: Vec<f64>,
    /// jointPControlVector
    pub joint_p_control_vector: Vec<f64>,
    /// jointDControlVector
    pub joint_d_control_vector: Vec<f64>,
    /// gravity
    pub gravity: [f64; 3],
    /// baseOffset
    pub base_offset: [f64; 3],
}

/// The data of ObjectFFRFreducedOrder (its model-file keys in comments).
#[derive(Clone, Debug, PartialEq)]
pub struct FfrfParameters {
    /// massMatrixReduced (n_m × n_m)
    pub mass_matrix_reduced: MatrixContainer,
    /// stiffnessMatrixReduced
    pub stiffness_matrix_reduced: MatrixContainer,
    /// dampingMatrixReduced (may be empty)
    pub damping_matrix_reduced: MatrixContainer,
    /// modeBasis Ψ (3 n_n × n_m)
    pub mode_basis: DMatrix<f64>,
    /// referencePositions x_ref (3 n_n)
    pub reference_positions: Vec<f64>,
    /// mPsiTildePsi (3 n_m × n_m)
    pub m_psi_tilde_psi: DMatrix<f64>,
    /// mPsiTildePsiTilde (3 n_m × 3 n_m)
    pub m_psi_tilde_psi_tilde: DMatrix<f64>,
    /// mPhitTPsi (3 × n_m)
    pub m_phit_t_psi: DMatrix<f64>,
    /// mPhitTPsiTilde (3 × 3 n_m)
    pub m_phit_t_psi_tilde: DMatrix<f64>,
    /// mXRefTildePsi (3 × n_m)
    pub m_xref_tilde_psi: DMatrix<f64>,
    /// mXRefTildePsiTilde (3 × 3 n_m)
    pub m_xref_tilde_psi_tilde: DMatrix<f64>,
    /// mass (m)
    pub mass: f64,
    /// inertia [Jxx, Jyy, Jzz, Jyz, Jxz, Jxy] about the frame origin (Θ)
    pub inertia: [f64; 6],
    /// centerOfMass (χ)
    pub center_of_mass: [f64; 3],
    /// computeFFRFterms
    pub compute_ffrf_terms: bool,
    /// outputVariableModeBasis Ψ_S (n_n × 6 n_m): row i, columns 6j..6j+6 are mode j's six
    /// stress or strain components at mesh node i.
    pub output_variable_mode_basis: DMatrix<f64>,
    /// outputVariableTypeModeBasis: `StressLocal`, `StrainLocal` or none (`_None`).
    pub output_variable_type_mode_basis: Option<super::OutputVariable>,
}

#[derive(Clone, Debug, PartialEq)]
/// An object: a body, a connector, a superelement, a kinematic tree or a joint (Exudyn's Object… items).
#[non_exhaustive]
pub enum Object {
    /// ObjectGround: a fixed frame.
    Ground {
        /// The item's `name` (empty: none given).
        name: String,
        /// `referencePosition`: the frame's origin.
        reference_position: [f64; 3],
        /// Row-major rotation matrix.
        reference_rotation: [[f64; 3]; 3],
    },
    /// ObjectMassPoint: a point mass on a NodePoint.
    MassPoint {
        /// The item's `name` (empty: none given).
        name: String,
        /// `physicsMass` (kg).
        mass: f64,
        /// `nodeNumber`: the node it sits on.
        node: NodeIndex,
    },
    /// ObjectMassPoint2D: a point mass on a NodePoint2D, moving in the x–y plane.
    MassPoint2D {
        /// The item's `name` (empty: none given).
        name: String,
        /// `physicsMass` (kg).
        mass: f64,
        /// `nodeNumber`: its NodePoint2D.
        node: NodeIndex,
    },
    /// ObjectRigidBody2D: a planar rigid body on a NodeRigidBody2D.
    RigidBody2D {
        /// The item's `name` (empty: none given).
        name: String,
        /// `physicsMass` (kg).
        mass: f64,
        /// `physicsInertia`: the moment of inertia about z at the body's reference point (kg m²).
        inertia: f64,
        /// `physicsCenterOfMass`: the centre of mass in body axes, relative to the node.
        center_of_mass: [f64; 2],
        /// `nodeNumber`: its NodeRigidBody2D.
        node: NodeIndex,
    },
    /// ObjectBeamGeometricallyExact2D: a two-node shear-deformable planar beam on
    /// NodeRigidBody2D nodes (which other beams may share).
    BeamGeometricallyExact2D {
        /// The item's `name` (empty: none given).
        name: String,
        /// `nodeNumbers`: its two NodeRigidBody2D.
        nodes: [NodeIndex; 2],
        /// Length, mass, stiffness and damping.
        beam: crate::items::beam::Beam2D,
    },
    /// ObjectMass1D: a mass on a Node1D's coordinate, shown at `referencePosition +
    /// referenceRotation·([p₀, 0, 0] + b)` (p₀ the node's total coordinate).
    Mass1D {
        /// The item's `name` (empty: none given).
        name: String,
        /// `physicsMass` (kg).
        mass: f64,
        /// `nodeNumber`: its Node1D.
        node: NodeIndex,
        /// `referencePosition`.
        reference_position: [f64; 3],
        /// `referenceRotation`: turns the coordinate's direction (local x) into global.
        reference_rotation: [[f64; 3]; 3],
    },
    /// ObjectRotationalMass1D: a rotor on a Node1D's coordinate (the angle about local z),
    /// at the constant `referencePosition`, turned by `referenceRotation·Rz(θ)`.
    RotationalMass1D {
        /// The item's `name` (empty: none given).
        name: String,
        /// `physicsInertia` (kg·m²).
        inertia: f64,
        /// `nodeNumber`: its Node1D.
        node: NodeIndex,
        /// `referencePosition`.
        reference_position: [f64; 3],
        /// `referenceRotation`.
        reference_rotation: [[f64; 3]; 3],
    },
    /// ObjectRigidBody: a rigid body on a NodeRigidBodyEP or NodeRigidBodyRxyz.
    RigidBody {
        /// The item's `name` (empty: none given).
        name: String,
        /// `physicsMass` (kg).
        mass: f64,
        /// [Jxx, Jyy, Jzz, Jyz, Jxz, Jxy] about the body reference point, in body axes.
        inertia: [f64; 6],
        /// `physicsCenterOfMass`: the centre of mass in body axes, relative to the node.
        center_of_mass: [f64; 3],
        /// `nodeNumber`: the node it sits on.
        node: NodeIndex,
    },
    /// ObjectGenericODE2: M q̈ + D q̇ + K q = f over the stacked coordinates of its nodes.
    GenericODE2 {
        /// The item's `name` (empty: none given).
        name: String,
        /// `nodeNumbers`: the nodes whose stacked coordinates q are the object's.
        nodes: Vec<NodeIndex>,
        /// `massMatrix` M.
        mass_matrix: MatrixContainer,
        /// `stiffnessMatrix` K.
        stiffness_matrix: MatrixContainer,
        /// `dampingMatrix` D.
        damping_matrix: MatrixContainer,
        /// `forceVector` f.
        force_vector: Vec<f64>,
    },
    /// ObjectGenericODE1: ẏ = A·y + f over the stacked ODE1 coordinates y of its nodes
    /// (NodeGenericODE1; displacements, the reference not added).
    GenericODE1 {
        /// The item's `name` (empty: none given).
        name: String,
        /// `nodeNumbers`: the NodeGenericODE1 nodes whose stacked coordinates y are the object's.
        nodes: Vec<NodeIndex>,
        /// `systemMatrix` A (n × n, or 0 × 0: none).
        system_matrix: nalgebra::DMatrix<f64>,
        /// `rhsVector` f (n entries, or empty: none).
        rhs_vector: Vec<f64>,
    },
    /// ObjectFFRFreducedOrder: a floating frame (NodeRigidBodyEP) with modal coordinates
    /// (NodeGenericODE2).
    FFRFreducedOrder {
        /// The item's `name` (empty: none given).
        name: String,
        /// `nodeNumbers`: the reference frame's NodeRigidBodyEP and the modal NodeGenericODE2.
        nodes: [NodeIndex; 2],
        /// The reduced-order data.
        parameters: Box<FfrfParameters>,
    },
    /// ObjectKinematicTree: links in minimal coordinates (one NodeGenericODE2 coordinate per
    /// joint).
    KinematicTree {
        /// The item's `name` (empty: none given).
        name: String,
        /// `nodeNumber`: the NodeGenericODE2 of the joint coordinates.
        node: NodeIndex,
        /// The tree's links and joints.
        parameters: Box<KinematicTreeParameters>,
    },
    /// A joint: any joint defined with `joint!`, Exudyn's joint items among them
    /// (ObjectJointSpherical, ObjectJointRevoluteZ, ObjectJointPrismaticX, ObjectJointGeneric,
    /// ObjectConnectorDistance).
    Joint(JointObject),
    /// A force element defined with `joint!` (`pub force Name { … }`): its force f acts on
    /// marker 0, −f on marker 1.
    Force(ForceObject),
    /// A coordinate-vector joint (Exudyn's ObjectConnectorCoordinateVector, or one defined with
    /// `joint!` on `Coordinates` markers).
    CoordinateVector(CoordinateVectorObject),
    /// An Exudyn connector whose behaviour is all in its own file of `items/connectors/`
    /// (ObjectConnectorSpringDamper, …CartesianSpringDamper, …LinearSpringDamper,
    /// …RigidBodySpringDamper, …Gravity, …CoordinateSpringDamper, …CoordinateSpringDamperExt,
    /// …TorsionalSpringDamper, ObjectContactSphereSphere): built with its type's `between`,
    /// e.g. `SpringDamper { stiffness: 100.0, ..Default::default() }.between(markers)`.
    Connector(ConnectorObject),
}

impl Object {
    /// Exudyn's type name without the `Object` prefix (`RigidBody`, `JointRevoluteZ`).
    pub fn type_name(&self) -> &'static str {
        match self {
            Object::Ground { .. } => "Ground",
            Object::MassPoint { .. } => "MassPoint",
            Object::RigidBody { .. } => "RigidBody",
            Object::MassPoint2D { .. } => "MassPoint2D",
            Object::RigidBody2D { .. } => "RigidBody2D",
            Object::BeamGeometricallyExact2D { .. } => "BeamGeometricallyExact2D",
            Object::Mass1D { .. } => "Mass1D",
            Object::RotationalMass1D { .. } => "RotationalMass1D",
            Object::Joint(j) => j.joint_type.type_name,
            Object::Force(f) => f.definition.name,
            Object::CoordinateVector(c) => c.type_name,
            Object::Connector(c) => c.family.type_name(),
            Object::GenericODE2 { .. } => "GenericODE2",
            Object::GenericODE1 { .. } => "GenericODE1",
            Object::FFRFreducedOrder { .. } => "FFRFreducedOrder",
            Object::KinematicTree { .. } => "KinematicTree",
        }
    }

    /// The item's `name`.
    pub fn name(&self) -> &str {
        match self {
            Object::Ground { name, .. }
            | Object::MassPoint { name, .. }
            | Object::RigidBody { name, .. }
            | Object::MassPoint2D { name, .. }
            | Object::RigidBody2D { name, .. }
            | Object::BeamGeometricallyExact2D { name, .. }
            | Object::Mass1D { name, .. }
            | Object::RotationalMass1D { name, .. }
            | Object::GenericODE2 { name, .. }
            | Object::GenericODE1 { name, .. }
            | Object::FFRFreducedOrder { name, .. }
            | Object::KinematicTree { name, .. } => name,
            Object::Joint(j) => &j.name,
            Object::Force(f) => &f.name,
            Object::CoordinateVector(c) => &c.name,
            Object::Connector(c) => &c.name,
        }
    }

    /// Whether it is a body that SensorBody and body markers accept (ground, mass point, rigid body).
    pub fn is_body(&self) -> bool {
        matches!(
            self,
            Object::Ground { .. }
                | Object::MassPoint { .. }
                | Object::MassPoint2D { .. }
                | Object::RigidBody2D { .. }
                | Object::Mass1D { .. }
                | Object::RotationalMass1D { .. }
                | Object::RigidBody { .. }
        )
    }

    /// The nodes whose ODE2 coordinates are a body's, in Exudyn's order (empty for ground);
    /// `None` for connectors, joints and ODE1 objects.
    pub fn ode2_nodes(&self) -> Option<Vec<NodeIndex>> {
        match self {
            Object::Ground { .. } => Some(Vec::new()),
            Object::MassPoint { node, .. }
            | Object::RigidBody { node, .. }
            | Object::MassPoint2D { node, .. }
            | Object::RigidBody2D { node, .. }
            | Object::Mass1D { node, .. }
            | Object::RotationalMass1D { node, .. }
            | Object::KinematicTree { node, .. } => Some(vec![*node]),
            Object::BeamGeometricallyExact2D { nodes, .. }
            | Object::FFRFreducedOrder { nodes, .. } => Some(nodes.to_vec()),
            Object::GenericODE2 { nodes, .. } => Some(nodes.clone()),
            _ => None,
        }
    }

    /// GenericODE2 or FFRFreducedOrder: the objects superelement markers attach to.
    pub fn is_super_element(&self) -> bool {
        matches!(
            self,
            Object::GenericODE2 { .. } | Object::FFRFreducedOrder { .. }
        )
    }

    /// The two markers of a connector or joint.
    pub fn markers(&self) -> Option<[MarkerIndex; 2]> {
        match self {
            Object::Joint(j) => Some(j.markers),
            Object::Force(f) => Some(f.markers),
            Object::CoordinateVector(c) => Some(c.markers),
            Object::Connector(c) => Some(c.markers),
            _ => None,
        }
    }

    /// An ObjectGround at the origin, unrotated.
    pub fn ground() -> Object {
        Object::Ground {
            name: String::new(),
            reference_position: [0.0; 3],
            reference_rotation: [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
        }
    }

    /// `ObjectJointSpherical(markerNumbers=markers)`.
    pub fn joint_spherical(markers: [MarkerIndex; 2]) -> Object {
        Object::Joint(JointObject::spherical(markers))
    }

    /// A joint defined with `joint!`, between `markers`, with `parameters`.
    pub fn joint<J: joint_core::Joint>(
        markers: [MarkerIndex; 2],
        parameters: J::Parameters,
    ) -> Object {
        Object::Joint(JointObject::new::<J>(markers, parameters))
    }

    /// A coordinate-vector joint defined with `joint!` (markers declared `Coordinates`),
    /// between two coordinate-vector markers, with its parameters in the definition's order.
    pub fn coordinate_vector<J: joint_core::CoordinateVectorJoint>(
        markers: [MarkerIndex; 2],
        parameters: Vec<crate::items::joints::DynValue>,
    ) -> Object {
        Object::CoordinateVector(CoordinateVectorObject::new::<J>(markers, parameters))
    }

    /// A force element defined with `joint!` (`pub force Name { … }`), between `markers`, with
    /// `parameters`.
    pub fn force<F: joint_core::Force>(
        markers: [MarkerIndex; 2],
        parameters: F::Parameters,
    ) -> Object {
        Object::Force(ForceObject::new::<F>(markers, parameters))
    }
}
