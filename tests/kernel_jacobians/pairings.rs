//! 1: the spherical joint of every pairing of marker kinds through the slice interface, against
//! the oracle (residuals, Jacobians, second-order terms).

use super::*;

// ------------------------------------------------------------------------------------------------
// Running a pairing through the slice interface.

pub(super) struct Evaluated {
    pub(super) position: [f64; 3],
    pub(super) velocity: [f64; 3],
    pub(super) jac0: Vec<f64>,
    pub(super) jac1: Vec<f64>,
}

pub(super) fn evaluate(kernel: &&'static Pairing, m0: &MarkerState, m1: &MarkerState) -> Evaluated {
    let name = kernel_name(kernel);
    let mut position = [f64::NAN; 3];
    let mut velocity = [f64::NAN; 3];
    (kernel.position_residual)(&[], m0.args(), m1.args(), &mut position)
        .unwrap_or_else(|| panic!("{name}: position_residual rejected correct slices"));
    (kernel.velocity_residual)(&[], m0.args(), m1.args(), &mut velocity)
        .unwrap_or_else(|| panic!("{name}: velocity_residual rejected correct slices"));
    let mut jac0 = vec![f64::NAN; 3 * m0.q.len()];
    let mut jac1 = vec![f64::NAN; 3 * m1.q.len()];
    (kernel.jacobian)(&[], m0.args(), m1.args(), &mut jac0, &mut jac1)
        .unwrap_or_else(|| panic!("{name}: jacobian rejected correct slices"));
    Evaluated {
        position,
        velocity,
        jac0,
        jac1,
    }
}

pub(super) fn kernel_name(kernel: &&'static Pairing) -> String {
    format!(
        "spherical {} → {}",
        kernel.kinds[0].name(),
        kernel.kinds[1].name()
    )
}

/// Every generated pairing `(kind0, kind1, kernel)`.
pub(super) fn all_pairings() -> Vec<(MarkerKind, MarkerKind, &'static Pairing)> {
    let mut out = Vec::new();
    for k0 in KINDS {
        for k1 in KINDS {
            if let Some(kernel) = spherical::pairing(k0, k1) {
                out.push((k0, k1, kernel));
            }
        }
    }
    out
}

pub(super) fn block_times(block: &[f64], v: &[f64]) -> [f64; 3] {
    let n = v.len();
    assert_eq!(block.len(), 3 * n);
    [0, 1, 2].map(|r| dot(&block[r * n..(r + 1) * n], v))
}

/// Checks 1a–1c of one pairing at one state.
pub(super) fn check_pairing(
    k0: MarkerKind,
    k1: MarkerKind,
    kernel: &&'static Pairing,
    m0: &MarkerState,
    m1: &MarkerState,
    on_manifold: bool,
) {
    let name = kernel_name(kernel);
    let state = if on_manifold {
        "on the EP manifold"
    } else {
        "off the EP manifold"
    };
    let e = evaluate(kernel, m0, m1);
    let (o0, o1) = (oracle(k0, m0), oracle(k1, m1));

    // Position and velocity residuals against the oracle (p1 − p0, v1 − v0).
    for r in 0..3 {
        check(
            e.position[r],
            o1.position[r] - o0.position[r],
            1e-12,
            || format!("{name} ({state}): position residual row {r} vs p1 − p0 of the oracle"),
        );
        check(
            e.velocity[r],
            o1.velocity[r] - o0.velocity[r],
            1e-12,
            || format!("{name} ({state}): velocity residual row {r} vs v1 − v0 of the oracle"),
        );
    }

    // 1a: the velocity residual is J0·q̇0 + J1·q̇1.
    let j0v = block_times(&e.jac0, &m0.v);
    let j1v = block_times(&e.jac1, &m1.v);
    for r in 0..3 {
        check(e.velocity[r], j0v[r] + j1v[r], 1e-12, || {
            format!("{name} ({state}): velocity residual row {r} vs J0·q̇0 + J1·q̇1")
        });
    }

    // 1c: the Jacobian blocks are −J_pos(m0) and +J_pos(m1), Exudyn's [I | −A·skew(b)·Ḡ].
    check_mat(&e.jac0, &o0.position_jacobian.scaled(-1.0), 1e-12, || {
        format!("{name} ({state}): Jacobian block of m0 vs −[I | −A·skew(b)·Ḡ] of the oracle")
    });
    check_mat(&e.jac1, &o1.position_jacobian, 1e-12, || {
        format!("{name} ({state}): Jacobian block of m1 vs [I | −A·skew(b)·Ḡ] of the oracle")
    });

    // 1b: on the manifold, J·q̇ is the exact time derivative of the position residual.
    if on_manifold {
        let d0 = oracle_position_rate(k0, m0);
        let d1 = oracle_position_rate(k1, m1);
        for r in 0..3 {
            check(j0v[r] + j1v[r], d1[r] - d0[r], 1e-9, || {
                format!("{name} ({state}): J·q̇ row {r} vs d/dt of the position residual (num-dual)")
            });
        }
    }
}

proptest! {
    #![proptest_config(config())]

    /// 1a–1c for every pairing of the spherical joint.
    #[test]
    fn spherical_pairings_match_the_oracle(pools in pools()) {
        for on_manifold in [true, false] {
            let markers: Vec<MarkerState> = (0..14)
                .map(|i| marker_state(KINDS[i % 7], &pools[i], on_manifold))
                .collect();
            for (k0, k1, kernel) in all_pairings() {
                check_pairing(
                    k0,
                    k1,
                    &kernel,
                    &markers[k0.index()],
                    &markers[7 + k1.index()],
                    on_manifold,
                );
            }
        }
    }

    /// 2: every marker kind's kinematics against the oracle and finite differences.
    #[test]
    fn marker_kinematics_match_the_oracle(pools in pools()) {
        for on_manifold in [true, false] {
            for (i, kind) in KINDS.into_iter().enumerate() {
                let m = marker_state(kind, &pools[i], on_manifold);
                check_marker(kind, &m, on_manifold);
            }
        }
    }
}

#[test]
pub(super) fn every_pairing_but_ground_ground_is_generated() {
    assert_eq!(spherical::ROWS, 3);
    assert_eq!(spherical::DEFAULT_CONSTRAINED_AXES, [true; 3]);
    let pairings = all_pairings();
    assert_eq!(pairings.len(), 48, "number of spherical pairings");
    assert!(
        spherical::pairing(MarkerKind::GroundPoint, MarkerKind::GroundPoint).is_none(),
        "ground → ground"
    );
    for (k0, k1, kernel) in pairings {
        let name = kernel_name(&kernel);
        assert_eq!(kernel.kinds, [k0, k1], "{name}: kinds");
        assert_eq!(
            kernel.coordinates,
            [coordinate_count(k0), coordinate_count(k1)],
            "{name}: coordinate counts"
        );
        assert_eq!(
            kernel.parameters,
            [parameter_count(k0), parameter_count(k1)],
            "{name}: parameter counts"
        );
    }
    for k in KINDS {
        assert_eq!(marker_kinematics::MARKER_KINDS[k.index()], k.name());
    }
}
