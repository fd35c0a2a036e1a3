joint_macros::joint! {
    pub force Bad {
        marker m0: Coordinate;
        marker m1: Position;
        force = m1.position;
    }
}

joint_macros::joint! {
    pub force AlsoBad {
        marker m0: Coordinate;
        marker m1: Coordinate;
        force = [m0.coordinate, m1.coordinate, 0.0];
    }
}

fn main() {}
