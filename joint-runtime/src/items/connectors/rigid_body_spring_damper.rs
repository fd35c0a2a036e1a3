//! ObjectConnectorRigidBodySpringDamper: a 6 × 6 spring-damper between two marker frames, as
//! pip Exudyn 1.13.6 computes it (docs/research/connector_rigid_body_spring_damper.md §2).
//!
//! Joint frames `A_i·R_i` (R_i: `rotationMarker0/1`). The default formulation measures in joint
//! frame 0: u_p = A_J0ᵀΔp and u_r the relative rotation's xyz Tait–Bryan angles; its forces are
//! its force definition's (`kernels::RigidBodySpringDamper`, K and D by 3 × 3 blocks). The
//! intrinsic one takes the SE(3) logarithm of the relative transformation (u_r its rotation
//! vector, u_p its translation part T⁻ᵀ(u_r)·A_J0ᵀΔp) and acts in the frame halfway,
//! A_J0·Exp(u_r/2), with forces of its own ([`RigidBodySpringDamper::intrinsic_lhs`]). Both
//! damp the relative velocity and angular velocity in that frame:
//! [f; τ] = K([u_p; u_r] − offset) + D[v; ω], applied as ±A_j f through the markers'
//! position Jacobians and ±A_j τ (plus, intrinsic, the moment of the force about the frames'
//! midpoint) through their rotation Jacobians.

use std::any::Any;
use std::sync::Arc;

use joint_core::JointParameters;
use nalgebra::{Matrix3, Matrix6, Vector3, Vector6};

use super::defined::check_finite;
use super::{
    ConnectorAt, ConnectorFamily, ConnectorObject, ConnectorType, DefinedForce, ExudynJacobian,
    ForceHook, ItemKeys, MarkerNeed, PARAMETERS_CHECKED, read_connector,
};
use crate::error::Result;
use crate::items::output_variable::put3;
use crate::items::{MarkerIndex, Object, OutputVariable};
use crate::kernels::rigid_body_spring_damper;
use crate::markers::rotation_vector::rotation_matrix_to_rot_xyz;
use crate::markers::rotation_vector::{exp_so3, log_so3, t_exp_so3_inv};
use crate::markers::{MarkerState, ResolvedMarker};

pub(super) const TYPE: ConnectorType = ConnectorType {
    name: "ConnectorRigidBodySpringDamper",
    spellings: &[
        "ConnectorRigidBodySpringDamper",
        "ObjectConnectorRigidBodySpringDamper",
        "RigidBodySpringDamper",
    ],
    read,
};

const IDENTITY3: [[f64; 3]; 3] = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];

/// The item's parameters, with Exudyn's names. Outputs, in its spring frame ([`RigidBodySpring`]):
/// `DisplacementLocal`, `Displacement`, `Rotation`, `VelocityLocal`, `AngularVelocityLocal`,
/// `ForceLocal`, `TorqueLocal`, `PotentialEnergy`, `HomogeneousTransformationLocal`.
#[derive(Clone, Debug, PartialEq)]
pub struct RigidBodySpringDamper {
    /// `stiffness`: K, row-major 6 × 6, on [u_p; u_r] (any matrix, not only symmetric).
    pub stiffness: [[f64; 6]; 6],
    /// `damping`: D, row-major 6 × 6, on the relative velocity and angular velocity.
    pub damping: [[f64; 6]; 6],
    /// `rotationMarker0`: joint frame 0 in marker 0 (Exudyn deprecates it for the marker's
    /// localHT; both are honoured).
    pub rotation_marker0: [[f64; 3]; 3],
    /// `rotationMarker1`: joint frame 1 in marker 1.
    pub rotation_marker1: [[f64; 3]; 3],
    /// `offset`: the relaxed [u_p; u_r].
    pub offset: [f64; 6],
    /// `useIntrinsicFormulation` (or its deprecated name `intrinsicFormulation`).
    pub intrinsic: bool,
}

impl Default for RigidBodySpringDamper {
    fn default() -> Self {
        RigidBodySpringDamper {
            stiffness: [[0.0; 6]; 6],
            damping: [[0.0; 6]; 6],
            rotation_marker0: IDENTITY3,
            rotation_marker1: IDENTITY3,
            offset: [0.0; 6],
            intrinsic: false,
        }
    }
}

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
    /// A_J0ᵀA_J1: `HomogeneousTransformationLocal`'s rotation in both formulations.
    pub relative_rotation: Matrix3<f64>,
    /// A_J0ᵀΔp: its translation.
    pub relative_position: Vector3<f64>,
    /// ½(u − offset)ᵀK(u − offset); 0 if inactive: `PotentialEnergy`.
    pub potential_energy: f64,
}

impl RigidBodySpringDamper {
    /// The connector object between the orientation markers `markers`: active, unnamed.
    pub fn between(self, markers: [MarkerIndex; 2]) -> Object {
        Object::Connector(ConnectorObject::new(Arc::new(self), markers))
    }

    /// The spring between the markers' states `m0`, `m1` (`parameters`: its definition's
    /// values as assembly laid them out; `intrinsic`: the formulation; force and energy 0 if
    /// not `active`).
    pub(crate) fn state(
        parameters: &[f64],
        intrinsic: bool,
        m0: &MarkerState,
        m1: &MarkerState,
        active: bool,
    ) -> RigidBodySpring {
        let p = rigid_body_spring_damper::Parameters::from_values(parameters)
            .expect(PARAMETERS_CHECKED);
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
        let (a0, a1) = (m0.rotation(), m1.rotation());
        let (frame0, frame1) = (a0 * rotation0, a1 * rotation1);
        let displacement = m1.position() - m0.position();
        let relative_rotation = frame0.transpose() * frame1;
        let relative_position = frame0.transpose() * displacement;
        let (frame, displacement_local, mut rotation) = if intrinsic {
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
        let (force, potential_energy) = if active {
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
        RigidBodySpring {
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
        }
    }

    /// The intrinsic formulation's LHS over the markers' columns, marker 0's then marker 1's,
    /// into `out`: ∓J_pᵀ(A_j f) + J_rᵀ(∓A_j τ + t), t = (A_j(−u_p/2)) × (A_j f) (the same on
    /// both markers). `jac` holds one marker Jacobian at a time. (The default formulation's
    /// LHS comes from its force definition.)
    pub(crate) fn intrinsic_lhs(
        spring: &RigidBodySpring,
        m: [&ResolvedMarker; 2],
        qt: &[f64],
        v: &[f64],
        out: &mut [f64],
        jac: &mut [f64],
    ) {
        let f = &spring.force;
        let force = spring.frame * Vector3::new(f[0], f[1], f[2]);
        let torque = spring.frame * Vector3::new(f[3], f[4], f[5]);
        let moment = (spring.frame * (-0.5 * spring.displacement_local)).cross(&force);
        let mut offset = 0;
        for (k, s) in [(0usize, -1.0), (1, 1.0)] {
            let marker = m[k];
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

fn read(keys: &mut dyn ItemKeys) -> Result<ConnectorObject> {
    keys.no_user_function("springForceTorqueUserFunction")?;
    keys.no_user_function("postNewtonStepUserFunction")?;
    // the NodeGenericData of the post-Newton user function, which cannot travel in a file:
    // Exudyn does not use it without one
    keys.opt_f64("nodeNumber")?;
    let intrinsic = match (
        keys.opt_bool("useIntrinsicFormulation")?,
        keys.opt_bool("intrinsicFormulation")?,
    ) {
        (Some(a), Some(b)) if a != b => {
            return Err(keys.error(
                "intrinsicFormulation",
                format!(
                    "the deprecated name of useIntrinsicFormulation, given as {b} where useIntrinsicFormulation is {a}"
                ),
            ));
        }
        (a, b) => a.or(b).unwrap_or(false),
    };
    let p = RigidBodySpringDamper {
        stiffness: keys.matrix6_or_zero("stiffness")?,
        damping: keys.matrix6_or_zero("damping")?,
        // row-major: the transpose's columns
        rotation_marker0: keys
            .matrix3_or_identity("rotationMarker0")?
            .transpose()
            .into(),
        rotation_marker1: keys
            .matrix3_or_identity("rotationMarker1")?
            .transpose()
            .into(),
        offset: keys.vec6("offset", [0.0; 6])?,
        intrinsic,
    };
    read_connector(keys, Arc::new(p))
}

impl ConnectorFamily for RigidBodySpringDamper {
    fn type_name(&self) -> &'static str {
        TYPE.name
    }

    fn marker_need(&self) -> MarkerNeed {
        MarkerNeed::Orientation
    }

    fn check(&self) -> std::result::Result<(), (&'static str, String)> {
        check_finite([
            ("stiffness", self.stiffness.as_flattened()),
            ("damping", self.damping.as_flattened()),
            ("offset", &self.offset),
            ("rotationMarker0", self.rotation_marker0.as_flattened()),
            ("rotationMarker1", self.rotation_marker1.as_flattened()),
        ])
    }

    fn defined_force(&self) -> Option<DefinedForce> {
        // K and D by 3 × 3 blocks, as the definition takes them
        let block = |m: &[[f64; 6]; 6], r: usize, c: usize| -> [[f64; 3]; 3] {
            std::array::from_fn(|i| std::array::from_fn(|j| m[r + i][c + j]))
        };
        let (k, d, o) = (&self.stiffness, &self.damping, &self.offset);
        let p = rigid_body_spring_damper::Parameters {
            stiffness_pp: block(k, 0, 0),
            stiffness_pr: block(k, 0, 3),
            stiffness_rp: block(k, 3, 0),
            stiffness_rr: block(k, 3, 3),
            damping_pp: block(d, 0, 0),
            damping_pr: block(d, 0, 3),
            damping_rp: block(d, 3, 0),
            damping_rr: block(d, 3, 3),
            offset_p: [o[0], o[1], o[2]],
            offset_r: [o[3], o[4], o[5]],
            rotation_marker0: self.rotation_marker0,
            rotation_marker1: self.rotation_marker1,
        };
        Some(DefinedForce {
            definition: &rigid_body_spring_damper::DEFINITION,
            parameters: p.to_values(),
            hook: ForceHook::RigidBodySpring {
                intrinsic: self.intrinsic,
            },
            // Exudyn differentiates the default formulation analytically (here: its force
            // definition's derivatives) where every marker provides the Jacobian's
            // derivative, the intrinsic one by object-wise forward differences
            jacobian: if self.intrinsic {
                ExudynJacobian::Numerical {
                    fast_derived: false,
                }
            } else {
                ExudynJacobian::Analytic
            },
        })
    }

    /// In its spring frame.
    fn output(&self, var: OutputVariable, at: &ConnectorAt, out: &mut Vec<f64>) -> Option<()> {
        use OutputVariable as O;
        let m0 = MarkerState::new(at.markers[0], at.qt, at.v);
        let m1 = MarkerState::new(at.markers[1], at.qt, at.v);
        let spring = Self::state(at.parameters, self.intrinsic, &m0, &m1, at.active);
        let f = spring.force;
        match var {
            O::DisplacementLocal => put3(out, spring.displacement_local),
            O::Displacement => put3(out, spring.displacement),
            O::Rotation => put3(out, spring.rotation),
            O::VelocityLocal => put3(out, spring.velocity_local),
            O::AngularVelocityLocal => put3(out, spring.angular_velocity_local),
            O::ForceLocal => put3(out, Vector3::new(f[0], f[1], f[2])),
            O::TorqueLocal => put3(out, Vector3::new(f[3], f[4], f[5])),
            O::PotentialEnergy => out.push(spring.potential_energy),
            O::HomogeneousTransformationLocal => {
                let (r, p) = (spring.relative_rotation, spring.relative_position);
                for i in 0..3 {
                    out.extend([r[(i, 0)], r[(i, 1)], r[(i, 2)], p[i]]);
                }
                out.extend([0.0, 0.0, 0.0, 1.0]);
            }
            _ => return None,
        }
        Some(())
    }

    fn same_as(&self, other: &dyn ConnectorFamily) -> bool {
        (other as &dyn Any).downcast_ref::<Self>() == Some(self)
    }
}

/// A 6 × 6 matrix from its 3 × 3 blocks `[pp, pr, rp, rr]` (the definition's layout of K and D).
fn six_by_six(blocks: &[[[f64; 3]; 3]; 4]) -> Matrix6<f64> {
    Matrix6::from_fn(|i, j| blocks[2 * (i / 3) + j / 3][i % 3][j % 3])
}
