joint_macros::joint! {
    fn perpendicular(a, b) = dot(a, b);

    pub joint Bad {
        marker m0: Rigid;
        marker m1: Rigid;
        axes [r];
        position = [perpendicular(col(m0.rotation, 2), col(m1.rotation, 0), 1)];
    }
}

fn main() {}
