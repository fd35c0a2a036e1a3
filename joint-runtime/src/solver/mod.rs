//! Exudyn's solvers: settings, Newton control, the implicit dynamic solver and the static solver.

mod accurate;
mod anderson;
pub(crate) mod dynamic;
mod explicit;
mod extrapolation;
mod fast_newton;
mod index1;
mod initial_accelerations;
mod newton;
mod pairs;
mod static_solver;
mod step_size;
mod tableau;
mod validate;

use crate::error::Result;
use crate::settings::SimulationSettings;
pub use crate::settings::SolveKind;
use crate::simulation::{Progress, Simulation};

impl Simulation {
    /// Exudyn's `mbs.SolveDynamic(simulationSettings)`, with the integrator of
    /// `timeIntegration.solver_type` (implicit generalized-α by default).
    pub fn solve_dynamic(&mut self, settings: &SimulationSettings) -> Result<()> {
        self.solve_observed(SolveKind::Dynamic, settings, &mut |_, _| {})
    }

    /// Exudyn's `mbs.SolveStatic(simulationSettings)`.
    pub fn solve_static(&mut self, settings: &SimulationSettings) -> Result<()> {
        self.solve_observed(SolveKind::Static, settings, &mut |_, _| {})
    }

    /// The solve `kind`, with `observer` seeing the simulation once with the initial state
    /// (`progress.steps == 0`) and after every completed (load) step: for progress reports,
    /// solution files and recorded motions.
    pub fn solve_observed(
        &mut self,
        kind: SolveKind,
        settings: &SimulationSettings,
        observer: &mut dyn FnMut(&Simulation, Progress),
    ) -> Result<()> {
        match kind {
            SolveKind::Dynamic if settings.time_integration.solver_type.is_explicit() => {
                self.run_explicit(settings, observer)
            }
            SolveKind::Dynamic if settings.solver_mode == crate::settings::SolverMode::Accurate => {
                self.run_accurate(settings, observer)
            }
            SolveKind::Dynamic => self.run_dynamic(settings, observer),
            SolveKind::Static => self.run_static(settings, observer),
        }
    }
}
