//! What an object type of joint is: the compiler's definition plus how the Exudyn item (or a
//! user's item) spells it in model files, masks its rows, reports its outputs and is drawn.

use joint_core::{Joint, JointDefinition};

use super::outputs::JointOutputs;
use crate::items::OutputVariable;

/// How `constrainedAxes` selects a joint's equations.
#[derive(Clone, Copy, Debug)]
pub enum Axes {
    /// One entry per kernel row (1 = constrained, 0 = free: `λ = 0`), defaulting to the
    /// definition's `axes [...]` defaults. Custom joints, ObjectJointSpherical.
    Mask,
    /// No `constrainedAxes`: every row is an equation (ObjectJointRevoluteZ, …).
    Fixed,
    /// No `constrainedAxes`: boolean keys free rows instead, `(key, row)`: the row is an
    /// equation while the key is true (its default), else free (`λ = 0`). Read into the same
    /// per-row mask. ObjectJointPrismatic2D's `constrainRotation`.
    Flags(&'static [(&'static str, usize)]),
    /// `count` entries choose `count` of the kernel's rows (`select(locked)`: per AE row the
    /// kernel row that is its equation, or `None` for a free row). ObjectJointGeneric.
    Select {
        /// Number of `constrainedAxes` entries.
        count: usize,
        /// Per AE row, the kernel row that is its equation (`None`: free), from the locked axes.
        select: fn(&[bool]) -> Vec<Option<usize>>,
        /// Definitions with fewer rows for the common selections, tried in order (the
        /// narrowest first): the first that has every selected row, and an unrolled pairing
        /// wherever the type's definition has one, evaluates the joint, so that its kernels
        /// compute the equations only, not every candidate row. Each must take the type's
        /// parameters and be of its level (checked at assembly).
        narrow: &'static [Narrow],
    },
}

/// A definition whose rows are some of a wider one's, expression for expression: its row k is
/// the wide definition's row `rows[k]` (so the same arithmetic), with the same parameters.
#[derive(Clone, Copy, Debug)]
pub struct Narrow {
    /// The narrower definition.
    pub definition: &'static JointDefinition,
    /// Per row of it, the wide definition's row it is.
    pub rows: &'static [usize],
}

impl Narrow {
    /// `equations` (per AE row, a wide kernel row or `None`) in this definition's rows, if it
    /// has every one of them.
    pub fn equations(&self, equations: &[Option<usize>]) -> Option<Vec<Option<usize>>> {
        equations
            .iter()
            .map(|e| match e {
                Some(r) => self.rows.iter().position(|n| n == r).map(Some),
                None => Some(None),
            })
            .collect()
    }
}

/// A model-file key of one of the definition's parameters.
#[derive(Clone, Copy, Debug)]
pub struct ParameterKey {
    /// The key (`rotationMarker0`).
    pub key: &'static str,
    /// The definition's parameter (`rotation_marker0`).
    pub parameter: &'static str,
    /// The value when the key is missing (`None`: required), in the flat layout.
    pub default: Option<&'static [f64]>,
}

/// How scenes draw the joint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Drawing {
    /// A sphere at each marker (two cylinders' worth of sphere when an axis is free), Exudyn's
    /// VisualizationObjectJointSpherical.
    Spherical,
    /// A sphere at each marker (Exudyn's rigid joints; custom joints).
    Spheres,
    /// A cylinder between the markers (ObjectConnectorDistance).
    Cylinder,
    /// Not drawn (ObjectConnectorCoordinate: its markers have no position).
    None,
}

/// Exudyn outputs of an item beyond (or instead of) the generic ones: `Some(Ok)` handled,
/// `None` not an output of this item (then the generic ones are tried, if the type has them).
pub type OutputFn = fn(&JointOutputs, OutputVariable, &mut Vec<f64>) -> Option<()>;

/// A check of an item's parameters (the definition's, in its order) that the shapes cannot
/// express (ConnectorDistance's distance > 0): `Err((key, message))`.
pub type CheckFn = fn(&[f64]) -> Result<(), (&'static str, String)>;

/// One type of joint object.
#[derive(Clone, Copy, Debug)]
pub struct JointType {
    /// The type's name in messages, summaries and results (`JointRevoluteZ`).
    pub type_name: &'static str,
    /// `objectType` spellings a model file may use.
    pub spellings: &'static [&'static str],
    /// The joint as the compiler defined it: rows, kernels per pairing, outputs.
    pub definition: &'static JointDefinition,
    /// Model-file keys of the definition's parameters (empty: each parameter by its own name,
    /// required).
    pub parameter_keys: &'static [ParameterKey],
    /// How `constrainedAxes` selects the rows.
    pub axes: Axes,
    /// Whether the generic outputs (Force = λ per row, Displacement and Velocity = the position
    /// and velocity residuals, the definition's named outputs) are the type's outputs. Exudyn's
    /// items have their own lists.
    pub generic_outputs: bool,
    /// The item's own outputs (tried before the generic ones).
    pub outputs: Option<OutputFn>,
    /// A check of the parameters beyond their shapes, run when the item is read or assembled.
    pub check: Option<CheckFn>,
    /// The parameters that a marker's localHT rotation turns, as it turns the marker frame:
    /// `A_J = A_body·R_local·rotationMarker`. `None`: a marker with a local rotation is evaluated
    /// through the marker-level kernels, which see the marker's frame.
    pub frame_parameters: Option<[&'static str; 2]>,
    /// Whether markers without a generated kind (superelement, kinematic tree) are accepted,
    /// through the marker-level kernels.
    pub marker_level: bool,
    /// How scenes draw the joint.
    pub drawing: Drawing,
    /// The visualization key of the drawing's size and its default (≤ 0: the scene's default).
    pub size_key: &'static str,
    /// The default of `size_key`.
    pub default_size: f64,
    /// Further model-file keys of the item (Exudyn's keys that change nothing here).
    pub extra_keys: &'static [ExtraKey],
}

/// A model-file key of an item that is not one of its definition's parameters.
#[derive(Clone, Copy, Debug)]
pub struct ExtraKey {
    /// The key as model files spell it.
    pub key: &'static str,
    /// What values it accepts.
    pub kind: ExtraKeyKind,
}

/// What an [`ExtraKey`] accepts.
#[derive(Clone, Copy, Debug)]
pub enum ExtraKeyKind {
    /// A Python user function: accepted only as 0 (none).
    UserFunction,
    /// A list of `len` numbers, read and unused.
    Unused {
        /// The list's length.
        len: usize,
    },
    /// A flag this runtime does not support: only `false` is accepted; the message says why.
    False {
        /// Why the flag is not supported.
        message: &'static str,
    },
    /// A flag (default `false`) that chooses between two types of the same item with the same
    /// parameters, e.g. ConnectorCoordinate's `velocityLevel`: both types list the key with
    /// the same pair.
    Variant {
        /// The item's type while the flag is false.
        when_false: &'static JointType,
        /// Its type while the flag is true.
        when_true: &'static JointType,
    },
}

impl JointType {
    /// The type of a joint defined with `joint!` outside Exudyn's list: named as the definition
    /// names it, parameters by their own names, `constrainedAxes` a mask of its rows, the
    /// generic outputs, drawn as spheres.
    pub const fn custom(definition: &'static JointDefinition) -> JointType {
        JointType {
            type_name: definition.name,
            spellings: &[],
            definition,
            parameter_keys: &[],
            axes: Axes::Mask,
            generic_outputs: true,
            outputs: None,
            check: None,
            frame_parameters: None,
            marker_level: true,
            drawing: Drawing::Spheres,
            size_key: "VdrawSize",
            default_size: -1.0,
            extra_keys: &[],
        }
    }

    /// [`JointType::custom`] of a `joint!` type.
    pub const fn of<J: Joint>() -> JointType {
        JointType::custom(J::DEFINITION)
    }

    /// Whether a model file's `objectType` names this type.
    pub fn is_spelled(&self, name: &str) -> bool {
        name == self.type_name || self.spellings.contains(&name)
    }

    /// The model-file key of definition parameter `parameter`, and its default.
    pub fn key_of(&self, parameter: &'static str) -> (&'static str, Option<&'static [f64]>) {
        self.parameter_keys
            .iter()
            .find(|k| k.parameter == parameter)
            .map_or((parameter, None), |k| (k.key, k.default))
    }

    /// Number of entries of the item's row mask (`constrainedAxes`, or one per row for
    /// [`Axes::Flags`]; 0: the type has none).
    pub fn axes_count(&self) -> usize {
        match self.axes {
            Axes::Mask | Axes::Flags(_) => self.definition.rows(),
            Axes::Fixed => 0,
            Axes::Select { count, .. } => count,
        }
    }

    /// `constrainedAxes` when a model file does not give it.
    pub fn default_axes(&self) -> Vec<i64> {
        match self.axes {
            Axes::Mask => self
                .definition
                .default_constrained_axes
                .iter()
                .map(|&c| i64::from(c))
                .collect(),
            Axes::Fixed => Vec::new(),
            Axes::Flags(_) => vec![1; self.definition.rows()],
            Axes::Select { count, .. } => vec![1; count],
        }
    }
}

impl PartialEq for JointType {
    fn eq(&self, other: &Self) -> bool {
        self.type_name == other.type_name && std::ptr::eq(self.definition, other.definition)
    }
}
