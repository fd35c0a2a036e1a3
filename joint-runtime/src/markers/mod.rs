//! Markers with run-time structure: superelement markers, and rotation-vector helpers.

pub mod kinematic_tree;
pub mod rotation_vector;
pub mod super_element;
