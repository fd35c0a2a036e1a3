//! 3-vectors and 3×3 matrices of scalar expressions.
//!
//! Structured values are kept as arrays of node ids: the algebra is unrolled at construction
//! time, so the DAG only ever holds scalar operations and the emitted code is straight-line.

use super::graph::{Graph, Id};

pub type Vec3 = [Id; 3];
/// Row-major: `m[row][column]`.
pub type Mat3 = [[Id; 3]; 3];

pub fn zero_vec(g: &mut Graph) -> Vec3 {
    let z = g.zero();
    [z; 3]
}

pub fn add(g: &mut Graph, a: Vec3, b: Vec3) -> Vec3 {
    [g.add(a[0], b[0]), g.add(a[1], b[1]), g.add(a[2], b[2])]
}

pub fn sub(g: &mut Graph, a: Vec3, b: Vec3) -> Vec3 {
    [g.sub(a[0], b[0]), g.sub(a[1], b[1]), g.sub(a[2], b[2])]
}

pub fn neg(g: &mut Graph, a: Vec3) -> Vec3 {
    a.map(|x| g.neg(x))
}

pub fn scale(g: &mut Graph, s: Id, a: Vec3) -> Vec3 {
    a.map(|x| g.mul(s, x))
}

pub fn dot(g: &mut Graph, a: Vec3, b: Vec3) -> Id {
    let t: Vec<Id> = (0..3).map(|i| g.mul(a[i], b[i])).collect();
    g.sum(&t)
}

/// a × b
pub fn cross(g: &mut Graph, a: Vec3, b: Vec3) -> Vec3 {
    let c = |g: &mut Graph, i: usize, j: usize| {
        let p = g.mul(a[i], b[j]);
        let q = g.mul(a[j], b[i]);
        g.sub(p, q)
    };
    [c(g, 1, 2), c(g, 2, 0), c(g, 0, 1)]
}

/// A·v
pub fn mat_vec(g: &mut Graph, m: &Mat3, v: Vec3) -> Vec3 {
    [0, 1, 2].map(|r| dot(g, m[r], v))
}

pub fn transpose(m: &Mat3) -> Mat3 {
    [0, 1, 2].map(|r| [0, 1, 2].map(|c| m[c][r]))
}

pub fn mat_mat(g: &mut Graph, a: &Mat3, b: &Mat3) -> Mat3 {
    let bt = transpose(b);
    [0, 1, 2].map(|r| [0, 1, 2].map(|c| dot(g, a[r], bt[c])))
}

pub fn mat_add(g: &mut Graph, a: &Mat3, b: &Mat3) -> Mat3 {
    [0, 1, 2].map(|r| [0, 1, 2].map(|c| g.add(a[r][c], b[r][c])))
}

pub fn mat_sub(g: &mut Graph, a: &Mat3, b: &Mat3) -> Mat3 {
    [0, 1, 2].map(|r| [0, 1, 2].map(|c| g.sub(a[r][c], b[r][c])))
}

pub fn mat_scale(g: &mut Graph, s: Id, a: &Mat3) -> Mat3 {
    [0, 1, 2].map(|r| [0, 1, 2].map(|c| g.mul(s, a[r][c])))
}

pub fn mat_neg(g: &mut Graph, a: &Mat3) -> Mat3 {
    [0, 1, 2].map(|r| [0, 1, 2].map(|c| g.neg(a[r][c])))
}
