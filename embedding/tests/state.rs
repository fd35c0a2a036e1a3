//! A joint that remembers (a screw whose turn is a state) in every scalar: its last value is a
//! field of `Parameters<S>` like a parameter, `angle(y, x)` picks the angle within π of it
//! (an `atan2` and a `round`), and f32, dual numbers and lanes give what f64 gives.

use joint_core::Scalar;
use joint_embedding::screw::{self, node_ep_to_node_ep as ep_ep};
use num_dual::Dual64;
use std::f64::consts::PI;
use wide::f64x4;

const LEAD: f64 = 0.01;

/// Body 0 at the origin, unturned; body 1 turned by `angle` about z, at height `z`.
fn poses(angle: f64, z: f64) -> ([f64; 7], [f64; 7]) {
    let (s, c) = (0.5 * angle).sin_cos();
    (
        [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0],
        [0.0, 0.0, z, c, 0.0, 0.0, s],
    )
}

/// The advance row: 0 where body 1 has advanced `lead` per radian of the remembered turn.
fn advance<S: Scalar>(last: S, q0: &[S; 7], q1: &[S; 7]) -> S {
    let joint = screw::Parameters {
        lead: S::c(LEAD),
        turn: last,
    };
    ep_ep::position_residual(&joint, q0, q1)[4]
}

#[test]
fn the_turn_is_remembered_past_a_half_turn_in_f64_and_f32() {
    // two and a quarter turns, the last converged value near it: the angle is 4.5π, not 0.5π
    let turned = 4.5 * PI;
    let (q0, q1) = poses(turned, LEAD * turned);
    let g = advance(turned - 0.2, &q0, &q1);
    assert!(g.abs() < 1e-15, "{g}");
    // forgetting the turns (last value 0) reads 0.5π: the advance row is off by 4π·lead
    let wrong = advance(0.0, &q0, &q1);
    assert!((wrong - 4.0 * PI * LEAD).abs() < 1e-12, "{wrong}");
    let single = advance(
        (turned - 0.2) as f32,
        &q0.map(|x| x as f32),
        &q1.map(|x| x as f32),
    );
    assert!((single as f64).abs() < 1e-6, "{single}");
}

#[test]
fn lanes_remember_each_their_own_turn() {
    // four screws turned 0.3, 2π + 0.3, −2π + 0.3 and 4π + 0.3, each remembering its own
    let turns = [0.3, 2.0 * PI + 0.3, -2.0 * PI + 0.3, 4.0 * PI + 0.3];
    let lanes = |f: &dyn Fn(usize) -> f64| f64x4::new(std::array::from_fn(f));
    let q = |j: usize| poses(turns[j], LEAD * turns[j]);
    let q0: [f64x4; 7] = std::array::from_fn(|i| lanes(&|j| q(j).0[i]));
    let q1: [f64x4; 7] = std::array::from_fn(|i| lanes(&|j| q(j).1[i]));
    let last = lanes(&|j| turns[j] - 0.1);
    let g = advance(last, &q0, &q1).to_array();
    for j in 0..4 {
        let (a, b) = q(j);
        let scalar = advance(turns[j] - 0.1, &a, &b);
        assert_eq!(g[j].to_bits(), scalar.to_bits(), "lane {j}");
        assert!(g[j].abs() < 1e-14, "lane {j}: {}", g[j]);
    }
}

#[test]
fn a_dual_seeded_on_the_turn_angle_gives_the_advance_rows_derivative() {
    // body 1's Euler parameters along its turn: d/dφ of (cos φ/2, 0, 0, sin φ/2)
    let turned = 2.0 * PI + 0.7;
    let (q0, q1) = poses(turned, 0.0);
    let phi = Dual64::c(turned).derivative();
    let q1d: [Dual64; 7] = [
        Dual64::c(q1[0]),
        Dual64::c(q1[1]),
        Dual64::c(q1[2]),
        (phi * 0.5).cos(),
        Dual64::c(0.0),
        Dual64::c(0.0),
        (phi * 0.5).sin(),
    ];
    let g = advance(Dual64::c(turned - 0.3), &q0.map(Dual64::c), &q1d);
    // the row is −lead·turn(φ) and the turn follows φ: the derivative is −lead
    assert!((g.eps + LEAD).abs() < 1e-14, "{}", g.eps);
    assert!((g.re + LEAD * turned).abs() < 1e-14, "{}", g.re);
}
