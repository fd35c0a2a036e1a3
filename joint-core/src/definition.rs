//! A joint as the compiler defined it: everything a runtime needs to assemble, evaluate, mask,
//! report and check it, as static data and function pointers.

use crate::marker_level::{MarkerLevel, MarkerLevelResidualFn};
use crate::{Capability, MarkerKind, Pairing};

/// The shape of a run-time parameter (`param name: scalar | vector | matrix;`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ParameterShape {
    /// One value (`scalar`).
    Scalar,
    /// Three values (`vector`).
    Vector,
    /// 3×3, stored row-major.
    Matrix,
}

impl ParameterShape {
    /// Number of values (never zero).
    pub const fn value_count(self) -> usize {
        match self {
            ParameterShape::Scalar => 1,
            ParameterShape::Vector => 3,
            ParameterShape::Matrix => 9,
        }
    }

    /// `scalar`, `vector` or `matrix`, as the definition writes it.
    pub const fn keyword(self) -> &'static str {
        match self {
            ParameterShape::Scalar => "scalar",
            ParameterShape::Vector => "vector",
            ParameterShape::Matrix => "matrix",
        }
    }
}

/// One run-time parameter of a joint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParameterInfo {
    /// The parameter's name as the definition writes it.
    pub name: &'static str,
    /// Its shape.
    pub shape: ParameterShape,
}

/// One of the two markers of a joint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MarkerDeclaration {
    /// `m0`
    pub name: &'static str,
    /// What the marker must provide (`Position`, `Rigid` or `Coordinate`).
    pub capability: Capability,
    /// The kinds unrolled pairings were generated for (`marker m0: Rigid(GroundPoint, …)`);
    /// empty for the default form, which serves every kind through [`JointDefinition::marker_level`].
    pub kinds: &'static [MarkerKind],
}

/// The name of a joint's or force element's output (`output distance = …;`), as its module's
/// `outputs` declares it (`my_joint::outputs::DISTANCE`): a runtime's output variable from a
/// constant, so that a misspelt name is a compile error.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OutputName(pub &'static str);

/// A named output of a joint (`output name = expr;`), evaluated at marker level.
#[derive(Clone, Copy, Debug)]
pub struct OutputInfo {
    /// The output's name (a model file's `outputVariableType`).
    pub name: &'static str,
    /// 1 (scalar) or 3 (vector).
    pub len: usize,
    /// Its marker-level evaluation.
    pub evaluate: MarkerLevelResidualFn,
}

/// A state of a joint or force element (`state NAME = EXPR;`): a scalar the definition keeps
/// between steps, such as a relative angle that stays continuous over any number of turns.
///
/// Inside a step the kernels read the state's value at the last converged step (constant
/// during the step, so it adds no derivative); it sits in the kernels' parameter slice after
/// the parameters, in declaration order (the generated `Parameters` struct has a field for
/// it, its initial value). After each converged step a runtime evaluates [`Self::update`] at
/// the converged configuration and stores the result as the state's new value.
#[derive(Clone, Copy, Debug)]
pub struct StateInfo {
    /// The state's name as the definition writes it (a model file's key for its initial value,
    /// and a named output).
    pub name: &'static str,
    /// `EXPR` at marker level: the state's new value after a converged step (one value).
    pub update: MarkerLevelResidualFn,
}

/// The level a joint's rows are written at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ResidualLevel {
    /// `position = …;`: holonomic rows g(q) = 0; the velocity level ġ = C·q̇ and the Jacobian C
    /// are derived from them.
    Position,
    /// `velocity = …;` alone: rows that exist only at velocity level, g(q, q̇) = C(q)·q̇ + b(q) = 0
    /// (non-holonomic constraints such as rolling without slip, or a prescribed velocity). A
    /// runtime evaluates them at velocity level in every mode, lets λ act through C = ∂g/∂q̇,
    /// and (as Exudyn) gives their rows of a Newton matrix as ∂g/∂q̇·∂q̇/∂q, i.e. γ'·C in
    /// generalized-α. The pairings' position-level kernels return `None`.
    Velocity,
}

/// A joint defined with `joint!`.
#[derive(Debug)]
pub struct JointDefinition {
    /// `RevoluteZ`
    pub name: &'static str,
    /// `revolute_z`: the generated module.
    pub module: &'static str,
    /// The definition's doc comment.
    pub doc: &'static str,
    /// `m0` and `m1`.
    pub markers: [MarkerDeclaration; 2],
    /// The run-time parameters, in declaration order (the kernels' parameter slice).
    pub parameters: &'static [ParameterInfo],
    /// The states (`state NAME = …;`), after the parameters in the kernels' slice.
    pub states: &'static [StateInfo],
    /// Names of the residual rows (one Lagrange multiplier each).
    pub axes: &'static [&'static str],
    /// Default of the run-time axis mask (`constrainedAxes`): `true` = constrained.
    pub default_constrained_axes: &'static [bool],
    /// The named outputs.
    pub outputs: &'static [OutputInfo],
    /// The unrolled pairings (none unless the definition lists its markers' kinds).
    pub pairings: &'static [&'static Pairing],
    /// The marker-level kernels, for any marker: every joint's default form, composed with the
    /// markers' own kinematics by a runtime ([`crate::MarkerLevel`]).
    pub marker_level: MarkerLevel,
    /// The level the rows are written at.
    pub level: ResidualLevel,
    /// The position level as written, `None` for a joint written at velocity level.
    pub position_text: Option<&'static str>,
    /// The velocity level as written, `None` if the compiler derived it.
    pub velocity_text: Option<&'static str>,
    /// Whether the marker-level kernels have second-order terms (`second_order;`).
    pub second_order: bool,
}

impl JointDefinition {
    /// Number of residual rows.
    pub const fn rows(&self) -> usize {
        self.axes.len()
    }

    /// The unrolled pairing generated for marker kinds `(k0, k1)`, if the definition asked for it.
    pub fn pairing(&self, k0: MarkerKind, k1: MarkerKind) -> Option<&'static Pairing> {
        self.pairings.iter().copied().find(|p| p.kinds == [k0, k1])
    }

    /// Number of values in the slice every kernel takes: the parameters' values, then one per
    /// state.
    pub fn parameter_len(&self) -> usize {
        parameter_len(self.parameters) + self.states.len()
    }

    /// Parameter `name` and the offset of its first value in the parameter slice.
    pub fn parameter(&self, name: &str) -> Option<(usize, ParameterInfo)> {
        find_parameter(self.parameters, name)
    }

    /// State `name` and its offset in the parameter slice.
    pub fn state(&self, name: &str) -> Option<(usize, StateInfo)> {
        find_state(self.parameters, self.states, name)
    }

    /// Named output `name`.
    pub fn output(&self, name: &str) -> Option<&OutputInfo> {
        self.outputs.iter().find(|o| o.name == name)
    }
}

/// State `name` of `states` and its offset in the flat layout (after the parameters).
pub(crate) fn find_state(
    parameters: &[ParameterInfo],
    states: &[StateInfo],
    name: &str,
) -> Option<(usize, StateInfo)> {
    let start = parameter_len(parameters);
    states
        .iter()
        .position(|s| s.name == name)
        .map(|k| (start + k, states[k]))
}

/// Number of values of `parameters` in the flat layout.
pub(crate) fn parameter_len(parameters: &[ParameterInfo]) -> usize {
    parameters.iter().map(|p| p.shape.value_count()).sum()
}

/// Parameter `name` of `parameters` and the offset of its first value in the flat layout.
pub(crate) fn find_parameter(
    parameters: &[ParameterInfo],
    name: &str,
) -> Option<(usize, ParameterInfo)> {
    let mut offset = 0;
    for p in parameters {
        if p.name == name {
            return Some((offset, *p));
        }
        offset += p.shape.value_count();
    }
    None
}

/// A joint's run-time parameters as a struct (generated as `module::Parameters`), its states'
/// initial values included (after the parameters).
pub trait JointParameters: Copy + Default + core::fmt::Debug + PartialEq {
    /// Number of values.
    const LEN: usize;
    /// The values in definition order (matrices row-major), then the states': the slice every
    /// kernel takes.
    fn to_values(&self) -> alloc::vec::Vec<f64>;
    /// The struct from its values; `None` if `values` has not [`Self::LEN`] entries.
    fn from_values(values: &[f64]) -> Option<Self>;
}

/// A joint defined with `joint!`: `pub joint Cylindrical { … }` makes the type `Cylindrical`
/// implement it, with the module `cylindrical` holding the kernels.
pub trait Joint: 'static {
    /// `cylindrical::Parameters`
    type Parameters: JointParameters;
    /// The compiler's definition.
    const DEFINITION: &'static JointDefinition;
}
