//! Force elements defined with `joint!` (`pub force Name { … }`): a force between two markers as
//! a function of their quantities, and its derivatives, as static data and function pointers.

use crate::definition::{MarkerDeclaration, OutputInfo, ParameterInfo, StateInfo};
use crate::marker_level::MarkerQuantities;

/// ∂f/∂x of a force element's force `f` (global, acting on marker 0; marker 1 receives −f) for
/// each marker quantity x, per marker `i` = 0, 1, each block row-major 3 × 3 (`[row][column]`).
///
/// A runtime composes them with any marker's Jacobians: with J_pos,i and J_rot,i (the position
/// and rotation Jacobians) and the generalized forces −J_pos,0ᵀf and J_pos,1ᵀf on the left-hand
/// side, the stiffness block of markers (a, b) is
/// `s_a·(δ_ab·∂(J_pos,aᵀ)/∂q·f + J_pos,aᵀ·(d_position[b]·J_pos,b + d_rotation[b]·J_rot,b))`
/// and the damping block `s_a·J_pos,aᵀ·(d_velocity[b]·J_pos,b + d_angular_velocity[b]·J_rot,b)`
/// (s_0 = −1, s_1 = 1), the marker velocities held where the positions move, as Exudyn
/// differentiates its connectors.
///
/// Between two `Coordinate` markers the force is a scalar (in `f[0]`) and only the `[i][0][0]`
/// entries of `d_position` (∂f/∂c_i) and `d_velocity` (∂f/∂ċ_i) are used; J_pos,i is then the
/// coordinate's Jacobian row.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ForceJacobian<S = f64> {
    /// ∂f/∂p_i.
    pub d_position: [[[S; 3]; 3]; 2],
    /// ∂f/∂δπ_i: by a small global rotation δπ of marker i's frame, `δA_i = skew(δπ)·A_i`
    /// (zero for markers declared `Position`).
    pub d_rotation: [[[S; 3]; 3]; 2],
    /// ∂f/∂v_i.
    pub d_velocity: [[[S; 3]; 3]; 2],
    /// ∂f/∂ω_i (ω_i global; zero for markers declared `Position`).
    pub d_angular_velocity: [[[S; 3]; 3]; 2],
}

/// A force element's force: `(parameters, m0, m1, f out)`, `None` if a length is wrong. (A
/// coordinate marker's value and velocity are `position[0]` and `velocity[0]`.)
pub type ForceFn = fn(&[f64], &MarkerQuantities, &MarkerQuantities, &mut [f64; 3]) -> Option<()>;
/// Its derivatives: `(parameters, m0, m1, out)`, `None` if a length is wrong.
pub type ForceJacobianFn =
    fn(&[f64], &MarkerQuantities, &MarkerQuantities, &mut ForceJacobian) -> Option<()>;

/// A force element defined with `joint!`.
#[derive(Debug)]
pub struct ForceDefinition {
    /// `SpringDamper`
    pub name: &'static str,
    /// `spring_damper`: the generated module.
    pub module: &'static str,
    /// The definition's doc comment.
    pub doc: &'static str,
    /// `m0` and `m1` (the kinds list every kind with the capability: force elements are
    /// evaluated at marker level, for any marker).
    pub markers: [MarkerDeclaration; 2],
    /// The run-time parameters, in declaration order (the kernels' parameter slice).
    pub parameters: &'static [ParameterInfo],
    /// The states (`state NAME = …;`), after the parameters in the kernels' slice.
    pub states: &'static [StateInfo],
    /// The named outputs.
    pub outputs: &'static [OutputInfo],
    /// The force as written.
    pub force_text: &'static str,
    /// f(m0, m1): the force on marker 0 (global); marker 1 receives −f.
    pub force: ForceFn,
    /// Its derivatives by the markers' quantities ([`ForceJacobian`]).
    pub jacobian: ForceJacobianFn,
    /// The torque, if the definition has one (`torque = …;`, between two `Rigid` markers).
    pub torque: Option<TorqueDefinition>,
}

/// A force element's torque τ (`torque = …;`): global, on marker 0; marker 1 receives −τ. It
/// enters the left-hand side as −J_rot,0ᵀτ and J_rot,1ᵀτ beside the force's −J_pos,0ᵀf and
/// J_pos,1ᵀf, and its derivatives compose as the force's do ([`ForceJacobian`]), with the
/// rotation Jacobians in place of the position Jacobians on the left and ∂(J_rot,aᵀ)/∂q·τ
/// in place of ∂(J_pos,aᵀ)/∂q·f.
#[derive(Debug)]
pub struct TorqueDefinition {
    /// The torque as written.
    pub torque_text: &'static str,
    /// τ(m0, m1), into `out` as [`ForceFn`] fills the force.
    pub torque: ForceFn,
    /// ∂τ/∂p, ∂τ/∂δπ, ∂τ/∂v, ∂τ/∂ω per marker, laid out as a [`ForceJacobian`].
    pub jacobian: ForceJacobianFn,
}

impl ForceDefinition {
    /// Number of values in the slice every kernel takes: the parameters' values, then one per
    /// state.
    pub fn parameter_len(&self) -> usize {
        crate::definition::parameter_len(self.parameters) + self.states.len()
    }

    /// State `name` and its offset in the parameter slice.
    pub fn state(&self, name: &str) -> Option<(usize, StateInfo)> {
        crate::definition::find_state(self.parameters, self.states, name)
    }

    /// Parameter `name` and the offset of its first value in the parameter slice.
    pub fn parameter(&self, name: &str) -> Option<(usize, ParameterInfo)> {
        crate::definition::find_parameter(self.parameters, name)
    }

    /// Named output `name`.
    pub fn output(&self, name: &str) -> Option<&OutputInfo> {
        self.outputs.iter().find(|o| o.name == name)
    }
}

/// A force element defined with `joint!`: `pub force SpringDamper { … }` makes the type
/// `SpringDamper` implement it, with the module `spring_damper` holding the kernels.
pub trait Force: 'static {
    /// `spring_damper::Parameters`
    type Parameters: crate::JointParameters;
    /// The compiler's definition.
    const DEFINITION: &'static ForceDefinition;
}
