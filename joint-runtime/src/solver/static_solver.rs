//! Exudyn's static solver (spec/solver.md §6).

use super::settings::SimulationSettings;
use crate::error::{Error, Result};
use crate::simulation::Simulation;

impl Simulation {
    /// Exudyn's `mbs.SolveStatic(simulationSettings)`.
    pub fn solve_static(&mut self, settings: &SimulationSettings) -> Result<()> {
        let _ = settings;
        Err(Error::SolverFailed {
            message: "static solver not yet implemented".into(),
        })
    }
}
