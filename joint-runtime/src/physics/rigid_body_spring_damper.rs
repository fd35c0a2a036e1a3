//! ObjectConnectorRigidBodySpringDamper: a 6 × 6 spring-damper between two marker frames, as
//! pip Exudyn 1.13.6 computes it (docs/research/connector_rigid_body_spring_damper.md §2).
//!
//! Joint frames `A_i·R_i` (R_i: `rotationMarker0/1`). The default formulation measures in joint
//! frame 0: u_p = A_J0ᵀΔp and u_r the relative rotation's xyz Tait–Bryan angles. The intrinsic
//! one takes the SE(3) logarithm of the relative transformation (u_r its rotation vector, u_p
//! its translation part T⁻ᵀ(u_r)·A_J0ᵀΔp) and acts in the frame halfway, A_J0·Exp(u_r/2). Both
//! damp the relative velocity and angular velocity in that frame:
//! [f; τ] = K([u_p; u_r] − offset) + D[v; ω], applied as ±A_j f through the markers'
//! position Jacobians and ±A_j τ (plus, intrinsic, the moment of the force about the frames'
//! midpoint) through their rotation Jacobians.

use joint_core::JointParameters;
use nalgebra::{Matrix3, Matrix6, Vector3, Vector6};

use crate::assemble::{ConnectorKind, ForceHook, Topology};
use crate::kernels::rigid_body_spring_damper;
use crate::markers::MarkerState;
use crate::markers::rotation_vector::rotation_matrix_to_rot_xyz;
use crate::markers::rotation_vector::{exp_so3, log_so3, t_exp_so3_inv};

/// A rigid-body spring-damper's relative motion and force (its outputs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RigidBodySpring {
    /// u_p: `DisplacementLocal`.
    pub displacement_local: Vector3<f64>,
    /// Δp = p₁ − p₀ (global): `Displacement`.
    pub displacement: Vector3<f64>,
    /// u_r (components above π shifted by −2π, as Exudyn does): `Rotation`.
    pub rotation: Vector3<f64>,
    /// A_jᵀΔv: `VelocityLocal`.
    pub velocity_local: Vector3<f64>,
    /// A_jᵀ(A₁ω̄₁ − A₀ω̄₀) (the markers' own frames, without R_i): `AngularVelocityLocal`.
    pub angular_velocity_local: Vector3<f64>,
    /// [f; τ] in the spring frame; 0 if inactive: `ForceLocal`, `TorqueLocal`.
    pub force: Vector6<f64>,
    /// The spring frame A_j (joint frame 0, or the mid frame when intrinsic).
    pub frame: Matrix3<f64>,
    /// A_J0ᵀA_J1 and A_J0ᵀΔp: `HomogeneousTransformationLocal` in both formulations.
    pub relative_rotation: Matrix3<f64>,
    pub relative_position: Vector3<f64>,
    /// ½(u − offset)ᵀK(u − offset); 0 if inactive: `PotentialEnergy`.
    pub potential_energy: f64,
}

impl Topology {
    /// The state of connector `c` if it is a RigidBodySpringDamper.
    pub fn rigid_body_spring(&self, c: usize, qt: &[f64], v: &[f64]) -> Option<RigidBodySpring> {
        let con = &self.connectors[c];
        let ConnectorKind::Defined {
            parameters,
            hook: ForceHook::RigidBodySpring { intrinsic },
            ..
        } = &con.kind
        else {
            return None;
        };
        let p = rigid_body_spring_damper::Parameters::from_values(parameters)
            .expect("a RigidBodySpringDamper's parameters, laid out at assembly");
        let stiffness = six_by_six(&[
            p.stiffness_pp,
            p.stiffness_pr,
            p.stiffness_rp,
            p.stiffness_rr,
        ]);
        let damping = six_by_six(&[p.damping_pp, p.damping_pr, p.damping_rp, p.damping_rr]);
        let offset = Vector6::new(
            p.offset_p[0],
            p.offset_p[1],
            p.offset_p[2],
            p.offset_r[0],
            p.offset_r[1],
            p.offset_r[2],
        );
        let rotation0 = Matrix3::from_row_slice(p.rotation_marker0.as_flattened());
        let rotation1 = Matrix3::from_row_slice(p.rotation_marker1.as_flattened());
        let m0 = MarkerState::new(&self.markers[con.markers[0]], qt, v);
        let m1 = MarkerState::new(&self.markers[con.markers[1]], qt, v);
        let (a0, a1) = (m0.rotation(), m1.rotation());
        let (frame0, frame1) = (a0 * rotation0, a1 * rotation1);
        let displacement = m1.position() - m0.position();
        let relative_rotation = frame0.transpose() * frame1;
        let relative_position = frame0.transpose() * displacement;
        let (frame, displacement_local, mut rotation) = if *intrinsic {
            let u_r = log_so3(&relative_rotation);
            let u_p = t_exp_so3_inv(&u_r).transpose() * relative_position;
            (frame0 * exp_so3(&(0.5 * u_r)), u_p, u_r)
        } else {
            let u_r = Vector3::from(rotation_matrix_to_rot_xyz(&relative_rotation));
            (frame0, relative_position, u_r)
        };
        use std::f64::consts::PI;
        for x in rotation.iter_mut() {
            if *x > PI {
                *x -= 2.0 * PI;
            }
        }
        let velocity_local = frame.transpose() * (m1.velocity() - m0.velocity());
        let angular_velocity_local = frame.transpose()
            * (a1 * m1.angular_velocity_local() - a0 * m0.angular_velocity_local());
        let (force, potential_energy) = if con.active {
            let u = Vector6::new(
                displacement_local[0],
                displacement_local[1],
                displacement_local[2],
                rotation[0],
                rotation[1],
                rotation[2],
            ) - offset;
            let rate = Vector6::new(
                velocity_local[0],
                velocity_local[1],
                velocity_local[2],
                angular_velocity_local[0],
                angular_velocity_local[1],
                angular_velocity_local[2],
            );
            let spring = stiffness * u;
            (spring + damping * rate, 0.5 * u.dot(&spring))
        } else {
            (Vector6::zeros(), 0.0)
        };
        Some(RigidBodySpring {
            displacement_local,
            displacement,
            rotation,
            velocity_local,
            angular_velocity_local,
            force,
            frame,
            relative_rotation,
            relative_position,
            potential_energy,
        })
    }

    /// The LHS of an active RigidBodySpringDamper over its markers' columns, marker 0's then
    /// marker 1's, into `out`: ∓J_pᵀ(A_j f) + J_rᵀ(∓A_j τ + t), t = (A_j(−u_p/2)) × (A_j f) when
    /// intrinsic, else 0 (the same on both markers). `jac` holds one marker Jacobian at a time.
    /// The runtime calls it for the intrinsic formulation; the default one's LHS comes from its
    /// force definition (`kernels::RigidBodySpringDamper`, through `connector_lhs_local`).
    pub(super) fn rigid_body_spring_lhs(
        &self,
        c: usize,
        spring: &RigidBodySpring,
        qt: &[f64],
        v: &[f64],
        out: &mut [f64],
        jac: &mut [f64],
    ) {
        let con = &self.connectors[c];
        let f = &spring.force;
        let force = spring.frame * Vector3::new(f[0], f[1], f[2]);
        let torque = spring.frame * Vector3::new(f[3], f[4], f[5]);
        let moment = match con.kind {
            ConnectorKind::Defined {
                hook: ForceHook::RigidBodySpring { intrinsic: true },
                ..
            } => (spring.frame * (-0.5 * spring.displacement_local)).cross(&force),
            _ => Vector3::zeros(),
        };
        let mut offset = 0;
        for (k, s) in [(0usize, -1.0), (1, 1.0)] {
            let marker = &self.markers[con.markers[k]];
            let n = marker.columns.len();
            if n == 0 {
                continue;
            }
            let state = MarkerState::new(marker, qt, v);
            let jac = &mut jac[..3 * n];
            let out = &mut out[offset..offset + n];
            state.position_jacobian(jac);
            let fk = s * force;
            for (col, o) in out.iter_mut().enumerate() {
                *o = (0..3).map(|r| jac[r * n + col] * fk[r]).sum();
            }
            state.rotation_jacobian(jac);
            let tk = s * torque + moment;
            for (col, o) in out.iter_mut().enumerate() {
                *o += (0..3).map(|r| jac[r * n + col] * tk[r]).sum::<f64>();
            }
            offset += n;
        }
    }
}

/// A 6 × 6 matrix from its 3 × 3 blocks `[pp, pr, rp, rr]` (the definition's layout of K and D).
fn six_by_six(blocks: &[[[f64; 3]; 3]; 4]) -> Matrix6<f64> {
    Matrix6::from_fn(|i, j| blocks[2 * (i / 3) + j / 3][i % 3][j % 3])
}
