//! Markers on nodes: the node's own position (and, for rigid nodes, its rotation).

use crate::symbolic::Graph;

use super::rotation::Parametrization;
use super::{Coordinates, Kinematics, ParametrizationFn};

/// NodePoint: p = x, v = ẋ.
pub fn point(_g: &mut Graph, q: Coordinates) -> Kinematics {
    Kinematics {
        position: [q.coordinates[0], q.coordinates[1], q.coordinates[2]],
        velocity: [q.velocities[0], q.velocities[1], q.velocities[2]],
        rotation: None,
        angular_velocity: None,
        angular_velocity_local: None,
        coordinate: None,
        coordinates: q.coordinates,
        velocities: q.velocities,
    }
}

/// NodePoint2D: p = [x, y, 0], v = [ẋ, ẏ, 0].
pub fn point_2d(g: &mut Graph, q: Coordinates) -> Kinematics {
    let zero = g.zero();
    Kinematics {
        position: [q.coordinates[0], q.coordinates[1], zero],
        velocity: [q.velocities[0], q.velocities[1], zero],
        rotation: None,
        angular_velocity: None,
        angular_velocity_local: None,
        coordinate: None,
        coordinates: q.coordinates,
        velocities: q.velocities,
    }
}

/// Coordinate of a node: c − c_ref and ċ (no position: zero).
pub fn coordinate(g: &mut Graph, q: Coordinates) -> Kinematics {
    let zero = g.zero();
    let value = g.sub(q.coordinates[0], q.parameters[0]);
    Kinematics {
        position: [zero; 3],
        velocity: [zero; 3],
        rotation: None,
        angular_velocity: None,
        angular_velocity_local: None,
        coordinate: Some((value, q.velocities[0])),
        coordinates: q.coordinates,
        velocities: q.velocities,
    }
}

/// Rigid node: p = x, v = ẋ, A(θ), ω = G·θ̇, ω̄ = Ḡ·θ̇.
pub fn rigid(g: &mut Graph, q: Coordinates, parametrization: ParametrizationFn) -> Kinematics {
    let position = [q.coordinates[0], q.coordinates[1], q.coordinates[2]];
    let velocity = [q.velocities[0], q.velocities[1], q.velocities[2]];
    rigid_with(g, q, position, velocity, 3, parametrization)
}

/// NodeRigidBody2D: p = [x, y, 0], v = [ẋ, ẏ, 0], A = Rz(ψ), ω = ω̄ = [0, 0, ψ̇].
pub fn rigid_2d(g: &mut Graph, q: Coordinates) -> Kinematics {
    let zero = g.zero();
    let position = [q.coordinates[0], q.coordinates[1], zero];
    let velocity = [q.velocities[0], q.velocities[1], zero];
    rigid_with(
        g,
        q,
        position,
        velocity,
        2,
        super::rotation::planar::parametrization,
    )
}

/// A rigid node whose rotation parameters follow its `translations` position coordinates.
fn rigid_with(
    g: &mut Graph,
    q: Coordinates,
    position: [crate::symbolic::Id; 3],
    velocity: [crate::symbolic::Id; 3],
    translations: usize,
    parametrization: ParametrizationFn,
) -> Kinematics {
    let rot = parametrization(g, &q.coordinates[translations..]);
    let omega_local =
        Parametrization::apply(g, &rot.g_local_columns, &q.velocities[translations..]);
    let omega = Parametrization::apply(g, &rot.g_global_columns, &q.velocities[translations..]);
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
