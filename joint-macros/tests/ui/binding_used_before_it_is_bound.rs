joint_macros::joint! {
    pub joint Bad {
        marker m0: Position;
        marker m1: Position;
        axes [x, y, z];
        let scaled = 2.0 * delta;
        let delta = m1.position - m0.position;
        position = scaled;
    }
}

fn main() {}
