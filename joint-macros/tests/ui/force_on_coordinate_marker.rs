joint_macros::joint! {
    pub force Bad {
        marker m0: Coordinate;
        marker m1: Position;
        force = m1.position;
    }
}

fn main() {}
