//! Small generic linear algebra over num-dual numbers.

use super::*;

// ------------------------------------------------------------------------------------------
// Small generic linear algebra over num-dual scalars (row-major 3 × 3)

pub(super) trait Scalar: DualNum<Primitive = f64> + Copy {}
impl<T: DualNum<Primitive = f64> + Copy> Scalar for T {}

pub(super) type V3<S> = [S; 3];
pub(super) type M3<S> = [[S; 3]; 3];

pub(super) fn cst<S: Scalar>(x: f64) -> S {
    S::from(x)
}

pub(super) fn cvec<S: Scalar>(v: &[f64; 3]) -> V3<S> {
    v.map(cst)
}

pub(super) fn cmat<S: Scalar>(m: &[[f64; 3]; 3]) -> M3<S> {
    m.map(|r| r.map(cst))
}

pub(super) fn add<S: Scalar>(a: V3<S>, b: V3<S>) -> V3<S> {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

pub(super) fn sub<S: Scalar>(a: V3<S>, b: V3<S>) -> V3<S> {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

pub(super) fn scale<S: Scalar>(a: V3<S>, s: S) -> V3<S> {
    [a[0] * s, a[1] * s, a[2] * s]
}

pub(super) fn dot<S: Scalar>(a: V3<S>, b: V3<S>) -> S {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

pub(super) fn cross<S: Scalar>(a: V3<S>, b: V3<S>) -> V3<S> {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

pub(super) fn mat_vec<S: Scalar>(m: &M3<S>, v: V3<S>) -> V3<S> {
    [dot(m[0], v), dot(m[1], v), dot(m[2], v)]
}

pub(super) fn mat_mul<S: Scalar>(a: &M3<S>, b: &M3<S>) -> M3<S> {
    let mut out = [[cst::<S>(0.0); 3]; 3];
    for (r, row) in out.iter_mut().enumerate() {
        for (c, x) in row.iter_mut().enumerate() {
            *x = a[r][0] * b[0][c] + a[r][1] * b[1][c] + a[r][2] * b[2][c];
        }
    }
    out
}

pub(super) fn transpose<S: Scalar>(a: &M3<S>) -> M3<S> {
    let mut out = *a;
    for (r, row) in out.iter_mut().enumerate() {
        for (c, x) in row.iter_mut().enumerate() {
            *x = a[c][r];
        }
    }
    out
}

pub(super) fn mat_add<S: Scalar>(a: &M3<S>, b: &M3<S>) -> M3<S> {
    let mut out = *a;
    for (r, row) in out.iter_mut().enumerate() {
        for (c, x) in row.iter_mut().enumerate() {
            *x += b[r][c];
        }
    }
    out
}

pub(super) fn identity<S: Scalar>() -> M3<S> {
    cmat(&[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
}

/// The axial vector of the skew-symmetric part of `w`.
pub(super) fn vee<S: Scalar>(w: &M3<S>) -> V3<S> {
    [
        (w[2][1] - w[1][2]) * 0.5,
        (w[0][2] - w[2][0]) * 0.5,
        (w[1][0] - w[0][1]) * 0.5,
    ]
}

pub(super) fn skew(v: [f64; 3]) -> M3<f64> {
    [[0.0, -v[2], v[1]], [v[2], 0.0, -v[0]], [-v[1], v[0], 0.0]]
}

pub(super) fn unit(k: usize) -> [f64; 3] {
    let mut e = [0.0; 3];
    e[k] = 1.0;
    e
}

pub(super) fn re_v<T: Copy, S>(v: &V3<T>, f: impl Fn(T) -> S) -> V3<S> {
    [f(v[0]), f(v[1]), f(v[2])]
}

pub(super) fn re_m<T: Copy, S: Copy>(m: &M3<T>, f: impl Fn(T) -> S) -> M3<S> {
    [re_v(&m[0], &f), re_v(&m[1], &f), re_v(&m[2], &f)]
}
