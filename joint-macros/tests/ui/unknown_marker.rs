joint_macros::joint! {
    pub joint Bad {
        marker m0: Position;
        marker m1: Position;
        axes [x, y, z];
        position = m2.position - m0.position;
        velocity = m1.velocity - m0.velocity;
    }
}

fn main() {}
