// The position level is differentiated in time: it may read positions and rotations only,
// also through the bindings it uses.
joint_macros::joint! {
    pub joint Bad {
        marker m0: Position;
        marker m1: Position;
        axes [x, y, z];
        let relative = m1.velocity - m0.position;
        position = relative;
    }
}

fn main() {}
