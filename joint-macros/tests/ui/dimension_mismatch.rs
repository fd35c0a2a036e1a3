joint_macros::joint! {
    pub joint Bad {
        marker m0: Position;
        marker m1: Position;
        axes [x, y, z];
        position = m1.position - 1.0;
        velocity = m1.velocity - m0.velocity;
    }
}

fn main() {}
