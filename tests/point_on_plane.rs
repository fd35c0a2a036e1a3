//! The user-defined PointOnPlane joint (examples/point_on_plane.rs) against the analytic motion
//! of a mass sliding down a frictionless incline.

#[path = "../examples/point_on_plane.rs"]
mod example;

#[test]
fn sliding_mass_follows_the_analytic_incline_motion() {
    for alpha in [0.0, 0.3, 1.1] {
        let run = example::simulate(alpha, 2.0, 1000, 1e-3);
        let exact = example::analytic_position(alpha, 1.0);
        for (k, (x, e)) in run.position.iter().zip(&exact).enumerate() {
            assert!(
                (x - e).abs() < 1e-12,
                "α = {alpha}: x[{k}] = {x}, analytic {e}"
            );
        }
        assert!(
            run.max_residual < 1e-12,
            "α = {alpha}: the point left the plane by {:e}",
            run.max_residual
        );
        assert!(
            run.max_velocity_residual < 1e-12,
            "α = {alpha}: normal velocity {:e}",
            run.max_velocity_residual
        );
    }
}

#[test]
fn generated_jacobian_is_the_tilted_normal() {
    // For a ground plane the constraint is linear: C = n_gᵀ, n_g = R_g·n.
    let alpha: f64 = 0.7;
    let joint = example::point_on_plane::Parameters {
        normal: [0.0, 0.0, 1.0],
    };
    let c = example::point_on_plane::ground_point_to_node_point::jacobian(
        &joint,
        &example::tilted_ground(alpha),
        &[0.3, -0.2, 0.5],
    )[0];
    let n = [alpha.sin(), 0.0, alpha.cos()];
    for k in 0..3 {
        assert!(
            (c[k] - n[k]).abs() < 1e-15,
            "C[{k}] = {}, n = {}",
            c[k],
            n[k]
        );
    }
}
