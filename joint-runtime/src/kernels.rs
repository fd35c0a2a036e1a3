//! The generated kernels: marker kinematics of every kind, and the joints defined with the
//! constraint compiler. Nothing in this file is a hand-written residual or Jacobian.

joint_macros::marker_kinematics!();

joint_macros::joint! {
    /// Exudyn's ObjectJointSpherical: the two markers' positions coincide, per global axis
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
    /// Exudyn's ObjectConnectorDistance: the markers keep the distance `distance`. The velocity
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
    pub fn index(self) -> usize {
        self as usize
    }

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
