//! Properties of every generated kernel of every joint (the built-in ones and the example
//! joints of `examples/custom_joints/mod.rs`, `examples/custom_joint_pendulum.rs` and the
//! hand-written velocity level of `examples/point_on_plane.rs`), for every pairing of marker kinds, at random states
//! and random joint parameters (proptest), through the type-erased `JointDefinition` a runtime
//! uses:
//!
//! 1. the velocity-level residual is the Jacobian times the coordinate velocities,
//!    `g_vel(q, q̇) = C(q)·q̇` (all joints' velocity levels are linear in q̇);
//! 2. the velocity level — derived by the compiler, or written by hand — is the time derivative
//!    of the position level, `g_vel = d/dt g(q(t))`, by central differences along `q + t·q̇`, on
//!    the Euler-parameter manifold for EP kinds (|θ| = 1, θ̇ ⟂ θ), where Exudyn's velocity
//!    kinematics are exact;
//! 3. the generated `velocity_residual_q` is ∂(C q̇)/∂q, by central differences of C;
//! 4. the generated `reaction_q` is ∂(Cᵀλ)/∂q, by central differences of C.
//!
//! The built-in joints also have their own, independent num-dual oracles
//! (tests/joint_dual_oracles/, tests/kernel_jacobians/).

#[allow(dead_code)]
#[path = "../examples/custom_joints/mod.rs"]
mod custom_joints;
#[allow(dead_code)]
#[path = "../examples/custom_joint_pendulum.rs"]
mod pendulum;
// its velocity level is written by hand
#[allow(dead_code)]
#[path = "../examples/point_on_plane.rs"]
mod embedded;

use joint::core::{JointDefinition, MarkerArgs, MarkerKind, Pairing, ParameterShape};
use joint::runtime::kernels::{
    coordinate_constraint, distance, generic_rows, prismatic_2d, prismatic_x, revolute_2d,
    revolute_z, spherical,
};
use proptest::prelude::*;

/// Every joint the test covers.
fn joints() -> Vec<&'static JointDefinition> {
    let mut all = vec![
        &spherical::DEFINITION,
        &distance::DEFINITION,
        &revolute_z::DEFINITION,
        &prismatic_x::DEFINITION,
        &generic_rows::DEFINITION,
        &revolute_2d::DEFINITION,
        &prismatic_2d::DEFINITION,
        &coordinate_constraint::DEFINITION,
    ];
    all.extend(custom_joints::definitions());
    all.push(&pendulum::my_spherical::DEFINITION);
    all.push(&embedded::point_on_plane::DEFINITION);
    all
}

/// Random parameter values of a joint: scalars in [0.5, 1.1), vectors in [−1, 1)³, matrices
/// rotations.
fn parameters(definition: &JointDefinition, pool: &[f64]) -> Vec<f64> {
    let mut out = Vec::new();
    for (i, p) in definition.parameters.iter().enumerate() {
        let x = &pool[3 * (i % 4)..3 * (i % 4) + 3];
        match p.shape {
            ParameterShape::Scalar => out.push(0.8 + 0.3 * x[0]),
            ParameterShape::Vector => out.extend_from_slice(x),
            ParameterShape::Matrix => {
                out.extend_from_slice(rotation([x[0], x[1], x[2]]).as_flattened())
            }
        }
    }
    out
}

fn args<'a>(p: &'a [f64], q: &'a [f64], v: &'a [f64]) -> MarkerArgs<'a> {
    MarkerArgs {
        parameters: p,
        coordinates: q,
        velocities: v,
    }
}

/// A rotation matrix (row-major) from three angles, for joint and ground parameters.
fn rotation(a: [f64; 3]) -> [[f64; 3]; 3] {
    let (s0, c0) = a[0].sin_cos();
    let (s1, c1) = a[1].sin_cos();
    let (s2, c2) = a[2].sin_cos();
    let rx = nalgebra::Matrix3::new(1.0, 0.0, 0.0, 0.0, c0, -s0, 0.0, s0, c0);
    let ry = nalgebra::Matrix3::new(c1, 0.0, s1, 0.0, 1.0, 0.0, -s1, 0.0, c1);
    let rz = nalgebra::Matrix3::new(c2, -s2, 0.0, s2, c2, 0.0, 0.0, 0.0, 1.0);
    let r = rx * ry * rz;
    std::array::from_fn(|i| std::array::from_fn(|j| r[(i, j)]))
}

/// A marker state of kind `kind` (the order of `MARKER_KINDS`) from random numbers `x`:
/// (parameters, coordinates, velocities). Euler parameters are unit, their rates tangent.
fn marker(kind: MarkerKind, x: &[f64]) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    let name = kind.name();
    let (np, nq) = (kind.parameter_count(), kind.coordinate_count());
    let mut p: Vec<f64> = x[..np].to_vec();
    if name == "GroundPoint" {
        // position, rotation (row-major), local position
        let r = rotation([x[3], x[4], x[5]]);
        p[3..12].copy_from_slice(r.as_flattened());
    }
    let mut q: Vec<f64> = x[20..20 + nq].to_vec();
    let mut v: Vec<f64> = x[30..30 + nq].to_vec();
    if nq == 7 {
        // away from θ = 0, where shrinking would otherwise lead
        q[3] += 2.0;
        let n = q[3..7].iter().map(|t| t * t).sum::<f64>().sqrt();
        q[3..7].iter_mut().for_each(|t| *t /= n);
        let d: f64 = (3..7).map(|i| q[i] * v[i]).sum();
        for i in 3..7 {
            v[i] -= d * q[i];
        }
    }
    (p, q, v)
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * (1.0 + a.abs().max(b.abs()))
}

fn check_pairing(k: &Pairing, jp: &[f64], x: &[f64]) -> Result<(), TestCaseError> {
    let name = k.path();
    let (p0, q0, v0) = marker(k.kinds[0], &x[..40]);
    let (mut p1, mut q1, v1) = marker(k.kinds[1], &x[40..80]);
    // keep the markers apart (the distance joint's direction is undefined at Δp = 0)
    // (a ground coordinate has neither: nothing to move)
    if let Some(x) = q1.first_mut() {
        *x += 3.0;
    } else if let Some(x) = p1.first_mut() {
        *x += 3.0;
    }
    let (n0, n1, rows) = (q0.len(), q1.len(), k.rows);
    let n = n0 + n1;
    let lambda: Vec<f64> = (0..rows).map(|r| x[80 + r % 12]).collect();
    let h = 1e-6;

    let jac = |q0: &[f64], q1: &[f64]| {
        let (mut j0, mut j1) = (vec![0.0; rows * n0], vec![0.0; rows * n1]);
        (k.jacobian)(jp, args(&p0, q0, &v0), args(&p1, q1, &v1), &mut j0, &mut j1)
            .expect("jacobian takes correct slices");
        (j0, j1)
    };
    let times_v = |j0: &[f64], j1: &[f64], r: usize| -> f64 {
        (0..n0).map(|c| j0[r * n0 + c] * v0[c]).sum::<f64>()
            + (0..n1).map(|c| j1[r * n1 + c] * v1[c]).sum::<f64>()
    };
    let transposed = |j0: &[f64], j1: &[f64], c: usize| -> f64 {
        (0..rows)
            .map(|r| {
                lambda[r]
                    * if c < n0 {
                        j0[r * n0 + c]
                    } else {
                        j1[r * n1 + c - n0]
                    }
            })
            .sum()
    };
    let (j0, j1) = jac(&q0, &q1);

    // 1: g_vel = C q̇
    let mut g_vel = vec![0.0; rows];
    (k.velocity_residual)(jp, args(&p0, &q0, &v0), args(&p1, &q1, &v1), &mut g_vel)
        .expect("velocity_residual takes correct slices");
    for (r, &g) in g_vel.iter().enumerate() {
        let cv = times_v(&j0, &j1, r);
        prop_assert!(
            close(g, cv, 1e-12),
            "{name}: row {r}: g_vel {g} vs C·q̇ {cv}"
        );
    }

    // 2: g_vel = d/dt g along q + t·q̇
    let position = |a: &[f64], b: &[f64]| {
        let mut g = vec![0.0; rows];
        (k.position_residual)(jp, args(&p0, a, &v0), args(&p1, b, &v1), &mut g)
            .expect("position_residual takes correct slices");
        g
    };
    let along = |t: f64| {
        let a: Vec<f64> = q0.iter().zip(&v0).map(|(q, v)| q + t * v).collect();
        let b: Vec<f64> = q1.iter().zip(&v1).map(|(q, v)| q + t * v).collect();
        position(&a, &b)
    };
    let (gp, gm) = (along(h), along(-h));
    for r in 0..rows {
        let d = (gp[r] - gm[r]) / (2.0 * h);
        prop_assert!(
            close(g_vel[r], d, 1e-6),
            "{name}: row {r}: g_vel {} vs d/dt g {}",
            g_vel[r],
            d
        );
    }

    // 3, 4: second-order terms against central differences of C
    let Some(so) = k.second_order else {
        return Ok(());
    };
    let (mut b0, mut b1) = (vec![0.0; rows * n0], vec![0.0; rows * n1]);
    (so.velocity_residual_q)(
        jp,
        args(&p0, &q0, &v0),
        args(&p1, &q1, &v1),
        &mut b0,
        &mut b1,
    )
    .expect("velocity_residual_q takes correct slices");
    let mut rq = vec![0.0; n * n];
    (so.reaction_q)(
        jp,
        &lambda,
        args(&p0, &q0, &v0),
        args(&p1, &q1, &v1),
        &mut rq,
    )
    .expect("reaction_q takes correct slices");
    for col in 0..n {
        let shifted = |s: f64| {
            let (mut a, mut b) = (q0.clone(), q1.clone());
            if col < n0 {
                a[col] += s;
            } else {
                b[col - n0] += s;
            }
            jac(&a, &b)
        };
        let ((jp0, jp1), (jm0, jm1)) = (shifted(h), shifted(-h));
        for r in 0..rows {
            let fd = (times_v(&jp0, &jp1, r) - times_v(&jm0, &jm1, r)) / (2.0 * h);
            let ours = if col < n0 {
                b0[r * n0 + col]
            } else {
                b1[r * n1 + col - n0]
            };
            prop_assert!(
                close(ours, fd, 1e-6),
                "{name}: ∂(C q̇)/∂q [{r}, {col}] {ours} vs {fd}"
            );
        }
        for row in 0..n {
            let fd = (transposed(&jp0, &jp1, row) - transposed(&jm0, &jm1, row)) / (2.0 * h);
            let ours = rq[row * n + col];
            prop_assert!(
                close(ours, fd, 1e-6),
                "{name}: ∂(Cᵀλ)/∂q [{row}, {col}] {ours} vs {fd}"
            );
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn every_joint_kernel_is_consistent_at_random_states(
        x in proptest::collection::vec(-1.0f64..1.0, 92)
    ) {
        for definition in joints() {
            let jp = parameters(definition, &x[..12]);
            for k in definition.pairings {
                check_pairing(k, &jp, &x)?;
            }
        }
    }
}

/// Every pairing but ground–ground is generated for every built-in joint: 120 (the 11 kinds
/// with a position, squared, less ground–ground) for the position-only joints, 48 (the 7
/// orientation kinds) for the rigid joints, 3 for the coordinate constraint.
#[test]
fn every_built_in_joint_has_every_pairing() {
    assert_eq!(spherical::DEFINITION.pairings.len(), 120);
    assert_eq!(distance::DEFINITION.pairings.len(), 120);
    assert_eq!(revolute_2d::DEFINITION.pairings.len(), 120);
    assert_eq!(coordinate_constraint::DEFINITION.pairings.len(), 3);
    assert_eq!(revolute_z::DEFINITION.pairings.len(), 48);
    assert_eq!(prismatic_x::DEFINITION.pairings.len(), 48);
    assert_eq!(generic_rows::DEFINITION.pairings.len(), 48);
    assert_eq!(prismatic_2d::DEFINITION.pairings.len(), 48);
    for definition in joints() {
        for k in definition.pairings {
            assert_eq!(
                definition.pairing(k.kinds[0], k.kinds[1]).map(|p| p.name),
                Some(k.name)
            );
        }
    }
}
