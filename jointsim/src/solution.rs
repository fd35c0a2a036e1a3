//! `jointsim run --solution-file FILE`: solve while collecting Exudyn's coordinates solution
//! file (see `joint_runtime::solution_file`).

use joint_runtime::Simulation;
use joint_runtime::model::{Model, SolveKind};
use joint_runtime::simulation::Progress;
use joint_runtime::solution_file::{SolutionFile, SolutionFileSolver};

/// Solve `sim` as `model` asks, reporting completed steps to `progress`; with `record`, also
/// collect the solution file's rows (take the text with [`SolutionFile::finish`]).
pub fn solve(
    sim: &mut Simulation,
    model: &Model,
    record: bool,
    progress: &mut dyn FnMut(Progress),
) -> (joint_runtime::error::Result<()>, Option<SolutionFile>) {
    let solver = match model.solve {
        SolveKind::Dynamic => SolutionFileSolver::Dynamic,
        SolveKind::Static => SolutionFileSolver::Static,
    };
    if record && let Err(e) = SolutionFile::check_storage(sim, &model.settings, solver) {
        return (Err(e), None);
    }
    let mut file = record.then(|| SolutionFile::new(sim, &model.settings, solver));
    let mut observer = |s: &Simulation, p: Progress| {
        if let Some(f) = file.as_mut() {
            f.observe(s, p);
        }
        if p.steps > 0 {
            progress(p);
        }
    };
    let solved = sim.solve_observed(model.solve, &model.settings, &mut observer);
    (solved, file)
}
