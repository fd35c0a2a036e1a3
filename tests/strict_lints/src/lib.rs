//! Every expansion of joint-macros, compiled (and linted, with `cargo clippy`) under strict
//! lints. A warning in generated code fails this crate.
#![deny(warnings, clippy::all, clippy::pedantic, unsafe_code)]

joint_macros::marker_kinematics!();

// The runtime's own definitions are held to the same lints by their crate, joint-kernels.

joint_core::joint! {
    /// A joint with rigid markers, every kind of run-time parameter and a hand-written velocity
    /// level.
    pub joint Parametrized {
        marker m0: Rigid(..);
        marker m1: Rigid(..);
        param normal: vector;
        param scale: scalar;
        param frame: matrix;
        axes [n, t = 0];
        position = [scale * dot(m0.rotation * normal, m1.position - m0.position),
            dot(m0.rotation * frame * normal, m1.rotation * normal)];
        velocity = [scale * (dot(cross(m0.angular_velocity, m0.rotation * normal), m1.position - m0.position)
                + dot(m0.rotation * normal, m1.velocity - m0.velocity)),
            dot(cross(m0.angular_velocity, m0.rotation * frame * normal), m1.rotation * normal)
                + dot(m0.rotation * frame * normal, cross(m1.angular_velocity, m1.rotation * normal))];
    }
}

joint_core::joint! {
    /// `let`, functions, a derived velocity level, named outputs, second-order terms and
    /// unrolled pairings for a list of marker kinds.
    fn along(frame, k, v) = dot(col(frame, k), v);

    pub joint Everything {
        marker m0: Rigid(GroundPoint, RigidEpPoint);
        marker m1: Position(..);
        param offset: vector;
        axes [y, z];
        second_order;
        let delta = m1.position - m0.position - m0.rotation * offset;
        position = [along(m0.rotation, 1, delta), along(m0.rotation, 2, delta)];
        output distance = norm(delta);
        output gap = delta;
    }
}

joint_core::joint! {
    /// The default form: marker-level kernels only, with their second-order terms.
    pub joint DefaultForm {
        marker m0: Rigid;
        marker m1: Rigid;
        param axis: vector;
        axes [a, b];
        second_order;
        let t = m0.rotation * axis;
        position = [dot(t, m1.position - m0.position), dot(t, m1.rotation * axis) - 1.0];
    }
}

#[cfg(test)]
mod tests {
    use joint_core::MarkerKind::{GroundPoint, NodeRxyz, RigidEpPoint};

    #[test]
    fn expansions_compile_and_are_callable() {
        assert_eq!(super::parametrized::ROWS, 2);
        assert!(super::parametrized::pairing(RigidEpPoint, NodeRxyz).is_some());
        // two kinds for m0, the 11 kinds with a position for m1, less ground–ground
        assert_eq!(super::everything::PAIRINGS.len(), 2 * 11 - 1);
        assert!(super::everything::pairing(NodeRxyz, GroundPoint).is_none());
        assert_eq!(super::everything::DEFINITION.outputs.len(), 2);
        assert!(
            super::everything::DEFINITION
                .marker_level
                .second_order
                .is_some()
        );
        assert!(super::default_form::PAIRINGS.is_empty());
    }
}
