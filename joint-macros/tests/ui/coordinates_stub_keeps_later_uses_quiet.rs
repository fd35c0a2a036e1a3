joint_macros::joint! {
    pub joint Broken {
        marker m0: Coordinates;
        marker m1: Coordinates;
        param x: dmatrix;
        position = x * m0.coordinates + m1.position;
    }
}

// the stub still defines the type and its definition, so uses of them add no errors
fn main() {
    let d = <Broken as joint_core::CoordinateVectorJoint>::DEFINITION;
    let _ = broken::DEFINITION.name;
    let _ = d.rows;
}
