joint_macros::joint! {
    /// Seventeen parameters: one more than a runtime passes from the stack.
    pub joint TooMany {
        marker m0: Coordinates;
        marker m1: Coordinates;
        param x: dmatrix;
        param s0: scalar;
        param s1: scalar;
        param s2: scalar;
        param s3: scalar;
        param s4: scalar;
        param s5: scalar;
        param s6: scalar;
        param s7: scalar;
        param s8: scalar;
        param s9: scalar;
        param s10: scalar;
        param s11: scalar;
        param s12: scalar;
        param s13: scalar;
        param s14: scalar;
        param s15: scalar;
        param s16: scalar;
        position = x * m1.coordinates;
    }
}

fn main() {}
