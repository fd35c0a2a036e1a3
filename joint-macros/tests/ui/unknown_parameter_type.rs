joint_macros::joint! {
    pub joint Bad {
        marker m0: Rigid;
        marker m1: Position;
        param normal: quaternion;
        axes [n];
        position = [dot(m0.rotation * normal, m1.position - m0.position)];
        velocity = [dot(m0.rotation * normal, m1.velocity - m0.velocity)];
    }
}

fn main() {}
