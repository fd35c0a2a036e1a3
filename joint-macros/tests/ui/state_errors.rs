joint_macros::joint! {
    /// `angle` outside a state's value, and `last` of a binding that is not a state.
    pub joint AngleInALet {
        marker m0: Rigid;
        marker m1: Rigid;
        axes [turn];
        let a = angle(m1.position[1], m1.position[0]);
        let b = a;
        position = [a + last(b)];
    }

    /// A vector state.
    pub joint VectorState {
        marker m0: Position;
        marker m1: Position;
        axes [x];
        state d = m1.position - m0.position;
        position = [last(d)];
    }

    /// An output named as a state.
    pub joint OutputAsState {
        marker m0: Position;
        marker m1: Position;
        axes [x];
        state d = m1.position[0];
        position = [d];
        output d = m1.position;
    }

    /// A state after the rows, and a state declared twice.
    pub force LateState {
        marker m0: Position;
        marker m1: Position;
        state s = m1.position[0];
        state s = m1.position[1];
        force = m1.position - m0.position;
        state t = m1.position[2];
    }

    /// `last` in a joint without states.
    pub joint NoStates {
        marker m0: Position;
        marker m1: Position;
        axes [x];
        position = [m1.position[0] - last(x)];
    }

    /// States on whole coordinate vectors.
    pub joint OnCoordinates {
        marker m0: Coordinates;
        marker m1: Coordinates;
        param a: dmatrix;
        state s = 1.0;
        position = a * m1.coordinates;
    }
}

fn main() {}
