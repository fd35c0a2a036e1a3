//! Marker-level kinematics: a marker seen only through its quantities — position p, velocity v,
//! rotation R and global angular velocity ω as free variables (ω̄ = Rᵀω).
//!
//! Joint kernels built on it give the residual as a function of marker quantities and its
//! derivatives by them (∂ṙ/∂v and ∂ṙ/∂ω, ∂g/∂p and ∂g/∂A, and their second-order terms). A
//! runtime composes those with any marker's own kinematics — C_q = ∂ṙ/∂v·J_pos + ∂ṙ/∂ω·J_rot —
//! which is every joint's default form, independent of the marker kinds, and how markers whose
//! Jacobians have run-time size (superelements, kinematic trees) meet the same joints.

use crate::symbolic::vector::{self, Mat3};
use crate::symbolic::{Graph, Id};

use super::Kinematics;

/// Names of the quantities, in argument order (`position`, `velocity`, `rotation` row-major,
/// `angular_velocity`).
pub const POSITION: [&str; 3] = ["p0", "p1", "p2"];
pub const VELOCITY: [&str; 3] = ["v0", "v1", "v2"];
pub const ROTATION: [&str; 9] = [
    "r00", "r01", "r02", "r10", "r11", "r12", "r20", "r21", "r22",
];
pub const ANGULAR_VELOCITY: [&str; 3] = ["w0", "w1", "w2"];

/// Free marker quantities named `{prefix}{name}`. The "coordinates" are empty; the
/// "velocities" are v and ω, so that ∂r/∂(velocities) is the marker-level Jacobian.
pub fn free(g: &mut Graph, prefix: &str) -> Kinematics {
    let var = |g: &mut Graph, n: &str| g.var(&format!("{prefix}{n}"));
    let position = POSITION.map(|n| var(g, n));
    let velocity = VELOCITY.map(|n| var(g, n));
    let r = ROTATION.map(|n| var(g, n));
    let rotation: Mat3 = [[r[0], r[1], r[2]], [r[3], r[4], r[5]], [r[6], r[7], r[8]]];
    let omega = ANGULAR_VELOCITY.map(|n| var(g, n));
    let omega_local = vector::mat_vec(g, &vector::transpose(&rotation), omega);
    let mut velocities = velocity.to_vec();
    velocities.extend_from_slice(&omega);
    Kinematics {
        position,
        velocity,
        rotation: Some(rotation),
        angular_velocity: Some(omega),
        angular_velocity_local: Some(omega_local),
        // Marker-level kernels serve markers without a kind, and every coordinate marker has
        // one; a coordinate quantity is carried in p0 and v0 so that a coordinate joint still
        // lowers (and reports its errors) here.
        coordinate: Some((position[0], velocity[0])),
        coordinates: Vec::new(),
        velocities,
    }
}

/// A marker's rates along its motion at zero coordinate accelerations
/// (`joint_core::MarkerRates`), as free variables `{prefix}d{name}`: ṗ, Ȧ, ∂v/∂q·q̇, ∂ω/∂q·q̇.
pub struct Rates {
    pub position: [Id; 3],
    pub rotation: [Id; 9],
    pub velocity: [Id; 3],
    pub angular_velocity: [Id; 3],
}

/// The rate variables of marker `prefix`.
pub fn rates(g: &mut Graph, prefix: &str) -> Rates {
    let mut var = |n: &str| g.var(&format!("{prefix}d{n}"));
    Rates {
        position: POSITION.map(&mut var),
        rotation: ROTATION.map(&mut var),
        velocity: VELOCITY.map(&mut var),
        angular_velocity: ANGULAR_VELOCITY.map(&mut var),
    }
}
