joint_macros::joint! {
    pub force Broken {
        marker m0: Rigid;
        marker m1: Position;
        param stiffness: scalar;
        force = stiffness * (m1.position - m0.positon);
    }
}

fn uses_a_force<F: joint_core::Force>() -> usize {
    F::DEFINITION.parameter_len()
}

// Only the one error above shows: the stub has the force element's type, `Force`
// implementation, `Parameters` and typed kernels.
fn main() {
    let n = uses_a_force::<Broken>();
    let p = broken::Parameters { stiffness: 1.0 };
    let m = joint_core::MarkerQuantities::default();
    let f: [f64; 3] = broken::marker_level::force(&p, &m, &m);
    let j: joint_core::ForceJacobian = broken::marker_level::jacobian(&p, &m, &m);
    let _ = (n, f, j);
}
