joint_macros::joint! {
    pub joint Broken {
        marker m0: Position;
        marker m1: Position;
        param offset: vector;
        axes [x, y, z];
        second_order;
        parameter_derivatives;
        position = m1.position - m0.posiiton + offset;
    }
}

fn uses_a_joint<J: joint_core::Joint>() -> usize {
    J::DEFINITION.rows()
}

// Only the one error above shows: the stub has the joint's type and `Joint` implementation,
// `ROWS`, `Parameters`, and every pairing's typed kernels with their signatures (rustc reports
// type errors after a macro's error, so a stub of the wrong shape would show here).
fn main() {
    let rows: usize = uses_a_joint::<Broken>() + broken::ROWS;
    let p = broken::Parameters { offset: [0.0; 3] };
    let values: Vec<f64> = <broken::Parameters as joint_core::JointParameters>::to_values(&p);
    let r: [f64; 3] = broken::ground_point_to_node_point::position_residual(&p, &[0.0; 12], &[0.0; 3]);
    let j: ([[f64; 3]; 3], [[f64; 6]; 3]) =
        broken::node_point_to_node_rxyz::jacobian(&p, &[0.0; 3], &[0.0; 6]);
    let dp: [[f64; 3]; 3] =
        broken::ground_point_to_node_point::parameter_jacobian(&p, &[0.0; 12], &[0.0; 3]);
    let dm: [[f64; 12]; 3] =
        broken::ground_point_to_node_point::marker_parameter_jacobian(&p, &[0.0; 12], &[0.0; 3]);
    let dq: [[f64; 6]; 3] = broken::node_point_to_node_rxyz::position_jacobian(&p, &[0.0; 3], &[0.0; 6]).1;
    let _ = (rows, values, r, j, dp, dm, dq);
}
