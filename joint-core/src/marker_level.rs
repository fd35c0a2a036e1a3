//! Joints at marker level: a joint's residual as a function of its two markers' quantities, and
//! everything a runtime needs to compose it with any marker's own kinematics.
//!
//! This is every joint's default form (`marker m0: Rigid;`): its code does not depend on the
//! marker kinds, so a definition costs the same to compile however many kinds exist. A runtime
//! evaluates the markers' quantities with their own kinematics and composes (marker i's
//! position Jacobian J_pos,i, rotation Jacobian J_rot,i = ∂ω_i/∂q̇, true derivatives ∂p_i/∂q and
//! ∂A_i/∂q):
//!
//! * the constraint Jacobian `C_q,i = ∂ṙ/∂v_i·J_pos,i + ∂ṙ/∂ω_i·J_rot,i` ([`MarkerLevelJacobian`]);
//! * the reaction forces `C_q,iᵀλ = J_pos,iᵀ·f_i + J_rot,iᵀ·τ_i` ([`MarkerLevelReaction`]);
//! * the position level's own Jacobian `∂g/∂q_i = ∂g/∂p_i·∂p_i/∂q + ∂g/∂A_i·∂A_i/∂q`
//!   ([`MarkerLevelPositionJacobian`]), which for Euler parameters off |θ| = 1 is not C_q;
//! * with `second_order;`, the convective term `(∂(C_q v)/∂q)·v` as the rate of the Jacobian
//!   rows ṙ along the markers' [`MarkerRates`] (`velocity_residual_rate`), and the geometric
//!   stiffness `∂(C_qᵀλ)/∂q = Σ_i ∂(J_pos,iᵀf_i)/∂q|f + ∂(J_rot,iᵀτ_i)/∂q|τ
//!   + Σ_ij [J_pos,iᵀ J_rot,iᵀ]·∂(f_i, τ_i)/∂(p_j, A_j)·[∂p_j/∂q; ∂A_j/∂q]`
//!   ([`MarkerLevelReactionQ`]).
//!
//! Here ṙ are the Jacobian rows (the velocity level with rotations turning by their global
//! angular velocity, Ȧ = skew(ω)·A: Exudyn's C), and A is the marker's rotation matrix, row-major.
//!
//! The velocity-level residual turns a frame by A·skew(Aᵀω): the quantities hold ω = A·ω̄ (what
//! Exudyn's markers report), not ω̄, so it is Exudyn's velocity level wherever A is orthonormal —
//! for Euler parameters on |θ| = 1, where a converged step is — and differs from an unrolled
//! pairing's off it.

/// What a joint sees of a marker, in the kernels' scalar (`f64` for a runtime; a force
/// element's typed kernels take any [`Scalar`](crate::Scalar)).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MarkerQuantities<S = f64> {
    /// Global position.
    pub position: [S; 3],
    /// Global velocity.
    pub velocity: [S; 3],
    /// Local to global, row-major (identity for markers without orientation).
    pub rotation: [[S; 3]; 3],
    /// Global angular velocity.
    pub angular_velocity: [S; 3],
}

/// How a marker's quantities change along its motion at zero coordinate accelerations (q̈ = 0):
/// what the convective term of a joint at marker level needs beside [`MarkerQuantities`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MarkerRates<S = f64> {
    /// ṗ = ∂p/∂q·q̇, the true derivative of the position (for Euler parameters off |θ| = 1 not
    /// the velocity, which is Exudyn's `ẋ + A(ω̄ × b)`).
    pub position: [S; 3],
    /// Ȧ = ∂A/∂q·q̇, row-major.
    pub rotation: [[S; 3]; 3],
    /// ∂v/∂q·q̇: the velocity's part of the acceleration, J̇_pos·q̇.
    pub velocity: [S; 3],
    /// ∂ω/∂q·q̇: the angular velocity's part of the angular acceleration, J̇_rot·q̇.
    pub angular_velocity: [S; 3],
}

/// ∂ṙ/∂v_i and ∂ṙ/∂ω_i for markers i = 0, 1: compose with any marker's Jacobians,
/// `C_q(marker i) = d_velocity[i]·J_pos,i + d_angular_velocity[i]·J_rot,i`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MarkerLevelJacobian<const ROWS: usize, S = f64> {
    /// ∂ṙ/∂v_i: per marker, ROWS × 3.
    pub d_velocity: [[[S; 3]; ROWS]; 2],
    /// ∂ṙ/∂ω_i: per marker, ROWS × 3.
    pub d_angular_velocity: [[[S; 3]; ROWS]; 2],
}

impl<const ROWS: usize> Default for MarkerLevelJacobian<ROWS, f64> {
    fn default() -> Self {
        Self {
            d_velocity: [[[0.0; 3]; ROWS]; 2],
            d_angular_velocity: [[[0.0; 3]; ROWS]; 2],
        }
    }
}

/// ∂g/∂p_i and ∂g/∂A_i of the position level g for markers i = 0, 1: compose with the markers'
/// true derivatives, `∂g/∂q_i = d_position[i]·∂p_i/∂q + d_rotation[i]·∂A_i/∂q`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MarkerLevelPositionJacobian<const ROWS: usize, S = f64> {
    /// ∂g/∂p_i: per marker, ROWS × 3.
    pub d_position: [[[S; 3]; ROWS]; 2],
    /// ∂g/∂A_i: per marker, ROWS × 9 (A row-major).
    pub d_rotation: [[[S; 9]; ROWS]; 2],
}

impl<const ROWS: usize> Default for MarkerLevelPositionJacobian<ROWS, f64> {
    fn default() -> Self {
        Self {
            d_position: [[[0.0; 3]; ROWS]; 2],
            d_rotation: [[[0.0; 9]; ROWS]; 2],
        }
    }
}

/// The rows' multipliers λ through the Jacobian, per marker: `force[i] = (∂ṙ/∂v_i)ᵀλ` acts at
/// marker i's point and `torque[i] = (∂ṙ/∂ω_i)ᵀλ` on its frame, both global, so that
/// `C_q,iᵀλ = J_pos,iᵀ·force[i] + J_rot,iᵀ·torque[i]`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MarkerLevelReaction<S = f64> {
    /// Per marker: the force at the marker point.
    pub force: [[S; 3]; 2],
    /// Per marker: the torque on the marker frame.
    pub torque: [[S; 3]; 2],
}

/// [`MarkerLevelReaction`] differentiated by the markers' positions and rotation matrices at
/// constant λ: `[i][j]` is marker i's force or torque by marker j's position (3 × 3, row-major
/// `[row][column]`) or rotation matrix (3 × 9, A row-major).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MarkerLevelReactionQ<S = f64> {
    /// ∂force_i/∂p_j.
    pub force_position: [[[[S; 3]; 3]; 2]; 2],
    /// ∂force_i/∂A_j.
    pub force_rotation: [[[[S; 9]; 3]; 2]; 2],
    /// ∂torque_i/∂p_j.
    pub torque_position: [[[[S; 3]; 3]; 2]; 2],
    /// ∂torque_i/∂A_j.
    pub torque_rotation: [[[[S; 9]; 3]; 2]; 2],
}

/// Values in a [`MarkerLevelReactionQ`] slice: per (i, j), 9 + 27 + 9 + 27.
pub const MARKER_LEVEL_REACTION_Q_LEN: usize = 4 * 72;

impl MarkerLevelReactionQ<f64> {
    /// The flat layout of the `_slices` kernels: for i = 0, 1, for j = 0, 1: force_position
    /// (9), force_rotation (27), torque_position (9), torque_rotation (27), each row-major.
    pub fn to_slice(&self, out: &mut [f64; MARKER_LEVEL_REACTION_Q_LEN]) {
        let mut k = 0;
        for i in 0..2 {
            for j in 0..2 {
                for part in [
                    self.force_position[i][j].as_flattened(),
                    self.force_rotation[i][j].as_flattened(),
                    self.torque_position[i][j].as_flattened(),
                    self.torque_rotation[i][j].as_flattened(),
                ] {
                    out[k..k + part.len()].copy_from_slice(part);
                    k += part.len();
                }
            }
        }
    }
}

/// A marker-level residual: `(joint parameters, m0, m1, rows out)`.
pub type MarkerLevelResidualFn =
    fn(&[f64], &MarkerQuantities, &MarkerQuantities, &mut [f64]) -> Option<()>;
/// The marker-level Jacobian into one slice of `4·ROWS·3` values: ∂ṙ/∂v_0, ∂ṙ/∂ω_0, ∂ṙ/∂v_1,
/// ∂ṙ/∂ω_1, each row-major `ROWS × 3`.
pub type MarkerLevelJacobianFn =
    fn(&[f64], &MarkerQuantities, &MarkerQuantities, &mut [f64]) -> Option<()>;
/// [`MarkerLevelPositionJacobian`] into one slice of `24·ROWS` values: ∂g/∂p_0 (ROWS × 3),
/// ∂g/∂A_0 (ROWS × 9), ∂g/∂p_1, ∂g/∂A_1, each row-major.
pub type MarkerLevelPositionJacobianFn =
    fn(&[f64], &MarkerQuantities, &MarkerQuantities, &mut [f64]) -> Option<()>;
/// [`MarkerLevelReaction`]: `(joint parameters, λ per row, m0, m1, out)`, `out` 12 values:
/// force_0, torque_0, force_1, torque_1.
pub type MarkerLevelReactionFn =
    fn(&[f64], &[f64], &MarkerQuantities, &MarkerQuantities, &mut [f64]) -> Option<()>;
/// The position-level residual and [`MarkerLevelReaction`] at the same quantities:
/// `(joint parameters, λ per row, m0, m1, rows out, reaction out (12))`.
pub type MarkerLevelResidualReactionFn =
    fn(&[f64], &[f64], &MarkerQuantities, &MarkerQuantities, &mut [f64], &mut [f64]) -> Option<()>;
/// The rate of the Jacobian rows along the markers' rates, (∂(C_q v)/∂q)·v composed:
/// `(joint parameters, m0, m1, rates 0, rates 1, rows out)`.
pub type MarkerLevelRateFn = fn(
    &[f64],
    &MarkerQuantities,
    &MarkerQuantities,
    &MarkerRates,
    &MarkerRates,
    &mut [f64],
) -> Option<()>;
/// [`MarkerLevelReactionQ`]: `(joint parameters, λ per row, m0, m1, out)`, `out`
/// [`MARKER_LEVEL_REACTION_Q_LEN`] values ([`MarkerLevelReactionQ::to_slice`]).
pub type MarkerLevelReactionQFn =
    fn(&[f64], &[f64], &MarkerQuantities, &MarkerQuantities, &mut [f64]) -> Option<()>;

/// A joint's marker-level second-order terms (`second_order;`).
#[derive(Clone, Copy, Debug)]
pub struct MarkerLevelSecondOrder {
    /// The Jacobian rows' rate along [`MarkerRates`]: (∂(C_q v)/∂q)·v once composed.
    pub velocity_residual_rate: MarkerLevelRateFn,
    /// ∂([`MarkerLevelReaction`])/∂(p, A): the geometric stiffness once composed.
    pub reaction_forces_q: MarkerLevelReactionQFn,
}

/// A joint's marker-level kernels.
#[derive(Clone, Copy, Debug)]
pub struct MarkerLevel {
    /// The position-level residual (`None` always for a joint written at velocity level).
    pub position_residual: MarkerLevelResidualFn,
    /// The velocity-level residual.
    pub velocity_residual: MarkerLevelResidualFn,
    /// The Jacobian rows' derivatives by the markers' velocities and angular velocities.
    pub jacobian: MarkerLevelJacobianFn,
    /// ∂g/∂p and ∂g/∂A of the position level (`None` always at velocity level).
    pub position_jacobian: MarkerLevelPositionJacobianFn,
    /// The multipliers through the Jacobian, per marker a force and a torque.
    pub reaction_forces: MarkerLevelReactionFn,
    /// [`MarkerLevel::position_residual`] and [`MarkerLevel::reaction_forces`] in one call
    /// (`None` always at velocity level).
    pub position_residual_and_reaction_forces: MarkerLevelResidualReactionFn,
    /// With `second_order;`.
    pub second_order: Option<MarkerLevelSecondOrder>,
}

impl MarkerLevel {
    /// [`MarkerLevel::position_residual`] of a joint written at velocity level: it has no
    /// position level, so it always returns `None`.
    pub const NO_POSITION_RESIDUAL: MarkerLevelResidualFn = |_, _, _, _| None;
    /// [`MarkerLevel::position_jacobian`] of a joint written at velocity level: always `None`.
    pub const NO_POSITION_JACOBIAN: MarkerLevelPositionJacobianFn = |_, _, _, _| None;
    /// [`MarkerLevel::position_residual_and_reaction_forces`] of a joint written at velocity
    /// level: always `None`.
    pub const NO_POSITION_RESIDUAL_AND_REACTION_FORCES: MarkerLevelResidualReactionFn =
        |_, _, _, _, _, _| None;
}
