joint_macros::joint! {
    pub joint Bad {
        marker m0: Position;
        marker m0: Position;
        axes [x, y, z];
        position = m0.position;
        velocity = m0.velocity;
    }
}

fn main() {}
