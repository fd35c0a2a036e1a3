joint_macros::joint! {
    pub force Bad {
        marker m0: Position;
        marker m1: Position;
        force = norm(m1.position - m0.position);
    }
}

fn main() {}
