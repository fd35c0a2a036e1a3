//! Objects: bodies, connectors and constraints.

use nalgebra::DMatrix;

use crate::items::{MarkerIndex, MatrixContainer, NodeIndex};
use crate::joints::JointObject;

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
pub enum Object {
    Ground {
        name: String,
        reference_position: [f64; 3],
        /// Row-major rotation matrix.
        reference_rotation: [[f64; 3]; 3],
    },
    MassPoint {
        name: String,
        mass: f64,
        node: NodeIndex,
    },
    RigidBody {
        name: String,
        mass: f64,
        /// [Jxx, Jyy, Jzz, Jyz, Jxz, Jxy] about the body reference point, in body axes.
        inertia: [f64; 6],
        center_of_mass: [f64; 3],
        node: NodeIndex,
    },
    ConnectorSpringDamper {
        name: String,
        markers: [MarkerIndex; 2],
        reference_length: f64,
        stiffness: f64,
        damping: f64,
        force: f64,
        velocity_offset: f64,
        active: bool,
    },
    ConnectorCartesianSpringDamper {
        name: String,
        markers: [MarkerIndex; 2],
        stiffness: [f64; 3],
        damping: [f64; 3],
        offset: [f64; 3],
        active: bool,
    },
    /// ObjectGenericODE2: M q̈ + D q̇ + K q = f over the stacked coordinates of its nodes.
    GenericODE2 {
        name: String,
        nodes: Vec<NodeIndex>,
        mass_matrix: MatrixContainer,
        stiffness_matrix: MatrixContainer,
        damping_matrix: MatrixContainer,
        force_vector: Vec<f64>,
    },
    /// ObjectFFRFreducedOrder: a floating frame (NodeRigidBodyEP) with modal coordinates
    /// (NodeGenericODE2).
    FFRFreducedOrder {
        name: String,
        nodes: [NodeIndex; 2],
        parameters: Box<FfrfParameters>,
    },
    /// ObjectKinematicTree: links in minimal coordinates (one NodeGenericODE2 coordinate per
    /// joint).
    KinematicTree {
        name: String,
        node: NodeIndex,
        parameters: Box<KinematicTreeParameters>,
    },
    /// A joint: any joint defined with `joint!`, Exudyn's joint items among them
    /// (ObjectJointSpherical, ObjectJointRevoluteZ, ObjectJointPrismaticX, ObjectJointGeneric,
    /// ObjectConnectorDistance).
    Joint(JointObject),
}

impl Object {
    pub fn type_name(&self) -> &'static str {
        match self {
            Object::Ground { .. } => "Ground",
            Object::MassPoint { .. } => "MassPoint",
            Object::RigidBody { .. } => "RigidBody",
            Object::ConnectorSpringDamper { .. } => "ConnectorSpringDamper",
            Object::ConnectorCartesianSpringDamper { .. } => "ConnectorCartesianSpringDamper",
            Object::Joint(j) => j.joint_type.type_name,
            Object::GenericODE2 { .. } => "GenericODE2",
            Object::FFRFreducedOrder { .. } => "FFRFreducedOrder",
            Object::KinematicTree { .. } => "KinematicTree",
        }
    }

    pub fn name(&self) -> &str {
        match self {
            Object::Ground { name, .. }
            | Object::MassPoint { name, .. }
            | Object::RigidBody { name, .. }
            | Object::ConnectorSpringDamper { name, .. }
            | Object::ConnectorCartesianSpringDamper { name, .. }
            | Object::GenericODE2 { name, .. }
            | Object::FFRFreducedOrder { name, .. }
            | Object::KinematicTree { name, .. } => name,
            Object::Joint(j) => &j.name,
        }
    }

    pub fn is_body(&self) -> bool {
        matches!(
            self,
            Object::Ground { .. } | Object::MassPoint { .. } | Object::RigidBody { .. }
        )
    }

    /// GenericODE2 or FFRFreducedOrder: the objects superelement markers attach to.
    pub fn is_super_element(&self) -> bool {
        matches!(
            self,
            Object::GenericODE2 { .. } | Object::FFRFreducedOrder { .. }
        )
    }

    pub fn markers(&self) -> Option<[MarkerIndex; 2]> {
        match self {
            Object::ConnectorSpringDamper { markers, .. }
            | Object::ConnectorCartesianSpringDamper { markers, .. } => Some(*markers),
            Object::Joint(j) => Some(j.markers),
            _ => None,
        }
    }

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
}
