//! The generated kernels of the coordinate constraint (Exudyn's ConnectorCoordinate, defined in
//! one line with `Coordinate` markers) against its formula, at random states: every pairing
//! (node–node, node–ground, ground–node), through the slice interface a runtime uses.
//!
//! Oracle: with `d_i = c_i − c_ref,i` (0 on ground), the residual is
//! `g = factor1·d_1 − d_0 − offset`, the velocity level `factor1·ċ_1 − ċ_0`, the Jacobian
//! blocks `[−1]` and `[factor1]` (Exudyn's), `position_jacobian` the same (g is linear), and
//! both second-order terms zero.

use joint::core::{JointParameters as _, MarkerArgs, MarkerKind};
use joint::runtime::composed::{self, KindArgs};
use joint::runtime::kernels::coordinate_constraint::{self, Parameters};
use proptest::prelude::*;

fn args<'a>(kind: MarkerKind, p: &'a [f64], q: &'a [f64], v: &'a [f64]) -> MarkerArgs<'a> {
    match kind {
        MarkerKind::NodeCoordinate => MarkerArgs {
            parameters: p,
            coordinates: q,
            velocities: v,
        },
        _ => MarkerArgs::default(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, rng_seed: proptest::test_runner::RngSeed::Fixed(19), ..ProptestConfig::default() })]

    #[test]
    fn kernels_are_the_formula(
        offset in -2.0..2.0f64, factor1 in -3.0..3.0f64,
        c in proptest::array::uniform2(-5.0..5.0f64),
        c_ref in proptest::array::uniform2(-5.0..5.0f64),
        ct in proptest::array::uniform2(-5.0..5.0f64),
        lambda in -10.0..10.0f64,
    ) {
        let joint = Parameters { offset, factor1 }.to_values();
        let kinds = [
            [MarkerKind::NodeCoordinate, MarkerKind::NodeCoordinate],
            [MarkerKind::NodeCoordinate, MarkerKind::GroundCoordinate],
            [MarkerKind::GroundCoordinate, MarkerKind::NodeCoordinate],
        ];
        let pairings = coordinate_constraint::DEFINITION.pairings;
        prop_assert_eq!(pairings.len(), 3);
        for ks in kinds {
            let pairing = pairings.iter().find(|p| p.kinds == ks).expect("a pairing per kind pair");
            let (p0, p1) = ([c_ref[0]], [c_ref[1]]);
            let (q0, q1) = ([c[0]], [c[1]]);
            let (v0, v1) = ([ct[0]], [ct[1]]);
            let m0 = args(ks[0], &p0, &q0, &v0);
            let m1 = args(ks[1], &p1, &q1, &v1);
            let on = |k: MarkerKind| if k == MarkerKind::NodeCoordinate { 1.0 } else { 0.0 };
            let (d0, d1) = (on(ks[0]) * (c[0] - c_ref[0]), on(ks[1]) * (c[1] - c_ref[1]));
            let (w0, w1) = (on(ks[0]) * ct[0], on(ks[1]) * ct[1]);

            let mut out = [0.0];
            (pairing.position_residual)(&joint, m0, m1, &mut out).unwrap();
            prop_assert!((out[0] - (factor1 * d1 - d0 - offset)).abs() <= 1e-12 * (1.0 + out[0].abs()));
            (pairing.velocity_residual)(&joint, m0, m1, &mut out).unwrap();
            prop_assert!((out[0] - (factor1 * w1 - w0)).abs() <= 1e-12 * (1.0 + out[0].abs()));

            let n = |k: MarkerKind| if k == MarkerKind::NodeCoordinate { 1 } else { 0 };
            let (mut b0, mut b1) = (vec![0.0; n(ks[0])], vec![0.0; n(ks[1])]);
            (pairing.jacobian)(&joint, m0, m1, &mut b0, &mut b1).unwrap();
            let want0: Vec<f64> = vec![-1.0; n(ks[0])];
            let want1: Vec<f64> = vec![factor1; n(ks[1])];
            prop_assert_eq!(&b0, &want0);
            prop_assert_eq!(&b1, &want1);
            let (mut c0, mut c1) = (vec![0.0; n(ks[0])], vec![0.0; n(ks[1])]);
            (pairing.position_jacobian)(&joint, m0, m1, &mut c0, &mut c1).unwrap();
            prop_assert_eq!(&c0, &want0);
            prop_assert_eq!(&c1, &want1);

            // second order (the marker level's, composed with the kinds): g is linear in the
            // coordinates, so both terms vanish
            let (n0, n1) = (n(ks[0]), n(ks[1]));
            let kinds = [KindArgs { kind: ks[0], args: m0 }, KindArgs { kind: ks[1], args: m1 }];
            let mut c = [1.0];
            composed::convective(&coordinate_constraint::DEFINITION, &joint, kinds, &mut c).unwrap();
            prop_assert!(c[0] == 0.0, "convective {:?}", c);
            let mut rq = vec![1.0; (n0 + n1) * (n0 + n1)];
            composed::reaction_q(&coordinate_constraint::DEFINITION, &joint, &[lambda], kinds, &mut rq).unwrap();
            prop_assert!(rq.iter().all(|&x| x == 0.0), "reaction_q {:?}", rq);
        }
    }
}
