//! Code generation: joint kernels per marker pairing, force elements' marker-level kernels, and
//! marker kinematics per kind.

pub mod force;
pub mod joint;
pub mod kinematic_tree;
pub mod kinematics;
pub mod marker_kinds;
pub mod super_element;
mod util;
