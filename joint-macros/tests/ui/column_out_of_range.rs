joint_macros::joint! {
    pub joint Bad {
        marker m0: Rigid;
        marker m1: Position;
        axes [n];
        position = [dot(col(m0.rotation, 3), m1.position - m0.position)];
    }
}

fn main() {}
