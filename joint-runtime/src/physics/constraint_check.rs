//! The check after every accepted step that the constraint rows the solver solved hold: a run
//! that returns success has satisfied its equations. It reads the rows Newton's last residual
//! evaluated (no evaluation of its own) and names the worst.

use crate::assemble::Topology;

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
