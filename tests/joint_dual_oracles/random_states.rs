//! Random marker states and joint parameters.

use super::*;

// ------------------------------------------------------------------------------------------------
// Random states.

/// Joint-level random numbers: distance, rotationMarker0/1 angles, λ.
pub(super) const JOINT_POOL: usize = 19;

pub(super) fn pools() -> impl Strategy<Value = (Vec<Vec<f64>>, Vec<f64>)> {
    (
        prop::collection::vec(prop::collection::vec(-1.0f64..1.0, POOL), 2 * KINDS.len()),
        prop::collection::vec(-1.0f64..1.0, JOINT_POOL),
    )
}

pub(super) fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 48,
        failure_persistence: None,
        max_shrink_iters: 64,
        rng_seed: RngSeed::Fixed(0x6475_616c_6f72),
        ..ProptestConfig::default()
    }
}
