//! Points on ObjectRigidBody: p = x + A·b and v = ẋ + A·(ω̄ × b), with ω̄ = Ḡ·θ̇.
//!
//! Writing the velocity through ω̄ (rather than differentiating A·b) is what makes
//! ∂v/∂θ̇ = −A·skew(b)·Ḡ, Exudyn's position Jacobian for rigid bodies.

use crate::symbolic::Graph;
use crate::symbolic::vector;

use super::rotation::Parametrization;
use super::{Coordinates, Kinematics, ParametrizationFn};

pub fn point(g: &mut Graph, q: Coordinates, parametrization: ParametrizationFn) -> Kinematics {
    let x = [q.coordinates[0], q.coordinates[1], q.coordinates[2]];
    let x_t = [q.velocities[0], q.velocities[1], q.velocities[2]];
    let b = [q.parameters[0], q.parameters[1], q.parameters[2]];
    let rot = parametrization(g, &q.coordinates[3..]);
    let omega_local = Parametrization::apply(g, &rot.g_local_columns, &q.velocities[3..]);
    let omega = Parametrization::apply(g, &rot.g_global_columns, &q.velocities[3..]);
    let ab = vector::mat_vec(g, &rot.rotation, b);
    let position = vector::add(g, x, ab);
    let wxb = vector::cross(g, omega_local, b);
    let awxb = vector::mat_vec(g, &rot.rotation, wxb);
    let velocity = vector::add(g, x_t, awxb);
    Kinematics {
        position,
        velocity,
        rotation: Some(rot.rotation),
        angular_velocity: Some(omega),
        angular_velocity_local: Some(omega_local),
        coordinate: None,
        coordinates: q.coordinates,
        velocities: q.velocities,
    }
}
