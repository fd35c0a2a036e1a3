joint_macros::joint! {
    pub joint Bad {
        marker m0: Position;
        marker m1: Position;
        axes [d];
        position = [length(m1.position - m0.position)];
        velocity = [dot(m1.velocity, m0.velocity)];
    }
}

fn main() {}
