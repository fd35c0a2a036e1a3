use joint_core::joint;

joint! {
    pub force Listed {
        marker m0: Position(GroundPoint);
        marker m1: Position;
        force = m1.position - m0.position;
    }
}

fn main() {}
