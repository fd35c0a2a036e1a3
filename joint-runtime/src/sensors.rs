//! Sensor recording at Exudyn's write times (spec/items.md §7).

use crate::simulation::Simulation;
use crate::solver::settings::SimulationSettings;

/// Decides when rows are written: `last_written` is the time the next row is due.
pub struct SensorWriter {
    period: f64,
    last_written: f64,
    start_time: f64,
    active: bool,
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
        }
    }

    pub(crate) fn write_sensors_initial(&mut self, settings: &SimulationSettings) {
        if settings.solution.sensors_active && settings.solution.write_initial_values {
            self.record_sensors();
        }
    }

    /// Append one row `[t, values…]` per sensor.
    pub(crate) fn record_sensors(&mut self) {
        for i in 0..self.mbs.sensors.len() {
            if !self.mbs.sensors[i].store_internal {
                continue;
            }
            // Outputs were checked at assemble; a failure here cannot happen.
            let Ok(values) = self.sensor_value(i) else {
                continue;
            };
            let mut row = Vec::with_capacity(values.len() + 1);
            row.push(self.state.time);
            row.extend(values);
            self.sensor_data[i].push(row);
        }
    }
}

impl SensorWriter {
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
            sim.record_sensors();
            self.last_written = (self.last_written + self.period).max(t);
        }
    }
}
