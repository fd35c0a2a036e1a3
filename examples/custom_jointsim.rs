//! `jointsim` for a crate with its own joints: the runtime's program with the joints and the
//! force element of examples/custom_joints/mod.rs registered beside Exudyn's items, so that
//! model files can use them (`"objectType": "Cylindrical"`, `"PointOnPlane"`,
//! `"ProgressiveSpring"`, each parameter by its name) with every command: run, check, sweep,
//! plot, scene, view.
//!
//! ```sh
//! cargo run --release --features cli --example custom_jointsim -- run tests/models/point_on_incline.json
//! cargo run --release --features cli --example custom_jointsim -- run tests/models/progressive_spring.json
//! ```
//!
//! (`joint`'s feature `cli` gives `joint::cli`, the jointsim program as a library.)

#[allow(dead_code)]
mod custom_joints;

use custom_joints::{Cylindrical, PointOnPlane, ProgressiveSpring};
use joint::cli;
use joint::runtime::JointRegistry;
use std::process::ExitCode;

fn main() -> ExitCode {
    let registry = JointRegistry::exudyn()
        .with::<Cylindrical>()
        .and_then(|r| r.with::<PointOnPlane>())
        .and_then(|r| r.with_force::<ProgressiveSpring>());
    match registry {
        Ok(registry) => cli::main(registry),
        Err(e) => {
            eprintln!("custom_jointsim: {e}");
            ExitCode::FAILURE
        }
    }
}
