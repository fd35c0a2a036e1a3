//! Code generation: joint kernels per marker pairing, force elements' marker-level kernels,
//! coordinate-vector joints' loops, marker kinematics per kind, and rigid bodies' LHS
//! derivatives.

pub mod coordinate_vector;
pub mod force;
pub mod joint;
pub mod kinematic_tree;
pub mod kinematics;
pub mod marker_kinds;
pub mod rigid_body_terms;
pub mod super_element;
mod util;
