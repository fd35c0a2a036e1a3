//! Exudyn's coordinates solution file (`solution/coordinatesSolution.txt`), so that Exudyn's
//! `SolutionViewer` and `exudyn.utilities.LoadSolutionFile` can replay a run.
//!
//! The layout is Exudyn 1.13.6's text format (`solution.file.binary = False`):
//!
//! ```text
//! #Exudyn implicit second order time integration solver solution file
//! #simulation started=2026-12-02,02:01:18
//! #columns contain: time, ODE2 displacements, ODE2 velocities, ODE2 accelerations, AE coordinates
//! #number of system coordinates [nODE2, nODE1, nAlgebraic, nData] = [7,0,4,0]
//! #number of written coordinates [nODE2, nVel2, nAcc2, nODE1, nVel1, nAlgebraic, nData] = [7,7,7,0,0,4,0]
//! #total columns exported  (excl. time) = 25
//! #number of time steps (planned) = 1000
//! #jointsim version = …; Exudyn 1.13.6 solution file format; …
//! #
//! [#solution information = …]
//! 0,0,0,…,-24.7084788
//! …
//! #simulation finished=2026-12-02,02:01:18
//! #Solver Info: cpuTime=…,stepReductionFailed(or step failed)=0,…,total time steps=1000,total Newton iterations=6669,total Newton jacobians=209
//! ```
//!
//! `LoadSolutionFile` reads the fifth line (the written column counts) and every line not
//! starting with `#` as comma-separated numbers. A row is `time`, the ODE2 coordinates
//! (displacements from the reference), then — in the dynamic solver and if exported — their
//! velocities and accelerations, the ODE1 coordinates and (dynamic solvers, if exported) their
//! velocities, then the AE coordinates (if exported and there are any).
//! Numbers are written like C++ streams with `solution.precision` significant digits (`%.10g`).
//! The header (`solution.file.writeHeader`) and footer (`writeFooter`) lines are optional.
//! Rows are written when sensors are (`solution.file.writePeriod`, `writeInitialValues`, the
//! final step always); the static solver writes the load-step "time" and no velocities or
//! accelerations, as Exudyn's.

use std::fmt::Write;

use crate::SimulationSettings;
pub use crate::sensors::planned_rows;
use crate::simulation::{Progress, Simulation};

/// Which solver writes the file (the header's first and seventh lines differ).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolutionFileSolver {
    /// SolveDynamic's implicit solver.
    Dynamic,
    /// SolveStatic.
    Static,
}

/// When rows are written: at the start if `write_initial`, then at each multiple of
/// `period`, and after the final step always; the rule of Exudyn's sensor and solution files.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WriteSchedule {
    period: f64,
    /// The time the next row is due.
    next_row: f64,
    previous_time: f64,
    end_time: f64,
    write_initial: bool,
}

impl SolutionFileSolver {
    /// The solve's start and end time (load-step "time" for the static solver) and its
    /// planned number of steps.
    pub fn interval(self, settings: &SimulationSettings) -> (f64, f64, usize) {
        match self {
            SolutionFileSolver::Dynamic => {
                let ti = &settings.time_integration;
                (ti.start_time, ti.end_time, ti.number_of_steps)
            }
            SolutionFileSolver::Static => {
                let ss = &settings.static_solver;
                (
                    ss.load_step_start,
                    ss.load_step_start + ss.load_step_duration,
                    ss.number_of_load_steps,
                )
            }
        }
    }
}

impl WriteSchedule {
    /// The rows of the solution file (`solution.file.writePeriod`,
    /// `solution.writeInitialValues`) of a solve by `solver` with `settings`.
    pub fn solution_file(settings: &SimulationSettings, solver: SolutionFileSolver) -> Self {
        let (start, end, _) = solver.interval(settings);
        WriteSchedule::new(
            start,
            end,
            settings.solution.file.write_period,
            settings.solution.write_initial_values,
        )
    }

    /// Rows from `start` to `end` every `period`, and the initial one if `write_initial`.
    pub fn new(start: f64, end: f64, period: f64, write_initial: bool) -> Self {
        WriteSchedule {
            period,
            next_row: if write_initial { start + period } else { start },
            previous_time: start,
            end_time: end,
            write_initial,
        }
    }

    /// Whether a row is due for the solver's report `p` (`p.steps == 0`: the initial state,
    /// otherwise a completed step).
    pub fn due(&mut self, p: Progress) -> bool {
        let t = p.time;
        if p.steps == 0 {
            self.previous_time = t;
            return self.write_initial;
        }
        let h = t - self.previous_time;
        self.previous_time = t;
        if (t - self.end_time).abs() <= 1e-10 {
            self.next_row = self.end_time - h; // the final step is always written
        }
        if t - self.next_row >= -1e-10 {
            self.next_row = (self.next_row + self.period).max(t);
            true
        } else {
            false
        }
    }
}

/// Collects the solution file's text during a solve: pass [`SolutionFile::observe`] to
/// `Simulation::solve_observed`, then take [`SolutionFile::finish`].
#[derive(Clone, Debug)]
pub struct SolutionFile {
    text: String,
    precision: usize,
    schedule: WriteSchedule,
    write_footer: bool,
    velocities: bool,
    accelerations: bool,
    /// Whether rows hold ẏ (`export.ODE1Velocities`, dynamic solvers).
    ode1_velocities: bool,
    algebraic: bool,
    /// Whether rows hold the data coordinates (`export.dataCoordinates`).
    data: bool,
}

impl SolutionFile {
    /// Refuse a run whose solution file would take more than the storage limit in memory (the
    /// text is kept until the run ends): its planned rows ([`planned_rows`]) of time and the
    /// exported coordinates, each written with `solution.precision` digits.
    pub fn check_storage(
        sim: &Simulation,
        settings: &SimulationSettings,
        solver: SolutionFileSolver,
    ) -> crate::error::Result<()> {
        let f = &settings.solution.file;
        let (start, end, steps) = solver.interval(settings);
        let dynamic = solver == SolutionFileSolver::Dynamic;
        let n2 = sim.topology.n_ode2;
        let n1 = sim.topology.n_ode1;
        let columns = 1
            + n2
            + n1
            + if dynamic && f.export_ode1_velocities {
                n1
            } else {
                0
            }
            + if dynamic && f.export_velocities {
                n2
            } else {
                0
            }
            + if dynamic && f.export_accelerations {
                n2
            } else {
                0
            }
            + if f.export_algebraic_coordinates {
                sim.topology.n_ae
            } else {
                0
            }
            + if f.export_data_coordinates {
                sim.state.data.len()
            } else {
                0
            };
        let rows = planned_rows(end - start, f.write_period, steps, false);
        // a number: its digits, sign, point, exponent and separator
        let bytes = rows as f64 * columns as f64 * (f.precision as f64 + 8.0);
        let limit = settings.storage_limit_bytes();
        if bytes > limit as f64 {
            let steps_key = if dynamic {
                "timeIntegration.numberOfSteps"
            } else {
                "staticSolver.numberOfLoadSteps"
            };
            return Err(crate::error::Error::setting(
                "solution.file.writePeriod",
                format!(
                    "the solution file would hold up to {rows} rows of {columns} numbers ({}), more than the storage limit of {}: write rows less often (solution.file.writePeriod = {}), take fewer steps ({steps_key}), export fewer columns, or raise the limit (SimulationSettings::storage_limit, jointsim --storage-limit)",
                    crate::storage::human_bytes(bytes),
                    crate::storage::human_bytes(limit as f64),
                    f.write_period
                ),
            ));
        }
        Ok(())
    }

    /// A file for `sim` solved with `settings` by `solver`, with its header written.
    pub fn new(
        sim: &Simulation,
        settings: &SimulationSettings,
        solver: SolutionFileSolver,
    ) -> Self {
        let f = &settings.solution.file;
        let dynamic = solver == SolutionFileSolver::Dynamic;
        let (_, _, planned) = solver.interval(settings);
        let n2 = sim.topology.n_ode2;
        let n1 = sim.topology.n_ode1;
        let nae = sim.topology.n_ae;
        let velocities = dynamic && f.export_velocities;
        let ode1_velocities = dynamic && f.export_ode1_velocities;
        let accelerations = dynamic && f.export_accelerations;
        let algebraic = f.export_algebraic_coordinates;
        let data = f.export_data_coordinates;
        let n_data = sim.state.data.len();
        let mut text = String::new();
        if f.write_header {
            let solver_type = settings.time_integration.solver_type;
            let title = if !dynamic {
                "Exudyn nonlinear static solver static solver solution file".to_owned()
            } else if solver_type.is_explicit() {
                format!(
                    "Exudyn explicit time integration ({}) solver solution file",
                    solver_type.name()
                )
            } else {
                "Exudyn implicit second order time integration solver solution file".to_owned()
            };
            let mut columns = String::from("time");
            // (the static solver names velocities and accelerations here but writes none)
            if n2 > 0 {
                columns.push_str(", ODE2 displacements");
            }
            if f.export_velocities && n2 > 0 {
                columns.push_str(", ODE2 velocities");
            }
            if f.export_accelerations && n2 > 0 {
                columns.push_str(", ODE2 accelerations");
            }
            // Exudyn counts ẏ in the header by export.velocities, writes it by ODE1Velocities
            let header_ode1_velocities = if velocities { n1 } else { 0 };
            if n1 > 0 {
                columns.push_str(", ODE1 coordinates");
            }
            if header_ode1_velocities > 0 {
                columns.push_str(", ODE1 velocities");
            }
            if algebraic && nae > 0 {
                columns.push_str(", AE coordinates");
            }
            if data && n_data > 0 {
                columns.push_str(", Data coordinates");
            }
            let written = [
                n2,
                if velocities { n2 } else { 0 },
                if accelerations { n2 } else { 0 },
                n1,
                header_ode1_velocities,
                if algebraic { nae } else { 0 },
                if data { n_data } else { 0 },
            ];
            let total: usize = written.iter().sum();
            let written: Vec<String> = written.iter().map(|n| n.to_string()).collect();
            let _ = writeln!(text, "#{title}");
            let _ = writeln!(text, "#simulation started={}", now());
            let _ = writeln!(text, "#columns contain: {columns}");
            let _ = writeln!(
                text,
                "#number of system coordinates [nODE2, nODE1, nAlgebraic, nData] = [{n2},{n1},{nae},{n_data}]"
            );
            let _ = writeln!(
                text,
                "#number of written coordinates [nODE2, nVel2, nAcc2, nODE1, nVel1, nAlgebraic, nData] = [{}]",
                written.join(",")
            );
            let _ = writeln!(text, "#total columns exported  (excl. time) = {total}");
            let _ = writeln!(
                text,
                "#number of {} (planned) = {planned}",
                if dynamic { "time steps" } else { "load steps" }
            );
            let _ = writeln!(
                text,
                "#jointsim version = {}; Exudyn 1.13.6 solution file format; {} {} FLOAT64; 1 thread(s)",
                env!("CARGO_PKG_VERSION"),
                platform_name(),
                std::env::consts::ARCH
            );
            text.push_str("#\n");
            if !f.information.is_empty() {
                let _ = writeln!(text, "#solution information = {}", f.information);
            }
        }
        SolutionFile {
            text,
            precision: f.precision.max(1),
            schedule: WriteSchedule::solution_file(settings, solver),
            write_footer: f.write_footer,
            velocities,
            accelerations,
            ode1_velocities,
            algebraic,
            data,
        }
    }

    /// The observer: `p.steps == 0` is the initial state, otherwise a completed step. Writes a
    /// row when one is due, with the same rule as the sensors' rows.
    pub fn observe(&mut self, sim: &Simulation, p: Progress) {
        if self.schedule.due(p) {
            self.row(sim, p.time);
        }
    }

    fn row(&mut self, sim: &Simulation, t: f64) {
        let s = &sim.state;
        let p = self.precision;
        push_g(&mut self.text, t, p);
        let mut put = |values: &[f64]| {
            for &x in values {
                self.text.push(',');
                push_g(&mut self.text, x, p);
            }
        };
        put(&s.q);
        if self.velocities {
            put(&s.v);
        }
        if self.accelerations {
            put(&s.a);
        }
        put(&s.y);
        if self.ode1_velocities {
            put(&s.y_t);
        }
        if self.algebraic {
            put(&s.lambda);
        }
        if self.data {
            put(&s.data);
        }
        self.text.push('\n');
    }

    /// The whole file, with the footer (statistics of the finished solve in `sim`).
    pub fn finish(mut self, sim: &Simulation) -> String {
        if self.write_footer {
            let s = &sim.statistics;
            let _ = writeln!(self.text, "#simulation finished={}", now());
            let _ = writeln!(
                self.text,
                "#Solver Info: cpuTime={},stepReductionFailed(or step failed)=0,\
                 discontinuousIterationSuccessful=1,newtonSolutionDiverged=0,\
                 massMatrixNotInvertible=0,total time steps={},total Newton iterations={},\
                 total Newton jacobians={}",
                format_g(s.solver_seconds, 6),
                s.steps,
                s.newton.iterations,
                s.newton.jacobians
            );
        }
        self.text
    }
}

fn platform_name() -> &'static str {
    match std::env::consts::OS {
        "linux" => "Linux",
        "macos" => "MacOS",
        "windows" => "Windows",
        other => other,
    }
}

/// The current time (UTC) as Exudyn writes it: `2026-12-02,02:01:18`.
fn now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // civil date from days since 1970-01-01 (H. Hinnant's algorithm)
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02},{:02}:{:02}:{:02}",
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    )
}

/// `x` as C's `%.{precision}g` (C++ streams with `precision(p)`): `0`, `0.01`,
/// `-1.346578736e-07`, `-24.7084788`.
pub fn format_g(x: f64, precision: usize) -> String {
    let mut s = String::new();
    push_g(&mut s, x, precision);
    s
}

fn push_g(out: &mut String, x: f64, precision: usize) {
    if !x.is_finite() {
        out.push_str(if x.is_nan() {
            "nan"
        } else if x > 0.0 {
            "inf"
        } else {
            "-inf"
        });
        return;
    }
    let p = precision.max(1);
    if x == 0.0 {
        out.push('0'); // also for -0 (C would write -0; the value is the same)
        return;
    }
    // the exponent after rounding to p significant digits
    let sci = format!("{:.*e}", p - 1, x);
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    if exp < -4 || exp >= p as i32 {
        out.push_str(strip_zeros(mantissa));
        out.push('e');
        out.push(if exp < 0 { '-' } else { '+' });
        let _ = write!(out, "{:02}", exp.unsigned_abs());
    } else {
        let decimals = (p as i32 - 1 - exp).max(0) as usize;
        let fixed = format!("{x:.decimals$}");
        out.push_str(strip_zeros(&fixed));
    }
}

/// `1.2300` → `1.23`, `5.000` → `5`; integers unchanged.
fn strip_zeros(s: &str) -> &str {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::format_g;

    #[test]
    fn g_format_matches_c() {
        let cases: &[(f64, usize, &str)] = &[
            (0.0, 10, "0"),
            (0.01, 10, "0.01"),
            (1.0, 10, "1"),
            (-1.346578736e-07, 10, "-1.346578736e-07"),
            (-24.70847880299252, 10, "-24.7084788"),
            (-7.339152119700749, 10, "-7.33915212"),
            (0.9999999999999999, 16, "0.9999999999999999"),
            (0.9999999999999999, 10, "1"),
            (-5.227420059581898e-16, 10, "-5.22742006e-16"),
            (1e-5, 10, "1e-05"),
            (0.0001, 10, "0.0001"),
            (123456.0, 3, "1.23e+05"),
            (9.99995e-5, 5, "9.9999e-05"),
            (5.326e-05, 6, "5.326e-05"),
            (1e100, 10, "1e+100"),
        ];
        for &(x, p, want) in cases {
            assert_eq!(format_g(x, p), want, "{x:e} with precision {p}");
        }
    }
}
