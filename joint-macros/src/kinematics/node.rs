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
    let rot = parametrization(g, &q.coordinates[3..]);
    let omega_local = Parametrization::apply(g, &rot.g_local_columns, &q.velocities[3..]);
    let omega = Parametrization::apply(g, &rot.g_global_columns, &q.velocities[3..]);
    Kinematics {
        position: [q.coordinates[0], q.coordinates[1], q.coordinates[2]],
        velocity: [q.velocities[0], q.velocities[1], q.velocities[2]],
        rotation: Some(rot.rotation),
        angular_velocity: Some(omega),
        angular_velocity_local: Some(omega_local),
        coordinate: None,
        coordinates: q.coordinates,
        velocities: q.velocities,
    }
}
