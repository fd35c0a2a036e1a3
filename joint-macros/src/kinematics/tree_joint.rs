//! One joint of a kinematic tree (Exudyn's ObjectKinematicTree): the child link's frame from its
//! parent's, T_i = T_π · HT(A_i, o_i) · J_i(q), with its velocities, for the six joint types.
//!
//! Revolute about axis k: J = HT(Rot_k(q), 0); prismatic along k: J = HT(I, q·e_k). Global
//! angular velocity ω_i = ω_π + R_i e_k q̇ (revolute), origin velocity
//! v_i = v_π + ω_π × (p_i − p_π) (+ R_π A e_k q̇ for prismatic).

use crate::symbolic::vector::{self, Mat3, Vec3};
use crate::symbolic::{Graph, Id};

/// Exudyn's JointType members, with their numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TreeJoint {
    RevoluteX = 1,
    RevoluteY = 2,
    RevoluteZ = 3,
    PrismaticX = 4,
    PrismaticY = 5,
    PrismaticZ = 6,
}

impl TreeJoint {
    pub const ALL: [TreeJoint; 6] = [
        TreeJoint::RevoluteX,
        TreeJoint::RevoluteY,
        TreeJoint::RevoluteZ,
        TreeJoint::PrismaticX,
        TreeJoint::PrismaticY,
        TreeJoint::PrismaticZ,
    ];

    pub fn snake_name(self) -> &'static str {
        match self {
            TreeJoint::RevoluteX => "revolute_x",
            TreeJoint::RevoluteY => "revolute_y",
            TreeJoint::RevoluteZ => "revolute_z",
            TreeJoint::PrismaticX => "prismatic_x",
            TreeJoint::PrismaticY => "prismatic_y",
            TreeJoint::PrismaticZ => "prismatic_z",
        }
    }

    pub fn axis(self) -> usize {
        (self as usize - 1) % 3
    }

    pub fn is_revolute(self) -> bool {
        (self as usize) <= 3
    }
}

/// The symbolic child frame: rotation, origin, angular velocity, origin velocity (global).
pub struct ChildFrame {
    pub rotation: Mat3,
    pub position: Vec3,
    pub angular_velocity: Vec3,
    pub velocity: Vec3,
}

/// Names of the inputs, in the order the generator binds them.
pub const PARENT_ROTATION: [&str; 9] = [
    "pr00", "pr01", "pr02", "pr10", "pr11", "pr12", "pr20", "pr21", "pr22",
];
pub const PARENT_POSITION: [&str; 3] = ["pp0", "pp1", "pp2"];
pub const PARENT_ANGULAR_VELOCITY: [&str; 3] = ["pw0", "pw1", "pw2"];
pub const PARENT_VELOCITY: [&str; 3] = ["pv0", "pv1", "pv2"];
pub const TRANSFORMATION: [&str; 9] = [
    "a00", "a01", "a02", "a10", "a11", "a12", "a20", "a21", "a22",
];
pub const OFFSET: [&str; 3] = ["o0", "o1", "o2"];

fn mat(g: &mut Graph, names: &[&str; 9]) -> Mat3 {
    let v: Vec<Id> = names.iter().map(|n| g.var(n)).collect();
    [[v[0], v[1], v[2]], [v[3], v[4], v[5]], [v[6], v[7], v[8]]]
}

pub fn child_frame(g: &mut Graph, joint: TreeJoint) -> ChildFrame {
    let pr = mat(g, &PARENT_ROTATION);
    let pp = PARENT_POSITION.map(|n| g.var(n));
    let pw = PARENT_ANGULAR_VELOCITY.map(|n| g.var(n));
    let pv = PARENT_VELOCITY.map(|n| g.var(n));
    let a = mat(g, &TRANSFORMATION);
    let o = OFFSET.map(|n| g.var(n));
    let q = g.var("q");
    let q_t = g.var("q_t");
    let k = joint.axis();
    let pa = vector::mat_mat(g, &pr, &a);
    // the joint axis in global coordinates, R_π A e_k (Rot_k leaves e_k fixed)
    let axis = [pa[0][k], pa[1][k], pa[2][k]];
    let (rotation, local_offset) = if joint.is_revolute() {
        let c = g.cos(q);
        let s = g.sin(q);
        let z = g.zero();
        let one = g.one();
        let ns = g.neg(s);
        let rot: Mat3 = match k {
            0 => [[one, z, z], [z, c, ns], [z, s, c]],
            1 => [[c, z, s], [z, one, z], [ns, z, c]],
            _ => [[c, ns, z], [s, c, z], [z, z, one]],
        };
        (vector::mat_mat(g, &pa, &rot), o)
    } else {
        // o + A e_k q
        let ak = [a[0][k], a[1][k], a[2][k]];
        let shift = vector::scale(g, q, ak);
        (pa, vector::add(g, o, shift))
    };
    let arm = vector::mat_vec(g, &pr, local_offset);
    let position = vector::add(g, pp, arm);
    let transport = vector::cross(g, pw, arm);
    let mut velocity = vector::add(g, pv, transport);
    let rate = vector::scale(g, q_t, axis);
    let angular_velocity = if joint.is_revolute() {
        vector::add(g, pw, rate)
    } else {
        velocity = vector::add(g, velocity, rate);
        pw
    };
    ChildFrame {
        rotation,
        position,
        angular_velocity,
        velocity,
    }
}
