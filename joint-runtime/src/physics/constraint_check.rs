//! The check after every accepted step that the constraint rows the solver solved hold: a run
//! that returns success has satisfied its equations. It reads the rows Newton's last residual
//! evaluated (no evaluation of its own) and names the worst.

use crate::assemble::Topology;
use crate::error::{Error, Result};

/// The worst constraint row of an AE residual vector: its AE index and residual (NaN counts as
/// worst).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WorstRow {
    /// The AE equation.
    pub ae: usize,
    /// Its residual, in the row's own units.
    pub residual: f64,
}

impl Topology {
    /// The constrained row of `g` (one entry per AE equation) with the largest |residual|:
    /// Euler-parameter normalizations, the constrained rows of active joints (free axes are
    /// `λ = 0`, no constraint), and active coordinate-vector joints' rows. `None` without any.
    pub fn worst_constraint_row(&self, g: &[f64]) -> Option<WorstRow> {
        let mut worst: Option<WorstRow> = None;
        let mut consider = |ae: usize| {
            let r = g[ae];
            let better = match worst {
                None => true,
                Some(w) => w.residual.is_finite() && !(r.abs() <= w.residual.abs()),
            };
            if better {
                worst = Some(WorstRow { ae, residual: r });
            }
        };
        for ep in &self.ep_constraints {
            consider(ep.ae);
        }
        for j in &self.joints {
            for k in (0..j.rows()).filter(|&k| j.row_constrained(k)) {
                consider(j.ae + k);
            }
        }
        for c in self.coordinate_vectors.iter().filter(|c| c.active) {
            for r in 0..c.rows {
                consider(c.ae + r);
            }
        }
        worst
    }

    /// The check after an accepted step at time `t`: the worst constrained row of `g` (the AE
    /// part of the residual Newton last evaluated, at the `level` being solved) against the
    /// absolute `tolerance`. The worst |residual|, or the error naming item, row, time and
    /// residual (the caller restores the last converged state).
    pub fn check_constraint_rows(
        &self,
        g: &[f64],
        tolerance: f64,
        t: f64,
        level: &str,
    ) -> Result<f64> {
        let Some(w) = self.worst_constraint_row(g) else {
            return Ok(0.0);
        };
        if w.residual.abs() <= tolerance {
            return Ok(w.residual.abs());
        }
        let equation = self.describe_ae_row(w.ae);
        Err(Error::solver_failed_at(
            format!(
                "the step to t = {t} converged with {equation} at {} (its {level}-level residual), beyond the constraint tolerance {tolerance} (SimulationSettings::constraint_tolerance); the state is the last converged step's",
                w.residual
            ),
            t,
            Some(equation),
            Some(w.residual),
        ))
    }

    /// The equation of a full residual vector `[ODE2; ODE1; AE]` with the largest |residual|
    /// (the first of equals): its index. `None` for an empty vector.
    pub fn worst_equation(r: &[f64]) -> Option<usize> {
        r.iter()
            .enumerate()
            .max_by(|a, b| a.1.abs().total_cmp(&b.1.abs()).then(b.0.cmp(&a.0)))
            .map(|(k, _)| k)
    }

    /// Equation `k` of a full residual vector `[ODE2; ODE1; AE]` as a user reads it.
    pub fn describe_equation(&self, k: usize) -> String {
        let (n2, ae0) = (self.n_ode2, self.ae_start());
        if k < n2 {
            format!("ODE2 coordinate {k} of {}", self.ode2_owner[k])
        } else if k < ae0 {
            format!("ODE1 coordinate {} of {}", k - n2, self.ode1_owner[k - n2])
        } else {
            self.describe_ae_row(k - ae0)
        }
    }

    /// AE equation `ae` as a user reads it: its item and, for a joint, the row by the name its
    /// definition gives it (`objects[4] (Screw), row \`screw\``).
    pub fn describe_ae_row(&self, ae: usize) -> String {
        let owner = &self.ae_owner[ae];
        if let Some(j) = self
            .joints
            .iter()
            .find(|j| ae >= j.ae && ae < j.ae + j.rows())
        {
            let k = ae - j.ae;
            return match j.row_kernel(k) {
                Some(r) => format!("{owner}, row `{}`", j.definition.axes[r]),
                None => format!("{owner}, free row {k}"),
            };
        }
        if self.ep_constraints.iter().any(|ep| ep.ae == ae) {
            return format!("{owner}, its Euler parameters' normalization |θ|² − 1");
        }
        if let Some(c) = self
            .coordinate_vectors
            .iter()
            .find(|c| ae >= c.ae && ae < c.ae + c.rows)
        {
            return format!("{owner}, row {}", ae - c.ae);
        }
        format!("{owner}, equation {ae}")
    }
}
