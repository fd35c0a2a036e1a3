//! A marker of a built-in kind, evaluated by the generated kinematics of its kind.

use nalgebra::{Matrix3, Vector3};

use super::kinematics::{MarkerAt, MarkerKinematics};
use crate::kernels::marker_kinematics as mk;

fn v3(a: [f64; 3]) -> Vector3<f64> {
    Vector3::new(a[0], a[1], a[2])
}

fn m3(a: [[f64; 3]; 3]) -> Matrix3<f64> {
    Matrix3::from_row_slice(a.as_flattened())
}

/// A marker of a built-in kind: the generated kernels of the kind over its contiguous
/// coordinates, with a BodyRigid/NodeRigid marker's local rotation `R` (frame `A·R`).
#[derive(Clone, Copy, Debug)]
pub struct KindMarker<'a> {
    /// The kind's index in the generated kinematics (`MarkerKind::index`).
    pub kind: usize,
    /// Kernel parameters (local position, ground pose, …).
    pub parameters: &'a [f64],
    /// The marker's contiguous coordinates (total).
    pub coordinates: &'a [f64],
    /// The marker's contiguous velocities.
    pub velocities: &'a [f64],
    /// The rotation of the marker's localHT, `None` for identity.
    pub local_rotation: Option<&'a Matrix3<f64>>,
}

pub(crate) const RESOLVED: &str = "resolved marker";

impl MarkerKinematics for KindMarker<'_> {
    fn position(&self, _: MarkerAt) -> Vector3<f64> {
        v3(mk::position(self.kind, self.parameters, self.coordinates).expect(RESOLVED))
    }

    fn velocity(&self, _: MarkerAt) -> Vector3<f64> {
        v3(mk::velocity(
            self.kind,
            self.parameters,
            self.coordinates,
            self.velocities,
        )
        .expect(RESOLVED))
    }

    fn rotation(&self, _: MarkerAt) -> Matrix3<f64> {
        let a = mk::rotation(self.kind, self.parameters, self.coordinates)
            .map_or_else(Matrix3::identity, m3);
        match self.local_rotation {
            Some(r) => a * r,
            None => a,
        }
    }

    fn angular_velocity(&self, _: MarkerAt) -> Vector3<f64> {
        mk::angular_velocity(
            self.kind,
            self.parameters,
            self.coordinates,
            self.velocities,
        )
        .map_or_else(Vector3::zeros, v3)
    }

    fn angular_velocity_local(&self, _: MarkerAt) -> Vector3<f64> {
        let w = mk::angular_velocity_local(
            self.kind,
            self.parameters,
            self.coordinates,
            self.velocities,
        )
        .map_or_else(Vector3::zeros, v3);
        match self.local_rotation {
            Some(r) => r.transpose() * w,
            None => w,
        }
    }

    fn position_jacobian(&self, _: MarkerAt, out: &mut [f64]) {
        mk::position_jacobian(self.kind, self.parameters, self.coordinates, out).expect(RESOLVED);
    }

    fn rotation_jacobian(&self, _: MarkerAt, out: &mut [f64]) {
        mk::rotation_jacobian(self.kind, self.parameters, self.coordinates, out)
            .expect("orientation marker");
    }

    fn position_jacobian_t_times_vector_q(&self, _: MarkerAt, f: &[f64; 3], out: &mut [f64]) {
        mk::position_jacobian_t_times_vector_q(
            self.kind,
            self.parameters,
            self.coordinates,
            f,
            out,
        )
        .expect(RESOLVED);
    }
}
