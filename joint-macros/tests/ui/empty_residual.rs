joint_macros::joint! {
    pub joint Bad {
        marker m0: Position;
        marker m1: Position;
        axes [x];
        position = [];
        velocity = [m1.velocity[0] - m0.velocity[0]];
    }
}

fn main() {}
