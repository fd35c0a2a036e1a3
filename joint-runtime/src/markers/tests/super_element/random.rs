//! Deterministic randomness.

use super::*;

// ------------------------------------------------------------------------------------------
// Deterministic randomness.

pub(super) struct Rng(u64);

impl Rng {
    pub(super) fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// Uniform in [−1, 1).
    pub(super) fn uniform(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    }
}

pub(super) fn seed_of(name: &str, state: u64) -> u64 {
    name.bytes().fold(0xCBF2_9CE4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01B3)
    }) ^ state.wrapping_mul(0xD1B5_4A32_D192_ED03)
}

/// A random state: total coordinates `qt` and velocities `v` (see the module docs).
pub(super) fn random_state(sim: &Simulation, seed: u64) -> (Vec<f64>, Vec<f64>) {
    let topo = &sim.topology;
    let mut rng = Rng::new(seed);
    let mut qt = topo.reference.clone();
    let mut v = vec![0.0; topo.n_ode2];
    for (n, node) in sim.mbs.nodes.iter().enumerate() {
        let s = topo.node_ode2[n];
        let size = node.ode2_size();
        for k in 0..size {
            qt[s + k] += 0.05 * rng.uniform();
            v[s + k] = rng.uniform();
        }
        if let Node::RigidBodyEP { .. } = node {
            let e = loop {
                let e: [f64; 4] = std::array::from_fn(|_| rng.uniform());
                let len = e.iter().map(|x| x * x).sum::<f64>().sqrt();
                if len > 0.2 {
                    break e.map(|x| x / len);
                }
            };
            let mut ed: [f64; 4] = std::array::from_fn(|_| rng.uniform());
            let along: f64 = (0..4).map(|k| e[k] * ed[k]).sum();
            for k in 0..4 {
                ed[k] -= along * e[k];
            }
            qt[s + 3..s + 7].copy_from_slice(&e);
            v[s + 3..s + 7].copy_from_slice(&ed);
        }
    }
    (qt, v)
}
