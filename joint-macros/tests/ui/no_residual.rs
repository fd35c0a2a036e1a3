// A joint needs its rows: at position level, or at velocity level only.
joint_macros::joint! {
    pub joint Bad {
        marker m0: Position;
        marker m1: Position;
        axes [x];
    }
}

fn main() {}
