//! Points on ObjectMassPoint: Exudyn adds the local position to the node position and ignores it
//! for the velocity (a mass point does not rotate).

use crate::symbolic::Graph;
use crate::symbolic::vector;

use super::{Coordinates, Kinematics};

/// p = x + b, v = ẋ.
pub fn body_point(g: &mut Graph, q: Coordinates) -> Kinematics {
    let x = [q.coordinates[0], q.coordinates[1], q.coordinates[2]];
    let b = [q.parameters[0], q.parameters[1], q.parameters[2]];
    Kinematics {
        position: vector::add(g, x, b),
        velocity: [q.velocities[0], q.velocities[1], q.velocities[2]],
        rotation: None,
        angular_velocity: None,
        angular_velocity_local: None,
        coordinate: None,
        coordinates: q.coordinates,
        velocities: q.velocities,
    }
}

/// ObjectMassPoint2D: p = [x, y, 0] + b, v = [ẋ, ẏ, 0].
pub fn body_point_2d(g: &mut Graph, q: Coordinates) -> Kinematics {
    let zero = g.zero();
    let x = [q.coordinates[0], q.coordinates[1], zero];
    let b = [q.parameters[0], q.parameters[1], q.parameters[2]];
    Kinematics {
        position: vector::add(g, x, b),
        velocity: [q.velocities[0], q.velocities[1], zero],
        rotation: None,
        angular_velocity: None,
        angular_velocity_local: None,
        coordinate: None,
        coordinates: q.coordinates,
        velocities: q.velocities,
    }
}
