//! Exudyn's explicit integrators and its Lie-group nodes (NodeRigidBodyRotVecLG) against
//! Exudyn (tools/reference/).

use super::*;

/// Every explicit DynamicSolverType on a rigid body and a mass point on springs
/// (tools/reference/make_explicit_cases.py): Exudyn's steps and rejected steps, its results to
/// round-off.
#[test]
pub(super) fn own_explicit_euler() {
    run_explicit_case("explicit_expliciteuler");
}

#[test]
pub(super) fn own_explicit_midpoint() {
    run_explicit_case("explicit_explicitmidpoint");
}

#[test]
pub(super) fn own_explicit_rk33() {
    run_explicit_case("explicit_rk33");
}

#[test]
pub(super) fn own_explicit_rk44() {
    run_explicit_case("explicit_rk44");
}

#[test]
pub(super) fn own_explicit_rk67() {
    run_explicit_case("explicit_rk67");
}

#[test]
pub(super) fn own_explicit_ode23() {
    run_explicit_case("explicit_ode23");
}

#[test]
pub(super) fn own_explicit_dopri5() {
    run_explicit_case("explicit_dopri5");
}

#[test]
pub(super) fn own_explicit_velocity_verlet() {
    run_explicit_case("explicit_velocityverlet");
}

/// A constant mass matrix, factorized once.
#[test]
pub(super) fn own_explicit_points_rk44() {
    run_explicit_case("explicit_points_rk44");
}

#[test]
pub(super) fn own_explicit_points_dopri5() {
    run_explicit_case("explicit_points_dopri5");
}

/// DOPRI5's error control with every one of its settings, the solver chosen in the settings.
#[test]
pub(super) fn own_explicit_dopri5_tolerances() {
    run_explicit_case("explicit_dopri5_tolerances");
}

/// ODE23 with automaticStepSize off: its error control still proposes and rejects steps, as
/// in Exudyn (512 steps, 61 rejections), and keeps its proposals (no doubling back).
#[test]
pub(super) fn own_explicit_ode23_fixed_step() {
    run_explicit_case("explicit_ode23_fixed_step");
}

/// computeEndOfStepAccelerations = False, computeMassMatrixInversePerBody = True,
/// reuseConstantMassMatrix = False.
#[test]
pub(super) fn own_explicit_rk44_options() {
    run_explicit_case("explicit_rk44_options");
}

/// eliminateConstraints = False: the spherical joint is ignored, λ = 0, as in Exudyn.
#[test]
pub(super) fn own_explicit_constraints_ignored() {
    run_explicit_case("explicit_constraints_ignored");
}

/// NodeRigidBodyRotVecLG with Exudyn's Lie-group integration
/// (tools/reference/make_rotation_coordinate_and_lie_group_cases.py): the spinning top of
/// Exudyn's explicitLieGroupIntegratorTest with RK44 and DOPRI5 (8517 steps, one rejected), and
/// a general body (reference rotation, centre of mass off the node, a force at a point, a
/// torque, gravity and a LoadCoordinate on a rotation coordinate) with every explicit method:
/// Exudyn's steps and rejections, its results to round-off.
#[test]
pub(super) fn own_rotvec_lg_top_rk44() {
    run_explicit_case("rotvec_lg_top_rk44");
}

#[test]
pub(super) fn own_rotvec_lg_top_dopri5() {
    run_explicit_case("rotvec_lg_top_dopri5");
}

#[test]
pub(super) fn own_rotvec_lg_expliciteuler() {
    run_explicit_case("rotvec_lg_expliciteuler");
}

#[test]
pub(super) fn own_rotvec_lg_explicitmidpoint() {
    run_explicit_case("rotvec_lg_explicitmidpoint");
}

#[test]
pub(super) fn own_rotvec_lg_rk44() {
    run_explicit_case("rotvec_lg_rk44");
}

#[test]
pub(super) fn own_rotvec_lg_rk67() {
    run_explicit_case("rotvec_lg_rk67");
}

#[test]
pub(super) fn own_rotvec_lg_dopri5() {
    run_explicit_case("rotvec_lg_dopri5");
}

#[test]
pub(super) fn own_rotvec_lg_ode23() {
    run_explicit_case("rotvec_lg_ode23");
}

/// `explicit.useLieGroupIntegration = False`: plain Runge–Kutta with ν̇ := ω̄ (kinematically
/// wrong, and what Exudyn does).
#[test]
pub(super) fn own_rotvec_lg_rk44_no_lie() {
    run_explicit_case("rotvec_lg_rk44_no_lie");
}

/// The general RotVecLG body in generalized-α (Exudyn's default Lie variant: predictor
/// increment turned by Ξ = I + skew(−hβ/(2γ)·ω̄_P), Newton moving ν by composition, the body's
/// K by differences through the composition), free and on a spherical joint, and on the joint
/// with TrapezoidalIndex2: Exudyn's iteration and Jacobian counts.
#[test]
pub(super) fn own_rotvec_lg_genalpha() {
    run_case_in(OWN_CASES, "rotvec_lg_genalpha");
}

#[test]
pub(super) fn own_rotvec_lg_genalpha_spherical() {
    run_case_in(OWN_CASES, "rotvec_lg_genalpha_spherical");
}

#[test]
pub(super) fn own_rotvec_lg_trapezoidal_index2_spherical() {
    run_case_in(OWN_CASES, "rotvec_lg_trapezoidal_index2_spherical");
}

/// The spherical-joint case with `lieGroupSimplifiedKinematicRelations` (and the tangent
/// operator, Exudyn's default): θ since the step's start as the unknown, K's and C_q's rotation
/// columns times T(θ): Exudyn's counts.
#[test]
pub(super) fn own_rotvec_lg_genalpha_simplified() {
    run_case_in(OWN_CASES, "rotvec_lg_genalpha_simplified");
}
