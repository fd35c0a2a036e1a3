//! 3: the slice interface against the fixed-size functions, and wrong slice lengths.

use super::*;

// ------------------------------------------------------------------------------------------------
// 3: the slice interface against the fixed-size functions, and wrong slice lengths.

/// Both Jacobian blocks, row-major: `(jac0, jac1)`.
pub(super) type JacobianPair = (Vec<f64>, Vec<f64>);

/// A pairing's fixed-size functions behind one signature.
pub(super) struct Fixed {
    pub(super) position: fn(&MarkerState, &MarkerState) -> [f64; 3],
    pub(super) velocity: fn(&MarkerState, &MarkerState) -> [f64; 3],
    pub(super) jacobian: fn(&MarkerState, &MarkerState) -> JacobianPair,
}

pub(super) fn arr<const N: usize>(s: &[f64]) -> &[f64; N] {
    s.try_into().expect("slice length")
}

/// Normalises a pairing's Jacobian return value (one block, or a pair) to `(jac0, jac1)`.
trait Blocks {
    fn split(self, m0_has_coordinates: bool) -> JacobianPair;
}

impl<const N: usize> Blocks for [[f64; N]; 3] {
    fn split(self, m0_has_coordinates: bool) -> JacobianPair {
        let flat = self.as_flattened().to_vec();
        if m0_has_coordinates {
            (flat, vec![])
        } else {
            (vec![], flat)
        }
    }
}

impl<const A: usize, const B: usize> Blocks for ([[f64; A]; 3], [[f64; B]; 3]) {
    fn split(self, _: bool) -> JacobianPair {
        (
            self.0.as_flattened().to_vec(),
            self.1.as_flattened().to_vec(),
        )
    }
}

/// Builds a call of a fixed-size kernel: per marker, its class (`G` ground: parameters only;
/// `PQ` body: parameters and coordinates; `Q` node: coordinates only), the level (`pos`, `vel`,
/// `jac`) and the marker state; velocities are passed at `vel` only.
macro_rules! call {
    ($f:path; [$($acc:tt)*];) => { $f($($acc)*) };
    ($f:path; [$($acc:tt)*]; G $lvl:ident $m:ident; $($rest:tt)*) => {
        call!($f; [$($acc)* arr(&$m.p),]; $($rest)*)
    };
    ($f:path; [$($acc:tt)*]; PQ vel $m:ident; $($rest:tt)*) => {
        call!($f; [$($acc)* arr(&$m.p), arr(&$m.q), arr(&$m.v),]; $($rest)*)
    };
    ($f:path; [$($acc:tt)*]; PQ $lvl:ident $m:ident; $($rest:tt)*) => {
        call!($f; [$($acc)* arr(&$m.p), arr(&$m.q),]; $($rest)*)
    };
    ($f:path; [$($acc:tt)*]; Q vel $m:ident; $($rest:tt)*) => {
        call!($f; [$($acc)* arr(&$m.q), arr(&$m.v),]; $($rest)*)
    };
    ($f:path; [$($acc:tt)*]; Q $lvl:ident $m:ident; $($rest:tt)*) => {
        call!($f; [$($acc)* arr(&$m.q),]; $($rest)*)
    };
}

macro_rules! fixed {
    ($m:ident, $c0:ident, $c1:ident) => {
        (
            stringify!($m),
            Fixed {
                position: |a: &MarkerState, b: &MarkerState| {
                    call!(spherical::$m::position_residual; []; $c0 pos a; $c1 pos b;)
                },
                velocity: |a: &MarkerState, b: &MarkerState| {
                    call!(spherical::$m::velocity_residual; []; $c0 vel a; $c1 vel b;)
                },
                jacobian: |a: &MarkerState, b: &MarkerState| {
                    Blocks::split(
                        call!(spherical::$m::jacobian; []; $c0 jac a; $c1 jac b;),
                        !a.q.is_empty(),
                    )
                },
            },
        )
    };
}

pub(super) fn fixed_kernels() -> Vec<(&'static str, Fixed)> {
    vec![
        fixed!(ground_point_to_mass_point_body, G, PQ),
        fixed!(ground_point_to_rigid_ep_point, G, PQ),
        fixed!(ground_point_to_rigid_rxyz_point, G, PQ),
        fixed!(ground_point_to_node_point, G, Q),
        fixed!(ground_point_to_node_ep, G, Q),
        fixed!(ground_point_to_node_rxyz, G, Q),
        fixed!(mass_point_body_to_ground_point, PQ, G),
        fixed!(mass_point_body_to_mass_point_body, PQ, PQ),
        fixed!(mass_point_body_to_rigid_ep_point, PQ, PQ),
        fixed!(mass_point_body_to_rigid_rxyz_point, PQ, PQ),
        fixed!(mass_point_body_to_node_point, PQ, Q),
        fixed!(mass_point_body_to_node_ep, PQ, Q),
        fixed!(mass_point_body_to_node_rxyz, PQ, Q),
        fixed!(rigid_ep_point_to_ground_point, PQ, G),
        fixed!(rigid_ep_point_to_mass_point_body, PQ, PQ),
        fixed!(rigid_ep_point_to_rigid_ep_point, PQ, PQ),
        fixed!(rigid_ep_point_to_rigid_rxyz_point, PQ, PQ),
        fixed!(rigid_ep_point_to_node_point, PQ, Q),
        fixed!(rigid_ep_point_to_node_ep, PQ, Q),
        fixed!(rigid_ep_point_to_node_rxyz, PQ, Q),
        fixed!(rigid_rxyz_point_to_ground_point, PQ, G),
        fixed!(rigid_rxyz_point_to_mass_point_body, PQ, PQ),
        fixed!(rigid_rxyz_point_to_rigid_ep_point, PQ, PQ),
        fixed!(rigid_rxyz_point_to_rigid_rxyz_point, PQ, PQ),
        fixed!(rigid_rxyz_point_to_node_point, PQ, Q),
        fixed!(rigid_rxyz_point_to_node_ep, PQ, Q),
        fixed!(rigid_rxyz_point_to_node_rxyz, PQ, Q),
        fixed!(node_point_to_ground_point, Q, G),
        fixed!(node_point_to_mass_point_body, Q, PQ),
        fixed!(node_point_to_rigid_ep_point, Q, PQ),
        fixed!(node_point_to_rigid_rxyz_point, Q, PQ),
        fixed!(node_point_to_node_point, Q, Q),
        fixed!(node_point_to_node_ep, Q, Q),
        fixed!(node_point_to_node_rxyz, Q, Q),
        fixed!(node_ep_to_ground_point, Q, G),
        fixed!(node_ep_to_mass_point_body, Q, PQ),
        fixed!(node_ep_to_rigid_ep_point, Q, PQ),
        fixed!(node_ep_to_rigid_rxyz_point, Q, PQ),
        fixed!(node_ep_to_node_point, Q, Q),
        fixed!(node_ep_to_node_ep, Q, Q),
        fixed!(node_ep_to_node_rxyz, Q, Q),
        fixed!(node_rxyz_to_ground_point, Q, G),
        fixed!(node_rxyz_to_mass_point_body, Q, PQ),
        fixed!(node_rxyz_to_rigid_ep_point, Q, PQ),
        fixed!(node_rxyz_to_rigid_rxyz_point, Q, PQ),
        fixed!(node_rxyz_to_node_point, Q, Q),
        fixed!(node_rxyz_to_node_ep, Q, Q),
        fixed!(node_rxyz_to_node_rxyz, Q, Q),
    ]
}

pub(super) fn snake(kind: MarkerKind) -> &'static str {
    match kind {
        MarkerKind::GroundPoint => "ground_point",
        MarkerKind::MassPointBody => "mass_point_body",
        MarkerKind::RigidEpPoint => "rigid_ep_point",
        MarkerKind::RigidRxyzPoint => "rigid_rxyz_point",
        MarkerKind::NodePoint => "node_point",
        MarkerKind::NodeEp => "node_ep",
        MarkerKind::NodeRxyz => "node_rxyz",
        MarkerKind::NodeCoordinate => "node_coordinate",
        MarkerKind::GroundCoordinate => "ground_coordinate",
        MarkerKind::MassPoint2DBody => "mass_point_2d_body",
        MarkerKind::NodePoint2D => "node_point_2d",
        MarkerKind::Rigid2DPoint => "rigid_2d_point",
        MarkerKind::NodeRigid2D => "node_rigid_2d",
    }
}

/// The slice-based table returns exactly what the fixed-size functions return (all 48 pairings).
#[test]
pub(super) fn slice_kernels_agree_exactly_with_fixed_size_functions() {
    let fixed = fixed_kernels();
    assert_eq!(fixed.len(), 48);
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig {
        cases: 16,
        ..config()
    });
    runner
        .run(&pools(), |pools| {
            let markers: Vec<MarkerState> = (0..14)
                .map(|i| marker_state(KINDS[i % 7], &pools[i], i % 2 == 0))
                .collect();
            for (k0, k1, kernel) in all_pairings() {
                let module = format!("{}_to_{}", snake(k0), snake(k1));
                let (_, f) = fixed
                    .iter()
                    .find(|(name, _)| *name == module)
                    .unwrap_or_else(|| panic!("no fixed-size functions listed for {module}"));
                let (m0, m1) = (&markers[k0.index()], &markers[7 + k1.index()]);
                let e = evaluate(&kernel, m0, m1);
                assert_eq!(
                    e.position,
                    (f.position)(m0, m1),
                    "{module}: position_residual_slices vs position_residual"
                );
                assert_eq!(
                    e.velocity,
                    (f.velocity)(m0, m1),
                    "{module}: velocity_residual_slices vs velocity_residual"
                );
                let (j0, j1) = (f.jacobian)(m0, m1);
                assert_eq!(e.jac0, j0, "{module}: jacobian_slices block 0 vs jacobian");
                assert_eq!(e.jac1, j1, "{module}: jacobian_slices block 1 vs jacobian");
            }
            Ok(())
        })
        .expect("slice kernels");
}

/// Which slice of a call to mis-size.
#[derive(Clone, Copy, Debug)]
pub(super) enum Slice {
    Parameters(usize),
    Coordinates(usize),
    Velocities(usize),
    Jacobian(usize),
}

pub(super) fn resized(s: &[f64], len: usize) -> Vec<f64> {
    (0..len)
        .map(|i| s.get(i).copied().unwrap_or(0.25))
        .collect()
}

/// Calls `kernel`'s three functions with `slice` resized to `len` (everything else correct) and
/// returns, per function, whether it returned `Some`, and asserts nothing was written on `None`.
pub(super) fn call_resized(
    kernel: &&'static Pairing,
    m: [&MarkerState; 2],
    slice: Slice,
    len: usize,
) -> [Option<()>; 3] {
    let name = kernel_name(kernel);
    let mut s = [m[0].clone(), m[1].clone()];
    let (mut jl0, mut jl1) = (3 * m[0].q.len(), 3 * m[1].q.len());
    match slice {
        Slice::Parameters(i) => s[i].p = resized(&s[i].p, len),
        Slice::Coordinates(i) => s[i].q = resized(&s[i].q, len),
        Slice::Velocities(i) => s[i].v = resized(&s[i].v, len),
        Slice::Jacobian(0) => jl0 = len,
        Slice::Jacobian(_) => jl1 = len,
    }
    let sentinel = -7.5;
    let mut pos = [sentinel; 3];
    let mut vel = [sentinel; 3];
    let mut j0 = vec![sentinel; jl0];
    let mut j1 = vec![sentinel; jl1];
    let rp = (kernel.position_residual)(&[], s[0].args(), s[1].args(), &mut pos);
    let rv = (kernel.velocity_residual)(&[], s[0].args(), s[1].args(), &mut vel);
    let rj = (kernel.jacobian)(&[], s[0].args(), s[1].args(), &mut j0, &mut j1);
    let what = || format!("{name}: {slice:?} resized to {len}");
    if rp.is_none() {
        assert_eq!(
            pos,
            [sentinel; 3],
            "{}: position_residual wrote on None",
            what()
        );
    }
    if rv.is_none() {
        assert_eq!(
            vel,
            [sentinel; 3],
            "{}: velocity_residual wrote on None",
            what()
        );
    }
    if rj.is_none() {
        assert!(
            j0.iter().chain(&j1).all(|&x| x == sentinel),
            "{}: jacobian wrote on None",
            what()
        );
    }
    [rp, rv, rj]
}

/// Every slice a function reads, with a non-zero expected length, mis-sized by ±1: `None`, and
/// nothing written (all 48 pairings).
#[test]
pub(super) fn slice_kernels_reject_wrong_lengths() {
    let r: Vec<f64> = (0..POOL).map(|i| ((i as f64) * 0.61 + 0.2).cos()).collect();
    for (k0, k1, kernel) in all_pairings() {
        let name = kernel_name(&kernel);
        let m0 = marker_state(k0, &r, true);
        let m1 = marker_state(k1, &r, true);
        for i in 0..2 {
            let m = [&m0, &m1][i];
            // (slice, expected length, read by [position, velocity, jacobian])
            let cases = [
                (Slice::Parameters(i), m.p.len(), [true, true, true]),
                (Slice::Coordinates(i), m.q.len(), [true, true, true]),
                (Slice::Velocities(i), m.v.len(), [false, true, false]),
                (Slice::Jacobian(i), 3 * m.q.len(), [false, false, true]),
            ];
            for (slice, len, read) in cases {
                if len == 0 {
                    continue;
                }
                for wrong in [len - 1, len + 1] {
                    let got = call_resized(&kernel, [&m0, &m1], slice, wrong);
                    for (f, fname) in ["position_residual", "velocity_residual", "jacobian"]
                        .iter()
                        .enumerate()
                    {
                        if read[f] {
                            assert!(
                                got[f].is_none(),
                                "{name}: {fname} accepted {slice:?} of length {wrong} (expected {len})"
                            );
                        }
                    }
                }
            }
            // The jacobian output of a marker without coordinates must stay empty.
            if m.q.is_empty() {
                let got = call_resized(&kernel, [&m0, &m1], Slice::Jacobian(i), 3);
                assert!(
                    got[2].is_none(),
                    "{name}: jacobian accepted a non-empty block for marker {i} (no coordinates)"
                );
            }
        }
    }
}

/// Slices whose expected length is 0 (ground coordinates and velocities, node-marker parameters)
/// given non-empty: `None` ("every function returns `None` … if a slice has the wrong length").
#[test]
pub(super) fn slice_kernels_reject_non_empty_slices_where_none_are_expected() {
    let r: Vec<f64> = (0..POOL).map(|i| ((i as f64) * 0.61 + 0.2).cos()).collect();
    let mut accepted = Vec::new();
    for (k0, k1, kernel) in all_pairings() {
        let name = kernel_name(&kernel);
        let m0 = marker_state(k0, &r, true);
        let m1 = marker_state(k1, &r, true);
        for i in 0..2 {
            let m = [&m0, &m1][i];
            let cases = [
                (Slice::Parameters(i), m.p.len()),
                (Slice::Coordinates(i), m.q.len()),
                (Slice::Velocities(i), m.v.len()),
            ];
            for (slice, len) in cases {
                if len != 0 {
                    continue;
                }
                let got = call_resized(&kernel, [&m0, &m1], slice, 2);
                let reads = match slice {
                    Slice::Velocities(_) => vec![1],
                    _ => vec![0, 1, 2],
                };
                for f in reads {
                    if got[f].is_some() {
                        accepted.push(format!(
                            "{name}: {} accepted {slice:?} of length 2 (expected 0)",
                            ["position_residual", "velocity_residual", "jacobian"][f]
                        ));
                    }
                }
            }
        }
    }
    assert!(
        accepted.is_empty(),
        "{} wrong-length slices accepted, e.g.\n{}",
        accepted.len(),
        accepted.join("\n")
    );
}

/// The same for the `marker_kinematics` dispatchers, whose documentation says "`None` if … a
/// slice has the wrong length" (regression: non-empty parameters of node kinds and non-empty
/// coordinates or velocities of ground used to be accepted and ignored).
#[test]
pub(super) fn marker_dispatch_rejects_non_empty_slices_where_none_are_expected() {
    let r: Vec<f64> = (0..POOL).map(|i| ((i as f64) * 0.61 + 0.2).cos()).collect();
    let mut accepted: Vec<String> = Vec::new();
    let two = [0.5, -0.5];
    for kind in KINDS {
        let k = kind.index();
        let m = marker_state(kind, &r, true);
        let name = format!("marker_kinematics {}", kind.name());
        if m.p.is_empty() {
            if marker_kinematics::position(k, &two, &m.q).is_some() {
                accepted.push(format!(
                    "{name}: position accepted parameters of length 2 (expected 0)"
                ));
            }
            let mut out = vec![0.0; 3 * m.q.len()];
            if marker_kinematics::position_jacobian(k, &two, &m.q, &mut out).is_some() {
                accepted.push(format!(
                    "{name}: position_jacobian accepted parameters of length 2 (expected 0)"
                ));
            }
        }
        if m.q.is_empty() {
            if marker_kinematics::position(k, &m.p, &two).is_some() {
                accepted.push(format!(
                    "{name}: position accepted coordinates of length 2 (expected 0)"
                ));
            }
            if marker_kinematics::velocity(k, &m.p, &m.q, &two).is_some() {
                accepted.push(format!(
                    "{name}: velocity accepted velocities of length 2 (expected 0)"
                ));
            }
        }
    }
    assert!(
        accepted.is_empty(),
        "{} wrong-length slices accepted:\n{}",
        accepted.len(),
        accepted.join("\n")
    );
}

/// The marker-kinematics dispatchers reject wrong lengths and unknown kinds.
#[test]
pub(super) fn marker_dispatch_rejects_wrong_lengths() {
    let r: Vec<f64> = (0..POOL).map(|i| ((i as f64) * 0.43 - 0.1).sin()).collect();
    for kind in KINDS {
        let k = kind.index();
        let m = marker_state(kind, &r, true);
        let n = m.q.len();
        let name = kind.name();
        let (p, q, v) = (&m.p[..], &m.q[..], &m.v[..]);
        assert!(
            marker_kinematics::position(k, p, q).is_some(),
            "{name}: position"
        );
        if !p.is_empty() {
            let short = &p[..p.len() - 1];
            assert!(
                marker_kinematics::position(k, short, q).is_none(),
                "{name}: position accepted short parameters"
            );
        }
        if n > 0 {
            let short = &q[..n - 1];
            assert!(
                marker_kinematics::position(k, p, short).is_none(),
                "{name}: position accepted short coordinates"
            );
            assert!(
                marker_kinematics::velocity(k, p, q, &v[..n - 1]).is_none(),
                "{name}: velocity accepted short velocities"
            );
        }
        let mut too_long = vec![0.0; 3 * n + 1];
        assert!(
            marker_kinematics::position_jacobian(k, p, q, &mut too_long).is_none(),
            "{name}: position_jacobian accepted an output of length {}",
            3 * n + 1
        );
        let mut dq = vec![0.0; n * n + 1];
        assert!(
            marker_kinematics::position_jacobian_t_times_vector_q(k, p, q, &[1.0; 3], &mut dq)
                .is_none(),
            "{name}: position_jacobian_t_times_vector_q accepted an output of length {}",
            n * n + 1
        );
    }
    assert!(marker_kinematics::position(7, &[], &[]).is_none(), "kind 7");
}
