//! Joints and a force element defined with `joint!` in a `#![no_std]` crate, and their kernels
//! evaluated: the code `joint!` generates uses `core`, joint-core's `alloc` re-export and its
//! `Scalar` float functions only (`libm`'s where std is absent).
#![no_std]

joint_core::joint! {
    /// The markers keep the distance `distance` (a square root).
    pub joint Rod {
        marker m0: Position(NodePoint);
        marker m1: Position(NodePoint);
        param distance: scalar;
        axes [d = 1];
        position = [norm(m1.position - m0.position) - distance];
    }
}

joint_core::joint! {
    /// A screw along marker 0's z axis that remembers its turn (`atan2`, a state).
    pub joint Screw {
        marker m0: Rigid(NodeEp);
        marker m1: Rigid(NodeEp);
        param lead: scalar;
        axes [x, y, tilt_x, tilt_y, advance];
        let d = m1.position - m0.position;
        let x0 = col(m0.rotation, 0);
        let y0 = col(m0.rotation, 1);
        let z0 = col(m0.rotation, 2);
        let x1 = col(m1.rotation, 0);
        state turn = angle(dot(y0, x1), dot(x0, x1));
        position = [dot(x0, d), dot(y0, d), dot(z0, x1), dot(z0, col(m1.rotation, 1)),
                    dot(z0, d) - lead * turn];
    }
}

joint_core::joint! {
    /// A spring with a dead band: no force within `slack` of its rest length (a conditional).
    pub force SlackSpring {
        marker m0: Position;
        marker m1: Position;
        param stiffness: scalar;
        param rest: scalar;
        param slack: scalar;
        let delta = m1.position - m0.position;
        let length = norm(delta);
        let stretch = length - rest;
        let tension = if stretch > slack { stiffness * (stretch - slack) } else { 0.0 };
        force = tension * delta / length;
    }
}

/// Rod's residual between two points, through its unrolled pairing's typed kernel.
pub fn rod_residual(distance: f64, p0: [f64; 3], p1: [f64; 3]) -> f64 {
    rod::node_point_to_node_point::position_residual(&rod::Parameters { distance }, &p0, &p1)[0]
}

/// The slack spring's force on marker 0, through its type-erased kernel on a slice.
pub fn slack_spring_force(parameters: [f64; 3], p0: [f64; 3], p1: [f64; 3]) -> Option<[f64; 3]> {
    let quantities = |position| joint_core::MarkerQuantities {
        position,
        ..joint_core::MarkerQuantities::default()
    };
    let mut out = [0.0; 3];
    (slack_spring::DEFINITION.force)(&parameters, &quantities(p0), &quantities(p1), &mut out)?;
    Some(out)
}
