//! An assembled system: items, topology and state — what the solvers advance and the outputs
//! read.

use crate::assemble::Topology;
use crate::error::{Error, Result};
use crate::sensors::SensorRows;
use crate::solver::newton::NewtonStatistics;
use crate::system::MultibodySystem;

/// The state of the system (Exudyn's "current" configuration).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct State {
    pub time: f64,
    /// ODE2 coordinates (displacements relative to the reference).
    pub q: Vec<f64>,
    pub v: Vec<f64>,
    /// True accelerations.
    pub a: Vec<f64>,
    /// AE coordinates (Lagrange multipliers, unscaled).
    pub lambda: Vec<f64>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct SolverStatistics {
    pub steps: usize,
    pub newton: NewtonStatistics,
    pub last_step_size: f64,
    pub solver_seconds: f64,
    /// Whether the iteration matrix was factorized by the sparse LU (else the dense one).
    pub sparse_solver: bool,
    /// Stored entries of the sparse iteration matrix's pattern (0 with the dense LU).
    pub matrix_nonzeros: usize,
    /// Stored entries of the sparse LU factors at the end of the solve (0 with the dense LU).
    pub factor_nonzeros: usize,
    /// How the sparse LU's factorizations were done (all zero with the dense LU).
    pub sparse_factorizations: crate::linear::FactorizationCounts,
}

/// Where a running solve is (passed to progress callbacks after each step).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Progress {
    pub time: f64,
    pub start_time: f64,
    pub end_time: f64,
    pub steps: usize,
}

/// A system after `assemble()`.
#[derive(Clone, Debug)]
pub struct Simulation {
    pub mbs: MultibodySystem,
    pub topology: Topology,
    pub state: State,
    /// Per sensor: rows `[t, values…]`.
    pub sensor_data: Vec<SensorRows>,
    pub statistics: SolverStatistics,
}

impl MultibodySystem {
    /// Exudyn's `mbs.Assemble()`: check every item, lay out the coordinates, select the
    /// generated kernels, and set the state to the initial values.
    pub fn assemble(&self) -> Result<Simulation> {
        let topology = Topology::build(self)?;
        let mut q = Vec::with_capacity(topology.n_ode2);
        let mut v = Vec::with_capacity(topology.n_ode2);
        for node in &self.nodes {
            q.extend_from_slice(node.initial_coordinates());
            v.extend_from_slice(node.initial_velocities());
        }
        let n2 = topology.n_ode2;
        let nae = topology.n_ae;
        let mut sim = Simulation {
            mbs: self.clone(),
            state: State {
                time: 0.0,
                q,
                v,
                a: vec![0.0; n2],
                lambda: vec![0.0; nae],
            },
            sensor_data: Vec::with_capacity(self.sensors.len()),
            statistics: SolverStatistics::default(),
            topology,
        };
        // Evaluate every sensor once so that an output variable the item does not have is
        // reported now, not in the middle of a run; this also gives each sensor's row width.
        for i in 0..self.sensors.len() {
            let values = sim.sensor_value(i)?.len();
            sim.sensor_data.push(SensorRows::new(values));
        }
        Ok(sim)
    }
}

impl Simulation {
    /// The error for a singular iteration matrix, naming the items behind the equation.
    pub fn singular_error(&self, column: usize, t: f64) -> Error {
        let n2 = self.topology.n_ode2;
        let what = if column < n2 {
            let owner = &self.topology.ode2_owner[column];
            format!("ODE2 coordinate {column} of {owner}")
        } else {
            let k = column - n2;
            let owner = &self.topology.ae_owner[k];
            let mut bodies = Vec::new();
            if let Some(j) = self
                .topology
                .joints
                .iter()
                .find(|j| k >= j.ae && k < j.ae + j.rows())
            {
                for &m in &j.markers {
                    bodies.push(format!("{}", self.mbs.marker_ref(m)));
                }
            }
            if bodies.is_empty() {
                format!("algebraic equation {k} of {owner}")
            } else {
                format!(
                    "algebraic equation {k} of {owner} (markers {})",
                    bodies.join(", ")
                )
            }
        };
        Error::SingularSystem {
            message: format!(
                "the iteration matrix is singular at t = {t}: no pivot for {what}; check for redundant constraints or bodies without mass or constraint"
            ),
        }
    }

    pub fn clear_sensor_data(&mut self) {
        for d in &mut self.sensor_data {
            d.clear();
        }
    }
}
