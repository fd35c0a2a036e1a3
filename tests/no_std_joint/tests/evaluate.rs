//! The no_std crate's kernels against values worked by hand.

use joint_no_std::{rod_residual, slack_spring_force};

#[test]
fn the_rod_residual_is_the_distance_minus_its_length() {
    // |(3, 4, 12)| = 13
    let g = rod_residual(10.0, [1.0, 1.0, 1.0], [4.0, 5.0, 13.0]);
    assert_eq!(g, 3.0);
}

#[test]
fn the_slack_spring_pulls_only_beyond_its_slack() {
    // length 13, rest 10: stretch 3; slack 1 → tension 2·k along Δp/13 on marker 0
    let f = slack_spring_force([5.0, 10.0, 1.0], [1.0, 1.0, 1.0], [4.0, 5.0, 13.0]).unwrap();
    let expected = [3.0, 4.0, 12.0].map(|d: f64| 10.0 * d / 13.0);
    for (a, b) in f.iter().zip(expected) {
        assert!((a - b).abs() < 1e-14, "{f:?} against {expected:?}");
    }
    // slack 4 > stretch 3: no force
    let f = slack_spring_force([5.0, 10.0, 4.0], [1.0, 1.0, 1.0], [4.0, 5.0, 13.0]).unwrap();
    assert_eq!(f, [0.0; 3]);
}
