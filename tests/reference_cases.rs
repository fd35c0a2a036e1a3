//! The reference cases of tests/reference/exudyn_cases (NAME.json model, NAME.ref.json pip
//! Exudyn 1.13.6's results): read the model, assemble, solve as the file asks, compare the final
//! state and every stored sensor row with Exudyn's.

use std::fmt::Write as _;

use joint::runtime::model::{SolveKind, read_model, result_json};
use serde_json::Value;

/// The cases exported by Exudyn's maintainers' seed (../shared/reference/cases, copied).
const CASES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/reference/exudyn_cases/");
/// Our own corpus, made by tools/reference/make_spherical_cases.py with pip Exudyn 1.13.6.
const OWN_CASES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/reference/own_cases/");

/// Relative tolerances, each applied as `tol·max(1, |ref|)`.
const TOL_ODE2: f64 = 1e-8;
const TOL_VELOCITY: f64 = 1e-6;
const TOL_AE: f64 = 1e-5;
const TOL_SENSOR_TIME: f64 = 1e-9;
const TOL_SENSOR: f64 = 1e-6;
const TOL_SENSOR_FORCE: f64 = 1e-4;

/// Collects mismatches and the largest scaled error per quantity.
struct Comparison {
    case: &'static str,
    /// Tolerance of the λ-derived sensors (Force, ForceLocal, TorqueLocal).
    lambda_tol: f64,
    failures: Vec<String>,
    /// (quantity, largest |x − ref| / max(1, |ref|), where).
    largest: Vec<(&'static str, f64, String)>,
}

impl Comparison {
    fn new(case: &'static str) -> Self {
        Comparison {
            case,
            lambda_tol: f64::NAN,
            failures: Vec::new(),
            largest: Vec::new(),
        }
    }

    fn fail(&mut self, message: String) {
        self.failures.push(format!("{}: {message}", self.case));
    }

    /// Remember `err` as a candidate for the largest error of `quantity`.
    fn record(&mut self, quantity: &'static str, entry: &str, err: f64) {
        let err = if err.is_nan() { f64::INFINITY } else { err };
        match self.largest.iter_mut().find(|(q, _, _)| *q == quantity) {
            Some(l) if err > l.1 => *l = (quantity, err, entry.to_owned()),
            Some(_) => {}
            None => self.largest.push((quantity, err, entry.to_owned())),
        }
    }

    /// Compare with tolerance `tol·max(1, |ref|)`.
    fn value(&mut self, quantity: &'static str, entry: &str, x: f64, reference: f64, tol: f64) {
        let scaled = (x - reference).abs() / reference.abs().max(1.0);
        self.record(quantity, entry, scaled);
        if scaled.is_nan() || scaled > tol {
            self.fail(format!(
                "{entry} = {x:e}, Exudyn {reference:e} (error {:e}, tolerance {tol:e}·max(1,|ref|))",
                x - reference
            ));
        }
    }

    fn vector(&mut self, quantity: &'static str, ours: &Value, reference: &Value, tol: f64) {
        let (Some(a), Some(b)) = (numbers(ours), numbers(reference)) else {
            self.fail(format!(
                "{quantity}: not an array of numbers (ours {ours}, Exudyn {reference})"
            ));
            return;
        };
        if a.len() != b.len() {
            self.fail(format!(
                "{quantity}: length {}, Exudyn {}",
                a.len(),
                b.len()
            ));
            return;
        }
        for (i, (x, r)) in a.iter().zip(&b).enumerate() {
            let name = quantity.split(' ').next().unwrap_or(quantity);
            self.value(quantity, &format!("{name}[{i}]"), *x, *r, tol);
        }
    }

    fn sensors(&mut self, ours: &Value, reference: &Value) {
        let (Some(ours), Some(reference)) = (ours.as_array(), reference.as_array()) else {
            self.fail("sensors: not an array".to_owned());
            return;
        };
        if ours.len() != reference.len() {
            self.fail(format!(
                "sensors: {} sensors, Exudyn {}",
                ours.len(),
                reference.len()
            ));
            return;
        }
        for (s, (o, r)) in ours.iter().zip(reference).enumerate() {
            let output = r["outputVariableType"].as_str().unwrap_or("?");
            if o["outputVariableType"] != r["outputVariableType"] {
                self.fail(format!(
                    "sensors[{s}]: outputVariableType {}, Exudyn {}",
                    o["outputVariableType"], r["outputVariableType"]
                ));
            }
            let from_lambda = matches!(output, "Force" | "ForceLocal" | "TorqueLocal");
            let tol = if output == "Force" {
                TOL_SENSOR_FORCE
            } else {
                TOL_SENSOR
            };
            // a case may widen the λ tolerance (never narrow the defaults' meaning)
            let tol = if from_lambda && self.lambda_tol.is_finite() {
                tol.max(self.lambda_tol)
            } else {
                tol
            };
            let quantity: &'static str = if output == "Force" {
                "sensor values (Force)"
            } else {
                "sensor values"
            };
            let (Some(rows), Some(ref_rows)) = (o["values"].as_array(), r["values"].as_array())
            else {
                self.fail(format!("sensors[{s}]: values are not arrays"));
                continue;
            };
            if rows.len() != ref_rows.len() {
                self.fail(format!(
                    "sensors[{s}] ({output}): {} rows, Exudyn {}",
                    rows.len(),
                    ref_rows.len()
                ));
                continue;
            }
            for (k, (row, ref_row)) in rows.iter().zip(ref_rows).enumerate() {
                let (Some(row), Some(ref_row)) = (numbers(row), numbers(ref_row)) else {
                    self.fail(format!("sensors[{s}].values[{k}]: not an array of numbers"));
                    continue;
                };
                if row.len() != ref_row.len() {
                    self.fail(format!(
                        "sensors[{s}].values[{k}]: {} columns, Exudyn {}",
                        row.len(),
                        ref_row.len()
                    ));
                    continue;
                }
                // time stamp: absolute tolerance
                let dt = (row[0] - ref_row[0]).abs();
                self.record(
                    "sensor time (absolute)",
                    &format!("sensors[{s}].values[{k}][0]"),
                    dt,
                );
                if dt.is_nan() || dt > TOL_SENSOR_TIME {
                    self.fail(format!(
                        "sensors[{s}].values[{k}][0] (time) = {}, Exudyn {}",
                        row[0], ref_row[0]
                    ));
                }
                for c in 1..row.len() {
                    // Rotation angles at ±π lie on atan2's branch cut, where a zero's sign
                    // (±0 from round-off) picks the side: compare angles modulo 2π.
                    let ours = if output == "Rotation" {
                        use std::f64::consts::{PI, TAU};
                        let d = (row[c] - ref_row[c] + PI).rem_euclid(TAU) - PI;
                        ref_row[c] + d
                    } else {
                        row[c]
                    };
                    self.value(
                        quantity,
                        &format!(
                            "sensors[{s}] ({output}).values[{k}][{c}] at t = {}",
                            ref_row[0]
                        ),
                        ours,
                        ref_row[c],
                        tol,
                    );
                }
            }
        }
    }

    fn summary(&self) -> String {
        let mut s = format!(
            "{}: largest errors (|x − ref| / max(1, |ref|), time absolute):",
            self.case
        );
        for (q, e, at) in &self.largest {
            let _ = write!(s, "\n  {q}: {e:.3e} at {at}");
        }
        s
    }

    fn finish(self) {
        eprintln!("{}", self.summary());
        if !self.failures.is_empty() {
            let n = self.failures.len();
            let shown: Vec<&str> = self.failures.iter().take(20).map(String::as_str).collect();
            panic!(
                "{n} mismatch(es) against Exudyn:\n{}{}\n{}",
                shown.join("\n"),
                if n > 20 {
                    format!("\n… and {} more", n - 20)
                } else {
                    String::new()
                },
                self.summary()
            );
        }
    }
}

fn numbers(v: &Value) -> Option<Vec<f64>> {
    v.as_array()?.iter().map(Value::as_f64).collect()
}

fn run_case(case: &'static str) {
    run_case_in(CASES, case);
}

fn run_case_in(dir: &str, case: &'static str) {
    run_case_with_slack(dir, case, 0);
}

/// `iteration_slack`: how far the Newton iteration count may differ from Exudyn's (a
/// round-off flip of res/r0 around relTol can add or save one iteration, spec/solver.md §8.2).
fn run_case_with_slack(dir: &str, case: &'static str, iteration_slack: u64) {
    run_case_with_tolerances(dir, case, iteration_slack, 0, f64::NAN);
}

/// `run_case_in` with slack on the Newton iteration and Jacobian counts and a wider tolerance
/// for λ-derived sensors, for cases whose reference is only as converged as Exudyn's default
/// Newton tolerances make it (each use says how that was measured).
fn run_case_with_tolerances(
    dir: &str,
    case: &'static str,
    iteration_slack: u64,
    jacobian_slack: u64,
    lambda_tol: f64,
) {
    let model_text = std::fs::read_to_string(format!("{dir}{case}.json"))
        .unwrap_or_else(|e| panic!("{case}: cannot read the model: {e}"));
    let ref_text = std::fs::read_to_string(format!("{dir}{case}.ref.json"))
        .unwrap_or_else(|e| panic!("{case}: cannot read the reference: {e}"));
    let reference: Value =
        serde_json::from_str(&ref_text).unwrap_or_else(|e| panic!("{case}: reference: {e}"));

    let model =
        read_model(&model_text).unwrap_or_else(|e| panic!("{case}: reading the model: {e}"));
    let mut sim = model
        .mbs
        .assemble()
        .unwrap_or_else(|e| panic!("{case}: assemble: {e}"));
    match model.solve {
        SolveKind::Dynamic => sim.solve_dynamic(&model.settings),
        SolveKind::Static => sim.solve_static(&model.settings),
    }
    .unwrap_or_else(|e| panic!("{case}: {:?} solve: {e}", model.solve));
    let ours = result_json(&sim);

    let mut c = Comparison::new(case);
    c.lambda_tol = lambda_tol;
    c.vector(
        "ode2Coordinates",
        &ours["ode2Coordinates"],
        &reference["ode2Coordinates"],
        TOL_ODE2,
    );
    c.vector(
        "ode2Velocities",
        &ours["ode2Velocities"],
        &reference["ode2Velocities"],
        TOL_VELOCITY,
    );
    c.vector(
        "aeCoordinates",
        &ours["aeCoordinates"],
        &reference["aeCoordinates"],
        TOL_AE,
    );
    c.sensors(&ours["sensors"], &reference["sensors"]);
    // Accelerations have no tolerance of their own; their largest error is only reported.
    c.vector(
        "ode2Accelerations (reported only)",
        &ours["ode2Accelerations"],
        &reference["ode2Accelerations"],
        f64::INFINITY,
    );
    eprintln!(
        "{case}: statistics {} (Exudyn {})",
        ours["statistics"], reference["statistics"]
    );
    // Exudyn's Newton path: iteration, Jacobian and rejection counts must be Exudyn's.
    let count = |v: &Value, key: &str| v["statistics"][key].as_u64();
    for (key, slack) in [
        ("newtonIterations", iteration_slack),
        ("jacobianEvaluations", jacobian_slack),
        ("rejectedModifiedNewtonSteps", 0),
    ] {
        match (count(&ours, key), count(&reference, key)) {
            (Some(a), Some(b)) if a.abs_diff(b) <= slack => {}
            (a, b) => c.fail(format!("statistics.{key} = {a:?}, Exudyn {b:?}")),
        }
    }
    c.finish();
}

#[test]
fn seed_mini_pendulum() {
    run_case("seed_mini_pendulum");
}

#[test]
fn spherical_joint_test() {
    // Built by hand (examples/spherical_joint_chain.rs) the count is Exudyn's 6770; from the
    // file, whose reference coordinates are −0.30000000000000004 and so on, one step's res/r0
    // lands on the other side of relTol: 6771.
    run_case_with_slack(CASES, "sphericalJointTest", 1);
}

#[test]
fn mass_point_pendulum() {
    run_case("mass_point_pendulum");
}

#[test]
fn kinematic_tree_tip() {
    // The per-step iteration counts equal Exudyn's for 268 steps; at step 269 res/r0 lands on
    // the other side of relTol (10 iterations here, 9 in Exudyn), the Jacobian is refreshed
    // one step earlier, and the totals end at 6822 vs 6620 with the same 23 Jacobians. The
    // equations match Exudyn's to round-off (LHS, M, K, D and C_q compared at a state).
    run_case_with_slack(CASES, "kinematic_tree_tip", 250);
}

#[test]
fn superelement_position() {
    run_case("superelement_position");
}

#[test]
fn static_spring_hang() {
    run_case("static_spring_hang");
}

#[test]
fn own_pendulum_spin_ga() {
    run_case_in(OWN_CASES, "pendulum_spin_ga");
}

#[test]
fn own_pendulum_spin_rho05() {
    run_case_in(OWN_CASES, "pendulum_spin_rho05");
}

#[test]
fn own_pendulum_spin_newmark_index2() {
    run_case_in(OWN_CASES, "pendulum_spin_newmark_index2");
}

#[test]
fn own_pendulum_spin_newmark_index3() {
    run_case_in(OWN_CASES, "pendulum_spin_newmark_index3");
}

#[test]
fn own_pendulum_spin_full_newton() {
    run_case_in(OWN_CASES, "pendulum_spin_full_newton");
}

#[test]
fn own_pendulum_spin_jac_per_step() {
    run_case_in(OWN_CASES, "pendulum_spin_jac_per_step");
}

#[test]
fn own_pendulum_spin_no_initial_acc() {
    run_case_in(OWN_CASES, "pendulum_spin_no_initial_acc");
}

#[test]
fn own_pendulum_spin_large_step() {
    run_case_in(OWN_CASES, "pendulum_spin_large_step");
}

#[test]
fn own_pendulum_spin_fixed_step() {
    run_case_in(OWN_CASES, "pendulum_spin_fixed_step");
}

#[test]
fn own_pendulum_adaptive_steps() {
    run_case_in(OWN_CASES, "pendulum_adaptive_steps");
}

#[test]
fn own_rxyz_com_offset_body_rigid() {
    run_case_in(OWN_CASES, "rxyz_com_offset_body_rigid");
}

#[test]
fn own_two_bodies_node_rigid_loads_springs() {
    run_case_in(OWN_CASES, "two_bodies_node_rigid_loads_springs");
}

#[test]
fn own_mass_points_free_axes_inactive() {
    run_case_in(OWN_CASES, "mass_points_free_axes_inactive");
}

#[test]
fn own_static_two_bodies_spring() {
    run_case_in(OWN_CASES, "static_two_bodies_spring");
}

#[test]
fn own_pairings_m0_ground_point() {
    run_case_in(OWN_CASES, "pairings_m0_GroundPoint");
}

#[test]
fn own_pairings_m0_mass_point_body() {
    run_case_in(OWN_CASES, "pairings_m0_MassPointBody");
}

#[test]
fn own_pairings_m0_rigid_ep_point() {
    run_case_in(OWN_CASES, "pairings_m0_RigidEpPoint");
}

#[test]
fn own_pairings_m0_rigid_rxyz_point() {
    run_case_in(OWN_CASES, "pairings_m0_RigidRxyzPoint");
}

#[test]
fn own_pairings_m0_node_point() {
    run_case_in(OWN_CASES, "pairings_m0_NodePoint");
}

#[test]
fn own_pairings_m0_node_ep() {
    run_case_in(OWN_CASES, "pairings_m0_NodeEp");
}

#[test]
fn own_pairings_m0_node_rxyz() {
    run_case_in(OWN_CASES, "pairings_m0_NodeRxyz");
}

#[test]
fn own_settings_weighted_tolerance_no_adapt_initial() {
    run_case_in(OWN_CASES, "settings_weighted_tolerance_no_adapt_initial");
}

#[test]
fn own_settings_reset_accelerations_sensor_period() {
    run_case_in(OWN_CASES, "settings_reset_accelerations_sensor_period");
}

#[test]
fn own_settings_numerical_differentiation_start_time() {
    run_case_in(OWN_CASES, "settings_numerical_differentiation_start_time");
}

#[test]
fn own_settings_tight_newton_every_step_sensors() {
    run_case_in(OWN_CASES, "settings_tight_newton_every_step_sensors");
}

#[test]
fn own_settings_adaptive_step_parameters() {
    run_case_in(OWN_CASES, "settings_adaptive_step_parameters");
}

#[test]
fn own_settings_linear_newton_inactive() {
    run_case_in(OWN_CASES, "settings_linear_newton_inactive");
}

#[test]
fn own_static_geometric_load_steps() {
    run_case_in(OWN_CASES, "static_geometric_load_steps");
}

#[test]
fn own_static_no_load_factor_duration() {
    run_case_in(OWN_CASES, "static_no_load_factor_duration");
}

#[test]
fn own_static_modified_newton_no_load_jacobian() {
    run_case_in(OWN_CASES, "static_modified_newton_no_load_jacobian");
}

#[test]
fn own_se_ffrf_eigenmodes_spin() {
    run_case_in(OWN_CASES, "se_ffrf_eigenmodes_spin");
}

#[test]
fn own_se_ffrf_pendulum_gravity() {
    run_case_in(OWN_CASES, "se_ffrf_pendulum_gravity");
}

/// Exudyn's TestModel perfObjectFFRFreducedOrder (an unbalanced rotor on springs, 20 000
/// steps). A connector on a superelement marker gets its Jacobian by forward differences in
/// Exudyn; with the analytic one the schedule drifted to 168 411 iterations and 6 504
/// Jacobians (Exudyn: 162 936 and 5 526) and q by 3.8e-8. Also pins SensorSuperElement.
#[test]
fn own_se_ffrf_rotor_unbalance() {
    run_case_in(OWN_CASES, "se_ffrf_rotor_unbalance");
}

#[test]
fn own_se_sensor_super_element() {
    run_case_in(OWN_CASES, "se_sensor_super_element");
}

#[test]
fn own_se_ffrf_rigid_marker_hcb_alt() {
    run_case_in(OWN_CASES, "se_ffrf_rigid_marker_hcb_alt");
}

#[test]
fn own_se_ffrf_rigid_marker_std_dense() {
    run_case_in(OWN_CASES, "se_ffrf_rigid_marker_std_dense");
}

#[test]
fn own_se_loads_ffrf() {
    run_case_in(OWN_CASES, "se_loads_ffrf");
}

#[test]
fn own_se_loads_generic_ode2() {
    run_case_in(OWN_CASES, "se_loads_generic_ode2");
}

#[test]
fn own_se_rigid_body_to_generic_ode2() {
    run_case_in(OWN_CASES, "se_rigid_body_to_generic_ode2");
}

#[test]
fn own_se_rigid_pendulum_alt_mode2() {
    run_case_in(OWN_CASES, "se_rigid_pendulum_alt_mode2");
}

#[test]
fn own_se_rigid_pendulum_std_mode1() {
    run_case_in(OWN_CASES, "se_rigid_pendulum_std_mode1");
}

#[test]
fn own_se_sparse_generic_ode2() {
    run_case_in(OWN_CASES, "se_sparse_generic_ode2");
}

#[test]
fn own_se_static_ffrf_supported() {
    run_case_in(OWN_CASES, "se_static_ffrf_supported");
}

#[test]
fn own_se_static_generic_ode2_hanging() {
    run_case_in(OWN_CASES, "se_static_generic_ode2_hanging");
}

#[test]
fn own_se_tetra_uneven_weights() {
    run_case_in(OWN_CASES, "se_tetra_uneven_weights");
}

#[test]
fn own_se_two_superelements_free_axis() {
    run_case_in(OWN_CASES, "se_two_superelements_free_axis");
}

#[test]
fn own_kt_branched_base_offset() {
    run_case_in(OWN_CASES, "kt_branched_base_offset");
}

#[test]
fn own_kt_chain20_timing() {
    // 499 Jacobian updates in 500 steps: two steps flip by one iteration from round-off
    // (3174 vs Exudyn's 3176).
    run_case_with_slack(OWN_CASES, "kt_chain20_timing", 2);
}

#[test]
fn own_kt_chain4_revolute_damped() {
    run_case_in(OWN_CASES, "kt_chain4_revolute_damped");
}

#[test]
fn own_kt_link_forces_torques() {
    run_case_in(OWN_CASES, "kt_link_forces_torques");
}

#[test]
fn own_kt_marker_loads() {
    run_case_in(OWN_CASES, "kt_marker_loads");
}

#[test]
fn own_kt_pd_control_offsets() {
    run_case_in(OWN_CASES, "kt_pd_control_offsets");
}

#[test]
fn own_kt_planar_loop_xy() {
    run_case_in(OWN_CASES, "kt_planar_loop_xy");
}

#[test]
fn own_kt_prismatic_mixed() {
    run_case_in(OWN_CASES, "kt_prismatic_mixed");
}

#[test]
fn own_kt_spatial_loop_xyz() {
    run_case_in(OWN_CASES, "kt_spatial_loop_xyz");
}

#[test]
fn own_kt_static_springs() {
    run_case_in(OWN_CASES, "kt_static_springs");
}

#[test]
fn own_kt_tree_bodies() {
    run_case_in(OWN_CASES, "kt_tree_bodies");
}

#[test]
fn own_kt_two_trees_joined() {
    run_case_in(OWN_CASES, "kt_two_trees_joined");
}

// --- ConnectorDistance (tools/reference/make_joint_cases.py): the generated `distance` joint

#[test]
fn own_joint_distance_mass_points() {
    run_case_in(OWN_CASES, "joint_distance_mass_points");
}

#[test]
fn own_joint_distance_rigid_bodies() {
    run_case_in(OWN_CASES, "joint_distance_rigid_bodies");
}

#[test]
fn own_joint_distance_node_markers_inactive() {
    run_case_in(OWN_CASES, "joint_distance_node_markers_inactive");
}

// --- JointRevoluteZ and JointPrismaticX: the generated `revolute_z` and `prismatic_x` joints

#[test]
fn own_joint_revolute_pendulum_ep() {
    run_case_in(OWN_CASES, "joint_revolute_pendulum_ep");
}

#[test]
fn own_joint_revolute_chain_rxyz() {
    run_case_in(OWN_CASES, "joint_revolute_chain_rxyz");
}

#[test]
fn own_joint_revolute_node_rigid_torque() {
    run_case_in(OWN_CASES, "joint_revolute_node_rigid_torque");
}

#[test]
fn own_joint_prismatic_slider_ep() {
    run_case_in(OWN_CASES, "joint_prismatic_slider_ep");
}

#[test]
fn own_joint_prismatic_on_pendulum() {
    run_case_in(OWN_CASES, "joint_prismatic_on_pendulum");
}

#[test]
fn own_joint_prismatic_static_spring() {
    run_case_in(OWN_CASES, "joint_prismatic_static_spring");
}

#[test]
fn own_joint_prismatic_rotation_marker() {
    run_case_in(OWN_CASES, "joint_prismatic_rotation_marker");
}

#[test]
fn own_joint_mixed_slider_crank() {
    run_case_in(OWN_CASES, "joint_mixed_slider_crank");
}

// --- JointGeneric: 6 equations picked from the generated `generic_rows` candidates

#[test]
fn own_joint_generic_weld_ep() {
    // Two EP bodies welded: a stiff pair whose multipliers Exudyn's default Newton tolerances
    // leave unconverged — Exudyn's own λ is up to 7.5e-4 (relative, t = 0.76) from its λ at
    // tolerances 1e-13/1e-14 (tools/reference/make_joint_cases.py, generic_weld_ep docstring).
    // With Exudyn's JointGeneric constraint Jacobian (7448851) we take its path exactly (4711
    // iterations, 140 Jacobians; before: 4705 and 141, λ 9e-4 away) and λ agrees to 9e-8.
    run_case_in(OWN_CASES, "joint_generic_weld_ep");
}

#[test]
fn own_joint_generic_free_axes_rxyz() {
    run_case_in(OWN_CASES, "joint_generic_free_axes_rxyz");
}

#[test]
fn own_joint_generic_universal_ep() {
    run_case_in(OWN_CASES, "joint_generic_universal_ep");
}

#[test]
fn own_joint_generic_revolute_x_chain() {
    run_case_in(OWN_CASES, "joint_generic_revolute_x_chain");
}

#[test]
fn own_joint_generic_planar_sliding() {
    run_case_in(OWN_CASES, "joint_generic_planar_sliding");
}

#[test]
fn own_joint_generic_rotation_marker() {
    run_case_in(OWN_CASES, "joint_generic_rotation_marker");
}

#[test]
fn own_joint_generic_weld_ep_tight() {
    // Newton tolerances 1e-13/1e-14: λ agrees to 1.3e-7, q to 3.4e-14; at such tolerances
    // round-off decides iterations: pip Exudyn itself takes 5706 iterations and 481 Jacobians
    // with EXUdense, 5715 and 483 with EigenSparse or EigenDense (its own linear solvers on the
    // same file); we take 5714 and 483.
    run_case_with_tolerances(OWN_CASES, "joint_generic_weld_ep_tight", 9, 2, f64::NAN);
}

#[test]
fn own_joint_revolute_localht_frames() {
    // marker frames turned by localHT rotations, on ground and on the body
    run_case_in(OWN_CASES, "joint_revolute_localht_frames");
}

#[test]
fn revolute_tilted_door() {
    // the case: λ differed by 0.10 N (ForceLocal) while the Jacobian's rotation rows
    // were ∂(velocity level)/∂q̇ instead of Exudyn's (a×b)ᵀG; Exudyn's counts since
    run_case("revolute_tilted_door");
}

#[test]
fn own_joint_tilted_revolute_ep() {
    run_case_in(OWN_CASES, "joint_tilted_revolute_ep");
}

#[test]
fn own_joint_tilted_revolute_rxyz() {
    run_case_in(OWN_CASES, "joint_tilted_revolute_rxyz");
}

#[test]
fn own_joint_tilted_prismatic_ep() {
    run_case_in(OWN_CASES, "joint_tilted_prismatic_ep");
}

#[test]
fn own_joint_tilted_prismatic_rxyz() {
    run_case_in(OWN_CASES, "joint_tilted_prismatic_rxyz");
}

#[test]
fn own_joint_tilted_generic_revolute_ep() {
    run_case_in(OWN_CASES, "joint_tilted_generic_revolute_ep");
}

#[test]
fn own_joint_tilted_generic_revolute_rxyz() {
    run_case_in(OWN_CASES, "joint_tilted_generic_revolute_rxyz");
}

#[test]
fn own_joint_tilted_generic_mixed_ep() {
    run_case_in(OWN_CASES, "joint_tilted_generic_mixed_ep");
}

#[test]
fn own_joint_tilted_generic_mixed_rxyz() {
    run_case_in(OWN_CASES, "joint_tilted_generic_mixed_rxyz");
}

#[test]
fn own_joint_tilted_four_bar() {
    run_case_in(OWN_CASES, "joint_tilted_four_bar");
}

#[test]
fn own_joint_index2_generic_com_offset_ep() {
    // issue 16: at index 2 the Jacobian's rows are equations, so a Jacobian that was not
    // Exudyn's (a×b)ᵀG moved λ by 3e-5 and q by 6e-7 (09b74b6); now 1e-12 and 1e-16
    run_case_in(OWN_CASES, "joint_index2_generic_com_offset_ep");
}

#[test]
fn own_joint_index2_generic_com_offset_full_newton_ep() {
    run_case_in(OWN_CASES, "joint_index2_generic_com_offset_full_newton_ep");
}

#[test]
fn own_joint_index2_generic_com_offset_rxyz() {
    run_case_in(OWN_CASES, "joint_index2_generic_com_offset_rxyz");
}

#[test]
fn own_joint_index2_generic_com_offset_full_newton_rxyz() {
    run_case_in(
        OWN_CASES,
        "joint_index2_generic_com_offset_full_newton_rxyz",
    );
}
