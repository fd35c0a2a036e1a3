joint_macros::joint! {
    pub joint Bad {
        marker m0: Position;
        marker m1: Position;
        axes [x, y, z];
        let m0 = m1.position;
        position = m0;
    }
}

fn main() {}
