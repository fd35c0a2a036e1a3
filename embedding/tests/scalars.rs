//! The pairing kernels are generic over the scalar (`joint_core::Scalar`): the `f64`
//! instance is what the runtime calls, `f32` serves engines that compute in single precision,
//! dual numbers (`num_dual::Dual64`) differentiate a kernel by any of its inputs, and SIMD
//! lanes (`wide::f64x4`, `wide::f32x8`) evaluate several joints per call. Checked against
//! the compiler's own derivatives — `position_residual::<Dual64>` seeded on coordinate j
//! gives column j of `position_jacobian` (∂g/∂q), an oracle independent of the emitted
//! Jacobian, as the duals differentiate the emitted residual's own arithmetic — and lanes
//! against the scalar kernel, joint by joint.

use joint_core::Scalar;
use joint_embedding::{spherical, twist_limit};
use num_dual::Dual64;
use wide::{f32x8, f64x4};

/// Two rigid bodies' Euler-parameter coordinates at arbitrary poses (|θ| ≠ 1 on purpose: the
/// kernels are functions of all seven).
const Q0: [f64; 7] = [0.3, -0.2, 0.5, 0.8, 0.3, -0.4, 0.2];
const Q1: [f64; 7] = [1.1, 0.4, -0.3, 0.6, -0.5, 0.1, 0.55];
const B0: [f64; 3] = [0.5, -0.25, 0.1];
const B1: [f64; 3] = [-0.3, 0.2, 0.45];

fn seeded(q: &[f64; 7], j: Option<usize>) -> [Dual64; 7] {
    std::array::from_fn(|k| {
        let x = Dual64::c(q[k]);
        if Some(k) == j { x.derivative() } else { x }
    })
}

fn constants<const N: usize>(v: &[f64; N]) -> [Dual64; N] {
    v.map(Dual64::c)
}

/// `|a − b| ≤ 1e-14·(1 + |b|)`: the dual and the emitted derivative differ only in rounding.
fn close(a: f64, b: f64, what: &str) {
    assert!(
        (a - b).abs() <= 1e-14 * (1.0 + b.abs()),
        "{what}: dual {a:e}, emitted {b:e}"
    );
}

#[test]
fn a_spherical_pairings_dual_residual_is_its_position_jacobian() {
    use spherical::rigid_ep_point_to_rigid_ep_point as ep_ep;
    let (jac0, jac1) = ep_ep::position_jacobian(&B0, &Q0, &B1, &Q1);
    for j in 0..7 {
        let q = [
            (seeded(&Q0, Some(j)), seeded(&Q1, None)),
            (seeded(&Q0, None), seeded(&Q1, Some(j))),
        ];
        for (marker, (q0, q1)) in q.iter().enumerate() {
            let g = ep_ep::position_residual(&constants(&B0), q0, &constants(&B1), q1);
            let column = if marker == 0 { &jac0 } else { &jac1 };
            for r in 0..3 {
                close(g[r].eps, column[r][j], &format!("m{marker}, row {r}, q{j}"));
            }
        }
    }
    // the real part is the f64 kernel's residual, to the bit
    let g = ep_ep::position_residual(&B0, &Q0, &B1, &Q1);
    let d = ep_ep::position_residual(
        &constants(&B0),
        &seeded(&Q0, None),
        &constants(&B1),
        &seeded(&Q1, None),
    );
    for r in 0..3 {
        assert_eq!(d[r].re.to_bits(), g[r].to_bits(), "row {r}");
    }
}

/// A conditional and an `atan2`, on both sides of the branch.
#[test]
fn a_twist_limits_dual_residual_is_its_position_jacobian_on_both_branches() {
    use twist_limit::rigid_ep_point_to_rigid_ep_point as ep_ep;
    let twist = {
        let g = ep_ep::position_residual(
            &twist_limit::Parameters { limit: -10.0 },
            &B0,
            &Q0,
            &B1,
            &Q1,
        );
        g[0] - 10.0
    };
    for (limit, active) in [(twist - 0.3, true), (twist + 0.3, false)] {
        let joint = twist_limit::Parameters { limit };
        let (jac0, jac1) = ep_ep::position_jacobian(&joint, &B0, &Q0, &B1, &Q1);
        let mut largest: f64 = 0.0;
        let dual_joint = joint.map(Dual64::c);
        for j in 0..7 {
            let g0 = ep_ep::position_residual(
                &dual_joint,
                &constants(&B0),
                &seeded(&Q0, Some(j)),
                &constants(&B1),
                &seeded(&Q1, None),
            );
            let g1 = ep_ep::position_residual(
                &dual_joint,
                &constants(&B0),
                &seeded(&Q0, None),
                &constants(&B1),
                &seeded(&Q1, Some(j)),
            );
            close(g0[0].eps, jac0[0][j], &format!("m0, q{j}, limit {limit}"));
            close(g1[0].eps, jac1[0][j], &format!("m1, q{j}, limit {limit}"));
            largest = largest.max(jac0[0][j].abs()).max(jac1[0][j].abs());
        }
        // the branch taken: the twist's derivatives above the limit, zero below
        assert_eq!(
            largest > 0.1,
            active,
            "limit {limit}: largest entry {largest}"
        );
    }
}

#[test]
fn the_f32_instance_agrees_with_f64_to_single_precision() {
    use spherical::rigid_ep_point_to_rigid_ep_point as ep_ep;
    let (b0, q0, b1, q1) = (
        B0.map(|x| x as f32),
        Q0.map(|x| x as f32),
        B1.map(|x| x as f32),
        Q1.map(|x| x as f32),
    );
    let single = ep_ep::position_residual(&b0, &q0, &b1, &q1);
    let double = ep_ep::position_residual(&B0, &Q0, &B1, &Q1);
    let (j32, _) = ep_ep::position_jacobian(&b0, &q0, &b1, &q1);
    let (j64, _) = ep_ep::position_jacobian(&B0, &Q0, &B1, &Q1);
    for r in 0..3 {
        assert!((single[r] as f64 - double[r]).abs() < 1e-5, "row {r}");
        for c in 0..7 {
            assert!((j32[r][c] as f64 - j64[r][c]).abs() < 1e-5, "({r}, {c})");
        }
    }
}

/// Lane l of every argument is joint l's: four joints at varied poses.
fn pose(l: usize, q: &[f64; 7]) -> [f64; 7] {
    let s = 1.0 + 0.1 * l as f64;
    std::array::from_fn(|k| q[k] * s + 0.05 * (l * k) as f64)
}

fn lanes4<const N: usize>(f: impl Fn(usize) -> [f64; N]) -> [f64x4; N] {
    let joints: [[f64; N]; 4] = std::array::from_fn(f);
    std::array::from_fn(|k| f64x4::new(std::array::from_fn(|l| joints[l][k])))
}

#[test]
fn f64x4_lanes_are_four_joints_evaluated_as_the_scalar_kernel_does() {
    use spherical::rigid_ep_point_to_rigid_ep_point as ep_ep;
    let (b0, b1) = (lanes4(|_| B0), lanes4(|_| B1));
    let (q0, q1) = (lanes4(|l| pose(l, &Q0)), lanes4(|l| pose(l, &Q1)));
    let (g, (c0, c1)) = ep_ep::position_residual_and_jacobian(&b0, &q0, &b1, &q1);
    for l in 0..4 {
        let (gs, (s0, s1)) =
            ep_ep::position_residual_and_jacobian(&B0, &pose(l, &Q0), &B1, &pose(l, &Q1));
        // additions, multiplications, square roots: correctly rounded in both, so equal bits
        for r in 0..3 {
            assert_eq!(
                g[r].to_array()[l].to_bits(),
                gs[r].to_bits(),
                "lane {l}, row {r}"
            );
            for c in 0..7 {
                assert_eq!(c0[r][c].to_array()[l].to_bits(), s0[r][c].to_bits());
                assert_eq!(c1[r][c].to_array()[l].to_bits(), s1[r][c].to_bits());
            }
        }
    }
}

/// Lanes on different branches of a conditional: each lane takes its own.
#[test]
fn lanes_take_each_their_own_branch_of_a_conditional() {
    use twist_limit::rigid_ep_point_to_rigid_ep_point as ep_ep;
    let (q0, q1) = (lanes4(|l| pose(l, &Q0)), lanes4(|l| pose(l, &Q1)));
    let (b0, b1) = (lanes4(|_| B0), lanes4(|_| B1));
    let no_limit = twist_limit::Parameters { limit: -10.0 };
    let twists: [f64; 4] = std::array::from_fn(|l| {
        ep_ep::position_residual(&no_limit, &B0, &pose(l, &Q0), &B1, &pose(l, &Q1))[0] - 10.0
    });
    // a limit between the joints' twists: two above it, two below
    let mut sorted = twists;
    sorted.sort_by(f64::total_cmp);
    assert!(sorted[2] - sorted[1] > 1e-3, "distinct twists: {twists:?}");
    let joint = twist_limit::Parameters {
        limit: 0.5 * (sorted[1] + sorted[2]),
    };
    let g = ep_ep::position_residual(&joint.map(f64x4::splat), &b0, &q0, &b1, &q1)[0].to_array();
    for l in 0..4 {
        let s = ep_ep::position_residual(&joint, &B0, &pose(l, &Q0), &B1, &pose(l, &Q1))[0];
        // wide's atan2 is a polynomial approximation, not correctly rounded
        assert!((g[l] - s).abs() < 1e-12, "lane {l}: {} against {s}", g[l]);
        assert_eq!(g[l] > 0.0, twists[l] > joint.limit, "lane {l}: {}", g[l]);
        assert_eq!(g[l] == 0.0, twists[l] <= joint.limit, "lane {l}: {}", g[l]);
    }
}

#[test]
fn f32x8_lanes_agree_with_the_f32_kernel() {
    use spherical::rigid_ep_point_to_rigid_ep_point as ep_ep;
    let f32s = |v: [f64; 7]| v.map(|x| x as f32);
    let joints: [[f32; 7]; 8] = std::array::from_fn(|l| f32s(pose(l, &Q1)));
    let q1: [f32x8; 7] = std::array::from_fn(|k| f32x8::new(std::array::from_fn(|l| joints[l][k])));
    let q0 = f32s(Q0).map(f32x8::splat);
    let (b0, b1) = (
        B0.map(|x| f32x8::splat(x as f32)),
        B1.map(|x| f32x8::splat(x as f32)),
    );
    let g = ep_ep::position_residual(&b0, &q0, &b1, &q1);
    for (l, joint) in joints.iter().enumerate() {
        let s = ep_ep::position_residual(
            &B0.map(|x| x as f32),
            &f32s(Q0),
            &B1.map(|x| x as f32),
            joint,
        );
        for r in 0..3 {
            assert!(
                (g[r].to_array()[l] - s[r]).abs() <= 1e-6,
                "lane {l}, row {r}"
            );
        }
    }
}

/// A force element's typed kernels in duals: the force seeded on a marker's position or
/// velocity component is the emitted `ForceJacobian`'s column.
#[test]
fn a_force_elements_dual_force_is_its_emitted_jacobian() {
    use joint_core::MarkerQuantities;
    use joint_embedding::line_spring::{self, marker_level as ml};
    let joint = line_spring::Parameters {
        stiffness: 120.0,
        damping: 3.5,
        rest_length: 0.4,
    };
    let m = |position: [f64; 3], velocity: [f64; 3]| MarkerQuantities {
        position,
        velocity,
        ..MarkerQuantities::default()
    };
    let (m0, m1) = (
        m([0.1, -0.3, 0.2], [0.5, 0.1, -0.2]),
        m([0.7, 0.2, -0.4], [-0.3, 0.4, 0.6]),
    );
    let jac = ml::jacobian(&joint, &m0, &m1);
    let dual = |q: &MarkerQuantities, seed: Option<(bool, usize)>| MarkerQuantities {
        position: std::array::from_fn(|k| {
            let x = Dual64::c(q.position[k]);
            if seed == Some((false, k)) {
                x.derivative()
            } else {
                x
            }
        }),
        velocity: std::array::from_fn(|k| {
            let x = Dual64::c(q.velocity[k]);
            if seed == Some((true, k)) {
                x.derivative()
            } else {
                x
            }
        }),
        rotation: q.rotation.map(|r| r.map(Dual64::c)),
        angular_velocity: q.angular_velocity.map(Dual64::c),
    };
    let joint = joint.map(Dual64::c);
    for marker in 0..2 {
        for velocity in [false, true] {
            for c in 0..3 {
                let seed = Some((velocity, c));
                let (d0, d1) = if marker == 0 {
                    (dual(&m0, seed), dual(&m1, None))
                } else {
                    (dual(&m0, None), dual(&m1, seed))
                };
                let f = ml::force(&joint, &d0, &d1);
                let block = if velocity {
                    &jac.d_velocity
                } else {
                    &jac.d_position
                };
                for r in 0..3 {
                    close(
                        f[r].eps,
                        block[marker][r][c],
                        &format!("m{marker}, velocity {velocity}, ({r}, {c})"),
                    );
                }
            }
        }
    }
}

/// A joint's marker-level kernels in duals: the residual seeded on an entry of a marker's
/// rotation matrix is the emitted ∂g/∂A (`marker_level::position_jacobian`).
#[test]
fn a_marker_level_dual_residual_is_its_emitted_position_jacobian() {
    use joint_core::MarkerQuantities;
    use twist_limit::marker_level as ml;
    // two frames turned about z by 0.2 and 1.1 rad, then tilted a little
    let frame = |a: f64, tilt: f64| {
        let (s, c, st, ct) = (a.sin(), a.cos(), tilt.sin(), tilt.cos());
        [[c, -s * ct, s * st], [s, c * ct, -c * st], [0.0, st, ct]]
    };
    let (m0, m1) = (
        MarkerQuantities {
            rotation: frame(0.2, 0.1),
            ..Default::default()
        },
        MarkerQuantities {
            rotation: frame(1.1, -0.2),
            ..Default::default()
        },
    );
    let joint = twist_limit::Parameters { limit: 0.5 };
    let jac = ml::position_jacobian(&joint, &m0, &m1);
    let dual = |q: &MarkerQuantities, seed: Option<usize>| MarkerQuantities {
        position: q.position.map(Dual64::c),
        velocity: q.velocity.map(Dual64::c),
        rotation: std::array::from_fn(|r| {
            std::array::from_fn(|c| {
                let x = Dual64::c(q.rotation[r][c]);
                if seed == Some(3 * r + c) {
                    x.derivative()
                } else {
                    x
                }
            })
        }),
        angular_velocity: q.angular_velocity.map(Dual64::c),
    };
    let djoint = joint.map(Dual64::c);
    let mut largest: f64 = 0.0;
    for k in 0..9 {
        let g0 = ml::position_residual(&djoint, &dual(&m0, Some(k)), &dual(&m1, None));
        let g1 = ml::position_residual(&djoint, &dual(&m0, None), &dual(&m1, Some(k)));
        close(
            g0[0].eps,
            jac.d_rotation[0][0][k],
            &format!("m0, A entry {k}"),
        );
        close(
            g1[0].eps,
            jac.d_rotation[1][0][k],
            &format!("m1, A entry {k}"),
        );
        largest = largest.max(jac.d_rotation[1][0][k].abs());
    }
    assert!(largest > 0.1, "the twist is above the limit: {largest}");
}
