joint_macros::joint! {
    pub joint Bad {
        marker m0: Orientation;
        marker m1: Position;
        axes [x, y, z];
        position = m1.position - m0.position;
        velocity = m1.velocity - m0.velocity;
    }
}

fn main() {}
