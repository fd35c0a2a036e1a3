joint_macros::joint! {
    pub joint Bad {
        marker m0: Position;
        marker m1: Position;
        param offset: vector;
        axes [x, y, z];
        let offset = m1.position - m0.position;
        position = offset;
    }
}

fn main() {}
