//! Points on ObjectGround: fixed in space, no coordinates, so no Jacobian block.

use crate::symbolic::Graph;
use crate::symbolic::vector::{self, Mat3};

use super::{Coordinates, Kinematics};

/// p (the ground point p_g + R_g·b: a constant, which a runtime forms once, not every kernel
/// at every call), v = 0, A = R_g, ω = 0.
pub fn point(g: &mut Graph, q: Coordinates) -> Kinematics {
    let p = &q.parameters;
    let position = [p[0], p[1], p[2]];
    let rg: Mat3 = [[p[3], p[4], p[5]], [p[6], p[7], p[8]], [p[9], p[10], p[11]]];
    let zero = vector::zero_vec(g);
    Kinematics {
        position,
        velocity: zero,
        rotation: Some(rg),
        angular_velocity: Some(zero),
        angular_velocity_local: Some(zero),
        coordinate: None,
        coordinates: q.coordinates,
        velocities: q.velocities,
    }
}

/// A ground node's coordinate: always 0, no coordinates.
pub fn coordinate(g: &mut Graph, q: Coordinates) -> Kinematics {
    let zero = g.zero();
    Kinematics {
        position: [zero; 3],
        velocity: [zero; 3],
        rotation: None,
        angular_velocity: None,
        angular_velocity_local: None,
        coordinate: Some((zero, zero)),
        coordinates: q.coordinates,
        velocities: q.velocities,
    }
}
