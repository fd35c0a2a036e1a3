joint_macros::joint! {
    pub joint Bad {
        marker m0: Position;
        marker m1: Position;
        axes [x];
        let delta = m1.position - m0.position;
        position = [delta[delta[0]]];
    }
}

fn main() {}
