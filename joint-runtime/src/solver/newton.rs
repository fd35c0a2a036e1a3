//! Exudyn's Newton control (CSolverBase::Newton, spec/solver.md §4.1): modified Newton with its
//! Jacobian schedule, restarts and the forced extra iteration, shared by the dynamic and the
//! static solver.

use crate::linear::SingularColumn;
use crate::physics::ForwardDifference;
use crate::settings::NewtonSettings;
pub use crate::simulation::NewtonStatistics;

/// What Newton needs of a problem; the state lives in the problem.
pub trait NewtonProblem {
    /// Evaluate the residual at the current iterate and return its (unscaled) error norm.
    fn residual(&mut self) -> f64;
    /// Build and factorize the Jacobian at the current iterate.
    fn factorize_jacobian(&mut self) -> Result<(), SingularColumn>;
    /// Solve with the current factorization and apply the (subtracted) increment.
    fn apply_newton_step(&mut self);
    /// |q|² or |v|² ≥ `max_norm`, or NaN anywhere.
    fn diverged(&self, max_norm: f64) -> bool;
    /// Reset to the start of the step and redo the predictor.
    fn restart(&mut self);
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NewtonOutcome {
    Converged { iterations: usize },
    Failed { iterations: usize },
    Singular(SingularColumn),
}

/// One Newton solve. `jacobian_required` persists across calls (Exudyn keeps J̄ between steps).
pub fn newton(
    p: &mut impl NewtonProblem,
    s: &NewtonSettings,
    jacobian_required: &mut bool,
    stats: &mut NewtonStatistics,
) -> NewtonOutcome {
    let mut r0 = p.residual();
    if r0 <= s.absolute_tolerance {
        r0 = 2.0 * s.absolute_tolerance; // at least one iteration is always done
    }
    let mut last = r0;
    let mut restarted = false;
    let mut full = !s.use_modified_newton;
    let mut extra = false;
    let mut converged = false;
    let mut stop = false;
    let mut it = 0;
    let restart_limit = s.max_modified_newton_iterations
        + s.max_modified_newton_restart_iterations
            * usize::from(!s.modified_newton_jac_update_per_step);
    while !converged && !stop && it < s.max_iterations {
        it += 1;
        if *jacobian_required || full {
            stats.jacobians += 1;
            if let Err(col) = p.factorize_jacobian() {
                stats.iterations += it;
                return NewtonOutcome::Singular(col);
            }
            *jacobian_required = false;
        }
        p.apply_newton_step();
        let res = p.residual();
        if s.adapt_initial_residual && res > r0 && it <= 1 {
            r0 = res;
            last = res;
        }
        converged = res / r0 <= s.relative_tolerance || res <= s.absolute_tolerance || !s.active;
        if extra && converged {
            // forced extra iteration after a restart
            extra = false;
            converged = false;
        } else if !converged {
            extra = false;
            let diverged = p.diverged(s.maximum_solution_norm);
            if diverged && full {
                stop = true;
            }
            if !full && it > s.max_modified_newton_iterations {
                *jacobian_required = true;
            }
            if !full && it > restart_limit {
                full = true;
                stats.rejected_modified_newton_steps += 1;
            }
            let contractivity = res / last;
            last = res;
            if !full
                && s.use_modified_newton
                && (diverged || (contractivity > s.modified_newton_contractivity && it > 2))
            {
                *jacobian_required = true;
                if restarted {
                    full = true;
                    stats.rejected_modified_newton_steps += 1;
                }
                if !stop && (diverged || contractivity > 2.0 || full) {
                    restarted = true;
                    last = r0;
                    p.restart();
                    p.residual();
                    extra = true;
                }
            }
        }
    }
    stats.iterations += it;
    if converged && !stop {
        NewtonOutcome::Converged { iterations: it }
    } else {
        NewtonOutcome::Failed { iterations: it }
    }
}

/// The forward-difference increments of `newton.numericalDifferentiation`.
pub(super) fn forward_difference(newton: &NewtonSettings) -> ForwardDifference {
    let nd = &newton.numerical_differentiation;
    ForwardDifference {
        rel_eps: nd.relative_epsilon,
        min_coord: nd.minimum_coordinate_size,
    }
}
