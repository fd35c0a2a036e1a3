//! # jointsim
//!
//! The `jointsim` program, and the same as a library entry point: [`main`] with a
//! [`JointRegistry`], so that a crate with its own joints gets `run`, `check`, `sweep`, `plot`,
//! `scene` and `view` for model files that use them, with a `main.rs` of a few lines. (Its
//! command-line and picture dependencies — clap, plotters, image, rayon, indicatif — are this
//! crate's alone: the runtime a simulator embeds builds none of them. The `joint` crate
//! re-exports it as `joint::cli` with the feature `cli`.)
//!
//! ```no_run
//! jointsim::joint_runtime::joint! {
//!     pub joint Glue {
//!         marker m0: Position;
//!         marker m1: Position;
//!         axes [x, y, z];
//!         position = m1.position - m0.position;
//!     }
//! }
//!
//! fn main() -> std::process::ExitCode {
//!     let registry = jointsim::joint_runtime::JointRegistry::exudyn().with::<Glue>();
//!     match registry {
//!         Ok(registry) => jointsim::main(registry),
//!         Err(e) => {
//!             eprintln!("{e}");
//!             std::process::ExitCode::FAILURE
//!         }
//!     }
//! }
//! ```
//!
//! The commands:
//!
//! ```text
//! jointsim run MODEL.json [--out RESULT.json] [--csv DIR] [--solution-file FILE] [--quiet]
//!              [--solver exact|fast]
//! jointsim check MODEL.json
//! jointsim sweep MODEL.json OVERRIDES.json [--out-dir DIR] [--jobs N] [--index LIST]
//!                [--check] [--quiet] [--solver exact|fast]
//! jointsim plot RESULT.json [--sensor N ...] -o FILE.png
//! jointsim scene MODEL.json [--result FILE] -o scene.glb [--solver exact|fast]
//! jointsim view MODEL.json [--result FILE] -o view.html [--solver exact|fast]
//! ```
//!
//! `sweep` runs MODEL once per entry of OVERRIDES, a JSON array of dictionaries from RFC 6901
//! JSON Pointers into the model file to new values (`[{"/objects/1/mass": 2.0}, …]`), in
//! parallel (`--jobs N` threads, default: all cores), and writes each run's result file, the
//! same as `run --out` on the overridden model, as DIR/MODEL.override-0007.json (DIR: `--out-dir`,
//! default the current folder). Every selected entry is read and assembled before any runs.
//! `--index 7` (or `0-9`, `1,4,9-12`) runs only those entries: one task of a job array.
//! `--check` validates and runs nothing. A summary table goes to standard output.
//!
//! Exit codes: 0 success, 1 invalid model (read or assemble) or invalid overrides, 2 usage,
//! 3 solver failure, 4 input/output error; for a sweep, the code of the first failed override,
//! the others' results being written. On any failure nothing is left behind: results are
//! written to a temporary file in the target folder and renamed into place only after success.

pub use joint_runtime;

mod files;
pub mod overrides;
mod plot;
mod progress;
mod scene;
mod solution;
mod sweep;

use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use joint_runtime::Error;
use joint_runtime::SolverMode;
use joint_runtime::joints::JointRegistry;
use joint_runtime::model::{Model, read_model_with, result_json};

#[derive(Parser)]
#[command(
    name = "jointsim",
    version,
    about = "Run Exudyn model files with generated joint kernels"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Solve a model file as it asks (dynamic or static) and write the result file.
    Run {
        /// The model file (Exudyn item dictionaries and simulation settings as JSON).
        model: PathBuf,
        /// Write the result here instead of to standard output.
        #[arg(long)]
        out: Option<PathBuf>,
        /// Also write each sensor's rows as DIR/NAME.csv (with a header).
        #[arg(long, value_name = "DIR")]
        csv: Option<PathBuf>,
        /// Also write Exudyn's coordinates solution file (header, then time and coordinates
        /// every solution.file.writePeriod), for Exudyn's LoadSolutionFile and SolutionViewer.
        #[arg(long, value_name = "FILE")]
        solution_file: Option<PathBuf>,
        /// No progress bar and no summary on standard error.
        #[arg(long)]
        quiet: bool,
        /// Solve K times, each from a fresh assembly, and report the fastest solver time
        /// (`statistics.solverSeconds`) with the last run's results: for benchmarks, where a
        /// process's first solve also pays for loading its code.
        #[arg(long, value_name = "K", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=10000))]
        repeat: u32,
        #[command(flatten)]
        solve: SolveArgs,
    },
    /// Read and assemble a model file, and print a summary; runs nothing.
    Check {
        /// The model file.
        model: PathBuf,
    },
    /// Run a model once per entry of an overrides file, in parallel; one result file each.
    Sweep {
        /// The model file.
        model: PathBuf,
        /// A JSON array of dictionaries, each mapping JSON Pointers into the model file to new
        /// values: `[{"/objects/1/mass": 2.0, "/simulationSettings/timeIntegration/endTime": 0.5}, …]`.
        overrides: PathBuf,
        /// Write the result files here, as MODEL.override-0007.json (created if missing).
        #[arg(long, value_name = "DIR", default_value = ".")]
        out_dir: PathBuf,
        /// Run this many at a time (default: one per core, or RAYON_NUM_THREADS).
        #[arg(long, value_name = "N")]
        jobs: Option<NonZeroUsize>,
        /// Run only these entries: K, A-B or a list (1,4,9-12); e.g. $SLURM_ARRAY_TASK_ID.
        #[arg(long, value_name = "LIST")]
        index: Option<String>,
        /// Read and assemble the selected entries' models, and run nothing.
        #[arg(long)]
        check: bool,
        /// No progress bar and no summary table.
        #[arg(long)]
        quiet: bool,
        #[command(flatten)]
        solve: SolveArgs,
    },
    /// Plot sensor values over time from a result file as a PNG, one subplot per sensor.
    Plot {
        /// The result file (`run --out`).
        result: PathBuf,
        /// Plot this sensor (index in the result file, or name); repeatable. Default: every
        /// sensor with stored values.
        #[arg(long, value_name = "N")]
        sensor: Vec<String>,
        /// Write the PNG here.
        #[arg(short, long, value_name = "FILE.png")]
        out: PathBuf,
    },
    /// Write the model's 3-D scene and motion as a glTF 2.0 binary (.glb), drawn as Exudyn
    /// draws it, the motion as an animation sampled at solution.file.writePeriod.
    Scene {
        /// The model file.
        model: PathBuf,
        /// Take the motion from this file instead of running the model: a coordinates solution
        /// file (`run --solution-file`, or Exudyn's own), or a result file (`run --out`: only
        /// its final state, so no animation).
        #[arg(long, value_name = "FILE")]
        result: Option<PathBuf>,
        /// Write the .glb here.
        #[arg(short, long, value_name = "FILE.glb")]
        out: PathBuf,
        /// No progress bar and no summary on standard error.
        #[arg(long)]
        quiet: bool,
        #[command(flatten)]
        solve: SolveArgs,
    },
    /// Write one self-contained HTML page (three.js inlined, works offline) that shows the
    /// model's scene and plays its motion, with play/pause and a time slider.
    View {
        /// The model file.
        model: PathBuf,
        /// Take the motion from this file instead of running the model (as for `scene`).
        #[arg(long, value_name = "FILE")]
        result: Option<PathBuf>,
        /// Write the page here.
        #[arg(short, long, value_name = "FILE.html")]
        out: PathBuf,
        /// No progress bar and no summary on standard error.
        #[arg(long)]
        quiet: bool,
        #[command(flatten)]
        solve: SolveArgs,
    },
}

/// `--storage-limit GIB` in bytes: a finite number of GiB above 0.
fn parse_gib(text: &str) -> Result<usize, String> {
    let gib: f64 = text
        .parse()
        .map_err(|_| format!("expected a number of GiB, found `{text}`"))?;
    if !(gib.is_finite() && gib > 0.0) {
        return Err(format!(
            "expected a finite number of GiB above 0, found {text}"
        ));
    }
    Ok((gib * (1u64 << 30) as f64).min(usize::MAX as f64) as usize)
}

/// A failure with its exit code.
pub(crate) struct Failure {
    code: u8,
    message: String,
}

impl Failure {
    fn model(e: Error) -> Self {
        Failure {
            code: 1,
            message: e.to_string(),
        }
    }

    fn io(message: String) -> Self {
        Failure { code: 4, message }
    }
}

fn load(path: &PathBuf, registry: &JointRegistry, solve: SolveArgs) -> Result<Model, Failure> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Failure::io(format!("cannot read {}: {e}", path.display())))?;
    let mut model = read_model_with(&text, registry).map_err(Failure::model)?;
    solve.apply(&mut model.settings);
    Ok(model)
}

/// The options of every command that solves a model: what they change in its settings.
#[derive(clap::Args, Clone, Copy, Debug)]
pub struct SolveArgs {
    /// Keep at most this many GiB of what the run records (sensor rows, the solution file,
    /// a scene's frames); a run that would keep more is refused before it starts. Default:
    /// half of the machine's memory.
    #[arg(long, value_name = "GIB", value_parser = parse_gib)]
    storage_limit: Option<usize>,
    /// `exact`: Exudyn's Newton path, its iteration counts and results to round-off.
    /// `fast`: the same step equations with this program's own Newton control, judged by
    /// accuracy (implicit dynamic solves; static and explicit solves are the same in both).
    /// `accurate`: Dormand–Prince 8(5,3) on the constrained equations (index 1), its steps
    /// chosen for `--tolerance`, projected onto the constraints after each step (implicit
    /// dynamic solves).
    #[arg(long, value_enum, default_value = "exact")]
    solver: SolverArg,
    /// The local error tolerance per step of `--solver accurate` (absolute and relative, in
    /// the coordinates' units). Default: 1e-6.
    #[arg(long, value_name = "TOL")]
    tolerance: Option<f64>,
    /// A converged step whose constraint rows (position level; velocity level with index-2
    /// constraints) miss by more than this, in each row's own units, fails the run, naming
    /// the item and row. Default: 1e-4.
    #[arg(long, value_name = "ABS")]
    constraint_tolerance: Option<f64>,
}

impl Default for SolveArgs {
    /// What no option asks: the model's own storage limit, the exact mode.
    fn default() -> Self {
        SolveArgs {
            storage_limit: None,
            solver: SolverArg::Exact,
            tolerance: None,
            constraint_tolerance: None,
        }
    }
}

impl SolveArgs {
    /// Set the model's `storage_limit`, constraint and error tolerances (if given) and solver
    /// mode.
    pub fn apply(&self, settings: &mut joint_runtime::SimulationSettings) {
        if self.storage_limit.is_some() {
            settings.storage_limit = self.storage_limit;
        }
        settings.solver_mode = self.solver.mode();
        if let Some(c) = self.constraint_tolerance {
            settings.constraint_tolerance = c;
        }
        if let Some(t) = self.tolerance {
            settings.error_tolerance = t;
        }
    }
}

/// `jointsim run`'s options besides the model.
struct RunOptions<'a> {
    out: Option<&'a PathBuf>,
    csv: Option<&'a PathBuf>,
    solution_file: Option<&'a PathBuf>,
    quiet: bool,
    repeat: u32,
    solve: SolveArgs,
}

/// `--solver`.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum SolverArg {
    Exact,
    Fast,
    Accurate,
}

impl SolverArg {
    fn mode(self) -> SolverMode {
        match self {
            SolverArg::Exact => SolverMode::Exact,
            SolverArg::Fast => SolverMode::Fast,
            SolverArg::Accurate => SolverMode::Accurate,
        }
    }
}

fn run(registry: &JointRegistry, model_path: &PathBuf, o: RunOptions) -> Result<(), Failure> {
    let RunOptions {
        out,
        csv,
        solution_file,
        quiet,
        repeat,
        solve,
    } = o;
    let model = load(model_path, registry, solve)?;
    let mut fastest = f64::INFINITY;
    for _ in 1..repeat {
        let mut sim = model.mbs.assemble().map_err(Failure::model)?;
        let (solved, _) = solution::solve(&mut sim, &model, false, &mut |_| {});
        solved.map_err(|e| Failure {
            code: 3,
            message: e.to_string(),
        })?;
        fastest = fastest.min(sim.statistics().solver_seconds);
    }
    let mut sim = model.mbs.assemble().map_err(Failure::model)?;
    // what the run would keep is checked before it starts (an invalid model, not a failed solve)
    let static_solve = model.solve == joint_runtime::model::SolveKind::Static;
    sim.check_storage(&model.settings, static_solve)
        .map_err(Failure::model)?;
    if solution_file.is_some() {
        let solver = if static_solve {
            joint_runtime::solution_file::SolutionFileSolver::Static
        } else {
            joint_runtime::solution_file::SolutionFileSolver::Dynamic
        };
        joint_runtime::solution_file::SolutionFile::check_storage(&sim, &model.settings, solver)
            .map_err(Failure::model)?;
    }
    let mut bar = progress::Bar::new(!quiet);
    let (solved, solution) = solution::solve(&mut sim, &model, solution_file.is_some(), &mut |p| {
        bar.update(p)
    });
    bar.finish();
    solved.map_err(|e| Failure {
        code: 3,
        message: e.to_string(),
    })?;
    // with --repeat, the fastest of the solves
    let solver_seconds = sim.statistics().solver_seconds.min(fastest);
    let mut result = result_json(&sim);
    result["statistics"]["solverSeconds"] = solver_seconds.into();
    let text = serde_json::to_string_pretty(&result).map_err(|e| Failure::io(e.to_string()))?;
    // Write everything to temporary files first; rename only when all succeeded.
    let mut pending = files::Pending::default();
    if let Some(dir) = csv {
        files::write_sensor_csvs(&mut pending, dir, &sim)?;
    }
    if let Some(path) = out {
        pending.add(path, text.as_bytes())?;
    }
    if let (Some(path), Some(file)) = (solution_file, solution) {
        pending.add(path, file.finish(&sim).as_bytes())?;
    }
    pending.commit()?;
    if out.is_none() {
        println!("{text}");
    }
    if !quiet {
        let s = sim.statistics();
        eprintln!(
            "jointsim: {} steps, {} Newton iterations, {} Jacobians, {:.3} ms solver time",
            s.steps,
            s.newton.iterations,
            s.newton.jacobians,
            solver_seconds * 1e3
        );
    }
    Ok(())
}

fn check(registry: &JointRegistry, model_path: &PathBuf) -> Result<(), Failure> {
    let model = load(model_path, registry, SolveArgs::default())?;
    let sim = model.mbs.assemble().map_err(Failure::model)?;
    println!("model: {}", model_path.display());
    print!("{}", joint_runtime::summary::summary(&model, &sim));
    Ok(())
}

/// Run `jointsim` with the process's arguments and the joint types of `registry`.
pub fn main(registry: JointRegistry) -> ExitCode {
    run_with_args(std::env::args_os(), registry)
}

/// Run `jointsim` with `args` (the program name first) and the joint types of `registry`;
/// messages go to standard output and error, and the exit code says how it went: 0 success,
/// 1 invalid model or overrides, 2 usage, 3 solver failure, 4 input/output error.
pub fn run_with_args<I, T>(args: I, registry: JointRegistry) -> ExitCode
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    let registry = &registry;
    let result = match &cli.command {
        Command::Run {
            model,
            out,
            csv,
            solution_file,
            quiet,
            repeat,
            solve,
        } => run(
            registry,
            model,
            RunOptions {
                out: out.as_ref(),
                csv: csv.as_ref(),
                solution_file: solution_file.as_ref(),
                quiet: *quiet,
                repeat: *repeat,
                solve: *solve,
            },
        ),
        Command::Check { model } => check(registry, model),
        Command::Sweep {
            model,
            overrides,
            out_dir,
            jobs,
            index,
            check,
            quiet,
            solve,
        } => sweep::sweep(&sweep::Options {
            registry,
            solve: *solve,
            model,
            overrides,
            out_dir,
            jobs: jobs.map(NonZeroUsize::get),
            index: index.as_deref(),
            check: *check,
            quiet: *quiet,
        }),
        Command::Plot {
            result,
            sensor,
            out,
        } => plot::plot(&plot::Options {
            result,
            sensors: sensor,
            out,
        }),
        Command::Scene {
            model,
            result,
            out,
            quiet,
            solve,
        } => scene::scene(&scene::Options {
            registry,
            solve: *solve,
            model,
            result: result.as_deref(),
            out,
            quiet: *quiet,
        }),
        Command::View {
            model,
            result,
            out,
            quiet,
            solve,
        } => scene::view(&scene::Options {
            registry,
            solve: *solve,
            model,
            result: result.as_deref(),
            out,
            quiet: *quiet,
        }),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            eprintln!("jointsim: error: {}", f.message);
            ExitCode::from(f.code)
        }
    }
}
