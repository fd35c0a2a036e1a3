//! Rotation vectors: Exudyn's ExpSO3 (Rodrigues), its tangent operator TExpSO3 and that
//! operator's inverse, LogSO3, and the Tait–Bryan angles of a rotation matrix (RotationMatrix2RotXYZ) (spec/superelements-and-kinematic-trees.md §0;
//! docs/research/connector_rigid_body_spring_damper.md §2d).

use nalgebra::{Matrix3, Vector3};

pub fn skew(v: &Vector3<f64>) -> Matrix3<f64> {
    Matrix3::new(0.0, -v[2], v[1], v[2], 0.0, -v[0], -v[1], v[0], 0.0)
}

fn sinc(x: f64) -> f64 {
    if x == 0.0 { 1.0 } else { x.sin() / x }
}

/// R = I + sinc(φ)·θ̃ + ½·sinc(φ/2)²·θ̃², φ = |θ|.
pub fn exp_so3(theta: &Vector3<f64>) -> Matrix3<f64> {
    let phi = theta.norm();
    let t = skew(theta);
    let s = sinc(0.5 * phi);
    Matrix3::identity() + sinc(phi) * t + 0.5 * s * s * t * t
}

/// T = I − ½·sinc(φ/2)²·θ̃ + t2·θ̃², with t2 = (1 − sin φ/φ)/φ² (series below φ = 0.01);
/// T(θ)·θ̇ is the body-frame angular velocity of ExpSO3(θ(t)).
pub fn t_exp_so3(theta: &Vector3<f64>) -> Matrix3<f64> {
    let phi = theta.norm();
    if phi == 0.0 {
        return Matrix3::identity();
    }
    let t = skew(theta);
    let s = sinc(0.5 * phi);
    let t2 = if phi < 0.01 {
        1.0 / 6.0 - phi * phi / 120.0 + phi.powi(4) / 5040.0
    } else {
        (1.0 - phi.sin() / phi) / (phi * phi)
    };
    Matrix3::identity() - 0.5 * s * s * t + t2 * t * t
}

/// T⁻¹ = β·I + ½·θ̃ + γ·θθᵀ with β = (φ/2)/tan(φ/2), γ = (1 − β)/φ² (Exudyn's TExpSO3Inv;
/// a series below φ = 0.02, where γ loses its digits): the inverse of [`t_exp_so3`].
pub fn t_exp_so3_inv(theta: &Vector3<f64>) -> Matrix3<f64> {
    let phi = theta.norm();
    if phi == 0.0 {
        return Matrix3::identity();
    }
    let half = skew(&(0.5 * theta));
    let tt = theta * theta.transpose();
    if phi <= 0.02 {
        let p2 = phi * phi;
        let c = 1.0 / 12.0 + p2 / 720.0 + p2 * p2 / 30240.0;
        return (1.0 - c * p2) * Matrix3::identity() + half + c * tt;
    }
    let beta = (0.5 * phi) / (0.5 * phi).tan();
    let gamma = (1.0 - beta) / (phi * phi);
    beta * Matrix3::identity() + half + gamma * tt
}

/// |v| as Exudyn sums it: √(v₀² + v₁² + v₂²) in index order.
fn norm3(v: &Vector3<f64>) -> f64 {
    (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt()
}

/// skew(v)² by rows and columns in index order (Exudyn's 3 × 3 product).
fn skew_squared(t: &Matrix3<f64>) -> Matrix3<f64> {
    Matrix3::from_fn(|r, c| t[(r, 0)] * t[(0, c)] + t[(r, 1)] * t[(1, c)] + t[(r, 2)] * t[(2, c)])
}

/// A NodeRigidBodyRotVecLG's rotation matrix, Exudyn's RotationVector2RotationMatrix:
/// A = I + (sin φ/φ)·ν̃ + (2 sin²(φ/2)/φ²)·ν̃², φ = |ν|.
///
/// Exudyn's quirk is kept: above φ = 2π only the angle is reduced (φ ← fmod(φ, 2π)) while ν̃
/// keeps the unreduced vector, so A is then no rotation. Composition keeps |ν| ≤ 2π, so a
/// Lie-group integration only meets it with initial values beyond a turn
/// (`rotation_vector_matrix_keeps_exudyns_reduction_quirk`).
pub fn rotation_vector_matrix(nu: &Vector3<f64>) -> Matrix3<f64> {
    let mut angle = norm3(nu);
    if angle == 0.0 {
        return Matrix3::identity();
    }
    if angle > 2.0 * std::f64::consts::PI {
        angle %= 2.0 * std::f64::consts::PI;
    }
    let t = skew(nu);
    let a = Matrix3::identity() + (angle.sin() / angle) * t;
    let s2 = (0.5 * angle).sin();
    a + (2.0 * s2 * s2 / (angle * angle)) * skew_squared(&t)
}

/// The rotation vector of exp(ν̃₀)·exp(Ω̃), Exudyn's CompositionRotationVector: Ω is a
/// body-frame increment, composed through the quaternion product. The result's norm is in
/// [0, 2π] (the angle is kept modulo 4π in (−2π, 2π]).
pub fn compose_rotation_vectors(v0: &Vector3<f64>, omega: &Vector3<f64>) -> Vector3<f64> {
    let (a, b) = (0.5 * norm3(v0), 0.5 * norm3(omega));
    let (c0, c1) = (a.cos(), b.cos());
    let (s0, s1) = (sinc(a), sinc(b));
    let x = c0 * c1 - 0.25 * s0 * s1 * (v0[0] * omega[0] + v0[1] * omega[1] + v0[2] * omega[2]);
    let xt = (1.0 - x * x).abs().sqrt();
    let w = std::f64::consts::PI - 2.0 * x.atan2(xt);
    let cross = Vector3::new(
        v0[1] * omega[2] - v0[2] * omega[1],
        v0[2] * omega[0] - v0[0] * omega[2],
        v0[0] * omega[1] - v0[1] * omega[0],
    );
    let rho = (s0 * c1) * v0 + (c0 * s1) * omega + (0.5 * s0 * s1) * cross;
    let r = norm3(&rho);
    if r != 0.0 {
        w * (rho * (1.0 / r))
    } else {
        Vector3::zeros()
    }
}

/// Euler parameters of a rotation matrix, Exudyn's RotationMatrix2EP: from the trace where
/// it is not ≈ −1, else from the largest diagonal entry.
pub fn rotation_matrix_to_ep(a: &Matrix3<f64>) -> [f64; 4] {
    let tr = a[(0, 0)] + a[(1, 1)] + a[(2, 2)] + 1.0;
    if tr.abs() > 1e-15 {
        let s = 0.5 / tr.abs().sqrt();
        return [
            0.25 / s,
            (a[(2, 1)] - a[(1, 2)]) * s,
            (a[(0, 2)] - a[(2, 0)]) * s,
            (a[(1, 0)] - a[(0, 1)]) * s,
        ];
    }
    if a[(0, 0)] > a[(1, 1)] && a[(0, 0)] > a[(2, 2)] {
        let s = 2.0 * (1.0 + a[(0, 0)] - a[(1, 1)] - a[(2, 2)]).abs().sqrt();
        [
            (a[(1, 2)] - a[(2, 1)]) / s,
            0.25 * s,
            (a[(0, 1)] + a[(1, 0)]) / s,
            (a[(0, 2)] + a[(2, 0)]) / s,
        ]
    } else if a[(1, 1)] > a[(2, 2)] {
        let s = 2.0 * (1.0 + a[(1, 1)] - a[(0, 0)] - a[(2, 2)]).abs().sqrt();
        [
            (a[(0, 2)] - a[(2, 0)]) / s,
            (a[(0, 1)] + a[(1, 0)]) / s,
            0.25 * s,
            (a[(1, 2)] + a[(2, 1)]) / s,
        ]
    } else {
        let s = 2.0 * (1.0 + a[(2, 2)] - a[(0, 0)] - a[(1, 1)]).abs().sqrt();
        [
            (a[(0, 1)] - a[(1, 0)]) / s,
            (a[(0, 2)] + a[(2, 0)]) / s,
            (a[(1, 2)] + a[(2, 1)]) / s,
            0.25 * s,
        ]
    }
}

/// The rotation vector of a rotation matrix (Exudyn's LogSO3Vector): φ·n with
/// φ = 2·atan2(|e|, e₀) from its Euler parameters (e₀, e).
pub fn log_so3(a: &Matrix3<f64>) -> Vector3<f64> {
    let [e0, e1, e2, e3] = rotation_matrix_to_ep(a);
    let n = Vector3::new(e1, e2, e3);
    let norm = n.norm();
    let phi = 2.0 * norm.atan2(e0);
    if norm != 0.0 {
        (phi / norm) * n
    } else {
        phi * n
    }
}

/// Exudyn's `RotationMatrix2RotXYZ` (spec/items.md §2.5).
pub fn rotation_matrix_to_rot_xyz(r: &Matrix3<f64>) -> [f64; 3] {
    let c = (r[(1, 2)] * r[(1, 2)] + r[(2, 2)] * r[(2, 2)]).sqrt();
    let psi1 = r[(0, 2)].atan2(c);
    if c > 1e-14 {
        [
            (-r[(1, 2)]).atan2(r[(2, 2)]),
            psi1,
            (-r[(0, 1)]).atan2(r[(0, 0)]),
        ]
    } else {
        [0.0, psi1, r[(1, 0)].atan2(r[(1, 1)])]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// T⁻¹·T = I on both branches (the series below φ = 0.02, the closed form above).
    #[test]
    fn t_exp_so3_inv_inverts_the_tangent_operator() {
        for theta in [
            Vector3::new(0.3, -0.7, 1.1),
            Vector3::new(1e-3, 2e-3, -4e-3),
            Vector3::new(0.011, -0.012, 0.008),
            Vector3::new(2.5, 0.1, -0.3),
        ] {
            let err = (t_exp_so3_inv(&theta) * t_exp_so3(&theta) - Matrix3::identity()).norm();
            assert!(err < 1e-14, "θ = {theta:?}: |T⁻¹T − I| = {err:e}");
        }
    }

    /// LogSO3 inverts ExpSO3 for angles below π, on the trace branch and, for a turn near π
    /// (trace near −1), on the largest-diagonal branches.
    #[test]
    fn log_so3_inverts_exp_so3() {
        for theta in [
            Vector3::new(0.3, -0.7, 1.1),
            Vector3::new(1e-9, 0.0, 2e-9),
            Vector3::new(0.0, 0.0, 0.0),
            Vector3::new(2.5, 0.1, -0.3),
        ] {
            let back = log_so3(&exp_so3(&theta));
            assert!((back - theta).norm() < 1e-13, "θ = {theta:?}: {back:?}");
        }
        use std::f64::consts::PI;
        for axis in [Vector3::x(), Vector3::y(), Vector3::z()] {
            // a half turn about `axis`: R = 2aaᵀ − I
            let half_turn = 2.0 * axis * axis.transpose() - Matrix3::identity();
            let back = log_so3(&half_turn);
            assert!(
                (back.norm() - PI).abs() < 1e-14
                    && (back.normalize() - axis)
                        .norm()
                        .min((back.normalize() + axis).norm())
                        < 1e-14,
                "half turn about {axis:?}: {back:?}"
            );
        }
    }

    /// Central differences of ExpSO3 along θ̇: Rᵀ·Ṙ must be skew(T(θ)·θ̇).
    #[test]
    fn tangent_operator_gives_the_body_frame_angular_velocity() {
        for (theta, rate) in [
            (Vector3::new(0.3, -0.7, 1.1), Vector3::new(0.5, 0.2, -0.4)),
            (
                Vector3::new(1e-3, 2e-3, -4e-3),
                Vector3::new(-1.0, 0.3, 0.8),
            ),
            (Vector3::new(2.5, 0.1, -0.3), Vector3::new(0.1, 0.9, 0.2)),
        ] {
            let h = 1e-6;
            let rd = (exp_so3(&(theta + h * rate)) - exp_so3(&(theta - h * rate))) / (2.0 * h);
            let w = exp_so3(&theta).transpose() * rd;
            let expected = t_exp_so3(&theta) * rate;
            let got = Vector3::new(w[(2, 1)], w[(0, 2)], w[(1, 0)]);
            assert!(
                (got - expected).norm() < 1e-8,
                "θ = {theta:?}: {got:?} vs {expected:?}"
            );
        }
    }

    /// Below a turn the RotVecLG matrix is ExpSO3; beyond, Exudyn reduces the angle only, and
    /// A is no rotation (ν = (0, 0, 7): |AᵀA − I| ≈ 545 in the max norm, as measured with 1.13.6).
    #[test]
    fn rotation_vector_matrix_keeps_exudyns_reduction_quirk() {
        let nu = Vector3::new(0.4, -0.5, 2.0);
        assert!((rotation_vector_matrix(&nu) - exp_so3(&nu)).norm() < 1e-15);
        let a = rotation_vector_matrix(&Vector3::new(0.0, 0.0, 7.0));
        let off = (a.transpose() * a - Matrix3::identity()).amax();
        assert!((off - 545.0).abs() < 1.0, "{off}");
    }

    /// Composition is the product of the rotations, and its result stays within a turn: a
    /// rotation about z by 1 rad and then 10 rad (ω = 10 over 1 s) is 7 − 4π about z.
    #[test]
    fn composition_multiplies_rotations_and_wraps_at_two_pi() {
        let (v0, om) = (Vector3::new(0.3, -0.2, 0.5), Vector3::new(-0.1, 0.4, 0.25));
        let c = compose_rotation_vectors(&v0, &om);
        assert!((exp_so3(&c) - exp_so3(&v0) * exp_so3(&om)).norm() < 1e-15);
        let z =
            compose_rotation_vectors(&Vector3::new(0.0, 0.0, 1.0), &Vector3::new(0.0, 0.0, 6.0));
        let expected = 7.0 - 4.0 * std::f64::consts::PI;
        assert!(
            (z - Vector3::new(0.0, 0.0, expected)).norm() < 1e-14,
            "{z:?}"
        );
        assert!((compose_rotation_vectors(&v0, &Vector3::zeros()) - v0).norm() < 1e-15);
    }

    #[test]
    fn exp_so3_is_a_rotation_about_theta() {
        let theta = Vector3::new(0.4, -0.2, 0.9);
        let r = exp_so3(&theta);
        assert!((r * r.transpose() - Matrix3::identity()).norm() < 1e-14);
        assert!((r * theta - theta).norm() < 1e-14);
        assert!((r.determinant() - 1.0).abs() < 1e-14);
    }
}
