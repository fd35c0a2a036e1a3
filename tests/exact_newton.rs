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
            .state()
            .q
            .iter()
            .zip(&exact.state().q)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        assert!(d < 1e-8, "{n} bodies: |Δq| = {d:e} between the Jacobians");
        let (a, b) = (
            default.statistics().newton.iterations,
            exact.statistics().newton.iterations,
        );
        assert!(
            b < a,
            "{n} bodies, full Newton: exact {b} iterations, Exudyn's Jacobian {a}"
        );
    }
    // Exudyn's default path is untouched by the setting's existence.
    assert_eq!(
        example::run(1, false, true).statistics().newton.iterations,
        6669
    );
}

/// Regression: the geometric stiffness of a joint whose markers span fewer columns than the
/// largest body shrank the shared scratch buffers (`block`, `fd_base`, `fd_out`) to the joint's
/// size, and the next mass matrix or body forward difference over more columns panicked
/// (an EP body beside mass points; a kinematic tree beside a joint).
#[test]
fn exact_constraint_jacobian_no_longer_shrinks_the_scratch_buffers() {
    use joint::runtime::model::read_model;
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/reference/own_cases/");
    for case in [
        "kt_tree_bodies",
        "kt_planar_loop_xy",
        "pairings_m0_GroundPoint",
    ] {
        let text = std::fs::read_to_string(format!("{dir}{case}.json")).expect("model");
        let mut model = read_model(&text).expect("valid");
        model
            .settings
            .time_integration
            .newton
            .exact_constraint_jacobian = true;
        let mut sim = model.mbs.assemble().expect("assembles");
        sim.solve_dynamic(&model.settings).expect("solves");
        let reference: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(format!("{dir}{case}.ref.json")).expect("reference"),
        )
        .expect("JSON");
        let q_ref = reference["ode2Coordinates"].as_array().expect("array");
        // the same motion as Exudyn's (only Newton's Jacobian differs)
        for (q, r) in sim.state().q.iter().zip(q_ref) {
            let r = r.as_f64().expect("number");
            assert!((q - r).abs() < 1e-6, "{case}: {q} vs Exudyn's {r}");
        }
    }
}
