//! The planar rotation of Exudyn's NodeRigidBody2D: one angle ψ about the global z axis,
//! A = Rz(ψ). The axis is fixed, so ω = ω̄ = [0, 0, ψ̇] and G = Ḡ = [0, 0, 1]ᵀ.

use crate::symbolic::vector::Mat3;
use crate::symbolic::{Graph, Id};

use super::Parametrization;

pub fn parametrization(g: &mut Graph, psi: &[Id]) -> Parametrization {
    let (c, s) = (g.cos(psi[0]), g.sin(psi[0]));
    let z = g.zero();
    let one = g.one();
    let rotation: Mat3 = [[c, g.neg(s), z], [s, c, z], [z, z, one]];
    Parametrization {
        rotation,
        g_global_columns: vec![[z, z, one]],
        g_local_columns: vec![[z, z, one]],
    }
}
