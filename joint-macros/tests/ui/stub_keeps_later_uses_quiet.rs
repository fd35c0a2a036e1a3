joint_macros::joint! {
    pub joint Broken {
        marker m0: Position;
        marker m1: Position;
        axes [x, y, z];
        position = m1.position - m0.posiiton;
        velocity = m1.velocity - m0.velocity;
    }
}

// Only the one error above shows: the stub module still has `ROWS` and `kernel`.
fn main() {
    let _ = broken::ROWS;
    let _ = broken::kernel(0, 1);
}
