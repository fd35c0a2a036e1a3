//! # joint-kernels
//!
//! The generated kernels the runtime is built on: every marker kind's kinematics and Exudyn's
//! joints and force elements, defined with the constraint compiler. Nothing in this crate is a
//! hand-written residual or Jacobian. `joint-runtime` re-exports it as `joint_runtime::kernels`.
//!
//! It is a crate of its own so that its large generated code compiles beside the runtime's other
//! dependencies rather than after them, and once: the runtime's unit tests, the workspace's tests
//! and its examples all link this one build. Its generated code is held to the strictest lints
//! (`deny(warnings)` applies to this workspace only: cargo caps a dependency's lints).
#![deny(warnings, unsafe_code)]
#![deny(clippy::all, clippy::pedantic)]
#![warn(missing_docs)]

// `marker_kinematics`: every marker kind's position, velocity, rotation, angular velocities and
// Jacobians, generated from the compiler's kinematics tables.
//
// Exudyn's joints below list the marker kinds their pairings are unrolled for: the kinds
// Exudyn's models give them (3D joints: ground, mass points, rigid bodies and their nodes; 2D
// joints: ground and the 2D kinds). Every other marker meets them through their marker-level
// kernels, composed with its own kinematics, as a user's joint in its default form does.
joint_macros::marker_kinematics!();

joint_core::joint! {
    /// Exudyn's `ObjectJointSpherical`: the two markers' positions coincide, per global axis
    /// (`constrainedAxes` frees axes at run time).
    pub joint Spherical {
        marker m0: Position(GroundPoint, MassPointBody, RigidEpPoint, RigidRxyzPoint, NodePoint, NodeEp, NodeRxyz);
        marker m1: Position(GroundPoint, MassPointBody, RigidEpPoint, RigidRxyzPoint, NodePoint, NodeEp, NodeRxyz);
        axes [x = 1, y = 1, z = 1];
        second_order;
        position = m1.position - m0.position;
    }
}

joint_core::joint! {
    /// Exudyn's `ObjectConnectorDistance`: the markers keep the distance `distance`. The derived
    /// velocity level is `e·Δv` with `e = Δp/|Δp|`, so the Jacobian (its derivative with respect
    /// to the marker velocities) is Exudyn's `eᵀ[−Jp0 | Jp1]`. λ > 0 is tension.
    pub joint Distance {
        marker m0: Position(GroundPoint, MassPointBody, RigidEpPoint, RigidRxyzPoint, NodePoint, NodeEp, NodeRxyz);
        marker m1: Position(GroundPoint, MassPointBody, RigidEpPoint, RigidRxyzPoint, NodePoint, NodeEp, NodeRxyz);
        param distance: scalar;
        axes [d = 1];
        second_order;
        position = [norm(m1.position - m0.position) - distance];
    }
}

joint_core::joint! {
    /// Axis `a` of joint frame `frame0` against axis `b` of `frame1`, `t_a0·t_b1`: zero while
    /// they are perpendicular. The rotation rows of Exudyn's rigid joints are all of this form.
    fn perpendicular(frame0, a, frame1, b) = dot(col(frame0, a), col(frame1, b));

    /// Exudyn's `ObjectJointRevoluteZ`: the markers' positions coincide (global rows) and the
    /// joint frames' axes stay perpendicular, `t_z0·t_x1 = t_z0·t_y1 = 0`, so that J1 turns about
    /// `t_z0` only. Joint frames are `A_Ji = A_i·rotationMarker_i`, `t_ki` their columns. The
    /// derived velocity level turns the columns as Exudyn does, `ṫ = A·(ω̄ × R e_k)`, so the
    /// Jacobian (its derivative with respect to the marker velocities) is Exudyn's.
    pub joint RevoluteZ {
        marker m0: Rigid(GroundPoint, RigidEpPoint, RigidRxyzPoint, NodeEp, NodeRxyz);
        marker m1: Rigid(GroundPoint, RigidEpPoint, RigidRxyzPoint, NodeEp, NodeRxyz);
        param rotation_marker0: matrix;
        param rotation_marker1: matrix;
        axes [x = 1, y = 1, z = 1, rx = 1, ry = 1];
        second_order;
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

    /// Exudyn's `ObjectJointPrismaticX`: J1 slides along `t_x0` without turning. Translation rows
    /// are local to J0 (`t_y0·Δp`, `t_z0·Δp`, whose derived velocity level includes the frame's
    /// turning `ṫ_k0·Δp`); rotation rows `t_z0·t_y1`, `t_z0·t_x1`, `t_x0·t_y1`, in Exudyn's order.
    pub joint PrismaticX {
        marker m0: Rigid(GroundPoint, RigidEpPoint, RigidRxyzPoint, NodeEp, NodeRxyz);
        marker m1: Rigid(GroundPoint, RigidEpPoint, RigidRxyzPoint, NodeEp, NodeRxyz);
        param rotation_marker0: matrix;
        param rotation_marker1: matrix;
        axes [y = 1, z = 1, rx = 1, ry = 1, rz = 1];
        second_order;
        let frame0 = m0.rotation * rotation_marker0;
        let frame1 = m1.rotation * rotation_marker1;
        let delta = m1.position - m0.position;
        position = [
            dot(col(frame0, 1), delta),
            dot(col(frame0, 2), delta),
            perpendicular(frame0, 2, frame1, 1),
            perpendicular(frame0, 2, frame1, 0),
            perpendicular(frame0, 0, frame1, 1)
        ];
    }

    /// `ObjectJointGeneric` with every axis locked: `GenericRows`' rows 0–2 and 6–8, the same
    /// expressions (so the same arithmetic), without the six rows that pattern does not use.
    /// The runtime evaluates such joints with it (and those free about z with `RevoluteZ`,
    /// whose rows are `GenericRows`' 0–2, 7 and 6).
    /// Unrolled for the bodies' markers only (8 pairings: a third of the build cost of all 24);
    /// the runtime keeps `GenericRows` where a marker sits on a node.
    pub joint GenericFixed {
        marker m0: Rigid(GroundPoint, RigidEpPoint, RigidRxyzPoint);
        marker m1: Rigid(GroundPoint, RigidEpPoint, RigidRxyzPoint);
        param rotation_marker0: matrix;
        param rotation_marker1: matrix;
        axes [x = 1, y = 1, z = 1, zy = 1, zx = 1, xy = 1];
        second_order;
        let frame0 = m0.rotation * rotation_marker0;
        let frame1 = m1.rotation * rotation_marker1;
        let delta = m1.position - m0.position;
        position = [
            delta[0],
            delta[1],
            delta[2],
            perpendicular(frame0, 2, frame1, 1),
            perpendicular(frame0, 2, frame1, 0),
            perpendicular(frame0, 0, frame1, 1)
        ];
    }

    /// The candidate rows of Exudyn's `ObjectJointGeneric`. Exudyn's 6 equations change their
    /// formula with `constrainedAxes` (global translation rows when all three translations are
    /// locked, else rows local to J0; the rotation rows pair different axes for 3, 2 or 1 locked
    /// rotations), so the joint is defined with every row any pattern uses and the runtime
    /// selects 6 of them once, at assemble (`joints::generic_joint_rows`):
    /// rows 0–2 `Δp_k`, rows 3–5 `t_k0·Δp`, rows 6–11 `t_a0·t_b1` for
    /// (a, b) = (z, y), (z, x), (x, y), (x, z), (y, x), (y, z).
    pub joint GenericRows {
        marker m0: Rigid(GroundPoint, RigidEpPoint, RigidRxyzPoint, NodeEp, NodeRxyz);
        marker m1: Rigid(GroundPoint, RigidEpPoint, RigidRxyzPoint, NodeEp, NodeRxyz);
        param rotation_marker0: matrix;
        param rotation_marker1: matrix;
        axes [x = 1, y = 1, z = 1, lx = 1, ly = 1, lz = 1, zy = 1, zx = 1, xy = 1, xz = 1, yx = 1, yz = 1];
        second_order;
        let frame0 = m0.rotation * rotation_marker0;
        let frame1 = m1.rotation * rotation_marker1;
        let delta = m1.position - m0.position;
        position = [
            delta[0],
            delta[1],
            delta[2],
            dot(col(frame0, 0), delta),
            dot(col(frame0, 1), delta),
            dot(col(frame0, 2), delta),
            perpendicular(frame0, 2, frame1, 1),
            perpendicular(frame0, 2, frame1, 0),
            perpendicular(frame0, 0, frame1, 1),
            perpendicular(frame0, 0, frame1, 2),
            perpendicular(frame0, 1, frame1, 0),
            perpendicular(frame0, 1, frame1, 2)
        ];
    }
}

joint_core::joint! {
    /// Exudyn's `ObjectJointRevolute2D`: the markers' positions coincide in the x–y plane,
    /// `Δp_x = Δp_y = 0` (z is left free: planar bodies have none).
    pub joint Revolute2D {
        marker m0: Position(GroundPoint, MassPoint2DBody, NodePoint2D, Rigid2DPoint, NodeRigid2D);
        marker m1: Position(GroundPoint, MassPoint2DBody, NodePoint2D, Rigid2DPoint, NodeRigid2D);
        axes [x = 1, y = 1];
        second_order;
        let delta = m1.position - m0.position;
        position = [delta[0], delta[1]];
    }

    /// Exudyn's `ObjectJointPrismatic2D`: marker 1 slides along marker 0's turned axis
    /// `t0 = A_0·axisMarker0`, `Δp·n1 = 0` with `n1 = A_1·normalMarker1`, and (row `r`, freed by
    /// `constrainRotation = false`) keeps its orientation, `t0·n1 = 0`. The derived velocity
    /// level turns the vectors as Exudyn does, `ṅ1 = A_1·(ω̄_1 × normalMarker1)`, so the Jacobian
    /// is Exudyn's.
    pub joint Prismatic2D {
        marker m0: Rigid(GroundPoint, Rigid2DPoint, NodeRigid2D);
        marker m1: Rigid(GroundPoint, Rigid2DPoint, NodeRigid2D);
        param axis_marker0: vector;
        param normal_marker1: vector;
        axes [n = 1, r = 1];
        second_order;
        let t0 = m0.rotation * axis_marker0;
        let n1 = m1.rotation * normal_marker1;
        let delta = m1.position - m0.position;
        position = [dot(delta, n1), dot(t0, n1)];
    }
}

joint_core::joint! {
    /// Exudyn's `ObjectConnectorCoordinate`: `factor1·q_m1 − q_m0 − offset = 0` on two coordinate
    /// markers' displacements (Exudyn's coordinate markers exclude the reference values; on a
    /// ground node the coordinate is 0). The derived velocity level is `factor1·q̇_m1 − q̇_m0`,
    /// its Jacobian Exudyn's `[−1 | factor1]`.
    pub joint CoordinateConstraint {
        marker m0: Coordinate(..);
        marker m1: Coordinate(..);
        param offset: scalar;
        param factor1: scalar;
        axes [c = 1];
        second_order;
        position = [factor1 * m1.coordinate - m0.coordinate - offset];
    }

    /// Exudyn's `ObjectConnectorCoordinate` with `velocityLevel = True`:
    /// `factor1·q̇_m1 − q̇_m0 − offset = 0`, written at velocity level (Exudyn keeps the offset
    /// there, unlike the index-2 form of the position-level constraint). Its Jacobian
    /// ∂g/∂q̇ = `[−1 | factor1]` enters Newton's matrix as γ'·C, in index 3 as in index 2.
    pub joint CoordinateVelocityConstraint {
        marker m0: Coordinate(..);
        marker m1: Coordinate(..);
        param offset: scalar;
        param factor1: scalar;
        axes [c = 1];
        velocity = [factor1 * m1.coordinate_velocity - m0.coordinate_velocity - offset];
    }
}

joint_core::joint! {
    /// A coordinate squared, applied to each coordinate of a vector.
    fn square(q) = q * q;

    /// Exudyn's `ObjectConnectorCoordinateVector` (without user functions): on two markers'
    /// whole coordinate vectors q0, q1 (`MarkerNodeCoordinates`, `MarkerObjectODE2Coordinates`:
    /// reference + displacement; none on a ground node),
    /// `X1·q1 + Y1·q1² − X0·q0 − Y0·q0² − offset = 0` with elementwise squares, as many rows as
    /// the largest matrix has; an empty matrix or offset is absent. Written in Exudyn's order of
    /// operations (marker 0's terms summed, negated, then marker 1's added), so that residual and
    /// Jacobian `[−X0 − 2·Y0·diag(q0) | X1 + 2·Y1·diag(q1)]` round as Exudyn's. The derived
    /// velocity level is C·q̇; Exudyn's index-2 form takes `Y·q̇²` there instead (the same for
    /// Y = 0).
    pub joint CoordinateVectorConstraint {
        marker m0: Coordinates;
        marker m1: Coordinates;
        param scaling_marker0: dmatrix;
        param scaling_marker1: dmatrix;
        param quadratic_term_marker0: dmatrix;
        param quadratic_term_marker1: dmatrix;
        param offset: dvector;
        second_order;
        position = -(scaling_marker0 * m0.coordinates
            + quadratic_term_marker0 * square(m0.coordinates))
            + scaling_marker1 * m1.coordinates
            + quadratic_term_marker1 * square(m1.coordinates)
            - offset;
    }

    /// Exudyn's `ObjectConnectorCoordinateVector` with `velocityLevel = True`:
    /// `X1·q̇1 + Y1·q̇1² − X0·q̇0 − Y0·q̇0² − offset = 0`, written at velocity level. Its Jacobian
    /// ∂g/∂q̇ is `X + 2·Y·diag(q̇)`; Exudyn's takes `diag(q)` there (the same for Y = 0).
    pub joint CoordinateVectorVelocityConstraint {
        marker m0: Coordinates;
        marker m1: Coordinates;
        param scaling_marker0: dmatrix;
        param scaling_marker1: dmatrix;
        param quadratic_term_marker0: dmatrix;
        param quadratic_term_marker1: dmatrix;
        param offset: dvector;
        velocity = -(scaling_marker0 * m0.coordinates_velocity
            + quadratic_term_marker0 * square(m0.coordinates_velocity))
            + scaling_marker1 * m1.coordinates_velocity
            + quadratic_term_marker1 * square(m1.coordinates_velocity)
            - offset;
    }
}

joint_core::joint! {
    /// d/dt of the unit vector `f/|f|`, given `ḟ`.
    fn unit_rate(f, f_t) = (f_t * norm(f) - f * (dot(f, f_t) / norm(f))) / (norm(f) * norm(f));

    /// Exudyn's `ObjectJointRollingDisc`: a disc (marker 1, whose origin is the disc's centre)
    /// rolls without slipping on the plane of marker 0 (normal `n0 = A_0·plane_normal`). The
    /// contact point is `C = p_1 + r·w3`, with the disc axis `w1 = A_1·disc_axis`, the rolling
    /// direction `forward = (w1 × n0)/|w1 × n0|` and `w3 = w1 × forward`. A non-holonomic
    /// joint: its rows exist only at velocity level, the velocity of the disc's material point
    /// at C relative to the plane's, `v_C1 − v_C0`, in the joint frame
    /// `[lateral = n0 × forward, forward, n0]`. The angular velocity is Exudyn's: `A·ω̄` in the
    /// residual, `G·θ̇` in the Jacobian.
    pub joint RollingDisc {
        marker m0: Rigid(GroundPoint, RigidEpPoint, RigidRxyzPoint, NodeEp, NodeRxyz);
        marker m1: Rigid(GroundPoint, RigidEpPoint, RigidRxyzPoint, NodeEp, NodeRxyz);
        param disc_radius: scalar;
        param disc_axis: vector;
        param plane_normal: vector;
        axes [lateral = 1, forward = 1, normal = 1];
        let n0 = m0.rotation * plane_normal;
        let w1 = m1.rotation * disc_axis;
        let across = cross(w1, n0);
        let forward = across / norm(across);
        let w3 = cross(w1, forward);
        let lateral = cross(n0, forward);
        let contact = m1.position + disc_radius * w3;
        let omega0 = m0.angular_velocity;
        let omega1 = m1.angular_velocity;
        let slip = m1.velocity + cross(omega1, disc_radius * w3)
            - (m0.velocity + cross(omega0, contact - m0.position));
        // for the output trail_velocity, Exudyn's v_1 + r·ẇ3 − (v_0 + ω_0 × C), its formula (ω_0 × C about the
        // global origin), with ẇ1 = ω_1 × w1 and ṅ0 = ω_0 × n0
        let w1_t = cross(omega1, w1);
        let across_t = cross(w1_t, n0) + cross(w1, cross(omega0, n0));
        let w3_t = cross(w1_t, forward) + cross(w1, unit_rate(across, across_t));
        velocity = [dot(slip, lateral), dot(slip, forward), dot(slip, n0)];
        output contact_position = contact;
        output trail_velocity = m1.velocity + disc_radius * w3_t
            - (m0.velocity + cross(omega0, contact));
        output lateral = lateral;
        output forward = forward;
        output normal = n0;
    }
}

joint_core::joint! {
    /// Exudyn's `ObjectConnectorSpringDamper`: along the line between the markers,
    /// `F = k(L − L₀) + d(Δv·e − v_off) + f₀` (tension positive) acts as `F·e` on marker 0 and
    /// `−F·e` on marker 1, `e = Δp/L`. (At L = 0 the direction is undefined; the runtime takes
    /// Exudyn's convention there: `runtime::physics::connectors`.)
    pub force SpringDamper {
        marker m0: Position;
        marker m1: Position;
        param reference_length: scalar;
        param stiffness: scalar;
        param damping: scalar;
        param force_offset: scalar;
        param velocity_offset: scalar;
        let delta = m1.position - m0.position;
        let length = norm(delta);
        let e = delta / length;
        let tension = stiffness * (length - reference_length)
            + damping * (dot(m1.velocity - m0.velocity, e) - velocity_offset)
            + force_offset;
        force = tension * e;
        /// The scalar force F, positive in tension.
        output tension = tension;
    }

    /// Exudyn's `ObjectConnectorCartesianSpringDamper`: per global axis,
    /// `f_i = k_i(Δp_i − offset_i) + d_i·Δv_i` on marker 0, `−f` on marker 1.
    pub force CartesianSpringDamper {
        marker m0: Position;
        marker m1: Position;
        param stiffness: vector;
        param damping: vector;
        param offset: vector;
        let d = m1.position - m0.position - offset;
        let dv = m1.velocity - m0.velocity;
        force = [
            stiffness[0] * d[0] + damping[0] * dv[0],
            stiffness[1] * d[1] + damping[1] * dv[1],
            stiffness[2] * d[2] + damping[2] * dv[2]
        ];
    }
}

joint_core::joint! {
    /// Exudyn's `ObjectConnectorCoordinateSpringDamper`: between two coordinates,
    /// `f = k(c₁ − c₀ − offset) + d(ċ₁ − ċ₀)` acts on marker 0's coordinate, `−f` on marker 1's.
    pub force CoordinateSpringDamper {
        marker m0: Coordinate;
        marker m1: Coordinate;
        param stiffness: scalar;
        param damping: scalar;
        param offset: scalar;
        force = stiffness * (m1.coordinate - m0.coordinate - offset)
            + damping * (m1.coordinate_velocity - m0.coordinate_velocity);
    }
}

joint_core::joint! {
    /// Exudyn's `ObjectConnectorLinearSpringDamper`: along marker 0's turned axis `a = A₀·axis`,
    /// with the displacement `u = a·Δp` and its rate `u̇ = a·Δv` (the axis' own turning not
    /// included, as Exudyn), `F = k(u − offset) + d(u̇ − v_off) + f₀` acts as `F·a` on marker 0
    /// and `−F·a` on marker 1, through their position Jacobians only (no torque on marker 0).
    pub force LinearSpringDamper {
        marker m0: Rigid;
        marker m1: Position;
        param stiffness: scalar;
        param damping: scalar;
        param axis: vector;
        param offset: scalar;
        param velocity_offset: scalar;
        param force_offset: scalar;
        let a = m0.rotation * axis;
        let u = dot(a, m1.position - m0.position);
        let u_t = dot(a, m1.velocity - m0.velocity);
        let tension = stiffness * (u - offset) + damping * (u_t - velocity_offset) + force_offset;
        force = tension * a;
        /// u, the displacement along the axis.
        output axial_displacement = u;
        /// u̇.
        output axial_velocity = u_t;
        /// F.
        output tension = tension;
    }
}

joint_core::joint! {
    /// Exudyn's `ObjectConnectorRigidBodySpringDamper` in its default formulation: between the
    /// joint frames `A_J0 = A₀·rotation_marker0` and `A_J1 = A₁·rotation_marker1`, the
    /// displacement `u_p = A_J0ᵀΔp` and the xyz Tait–Bryan angles `u_r` of `A_J0ᵀA_J1`
    /// (Exudyn's `RotationMatrix2RotXYZ`, with its fallback where `cos(u_r,y)` vanishes), their
    /// rates `v = A_J0ᵀΔv` and `w = A_J0ᵀΔω` (the frame's own turning not included, as Exudyn),
    /// and `[f; τ] = K([u_p; u_r] − offset) + D[v; w]` (K, D 6 × 6 in 3 × 3 blocks `_pp`, `_pr`,
    /// `_rp`, `_rr`) act as `A_J0·f` and `A_J0·τ` on marker 0 (their negatives on marker 1).
    /// Exudyn differentiates this formulation analytically; its Jacobian is this definition's,
    /// with the marker velocities held (`docs/research/connector_rigid_body_spring_damper.md`).
    pub force RigidBodySpringDamper {
        marker m0: Rigid;
        marker m1: Rigid;
        param stiffness_pp: matrix;
        param stiffness_pr: matrix;
        param stiffness_rp: matrix;
        param stiffness_rr: matrix;
        param damping_pp: matrix;
        param damping_pr: matrix;
        param damping_rp: matrix;
        param damping_rr: matrix;
        param offset_p: vector;
        param offset_r: vector;
        param rotation_marker0: matrix;
        param rotation_marker1: matrix;
        let frame0 = m0.rotation * rotation_marker0;
        let frame1 = m1.rotation * rotation_marker1;
        let relative = transpose(frame0) * frame1;
        let r00 = col(relative, 0)[0];
        let r01 = col(relative, 1)[0];
        let r02 = col(relative, 2)[0];
        let r10 = col(relative, 0)[1];
        let r11 = col(relative, 1)[1];
        let r12 = col(relative, 2)[1];
        let r22 = col(relative, 2)[2];
        let c = sqrt(r12 * r12 + r22 * r22);
        let u_p = transpose(frame0) * (m1.position - m0.position) - offset_p;
        let u_r = [
            if c > 1e-14 { atan2(-r12, r22) } else { 0.0 },
            atan2(r02, c),
            if c > 1e-14 { atan2(-r01, r00) } else { atan2(r10, r11) }
        ] - offset_r;
        let v = transpose(frame0) * (m1.velocity - m0.velocity);
        let w = transpose(frame0) * (m1.angular_velocity - m0.angular_velocity);
        force = frame0 * (stiffness_pp * u_p + stiffness_pr * u_r + damping_pp * v + damping_pr * w);
        torque = frame0 * (stiffness_rp * u_p + stiffness_rr * u_r + damping_rp * v + damping_rr * w);
    }
}

joint_core::joint! {
    /// Exudyn's `ObjectConnectorGravity`: Newton's attraction `factor/L²` (`factor` = G·m₀·m₁)
    /// along `Δp/L`; at or below `min_distance` > 0 regularized as `factor/(L² + (L − d)²)`;
    /// at L = 0 without regularization Exudyn's fallbacks (1/L² → 1 with an error message, the
    /// direction's 1/L → 1). Exudyn differentiates it numerically (so does the exact mode); the
    /// fast mode takes these derivatives.
    pub force Gravity {
        marker m0: Position;
        marker m1: Position;
        param factor: scalar;
        param min_distance: scalar;
        let delta = m1.position - m0.position;
        let length = norm(delta);
        let inverse_square = if length > min_distance {
            1.0 / (length * length)
        } else if min_distance > 0.0 {
            1.0 / (length * length + (length - min_distance) * (length - min_distance))
        } else {
            1.0
        };
        let inverse_length = if length > 0.0 { 1.0 / length } else { 1.0 };
        force = (factor * inverse_square) * (inverse_length * delta);
        /// The distance L.
        output length = length;
    }
}
