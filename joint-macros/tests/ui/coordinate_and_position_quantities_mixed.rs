joint_macros::joint! {
    pub joint Bad {
        marker m0: Coordinate;
        marker m1: Position;
        axes [x];
        position = [m0.position[0] - m1.coordinate];
    }
}

fn main() {}
