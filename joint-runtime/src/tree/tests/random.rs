//! Deterministic random numbers.

// ------------------------------------------------------------------------------------------
// Deterministic random numbers (splitmix64)

pub(super) struct Rng(pub(super) u64);

impl Rng {
    pub(super) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    pub(super) fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * ((self.next_u64() >> 11) as f64 / (1u64 << 53) as f64)
    }

    pub(super) fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    pub(super) fn vec3(&mut self, lo: f64, hi: f64) -> [f64; 3] {
        [
            self.uniform(lo, hi),
            self.uniform(lo, hi),
            self.uniform(lo, hi),
        ]
    }

    /// A random proper rotation matrix (from a random unit quaternion).
    pub(super) fn rotation(&mut self) -> [[f64; 3]; 3] {
        let mut e = [0.0; 4];
        loop {
            for x in e.iter_mut() {
                *x = self.uniform(-1.0, 1.0);
            }
            let n2: f64 = e.iter().map(|x| x * x).sum();
            if n2 > 0.01 && n2 <= 1.0 {
                let n = n2.sqrt();
                e.iter_mut().for_each(|x| *x /= n);
                break;
            }
        }
        let [w, x, y, z] = e;
        [
            [
                1.0 - 2.0 * (y * y + z * z),
                2.0 * (x * y - w * z),
                2.0 * (x * z + w * y),
            ],
            [
                2.0 * (x * y + w * z),
                1.0 - 2.0 * (x * x + z * z),
                2.0 * (y * z - w * x),
            ],
            [
                2.0 * (x * z - w * y),
                2.0 * (y * z + w * x),
                1.0 - 2.0 * (x * x + y * y),
            ],
        ]
    }
}
