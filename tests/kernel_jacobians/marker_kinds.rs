//! 2: every marker kind's kinematics against the oracle.

use super::*;

// ------------------------------------------------------------------------------------------------
// 2: marker kinematics.

pub(super) fn central_difference(f: impl Fn(f64) -> Vec<f64>, h: f64) -> Vec<f64> {
    let (a, b) = (f(h), f(-h));
    a.iter().zip(&b).map(|(x, y)| (x - y) / (2.0 * h)).collect()
}

pub(super) fn check_marker(kind: MarkerKind, m: &MarkerState, on_manifold: bool) {
    let k = kind.index();
    let name = format!(
        "marker_kinematics {} ({})",
        kind.name(),
        if on_manifold {
            "on the EP manifold"
        } else {
            "off the EP manifold"
        }
    );
    let n = coordinate_count(kind);
    let o = oracle(kind, m);
    let (p, q, v) = (&m.p[..], &m.q[..], &m.v[..]);

    let position = marker_kinematics::position(k, p, q)
        .unwrap_or_else(|| panic!("{name}: position rejected correct slices"));
    check_slice(&position, &o.position, 1e-12, || {
        format!("{name}: position")
    });
    let velocity = marker_kinematics::velocity(k, p, q, v)
        .unwrap_or_else(|| panic!("{name}: velocity rejected correct slices"));
    check_slice(&velocity, &o.velocity, 1e-12, || {
        format!("{name}: velocity")
    });

    // Position Jacobian: Exudyn's form, and (on the manifold) the exact rate of the position.
    let mut jpos = vec![f64::NAN; 3 * n];
    marker_kinematics::position_jacobian(k, p, q, &mut jpos)
        .unwrap_or_else(|| panic!("{name}: position_jacobian rejected correct slices"));
    check_mat(&jpos, &o.position_jacobian, 1e-12, || {
        format!("{name}: position_jacobian vs [I | −A·skew(b)·Ḡ]")
    });
    let jv = block_times(&jpos, v);
    check_slice(&jv, &velocity, 1e-12, || {
        format!("{name}: position_jacobian·q̇ vs velocity")
    });
    if on_manifold {
        let rate = oracle_position_rate(kind, m);
        check_slice(&jv, &rate, 1e-9, || {
            format!("{name}: position_jacobian·q̇ vs d/dt position (num-dual)")
        });
    }

    check_force_terms(k, p, q, &name, &position, &jpos);

    // Orientation.
    let rotation = marker_kinematics::rotation(k, p, q);
    let omega = marker_kinematics::angular_velocity(k, p, q, v);
    let omega_local = marker_kinematics::angular_velocity_local(k, p, q, v);
    let rate = marker_kinematics::angular_acceleration_rate_part(k, p, q, v);
    let rate_local = marker_kinematics::angular_acceleration_local_rate_part(k, p, q, v);
    let mut jrot = vec![f64::NAN; 3 * n];
    let rot_jac = marker_kinematics::rotation_jacobian(k, p, q, &mut jrot);
    let mut jrot_local = vec![f64::NAN; 3 * n];
    let rot_jac_local = marker_kinematics::rotation_jacobian_local(k, p, q, &mut jrot_local);
    if !has_orientation(kind) {
        assert!(rotation.is_none(), "{name}: rotation should be None");
        assert!(omega.is_none(), "{name}: angular_velocity should be None");
        assert!(
            omega_local.is_none(),
            "{name}: angular_velocity_local should be None"
        );
        assert!(rate.is_none(), "{name}: rate part should be None");
        assert!(
            rate_local.is_none(),
            "{name}: local rate part should be None"
        );
        assert!(
            rot_jac.is_none(),
            "{name}: rotation_jacobian should be None"
        );
        assert!(
            rot_jac_local.is_none(),
            "{name}: rotation_jacobian_local should be None"
        );
        return;
    }
    let rotation = rotation.unwrap_or_else(|| panic!("{name}: rotation missing"));
    check_mat(
        rotation.as_flattened(),
        &m3(&o.rotation.expect("oracle rotation")),
        1e-12,
        || format!("{name}: rotation matrix vs the spec's A"),
    );
    let omega = omega.unwrap_or_else(|| panic!("{name}: angular_velocity missing"));
    check_slice(&omega, &o.angular_velocity.expect("ω"), 1e-12, || {
        format!("{name}: angular_velocity vs G·θ̇")
    });
    let omega_local =
        omega_local.unwrap_or_else(|| panic!("{name}: angular_velocity_local missing"));
    check_slice(
        &omega_local,
        &o.angular_velocity_local.expect("ω̄"),
        1e-12,
        || format!("{name}: angular_velocity_local vs Ḡ·θ̇"),
    );
    rot_jac.unwrap_or_else(|| panic!("{name}: rotation_jacobian rejected correct slices"));
    check_mat(
        &jrot,
        o.rotation_jacobian.as_ref().expect("[0|G]"),
        1e-12,
        || format!("{name}: rotation_jacobian vs [0 | G]"),
    );
    rot_jac_local
        .unwrap_or_else(|| panic!("{name}: rotation_jacobian_local rejected correct slices"));
    check_mat(
        &jrot_local,
        o.rotation_jacobian_local.as_ref().expect("[0|Ḡ]"),
        1e-12,
        || format!("{name}: rotation_jacobian_local vs [0 | Ḡ]"),
    );
    if n == 0 {
        // Ground: fixed orientation, no rate parts.
        assert!(rate.is_none(), "{name}: rate part should be None");
        assert!(
            rate_local.is_none(),
            "{name}: local rate part should be None"
        );
        return;
    }
    let (spec_rate, spec_rate_local) = o.rate_parts.expect("rate parts");
    let rate = rate.unwrap_or_else(|| panic!("{name}: angular_acceleration_rate_part missing"));
    let rate_local = rate_local
        .unwrap_or_else(|| panic!("{name}: angular_acceleration_local_rate_part missing"));
    check_slice(&rate, &spec_rate, 1e-12, || {
        format!("{name}: angular_acceleration_rate_part vs the spec's G_t·θ̇")
    });
    check_slice(&rate_local, &spec_rate_local, 1e-12, || {
        format!("{name}: angular_acceleration_local_rate_part vs the spec's Ḡ_t·θ̇")
    });
    check_rates_against_differences(k, (p, q, v), &name, &rate, &rate_local);
}

/// The oracle itself: A orthogonal with det 1 on the manifold, ω = A·ω̄ (G = A·Ḡ), and the
/// spec's closed form of A(ψ) against the product of elementary rotations.
#[test]
pub(super) fn oracle_is_consistent_with_the_spec() {
    let mut runner = proptest::test_runner::TestRunner::new(config());
    runner
        .run(&pools(), |pools| {
            for (i, kind) in [MarkerKind::RigidEpPoint, MarkerKind::RigidRxyzPoint]
                .into_iter()
                .enumerate()
            {
                let m = marker_state(kind, &pools[i], true);
                let o = oracle(kind, &m);
                let a = m3(&o.rotation.expect("A"));
                let mut at = Mat::zeros(3, 3);
                for r in 0..3 {
                    for c in 0..3 {
                        at.set(r, c, a.at(c, r));
                    }
                }
                check_mat(&a.mul(&at).d, &identity3(), 1e-13, || {
                    format!("oracle {}: A·Aᵀ", kind.name())
                });
                let omega = o.angular_velocity.expect("ω");
                let a_omega_local = a.mul_vec(&o.angular_velocity_local.expect("ω̄"));
                check_slice(&omega, &a_omega_local, 1e-13, || {
                    format!("oracle {}: ω vs A·ω̄", kind.name())
                });
                if is_rxyz(kind) {
                    let (s0, c0) = m.q[3].sin_cos();
                    let (s1, c1) = m.q[4].sin_cos();
                    let (s2, c2) = m.q[5].sin_cos();
                    let closed = Mat::from_rows(&[
                        [c1 * c2, -c1 * s2, s1],
                        [s0 * s1 * c2 + c0 * s2, -s0 * s1 * s2 + c0 * c2, -s0 * c1],
                        [-c0 * s1 * c2 + s0 * s2, c0 * s1 * s2 + s0 * c2, c0 * c1],
                    ]);
                    check_mat(&a.d, &closed, 1e-14, || {
                        "oracle Rxyz: product vs closed form".to_string()
                    });
                }
            }
            Ok(())
        })
        .expect("oracle self-check");
}

/// The dispatchers agree with the per-kind module functions.
#[test]
pub(super) fn dispatch_agrees_with_the_kind_modules() {
    let r: Vec<f64> = (0..POOL).map(|i| ((i as f64) * 0.37).sin()).collect();
    let state = |kind| marker_state(kind, &r, true);
    let f = [0.3, -0.8, 1.2];
    macro_rules! same {
        ($got:expr, $want:expr, $what:expr) => {
            assert_eq!($got, Some($want), "{}", $what)
        };
    }
    fn block(kind: usize, n: usize, f: impl Fn(usize, &mut [f64]) -> Option<()>) -> Vec<f64> {
        let mut out = vec![f64::NAN; n];
        f(kind, &mut out).expect("block");
        out
    }
    use marker_kinematics as mk;

    let m = state(MarkerKind::GroundPoint);
    let (p, q, v) = (&m.p[..], &m.q[..], &m.v[..]);
    same!(
        mk::position(0, p, q),
        mk::ground_point::position(arr(p)),
        "ground_point position"
    );
    same!(
        mk::velocity(0, p, q, v),
        mk::ground_point::velocity(arr(p)),
        "ground_point velocity"
    );
    same!(
        mk::rotation(0, p, q),
        mk::ground_point::rotation(arr(p)),
        "ground_point rotation"
    );
    same!(
        mk::angular_velocity(0, p, q, v),
        mk::ground_point::angular_velocity(arr(p)),
        "ground_point angular_velocity"
    );

    /// `$m` names the marker state (bound here); `[$($pa)*]` is `arr(&$m.p),` for kinds with
    /// parameters and empty otherwise.
    macro_rules! with_coordinates {
        ($m:ident, $module:ident, $kind:expr, $n:expr, [$($pa:tt)*]) => {{
            let kind: MarkerKind = $kind;
            let k = kind.index();
            let $m = state(kind);
            let (p, q, v) = (&$m.p[..], &$m.q[..], &$m.v[..]);
            let name = stringify!($module);
            same!(
                mk::position(k, p, q),
                mk::$module::position($($pa)* arr(&$m.q)),
                format!("{name} position")
            );
            same!(
                mk::velocity(k, p, q, v),
                mk::$module::velocity($($pa)* arr(&$m.q), arr(&$m.v)),
                format!("{name} velocity")
            );
            assert_eq!(
                block(k, 3 * $n, |k, out| mk::position_jacobian(k, p, q, out)),
                mk::$module::position_jacobian($($pa)* arr(&$m.q)).as_flattened().to_vec(),
                "{name} position_jacobian"
            );
            assert_eq!(
                block(k, $n * $n, |k, out| {
                    mk::position_jacobian_t_times_vector_q(k, p, q, &f, out)
                }),
                mk::$module::position_jacobian_t_times_vector_q($($pa)* arr(&$m.q), &f)
                    .as_flattened()
                    .to_vec(),
                "{name} position_jacobian_t_times_vector_q"
            );
        }};
    }

    with_coordinates!(
        m,
        mass_point_body,
        MarkerKind::MassPointBody,
        3,
        [arr(&m.p),]
    );
    with_coordinates!(m, rigid_ep_point, MarkerKind::RigidEpPoint, 7, [arr(&m.p),]);
    with_coordinates!(
        m,
        rigid_rxyz_point,
        MarkerKind::RigidRxyzPoint,
        6,
        [arr(&m.p),]
    );
    with_coordinates!(m, node_point, MarkerKind::NodePoint, 3, []);
    with_coordinates!(m, node_ep, MarkerKind::NodeEp, 7, []);
    with_coordinates!(m, node_rxyz, MarkerKind::NodeRxyz, 6, []);

    assert_eq!(mk::rigid_ep_point::COORDINATES, 7);
    assert_eq!(mk::rigid_ep_point::PARAMETERS, 3);
    assert_eq!(mk::ground_point::COORDINATES, 0);
    assert_eq!(mk::ground_point::PARAMETERS, 12);
    assert_eq!(mk::node_rxyz::COORDINATES, 6);
    assert_eq!(mk::node_rxyz::PARAMETERS, 0);
}

/// ∂(J_posᵀ·f)/∂q against central differences of the generated J_posᵀ·f, for a force that
/// varies with the state; J_posᵀ·f by the reverse-sweep kernel against the formed Jacobian's.
fn check_force_terms(k: usize, p: &[f64], q: &[f64], name: &str, position: &[f64], jpos: &[f64]) {
    let n = jpos.len() / 3;
    let f = [
        0.6 - 0.2 * position[1],
        -1.1 + 0.1 * position[0],
        0.4 + 0.2 * position[2],
    ];
    let mut jtf = vec![f64::NAN; n];
    marker_kinematics::position_jacobian_t_times(k, p, q, &f, &mut jtf)
        .unwrap_or_else(|| panic!("{name}: position_jacobian_t_times rejected correct slices"));
    let formed: Vec<f64> = (0..n)
        .map(|c| (0..3).map(|r| jpos[r * n + c] * f[r]).sum())
        .collect();
    check_slice(&jtf, &formed, 1e-12, || {
        format!("{name}: position_jacobian_t_times vs J_posᵀ·f")
    });
    let mut dq = vec![f64::NAN; n * n];
    marker_kinematics::position_jacobian_t_times_vector_q(k, p, q, &f, &mut dq).unwrap_or_else(
        || panic!("{name}: position_jacobian_t_times_vector_q rejected correct slices"),
    );
    let jt_f = |q: &[f64]| -> Vec<f64> {
        let mut j = vec![0.0; 3 * n];
        marker_kinematics::position_jacobian(k, p, q, &mut j).expect("position_jacobian");
        (0..n)
            .map(|c| (0..3).map(|r| j[r * n + c] * f[r]).sum())
            .collect()
    };
    for c in 0..n {
        let column = central_difference(
            |h| {
                let mut qh = q.to_vec();
                qh[c] += h;
                jt_f(&qh)
            },
            1e-6,
        );
        for (r, want) in column.iter().enumerate() {
            check(dq[r * n + c], *want, 1e-6, || {
                format!(
                    "{name}: position_jacobian_t_times_vector_q entry ({r},{c}) vs central differences"
                )
            });
        }
    }
}

/// The angular acceleration's rate parts against finite differences of ω and ω̄ along q̇ at
/// constant velocities.
fn check_rates_against_differences(
    k: usize,
    (p, q, v): (&[f64], &[f64], &[f64]),
    name: &str,
    rate: &[f64],
    rate_local: &[f64],
) {
    let along = |h: f64| -> Vec<f64> { q.iter().zip(v).map(|(q, v)| q + h * v).collect() };
    let fd = central_difference(
        |h| {
            marker_kinematics::angular_velocity(k, p, &along(h), v)
                .expect("ω")
                .to_vec()
        },
        1e-6,
    );
    check_slice(rate, &fd, 1e-6, || {
        format!("{name}: angular_acceleration_rate_part vs finite differences of ω along q̇")
    });
    let fd_local = central_difference(
        |h| {
            marker_kinematics::angular_velocity_local(k, p, &along(h), v)
                .expect("ω̄")
                .to_vec()
        },
        1e-6,
    );
    check_slice(rate_local, &fd_local, 1e-6, || {
        format!("{name}: angular_acceleration_local_rate_part vs finite differences of ω̄ along q̇")
    });
}

/// The marker kinds' typed kinematics are generic over the scalar: their `f32` instance agrees
/// with the `f64` one (the runtime's) to single precision, for a rigid body with Euler
/// parameters and one with Tait–Bryan angles.
#[test]
fn marker_kinematics_in_f32_agree_with_f64() {
    use joint::runtime::kernels::marker_kinematics::{rigid_ep_point, rigid_rxyz_point};
    let b = [0.4, -0.3, 0.2];
    let ep = [0.1, 0.2, -0.3, 0.9, 0.1, -0.3, 0.2];
    let rxyz = [0.1, 0.2, -0.3, 0.4, -0.7, 1.1];
    let f32s = |v: &[f64]| v.iter().map(|&x| x as f32).collect::<Vec<_>>();
    let close = |a: &[f32], b: &[f64], what: &str| {
        for (x, y) in a.iter().zip(b) {
            assert!(
                (f64::from(*x) - y).abs() < 2e-6 * (1.0 + y.abs()),
                "{what}: {a:?} against {b:?}"
            );
        }
    };
    let (b32, ep32, rxyz32) = (f32s(&b), f32s(&ep), f32s(&rxyz));
    let b32: [f32; 3] = b32.try_into().unwrap();
    let ep32: [f32; 7] = ep32.try_into().unwrap();
    let rxyz32: [f32; 6] = rxyz32.try_into().unwrap();
    close(
        &rigid_ep_point::position(&b32, &ep32),
        &rigid_ep_point::position(&b, &ep),
        "EP position",
    );
    close(
        rigid_ep_point::position_jacobian(&b32, &ep32).as_flattened(),
        rigid_ep_point::position_jacobian(&b, &ep).as_flattened(),
        "EP position Jacobian",
    );
    close(
        &rigid_rxyz_point::position(&b32, &rxyz32),
        &rigid_rxyz_point::position(&b, &rxyz),
        "Rxyz position",
    );
    close(
        rigid_rxyz_point::position_jacobian(&b32, &rxyz32).as_flattened(),
        rigid_rxyz_point::position_jacobian(&b, &rxyz).as_flattened(),
        "Rxyz position Jacobian",
    );
}
