//! Exudyn's solvers: settings, Newton control, the implicit dynamic solver and the static solver.

pub mod dynamic;
pub mod newton;
pub mod settings;
pub mod static_solver;
pub mod validate;
