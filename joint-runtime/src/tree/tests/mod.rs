//! ObjectKinematicTree dynamics and MarkerKinematicTreeRigid kinematics (spec
//! superelements-and-kinematic-trees.md §6–7), checked on seeded random chains, branched trees
//! and forests with all six joint types, random proper jointTransformations, offsets, COMs,
//! masses, SPD COM inertias, gravity and baseOffset, against an independent model written here:
//!
//! * plain forward kinematics T_i = T_π·HT(A_i, o_i)·J_i(q) (joint rotations by Rodrigues'
//!   formula), differentiated exactly with num-dual: Jacobians ∂x/∂q_j and J_ω from
//!   ∂R/∂q_j·Rᵀ, velocities and accelerations along q(t) = q + q̇t + ½q̈t² from hyper-dual
//!   numbers (ω from ṘRᵀ, α from R̈Rᵀ + ṘṘᵀ);
//! * M against the global form Σ m J_cᵀJ_c + J_ωᵀ I_g J_ω (and M symmetric positive definite);
//! * LHS against the global Newton–Euler form Σ J_cᵀ m(a_c⁰ − g) + J_ωᵀ(I_g α⁰ + ω × I_g ω), and
//!   M q̈ + LHS against Lagrange's equations d/dt(∂T/∂q̇) − ∂T/∂q + ∂V/∂q built from T and V of
//!   the own kinematics;
//! * jointForceVector and P/D control: the exact difference of LHS with and without them;
//! * linkForces/linkTorques: LHS += Σ J_p,i(b)ᵀ f_i + J_ω,iᵀ τ_i (Exudyn's convention, b the base
//!   offset);
//! * `point_jacobian` and the marker's state and Jacobians against finite differences of the
//!   runtime's frames and against the exact own Jacobians;
//! * `accelerations` against finite differences in time of the runtime's frame velocities and
//!   against the own hyper-dual accelerations;
//! * CRBA on a 500-link chain against the global form.

#![allow(clippy::needless_range_loop)] // index loops read best in the matrix code

use std::sync::Arc;

use crate::kernels::marker_kinematics::kinematic_tree::LinkFrame;
use crate::markers::kinematic_tree::KinematicTreeMarker;
use crate::tree::KinematicTreeData;
use num_dual::{Dual, Dual64, DualNum, HyperDual64};

mod accelerations;
mod algebra;
mod frames;
mod global_model;
mod joint_forces;
mod lhs;
mod link_forces;
mod mass_matrix;
mod random;
mod trees;

// The modules' items, for each other (modules holding only tests add none).
#[allow(unused_imports)]
use {
    accelerations::*, algebra::*, frames::*, global_model::*, joint_forces::*, lhs::*,
    link_forces::*, mass_matrix::*, random::*, trees::*,
};

// ------------------------------------------------------------------------------------------
// Tolerances

/// Identities that hold up to round-off (relative to max(1, scale)).
const TOL_EXACT: f64 = 1e-12;
/// Central finite differences.
const TOL_FD: f64 = 1e-7;
/// Central-difference step.
const H: f64 = 1e-5;
/// Random states per tree.
const STATES: usize = 3;

fn assert_close(got: f64, want: f64, tol: f64, scale: f64, what: impl Fn() -> String) {
    let bound = tol * scale.max(1.0);
    let diff = (got - want).abs();
    assert!(
        diff <= bound,
        "{}: got {got:.17e}, expected {want:.17e} (|diff| = {diff:.3e} > {bound:.3e})",
        what()
    );
}

fn max_abs(v: &[f64]) -> f64 {
    v.iter().fold(0.0, |m, x| m.max(x.abs()))
}
