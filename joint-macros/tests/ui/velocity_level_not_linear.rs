// Rows written at velocity level must be linear in the velocities (C(q)·q̇ + b(q)): λ acts
// through C = ∂g/∂q̇, which may not depend on q̇.
joint_macros::joint! {
    pub joint Bad {
        marker m0: Position;
        marker m1: Position;
        axes [speed];
        velocity = dot(m1.velocity - m0.velocity, m1.velocity - m0.velocity) - 1.0;
    }
}

fn main() {}
