//! The kernels of one pairing of marker kinds behind a uniform, slice-based interface: what a
//! runtime stores once per joint at assemble and calls every step.

use crate::{MarkerArgs, MarkerKind};

/// A residual at position or velocity level: `(joint parameters, m0, m1, rows out)`.
pub type ResidualFn = fn(&[f64], MarkerArgs<'_>, MarkerArgs<'_>, &mut [f64]) -> Option<()>;
/// Per-marker blocks, row-major `ROWS × coordinates[0]` and `ROWS × coordinates[1]`:
/// `(joint parameters, m0, m1, block 0 out, block 1 out)`.
pub type BlocksFn =
    fn(&[f64], MarkerArgs<'_>, MarkerArgs<'_>, &mut [f64], &mut [f64]) -> Option<()>;
/// C_qᵀλ per marker: `(joint parameters, λ per row, m0, m1, force 0 out, force 1 out)`, one
/// entry per coordinate of m0 and of m1.
pub type ReactionFn =
    fn(&[f64], &[f64], MarkerArgs<'_>, MarkerArgs<'_>, &mut [f64], &mut [f64]) -> Option<()>;

/// A position-level residual and C_qᵀλ at the same coordinates: `(joint parameters, λ per row,
/// m0, m1, rows out, force 0 out, force 1 out)`.
pub type ResidualReactionFn = fn(
    &[f64],
    &[f64],
    MarkerArgs<'_>,
    MarkerArgs<'_>,
    &mut [f64],
    &mut [f64],
    &mut [f64],
) -> Option<()>;

/// The generated kernels of one pairing of marker kinds. Every function returns `None` (and
/// writes nothing) if a slice has the wrong length: the joint's parameters
/// ([`JointDefinition::parameter_len`](crate::JointDefinition::parameter_len) values), a marker's
/// arguments, or an output.
#[derive(Clone, Copy, Debug)]
pub struct Pairing {
    /// The joint's module name (`revolute_z`).
    pub joint: &'static str,
    /// The pairing module's name (`rigid_ep_point_to_ground_point`).
    pub name: &'static str,
    /// Kinds of `m0` and `m1`.
    pub kinds: [MarkerKind; 2],
    /// Coordinates of `m0`'s and `m1`'s node (0 for ground).
    pub coordinates: [usize; 2],
    /// Parameters of `m0` and `m1`.
    pub parameters: [usize; 2],
    /// Number of residual rows.
    pub rows: usize,
    /// Position-level residual (`None` always for a joint written at velocity level,
    /// [`ResidualLevel::Velocity`](crate::ResidualLevel::Velocity): it has none).
    pub position_residual: ResidualFn,
    /// Velocity-level residual.
    pub velocity_residual: ResidualFn,
    /// Jacobian C = ∂(velocity residual)/∂q̇, one block per marker.
    pub jacobian: BlocksFn,
    /// ∂g/∂q of the position-level residual, in [`Pairing::jacobian`]'s blocks: consistent
    /// with the residual everywhere (Exudyn's Jacobian is, for Euler parameters, ∂g/∂q only
    /// along tangents of |θ| = 1); the fast solver path's constraint rows.
    pub position_jacobian: BlocksFn,
    /// C_qᵀλ: [`Pairing::jacobian`] transposed times the rows' multipliers, per marker, without
    /// forming the Jacobian (a reverse sweep over the rows: about the cost of one evaluation).
    pub reaction_forces: ReactionFn,
    /// [`Pairing::position_residual`] and [`Pairing::reaction_forces`] in one call, their
    /// common subexpressions (the markers' rotation matrices) computed once: the pair a Newton
    /// iteration on the position level evaluates every time. Always `None` for a joint written
    /// at velocity level.
    pub position_residual_and_reaction_forces: ResidualReactionFn,
}

impl Pairing {
    /// [`Pairing::position_residual`] of a joint written at velocity level: it has no position
    /// level, so it always returns `None`.
    pub const NO_POSITION_RESIDUAL: ResidualFn = |_, _, _, _| None;
    /// [`Pairing::position_jacobian`] of a joint written at velocity level: always `None`.
    pub const NO_POSITION_JACOBIAN: BlocksFn = |_, _, _, _, _| None;
    /// [`Pairing::position_residual_and_reaction_forces`] of a joint written at velocity level:
    /// always `None`.
    pub const NO_POSITION_RESIDUAL_AND_REACTION_FORCES: ResidualReactionFn =
        |_, _, _, _, _, _, _| None;

    /// `revolute_z::rigid_ep_point_to_ground_point`
    pub fn path(&self) -> alloc::string::String {
        alloc::format!("{}::{}", self.joint, self.name)
    }
}
