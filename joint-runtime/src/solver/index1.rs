//! The index-1 form of the constrained equations at a state: the accelerations and multipliers
//! from
//!
//! ```text
//! [ M    C_qᵀ ] [ q̈ ]   [ f ]
//! [ C_q  D    ] [ λ ] = [ c ]
//! ```
//!
//! (c = −(∂(C_q v)/∂q)·v, the convective term; D = 1 on free axes and inactive joints, whose
//! λ is then 0), and the projection of positions and velocities onto the constraints with the
//! same matrix. The accurate mode evaluates it at every Runge–Kutta stage; its factorization
//! at a step's last stage serves that step's projection.

use crate::assemble::Topology;
use crate::error::{Error, Result};
use crate::items::joints::ConstraintLevel;
use crate::linear::{LinearSystem, MatrixAccumulator, assemble_into};
use crate::physics::{ConstraintJacobian, ConstraintRowFactors, ConvectiveTerm, Scratch};
use crate::settings::{SimulationSettings, SolverMode};

/// The index-1 system of one run: its matrix (pattern recorded once), right-hand side and
/// buffers; nothing allocates per evaluation.
pub(crate) struct Index1 {
    system: LinearSystem,
    qt: Vec<f64>,
    /// `[f; 0; c]`, then the solution `[q̈; 0; λ]`.
    x: Vec<f64>,
    /// 1 on rows whose λ is 0 (free axes, inactive joints).
    free: Vec<f64>,
    /// Rows of joints written at velocity level: no position-level projection.
    velocity_rows: Vec<bool>,
    /// Constraint residuals, convective terms.
    g: Vec<f64>,
    scratch: Scratch,
}

/// `[M C_qᵀ; C_q D]` (the ODE1 block the identity) at total coordinates `qt`.
pub(super) fn assemble(
    topo: &Topology,
    qt: &[f64],
    m: &mut impl MatrixAccumulator,
    scratch: &mut Scratch,
) {
    topo.add_mass_matrix(qt, 1.0, m, scratch);
    // the ODE1 block the identity: ODE1 coordinates are integrated on their own
    topo.add_ode1_diagonal(1.0, m);
    let (unit, exudyn) = (ConstraintRowFactors::UNIT, ConstraintJacobian::Exudyn);
    topo.add_constraint_blocks(qt, unit, 1.0, exudyn, m, scratch);
}

impl Index1 {
    /// The system for `topo`, its elimination chosen as the fast mode's (block elimination
    /// along the body–joint graph for sparse systems) when `settings.solver_mode` is not exact.
    pub(crate) fn new(topo: &Topology, settings: &SimulationSettings) -> Index1 {
        let n2 = topo.n_ode2;
        let n = topo.ae_start() + topo.n_ae;
        let mut scratch = Scratch::for_topology(topo);
        let qt = topo.reference.clone();
        let mut system = LinearSystem::for_solver_type(n, settings.linear_solver, |recorder| {
            assemble(topo, &qt, recorder, &mut scratch)
        });
        if settings.solver_mode != SolverMode::Exact {
            system.use_threshold_pivoting(super::fast_newton::PIVOT_THRESHOLD);
            system.use_two_way_ordering();
            system.use_block_elimination();
        }
        let mut free = vec![0.0; topo.n_ae];
        topo.constraint_lambda_diagonal(&mut free);
        let mut velocity_rows = vec![false; topo.n_ae];
        let exudyn = ConstraintJacobian::Exudyn;
        topo.for_each_constraint_jacobian_row(&qt, exudyn, &mut scratch, |row, _, _| {
            velocity_rows[row.ae] = row.velocity_level;
        });
        Index1 {
            system,
            qt: vec![0.0; n2],
            x: vec![0.0; n],
            free,
            velocity_rows,
            g: vec![0.0; topo.n_ae],
            scratch,
        }
    }

    /// q̈ and λ at displacements `q`, velocities `v` and data coordinates `data`; the matrix
    /// stays factorized for [`Index1::project`]. An error names the equation where the system
    /// is singular, at time `t`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn accelerations(
        &mut self,
        topo: &Topology,
        q: &[f64],
        v: &[f64],
        data: &[f64],
        t: f64,
        a: &mut [f64],
        lambda: &mut [f64],
    ) -> Result<()> {
        let n2 = topo.n_ode2;
        let ae = topo.ae_start();
        topo.total_coordinates(q, &mut self.qt);
        let (qt, scratch) = (&self.qt, &mut self.scratch);
        assemble_into!(self.system.cleared_matrix(), |m| assemble(
            topo, qt, m, scratch
        ));
        if let Err(col) = self.system.factorize() {
            let k = col.0;
            let equation = if k < n2 {
                topo.ode2_owner[k].to_string()
            } else if k >= ae {
                topo.describe_ae_row(k - ae)
            } else {
                format!("ODE1 coordinate {}", k - n2)
            };
            return Err(Error::solver_failed_at(
                format!(
                    "the accurate mode's index-1 system [M C_qᵀ; C_q 0] is singular at t = {t} \
                     in the column of {equation} (redundant constraints, or a body without \
                     mass); the state is the last accepted step's"
                ),
                t,
                Some(equation),
                None,
            ));
        }
        self.x.fill(0.0);
        topo.ode2_rhs(&self.qt, v, data, 1.0, &mut self.x[..n2], &mut self.scratch);
        let term = ConvectiveTerm::Accurate;
        topo.convective_constraint_term(&self.qt, v, term, &mut self.g, &mut self.scratch);
        for (k, (c, free)) in self.g.iter().zip(&self.free).enumerate() {
            self.x[ae + k] = if *free != 0.0 { 0.0 } else { *c };
        }
        self.system.solve_in_place(&mut self.x);
        a.copy_from_slice(&self.x[..n2]);
        lambda.copy_from_slice(&self.x[ae..]);
        Ok(())
    }

    /// Project `q` onto the position-level rows (g(q) = 0) and then `v` onto the velocity
    /// level (C_q v + b = 0), each by simplified Newton steps in the mass matrix's metric,
    /// `[M C_qᵀ; C_q D][Δ; μ] = [0; −g]`, with the factorization the last
    /// [`Index1::accelerations`] left (at a state within the local error of this one), until
    /// every constrained row is within `tolerance`. Returns the largest |g| left of the
    /// position rows (the caller's constraint check reads `residual()`).
    pub(crate) fn project(
        &mut self,
        topo: &Topology,
        q: &mut [f64],
        v: &mut [f64],
        lambda: &[f64],
        tolerance: f64,
    ) -> f64 {
        const ITERATIONS: usize = 8;
        let n2 = topo.n_ode2;
        let ae = topo.ae_start();
        for level in [ConstraintLevel::Position, ConstraintLevel::Velocity] {
            for _ in 0..ITERATIONS {
                topo.total_coordinates(q, &mut self.qt);
                topo.constraint_residual(
                    &self.qt,
                    v,
                    lambda,
                    level,
                    &mut self.g,
                    &mut self.scratch,
                );
                let position = level == ConstraintLevel::Position;
                if position {
                    // rows written at velocity level are the velocity projection's
                    for (g, &velocity) in self.g.iter_mut().zip(&self.velocity_rows) {
                        if velocity {
                            *g = 0.0;
                        }
                    }
                }
                if !(self.constrained_max() > tolerance) {
                    break;
                }
                self.x.fill(0.0);
                for (k, (g, free)) in self.g.iter().zip(&self.free).enumerate() {
                    self.x[ae + k] = if *free != 0.0 { 0.0 } else { -g };
                }
                self.system.solve_in_place(&mut self.x);
                let x = match level {
                    ConstraintLevel::Position => &mut *q,
                    ConstraintLevel::Velocity => &mut *v,
                };
                for (x, d) in x.iter_mut().zip(&self.x[..n2]) {
                    *x += d;
                }
            }
        }
        // the position rows as they are now, for the caller's check
        topo.total_coordinates(q, &mut self.qt);
        let level = ConstraintLevel::Position;
        topo.constraint_residual(&self.qt, v, lambda, level, &mut self.g, &mut self.scratch);
        self.constrained_max()
    }

    /// f1(y), the ODE1 coordinates' derivatives.
    pub(crate) fn ode1(&mut self, topo: &Topology, y: &[f64], f1: &mut [f64]) {
        topo.ode1_rhs(y, f1, &mut self.scratch);
    }

    /// The constraint residuals [`Index1::project`] left (position level, all AE rows).
    pub(crate) fn residual(&self) -> &[f64] {
        &self.g
    }

    fn constrained_max(&self) -> f64 {
        self.g
            .iter()
            .zip(&self.free)
            .filter(|(_, free)| **free == 0.0)
            .fold(0.0, |m, (g, _)| {
                if g.abs() > m || g.is_nan() {
                    g.abs()
                } else {
                    m
                }
            })
    }

    /// Whether the system is factorized by the sparse LU, its pattern's and factors' sizes.
    pub(crate) fn system(&self) -> &LinearSystem {
        &self.system
    }
}
