//! Exudyn's exported cases and our own cases of the spherical joint, the markers, the loads,
//! the solver settings, superelements and kinematic trees (tools/reference/).

use super::*;

#[test]
pub(super) fn seed_mini_pendulum() {
    run_case("seed_mini_pendulum");
}

#[test]
pub(super) fn spherical_joint_test() {
    // Built by hand (examples/spherical_joint_chain.rs) the count is Exudyn's 6770; from the
    // file, whose reference coordinates are −0.30000000000000004 and so on, one step's res/r0
    // lands on the other side of relTol: 6771.
    run_case_with_slack(CASES, "sphericalJointTest", 1);
}

#[test]
pub(super) fn mass_point_pendulum() {
    run_case("mass_point_pendulum");
}

#[test]
pub(super) fn static_spring_hang() {
    run_case("static_spring_hang");
}

#[test]
pub(super) fn own_pendulum_spin_ga() {
    run_case_in(OWN_CASES, "pendulum_spin_ga");
}

#[test]
pub(super) fn own_pendulum_spin_rho05() {
    run_case_in(OWN_CASES, "pendulum_spin_rho05");
}

#[test]
pub(super) fn own_pendulum_spin_newmark_index2() {
    run_case_in(OWN_CASES, "pendulum_spin_newmark_index2");
}

#[test]
pub(super) fn own_pendulum_spin_newmark_index3() {
    run_case_in(OWN_CASES, "pendulum_spin_newmark_index3");
}

#[test]
pub(super) fn own_pendulum_spin_full_newton() {
    run_case_in(OWN_CASES, "pendulum_spin_full_newton");
}

#[test]
pub(super) fn own_pendulum_spin_jac_per_step() {
    run_case_in(OWN_CASES, "pendulum_spin_jac_per_step");
}

#[test]
pub(super) fn own_pendulum_spin_no_initial_acc() {
    run_case_in(OWN_CASES, "pendulum_spin_no_initial_acc");
}

#[test]
pub(super) fn own_pendulum_spin_large_step() {
    run_case_in(OWN_CASES, "pendulum_spin_large_step");
}

#[test]
pub(super) fn own_pendulum_spin_fixed_step() {
    run_case_in(OWN_CASES, "pendulum_spin_fixed_step");
}

#[test]
pub(super) fn own_pendulum_adaptive_steps() {
    run_case_in(OWN_CASES, "pendulum_adaptive_steps");
}

#[test]
pub(super) fn own_rxyz_com_offset_body_rigid() {
    run_case_in(OWN_CASES, "rxyz_com_offset_body_rigid");
}

#[test]
pub(super) fn own_two_bodies_node_rigid_loads_springs() {
    run_case_in(OWN_CASES, "two_bodies_node_rigid_loads_springs");
}

#[test]
pub(super) fn own_mass_points_free_axes_inactive() {
    run_case_in(OWN_CASES, "mass_points_free_axes_inactive");
}

#[test]
pub(super) fn own_static_two_bodies_spring() {
    run_case_in(OWN_CASES, "static_two_bodies_spring");
}

/// NodePointGround as an attachment point of a spherical joint and a spring, with an unused one
/// beside (tools/reference/make_node_cases.py): Exudyn's counts.
#[test]
pub(super) fn own_node_point_ground() {
    run_case_in(OWN_CASES, "node_point_ground");
}

/// LoadCoordinate on MarkerNodeCoordinate (on a mass point, a rigid body and a GenericODE2
/// oscillator), dynamic and, ramped by the load factor, static: Exudyn's counts.
#[test]
pub(super) fn own_node_coordinate_loads() {
    run_case_in(OWN_CASES, "node_coordinate_loads");
}

/// NodePoint2D with ObjectMassPoint2D (generated kinds NodePoint2D and MassPoint2DBody): a
/// pendulum on a ConnectorDistance, a spring, a force vector, gravity, every node and body
/// output (tools/reference/make_node_cases.py): Exudyn's counts.
#[test]
pub(super) fn own_point_2d_masses() {
    run_case_in(OWN_CASES, "point_2d_masses");
}

/// NodeRigidBody2D and ObjectRigidBody2D (centre of mass at the node and off it) on
/// RevoluteJoint2D, with body, node and rigid markers, gravity, a torque, a force and a spring;
/// every node, body, joint and marker output (tools/reference/make_planar_rigid_cases.py):
/// Exudyn's counts, at index 3 and index 2.
#[test]
pub(super) fn own_planar_double_pendulum() {
    run_case_in(OWN_CASES, "planar_double_pendulum");
}

#[test]
pub(super) fn own_planar_double_pendulum_index2() {
    run_case_in(OWN_CASES, "planar_double_pendulum_index2");
}

/// A slider-crank of planar bodies: PrismaticJoint2D on a tilted ground axis, and a ring on the
/// rod on a PrismaticJoint2D with `constrainRotation = false`; their Distance and Rotation
/// outputs (tools/reference/make_planar_rigid_cases.py): Exudyn's 3416 iterations and 50
/// Jacobians.
#[test]
pub(super) fn own_planar_slider_crank() {
    run_case_in(OWN_CASES, "planar_slider_crank");
}

/// A planar body off its centre of mass on a rotational coordinate spring, statically
/// (tools/reference/make_planar_rigid_cases.py): Exudyn's counts.
#[test]
pub(super) fn own_planar_pendulum_static() {
    run_case_in(OWN_CASES, "planar_pendulum_static");
}

/// ObjectBeamGeometricallyExact2D: a clamped frame of beams on shared NodeRigidBody2D nodes
/// with a precurved arm, a hinged arm that uses its nodes' reference angles, damping of every
/// kind and a planar pendulum at the tip (tools/reference/make_planar_rigid_cases.py): Exudyn's
/// counts (its Jacobian is exact, by automatic differentiation, as Exudyn's).
#[test]
pub(super) fn own_beam_2d_frame() {
    run_case_in(OWN_CASES, "beam_2d_frame");
}

/// The frame statically under a tip load, 4 load steps: Exudyn's counts.
#[test]
pub(super) fn own_beam_2d_frame_static() {
    run_case_in(OWN_CASES, "beam_2d_frame_static");
}

/// Node1D with ObjectMass1D (turned by its reference rotation) and ObjectRotationalMass1D,
/// coordinate springs and a coordinate torque, every body and node output
/// (tools/reference/make_node_cases.py): Exudyn's counts, and with RK44.
#[test]
pub(super) fn own_node_1d_masses() {
    run_case_in(OWN_CASES, "node_1d_masses");
}

#[test]
pub(super) fn own_node_1d_masses_rk44() {
    run_explicit_case("node_1d_masses_rk44");
}

#[test]
pub(super) fn own_node_coordinate_loads_static() {
    run_case_in(OWN_CASES, "node_coordinate_loads_static");
}

/// CoordinateSpringDampers on mass points, a rigid body's rotation coordinate and a ground
/// node's 'coordinate', one inactive (tools/reference/make_coordinate_connector_cases.py):
/// dynamic, static and with RK44, Exudyn's counts.
#[test]
pub(super) fn own_coordinate_spring_damper() {
    run_case_in(OWN_CASES, "coordinate_spring_damper");
}

#[test]
pub(super) fn own_contact_sphere_sphere_bounce() {
    run_case_in(OWN_CASES, "contact_sphere_sphere_bounce");
}

#[test]
pub(super) fn own_contact_sphere_sphere_restitution() {
    run_case_in(OWN_CASES, "contact_sphere_sphere_restitution");
}

#[test]
pub(super) fn own_contact_sphere_sphere_head_on_hollow() {
    run_case_in(OWN_CASES, "contact_sphere_sphere_head_on_hollow");
}

#[test]
pub(super) fn own_contact_sphere_sphere_oblique_friction() {
    run_case_in(OWN_CASES, "contact_sphere_sphere_oblique_friction");
}

#[test]
pub(super) fn own_coordinate_spring_damper_ext_spring_damper() {
    run_case_in(OWN_CASES, "coordinate_spring_damper_ext_spring_damper");
}

#[test]
pub(super) fn own_coordinate_spring_damper_ext_regularized_friction() {
    run_case_in(
        OWN_CASES,
        "coordinate_spring_damper_ext_regularized_friction",
    );
}

#[test]
pub(super) fn own_coordinate_spring_damper_ext_stick_slip() {
    run_case_in(OWN_CASES, "coordinate_spring_damper_ext_stick_slip");
}

#[test]
pub(super) fn own_coordinate_spring_damper_ext_limit_stops() {
    run_case_in(OWN_CASES, "coordinate_spring_damper_ext_limit_stops");
}

#[test]
pub(super) fn own_coordinate_spring_damper_ext_static() {
    run_case_in(OWN_CASES, "coordinate_spring_damper_ext_static");
}

#[test]
pub(super) fn own_coordinate_spring_damper_static() {
    run_case_in(OWN_CASES, "coordinate_spring_damper_static");
}

#[test]
pub(super) fn own_coordinate_spring_damper_rk44() {
    run_explicit_case("coordinate_spring_damper_rk44");
}

/// ConnectorGravity between mass points and a rigid body's marker, one pair passing through
/// the regularization radius, one inactive (tools/reference/make_force_connector_cases.py):
/// Exudyn's counts with its numerically differentiated Jacobian, and with RK67.
#[test]
pub(super) fn own_connector_gravity() {
    run_case_in(OWN_CASES, "connector_gravity");
}

#[test]
pub(super) fn own_connector_gravity_rk67() {
    run_explicit_case("connector_gravity_rk67");
}

/// TorsionalSpringDampers: to ground beside a revolute joint (offset, velocityOffset, torque),
/// between two free bodies with turned joint frames and a marker localHT rotation, one
/// inactive (tools/reference/make_force_connector_cases.py): Exudyn's counts with its
/// numerically differentiated Jacobian.
#[test]
pub(super) fn own_connector_torsional_spring_damper() {
    run_case_in(OWN_CASES, "connector_torsional_spring_damper");
}

/// TorsionalSpringDampers with a NodeGenericData (`nodeNumber`) whose angle runs past ±π:
/// the data coordinate keeps it continuous, updated after each converged step as Exudyn's
/// PostNewtonStep (one starts from 2π); the data nodes' Coordinates as sensors
/// (tools/reference/make_force_connector_cases.py): Exudyn's counts.
#[test]
pub(super) fn own_connector_torsional_continuous_angle() {
    run_case_in(OWN_CASES, "connector_torsional_continuous_angle");
}

/// The same with RK44 (free wheels: explicit solvers take no constraints): Exudyn's explicit
/// solvers update the data coordinates after each step as well.
#[test]
pub(super) fn own_connector_torsional_continuous_angle_rk44() {
    run_explicit_case("connector_torsional_continuous_angle_rk44");
}

/// ConnectorCoordinate, generated by the compiler from its one-line definition (coordinate
/// markers): a coordinate fixed to a ground node's, two coupled with factor1 and offset, one to
/// a rigid body's rotation angle, one inactive (tools/reference/make_coordinate_connector_cases.py):
/// index 3, index 2 and static with Exudyn's counts.
#[test]
pub(super) fn own_coordinate_constraint() {
    run_case_in(OWN_CASES, "coordinate_constraint");
}

#[test]
pub(super) fn own_coordinate_constraint_index2() {
    run_case_in(OWN_CASES, "coordinate_constraint_index2");
}

#[test]
pub(super) fn own_coordinate_constraint_static() {
    run_case_in(OWN_CASES, "coordinate_constraint_static");
}

/// ObjectConnectorCoordinateVector, generated by the compiler from its definition on
/// `Coordinates` markers (tools/reference/make_coordinate_vector_cases.py): a planar pendulum
/// held by the quadratic term on a MarkerNodeCoordinates against a ground node, a mass point at
/// a fixed offset by two linear rows, an inactive one; dynamic and static.
#[test]
pub(super) fn own_coordinate_vector_pendulum() {
    run_case_in(OWN_CASES, "coordinate_vector_pendulum");
}

#[test]
pub(super) fn own_coordinate_vector_static() {
    run_case_in(OWN_CASES, "coordinate_vector_static");
}

/// MarkerObjectODE2Coordinates on a rigid body (7 coordinates, 3 picked by the matrix) and on
/// mass points; index 3 and index 2.
#[test]
pub(super) fn own_coordinate_vector_body_coordinates() {
    run_case_in(OWN_CASES, "coordinate_vector_body_coordinates");
}

#[test]
pub(super) fn own_coordinate_vector_body_coordinates_index2() {
    run_case_in(OWN_CASES, "coordinate_vector_body_coordinates_index2");
}

/// `velocityLevel = True`: a prescribed velocity of a node coordinate.
#[test]
pub(super) fn own_coordinate_vector_velocity_level() {
    run_case_in(OWN_CASES, "coordinate_vector_velocity_level");
}

/// Coordinates fixed to ground with RK44: eliminated as Exudyn's explicit solvers do.
#[test]
pub(super) fn own_coordinate_constraint_eliminated_rk44() {
    run_explicit_case("coordinate_constraint_eliminated_rk44");
}

/// LinearSpringDampers: along a prismatic joint's axis (offset, velocityOffset, force), along a
/// turned axis of a localHT marker between two bodies, one inactive
/// (tools/reference/make_force_connector_cases.py): Exudyn's counts with its numerically
/// differentiated Jacobian.
#[test]
pub(super) fn own_connector_linear_spring_damper() {
    run_case_in(OWN_CASES, "connector_linear_spring_damper");
}

/// RigidBodySpringDampers (default formulation): an EP body held to ground by a full,
/// non-symmetric K with damping, offset and turned joint frames; a Tait–Bryan body coupled
/// through a localHT marker and a MarkerNodeRigid; an inactive one; every output as a sensor
/// (tools/reference/make_force_connector_cases.py). Exudyn differentiates this formulation
/// analytically (docs/research/connector_rigid_body_spring_damper.md §4b), and so does the
/// runtime, by its force definition's derivatives (`kernels::RigidBodySpringDamper`: force and
/// torque, the Tait–Bryan angles by `atan2`): Exudyn's counts (3443 iterations, 9 Jacobians).
/// Regression: with Exudyn's object-wise forward differences instead, one iteration more.
#[test]
pub(super) fn own_connector_rigid_body_spring_damper() {
    run_case_in(OWN_CASES, "connector_rigid_body_spring_damper");
}

/// The same with `useIntrinsicFormulation` (the SE(3) logarithm in the mid frame), which
/// Exudyn differentiates numerically as the runtime does: Exudyn's counts.
#[test]
pub(super) fn own_connector_rigid_body_spring_damper_intrinsic() {
    run_case_in(OWN_CASES, "connector_rigid_body_spring_damper_intrinsic");
}

/// `linearSolver.ignoreSingularJacobian` with EigenDense: a planar four-bar built in 3-D from
/// JointRevoluteZ, whose closing joint repeats three constraints, so the iteration matrix is
/// singular; Eigen's full-pivoting LU gives it increments (the components beyond its rank
/// zero), as in Exudyn (tools/reference/make_redundant_constraint_cases.py): Exudyn's counts
/// with Euler-parameter and with Tait–Bryan nodes.
#[test]
pub(super) fn own_redundant_four_bar_ep() {
    run_case_in(OWN_CASES, "redundant_four_bar_ep");
}

#[test]
pub(super) fn own_redundant_four_bar_rxyz() {
    run_case_in(OWN_CASES, "redundant_four_bar_rxyz");
}

#[test]
pub(super) fn own_pairings_m0_ground_point() {
    run_case_in(OWN_CASES, "pairings_m0_GroundPoint");
}

#[test]
pub(super) fn own_pairings_m0_mass_point_body() {
    run_case_in(OWN_CASES, "pairings_m0_MassPointBody");
}

#[test]
pub(super) fn own_pairings_m0_rigid_ep_point() {
    run_case_in(OWN_CASES, "pairings_m0_RigidEpPoint");
}

#[test]
pub(super) fn own_pairings_m0_rigid_rxyz_point() {
    run_case_in(OWN_CASES, "pairings_m0_RigidRxyzPoint");
}

#[test]
pub(super) fn own_pairings_m0_node_point() {
    run_case_in(OWN_CASES, "pairings_m0_NodePoint");
}

#[test]
pub(super) fn own_pairings_m0_node_ep() {
    run_case_in(OWN_CASES, "pairings_m0_NodeEp");
}

#[test]
pub(super) fn own_pairings_m0_node_rxyz() {
    run_case_in(OWN_CASES, "pairings_m0_NodeRxyz");
}

#[test]
pub(super) fn own_settings_weighted_tolerance_no_adapt_initial() {
    run_case_in(OWN_CASES, "settings_weighted_tolerance_no_adapt_initial");
}

#[test]
pub(super) fn own_settings_reset_accelerations_sensor_period() {
    run_case_in(OWN_CASES, "settings_reset_accelerations_sensor_period");
}

#[test]
pub(super) fn own_settings_numerical_differentiation_start_time() {
    run_case_in(OWN_CASES, "settings_numerical_differentiation_start_time");
}

#[test]
pub(super) fn own_settings_tight_newton_every_step_sensors() {
    run_case_in(OWN_CASES, "settings_tight_newton_every_step_sensors");
}

#[test]
pub(super) fn own_settings_adaptive_step_parameters() {
    run_case_in(OWN_CASES, "settings_adaptive_step_parameters");
}

#[test]
pub(super) fn own_settings_linear_newton_inactive() {
    run_case_in(OWN_CASES, "settings_linear_newton_inactive");
}

#[test]
pub(super) fn own_static_geometric_load_steps() {
    run_case_in(OWN_CASES, "static_geometric_load_steps");
}

#[test]
pub(super) fn own_static_no_load_factor_duration() {
    run_case_in(OWN_CASES, "static_no_load_factor_duration");
}

#[test]
pub(super) fn own_static_modified_newton_no_load_jacobian() {
    run_case_in(OWN_CASES, "static_modified_newton_no_load_jacobian");
}

/// ObjectJointRollingDisc, a joint written at velocity level only (its rows exist only as
/// velocities: non-holonomic), generated by the compiler from its definition: a tilted coin
/// rolling and turning on the ground, with Euler parameters (index 3, and index 2 with Newmark
/// as Exudyn's rollingCoinTest, where |θ| drifts and the Jacobian's G against the residual's
/// A·ω̄ matters), with Tait–Bryan angles and the forward row free, and a disc rolling on a
/// turning table, its axis and the plane normal given (tools/reference/make_velocity_level_cases.py).
/// Outputs: contact point, trail velocity, ForceLocal, RotationMatrix; Exudyn's counts.
#[test]
pub(super) fn own_rolling_disc_coin() {
    run_case_in(OWN_CASES, "rolling_disc_coin");
}

#[test]
pub(super) fn own_rolling_disc_coin_index2() {
    run_case_in(OWN_CASES, "rolling_disc_coin_index2");
}

#[test]
pub(super) fn own_rolling_disc_skate() {
    run_case_in(OWN_CASES, "rolling_disc_skate");
}

#[test]
pub(super) fn own_rolling_disc_turntable() {
    run_case_in(OWN_CASES, "rolling_disc_turntable");
}

/// ObjectConnectorCoordinate with `velocityLevel = True` (a joint written at velocity level):
/// a coordinate driven at a constant velocity (offset), two velocities coupled with factor1, an
/// inactive one; index 3 and index 2 with Exudyn's counts
/// (tools/reference/make_velocity_level_cases.py).
#[test]
pub(super) fn own_coordinate_velocity_constraint() {
    run_case_in(OWN_CASES, "coordinate_velocity_constraint");
}

#[test]
pub(super) fn own_coordinate_velocity_constraint_index2() {
    run_case_in(OWN_CASES, "coordinate_velocity_constraint_index2");
}

/// First-order coordinates (NodeGenericODE1, ObjectGenericODE1,
/// tools/reference/make_generic_ode1_cases.py): a state-space oscillator with an input on
/// reference coordinates, and beside a rigid body on a spring (one object over two nodes,
/// another adding to one of them), in generalized-α, TrapezoidalIndex2, RK44 and DOPRI5:
/// Exudyn's counts, ODE1 coordinates and velocities and every sensor.
#[test]
pub(super) fn own_generic_ode1_oscillator() {
    run_case_in(OWN_CASES, "generic_ode1_oscillator");
}

#[test]
pub(super) fn own_generic_ode1_mixed() {
    run_case_in(OWN_CASES, "generic_ode1_mixed");
}

#[test]
pub(super) fn own_generic_ode1_mixed_trapezoidal_index2() {
    run_case_in(OWN_CASES, "generic_ode1_mixed_trapezoidal_index2");
}

#[test]
pub(super) fn own_generic_ode1_mixed_rk44() {
    run_explicit_case("generic_ode1_mixed_rk44");
}

#[test]
pub(super) fn own_generic_ode1_oscillator_dopri5() {
    run_explicit_case("generic_ode1_oscillator_dopri5");
}

/// MarkerNodeRotationCoordinate in CoordinateSpringDampers (Rxyz to EP, ground to RotVecLG, so
/// differentiated numerically, through the composition on the Lie node) and a LoadCoordinate:
/// Exudyn's counts.
#[test]
pub(super) fn own_rotcoord_springs() {
    run_case_in(OWN_CASES, "rotcoord_springs");
}

/// ConnectorCoordinate on a rotation coordinate (factor1 = 2, offset 0.1) of a free EP or Rxyz
/// body: Exudyn's constraint row is the rotation Jacobian's row, not the angle's derivative,
/// so index 3 converges slowly (1597 iterations with 44 Jacobians, 1674 with 93) and λ is
/// only as determined as Exudyn's path makes it; TrapezoidalIndex2 and velocityLevel; and two
/// discs on spherical joints geared by their z angles (factor1 = −0.5): Exudyn's counts.
#[test]
pub(super) fn own_rotcoord_constraint_ep() {
    run_case_in(OWN_CASES, "rotcoord_constraint_ep");
}

#[test]
pub(super) fn own_rotcoord_constraint_rxyz() {
    run_case_in(OWN_CASES, "rotcoord_constraint_rxyz");
}

#[test]
pub(super) fn own_rotcoord_constraint_ep_index2() {
    run_case_in(OWN_CASES, "rotcoord_constraint_ep_index2");
}

#[test]
pub(super) fn own_rotcoord_constraint_velocity_level() {
    run_case_in(OWN_CASES, "rotcoord_constraint_velocity_level");
}

#[test]
pub(super) fn own_rotcoord_gears() {
    run_case_in(OWN_CASES, "rotcoord_gears");
}
