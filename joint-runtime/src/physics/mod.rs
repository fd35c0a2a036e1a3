//! The system's equations at a state: mass matrix, right-hand side (loads − object terms),
//! constraint residuals, constraint Jacobian and the object Jacobians K, D.
//!
//! Sign conventions follow Exudyn (spec/solver.md §1): `M ä + C_qᵀλ = f`, `f = loads − LHS`.
//! All marker quantities come from the generated kernels; the rigid-body terms are Exudyn's
//! "version 1" EP equations (spec/items.md §3.3).
//!
//! One file per term: `mass_matrix` (M), `rhs` (f), `loads`, `connectors`, `constraints` (g,
//! C_q and their derivatives), `body_jacobians` (∂LHS/∂q, ∂LHS/∂q̇ by differences),
//! `rigid_body` (a rigid body's own M and LHS), `newton_euler` (the fast path's M·ä − f with
//! rigid bodies in Newton–Euler form), `rigid_body_2d` (ObjectRigidBody2D's), `beam_2d` (ObjectBeamGeometricallyExact2D's), `ode1` (the first-order equations ẏ = f1(y)), `scratch` (the evaluation's buffers).

mod beam_2d;
mod body_jacobians;
#[cfg(test)]
mod composition_tests;
mod connector_jacobians;
mod connectors;
mod constraint_check;
mod constraints;
mod coordinate_vector;
mod lie_group;
mod loads;
pub(crate) mod marker_level;
mod mass_matrix;
mod newton_euler;
mod ode1;
mod rhs;
mod rigid_body;
mod rigid_body_2d;
mod scratch;
mod states;

pub use constraints::{ConstraintJacobian, ConstraintRowFactors, ConvectiveTerm};
pub use rhs::RhsForm;
pub use scratch::Scratch;
pub use states::StateScratch;

use nalgebra::{Matrix3, Vector3};

use crate::assemble::Topology;

/// A vector from the kernels' array form.
fn v3(a: [f64; 3]) -> Vector3<f64> {
    Vector3::new(a[0], a[1], a[2])
}

/// A matrix from the kernels' row-major array form.
fn m3(a: [[f64; 3]; 3]) -> Matrix3<f64> {
    Matrix3::from_row_slice(a.as_flattened())
}

/// The cross-product matrix: `skew(v)·x = v × x`.
fn skew(v: &Vector3<f64>) -> Matrix3<f64> {
    Matrix3::new(0.0, -v[2], v[1], v[2], 0.0, -v[0], -v[1], v[0], 0.0)
}

/// Exudyn's forward-difference increments (`numericalDifferentiation`): coordinate x is
/// perturbed by ε = relativeEpsilon·max(minimumCoordinateSize, |x|).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ForwardDifference {
    /// `relativeEpsilon`.
    pub rel_eps: f64,
    /// `minimumCoordinateSize`.
    pub min_coord: f64,
}

impl ForwardDifference {
    /// The increment ε of coordinate value `x`.
    #[inline]
    pub fn increment(self, x: f64) -> f64 {
        self.rel_eps * self.min_coord.max(x.abs())
    }
}

impl Topology {
    /// Total coordinates `qt = reference + q`.
    pub fn total_coordinates(&self, q: &[f64], qt: &mut [f64]) {
        for i in 0..q.len() {
            qt[i] = self.reference[i] + q[i];
        }
    }
}
