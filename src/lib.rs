//! `joint`: one dependency for users — the constraint compiler ([`joint_macros`]) and the
//! Exudyn-compatible runtime ([`joint_runtime`]).

pub use joint_macros::{joint, marker_kinematics};
pub use joint_runtime as runtime;
