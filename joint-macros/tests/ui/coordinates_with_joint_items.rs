joint_macros::joint! {
    pub joint Mixed {
        marker m0: Coordinates;
        marker m1: Position;
        param x: dmatrix;
        param n: vector;
        axes [a, b];
        let y = 2.0;
        position = x * m0.coordinates;
    }
}

fn main() {}
