joint_macros::joint! {
    pub joint Bad {
        marker m0: Position;
        marker m1: Position;
        axes [x, y, z];
        position = m1.position - m0.position;
        let delta = m1.position - m0.position;
    }
}

fn main() {}
