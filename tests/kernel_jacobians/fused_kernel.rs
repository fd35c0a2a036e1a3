//! The fused kernels (`position_residual_and_jacobian`, `position_residual_and_position_jacobian`)
//! return the bits of the two separate ones.

use super::*;

// ------------------------------------------------------------------------------------------------
// The fused kernel: `position_residual_and_jacobian` computes the same expression trees as the two
// separate kernels, only sharing their common subexpressions, so it must return the same bits.

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 64,
        rng_seed: RngSeed::Fixed(7),
        ..ProptestConfig::default()
    })]

    #[test]
    fn fused_residual_and_jacobian_are_the_separate_kernels_bit_for_bit(
        v in proptest::collection::vec(-2.0f64..2.0, 40)
    ) {
        use spherical::{ground_point_to_rigid_ep_point as ge, node_point_to_node_ep as pn,
            rigid_ep_point_to_rigid_ep_point as ee};
        let b0: [f64; 3] = v[0..3].try_into().unwrap();
        let q0: [f64; 7] = v[3..10].try_into().unwrap();
        let b1: [f64; 3] = v[10..13].try_into().unwrap();
        let q1: [f64; 7] = v[13..20].try_into().unwrap();
        let g: [f64; 12] = v[20..32].try_into().unwrap();
        let p: [f64; 3] = v[35..38].try_into().unwrap();
        let bits = |x: &[f64]| x.iter().map(|x| x.to_bits()).collect::<Vec<_>>();

        let (c, (j0, j1)) = ee::position_residual_and_jacobian(&b0, &q0, &b1, &q1);
        let (sj0, sj1) = ee::jacobian(&b0, &q0, &b1, &q1);
        prop_assert_eq!(bits(&c), bits(&ee::position_residual(&b0, &q0, &b1, &q1)));
        prop_assert_eq!(bits(j0.as_flattened()), bits(sj0.as_flattened()));
        prop_assert_eq!(bits(j1.as_flattened()), bits(sj1.as_flattened()));

        let (c, j1) = ge::position_residual_and_jacobian(&g, &b1, &q1);
        prop_assert_eq!(bits(&c), bits(&ge::position_residual(&g, &b1, &q1)));
        prop_assert_eq!(bits(j1.as_flattened()), bits(ge::jacobian(&g, &b1, &q1).as_flattened()));

        let (c, (j0, j1)) = pn::position_residual_and_jacobian(&p, &q1);
        let (sj0, sj1) = pn::jacobian(&p, &q1);
        prop_assert_eq!(bits(&c), bits(&pn::position_residual(&p, &q1)));
        prop_assert_eq!(bits(j0.as_flattened()), bits(sj0.as_flattened()));
        prop_assert_eq!(bits(j1.as_flattened()), bits(sj1.as_flattened()));

        // The fast form: the residual with its consistent Jacobian ∂g/∂q.
        let (c, (j0, j1)) = ee::position_residual_and_position_jacobian(&b0, &q0, &b1, &q1);
        let (sj0, sj1) = ee::position_jacobian(&b0, &q0, &b1, &q1);
        prop_assert_eq!(bits(&c), bits(&ee::position_residual(&b0, &q0, &b1, &q1)));
        prop_assert_eq!(bits(j0.as_flattened()), bits(sj0.as_flattened()));
        prop_assert_eq!(bits(j1.as_flattened()), bits(sj1.as_flattened()));

        let (c, j1) = ge::position_residual_and_position_jacobian(&g, &b1, &q1);
        prop_assert_eq!(bits(&c), bits(&ge::position_residual(&g, &b1, &q1)));
        prop_assert_eq!(
            bits(j1.as_flattened()),
            bits(ge::position_jacobian(&g, &b1, &q1).as_flattened())
        );
    }
}
