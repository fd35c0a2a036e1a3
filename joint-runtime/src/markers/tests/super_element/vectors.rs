//! 3-vectors and 3×3 matrices (row-major arrays), independent of the runtime.

use super::*;

// ------------------------------------------------------------------------------------------
// 3-vectors and 3×3 matrices (row-major arrays), independent of the runtime's helpers.

pub(super) type V = [f64; 3];
pub(super) type M = [[f64; 3]; 3];

pub(super) const ZERO: V = [0.0; 3];
pub(super) const IDENTITY: M = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];

pub(super) fn add(a: V, b: V) -> V {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

pub(super) fn sub(a: V, b: V) -> V {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

pub(super) fn scale(s: f64, a: V) -> V {
    [s * a[0], s * a[1], s * a[2]]
}

pub(super) fn dot(a: V, b: V) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

pub(super) fn cross(a: V, b: V) -> V {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

pub(super) fn norm(a: V) -> f64 {
    dot(a, a).sqrt()
}

pub(super) fn mv(m: &M, a: V) -> V {
    [dot(m[0], a), dot(m[1], a), dot(m[2], a)]
}

pub(super) fn mm(a: &M, b: &M) -> M {
    let mut c = [[0.0; 3]; 3];
    for (i, row) in c.iter_mut().enumerate() {
        for (j, x) in row.iter_mut().enumerate() {
            *x = (0..3).map(|k| a[i][k] * b[k][j]).sum();
        }
    }
    c
}

pub(super) fn transpose(a: &M) -> M {
    let mut c = [[0.0; 3]; 3];
    for (i, row) in c.iter_mut().enumerate() {
        for (j, x) in row.iter_mut().enumerate() {
            *x = a[j][i];
        }
    }
    c
}

pub(super) fn madd(a: &M, b: &M) -> M {
    let mut c = *a;
    for (i, row) in c.iter_mut().enumerate() {
        for (j, x) in row.iter_mut().enumerate() {
            *x += b[i][j];
        }
    }
    c
}

pub(super) fn mscale(s: f64, a: &M) -> M {
    a.map(|row| row.map(|x| s * x))
}

pub(super) fn skew(v: V) -> M {
    [[0.0, -v[2], v[1]], [v[2], 0.0, -v[0]], [-v[1], v[0], 0.0]]
}

/// The axial vector of the skew-symmetric part.
pub(super) fn vee(m: &M) -> V {
    [
        0.5 * (m[2][1] - m[1][2]),
        0.5 * (m[0][2] - m[2][0]),
        0.5 * (m[1][0] - m[0][1]),
    ]
}

pub(super) fn inverse(m: &M) -> M {
    let c0 = cross(m[1], m[2]);
    let c1 = cross(m[2], m[0]);
    let c2 = cross(m[0], m[1]);
    let det = dot(m[0], c0);
    assert!(det.abs() > 1e-14, "singular W {m:?}");
    transpose(&[c0, c1, c2]).map(|row| row.map(|x| x / det))
}

/// ExpSO3 (Rodrigues): I + sin φ/φ·θ̃ + (1 − cos φ)/φ²·θ̃².
pub(super) fn exp_so3(theta: V) -> M {
    let phi = norm(theta);
    let (a, b) = if phi < 1e-4 {
        (1.0 - phi * phi / 6.0, 0.5 - phi * phi / 24.0)
    } else {
        (phi.sin() / phi, (1.0 - phi.cos()) / (phi * phi))
    };
    let t = skew(theta);
    madd(&madd(&IDENTITY, &mscale(a, &t)), &mscale(b, &mm(&t, &t)))
}

/// TExpSO3: I − (1 − cos φ)/φ²·θ̃ + (φ − sin φ)/φ³·θ̃² (T·θ̇ is the body-frame rate of ExpSO3).
pub(super) fn t_exp_so3(theta: V) -> M {
    let phi = norm(theta);
    let (a, b) = if phi < 1e-4 {
        (0.5 - phi * phi / 24.0, 1.0 / 6.0 - phi * phi / 120.0)
    } else {
        (
            (1.0 - phi.cos()) / (phi * phi),
            (phi - phi.sin()) / (phi * phi * phi),
        )
    };
    let t = skew(theta);
    madd(&madd(&IDENTITY, &mscale(-a, &t)), &mscale(b, &mm(&t, &t)))
}

/// Rotation matrix of unit Euler parameters.
pub(super) fn ep_rotation(e: [f64; 4]) -> M {
    let [e0, e1, e2, e3] = e;
    [
        [
            e0 * e0 + e1 * e1 - e2 * e2 - e3 * e3,
            2.0 * (e1 * e2 - e0 * e3),
            2.0 * (e1 * e3 + e0 * e2),
        ],
        [
            2.0 * (e1 * e2 + e0 * e3),
            e0 * e0 - e1 * e1 + e2 * e2 - e3 * e3,
            2.0 * (e2 * e3 - e0 * e1),
        ],
        [
            2.0 * (e1 * e3 - e0 * e2),
            2.0 * (e2 * e3 + e0 * e1),
            e0 * e0 - e1 * e1 - e2 * e2 + e3 * e3,
        ],
    ]
}

/// G_loc (ω_loc = G_loc·ė), spec §0.
pub(super) fn ep_g_local(e: [f64; 4]) -> [[f64; 4]; 3] {
    let [e0, e1, e2, e3] = e;
    [
        [-2.0 * e1, 2.0 * e0, 2.0 * e3, -2.0 * e2],
        [-2.0 * e2, -2.0 * e3, 2.0 * e0, 2.0 * e1],
        [-2.0 * e3, 2.0 * e2, -2.0 * e1, 2.0 * e0],
    ]
}

pub(super) fn vec3(v: &impl Index<usize, Output = f64>) -> V {
    [v[0], v[1], v[2]]
}

pub(super) fn mat3(m: &impl Index<(usize, usize), Output = f64>) -> M {
    let mut r = [[0.0; 3]; 3];
    for (i, row) in r.iter_mut().enumerate() {
        for (j, x) in row.iter_mut().enumerate() {
            *x = m[(i, j)];
        }
    }
    r
}

pub(super) fn unit(k: usize) -> V {
    let mut e = ZERO;
    e[k] = 1.0;
    e
}

/// Row-major 3 × n times a column-space vector.
pub(super) fn jac_times(j: &[f64], d: &[f64]) -> V {
    let n = d.len();
    let mut r = ZERO;
    for (k, x) in r.iter_mut().enumerate() {
        *x = (0..n).map(|c| j[k * n + c] * d[c]).sum();
    }
    r
}

pub(super) fn jac_column(j: &[f64], n: usize, c: usize) -> V {
    [j[c], j[n + c], j[2 * n + c]]
}
