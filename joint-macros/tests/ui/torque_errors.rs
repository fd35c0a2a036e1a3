joint_macros::joint! {
    /// A torque on a marker without orientation, and given twice.
    pub force OnAPoint {
        marker m0: Rigid;
        marker m1: Position;
        force = m1.position - m0.position;
        torque = m0.angular_velocity;
        torque = m0.angular_velocity;
    }

    /// `atan2` of vectors.
    pub force ScalarTorque {
        marker m0: Rigid;
        marker m1: Rigid;
        force = m1.position - m0.position;
        torque = atan2(m0.position, m1.position);
    }

    /// A scalar torque.
    pub force ScalarTorque2 {
        marker m0: Rigid;
        marker m1: Rigid;
        force = m1.position - m0.position;
        torque = atan2(m0.position[1], m1.position[0]);
    }

    /// A torque in a joint.
    pub joint TorqueInAJoint {
        marker m0: Rigid;
        marker m1: Rigid;
        axes [x = 1];
        position = [m1.position[0] - m0.position[0]];
        torque = m0.angular_velocity;
    }
}

fn main() {}
