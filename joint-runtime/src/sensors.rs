//! Sensor recording at Exudyn's write times (spec/items.md §7).

use crate::error::{Error, Result};
use crate::output::Outputs;
use crate::settings::SimulationSettings;
use crate::simulation::Simulation;
use crate::storage::human_bytes;

/// The most rows a run of `steps` steps over `duration` writes every `period`: the initial row,
/// then at most one per step and at most one per period (each row moves the next due time on by
/// a period) plus the final step's. With `adaptive` steps the step count is not bounded by
/// `steps`: then the period's bound alone. Saturating: absurd settings give `usize::MAX`, not a
/// wrapped count.
pub fn planned_rows(duration: f64, period: f64, steps: usize, adaptive: bool) -> usize {
    let periods = if period > 0.0 && (duration / period).is_finite() {
        // `as` saturates at usize::MAX for huge ratios
        ((duration / period).ceil() as usize).saturating_add(2)
    } else {
        usize::MAX
    };
    let rows = if adaptive {
        periods
    } else {
        periods.min(steps)
    };
    rows.saturating_add(1)
}

/// What recording a row needs, prepared before the run: the buffer of total coordinates.
pub(crate) struct SensorRecorder {
    qt: Vec<f64>,
}

impl SensorRecorder {
    fn new(sim: &Simulation) -> Self {
        SensorRecorder {
            qt: vec![0.0; sim.topology.n_ode2],
        }
    }
}

/// Decides when rows are written: `last_written` is the time the next row is due.
pub struct SensorWriter {
    period: f64,
    last_written: f64,
    start_time: f64,
    active: bool,
    recorder: SensorRecorder,
    states: crate::physics::StateScratch,
    /// The data coordinates at a step's start, where the solver keeps none.
    data_start: Vec<f64>,
}

impl Simulation {
    pub(crate) fn sensor_writer(&self, settings: &SimulationSettings) -> SensorWriter {
        let start = settings.time_integration.start_time;
        let period = settings.solution.sensors_write_period;
        SensorWriter {
            period,
            last_written: if settings.solution.write_initial_values {
                start + period
            } else {
                start
            },
            start_time: start,
            active: settings.solution.sensors_active,
            recorder: SensorRecorder::new(self),
            states: crate::physics::StateScratch::default(),
            data_start: Vec::new(),
        }
    }

    /// Clear the stored rows and reserve room for every row a run of `steps` steps over
    /// `duration` writes ([`planned_rows`]; with `adaptive` steps, which may take more steps
    /// than planned, at most 4·`steps`, at least 1024, and the storage grows only past that).
    /// Refused, before anything is stored, if the planned rows would take more than the storage
    /// limit: `steps_key` names the setting that sets the step count.
    pub(crate) fn prepare_sensor_data(
        &mut self,
        settings: &SimulationSettings,
        steps: usize,
        duration: f64,
        adaptive: bool,
        steps_key: &str,
    ) -> Result<()> {
        self.check_sensor_storage(settings, steps, duration, steps_key)?;
        self.clear_sensor_data();
        let Some((rows, storing)) = self.stored_sensor_rows(settings, steps, duration) else {
            return Ok(());
        };
        let period = settings.solution.sensors_write_period;
        let reserve = if adaptive {
            planned_rows(duration, period, steps, true).min(steps.saturating_mul(4).max(1024))
        } else {
            rows
        };
        for &i in &storing {
            self.sensor_data[i].reserve(reserve);
        }
        Ok(())
    }

    /// The rows a run of `steps` steps over `duration` writes ([`planned_rows`]) and the sensors
    /// that keep them (storeInternal); `None` with the sensors inactive.
    fn stored_sensor_rows(
        &self,
        settings: &SimulationSettings,
        steps: usize,
        duration: f64,
    ) -> Option<(usize, Vec<usize>)> {
        let solution = &settings.solution;
        if !solution.sensors_active {
            return None;
        }
        let rows = planned_rows(duration, solution.sensors_write_period, steps, false);
        let storing = (0..self.mbs.sensors.len())
            .filter(|&i| self.mbs.sensors[i].store_internal)
            .collect();
        Some((rows, storing))
    }

    /// The check of [`Simulation::prepare_sensor_data`]: the rows the sensors with
    /// `storeInternal` keep over a run of `steps` steps over `duration` fit in the storage limit.
    pub(crate) fn check_sensor_storage(
        &self,
        settings: &SimulationSettings,
        steps: usize,
        duration: f64,
        steps_key: &str,
    ) -> Result<()> {
        let Some((rows, storing)) = self.stored_sensor_rows(settings, steps, duration) else {
            return Ok(());
        };
        let period = settings.solution.sensors_write_period;
        let values: usize = storing.iter().map(|&i| self.sensor_data[i].width()).sum();
        let bytes = (rows as f64) * (values as f64) * 8.0;
        let limit = settings.storage_limit_bytes();
        if bytes > limit as f64 {
            return Err(Error::setting(
                steps_key,
                format!(
                    "the run would keep up to {rows} rows of {} sensor(s) with storeInternal ({} values a row, {}), more than the storage limit of {}: write sensor rows less often (solution.sensorsWritePeriod = {period}), take fewer steps, set storeInternal false, or raise the limit (SimulationSettings::storage_limit, jointsim --storage-limit)",
                    storing.len(),
                    values,
                    human_bytes(bytes),
                    human_bytes(limit as f64)
                ),
            ));
        }
        Ok(())
    }

    /// Whether a dynamic (or, with `static_solve`, static) solve with `settings` keeps what its
    /// sensors record within the storage limit; the solvers refuse it before they start.
    pub fn check_storage(&self, settings: &SimulationSettings, static_solve: bool) -> Result<()> {
        if static_solve {
            let ss = &settings.static_solver;
            self.check_sensor_storage(
                settings,
                ss.number_of_load_steps,
                ss.load_step_duration,
                "staticSolver.numberOfLoadSteps",
            )
        } else {
            let ti = &settings.time_integration;
            self.check_sensor_storage(
                settings,
                ti.number_of_steps,
                ti.end_time - ti.start_time,
                "timeIntegration.numberOfSteps",
            )
        }
    }

    pub(crate) fn write_sensors_initial(&mut self, settings: &SimulationSettings) {
        if settings.solution.sensors_active && settings.solution.write_initial_values {
            let mut recorder = SensorRecorder::new(self);
            self.record_sensors(&mut recorder);
        }
    }

    /// Append one row `[t, values…]` per sensor (no allocation while the rows have room).
    fn record_sensors(&mut self, recorder: &mut SensorRecorder) {
        self.topology
            .total_coordinates(&self.state.q, &mut recorder.qt);
        for i in 0..self.mbs.sensors.len() {
            if !self.mbs.sensors[i].store_internal {
                continue;
            }
            let mut rows = std::mem::take(&mut self.sensor_data[i]);
            let len = rows.data.len();
            rows.data.push(self.state.time);
            // Outputs were checked at assemble; a failure here cannot happen.
            let outputs = Outputs {
                mbs: &self.mbs,
                topology: &self.topology,
                state: &self.state,
            };
            let recorded = outputs.sensor_values(i, &recorder.qt, &mut rows.data);
            if recorded.is_err() || rows.data.len() != len + rows.width {
                debug_assert!(recorded.is_err(), "sensor {i}: row width changed");
                rows.data.truncate(len);
            }
            self.sensor_data[i] = rows;
        }
    }
}

impl SensorWriter {
    /// After a converged step, before its outputs: Exudyn's PostNewtonStep. The data
    /// coordinates its objects update (a TorsionalSpringDamper's continuous angle; Exudyn's
    /// explicit solvers update them after each step too) and the items' states
    /// (`physics/states.rs`), through the recorder's buffer of total coordinates. Returns the
    /// discontinuous error: the largest change the new states make to their items' equations
    /// at `level` (0 without states).
    pub(crate) fn post_newton(
        &mut self,
        sim: &mut Simulation,
        level: crate::items::joints::ConstraintLevel,
        data_start: Option<&[f64]>,
    ) -> crate::items::connectors::PostNewton {
        if sim.state.data.is_empty() {
            return Default::default();
        }
        let qt = &mut self.recorder.qt;
        sim.topology.total_coordinates(&sim.state.q, qt);
        // the data at the step's start (an explicit step's single PostNewton: the current)
        let start = match data_start {
            Some(d) => d,
            None => {
                self.data_start.clear();
                self.data_start.extend_from_slice(&sim.state.data);
                &self.data_start
            }
        };
        let mut connectors =
            sim.topology
                .connector_post_newton(qt, &sim.state.v, &mut sim.state.data, start);
        if sim.topology.item_states.is_empty() {
            return connectors;
        }
        let states = sim.topology.post_newton(
            qt,
            &sim.state.v,
            level,
            &mut sim.state.data,
            &mut self.states,
        );
        sim.mirror_item_states();
        // Exudyn's PostNewtonStep: the largest error of the items
        connectors.error = states.max(connectors.error);
        connectors
    }

    /// The next write time if a row is due more than round-off before `t` (a step ending at
    /// `t` passed it): the accurate mode records it from its state interpolated there
    /// ([`SensorWriter::record_due`]). None for a write period of 0 (every step), and before
    /// the first row of a run without its initial values (whose rows start at the first step's
    /// end, as Exudyn's).
    pub(crate) fn due_before(&self, t: f64) -> Option<f64> {
        let due = self.active
            && self.period > 0.0
            && self.last_written > self.start_time
            && self.last_written < t - 1e-10;
        due.then_some(self.last_written)
    }

    /// Record the row due at [`SensorWriter::due_before`] from the simulation's state (which
    /// the caller has set to that time), and move to the next write time.
    pub(crate) fn record_due(&mut self, sim: &mut Simulation) {
        sim.record_sensors(&mut self.recorder);
        self.last_written += self.period;
    }

    /// Called after each completed step of size `h`.
    pub(crate) fn after_step(&mut self, sim: &mut Simulation, h: f64, end_time: f64) {
        if !self.active {
            return;
        }
        let t = sim.state.time;
        if (t - end_time).abs() <= 1e-10 {
            self.last_written = end_time - h; // the final step is always written
        }
        if t == self.start_time || t - self.last_written >= -1e-10 {
            sim.record_sensors(&mut self.recorder);
            self.last_written = (self.last_written + self.period).max(t);
        }
    }
}
