//! The opt-in exact constraint Jacobian (`newton.exact_constraint_jacobian`) converges to the
//! same solution as Exudyn's Jacobian, and with full Newton it needs fewer iterations: the
//! geometric stiffness ∂(C_qᵀλ)/∂q restores the quadratic convergence Exudyn's J̄ lacks.

#[allow(dead_code)]
#[path = "../examples/exact_newton.rs"]
mod example;

#[test]
fn exact_constraint_jacobian_agrees_with_exudyns_and_saves_full_newton_iterations() {
    for n in [1, 10] {
        let default = example::run(n, false, false);
        let exact = example::run(n, true, false);
        let d = default
            .state
            .q
            .iter()
            .zip(&exact.state.q)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        assert!(d < 1e-8, "{n} bodies: |Δq| = {d:e} between the Jacobians");
        let (a, b) = (
            default.statistics.newton.iterations,
            exact.statistics.newton.iterations,
        );
        assert!(
            b < a,
            "{n} bodies, full Newton: exact {b} iterations, Exudyn's Jacobian {a}"
        );
    }
    // Exudyn's default path is untouched by the setting's existence.
    assert_eq!(
        example::run(1, false, true).statistics.newton.iterations,
        6669
    );
}
