joint_macros::joint! {
    pub joint Bad {
        marker m0: Position;
        marker m1: Position;
        axes [x = 1, y = 2, z = 1];
        position = m1.position - m0.position;
        velocity = m1.velocity - m0.velocity;
    }
}

fn main() {}
