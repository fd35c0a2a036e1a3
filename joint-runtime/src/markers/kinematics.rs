//! The question every marker model answers: its kinematics at a state ([`MarkerKinematics`]),
//! where it is evaluated ([`MarkerAt`]).

use nalgebra::{Matrix3, Vector3};

use joint_core::MarkerQuantities;

/// Where a marker is evaluated: the system's total coordinates `qt` and velocities `v` (global
/// ODE2 vectors) and the global columns of the marker's Jacobians.
#[derive(Clone, Copy, Debug)]
pub struct MarkerAt<'a> {
    /// Total coordinates (reference + displacement), global.
    pub qt: &'a [f64],
    /// Velocities, global.
    pub v: &'a [f64],
    /// Global ODE2 index of each Jacobian column.
    pub columns: &'a [usize],
}

/// The kinematics of one marker model at a state. Jacobians are row-major 3 × columns over the
/// marker's own columns.
pub trait MarkerKinematics {
    /// Global position of the marker point.
    fn position(&self, at: MarkerAt) -> Vector3<f64>;
    /// Global velocity of the marker point.
    fn velocity(&self, at: MarkerAt) -> Vector3<f64>;
    /// Rotation matrix of the marker frame; identity for markers without orientation.
    fn rotation(&self, at: MarkerAt) -> Matrix3<f64>;
    /// Global angular velocity ω (zero without orientation).
    fn angular_velocity(&self, at: MarkerAt) -> Vector3<f64>;
    /// Angular velocity in the marker frame, `Rᵀω`.
    fn angular_velocity_local(&self, at: MarkerAt) -> Vector3<f64>;
    /// Position Jacobian J_pos = ∂v/∂q̇ into `out` (for Euler parameters off |θ| = 1 not ∂p/∂q,
    /// which `MarkerState::position_q` gives).
    fn position_jacobian(&self, at: MarkerAt, out: &mut [f64]);
    /// Rotation Jacobian ∂ω/∂q̇ into `out`.
    fn rotation_jacobian(&self, at: MarkerAt, out: &mut [f64]);
    /// ∂(J_posᵀ f)/∂q (columns × columns) into `out`.
    fn position_jacobian_t_times_vector_q(&self, at: MarkerAt, f: &[f64; 3], out: &mut [f64]);

    /// What the marker-level joint kernels see.
    fn quantities(&self, at: MarkerAt) -> MarkerQuantities {
        quantities(
            self.position(at),
            self.velocity(at),
            self.rotation(at),
            self.angular_velocity(at),
        )
    }
}

pub(crate) fn quantities(
    p: Vector3<f64>,
    v: Vector3<f64>,
    r: Matrix3<f64>,
    w: Vector3<f64>,
) -> MarkerQuantities {
    MarkerQuantities {
        position: [p[0], p[1], p[2]],
        velocity: [v[0], v[1], v[2]],
        rotation: [
            [r[(0, 0)], r[(0, 1)], r[(0, 2)]],
            [r[(1, 0)], r[(1, 1)], r[(1, 2)]],
            [r[(2, 0)], r[(2, 1)], r[(2, 2)]],
        ],
        angular_velocity: [w[0], w[1], w[2]],
    }
}
