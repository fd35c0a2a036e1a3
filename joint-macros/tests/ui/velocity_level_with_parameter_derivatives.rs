// ∂g/∂p is of the position level: a joint written at velocity level only has none, and a force
// element has no residual. The macro points at `parameter_derivatives` each time.
joint_macros::joint! {
    pub joint Bad {
        marker m0: Position;
        marker m1: Position;
        param offset: scalar;
        axes [x];
        parameter_derivatives;
        velocity = m1.velocity[0] - m0.velocity[0] - offset;
    }
    pub joint Twice {
        marker m0: Position;
        marker m1: Position;
        param offset: scalar;
        axes [x];
        parameter_derivatives;
        parameter_derivatives;
        position = m1.position[0] - m0.position[0] - offset;
    }
    pub force Spring {
        marker m0: Position;
        marker m1: Position;
        param stiffness: scalar;
        parameter_derivatives;
        force = stiffness * (m1.position - m0.position);
    }
}

fn main() {}
