//! The fast path's Newton control ([`SolverMode::Fast`](super::settings::SolverMode::Fast)):
//! the same step equations as Exudyn's, solved from a better start, with its own Jacobian
//! renewal and stopping test. It is judged by accuracy against a tightly converged solution
//! (tests/fast_solver.rs), not by Exudyn's iteration counts.
//!
//! What differs from [`newton`](super::newton::newton), and why:
//! - **Start.** Exudyn starts each step from its predictor with ä = 0 and λ = 0, so its first
//!   residual is about ‖f‖ and Newton has to remove 8 orders of magnitude. The fast path starts
//!   from the same predictor moved to ä and λ extrapolated linearly from the last two steps,
//!   whose residual is smaller by orders of magnitude.
//! - **Stopping.** The residual test refers to ‖f‖ at the start of the step (Exudyn's first
//!   residual is about that), not to the start's own residual, which would ask more of a
//!   better start. It is stricter than Exudyn's ([`TOLERANCE_FACTOR`]), and the last Newton
//!   increment must be small too ([`INCREMENT_FACTOR`]): the force residual hardly sees an
//!   error in the constraint rows (metres beside newtons), which Exudyn's slow contraction
//!   removes by overshooting the tolerance and a quick stop would leave in place.
//! - **Jacobian.** Kept across steps and renewed at the current iterate when an iteration
//!   contracts the residual by less than [`RENEW_CONTRACTION`], or would need more than
//!   [`MAX_PREDICTED_ITERATIONS`] iterations at its contraction, or when the step size changed
//!   since it was built (its entries hold s, β', γ'). Exudyn renews only after two iterations
//!   and restarts the step.
//! - **Failure.** A step this control does not solve goes to Exudyn's control from Exudyn's
//!   predictor with a new Jacobian before the step size is reduced (the caller does this), so
//!   the fast path converges wherever the exact path does.

use super::newton::{NewtonOutcome, NewtonProblem, NewtonStatistics};
use super::settings::NewtonSettings;

/// A contraction ‖r_{k+1}‖/‖r_k‖ above this renews the Jacobian at the current iterate. A
/// Jacobian built at the iterate converges in one iteration to round-off on the chains; one
/// kept over many steps contracts by 1e-2 or better after the first iteration, whose
/// contraction is poorer (its constraint correction, made with a Jacobian of other positions,
/// reappears amplified by 1/s in the force rows).
pub(super) const RENEW_CONTRACTION: f64 = 0.5;

/// A Jacobian that contracts well enough but would still need more than this many iterations
/// to reach the tolerance (far from the solution: a large first correction) is renewed too.
pub(super) const MAX_PREDICTED_ITERATIONS: f64 = 4.0;

/// The fast path's residual test: ‖r‖ ≤ this × `relativeTolerance` × ‖f‖ (after at least one
/// iteration). Exudyn stops at `relativeTolerance` × its first residual (about ‖f‖), but its
/// last iteration usually lands well below. Measured with the increment test below over every
/// dynamic model of tests/fast_solver.rs: 1 leaves final coordinates up to 6.5 times further
/// from the tightly converged solution than Exudyn's, 0.3 up to 2.7 times, 0.1 up to 2.6 times
/// (a file asking `relativeTolerance` 1e-10), 0.03 within 1.5 times Exudyn's everywhere.
pub(super) const TOLERANCE_FACTOR: f64 = 0.03;

/// The fast path's increment test: max |Δq| ≤ this × `relativeTolerance` × max(1, max |q|)
/// for the last Newton step (but not below [`INCREMENT_FLOOR`] × the same scale, which round-off
/// in the solve may not reach). With `relativeTolerance` = 1e-8, 1e-12 for coordinates of
/// order 1.
pub(super) const INCREMENT_FACTOR: f64 = 1e-4;

/// The round-off floor of the increment test, relative to the coordinates' scale.
pub(super) const INCREMENT_FLOOR: f64 = 64.0 * f64::EPSILON;

/// What the fast Newton control needs beyond Exudyn's.
pub(super) trait FastNewtonProblem: NewtonProblem {
    /// Go to the start of the step: the predictor, moved to the extrapolated ä and λ.
    fn fast_start(&mut self);
    /// ‖f‖ (weighted like the residual norm) at the last residual evaluation.
    fn force_norm(&self) -> f64;
    /// max |Δq| of the last Newton step.
    fn increment_norm(&self) -> f64;
    /// max(1, max |q|): the scale of the increment test.
    fn coordinate_scale(&self) -> f64;
}

/// One step's Newton solve on the fast path. `jacobian_stale` persists across steps: the
/// factorization is reused until it contracts too slowly (or the caller marks it stale).
pub(super) fn fast_newton(
    p: &mut impl FastNewtonProblem,
    s: &NewtonSettings,
    jacobian_stale: &mut bool,
    stats: &mut NewtonStatistics,
) -> NewtonOutcome {
    p.fast_start();
    let mut res = p.residual();
    let reference = p.force_norm().max(res);
    let tolerance = (TOLERANCE_FACTOR * s.relative_tolerance * reference).max(s.absolute_tolerance);
    let increment_tolerance =
        (INCREMENT_FACTOR * s.relative_tolerance).max(INCREMENT_FLOOR) * p.coordinate_scale();
    let mut it = 0;
    let mut last = res;
    // the Jacobian was renewed during this step
    let mut renewed_here = false;
    let mut restarted = false;
    let outcome = loop {
        if it > 0 && res <= tolerance && p.increment_norm() <= increment_tolerance {
            break NewtonOutcome::Converged { iterations: it };
        }
        if it >= s.max_iterations {
            break NewtonOutcome::Failed { iterations: it };
        }
        // `useModifiedNewton = False` asks for a Jacobian at every iterate
        let renew = *jacobian_stale || !s.use_modified_newton;
        if renew {
            stats.jacobians += 1;
            if let Err(col) = p.factorize_jacobian() {
                stats.iterations += it;
                return NewtonOutcome::Singular(col);
            }
            *jacobian_stale = false;
        }
        p.apply_newton_step();
        it += 1;
        res = p.residual();
        if !s.active {
            break NewtonOutcome::Converged { iterations: it };
        }
        if p.diverged(s.maximum_solution_norm) || !res.is_finite() {
            if renew || renewed_here || restarted {
                break NewtonOutcome::Failed { iterations: it };
            }
            // an old Jacobian led astray: start the step again with a new one
            restarted = true;
            *jacobian_stale = true;
            p.fast_start();
            res = p.residual();
            last = res;
            continue;
        }
        renewed_here |= renew;
        let contraction = res / last;
        last = res;
        // iterations still needed at this contraction (meaningful for 0 < contraction < 1)
        let needed = (tolerance / res).ln() / contraction.ln();
        if !renew && (contraction > RENEW_CONTRACTION || needed > MAX_PREDICTED_ITERATIONS) {
            *jacobian_stale = true;
        }
    };
    stats.iterations += it;
    outcome
}
