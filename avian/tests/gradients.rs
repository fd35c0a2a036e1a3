//! The XPBD gradients the constraint builds from the marker-level Jacobian, checked against
//! central differences of the generated residual (in f64, the same kernels' generic instance):
//! a body's translation moves its marker by Δx, a small rotation Δθ *in world coordinates*,
//! applied on the left (R → exp(Δθ)·R, Avian's `delta_rotation` convention), moves it by
//! Δθ × r and turns its frame by Δθ, so
//!
//! * ∂C/∂x_i = ∂ṙ/∂v_i (`d_velocity`),
//! * ∂C/∂θ_i = r_i × ∂ṙ/∂v_i + ∂ṙ/∂ω_i (`d_angular_velocity`),
//!
//! which holds because the kernels' ω is the global angular velocity (Ȧ = skew(ω)·A); a body-
//! frame rotation vector (R → R·exp(Δθ)) gives other derivatives, which the last check shows.

use bevy::math::{DMat3, DQuat, DVec3};
use joint_avian::universal;
use joint_core::MarkerQuantities;

/// A body at `position` (its centre of mass) turned by `rotation`, with a marker at `anchor`
/// (body coordinates, from the centre of mass) with frame `basis`.
#[derive(Clone, Copy)]
struct Body {
    position: DVec3,
    rotation: DQuat,
    anchor: DVec3,
    basis: DQuat,
}

impl Body {
    fn marker(&self) -> MarkerQuantities<f64> {
        let frame = DMat3::from_quat(self.rotation * self.basis);
        MarkerQuantities {
            position: (self.position + self.rotation * self.anchor).to_array(),
            rotation: core::array::from_fn(|r| frame.row(r).to_array()),
            ..Default::default()
        }
    }

    fn lever_arm(&self) -> DVec3 {
        self.rotation * self.anchor
    }
}

fn bodies() -> [Body; 2] {
    [
        Body {
            position: DVec3::new(0.3, -0.2, 0.5),
            rotation: DQuat::from_euler(bevy::math::EulerRot::XYZ, 0.4, -0.7, 0.2),
            anchor: DVec3::new(0.5, -0.25, 0.1),
            basis: DQuat::from_rotation_y(0.3),
        },
        Body {
            position: DVec3::new(1.1, 0.4, -0.3),
            rotation: DQuat::from_euler(bevy::math::EulerRot::ZYX, -0.5, 0.6, 1.1),
            anchor: DVec3::new(-0.3, 0.2, 0.45),
            basis: DQuat::from_rotation_x(-0.8),
        },
    ]
}

fn residual(bodies: &[Body; 2]) -> [f64; 4] {
    universal::marker_level::position_residual(&bodies[0].marker(), &bodies[1].marker())
}

/// Central difference of the residual along `perturb(body, ±ε)` applied to body `i`.
fn central(i: usize, perturb: impl Fn(&mut Body, f64)) -> [f64; 4] {
    const EPSILON: f64 = 1e-6;
    let (mut plus, mut minus) = (bodies(), bodies());
    perturb(&mut plus[i], EPSILON);
    perturb(&mut minus[i], -EPSILON);
    let (cp, cm) = (residual(&plus), residual(&minus));
    core::array::from_fn(|row| (cp[row] - cm[row]) / (2.0 * EPSILON))
}

#[test]
fn gradients_by_translation_and_global_rotation_are_the_composed_jacobian() {
    let b = bodies();
    let jacobian = universal::marker_level::jacobian(&b[0].marker(), &b[1].marker());
    let mut largest: f64 = 0.0;
    let mut body_frame_largest: f64 = 0.0;
    for (i, moved) in b.iter().enumerate() {
        for k in 0..3 {
            let axis = DVec3::AXES[k];
            let by_x = central(i, |body, e| body.position += e * axis);
            let by_theta = central(i, |body, e| {
                body.rotation = DQuat::from_scaled_axis(e * axis) * body.rotation;
            });
            let by_body_theta = central(i, |body, e| {
                body.rotation *= DQuat::from_scaled_axis(e * axis);
            });
            for row in 0..universal::ROWS {
                let d_v = DVec3::from_array(jacobian.d_velocity[i][row]);
                let d_w = DVec3::from_array(jacobian.d_angular_velocity[i][row]);
                let d_theta = moved.lever_arm().cross(d_v) + d_w;
                largest = largest
                    .max((by_x[row] - d_v[k]).abs())
                    .max((by_theta[row] - d_theta[k]).abs());
                body_frame_largest =
                    body_frame_largest.max((by_body_theta[row] - d_theta[k]).abs());
            }
        }
    }
    println!(
        "largest |central difference − composed gradient|: global Δθ {largest:.2e}, body-frame \
         Δθ {body_frame_largest:.2e}"
    );
    // central differences at ε = 1e-6 in f64: O(ε²) and rounding O(1e-16/ε)
    assert!(largest < 1e-8, "{largest:e}");
    // the frame matters: the body-frame rotation vector's derivatives are other ones
    assert!(body_frame_largest > 1e-1, "{body_frame_largest:e}");
}
