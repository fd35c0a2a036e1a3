// A hand-written velocity level that forgot the factor 2 of d/dt(Δp·Δp) = 2 Δp·Δv: the macro
// evaluates both levels at random states while it expands and points at the row that differs.
joint_macros::joint! {
    pub joint Bad {
        marker m0: Position;
        marker m1: Position;
        axes [x, d];
        let delta = m1.position - m0.position;
        position = [delta[0], dot(delta, delta)];
        velocity = [m1.velocity[0] - m0.velocity[0], dot(delta, m1.velocity - m0.velocity)];
    }
}

fn main() {}
