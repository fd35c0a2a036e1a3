//! Joints and a force element Exudyn does not have, defined as a user defines them: joints from
//! the position level only, the force element from its force only, outside the runtime. Used by the examples (`cylindrical_joint`, `point_on_plane`,
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

    /// A progressive spring-damper along the markers' line: `F = k·s + k₃·s³ + d·ṡ` with the
    /// stretch `s = L − L₀`, tension positive (with `k₃ = 0` Exudyn's ConnectorSpringDamper).
    pub force ProgressiveSpring {
        marker m0: Position;
        marker m1: Position;
        param stiffness: scalar;
        param cubic_stiffness: scalar;
        param damping: scalar;
        param reference_length: scalar;
        let delta = m1.position - m0.position;
        let length = norm(delta);
        let e = delta / length;
        let stretch = length - reference_length;
        let tension = stiffness * stretch + cubic_stiffness * stretch * stretch * stretch
            + damping * dot(m1.velocity - m0.velocity, e);
        force = tension * e;
        /// The spring's stretch L − L₀.
        output stretch = stretch;
    }
}

/// The joints of this file.
pub fn definitions() -> Vec<&'static JointDefinition> {
    vec![&cylindrical::DEFINITION, &point_on_plane::DEFINITION]
}
