//! `joint`: one dependency for users — the constraint compiler ([`joint!`]), the types its
//! output shares with runtimes ([`core`], the `joint_core` crate) and the Exudyn-compatible
//! runtime ([`runtime`]).

pub use joint_core as core;
pub use joint_core::joint;
pub use joint_macros::marker_kinematics;
pub use joint_runtime as runtime;
