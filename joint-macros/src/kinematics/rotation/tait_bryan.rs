//! Tait–Bryan angles ψ = [ψ0, ψ1, ψ2] in the x-y-z sequence, A = Rx(ψ0)·Ry(ψ1)·Rz(ψ2), as
//! Exudyn's NodeRigidBodyRxyz uses them.

use crate::symbolic::vector::Mat3;
use crate::symbolic::{Graph, Id};

use super::Parametrization;

pub fn parametrization(g: &mut Graph, psi: &[Id]) -> Parametrization {
    let c: Vec<Id> = psi.iter().map(|&x| g.cos(x)).collect();
    let s: Vec<Id> = psi.iter().map(|&x| g.sin(x)).collect();
    let (c0, c1, c2, s0, s1, s2) = (c[0], c[1], c[2], s[0], s[1], s[2]);
    let z = g.zero();
    let one = g.one();
    let m = |g: &mut Graph, a: Id, b: Id| g.mul(a, b);
    let c1c2 = m(g, c1, c2);
    let c1s2 = m(g, c1, s2);
    let s0s1 = m(g, s0, s1);
    let c0s1 = m(g, c0, s1);
    let s0s1c2 = m(g, s0s1, c2);
    let s0s1s2 = m(g, s0s1, s2);
    let c0s1c2 = m(g, c0s1, c2);
    let c0s1s2 = m(g, c0s1, s2);
    let c0s2 = m(g, c0, s2);
    let c0c2 = m(g, c0, c2);
    let s0s2 = m(g, s0, s2);
    let s0c2 = m(g, s0, c2);
    let s0c1 = m(g, s0, c1);
    let c0c1 = m(g, c0, c1);
    let a10 = g.add(s0s1c2, c0s2);
    let a11 = g.sub(c0c2, s0s1s2);
    let a20 = g.sub(s0s2, c0s1c2);
    let a21 = g.add(c0s1s2, s0c2);
    let rotation: Mat3 = [
        [c1c2, g.neg(c1s2), s1],
        [a10, a11, g.neg(s0c1)],
        [a20, a21, c0c1],
    ];
    // G = [[1,0,s1],[0,c0,−c1s0],[0,s0,c0c1]],  Ḡ = [[c1c2, s2, 0],[−c1s2, c2, 0],[s1, 0, 1]]
    let g_global = [[one, z, s1], [z, c0, g.neg(s0c1)], [z, s0, c0c1]];
    let g_local = [[c1c2, s2, z], [g.neg(c1s2), c2, z], [s1, z, one]];
    let columns = |m: [[Id; 3]; 3]| (0..3).map(|k| [m[0][k], m[1][k], m[2][k]]).collect();
    Parametrization {
        rotation,
        g_global_columns: columns(g_global),
        g_local_columns: columns(g_local),
    }
}
