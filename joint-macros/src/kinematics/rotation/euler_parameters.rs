//! Euler parameters θ = [θ0, θ1, θ2, θ3] (θ0 the scalar part), as Exudyn's NodeRigidBodyEP uses
//! them: θ is **not** normalised before use, so the kinematics are polynomial in θ.

use crate::symbolic::vector::Mat3;
use crate::symbolic::{Graph, Id};

use super::Parametrization;

/// A(θ), local to global, Exudyn's `EP2RotationMatrix`.
pub fn rotation_matrix(g: &mut Graph, t: [Id; 4]) -> Mat3 {
    let two = g.constant(2.0);
    let one = g.one();
    let p = |g: &mut Graph, i: usize, j: usize| g.mul(t[i], t[j]);
    let sq = [0, 1, 2, 3].map(|i| p(g, i, i));
    // 1 − 2(a² + b²)
    let diag = |g: &mut Graph, a: usize, b: usize| {
        let s = g.add(sq[a], sq[b]);
        let s2 = g.mul(two, s);
        g.sub(one, s2)
    };
    // 2(θiθj ± θkθl)
    let off = |g: &mut Graph, i: usize, j: usize, k: usize, l: usize, plus: bool| {
        let a = p(g, i, j);
        let b = p(g, k, l);
        let s = if plus { g.add(a, b) } else { g.sub(a, b) };
        g.mul(two, s)
    };
    [
        [
            diag(g, 2, 3),
            off(g, 1, 2, 0, 3, false),
            off(g, 1, 3, 0, 2, true),
        ],
        [
            off(g, 1, 2, 0, 3, true),
            diag(g, 1, 3),
            off(g, 2, 3, 0, 1, false),
        ],
        [
            off(g, 1, 3, 0, 2, false),
            off(g, 2, 3, 0, 1, true),
            diag(g, 1, 2),
        ],
    ]
}

/// Rows of 2·[[−θ1, θ0, ±θ3, ∓θ2], …]; `local` selects Ḡ (ω̄ = Ḡθ̇) over G (ω = Gθ̇).
pub fn g_matrix(g: &mut Graph, t: [Id; 4], local: bool) -> Vec<[Id; 3]> {
    // Columns of G (3×4) are returned as 4 rows of 3 so that ω = Σ_k col_k θ̇_k.
    let two = g.constant(2.0);
    let s = |g: &mut Graph, x: Id| g.mul(two, x);
    let n = |g: &mut Graph, x: Id| {
        let m = g.mul(two, x);
        g.neg(m)
    };
    let [t0, t1, t2, t3] = t;
    let rows: [[Id; 4]; 3] = if local {
        [
            [n(g, t1), s(g, t0), s(g, t3), n(g, t2)],
            [n(g, t2), n(g, t3), s(g, t0), s(g, t1)],
            [n(g, t3), s(g, t2), n(g, t1), s(g, t0)],
        ]
    } else {
        [
            [n(g, t1), s(g, t0), n(g, t3), s(g, t2)],
            [n(g, t2), s(g, t3), s(g, t0), n(g, t1)],
            [n(g, t3), n(g, t2), s(g, t1), s(g, t0)],
        ]
    };
    (0..4)
        .map(|k| [rows[0][k], rows[1][k], rows[2][k]])
        .collect()
}

pub fn parametrization(g: &mut Graph, t: &[Id]) -> Parametrization {
    let t: [Id; 4] = t.try_into().expect("four Euler parameters");
    Parametrization {
        rotation: rotation_matrix(g, t),
        g_global_columns: g_matrix(g, t, false),
        g_local_columns: g_matrix(g, t, true),
    }
}
