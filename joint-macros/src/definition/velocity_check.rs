//! A hand-written velocity level must be the time derivative of the position level: the macro
//! evaluates both at random states of two free markers while it expands and reports a row that
//! differs as a compile error at that row.
//!
//! The markers are the marker-level ones (`kinematics::marker_level`): position, velocity, a
//! rotation matrix (orthonormal, from a random unit quaternion) and a global angular velocity ω,
//! with ω̄ = Aᵀω. Every marker kind is such a marker at each instant, so a level that agrees here
//! agrees for every pairing.

use std::collections::HashMap;

use super::errors::Errors;
use super::lower::{Lowerer, RateRule, derived_velocity, parameter_values};
use super::model::JointModel;
use crate::kinematics::marker_level;
use crate::symbolic::Graph;

/// Random states tried.
const STATES: usize = 4;

/// Agreement required: |hand − derived| ≤ TOLERANCE·(1 + |hand| + |derived|).
const TOLERANCE: f64 = 1e-8;

/// A small deterministic generator (xorshift64*): the check gives the same verdict every build.
struct Random(u64);

impl Random {
    /// Uniform in [−1, 1).
    fn next(&mut self) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let x = self.0.wrapping_mul(0x2545_f491_4f6c_dd1d);
        (x >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    }
}

/// Check the hand-written velocity level of `model` (if any) against the derived one.
pub fn check(model: &JointModel, errors: &mut Errors) {
    let (Some(hand), Some(_)) = (&model.velocity, &model.position) else {
        return;
    };
    let mut g = Graph::new();
    let kin = [
        marker_level::free(&mut g, "m0_"),
        marker_level::free(&mut g, "m1_"),
    ];
    let params = parameter_values(&mut g, model);
    let rows = model.axes.len();
    let mut scratch = Errors::new();
    let written = {
        let mut lw = Lowerer::new(&mut g, model, &kin, params.clone());
        lw.residual(hand, "velocity-level", rows, &mut scratch)
    };
    let derived = derived_velocity(&mut g, model, &kin, params, RateRule::Local);
    // lowering errors are reported by the marker-level kernel's own lowering
    let (Some((written, _)), Some(derived)) = (written, derived) else {
        return;
    };
    let mut random = Random(0x9e37_79b9_7f4a_7c15);
    for _ in 0..STATES {
        let mut env = random_state(&mut random);
        // the joint's parameters: random as well, the same for both levels
        for p in &model.params {
            for i in 0..p.kind.len() {
                let name = super::lower::parameter_variable(&p.name.to_string(), p.kind, i);
                env.insert(name, random.next());
            }
        }
        let at = |name: &str| env.get(name).copied().unwrap_or(0.0);
        let nodes = g.evaluate(&at);
        for (r, (&w, &d)) in written.iter().zip(&derived).enumerate() {
            let (hw, dd) = (nodes[w.0 as usize], nodes[d.0 as usize]);
            if !hw.is_finite() || !dd.is_finite() {
                continue;
            }
            if (hw - dd).abs() > TOLERANCE * (1.0 + hw.abs() + dd.abs()) {
                let axis = &model.axes[r].name;
                let message = format!(
                    "the velocity level is not the time derivative of the position level: row {r} (`{axis}`) is {hw:.6} where d/dt of the position level is {dd:.6}, at a random state of the markers; leave out `velocity = …;` to have the compiler derive it"
                );
                match hand {
                    syn::Expr::Array(a) if a.elems.len() == rows => {
                        errors.at(&a.elems[r], message);
                    }
                    other => errors.at(other, message),
                }
                return;
            }
        }
    }
}

/// Random marker-level quantities of both markers: positions, velocities and angular
/// velocities in [−1, 1), rotations from random unit quaternions.
fn random_state(random: &mut Random) -> HashMap<String, f64> {
    let mut out = HashMap::new();
    for m in 0..2 {
        let prefix = format!("m{m}_");
        for names in [
            &marker_level::POSITION,
            &marker_level::VELOCITY,
            &marker_level::ANGULAR_VELOCITY,
        ] {
            for n in names {
                out.insert(format!("{prefix}{n}"), random.next());
            }
        }
        let mut q = [random.next(), random.next(), random.next(), random.next()];
        let norm = q.iter().map(|x| x * x).sum::<f64>().sqrt().max(1e-3);
        q.iter_mut().for_each(|x| *x /= norm);
        let [w, x, y, z] = q;
        let r = [
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
        ];
        for (k, n) in marker_level::ROTATION.iter().enumerate() {
            out.insert(format!("{prefix}{n}"), r[k / 3][k % 3]);
        }
    }
    out
}
