//! The generated kernels embedded elsewhere, one section per target, each a runnable example
//! (`cargo test --manifest-path embedding/Cargo.toml` runs them; joint-core's features
//! `num-dual` and `wide` are on in this crate). Every typed kernel `joint!` generates is generic
//! over [`joint_core::Scalar`]; `f64` is what the runtime calls.
//!
//! # `f32`, for engines in single precision
//!
//! ```
//! use joint_embedding::spherical::rigid_ep_point_to_rigid_ep_point as ep_ep;
//! // markers' local points, then each body's x, y, z and Euler parameters
//! let (b0, b1) = ([0.5f32, 0.0, 0.0], [-0.5f32, 0.0, 0.0]);
//! let q0 = [0.0f32, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0];
//! let q1 = [1.0f32, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0];
//! let (residual, (c0, c1)) = ep_ep::position_residual_and_jacobian(&b0, &q0, &b1, &q1);
//! assert_eq!(residual, [0.0f32; 3]); // the two points coincide
//! assert_eq!((c0[0][0], c1[0][0]), (-1.0, 1.0));
//! ```
//!
//! # Dual numbers: derivatives by any input
//!
//! `num_dual::Dual64` seeded on one input gives the kernel's derivative by it; here by the
//! twist limit's parameter, beside the compiler's own `parameter_jacobian`
//! (`parameter_derivatives;` in the definition below):
//!
//! ```
//! use joint_embedding::twist_limit::{self, rigid_ep_point_to_rigid_ep_point as ep_ep};
//! use num_dual::{Dual64, DualNum};
//! let (b, q0) = ([0.0; 3], [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0]);
//! // body 1 turned by 1 rad about z: Euler parameters (cos ½, 0, 0, sin ½)
//! let q1 = [0.0, 0.0, 0.0, 0.5f64.cos(), 0.0, 0.0, 0.5f64.sin()];
//! let joint = twist_limit::Parameters { limit: 0.25 };
//! let mut dual = joint.map(Dual64::from);
//! dual.limit = dual.limit.derivative(); // seed ∂/∂limit
//! let c = |v: [f64; 7]| v.map(Dual64::from);
//! let g = ep_ep::position_residual(&dual, &b.map(Dual64::from), &c(q0), &b.map(Dual64::from), &c(q1));
//! assert!((g[0].re - 0.75).abs() < 1e-12); // the twist exceeds the limit by 0.75 rad
//! assert_eq!(g[0].eps, -1.0);
//! assert_eq!(ep_ep::parameter_jacobian(&joint, &b, &q0, &b, &q1), [[-1.0]]);
//! ```
//!
//! # SIMD lanes: several joints per call
//!
//! `wide::f64x4` (and `f32x8`): lane k of every argument is joint k's, and so is lane k of the
//! result, equal to the scalar kernel's to the bit; a conditional evaluates both branches and
//! blends them. `benches/batch.rs` times it (3.6× the scalar throughput with AVX2), and
//! `benches/joint_loop.rs` the runtime's joint loop with the gather into lanes and the scatter
//! out of them included (docs/performance.md).
//!
//! ```
//! use joint_embedding::spherical::rigid_ep_point_to_rigid_ep_point as ep_ep;
//! use wide::f64x4;
//! let b = [f64x4::splat(0.0); 3];
//! let body = |x: [f64; 4]| {
//!     let c = f64x4::splat;
//!     [f64x4::new(x), c(0.0), c(0.0), c(1.0), c(0.0), c(0.0), c(0.0)]
//! };
//! // four joints: body 1 at x = 0, 1, 2, 3 from body 0
//! let g = ep_ep::position_residual(&b, &body([0.0; 4]), &b, &body([0.0, 1.0, 2.0, 3.0]));
//! assert_eq!(g[0].to_array(), [0.0, 1.0, 2.0, 3.0]);
//! ```
//!
//! # no_std
//!
//! joint-core without its default feature `std` takes the float functions from `libm`, and
//! the code `joint!` generates names `core`, joint-core's `alloc` re-export and `Scalar` only:
//! the workspace crate `tests/no_std_joint` (`#![no_std]`) defines joints and a force element
//! and evaluates them; CI builds it alone (`cargo test --release -p joint-no-std`).
//!
//! # Inside another engine
//!
//! `avian/` drives Avian's XPBD solver (avian3d 0.8) with `joint!` joints, residuals and
//! gradients from the marker-level kernels in `f32`, tested headless against Avian's own joint
//! and an analytic pendulum (`avian/README.md`).
//!
//! # The joints

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
    /// A screw along marker 0's z axis that remembers its turn: `angle(y, x)` is the angle
    /// within π of the state's last value (`atan2` plus a `round`ed number of turns), so the
    /// advance row `dot(z0, d) − lead·turn` stays continuous over any number of turns — a
    /// joint with a state, in every scalar.
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
