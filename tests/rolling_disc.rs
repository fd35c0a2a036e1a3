//! Exudyn's ObjectJointRollingDisc, a joint written at velocity level only
//! (`joint_runtime::kernels`): every generated pairing against the identities that define a
//! constraint g(q, q̇) = C(q)·q̇ + b(q) and its Jacobian, at random states (proptest, fixed seed).
//!
//! * The rows are linear in q̇ with b = 0 (the contact-point velocities of both bodies vanish
//!   with q̇): `velocity_residual(q, 0) = 0`.
//! * **C is ∂g/∂q̇**: each column of the `jacobian` kernel equals the central difference of
//!   `velocity_residual` along that velocity (exact for a linear function, up to rounding), and
//!   `velocity_residual(q, q̇) = C·q̇`, where every Euler-parameter marker is on |θ| = 1.
//! * Off |θ| = 1 the two differ by design, as in Exudyn: the residual reads the angular
//!   velocity as A·ω̄ (Exudyn's marker data), C's rotational columns are G (its rotation
//!   Jacobian), and A·Ḡ ≠ G there. The reference cases in index 2, where |θ| drifts, pin that
//!   convention against Exudyn's numbers (tests/reference_cases: rolling_disc_*); with A·Ḡ in
//!   both, Exudyn's rollingCoinTest differed from it by 6.5e-6.
//! * `reaction_forces` is Cᵀλ.
//! * It has no position level: its pairings' position kernels return `None`.

use joint::core::{MarkerKind, Pairing, ResidualLevel};
use joint::runtime::kernels::rolling_disc;
use proptest::prelude::*;
use proptest::test_runner::RngSeed;

#[path = "support/marker_states.rs"]
mod marker_states;
use marker_states::*;

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 32,
        failure_persistence: None,
        rng_seed: RngSeed::Fixed(0x726f_6c6c),
        ..ProptestConfig::default()
    }
}

/// Rz(c)·Ry(b)·Rx(a), a proper rotation for a ground marker.
fn ground_rotation([a, b, c]: [f64; 3]) -> [[f64; 3]; 3] {
    let (sa, ca) = a.sin_cos();
    let (sb, cb) = b.sin_cos();
    let (sc, cc) = c.sin_cos();
    [
        [cc * cb, cc * sb * sa - sc * ca, cc * sb * ca + sc * sa],
        [sc * cb, sc * sb * sa + cc * ca, sc * sb * ca - cc * sa],
        [-sb, cb * sa, cb * ca],
    ]
}

/// The joint's parameters: radius, disc axis, plane normal (random, the axis not along the
/// normal: the rolling direction w1 × n0 is then defined).
fn parameters(r: &[f64]) -> Vec<f64> {
    let radius = 0.2 + r[0].abs();
    let axis = [1.0 + 0.3 * r[1], 0.4 * r[2], 0.4 * r[3]];
    let normal = [0.3 * r[4], 0.3 * r[5], 1.0];
    let mut p = vec![radius];
    p.extend(axis);
    p.extend(normal);
    p
}

fn residual(p: &Pairing, joint: &[f64], m0: &MarkerState, m1: &MarkerState) -> [f64; 3] {
    let mut out = [0.0; 3];
    (p.velocity_residual)(joint, m0.args(), m1.args(), &mut out).expect("sizes");
    out
}

/// C as one 3 × (n0 + n1) row-major matrix.
fn jacobian(p: &Pairing, joint: &[f64], m0: &MarkerState, m1: &MarkerState) -> Vec<Vec<f64>> {
    let [n0, n1] = p.coordinates;
    let (mut b0, mut b1) = (vec![0.0; 3 * n0], vec![0.0; 3 * n1]);
    (p.jacobian)(joint, m0.args(), m1.args(), &mut b0, &mut b1).expect("sizes");
    (0..3)
        .map(|r| {
            b0[r * n0..(r + 1) * n0]
                .iter()
                .chain(&b1[r * n1..(r + 1) * n1])
                .copied()
                .collect()
        })
        .collect()
}

fn close(got: f64, want: f64, scale: f64) -> bool {
    (got - want).abs() <= 1e-9 * (1.0 + scale)
}

/// Whether the rolling direction is well defined at this state (|w1 × n0| not tiny): the rows
/// divide by it.
fn rolling_direction_defined(
    joint: &[f64],
    m0: &MarkerState,
    m1: &MarkerState,
    p: &Pairing,
) -> bool {
    // with the residual finite and moderate, the state is away from the singularity
    let g = residual(p, joint, m0, m1);
    g.iter().all(|x| x.is_finite() && x.abs() < 1e6)
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn jacobian_is_the_velocity_derivative_of_the_rows(
        r0 in prop::collection::vec(-1.0f64..1.0, POOL),
        r1 in prop::collection::vec(-1.0f64..1.0, POOL),
        rj in prop::collection::vec(-1.0f64..1.0, 6),
    ) {
        let joint = parameters(&rj);
        for p in rolling_disc::PAIRINGS.iter() {
            let m0 = marker_state(p.kinds[0], &r0, true, ground_rotation);
            let m1 = marker_state(p.kinds[1], &r1, true, ground_rotation);
            if !rolling_direction_defined(&joint, &m0, &m1, p) {
                continue;
            }
            let c = jacobian(p, &joint, &m0, &m1);
            let g = residual(p, &joint, &m0, &m1);
            let scale = c.iter().flatten().fold(0.0f64, |m, x| m.max(x.abs()));
            // b = 0
            let still = |m: &MarkerState| MarkerState { v: vec![0.0; m.v.len()], ..m.clone() };
            let g0 = residual(p, &joint, &still(&m0), &still(&m1));
            for x in g0 {
                prop_assert!(close(x, 0.0, scale), "{}: b = {g0:?}", p.path());
            }
            // g = C·q̇ on |θ| = 1
            let qt: Vec<f64> = m0.v.iter().chain(&m1.v).copied().collect();
            for (row, gr) in c.iter().zip(g) {
                let cq = dot(row, &qt);
                prop_assert!(close(gr, cq, scale), "{}: g {gr} against C·q̇ {cq}", p.path());
            }
            // the reaction forces are Cᵀλ (the kernel never forms C)
            let lambda = [rj[0] + 0.3, rj[1] - 1.7, 2.0 * rj[2]];
            let [n0, n1] = p.coordinates;
            let (mut f0, mut f1) = (vec![0.0; n0], vec![0.0; n1]);
            (p.reaction_forces)(&joint, &lambda, m0.args(), m1.args(), &mut f0, &mut f1)
                .expect("sizes");
            for (col, f) in f0.iter().chain(&f1).enumerate() {
                let want: f64 = (0..3).map(|r| lambda[r] * c[r][col]).sum();
                prop_assert!(close(*f, want, 3.0 * scale), "{}: (Cᵀλ)[{col}] = {f} against {want}", p.path());
            }
            // each column by central differences of the rows in that velocity
            let h = 1e-3;
            let n0 = p.coordinates[0];
            for col in 0..qt.len() {
                let shifted = |d: f64| {
                    let (mut a, mut b) = (m0.clone(), m1.clone());
                    if col < n0 { a.v[col] += d } else { b.v[col - n0] += d }
                    residual(p, &joint, &a, &b)
                };
                let (gp, gm) = (shifted(h), shifted(-h));
                for (row, c_row) in c.iter().enumerate() {
                    let fd = (gp[row] - gm[row]) / (2.0 * h);
                    let got = c_row[col];
                    prop_assert!(
                        close(got, fd, scale),
                        "{}: C[{row}][{col}] = {got} against {fd}", p.path()
                    );
                }
            }
        }
    }
}

#[test]
fn it_is_written_at_velocity_level_only() {
    let d = &rolling_disc::DEFINITION;
    assert_eq!(d.level, ResidualLevel::Velocity);
    assert_eq!(d.position_text, None);
    assert!(!d.second_order);
    assert_eq!(d.axes, ["lateral", "forward", "normal"]);
    let p = rolling_disc::pairing(MarkerKind::GroundPoint, MarkerKind::RigidEpPoint).unwrap();
    let r = [0.1; POOL];
    let m0 = marker_state(MarkerKind::GroundPoint, &r, true, ground_rotation);
    let m1 = marker_state(MarkerKind::RigidEpPoint, &r, true, ground_rotation);
    let joint = parameters(&[0.0; 6]);
    assert_eq!(
        (p.position_residual)(&joint, m0.args(), m1.args(), &mut [0.0; 3]),
        None
    );
    assert_eq!(
        (p.position_jacobian)(&joint, m0.args(), m1.args(), &mut [], &mut [0.0; 21]),
        None
    );
    assert!(residual(p, &joint, &m0, &m1).iter().all(|x| x.is_finite()));
}
