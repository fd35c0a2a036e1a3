//! Code generation: joint kernels per marker pairing, force elements' marker-level kernels,
//! coordinate-vector joints' loops, and marker kinematics per kind.

pub mod coordinate_vector;
pub mod force;
pub mod joint;
pub mod kinematic_tree;
pub mod kinematics;
pub mod marker_kinds;
pub mod super_element;
mod util;
