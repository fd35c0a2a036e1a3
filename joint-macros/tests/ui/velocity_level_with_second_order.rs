// A joint written at velocity level only (no `position`) has no second-order terms: the macro
// points at `second_order`.
joint_macros::joint! {
    pub joint Bad {
        marker m0: Position;
        marker m1: Position;
        axes [x];
        second_order;
        velocity = m1.velocity[0] - m0.velocity[0];
    }
}

fn main() {}
