//! Every expansion of joint-macros, compiled (and linted, with `cargo clippy`) under strict
//! lints. A warning in generated code fails this crate.
#![deny(warnings, clippy::all, clippy::pedantic, unsafe_code)]

joint_macros::marker_kinematics!();

// The runtime's own joint definitions (Spherical, Distance, RevoluteZ, PrismaticX,
// GenericRows), compiled from the file that ships them.
#[path = "../../../joint-runtime/src/kernels.rs"]
pub mod runtime_kernels;

joint_macros::joint! {
    /// A joint with rigid markers and every kind of run-time parameter.
    pub joint Parametrized {
        marker m0: Rigid;
        marker m1: Rigid;
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

#[cfg(test)]
mod tests {
    #[test]
    fn expansions_compile_and_are_callable() {
        assert_eq!(super::runtime_kernels::spherical::ROWS, 3);
        assert_eq!(super::runtime_kernels::generic_rows::ROWS, 12);
        assert_eq!(super::parametrized::ROWS, 2);
        assert!(super::parametrized::kernel(2, 5).is_some());
    }
}
