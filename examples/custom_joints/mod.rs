//! Joints Exudyn does not have, defined as a user defines them: from the position level only,
//! outside the runtime. Used by the examples (`cylindrical_joint`, `point_on_plane`,
//! `custom_jointsim`) and by the tests that check every generated kernel.

use joint::core::JointDefinition;

joint::joint! {
    /// A cylindrical joint: marker 1 slides along and turns about the x axis of marker 0's frame,
    /// and does nothing else. Rows: the translation along y0 and z0 (`t_y0·Δp`, `t_z0·Δp`) and
    /// the turning of x1 away from x0 (`t_x0·t_y1`, `t_x0·t_z1`), the rows Exudyn's JointGeneric
    /// uses for `constrainedAxes = [0, 1, 1, 0, 1, 1]`.
    pub joint Cylindrical {
        marker m0: Rigid;
        marker m1: Rigid;
        axes [y, z, ry, rz];
        let frame0 = m0.rotation;
        let frame1 = m1.rotation;
        let delta = m1.position - m0.position;
        position = [
            dot(col(frame0, 1), delta),
            dot(col(frame0, 2), delta),
            dot(col(frame0, 0), col(frame1, 1)),
            dot(col(frame0, 0), col(frame1, 2))
        ];
        /// How far marker 1 has slid along the axis.
        output slide = dot(col(frame0, 0), delta);
    }

    /// A point `m1` on the plane through `m0` with normal `normal` (in `m0`'s frame).
    pub joint PointOnPlane {
        marker m0: Rigid;
        marker m1: Position;
        param normal: vector;
        axes [n];
        let n = m0.rotation * normal;
        position = [dot(n, m1.position - m0.position)];
        /// The point's position in the plane's frame.
        output local_position = transpose(m0.rotation) * (m1.position - m0.position);
    }
}

/// The joints of this file.
pub fn definitions() -> Vec<&'static JointDefinition> {
    vec![&cylindrical::DEFINITION, &point_on_plane::DEFINITION]
}
