joint_macros::joint! {
    pub joint Bad {
        marker m0: Rigid(GroundPoint, RigidBodyEp);
        marker m1: Position(..);
        axes [x, y, z];
        position = m1.position - m0.position;
    }
}

fn main() {}
