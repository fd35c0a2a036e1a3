//! Oracle tests of the markers' kinematics against independent implementations of the spec's
//! formulas.

mod super_element;
