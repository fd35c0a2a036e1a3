joint_macros::joint! {
    pub joint Bad {
        marker m0: Position(NodeCoordinate, NodePoint);
        marker m1: Coordinate(NodeEp);
        axes [x];
        position = [m0.position[0] - m1.coordinate];
    }
}

fn main() {}
