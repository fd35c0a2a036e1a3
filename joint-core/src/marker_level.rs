//! Joints at marker level: residuals as functions of the two markers' quantities, for markers
//! whose kinematics have no generated kind (superelements, kinematic trees, or a runtime's own).

/// What a joint sees of a marker.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MarkerQuantities {
    /// Global position.
    pub position: [f64; 3],
    /// Global velocity.
    pub velocity: [f64; 3],
    /// Local to global, row-major (identity for markers without orientation).
    pub rotation: [[f64; 3]; 3],
    /// Global angular velocity.
    pub angular_velocity: [f64; 3],
}

/// ∂r/∂v_i and ∂r/∂ω_i for markers i = 0, 1: compose with any marker's Jacobians,
/// `C_q(marker i) = d_velocity[i]·J_pos,i + d_angular_velocity[i]·J_rot,i`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MarkerLevelJacobian<const ROWS: usize> {
    /// ∂r/∂v_i: per marker, ROWS × 3.
    pub d_velocity: [[[f64; 3]; ROWS]; 2],
    /// ∂r/∂ω_i: per marker, ROWS × 3.
    pub d_angular_velocity: [[[f64; 3]; ROWS]; 2],
}

impl<const ROWS: usize> Default for MarkerLevelJacobian<ROWS> {
    fn default() -> Self {
        Self {
            d_velocity: [[[0.0; 3]; ROWS]; 2],
            d_angular_velocity: [[[0.0; 3]; ROWS]; 2],
        }
    }
}

/// A marker-level residual: `(joint parameters, m0, m1, rows out)`.
pub type MarkerLevelResidualFn =
    fn(&[f64], &MarkerQuantities, &MarkerQuantities, &mut [f64]) -> Option<()>;
/// The marker-level Jacobian into one slice of `4·ROWS·3` values: ∂r/∂v_0, ∂r/∂ω_0, ∂r/∂v_1,
/// ∂r/∂ω_1, each row-major `ROWS × 3`.
pub type MarkerLevelJacobianFn =
    fn(&[f64], &MarkerQuantities, &MarkerQuantities, &mut [f64]) -> Option<()>;

/// A joint's marker-level kernels.
#[derive(Clone, Copy, Debug)]
pub struct MarkerLevel {
    /// The position-level residual (`None` always for a joint written at velocity level).
    pub position_residual: MarkerLevelResidualFn,
    /// The velocity-level residual.
    pub velocity_residual: MarkerLevelResidualFn,
    /// The Jacobian with respect to the markers' velocities and angular velocities.
    pub jacobian: MarkerLevelJacobianFn,
}

impl MarkerLevel {
    /// [`MarkerLevel::position_residual`] of a joint written at velocity level: it has no
    /// position level, so it always returns `None`.
    pub const NO_POSITION_RESIDUAL: MarkerLevelResidualFn = |_, _, _, _| None;
}
