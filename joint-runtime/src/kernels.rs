//! The generated kernels: marker kinematics of every kind, and the joints defined with the
//! constraint compiler. Nothing in this file is a hand-written residual or Jacobian.

joint_macros::marker_kinematics!();

joint_macros::joint! {
    /// Exudyn's `ObjectJointSpherical`: the two markers' positions coincide, per global axis
    /// (`constrainedAxes` frees axes at run time).
    pub joint Spherical {
        marker m0: Position;
        marker m1: Position;
        axes [x = 1, y = 1, z = 1];
        position = m1.position - m0.position;
        velocity = m1.velocity - m0.velocity;
    }
}

joint_macros::joint! {
    /// Exudyn's `ObjectConnectorDistance`: the markers keep the distance `distance`. The velocity
    /// level is `e·Δv` with `e = Δp/|Δp|`, so the Jacobian (its derivative with respect to the
    /// marker velocities) is Exudyn's `eᵀ[−Jp0 | Jp1]`. λ > 0 is tension.
    pub joint Distance {
        marker m0: Position;
        marker m1: Position;
        param distance: scalar;
        axes [d = 1];
        position = [norm(m1.position - m0.position) - distance];
        velocity = [dot(m1.position - m0.position, m1.velocity - m0.velocity)
            / norm(m1.position - m0.position)];
    }
}

joint_macros::joint! {
    /// Exudyn's `ObjectJointRevoluteZ`: the markers' positions coincide (global rows) and the
    /// joint frames' axes stay perpendicular, `t_z0·t_x1 = t_z0·t_y1 = 0`, so that J1 turns about
    /// `t_z0` only. Joint frames are `A_Ji = A_i·rotationMarker_i`, `t_ki` their columns; the
    /// velocity level differentiates the columns as Exudyn does, `ṫ = A·(ω̄ × R e_k)`, so the
    /// Jacobian (its derivative with respect to the marker velocities) is Exudyn's.
    pub joint RevoluteZ {
        marker m0: Rigid;
        marker m1: Rigid;
        param rotation_marker0: matrix;
        param rotation_marker1: matrix;
        axes [x = 1, y = 1, z = 1, rx = 1, ry = 1];
        position = [
            (m1.position - m0.position)[0],
            (m1.position - m0.position)[1],
            (m1.position - m0.position)[2],
            dot(transpose(m0.rotation * rotation_marker0)[2], transpose(m1.rotation * rotation_marker1)[0]),
            dot(transpose(m0.rotation * rotation_marker0)[2], transpose(m1.rotation * rotation_marker1)[1])
        ];
        velocity = [
            (m1.velocity - m0.velocity)[0],
            (m1.velocity - m0.velocity)[1],
            (m1.velocity - m0.velocity)[2],
            dot(m0.rotation * cross(m0.angular_velocity_local, transpose(rotation_marker0)[2]), transpose(m1.rotation * rotation_marker1)[0])
            + dot(transpose(m0.rotation * rotation_marker0)[2], m1.rotation * cross(m1.angular_velocity_local, transpose(rotation_marker1)[0])),
            dot(m0.rotation * cross(m0.angular_velocity_local, transpose(rotation_marker0)[2]), transpose(m1.rotation * rotation_marker1)[1])
            + dot(transpose(m0.rotation * rotation_marker0)[2], m1.rotation * cross(m1.angular_velocity_local, transpose(rotation_marker1)[1]))
        ];
    }
}

joint_macros::joint! {
    /// Exudyn's `ObjectJointPrismaticX`: J1 slides along `t_x0` without turning. Translation rows
    /// are local to J0 (`t_y0·Δp`, `t_z0·Δp`, their velocity level with the frame's turning
    /// `ṫ_k0·Δp`); rotation rows `t_z0·t_y1`, `t_z0·t_x1`, `t_x0·t_y1`, in Exudyn's order.
    pub joint PrismaticX {
        marker m0: Rigid;
        marker m1: Rigid;
        param rotation_marker0: matrix;
        param rotation_marker1: matrix;
        axes [y = 1, z = 1, rx = 1, ry = 1, rz = 1];
        position = [
            dot(transpose(m0.rotation * rotation_marker0)[1], m1.position - m0.position),
            dot(transpose(m0.rotation * rotation_marker0)[2], m1.position - m0.position),
            dot(transpose(m0.rotation * rotation_marker0)[2], transpose(m1.rotation * rotation_marker1)[1]),
            dot(transpose(m0.rotation * rotation_marker0)[2], transpose(m1.rotation * rotation_marker1)[0]),
            dot(transpose(m0.rotation * rotation_marker0)[0], transpose(m1.rotation * rotation_marker1)[1])
        ];
        velocity = [
            dot(transpose(m0.rotation * rotation_marker0)[1], m1.velocity - m0.velocity)
            + dot(m0.rotation * cross(m0.angular_velocity_local, transpose(rotation_marker0)[1]), m1.position - m0.position),
            dot(transpose(m0.rotation * rotation_marker0)[2], m1.velocity - m0.velocity)
            + dot(m0.rotation * cross(m0.angular_velocity_local, transpose(rotation_marker0)[2]), m1.position - m0.position),
            dot(m0.rotation * cross(m0.angular_velocity_local, transpose(rotation_marker0)[2]), transpose(m1.rotation * rotation_marker1)[1])
            + dot(transpose(m0.rotation * rotation_marker0)[2], m1.rotation * cross(m1.angular_velocity_local, transpose(rotation_marker1)[1])),
            dot(m0.rotation * cross(m0.angular_velocity_local, transpose(rotation_marker0)[2]), transpose(m1.rotation * rotation_marker1)[0])
            + dot(transpose(m0.rotation * rotation_marker0)[2], m1.rotation * cross(m1.angular_velocity_local, transpose(rotation_marker1)[0])),
            dot(m0.rotation * cross(m0.angular_velocity_local, transpose(rotation_marker0)[0]), transpose(m1.rotation * rotation_marker1)[1])
            + dot(transpose(m0.rotation * rotation_marker0)[0], m1.rotation * cross(m1.angular_velocity_local, transpose(rotation_marker1)[1]))
        ];
    }
}

joint_macros::joint! {
    /// The candidate rows of Exudyn's `ObjectJointGeneric`. Exudyn's 6 equations change their
    /// formula with `constrainedAxes` (global translation rows when all three translations are
    /// locked, else rows local to J0; the rotation rows pair different axes for 3, 2 or 1 locked
    /// rotations), so the joint is defined with every row any pattern uses and the runtime
    /// selects 6 of them once, at assemble (`assemble::generic_joint_rows`):
    /// rows 0–2 `Δp_k`, rows 3–5 `t_k0·Δp`, rows 6–11 `t_a0·t_b1` for
    /// (a, b) = (z, y), (z, x), (x, y), (x, z), (y, x), (y, z).
    pub joint GenericRows {
        marker m0: Rigid;
        marker m1: Rigid;
        param rotation_marker0: matrix;
        param rotation_marker1: matrix;
        axes [x = 1, y = 1, z = 1, lx = 1, ly = 1, lz = 1, zy = 1, zx = 1, xy = 1, xz = 1, yx = 1, yz = 1];
        position = [
            (m1.position - m0.position)[0],
            (m1.position - m0.position)[1],
            (m1.position - m0.position)[2],
            dot(transpose(m0.rotation * rotation_marker0)[0], m1.position - m0.position),
            dot(transpose(m0.rotation * rotation_marker0)[1], m1.position - m0.position),
            dot(transpose(m0.rotation * rotation_marker0)[2], m1.position - m0.position),
            dot(transpose(m0.rotation * rotation_marker0)[2], transpose(m1.rotation * rotation_marker1)[1]),
            dot(transpose(m0.rotation * rotation_marker0)[2], transpose(m1.rotation * rotation_marker1)[0]),
            dot(transpose(m0.rotation * rotation_marker0)[0], transpose(m1.rotation * rotation_marker1)[1]),
            dot(transpose(m0.rotation * rotation_marker0)[0], transpose(m1.rotation * rotation_marker1)[2]),
            dot(transpose(m0.rotation * rotation_marker0)[1], transpose(m1.rotation * rotation_marker1)[0]),
            dot(transpose(m0.rotation * rotation_marker0)[1], transpose(m1.rotation * rotation_marker1)[2])
        ];
        velocity = [
            (m1.velocity - m0.velocity)[0],
            (m1.velocity - m0.velocity)[1],
            (m1.velocity - m0.velocity)[2],
            dot(transpose(m0.rotation * rotation_marker0)[0], m1.velocity - m0.velocity)
            + dot(m0.rotation * cross(m0.angular_velocity_local, transpose(rotation_marker0)[0]), m1.position - m0.position),
            dot(transpose(m0.rotation * rotation_marker0)[1], m1.velocity - m0.velocity)
            + dot(m0.rotation * cross(m0.angular_velocity_local, transpose(rotation_marker0)[1]), m1.position - m0.position),
            dot(transpose(m0.rotation * rotation_marker0)[2], m1.velocity - m0.velocity)
            + dot(m0.rotation * cross(m0.angular_velocity_local, transpose(rotation_marker0)[2]), m1.position - m0.position),
            dot(m0.rotation * cross(m0.angular_velocity_local, transpose(rotation_marker0)[2]), transpose(m1.rotation * rotation_marker1)[1])
            + dot(transpose(m0.rotation * rotation_marker0)[2], m1.rotation * cross(m1.angular_velocity_local, transpose(rotation_marker1)[1])),
            dot(m0.rotation * cross(m0.angular_velocity_local, transpose(rotation_marker0)[2]), transpose(m1.rotation * rotation_marker1)[0])
            + dot(transpose(m0.rotation * rotation_marker0)[2], m1.rotation * cross(m1.angular_velocity_local, transpose(rotation_marker1)[0])),
            dot(m0.rotation * cross(m0.angular_velocity_local, transpose(rotation_marker0)[0]), transpose(m1.rotation * rotation_marker1)[1])
            + dot(transpose(m0.rotation * rotation_marker0)[0], m1.rotation * cross(m1.angular_velocity_local, transpose(rotation_marker1)[1])),
            dot(m0.rotation * cross(m0.angular_velocity_local, transpose(rotation_marker0)[0]), transpose(m1.rotation * rotation_marker1)[2])
            + dot(transpose(m0.rotation * rotation_marker0)[0], m1.rotation * cross(m1.angular_velocity_local, transpose(rotation_marker1)[2])),
            dot(m0.rotation * cross(m0.angular_velocity_local, transpose(rotation_marker0)[1]), transpose(m1.rotation * rotation_marker1)[0])
            + dot(transpose(m0.rotation * rotation_marker0)[1], m1.rotation * cross(m1.angular_velocity_local, transpose(rotation_marker1)[0])),
            dot(m0.rotation * cross(m0.angular_velocity_local, transpose(rotation_marker0)[1]), transpose(m1.rotation * rotation_marker1)[2])
            + dot(transpose(m0.rotation * rotation_marker0)[1], m1.rotation * cross(m1.angular_velocity_local, transpose(rotation_marker1)[2]))
        ];
    }
}

/// Kind indices of the compiler's marker kinds (the order of `marker_kinematics::MARKER_KINDS`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(usize)]
pub enum KinematicsKind {
    GroundPoint = 0,
    MassPointBody = 1,
    RigidEpPoint = 2,
    RigidRxyzPoint = 3,
    NodePoint = 4,
    NodeEp = 5,
    NodeRxyz = 6,
}

impl KinematicsKind {
    #[must_use]
    pub fn index(self) -> usize {
        self as usize
    }

    #[must_use]
    pub fn name(self) -> &'static str {
        marker_kinematics::MARKER_KINDS[self.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runtime_kind_indices_match_the_compilers_order() {
        let kinds = [
            KinematicsKind::GroundPoint,
            KinematicsKind::MassPointBody,
            KinematicsKind::RigidEpPoint,
            KinematicsKind::RigidRxyzPoint,
            KinematicsKind::NodePoint,
            KinematicsKind::NodeEp,
            KinematicsKind::NodeRxyz,
        ];
        for k in kinds {
            assert_eq!(format!("{k:?}"), k.name());
            assert_eq!(spherical::MARKER_KINDS[k.index()], k.name());
        }
    }
}
