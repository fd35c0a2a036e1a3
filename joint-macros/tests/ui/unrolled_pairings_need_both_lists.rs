use joint_core::joint;

joint! {
    pub joint OnlyOneList {
        marker m0: Rigid(GroundPoint);
        marker m1: Rigid;
        axes [x, y, z];
        position = m1.position - m0.position;
    }
}

fn main() {}
