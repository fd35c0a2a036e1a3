joint_macros::joint! {
    pub joint NoElse {
        marker m0: Position;
        marker m1: Position;
        axes [d];
        position = [if m1.position[0] > 0.0 { 1.0 }];
    }

    pub joint Equality {
        marker m0: Position;
        marker m1: Position;
        axes [d];
        position = [if m1.position[0] == 0.0 { 1.0 } else { 2.0 }];
    }

    pub joint Mismatch {
        marker m0: Position;
        marker m1: Position;
        axes [x, y, z];
        position = if m1.position[0] > m0.position[0] { m1.position } else { 0.0 };
    }

    pub joint VectorTest {
        marker m0: Position;
        marker m1: Position;
        axes [x, y, z];
        position = if m1.position > m0.position { m1.position } else { m0.position };
    }
}

fn main() {}
