joint_macros::joint! {
    pub joint Bad {
        marker m0: Position;
        marker m1: Position;
        axes [d];
        fn norm(v) = sqrt(dot(v, v));
        position = [norm(m1.position - m0.position)];
    }
}

fn main() {}
