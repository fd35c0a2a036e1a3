//! # joint-runtime
//!
//! An Exudyn-compatible multibody system built on the kernels that `joint-macros` generates.
//!
//! What a user works with, all exported here at the crate root:
//!
//! * **building a system**: [`MultibodySystem`] and its items ([`Node`], [`Object`], [`Marker`],
//!   [`Load`], [`Sensor`], typed indices such as [`NodeIndex`]), the one-call `create_*` helpers
//!   of [`create`], joints as objects ([`JointObject`]) of a [`JointType`] from a
//!   [`JointRegistry`] (Exudyn's joints and any joint defined with [`joint!`]);
//! * **simulating it**: [`MultibodySystem::assemble`] gives a [`Simulation`], whose
//!   [`solve_dynamic`](Simulation::solve_dynamic), [`solve_static`](Simulation::solve_static)
//!   and [`solve_observed`](Simulation::solve_observed) run Exudyn's solvers with
//!   [`SimulationSettings`];
//! * **reading results**: the `*_output` functions of [`Simulation`] (Exudyn's
//!   `mbs.Get…Output`) or the [`Outputs`] view, and the sensors' rows ([`SensorRows`]);
//! * **files**: Exudyn model files ([`model`]), Exudyn's solution files ([`solution_file`]),
//!   glTF scenes ([`scene`]) and the `jointsim check` summary ([`summary`]; the `jointsim`
//!   program itself is the crate `jointsim`);
//! * **embedding kernels**: the generated kernels of Exudyn's joints and the marker kinematics
//!   ([`kernels`]).
//!
//! Inside, data flows one way: items → model reader → assembly (the topology, computed once) →
//! physics (the equations at a state) → solvers → the simulation; outputs and sensors read a
//! state and a topology. The assembly, physics, marker, tree, superelement and linear-algebra
//! modules are internal (ARCHITECTURE.md describes them); their oracle tests are this crate's
//! unit tests.

// `!(x > 0.0)` is used on purpose: it rejects NaN as well.
#![allow(clippy::neg_cmp_op_on_partial_ord)]
#![warn(missing_docs)]

// Internal modules (ARCHITECTURE.md): their oracle tests are this crate's unit tests.
pub(crate) mod assemble;
pub(crate) mod linear;
pub(crate) mod markers;
pub(crate) mod physics;
pub(crate) mod sensors;
pub(crate) mod superelement;
pub(crate) mod tree;

pub mod composed;
pub mod create;
pub mod error;
pub mod items;
/// The generated kernels: every marker kind's kinematics and Exudyn's joints and force
/// elements (the crate `joint-kernels`).
pub use joint_kernels as kernels;
pub mod model;
pub mod output;
pub mod scene;
pub mod settings;
pub mod simulation;
pub mod solution_file;
pub mod solver;
mod state;
mod storage;
pub mod summary;
pub mod system;

pub use create::{
    CreatedBody, CreatedJoint, EULER_PARAMETERS_0, RigidBodyInertia, RigidBodyOptions,
    RigidNodeType,
};
pub use error::{Error, Result};
pub use items::joints::{
    CoordinateVectorObject, DynValue, ForceObject, JointObject, JointRegistry, JointType,
};
pub use items::*;
pub use joint_core::joint;
pub use linear::{FactorizationCounts, LinearSolverType};
/// The nalgebra the runtime's API takes (`RigidBodyInertia`, `RigidBodyOptions`), so that your
/// matrices are of the same version.
pub use nalgebra;
pub use output::Outputs;
pub use settings::{SimulationSettings, SolveKind, SolverMode};
pub use simulation::{NewtonStatistics, Progress, SensorRows, Simulation, SolverStatistics, State};
pub use system::MultibodySystem;
