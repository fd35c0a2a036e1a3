//! The marker-level kernel (residual of marker quantities, Jacobian w.r.t. marker velocities)
//! composed with each marker kind's generated kinematics equals the specialized pairing kernel:
//! C_q,i = ∂r/∂v_i · J_pos,i. This is the path superelement and kinematic-tree markers take.

use joint::core::{MarkerArgs, MarkerKind, MarkerQuantities};
use joint::runtime::kernels::{marker_kinematics as mk, spherical};
use spherical::marker_level::{jacobian, position_residual, velocity_residual};

/// A deterministic pseudo-random state for a kind: (parameters, coordinates, velocities).
fn state(kind: usize, seed: f64) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    let r = |i: usize| ((i as f64 + 1.0) * 0.731 + seed).sin();
    let names = MarkerKind::ALL[kind].name();
    let (np, nq) = match names {
        "GroundPoint" => (12, 0),
        "MassPointBody" => (3, 3),
        "RigidEpPoint" => (3, 7),
        "RigidRxyzPoint" => (3, 6),
        "NodePoint" => (0, 3),
        "NodeEp" => (0, 7),
        _ => (0, 6),
    };
    let mut p: Vec<f64> = (0..np).map(r).collect();
    if np == 12 {
        // a proper rotation for the ground: about z by `seed`
        let (s, c) = seed.sin_cos();
        p[3..12].copy_from_slice(&[c, -s, 0.0, s, c, 0.0, 0.0, 0.0, 1.0]);
    }
    let mut q: Vec<f64> = (0..nq).map(|i| r(i + 20)).collect();
    let v: Vec<f64> = (0..nq).map(|i| r(i + 40)).collect();
    if nq == 7 {
        let n = q[3..7].iter().map(|x| x * x).sum::<f64>().sqrt();
        for x in &mut q[3..7] {
            *x /= n;
        }
    }
    (p, q, v)
}

fn quantities(kind: usize, p: &[f64], q: &[f64], v: &[f64]) -> MarkerQuantities {
    MarkerQuantities {
        position: mk::position(kind, p, q).unwrap(),
        velocity: mk::velocity(kind, p, q, v).unwrap(),
        rotation: mk::rotation(kind, p, q).unwrap_or([
            [1.0, 0.0, 0.0],
            [0.0, 1.0, 0.0],
            [0.0, 0.0, 1.0],
        ]),
        angular_velocity: mk::angular_velocity(kind, p, q, v).unwrap_or([0.0; 3]),
    }
}

#[test]
fn specialized_pairings_equal_the_marker_level_kernel_composed_with_marker_jacobians() {
    let mut checked = 0;
    for k0 in 0..7 {
        for k1 in 0..7 {
            let Some(kernel) = spherical::pairing(MarkerKind::ALL[k0], MarkerKind::ALL[k1]) else {
                continue;
            };
            for seed in [0.3, 1.7, -2.2] {
                let (p0, q0, v0) = state(k0, seed);
                let (p1, q1, v1) = state(k1, seed + 0.5);
                let a0 = MarkerArgs {
                    parameters: &p0,
                    coordinates: &q0,
                    velocities: &v0,
                };
                let a1 = MarkerArgs {
                    parameters: &p1,
                    coordinates: &q1,
                    velocities: &v1,
                };
                let (m0, m1) = (quantities(k0, &p0, &q0, &v0), quantities(k1, &p1, &q1, &v1));
                let name = kernel.path();

                let mut r = [0.0; 3];
                (kernel.position_residual)(&[], a0, a1, &mut r).unwrap();
                let rm = position_residual(&m0, &m1);
                (kernel.velocity_residual)(&[], a0, a1, &mut r).unwrap();
                let vm = velocity_residual(&m0, &m1);
                for k in 0..3 {
                    assert!(
                        (r[k] - vm[k]).abs() < 1e-13,
                        "{name}: velocity residual row {k}"
                    );
                }
                let mut pr = [0.0; 3];
                (kernel.position_residual)(&[], a0, a1, &mut pr).unwrap();
                for k in 0..3 {
                    assert!(
                        (pr[k] - rm[k]).abs() < 1e-13,
                        "{name}: position residual row {k}"
                    );
                }

                let (n0, n1) = (q0.len(), q1.len());
                let (mut j0, mut j1) = (vec![0.0; 3 * n0], vec![0.0; 3 * n1]);
                (kernel.jacobian)(&[], a0, a1, &mut j0, &mut j1).unwrap();
                let ml = jacobian(&m0, &m1);
                for (i, (jac, p, q, n, kind)) in [(&j0, &p0, &q0, n0, k0), (&j1, &p1, &q1, n1, k1)]
                    .into_iter()
                    .enumerate()
                {
                    let mut jp = vec![0.0; 3 * n];
                    mk::position_jacobian(kind, p, q, &mut jp).unwrap_or(());
                    for row in 0..3 {
                        for col in 0..n {
                            let composed: f64 = (0..3)
                                .map(|t| ml.d_velocity[i][row][t] * jp[t * n + col])
                                .sum();
                            let got = jac[row * n + col];
                            assert!(
                                (got - composed).abs() < 1e-13,
                                "{name}: C_q block of m{i} [{row}][{col}] = {got}, composed {composed}"
                            );
                        }
                    }
                }
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 48 * 3);
}

/// The composed kernels check their slices as the unrolled ones do: a slice of the wrong length
/// for its kind is `None`, not a panic.
#[test]
fn composed_kernels_refuse_wrong_lengths() {
    use joint::runtime::composed::{self, KindArgs};
    let ground = [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0];
    let q = [1.0, 2.0, 3.0];
    let m = |v: &'static [f64]| {
        [
            KindArgs {
                kind: MarkerKind::GroundPoint,
                args: MarkerArgs {
                    parameters: &ground,
                    ..Default::default()
                },
            },
            KindArgs {
                kind: MarkerKind::MassPointBody,
                args: MarkerArgs {
                    parameters: &[0.0; 3],
                    coordinates: &q,
                    velocities: v,
                },
            },
        ]
    };
    let d = &spherical::DEFINITION;
    let (mut b0, mut b1) = ([0.0; 0], [0.0; 9]);
    assert!(composed::jacobian(d, &[], m(&[0.0]), &mut b0, &mut b1).is_none());
    assert!(composed::jacobian(d, &[], m(&[]), &mut b0, &mut b1).is_some());
    assert!(composed::jacobian(d, &[], m(&[0.0; 3]), &mut b0, &mut b1).is_some());
    // the convective term reads the velocities: they must be there
    assert!(composed::convective(d, &[], m(&[]), &mut [0.0; 3]).is_none());
    assert!(composed::convective(d, &[], m(&[0.5, 0.0, 0.0]), &mut [0.0; 3]).is_some());
    // outputs of the wrong size
    assert!(composed::jacobian(d, &[], m(&[]), &mut b0, &mut [0.0; 8]).is_none());
    assert!(composed::reaction_q(d, &[], &[1.0; 3], m(&[]), &mut [0.0; 8]).is_none());
    assert!(composed::reaction_q(d, &[], &[1.0; 3], m(&[]), &mut [0.0; 9]).is_some());
}
