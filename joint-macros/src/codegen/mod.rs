//! Code generation: joint kernels per marker pairing, and marker kinematics per kind.

pub mod joint;
pub mod kinematics;
mod util;
