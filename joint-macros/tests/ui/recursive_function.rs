joint_macros::joint! {
    pub joint Bad {
        marker m0: Position;
        marker m1: Position;
        axes [d];
        fn twice(x) = twice(x) + twice(x);
        position = [twice(m1.position[0] - m0.position[0])];
    }
}

fn main() {}
