//! `jointsim sweep MODEL.json OVERRIDES.json`: one model, many runs, each with one entry of
//! OVERRIDES applied (see `overrides.rs`), run in parallel and written one result file each.
//!
//! Each run is the same as `jointsim run` on the overridden model file: read, assemble and solve
//! on one thread, result file as `run --out` writes it. Runs share nothing, so the results do
//! not depend on `--jobs` or on the order in which the runs finish.

use std::path::{Path, PathBuf};
use std::time::Instant;

use joint_runtime::joints::JointRegistry;
use joint_runtime::model::{Model, SolveKind, read_model_with, result_json};
use joint_runtime::simulation::SolverStatistics;
use joint_runtime::{Error, Simulation};
use rayon::prelude::*;

use super::overrides::{Base, Entry, parse_overrides};
use super::{Failure, files, progress};

/// The options of `jointsim sweep`.
pub struct Options<'a> {
    pub registry: &'a JointRegistry,
    /// `--storage-limit` and `--solver`.
    pub solve: super::SolveArgs,
    pub model: &'a Path,
    pub overrides: &'a Path,
    pub out_dir: &'a Path,
    pub jobs: Option<usize>,
    pub index: Option<&'a str>,
    pub check: bool,
    pub quiet: bool,
}

/// At most this many validation errors are printed; the rest are counted.
const SHOWN_ERRORS: usize = 20;

/// The result file of entry `index` of a sweep of `count` entries: `STEM.override-0007.json`,
/// the index zero-padded to at least four digits (more if `count` needs them), so that the files
/// sort in index order and every task of a job array names them alike.
pub fn result_name(stem: &str, index: usize, count: usize) -> String {
    let width = count.saturating_sub(1).to_string().len().max(4);
    format!("{stem}.override-{index:0width$}.json")
}

/// `--index`: `7`, `0-9`, `1,4,9-12`, each index at most once, in ascending order.
fn select(spec: Option<&str>, count: usize) -> Result<Vec<usize>, Failure> {
    let Some(spec) = spec else {
        return Ok((0..count).collect());
    };
    let usage = |m: String| Failure {
        code: 2,
        message: m,
    };
    let parse = |s: &str| {
        s.trim().parse::<usize>().map_err(|_| {
            usage(format!(
                "--index {spec}: `{s}` is not an index (expected K, A-B or a comma-separated list of them)"
            ))
        })
    };
    let mut chosen = vec![false; count];
    for part in spec.split(',') {
        let (a, b) = match part.split_once('-') {
            Some((a, b)) => (parse(a)?, parse(b)?),
            None => {
                let k = parse(part)?;
                (k, k)
            }
        };
        if a > b {
            return Err(usage(format!("--index {spec}: the range {a}-{b} is empty")));
        }
        if b >= count {
            return Err(usage(format!(
                "--index {spec}: {b} is out of range, the overrides file has {count} entries (0 to {})",
                count - 1
            )));
        }
        chosen[a..=b].iter_mut().for_each(|c| *c = true);
    }
    Ok((0..count).filter(|&i| chosen[i]).collect())
}

/// Read and assemble one overridden model, and check its settings for the solve it asks.
fn prepare(
    registry: &JointRegistry,
    solve: super::SolveArgs,
    base: &Base,
    entry: &Entry,
) -> Result<(Model, Simulation), String> {
    let text = base.apply(entry)?;
    let mut model = read_model_with(&text, registry).map_err(|e| e.to_string())?;
    solve.apply(&mut model.settings);
    let sim = model.mbs.assemble().map_err(|e| e.to_string())?;
    match model.solve {
        SolveKind::Dynamic => model.settings.validate_dynamic(),
        SolveKind::Static => model.settings.validate_static(),
    }
    .map_err(|e: Error| e.to_string())?;
    sim.check_storage(&model.settings, model.solve == SolveKind::Static)
        .map_err(|e| e.to_string())?;
    Ok((model, sim))
}

/// What became of one run.
struct Outcome {
    index: usize,
    result: Result<SolverStatistics, Failure>,
}

/// Solve one overridden model and write its result file (atomically; on failure, an older
/// result file of the same name is removed so that the folder holds only this sweep's results).
fn run_one(
    registry: &JointRegistry,
    solve: super::SolveArgs,
    base: &Base,
    entry: &Entry,
    target: &Path,
) -> Result<SolverStatistics, Failure> {
    let outcome = (|| {
        let (model, mut sim) = prepare(registry, solve, base, entry)
            .map_err(|message| Failure { code: 1, message })?;
        let solved = sim.solve_observed(model.solve, &model.settings, &mut |_, _| {});
        solved.map_err(|e| Failure {
            code: 3,
            message: e.to_string(),
        })?;
        let text = serde_json::to_string_pretty(&result_json(&sim))
            .map_err(|e| Failure::io(e.to_string()))?;
        let mut pending = files::Pending::default();
        pending.add(target, text.as_bytes())?;
        pending.commit()?;
        Ok(sim.statistics().clone())
    })();
    if outcome.is_err() && target.exists() && std::fs::remove_file(target).is_err() {
        return outcome.map_err(|mut f: Failure| {
            f.message.push_str(&format!(
                " (and the older {} could not be removed)",
                target.display()
            ));
            f
        });
    }
    outcome
}

pub fn sweep(o: &Options) -> Result<(), Failure> {
    let started = Instant::now();
    let read = |p: &Path| {
        std::fs::read_to_string(p)
            .map_err(|e| Failure::io(format!("cannot read {}: {e}", p.display())))
    };
    let model_text = read(o.model)?;
    let overrides_text = read(o.overrides)?;
    let base = Base::new(&model_text).map_err(|e| Failure {
        code: 1,
        message: format!("{}: {e}", o.model.display()),
    })?;
    let entries = parse_overrides(&overrides_text).map_err(|e| Failure {
        code: 1,
        message: format!("{}: {e}", o.overrides.display()),
    })?;
    let selected = select(o.index, entries.len())?;

    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(n) = o.jobs {
        // more threads than entries run nothing more (and a billion would not start)
        builder = builder.num_threads(n.min(selected.len()).max(1));
    }
    let pool = builder
        .build()
        .map_err(|e| Failure::io(format!("cannot start the worker threads: {e}")))?;

    // Validate every selected entry before running any.
    let invalid: Vec<(usize, String)> = pool.install(|| {
        selected
            .par_iter()
            .filter_map(|&i| {
                prepare(o.registry, o.solve, &base, &entries[i])
                    .err()
                    .map(|e| (i, e))
            })
            .collect()
    });
    if !invalid.is_empty() {
        // The same failure without any override is the model's, not the overrides'.
        let own = prepare(o.registry, o.solve, &base, &Entry::default()).err();
        for (i, e) in invalid.iter().take(SHOWN_ERRORS) {
            let note = if own.as_deref() == Some(e.as_str()) {
                " (the model fails so without overrides too)"
            } else {
                ""
            };
            eprintln!(
                "jointsim: error: override {i} ({}): {e}{note}",
                entries[*i].describe()
            );
        }
        if invalid.len() > SHOWN_ERRORS {
            eprintln!(
                "jointsim: error: … and {} more invalid overrides",
                invalid.len() - SHOWN_ERRORS
            );
        }
        return Err(Failure {
            code: 1,
            message: format!(
                "{} of {} overrides are invalid; nothing was run",
                invalid.len(),
                selected.len()
            ),
        });
    }
    if o.check {
        if !o.quiet {
            println!(
                "{} of {} overrides read and assembled without error (nothing run)",
                selected.len(),
                entries.len()
            );
        }
        return Ok(());
    }

    let out_dir = o.out_dir;
    std::fs::create_dir_all(out_dir)
        .map_err(|e| Failure::io(format!("cannot create {}: {e}", out_dir.display())))?;
    let stem = o
        .model
        .file_stem()
        .map_or_else(|| "model".to_owned(), |s| s.to_string_lossy().into_owned());
    let targets: Vec<PathBuf> = (0..entries.len())
        .map(|i| out_dir.join(result_name(&stem, i, entries.len())))
        .collect();

    let bar = progress::Counter::new(!o.quiet, selected.len());
    let outcomes: Vec<Outcome> = pool.install(|| {
        selected
            .par_iter()
            .map(|&i| {
                let result = run_one(o.registry, o.solve, &base, &entries[i], &targets[i]);
                bar.inc();
                Outcome { index: i, result }
            })
            .collect()
    });
    bar.finish();

    let failed: Vec<&Outcome> = outcomes.iter().filter(|o| o.result.is_err()).collect();
    for out in &failed {
        if let Err(f) = &out.result {
            eprintln!(
                "jointsim: error: override {} ({}): {}",
                out.index,
                entries[out.index].describe(),
                f.message
            );
        }
    }
    if !o.quiet {
        print!("{}", table(&outcomes, &targets));
        println!(
            "{} of {} ok, {} failed; {:.3} s on {} threads",
            outcomes.len() - failed.len(),
            outcomes.len(),
            failed.len(),
            started.elapsed().as_secs_f64(),
            pool.current_num_threads()
        );
    }
    match failed.first() {
        None => Ok(()),
        Some(first) => Err(Failure {
            code: first.result.as_ref().err().map_or(3, |f| f.code),
            message: format!(
                "{} of {} overrides failed{}",
                failed.len(),
                outcomes.len(),
                if failed.len() < outcomes.len() {
                    "; the others' results are written"
                } else {
                    ""
                }
            ),
        }),
    }
}

/// The summary table: one row per run.
fn table(outcomes: &[Outcome], targets: &[PathBuf]) -> String {
    let mut s = format!(
        "{:>6}  {:<14}  {:>8}  {:>10}  {:>10}  result\n",
        "index", "status", "steps", "Newton it.", "solver s"
    );
    for o in outcomes {
        match &o.result {
            Ok(st) => s.push_str(&format!(
                "{:>6}  {:<14}  {:>8}  {:>10}  {:>10.4}  {}\n",
                o.index,
                "ok",
                st.steps,
                st.newton.iterations,
                st.solver_seconds,
                targets[o.index].display()
            )),
            Err(f) => {
                let status = match f.code {
                    1 => "invalid model",
                    3 => "solver failed",
                    4 => "i/o error",
                    _ => "failed",
                };
                s.push_str(&format!(
                    "{:>6}  {status:<14}  {:>8}  {:>10}  {:>10}  -\n",
                    o.index, "-", "-", "-"
                ));
            }
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn result_names_sort_in_index_order() {
        assert_eq!(result_name("m", 7, 100), "m.override-0007.json");
        assert_eq!(result_name("m", 7, 10_001), "m.override-00007.json");
        assert_eq!(result_name("m", 0, 1), "m.override-0000.json");
    }

    #[test]
    fn index_lists_and_ranges() {
        assert_eq!(select(Some("1"), 3).ok(), Some(vec![1]));
        assert_eq!(select(Some("4,0-2,1"), 5).ok(), Some(vec![0, 1, 2, 4]));
        assert_eq!(select(None, 2).ok(), Some(vec![0, 1]));
        for bad in ["3", "x", "2-1", "1-", ""] {
            let f = select(Some(bad), 3).unwrap_err();
            assert_eq!(f.code, 2, "{bad}");
        }
    }
}
