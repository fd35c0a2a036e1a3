//! Properties of every generated kernel of every built-in joint (spherical, distance,
//! revolute_z, prismatic_x, generic_rows), for every pairing of marker kinds, at random states
//! (proptest):
//!
//! 1. the velocity-level residual is the Jacobian times the coordinate velocities,
//!    `g_vel(q, q̇) = C(q)·q̇` (all joints' velocity levels are linear in q̇);
//! 2. the velocity level is the time derivative of the position level,
//!    `g_vel = d/dt g(q(t))`, by central differences along `q + t·q̇` — on the Euler-parameter
//!    manifold for EP kinds (|θ| = 1, θ̇ ⟂ θ), where Exudyn's velocity kinematics are exact;
//! 3. the generated `velocity_residual_q` is ∂(C q̇)/∂q, by central differences of C;
//! 4. the generated `reaction_q` is ∂(Cᵀλ)/∂q, by central differences of C.
//!
//! The spherical joint has its own, independent num-dual oracle in tests/kernel_jacobians.rs.

use joint::runtime::kernels::{distance, generic_rows, prismatic_x, revolute_z, spherical};
use proptest::prelude::*;

/// One marker's slices: parameters, coordinates, velocities.
type Side<'a> = (&'a [f64], &'a [f64], &'a [f64]);

/// Residual rows of a pairing: (marker 0, marker 1, rows out).
type Residual = Box<dyn Fn(Side, Side, &mut [f64])>;
/// Per-marker blocks of a pairing: (marker 0, marker 1, block 0 out, block 1 out).
type Blocks = Box<dyn Fn(Side, Side, &mut [f64], &mut [f64])>;
/// ∂(Cᵀλ)/∂q of a pairing: (λ, marker 0, marker 1, square block out).
type ReactionQ = Box<dyn Fn(&[f64], Side, Side, &mut [f64])>;

/// A pairing's kernels behind one signature (joint parameters bound).
struct Pairing {
    name: String,
    kinds: [usize; 2],
    rows: usize,
    position: Residual,
    velocity: Residual,
    jacobian: Blocks,
    velocity_residual_q: Blocks,
    reaction_q: ReactionQ,
}

/// Every pairing of a generated joint module; `p = value` binds the joint's `Parameters`, for
/// a joint with run-time parameters.
macro_rules! pairings {
    ($module:ident $(, $p:ident = $value:expr)?) => {{
        fn a(s: Side<'_>) -> $module::MarkerArgs<'_> {
            $module::MarkerArgs {
                parameters: s.0,
                coordinates: s.1,
                velocities: s.2,
            }
        }
        $(let $p = $value;)?
        let mut out = Vec::new();
        for k0 in 0..7 {
            for k1 in 0..7 {
                let Some(k) = $module::kernel(k0, k1) else { continue };
                let rows = $module::ROWS;
                out.push(Pairing {
                    name: format!("{}::{} – {}", stringify!($module), k.kinds[0], k.kinds[1]),
                    kinds: [k0, k1],
                    rows,
                    position: Box::new(move |s0, s1, o| {
                        let o: &mut [f64; $module::ROWS] = o.try_into().unwrap();
                        (k.position_residual)($(&$p,)? a(s0), a(s1), o).unwrap()
                    }),
                    velocity: Box::new(move |s0, s1, o| {
                        let o: &mut [f64; $module::ROWS] = o.try_into().unwrap();
                        (k.velocity_residual)($(&$p,)? a(s0), a(s1), o).unwrap()
                    }),
                    jacobian: Box::new(move |s0, s1, j0, j1| {
                        (k.jacobian)($(&$p,)? a(s0), a(s1), j0, j1).unwrap()
                    }),
                    velocity_residual_q: Box::new(move |s0, s1, j0, j1| {
                        (k.velocity_residual_q)($(&$p,)? a(s0), a(s1), j0, j1)
                            .unwrap()
                    }),
                    reaction_q: Box::new(move |l, s0, s1, b| {
                        let l: &[f64; $module::ROWS] = l.try_into().unwrap();
                        (k.reaction_q)($(&$p,)? l, a(s0), a(s1), b).unwrap()
                    }),
                });
            }
        }
        out
    }};
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

fn all_pairings(pool: &[f64]) -> Vec<Pairing> {
    let r0 = rotation([pool[0], pool[1], pool[2]]);
    let r1 = rotation([pool[3], pool[4], pool[5]]);
    let mut all = Vec::new();
    all.extend(pairings!(spherical));
    all.extend(pairings!(
        distance,
        p = distance::Parameters { distance: 0.8 }
    ));
    all.extend(pairings!(
        revolute_z,
        p = revolute_z::Parameters {
            rotation_marker0: r0,
            rotation_marker1: r1
        }
    ));
    all.extend(pairings!(
        prismatic_x,
        p = prismatic_x::Parameters {
            rotation_marker0: r0,
            rotation_marker1: r1
        }
    ));
    all.extend(pairings!(
        generic_rows,
        p = generic_rows::Parameters {
            rotation_marker0: r0,
            rotation_marker1: r1
        }
    ));
    all
}

/// A marker state of kind `kind` (the order of `MARKER_KINDS`) from random numbers `x`:
/// (parameters, coordinates, velocities). Euler parameters are unit, their rates tangent.
fn marker(kind: usize, x: &[f64]) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    let name = spherical::MARKER_KINDS[kind];
    let (np, nq) = match name {
        "GroundPoint" => (15, 0),
        "MassPointBody" => (3, 3),
        "RigidEpPoint" => (3, 7),
        "RigidRxyzPoint" => (3, 6),
        "NodePoint" => (0, 3),
        "NodeEp" => (0, 7),
        _ => (0, 6),
    };
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

fn check_pairing(k: &Pairing, x: &[f64]) -> Result<(), TestCaseError> {
    let (p0, q0, v0) = marker(k.kinds[0], &x[..40]);
    let (mut p1, mut q1, v1) = marker(k.kinds[1], &x[40..80]);
    // keep the markers apart (the distance joint's direction is undefined at Δp = 0)
    if q1.is_empty() {
        p1[0] += 3.0;
    } else {
        q1[0] += 3.0;
    }
    let (n0, n1, rows) = (q0.len(), q1.len(), k.rows);
    let n = n0 + n1;
    let lambda: Vec<f64> = x[80..80 + rows].to_vec();
    let h = 1e-6;

    let jac = |q0: &[f64], q1: &[f64]| {
        let (mut j0, mut j1) = (vec![0.0; rows * n0], vec![0.0; rows * n1]);
        (k.jacobian)((&p0, q0, &v0), (&p1, q1, &v1), &mut j0, &mut j1);
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
    (k.velocity)((&p0, &q0, &v0), (&p1, &q1, &v1), &mut g_vel);
    for (r, &g) in g_vel.iter().enumerate() {
        let cv = times_v(&j0, &j1, r);
        prop_assert!(
            close(g, cv, 1e-12),
            "{}: row {r}: g_vel {g} vs C·q̇ {cv}",
            k.name
        );
    }

    // 2: g_vel = d/dt g along q + t·q̇
    let along = |t: f64| {
        let a: Vec<f64> = q0.iter().zip(&v0).map(|(q, v)| q + t * v).collect();
        let b: Vec<f64> = q1.iter().zip(&v1).map(|(q, v)| q + t * v).collect();
        let mut g = vec![0.0; rows];
        (k.position)((&p0, &a, &v0), (&p1, &b, &v1), &mut g);
        g
    };
    let (gp, gm) = (along(h), along(-h));
    for r in 0..rows {
        let d = (gp[r] - gm[r]) / (2.0 * h);
        prop_assert!(
            close(g_vel[r], d, 1e-6),
            "{}: row {r}: g_vel {} vs d/dt g {}",
            k.name,
            g_vel[r],
            d
        );
    }

    // 3, 4: second-order terms against central differences of C
    let (mut b0, mut b1) = (vec![0.0; rows * n0], vec![0.0; rows * n1]);
    (k.velocity_residual_q)((&p0, &q0, &v0), (&p1, &q1, &v1), &mut b0, &mut b1);
    let mut rq = vec![0.0; n * n];
    (k.reaction_q)(&lambda, (&p0, &q0, &v0), (&p1, &q1, &v1), &mut rq);
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
                "{}: ∂(C q̇)/∂q [{r}, {col}] {ours} vs {fd}",
                k.name
            );
        }
        for row in 0..n {
            let fd = (transposed(&jp0, &jp1, row) - transposed(&jm0, &jm1, row)) / (2.0 * h);
            let ours = rq[row * n + col];
            prop_assert!(
                close(ours, fd, 1e-6),
                "{}: ∂(Cᵀλ)/∂q [{row}, {col}] {ours} vs {fd}",
                k.name
            );
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn every_built_in_joint_kernel_is_consistent_at_random_states(
        x in proptest::collection::vec(-1.0f64..1.0, 92)
    ) {
        let pairings = all_pairings(&x);
        for k in &pairings {
            check_pairing(k, &x)?;
        }
    }
}

/// Every pairing but ground–ground is generated for every built-in joint: 48 for the
/// position-only joints, 24 (the 5 orientation kinds, squared, less ground–ground) for the
/// rigid joints.
#[test]
fn every_built_in_joint_has_every_pairing() {
    let pool = [0.1; 6];
    let count = |name: &str| {
        all_pairings(&pool)
            .iter()
            .filter(|k| k.name.starts_with(&format!("{name}::")))
            .count()
    };
    assert_eq!(count("spherical"), 48);
    assert_eq!(count("distance"), 48);
    assert_eq!(count("revolute_z"), 24);
    assert_eq!(count("prismatic_x"), 24);
    assert_eq!(count("generic_rows"), 24);
}
