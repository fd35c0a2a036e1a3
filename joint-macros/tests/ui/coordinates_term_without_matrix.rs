joint_macros::joint! {
    fn square(q) = q * q;

    pub joint NoMatrix {
        marker m0: Coordinates;
        marker m1: Coordinates;
        param x: dmatrix;
        param offset: dvector;
        position = x * m0.coordinates + square(m1.coordinates) - offset;
    }

    pub joint BothMarkers {
        marker m0: Coordinates;
        marker m1: Coordinates;
        param x: dmatrix;
        position = x * m1.coordinates - x * m0.coordinates;
    }

    pub joint VelocityInPosition {
        marker m0: Coordinates;
        marker m1: Coordinates;
        param x: dmatrix;
        position = x * m1.coordinates_velocity;
    }
}

fn main() {}
