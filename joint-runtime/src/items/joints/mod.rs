//! Joints: any joint defined with `joint!`, and Exudyn's joint items, as one kind of object.
//!
//! A [`JointObject`] is a joint between two markers with its definition's parameters. Its
//! [`JointType`] says what the object type is: the compiler's [`JointDefinition`] (rows,
//! kernels, outputs), and how an item of that type is spelled in model files, masks its rows,
//! reports its outputs and is drawn. Exudyn's items are types with Exudyn's keys and outputs
//! ([`JOINT_SPHERICAL`], [`JOINT_REVOLUTE_Z`], [`JOINT_PRISMATIC_X`], [`JOINT_GENERIC`],
//! [`CONNECTOR_DISTANCE`]); a user's joint is [`JointType::of`] its type. Assembly, the solvers,
//! sensors, model files and scenes treat both alike.
//!
//! A [`JointRegistry`] maps model files' object type names to joint types, with Exudyn's
//! pre-registered.
//!
//! Adding a built-in joint: its definition (`joint-kernels/src/lib.rs`), its item (a file here: the
//! `JointType` with its keys and outputs), and its line in [`JointRegistry::exudyn`].
//!
//! [`JointDefinition`]: joint_core::JointDefinition

mod coordinate;
mod coordinate_vector;
mod distance;
mod force_object;
mod generic;
mod joint_type;
mod object;
mod outputs;
mod prismatic_2d;
mod prismatic_x;
mod revolute_2d;
mod revolute_z;
mod rigid_frames;
mod rolling_disc;
mod spherical;
mod topology;

pub use coordinate::{CONNECTOR_COORDINATE, CONNECTOR_COORDINATE_VELOCITY};
pub use coordinate_vector::{CoordinateVectorObject, DynValue, MAX_DYN_PARAMETERS};
pub(crate) use coordinate_vector::{CoordinateVectorTopology, with_views};
pub use distance::CONNECTOR_DISTANCE;
pub use force_object::ForceObject;
pub use generic::{JOINT_GENERIC, generic_joint_rows};
pub use joint_type::{
    Axes, CheckFn, Drawing, ExtraKey, ExtraKeyKind, JointType, Narrow, OutputFn, ParameterKey,
};
pub use object::{JointObject, JointVisualization};
pub use outputs::{JointOutputs, generic};
pub use prismatic_2d::JOINT_PRISMATIC_2D;
pub use prismatic_x::JOINT_PRISMATIC_X;
pub use revolute_2d::JOINT_REVOLUTE_2D;
pub use revolute_z::JOINT_REVOLUTE_Z;
pub use rolling_disc::JOINT_ROLLING_DISC;
pub use spherical::JOINT_SPHERICAL;
pub use topology::ConstraintLevel;
pub(crate) use topology::{JointKernel, JointTopology};
pub(crate) use topology::{SIZES_CHECKED, joint_kernel_rows};

use joint_core::{
    CoordinateVectorDefinition, CoordinateVectorJoint, Force, ForceDefinition, Joint,
};

use crate::error::{Error, Result};

/// The joint types a model reader knows, by object type name.
#[derive(Clone, Debug)]
pub struct JointRegistry {
    types: Vec<JointType>,
    /// Force elements defined with `joint!` (`pub force`), by their own names.
    forces: Vec<&'static ForceDefinition>,
    /// Coordinate-vector joints defined with `joint!` (`Coordinates` markers), by their own
    /// names.
    coordinate_vectors: Vec<&'static CoordinateVectorDefinition>,
}

impl Default for JointRegistry {
    fn default() -> Self {
        Self::exudyn()
    }
}

impl JointRegistry {
    /// Exudyn's joint items.
    pub fn exudyn() -> Self {
        JointRegistry {
            types: vec![
                JOINT_SPHERICAL,
                JOINT_REVOLUTE_Z,
                JOINT_PRISMATIC_X,
                JOINT_GENERIC,
                CONNECTOR_DISTANCE,
                CONNECTOR_COORDINATE,
                JOINT_REVOLUTE_2D,
                JOINT_PRISMATIC_2D,
                JOINT_ROLLING_DISC,
            ],
            forces: Vec::new(),
            coordinate_vectors: Vec::new(),
        }
    }

    /// Add a type; an error if its name or a spelling is taken.
    pub fn register(&mut self, joint_type: JointType) -> Result<&mut Self> {
        let names =
            std::iter::once(joint_type.type_name).chain(joint_type.spellings.iter().copied());
        for name in names {
            if let Some(taken) = self.taken_by(name) {
                return Err(Error::Model {
                    message: format!(
                        "cannot register joint type `{}`: the object type name `{name}` is taken by `{taken}`",
                        joint_type.type_name
                    ),
                });
            }
        }
        self.types.push(joint_type);
        Ok(self)
    }

    /// Add a force element defined with `joint!` under its own name; an error if the name is
    /// taken by a joint type or a force element. (A name of the runtime's own object types,
    /// `SpringDamper` for one, is refused when a model file is read with the registry.)
    pub fn register_force(&mut self, definition: &'static ForceDefinition) -> Result<&mut Self> {
        if let Some(taken) = self.taken_by(definition.name) {
            return Err(Error::Model {
                message: format!(
                    "cannot register force element `{}`: the object type name is taken by `{taken}`",
                    definition.name
                ),
            });
        }
        self.forces.push(definition);
        Ok(self)
    }

    /// With the force element `F` defined with `joint!`, under its own name.
    pub fn with_force<F: Force>(mut self) -> Result<Self> {
        self.register_force(F::DEFINITION)?;
        Ok(self)
    }

    /// The force element a model file's `objectType` names.
    pub fn find_force(&self, name: &str) -> Option<&'static ForceDefinition> {
        self.forces.iter().copied().find(|f| f.name == name)
    }

    /// The registered force elements, in registration order.
    pub fn forces(&self) -> &[&'static ForceDefinition] {
        &self.forces
    }

    /// Add a coordinate-vector joint defined with `joint!` (markers declared `Coordinates`)
    /// under its own name; an error if the name is taken. Model files give each of its
    /// parameters by its name: a number, a list (`dvector`) or a list of rows (`dmatrix`; `[]`
    /// for an absent one).
    pub fn register_coordinate_vector(
        &mut self,
        definition: &'static CoordinateVectorDefinition,
    ) -> Result<&mut Self> {
        if let Some(taken) = self.taken_by(definition.name) {
            return Err(Error::Model {
                message: format!(
                    "cannot register coordinate-vector joint `{}`: the object type name is taken by `{taken}`",
                    definition.name
                ),
            });
        }
        self.coordinate_vectors.push(definition);
        Ok(self)
    }

    /// With the coordinate-vector joint `J` defined with `joint!`, under its own name.
    pub fn with_coordinate_vector<J: CoordinateVectorJoint>(mut self) -> Result<Self> {
        self.register_coordinate_vector(J::DEFINITION)?;
        Ok(self)
    }

    /// The coordinate-vector joint a model file's `objectType` names.
    pub fn find_coordinate_vector(
        &self,
        name: &str,
    ) -> Option<&'static CoordinateVectorDefinition> {
        self.coordinate_vectors
            .iter()
            .copied()
            .find(|c| c.name == name)
    }

    /// The registered coordinate-vector joints, in registration order.
    pub fn coordinate_vectors(&self) -> &[&'static CoordinateVectorDefinition] {
        &self.coordinate_vectors
    }

    /// What already answers to object type name `name`: a joint type, a force element or a
    /// coordinate-vector joint.
    fn taken_by(&self, name: &str) -> Option<&'static str> {
        if let Some(t) = self.find(name) {
            return Some(t.type_name);
        }
        if let Some(f) = self.find_force(name) {
            return Some(f.name);
        }
        self.find_coordinate_vector(name).map(|c| c.name)
    }

    /// With the joint `J` defined with `joint!`, under its own name.
    pub fn with<J: Joint>(mut self) -> Result<Self> {
        self.register(JointType::of::<J>())?;
        Ok(self)
    }

    /// The type a model file's `objectType` names.
    pub fn find(&self, name: &str) -> Option<&JointType> {
        self.types.iter().find(|t| t.is_spelled(name))
    }

    /// Every registered type, Exudyn's first, in registration order.
    pub fn types(&self) -> &[JointType] {
        &self.types
    }

    /// Every named output of the registered joints' and force elements' definitions, once each.
    pub fn output_names(&self) -> Vec<&'static str> {
        let mut names: Vec<&'static str> = Vec::new();
        let joints = self.types.iter().flat_map(|t| t.definition.outputs);
        for o in joints.chain(self.forces.iter().flat_map(|f| f.outputs)) {
            if !names.contains(&o.name) {
                names.push(o.name);
            }
        }
        names
    }

    /// A named output of a registered joint's or force element's definition (its `'static`
    /// name).
    pub fn output_name(&self, name: &str) -> Option<&'static str> {
        self.types
            .iter()
            .flat_map(|t| t.definition.outputs)
            .chain(self.forces.iter().flat_map(|f| f.outputs))
            .map(|o| o.name)
            .find(|n| *n == name)
    }
}
