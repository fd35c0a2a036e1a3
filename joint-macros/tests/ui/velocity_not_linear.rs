joint_macros::joint! {
    pub joint Bad {
        marker m0: Position;
        marker m1: Position;
        axes [d];
        position = [dot(m1.position - m0.position, m1.position - m0.position)];
        velocity = [dot(m1.velocity - m0.velocity, m1.velocity - m0.velocity)];
    }
}

fn main() {}
