//! Joints defined with `joint!` whose unrolled pairings the tests and the benchmark of this
//! crate instantiate with other scalars than `f64`: `f32`, `num_dual::Dual64` and the SIMD
//! lanes `wide::f64x4`, `wide::f32x8` (joint-core's features `num-dual` and `wide`).

joint_core::joint! {
    /// Exudyn's `ObjectJointSpherical` between two rigid bodies with Euler parameters: the
    /// markers' positions coincide.
    pub joint Spherical {
        marker m0: Position(RigidEpPoint, NodeEp);
        marker m1: Position(RigidEpPoint, NodeEp);
        axes [x = 1, y = 1, z = 1];
        position = m1.position - m0.position;
    }
}

joint_core::joint! {
    fn perpendicular(frame0, a, frame1, b) = dot(col(frame0, a), col(frame1, b));

    /// Exudyn's `ObjectJointRevoluteZ` as the runtime's joint-kernels define it, between two
    /// Euler-parameter bodies only: the joint of perf3DRigidBodies, whose loop over 400 of them
    /// `benches/joint_loop.rs` times with one joint per call and with four.
    pub joint RevoluteZ {
        marker m0: Rigid(RigidEpPoint);
        marker m1: Rigid(RigidEpPoint);
        param rotation_marker0: matrix;
        param rotation_marker1: matrix;
        axes [x = 1, y = 1, z = 1, rx = 1, ry = 1];
        let frame0 = m0.rotation * rotation_marker0;
        let frame1 = m1.rotation * rotation_marker1;
        let delta = m1.position - m0.position;
        position = [
            delta[0],
            delta[1],
            delta[2],
            perpendicular(frame0, 2, frame1, 0),
            perpendicular(frame0, 2, frame1, 1)
        ];
    }
}

joint_core::joint! {
    /// A twist limit: how far the twist about marker 0's z axis (the angle of marker 1's x axis
    /// in marker 0's x–y plane) exceeds `limit`, zero below it — a conditional and an `atan2`,
    /// which lanes evaluate as a blend of both branches.
    pub joint TwistLimit {
        marker m0: Rigid(RigidEpPoint, NodeEp);
        marker m1: Rigid(RigidEpPoint, NodeEp);
        param limit: scalar;
        axes [excess = 1];
        parameter_derivatives;
        let x0 = col(m0.rotation, 0);
        let y0 = col(m0.rotation, 1);
        let x1 = col(m1.rotation, 0);
        let twist = atan2(dot(y0, x1), dot(x0, x1));
        position = [if twist > limit { twist - limit } else { 0.0 * twist }];
    }
}

joint_core::joint! {
    /// m1's point seen from m0's point through a `frame`, held at `scale²·offset` times the
    /// distance: nonlinear in every parameter and in the markers' own (the body-fixed points, a
    /// ground point's position and frame), so that each column of ∂g/∂p is a function of the
    /// others — the test joint of `parameter_derivatives`.
    pub joint Placed {
        marker m0: Position(GroundPoint, RigidEpPoint);
        marker m1: Position(RigidEpPoint);
        param offset: vector;
        param scale: scalar;
        param frame: matrix;
        axes [x, y, z];
        parameter_derivatives;
        let d = m1.position - m0.position;
        position = frame * d - (scale * scale * norm(d)) * offset;
    }
}

joint_core::joint! {
    /// A spring-damper along the markers' line: its force's typed kernels take any scalar too.
    pub force LineSpring {
        marker m0: Position;
        marker m1: Position;
        param stiffness: scalar;
        param damping: scalar;
        param rest_length: scalar;
        let delta = m1.position - m0.position;
        let length = norm(delta);
        let e = delta / length;
        force = (stiffness * (length - rest_length) + damping * dot(e, m1.velocity - m0.velocity)) * e;
    }
}
