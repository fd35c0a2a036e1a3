joint_macros::joint! {
    pub joint Bad {
        marker m0: Position;
        marker m1: Position;
        axes [x, y, z];
        position = m1.posit - m0.position;
        velocity = m1.velocity - m0.velocity;
    }
}

fn main() {}
