//! # joint-runtime
//!
//! An Exudyn-compatible multibody system built on the kernels that `joint-macros` generates:
//! items ([`items`]) are added to a [`MultibodySystem`]; [`assemble`] computes the topology
//! once; [`physics`] evaluates the equations; [`solver`] runs Exudyn's generalized-α and
//! static solvers; [`output`] and [`sensors`] give results as Exudyn does.

// `!(x > 0.0)` is used on purpose: it rejects NaN as well.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

pub mod assemble;
#[cfg(feature = "cli")]
pub mod cli;
pub mod create;
pub mod error;
pub mod items;
pub mod joints;
pub mod kernels;
pub mod linear;
pub mod markers;
pub mod model;
pub mod output;
pub mod physics;
pub mod scene;
pub mod sensors;
pub mod simulation;
pub mod solution_file;
pub mod solver;
pub mod summary;
pub mod superelement;
pub mod system;
pub mod tree;

pub use create::{EULER_PARAMETERS_0, RigidBodyInertia, RigidBodyOptions, RigidNodeType};
pub use error::{Error, Result};
pub use items::OutputVariable;
pub use items::*;
pub use joint_core::joint;
pub use joints::{JointObject, JointRegistry, JointType};
pub use simulation::{Simulation, State};
pub use solver::settings::SimulationSettings;
pub use system::MultibodySystem;
