//! The motion a scene animates: the ODE2 coordinates at a sequence of times, recorded from a
//! solve, or read from a coordinates solution file (ours or Exudyn's) or a result file.

use serde_json::Value;

use crate::error::{Error, Result};
use crate::model::{Model, SolveKind};
use crate::simulation::{Progress, Simulation};
use crate::solution_file::{SolutionFileSolver, WriteSchedule, planned_rows};
use crate::storage::human_bytes;

/// ODE2 coordinates (displacements from the reference configuration, in Exudyn's global
/// order) at increasing times.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Motion {
    /// Times (s), increasing.
    pub times: Vec<f64>,
    /// Per time, the ODE2 coordinates.
    pub coordinates: Vec<Vec<f64>>,
}

fn motion_error(source: &str, message: impl std::fmt::Display) -> Error {
    Error::Model {
        message: format!("{source}: {message}"),
    }
}

impl Motion {
    /// Solve `sim` as `model` asks, keeping the coordinates whenever Exudyn would write a row
    /// of the solution file (`solution.file.writePeriod`, the initial values if
    /// `solution.writeInitialValues`, the final step always). `progress` sees each step.
    pub fn record(
        sim: &mut Simulation,
        model: &Model,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<Motion> {
        let solver = match model.solve {
            SolveKind::Dynamic => SolutionFileSolver::Dynamic,
            SolveKind::Static => SolutionFileSolver::Static,
        };
        // the frames are kept until the run ends: refuse a run that would keep too many
        let settings = &model.settings;
        let (start, end, steps) = solver.interval(settings);
        let frames = planned_rows(
            end - start,
            settings.solution.file.write_period,
            steps,
            false,
        );
        let bytes = frames as f64 * (sim.topology.n_ode2 as f64 + 1.0) * 8.0;
        let limit = settings.storage_limit_bytes();
        if bytes > limit as f64 {
            return Err(Error::setting(
                "solution.file.writePeriod",
                format!(
                    "the scene's motion would keep up to {frames} frames of {} coordinates ({}), more than the storage limit of {}: sample the motion less often (solution.file.writePeriod = {}), take fewer steps, or raise the limit (SimulationSettings::storage_limit, jointsim --storage-limit)",
                    sim.topology.n_ode2,
                    human_bytes(bytes),
                    human_bytes(limit as f64),
                    settings.solution.file.write_period
                ),
            ));
        }
        let mut schedule = WriteSchedule::solution_file(&model.settings, solver);
        let mut motion = Motion::default();
        let mut observer = |s: &Simulation, p: Progress| {
            if schedule.due(p) {
                motion.times.push(p.time);
                motion.coordinates.push(s.state.q.clone());
            }
            if p.steps > 0 {
                progress(p);
            }
        };
        sim.solve_observed(model.solve, &model.settings, &mut observer)?;
        Ok(motion)
    }

    /// The initial configuration alone.
    pub fn initial(sim: &Simulation) -> Motion {
        Motion {
            times: vec![sim.state.time],
            coordinates: vec![sim.state.q.clone()],
        }
    }

    /// Read `text` from the file `source` for a model with `n_ode2` ODE2 coordinates: a result
    /// file (`jointsim run --out`: one frame, its final `ode2Coordinates` at `time`) or a
    /// coordinates solution file (`jointsim run --solution-file`, or Exudyn's own
    /// `coordinatesSolution.txt`; rows of time and coordinates).
    pub fn read(text: &str, source: &str, n_ode2: usize) -> Result<Motion> {
        if text.trim_start().starts_with('{') {
            Self::from_result(text, source, n_ode2)
        } else {
            Self::from_solution_file(text, source, n_ode2)
        }
    }

    fn from_result(text: &str, source: &str, n_ode2: usize) -> Result<Motion> {
        let v: Value = serde_json::from_str(text)
            .map_err(|e| motion_error(source, format!("not a valid result file: {e}")))?;
        let time = v["time"]
            .as_f64()
            .ok_or_else(|| motion_error(source, "result file without a numeric `time`"))?;
        let q = v["ode2Coordinates"]
            .as_array()
            .and_then(|a| a.iter().map(Value::as_f64).collect::<Option<Vec<f64>>>())
            .ok_or_else(|| {
                motion_error(
                    source,
                    "result file without an `ode2Coordinates` array of numbers",
                )
            })?;
        if q.len() != n_ode2 {
            return Err(motion_error(
                source,
                format!(
                    "the result has {} ODE2 coordinates, the model {n_ode2}: not a result of this model",
                    q.len()
                ),
            ));
        }
        Ok(Motion {
            times: vec![time],
            coordinates: vec![q],
        })
    }

    fn from_solution_file(text: &str, source: &str, n_ode2: usize) -> Result<Motion> {
        // The header's written-coordinates line gives the row layout; a file without header
        // must at least hold time and the coordinates.
        let mut columns = None;
        for line in text.lines().filter(|l| l.starts_with('#')) {
            if let Some(rest) = line.strip_prefix("#number of written coordinates") {
                let list = rest
                    .rsplit_once('[')
                    .and_then(|(_, r)| r.split_once(']'))
                    .map(|(l, _)| l);
                let counts: Option<Vec<usize>> =
                    list.and_then(|l| l.split(',').map(|x| x.trim().parse().ok()).collect());
                match counts.as_deref() {
                    Some([n2, rest @ ..]) if rest.len() == 6 => {
                        if *n2 != n_ode2 {
                            return Err(motion_error(
                                source,
                                format!(
                                    "the solution file has {n2} ODE2 coordinates per row, the model {n_ode2}: not a solution of this model"
                                ),
                            ));
                        }
                        columns = Some(1 + n2 + rest.iter().sum::<usize>());
                    }
                    _ => {
                        return Err(motion_error(
                            source,
                            format!("cannot read the header line `{line}`"),
                        ));
                    }
                }
            }
        }
        let mut motion = Motion::default();
        for (k, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let row: std::result::Result<Vec<f64>, _> =
                line.split(',').map(|x| x.trim().parse::<f64>()).collect();
            let row = row.map_err(|e| {
                motion_error(
                    source,
                    format!("line {}: not a row of numbers ({e})", k + 1),
                )
            })?;
            let expected = columns.unwrap_or(1 + n_ode2);
            if row.len() < 1 + n_ode2 || (columns.is_some() && row.len() != expected) {
                return Err(motion_error(
                    source,
                    format!(
                        "line {}: {} columns, expected {expected} (time and the model's {n_ode2} ODE2 coordinates{})",
                        k + 1,
                        row.len(),
                        if columns.is_some() {
                            " and the exported rest"
                        } else {
                            ""
                        }
                    ),
                ));
            }
            if let Some(&last) = motion.times.last()
                && !(row[0] >= last)
            {
                return Err(motion_error(
                    source,
                    format!("line {}: time {} after {last}", k + 1, row[0]),
                ));
            }
            if row.iter().any(|x| !x.is_finite()) {
                return Err(motion_error(
                    source,
                    format!("line {}: a value is not finite", k + 1),
                ));
            }
            motion.times.push(row[0]);
            motion.coordinates.push(row[1..=n_ode2].to_vec());
        }
        if motion.times.is_empty() {
            return Err(motion_error(source, "no rows of coordinates"));
        }
        Ok(motion)
    }
}
