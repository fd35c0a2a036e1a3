//! Markers on a NodeRigidBodyRotVecLG (node markers, and body markers on its rigid body).
//!
//! The node's coordinates are [u, ν] (ν a rotation vector) but its velocity coordinates are
//! [u̇, ω̄], and solvers move ν by composition, ν ∘ δ, not by addition. Its Jacobians are
//! therefore not derivatives by its coordinates, which is what the compiler's marker kinds
//! give: they are Exudyn's node Jacobians with respect to [u̇, ω̄],
//!
//! ```text
//! p = u + A(ν)·b,   ṗ = u̇ + A(ω̄ × b),   ω = A·ω̄
//! J_pos = [I | −A·skew(b)],   J_rot = [0 | A]
//! ```
//!
//! so this model is written here, as the superelement and kinematic-tree markers are, and
//! joints meet it through their marker-level kernels (whose Jacobians the compiler derives).
//! A is [`rotation_vector_matrix`] (Exudyn's, with its reduction quirk beyond a turn).
//! (docs/research/rotation_coordinate_and_rotvec_lie_group.md B1.)

use nalgebra::{Matrix3, Vector3};

use super::kinematics::{MarkerAt, MarkerKinematics};
use super::rotation_vector::{rotation_vector_matrix, skew, t_exp_so3};

/// A position or rigid marker on a RotVecLG node: the point `local_position` in the node frame
/// (0 for node markers, the centre of mass for BodyMass).
#[derive(Clone, Debug)]
pub struct LieGroupMarker {
    pub local_position: Vector3<f64>,
}

/// A [`LieGroupMarker`] with its resolved marker's local rotation R (frame A·R).
#[derive(Clone, Copy, Debug)]
pub struct LieGroupMarkerView<'a> {
    pub marker: &'a LieGroupMarker,
    pub local_rotation: Option<&'a Matrix3<f64>>,
}

/// The node's 6 total coordinates and velocities at `at` (its columns are the node's, in order).
fn node_state(at: MarkerAt) -> ([f64; 6], [f64; 6]) {
    let c = at.columns;
    (
        std::array::from_fn(|i| at.qt[c[i]]),
        std::array::from_fn(|i| at.v[c[i]]),
    )
}

fn rotation_of(q: &[f64; 6]) -> Matrix3<f64> {
    rotation_vector_matrix(&Vector3::new(q[3], q[4], q[5]))
}

impl MarkerKinematics for LieGroupMarkerView<'_> {
    fn position(&self, at: MarkerAt) -> Vector3<f64> {
        let (q, _) = node_state(at);
        let u = Vector3::new(q[0], q[1], q[2]);
        let b = &self.marker.local_position;
        if *b == Vector3::zeros() {
            return u;
        }
        u + rotation_of(&q) * b
    }

    fn velocity(&self, at: MarkerAt) -> Vector3<f64> {
        let (q, v) = node_state(at);
        let ut = Vector3::new(v[0], v[1], v[2]);
        let b = &self.marker.local_position;
        if *b == Vector3::zeros() {
            return ut;
        }
        let w = Vector3::new(v[3], v[4], v[5]);
        ut + rotation_of(&q) * w.cross(b)
    }

    fn rotation(&self, at: MarkerAt) -> Matrix3<f64> {
        let (q, _) = node_state(at);
        let a = rotation_of(&q);
        match self.local_rotation {
            Some(r) => a * r,
            None => a,
        }
    }

    fn angular_velocity(&self, at: MarkerAt) -> Vector3<f64> {
        let (q, v) = node_state(at);
        rotation_of(&q) * Vector3::new(v[3], v[4], v[5])
    }

    fn angular_velocity_local(&self, at: MarkerAt) -> Vector3<f64> {
        let (_, v) = node_state(at);
        let w = Vector3::new(v[3], v[4], v[5]);
        match self.local_rotation {
            Some(r) => r.transpose() * w,
            None => w,
        }
    }

    /// [I | −A·skew(b)], row-major 3 × 6.
    fn position_jacobian(&self, at: MarkerAt, out: &mut [f64]) {
        let (q, _) = node_state(at);
        let rot = -(rotation_of(&q) * skew(&self.marker.local_position));
        for r in 0..3 {
            for c in 0..3 {
                out[r * 6 + c] = if r == c { 1.0 } else { 0.0 };
                out[r * 6 + 3 + c] = rot[(r, c)];
            }
        }
    }

    /// [0 | A], row-major 3 × 6.
    fn rotation_jacobian(&self, at: MarkerAt, out: &mut [f64]) {
        let (q, _) = node_state(at);
        let a = rotation_of(&q);
        for r in 0..3 {
            for c in 0..3 {
                out[r * 6 + c] = 0.0;
                out[r * 6 + 3 + c] = a[(r, c)];
            }
        }
    }

    /// ∂(J_posᵀ f)/∂q, with ν additive (as Exudyn differentiates its node's Aᵀτ): the
    /// rotation rows of J_posᵀ f are b × (Aᵀ f), and ∂(Aᵀ f)/∂ν = Aᵀ·skew(f)·T(ν)ᵀ with T
    /// the tangent operator (Ȧ = A·skew(T ν̇)); the rest is zero.
    fn position_jacobian_t_times_vector_q(&self, at: MarkerAt, f: &[f64; 3], out: &mut [f64]) {
        let (q, _) = node_state(at);
        let nu = Vector3::new(q[3], q[4], q[5]);
        let d = skew(&self.marker.local_position)
            * rotation_of(&q).transpose()
            * skew(&Vector3::new(f[0], f[1], f[2]))
            * t_exp_so3(&nu).transpose();
        out[..36].fill(0.0);
        for r in 0..3 {
            for c in 0..3 {
                out[(3 + r) * 6 + 3 + c] = d[(r, c)];
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at<'a>(qt: &'a [f64], v: &'a [f64], columns: &'a [usize]) -> MarkerAt<'a> {
        MarkerAt { qt, v, columns }
    }

    /// The velocity is J_pos·[u̇, ω̄] and the angular velocity J_rot·[u̇, ω̄]; a composed
    /// increment ν ∘ (h·ω̄) moves the point by h·ṗ to first order (the Jacobians are with
    /// respect to the Lie-algebra increment, not ν); ∂(J_posᵀf)/∂ν against central differences.
    #[test]
    fn jacobians_are_with_respect_to_the_body_frame_increment() {
        let marker = LieGroupMarker {
            local_position: Vector3::new(0.3, -0.2, 0.5),
        };
        let view = LieGroupMarkerView {
            marker: &marker,
            local_rotation: None,
        };
        let q = [0.1, 0.2, -0.3, 0.4, -0.5, 2.0];
        let v = [0.5, -1.0, 0.2, 3.0, -7.0, 11.0];
        let cols = [0, 1, 2, 3, 4, 5];
        let a = at(&q, &v, &cols);
        let mut jp = [0.0; 18];
        let mut jr = [0.0; 18];
        view.position_jacobian(a, &mut jp);
        view.rotation_jacobian(a, &mut jr);
        let pv = view.velocity(a);
        let w = view.angular_velocity(a);
        for r in 0..3 {
            let x: f64 = (0..6).map(|c| jp[r * 6 + c] * v[c]).sum();
            let y: f64 = (0..6).map(|c| jr[r * 6 + c] * v[c]).sum();
            assert!((x - pv[r]).abs() < 1e-13 && (y - w[r]).abs() < 1e-13);
        }
        let h = 1e-7;
        let nu = Vector3::new(q[3], q[4], q[5]);
        let moved = super::super::rotation_vector::compose_rotation_vectors(
            &nu,
            &(h * Vector3::new(v[3], v[4], v[5])),
        );
        let q2 = [
            q[0] + h * v[0],
            q[1] + h * v[1],
            q[2] + h * v[2],
            moved[0],
            moved[1],
            moved[2],
        ];
        let dp = (view.position(at(&q2, &v, &cols)) - view.position(a)) / h;
        assert!((dp - pv).norm() < 1e-5, "{dp:?} vs {pv:?}");

        let f = [0.7, -1.1, 0.4];
        let mut d = [0.0; 36];
        view.position_jacobian_t_times_vector_q(a, &f, &mut d);
        let jt_f = |q: &[f64]| {
            let mut j = [0.0; 18];
            view.position_jacobian(at(q, &v, &cols), &mut j);
            std::array::from_fn::<f64, 6, _>(|c| (0..3).map(|r| j[r * 6 + c] * f[r]).sum())
        };
        for c in 0..6 {
            let (mut qp, mut qm) = (q, q);
            qp[c] += 1e-6;
            qm[c] -= 1e-6;
            let (p, m) = (jt_f(&qp), jt_f(&qm));
            for r in 0..6 {
                let fd = (p[r] - m[r]) / 2e-6;
                assert!(
                    (fd - d[r * 6 + c]).abs() < 1e-8,
                    "({r}, {c}): {fd} vs {}",
                    d[r * 6 + c]
                );
            }
        }
    }
}
