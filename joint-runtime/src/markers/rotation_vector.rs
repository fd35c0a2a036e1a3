//! Rotation vectors: Exudyn's ExpSO3 (Rodrigues) and its tangent operator TExpSO3
//! (spec/superelements-and-kinematic-trees.md §0).

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

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn exp_so3_is_a_rotation_about_theta() {
        let theta = Vector3::new(0.4, -0.2, 0.9);
        let r = exp_so3(&theta);
        assert!((r * r.transpose() - Matrix3::identity()).norm() < 1e-14);
        assert!((r * theta - theta).norm() < 1e-14);
        assert!((r.determinant() - 1.0).abs() < 1e-14);
    }
}
