//! Rotation parametrizations of rigid nodes: the rotation matrix and the maps from parameter
//! velocities to angular velocity, ω = G·θ̇ (global) and ω̄ = Ḡ·θ̇ (body frame).

pub mod euler_parameters;
pub mod planar;
pub mod tait_bryan;

use crate::symbolic::vector::Mat3;
use crate::symbolic::{Graph, Id};

pub struct Parametrization {
    pub rotation: Mat3,
    /// Columns of G (one per rotation parameter).
    pub g_global_columns: Vec<[Id; 3]>,
    /// Columns of Ḡ (one per rotation parameter).
    pub g_local_columns: Vec<[Id; 3]>,
}

impl Parametrization {
    /// Σ_k columns_k · rates_k, starting from the first term (no `0 +` in an unsimplified graph;
    /// the same nodes, created in the same order, as `0 + …` in a simplifying one).
    pub fn apply(g: &mut Graph, columns: &[[Id; 3]], rates: &[Id]) -> [Id; 3] {
        let zero = g.zero();
        let mut out: [Option<Id>; 3] = [None; 3];
        for (col, &r) in columns.iter().zip(rates) {
            for i in 0..3 {
                let p = g.mul(col[i], r);
                out[i] = Some(match out[i] {
                    Some(acc) => g.add(acc, p),
                    None => p,
                });
            }
        }
        out.map(|o| o.unwrap_or(zero))
    }
}
