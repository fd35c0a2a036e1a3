//! `parameter_derivatives;`: the compiler's ∂g/∂p — by the joint's parameters (scalar, vector,
//! matrix, in their flat layout), by the markers' own parameters, and at marker level — against
//! two independent oracles: the emitted residual evaluated in dual numbers seeded on one
//! parameter, and central differences of the f64 residual.

// a column index addresses the seed, the difference and the table at once
#![allow(clippy::needless_range_loop)]

use joint_core::{MarkerQuantities, Scalar};
use joint_embedding::{placed, twist_limit};
use num_dual::Dual64;

const Q0: [f64; 7] = [0.3, -0.2, 0.5, 0.8, 0.3, -0.4, 0.2];
const Q1: [f64; 7] = [1.1, 0.4, -0.3, 0.6, -0.5, 0.1, 0.55];
const B0: [f64; 3] = [0.5, -0.25, 0.1];
const B1: [f64; 3] = [-0.3, 0.2, 0.45];

/// The joint's 13 parameter values in their flat layout: offset, scale, frame (row-major).
const P: [f64; 13] = [
    0.2, -0.7, 0.4, 1.3, 0.9, 0.1, -0.3, 0.2, 1.1, 0.25, 0.15, -0.4, 0.8,
];

fn parameters<S: Scalar>(v: [S; 13]) -> placed::Parameters<S> {
    placed::Parameters {
        offset: [v[0], v[1], v[2]],
        scale: v[3],
        frame: [
            [v[4], v[5], v[6]],
            [v[7], v[8], v[9]],
            [v[10], v[11], v[12]],
        ],
    }
}

/// `v` as duals, entry `seed` carrying the derivative.
fn seeded<const N: usize>(v: &[f64; N], seed: Option<usize>) -> [Dual64; N] {
    std::array::from_fn(|k| {
        let x = Dual64::c(v[k]);
        if Some(k) == seed { x.derivative() } else { x }
    })
}

/// `|dual − emitted| ≤ 1e-13·(1 + |emitted|)`, and the central difference within 1e-7.
fn agree(dual: f64, emitted: f64, central: f64, what: &str) {
    assert!(
        (dual - emitted).abs() <= 1e-13 * (1.0 + emitted.abs()),
        "{what}: dual {dual:e}, emitted {emitted:e}"
    );
    assert!(
        (central - emitted).abs() <= 1e-7 * (1.0 + emitted.abs()),
        "{what}: central {central:e}, emitted {emitted:e}"
    );
}

/// The central difference of `f` at `v` along entry `k`.
fn central<const N: usize, const R: usize>(
    v: &[f64; N],
    k: usize,
    f: impl Fn(&[f64; N]) -> [f64; R],
) -> [f64; R] {
    let h = 1e-6 * (1.0 + v[k].abs());
    let (mut plus, mut minus) = (*v, *v);
    plus[k] += h;
    minus[k] -= h;
    let (a, b) = (f(&plus), f(&minus));
    std::array::from_fn(|r| (a[r] - b[r]) / (2.0 * h))
}

#[test]
fn a_pairings_parameter_jacobian_is_the_residuals_derivative_by_each_parameter() {
    use placed::rigid_ep_point_to_rigid_ep_point as ep_ep;
    let table = ep_ep::parameter_jacobian(&parameters(P), &B0, &Q0, &B1, &Q1);
    let mut nonzero = 0;
    for c in 0..13 {
        let g = ep_ep::position_residual(
            &parameters(seeded(&P, Some(c))),
            &seeded(&B0, None),
            &seeded(&Q0, None),
            &seeded(&B1, None),
            &seeded(&Q1, None),
        );
        let fd = central(&P, c, |p| {
            ep_ep::position_residual(&parameters(*p), &B0, &Q0, &B1, &Q1)
        });
        for r in 0..3 {
            agree(
                g[r].eps,
                table[r][c],
                fd[r],
                &format!("row {r}, column {c}"),
            );
            nonzero += usize::from(table[r][c] != 0.0);
        }
    }
    // offset: diagonal, scale: every row, frame: its row (3 + 3 + 9)
    assert_eq!(nonzero, 15);
}

#[test]
fn a_pairings_marker_parameter_jacobian_is_the_residuals_derivative_by_each_marker_parameter() {
    use placed::ground_point_to_rigid_ep_point as ground_ep;
    // a ground marker: its point, then the ground's frame (row-major)
    let ground: [f64; 12] = [
        0.1, 0.2, -0.3, 0.9, -0.1, 0.2, 0.15, 1.05, 0.0, -0.2, 0.1, 0.95,
    ];
    let joint = parameters(P);
    let (by_ground, by_body) = ground_ep::marker_parameter_jacobian(&joint, &ground, &B1, &Q1);
    let djoint = parameters(P.map(Dual64::c));
    for k in 0..12 {
        let g = ground_ep::position_residual(
            &djoint,
            &seeded(&ground, Some(k)),
            &seeded(&B1, None),
            &seeded(&Q1, None),
        );
        let fd = central(&ground, k, |m0| {
            ground_ep::position_residual(&joint, m0, &B1, &Q1)
        });
        for r in 0..3 {
            agree(
                g[r].eps,
                by_ground[r][k],
                fd[r],
                &format!("m0 entry {k}, row {r}"),
            );
        }
    }
    for k in 0..3 {
        let g = ground_ep::position_residual(
            &djoint,
            &seeded(&ground, None),
            &seeded(&B1, Some(k)),
            &seeded(&Q1, None),
        );
        let fd = central(&B1, k, |b1| {
            ground_ep::position_residual(&joint, &ground, b1, &Q1)
        });
        for r in 0..3 {
            agree(
                g[r].eps,
                by_body[r][k],
                fd[r],
                &format!("m1 entry {k}, row {r}"),
            );
        }
    }
}

#[test]
fn the_marker_levels_parameter_jacobian_is_the_residuals_derivative_by_each_parameter() {
    use placed::marker_level as ml;
    let at = |p: [f64; 3]| MarkerQuantities {
        position: p,
        ..Default::default()
    };
    let (m0, m1) = (at([0.3, -0.1, 0.7]), at([1.2, 0.5, -0.4]));
    let dual = |q: &MarkerQuantities| MarkerQuantities {
        position: q.position.map(Dual64::c),
        velocity: q.velocity.map(Dual64::c),
        rotation: q.rotation.map(|r| r.map(Dual64::c)),
        angular_velocity: q.angular_velocity.map(Dual64::c),
    };
    let table = ml::parameter_jacobian(&parameters(P), &m0, &m1);
    for c in 0..13 {
        let g = ml::position_residual(&parameters(seeded(&P, Some(c))), &dual(&m0), &dual(&m1));
        let fd = central(&P, c, |p| ml::position_residual(&parameters(*p), &m0, &m1));
        for r in 0..3 {
            agree(
                g[r].eps,
                table[r][c],
                fd[r],
                &format!("row {r}, column {c}"),
            );
        }
    }
}

/// Through a conditional: −1 by the limit above it, 0 below, as the dual and the central
/// difference say.
#[test]
fn a_parameter_jacobian_through_a_conditional_takes_the_branch() {
    use twist_limit::rigid_ep_point_to_rigid_ep_point as ep_ep;
    let twist = ep_ep::position_residual(
        &twist_limit::Parameters { limit: -10.0 },
        &B0,
        &Q0,
        &B1,
        &Q1,
    )[0] - 10.0;
    for (limit, expected) in [(twist - 0.3, -1.0), (twist + 0.3, 0.0)] {
        let table =
            ep_ep::parameter_jacobian(&twist_limit::Parameters { limit }, &B0, &Q0, &B1, &Q1);
        assert_eq!(table[0][0], expected, "limit {limit}");
        let mut joint = twist_limit::Parameters { limit }.map(Dual64::c);
        joint.limit = joint.limit.derivative();
        let g = ep_ep::position_residual(
            &joint,
            &seeded(&B0, None),
            &seeded(&Q0, None),
            &seeded(&B1, None),
            &seeded(&Q1, None),
        );
        assert_eq!(g[0].eps, expected, "limit {limit}: dual");
        let fd = central(&[limit], 0, |l| {
            ep_ep::position_residual(&twist_limit::Parameters { limit: l[0] }, &B0, &Q0, &B1, &Q1)
        });
        agree(g[0].eps, table[0][0], fd[0], &format!("limit {limit}"));
    }
}
