//! Joints Exudyn does not have, defined as a user defines them (position level only): shared by
//! the tests that check every generated kernel and the examples' oracles.

use joint::core::JointDefinition;

joint::joint! {
    /// A point `m1` on the plane through `m0` with normal `normal` (in `m0`'s frame).
    pub joint PointOnPlane {
        marker m0: Rigid;
        marker m1: Position;
        param normal: vector;
        axes [n];
        position = [dot(m0.rotation * normal, m1.position - m0.position)];
    }
}

/// The joints of this file.
pub fn definitions() -> Vec<&'static JointDefinition> {
    vec![&point_on_plane::DEFINITION]
}
