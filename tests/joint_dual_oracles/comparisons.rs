//! Comparisons of every pairing of every built-in joint with the oracle.

use super::*;

// ------------------------------------------------------------------------------------------------
// Comparisons.

pub(super) const TOL: f64 = 1e-12;

/// `|got − want| ≤ TOL·(1 + max |want|)` entrywise over a block.
pub(super) fn check_block(got: &[f64], want: &[f64], what: impl Fn(usize) -> String) {
    assert_eq!(got.len(), want.len(), "{}: length", what(0));
    let scale = 1.0 + want.iter().fold(0.0f64, |s, x| s.max(x.abs()));
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(
            (g - w).abs() <= TOL * scale,
            "{}: got {g:.17e}, expected {w:.17e} (difference {:.3e}, allowed {:.3e})",
            what(i),
            (g - w).abs(),
            TOL * scale
        );
    }
}

/// Moves marker 1 by 3 along x until |Δp| ≥ 1 (the distance joint's direction is undefined at
/// Δp = 0, and its derivatives grow like 1/|Δp|).
pub(super) fn separate(k: &Pairing, m0: &MarkerState, m1: &mut MarkerState) {
    loop {
        let (q, v) = combined([m0, m1]);
        let n0 = m0.q.len();
        let kin0 = marker_kin(k.kinds[0], &m0.p, &q[..n0], &v[..n0]);
        let kin1 = marker_kin(k.kinds[1], &m1.p, &q[n0..], &v[n0..]);
        let dp = sub3(kin1.p, kin0.p);
        if dot3(dp, dp) >= 1.0 {
            return;
        }
        if m1.q.is_empty() {
            m1.p[0] += 3.0;
        } else {
            m1.q[0] += 3.0;
        }
    }
}

/// All checks (A–E of the file's head comment) of one pairing at one state.
pub(super) fn check_pairing(
    k: &Pairing,
    m0: &MarkerState,
    m1: &MarkerState,
    lambda: &[f64],
    on_manifold: bool,
) {
    let mut m1 = m1.clone();
    separate(k, m0, &mut m1);
    let m = [m0, &m1];
    let state = if on_manifold {
        "on the EP manifold"
    } else {
        "off the EP manifold"
    };
    let name = |what: &str| format!("{} ({state}): {what}", k.name);
    let (n0, n1) = (m0.q.len(), m1.q.len());
    let n = n0 + n1;
    let rows = k.rows;
    let lambda = &lambda[..rows];
    let s0: Side = (&m0.p, &m0.q, &m0.v);
    let s1: Side = (&m1.p, &m1.q, &m1.v);

    // The generated values.
    let mut pos = vec![f64::NAN; rows];
    (k.position)(s0, s1, &mut pos);
    let mut vel = vec![f64::NAN; rows];
    (k.velocity)(s0, s1, &mut vel);
    let (mut j0, mut j1) = (vec![f64::NAN; rows * n0], vec![f64::NAN; rows * n1]);
    (k.jacobian)(s0, s1, &mut j0, &mut j1);
    let mut convective = vec![f64::NAN; rows];
    (k.convective)(s0, s1, &mut convective);
    let mut rq = vec![f64::NAN; n * n];
    (k.reaction_q)(lambda, s0, s1, &mut rq);
    // Combined row-major `rows × n` blocks over m0's then m1's coordinates.
    let join = |a: &[f64], b: &[f64]| -> Vec<f64> {
        (0..rows)
            .flat_map(|r| {
                a[r * n0..(r + 1) * n0]
                    .iter()
                    .chain(&b[r * n1..(r + 1) * n1])
                    .copied()
            })
            .collect()
    };
    let jac = join(&j0, &j1);
    let (mut pj0, mut pj1) = (vec![f64::NAN; rows * n0], vec![f64::NAN; rows * n1]);
    (k.position_jacobian)(s0, s1, &mut pj0, &mut pj1);
    let pj = join(&pj0, &pj1);

    // position_jacobian = ∂g/∂q of the position level, on and off the EP manifold (Exudyn's
    // jacobian is that only on it): column j against the dual derivative along e_j.
    for j in 0..n {
        let e: Vec<f64> = (0..n).map(|i| f64::from(u8::from(i == j))).collect();
        let want = oracle_position_along(k, m, &e);
        let got: Vec<f64> = (0..rows).map(|r| pj[r * n + j]).collect();
        check_block(&got, &want, |r| {
            name(&format!(
                "position_jacobian entry ({r}, {j}) vs ∂g/∂q (dual)"
            ))
        });
    }

    // A: the residuals.
    let o = velocity_oracle(k, m);
    let g = oracle_position(k, m);
    check_block(&pos, &g, |r| {
        name(&format!("position_residual row {r} vs the oracle's g"))
    });
    // The marker level turns a frame by A·skew(Aᵀω), its quantities holding ω = A·ω̄ (what
    // Exudyn's markers report) and not ω̄ itself: Exudyn's A·skew(ω̄) wherever A is orthonormal,
    // so for an Euler-parameter marker on the manifold only.
    let composed = k.name.contains("::composed(");
    let orthonormal = on_manifold || (!is_ep(k.kinds[0]) && !is_ep(k.kinds[1]));
    if !composed || orthonormal {
        check_block(&vel, &o.g_v, |r| {
            name(&format!("velocity_residual row {r} vs the oracle's g_v"))
        });
    }

    // B: C = ∂g_J/∂q̇.
    check_block(&jac, &o.c, |i| {
        name(&format!(
            "jacobian entry ({}, {}) vs ∂g_J/∂q̇ (hyper-dual)",
            i / n,
            i % n
        ))
    });

    check_reaction_forces(k, (s0, s1), lambda, &o.c, &pos, &name);

    // The oracle's own consistency: its g_J is linear in q̇, g_J = (∂g_J/∂q̇)·q̇; and on the
    // manifold g_J is the velocity level.
    let (_, v) = combined(m);
    let v = &v[..];
    let cv: Vec<f64> = o.c.chunks(n).map(|row| dot(row, v)).collect();
    check_block(&cv, &o.g_j, |r| {
        name(&format!("oracle self-check row {r}: (∂g_J/∂q̇)·q̇ vs g_J"))
    });
    if on_manifold {
        check_block(&o.g_j, &o.g_v, |r| {
            name(&format!(
                "oracle self-check row {r}: g_J vs g_v on the manifold"
            ))
        });
    }

    // C: the convective term −(∂(C q̇)/∂q)·q̇, row r = −Σ_j Σ_c T(r, c, j)·q̇_c·q̇_j.
    let want_convective: Vec<f64> = (0..rows)
        .map(|r| {
            -(0..n)
                .map(|j| (0..n).map(|c| o.t.at(r, c, j) * v[c]).sum::<f64>() * v[j])
                .sum::<f64>()
        })
        .collect();
    check_block(&convective, &want_convective, |r| {
        name(&format!(
            "convective row {r} vs −Σ_jc ∂²g_J/∂q_j∂q̇_c·q̇_c·q̇_j (hyper-dual)"
        ))
    });

    // D: ∂(Cᵀλ)/∂q (c, j) = Σ_r λ_r·T(r, c, j).
    let want_rq: Vec<f64> = (0..n * n)
        .map(|i| {
            let (c, j) = (i / n, i % n);
            (0..rows).map(|r| lambda[r] * o.t.at(r, c, j)).sum()
        })
        .collect();
    check_block(&rq, &want_rq, |i| {
        name(&format!(
            "reaction_q entry ({}, {}) vs Σ_r λ_r ∂²g_J,r/∂q_j∂q̇_c (hyper-dual)",
            i / n,
            i % n
        ))
    });

    let generated = Generated {
        jac: &jac,
        vel: &vel,
        convective: &convective,
        rq: &rq,
    };
    check_position_link(k, m, on_manifold, lambda, &generated, &name);
}

proptest! {
    #![proptest_config(config())]

    /// A–E for every pairing of every built-in joint, on and off the Euler-parameter manifold.
    #[test]
    fn every_built_in_joint_kernel_matches_its_dual_oracle(pools in pools()) {
        let (markers, joint) = pools;
        let jp = joint_parameters(&joint);
        let lambda = &joint[7..];
        let pairings = all_pairings(&jp);
        for on_manifold in [true, false] {
            let n = KINDS.len();
            let states: Vec<MarkerState> = (0..2 * n)
                .map(|i| marker_state(KINDS[i % n], &markers[i], on_manifold))
                .collect();
            let at = |k: MarkerKind| KINDS.iter().position(|&x| x == k).expect("a tested kind");
            for k in &pairings {
                check_pairing(
                    k,
                    &states[at(k.kinds[0])],
                    &states[n + at(k.kinds[1])],
                    lambda,
                    on_manifold,
                );
            }
        }
    }
}

/// The pairings the oracle test runs over: every ordered pair of kinds with the capabilities the
/// joint needs (Position: all 11 position kinds; Rigid: the 7 with an orientation), except
/// ground–ground, through the composed marker-level kernels, and the unrolled pairings of the
/// kinds each built-in joint lists (3D joints: ground, mass points, rigid bodies and their
/// nodes; 2D joints: ground and the 2D kinds).
#[test]
pub(super) fn every_pairing_of_every_built_in_joint_is_checked() {
    let pairings = all_pairings(&joint_parameters(&[0.1; JOINT_POOL]));
    const D3: [&str; 7] = [
        "GroundPoint",
        "MassPointBody",
        "RigidEpPoint",
        "RigidRxyzPoint",
        "NodePoint",
        "NodeEp",
        "NodeRxyz",
    ];
    const D2: [&str; 5] = [
        "GroundPoint",
        "MassPoint2DBody",
        "NodePoint2D",
        "Rigid2DPoint",
        "NodeRigid2D",
    ];
    for (joint, rigid, listed, composed, unrolled) in [
        ("spherical", false, &D3[..], 120, 48),
        ("distance", false, &D3[..], 120, 48),
        ("revolute_z", true, &D3[..], 48, 24),
        ("prismatic_x", true, &D3[..], 48, 24),
        ("generic_rows", true, &D3[..], 48, 24),
        ("revolute_2d", false, &D2[..], 120, 24),
        ("prismatic_2d", true, &D2[..], 48, 8),
    ] {
        let mine: Vec<&Pairing> = pairings
            .iter()
            .filter(|k| k.name.starts_with(&format!("{joint}::")))
            .collect();
        let is_composed = |k: &&&Pairing| k.name.contains("::composed(");
        assert_eq!(
            mine.iter().filter(is_composed).count(),
            composed,
            "{joint}: composed"
        );
        assert_eq!(
            mine.len() - composed,
            unrolled,
            "{joint}: unrolled pairings"
        );
        for k0 in KINDS {
            for k1 in KINDS {
                let expected = !(k0 == MarkerKind::GroundPoint && k1 == MarkerKind::GroundPoint)
                    && (!rigid || (has_orientation(k0) && has_orientation(k1)));
                let present = mine.iter().filter(is_composed).any(|k| k.kinds == [k0, k1]);
                assert_eq!(
                    present,
                    expected,
                    "{joint}: composed {} – {}",
                    k0.name(),
                    k1.name()
                );
                let listed = expected && listed.contains(&k0.name()) && listed.contains(&k1.name());
                let present = mine.iter().any(|k| !is_composed(&k) && k.kinds == [k0, k1]);
                assert_eq!(
                    present,
                    listed,
                    "{joint}: unrolled {} – {}",
                    k0.name(),
                    k1.name()
                );
            }
        }
    }
    assert_eq!(pairings.len(), 552 + 48 + 48 + 24 + 24 + 24 + 24 + 8);
}

/// The generated kernels' values that the position level is checked against.
#[derive(Clone, Copy)]
struct Generated<'a> {
    /// C, rows × n.
    jac: &'a [f64],
    /// The velocity residual.
    vel: &'a [f64],
    /// The convective term.
    convective: &'a [f64],
    /// ∂(Cᵀλ)/∂q, n × n.
    rq: &'a [f64],
}

/// E: the link to the position level — C against ∂g/∂q (dual numbers), the velocity level
/// against d/dt g, and ∂(Cᵀλ)/∂q and the convective term against the position Hessian.
fn check_position_link(
    k: &Pairing,
    m: [&MarkerState; 2],
    on_manifold: bool,
    lambda: &[f64],
    generated: &Generated,
    name: &dyn Fn(&str) -> String,
) {
    let Generated {
        jac,
        vel,
        convective,
        rq,
    } = *generated;
    let (n0, n) = (m[0].q.len(), m[0].q.len() + m[1].q.len());
    let rows = k.rows;
    let (q, v) = combined(m);
    let v = &v[..];
    // `identical(c)`: column c of C is ∂g/∂q_c identically in q (coordinates of markers without
    // Euler parameters, and the translation coordinates of those with).
    let marker_of = |c: usize| usize::from(c >= n0);
    let offsets = [0, n0];
    let identical = |c: usize| {
        let i = marker_of(c);
        !is_ep(k.kinds[i]) || c - offsets[i] < 3
    };
    for c in 0..n {
        // E1: along e_c, or its tangent projection for an EP marker's rotation coordinates.
        if !identical(c) && !on_manifold {
            continue;
        }
        let mut w = vec![0.0; n];
        w[c] = 1.0;
        if !identical(c) {
            let i = marker_of(c);
            let th = &q[offsets[i] + 3..offsets[i] + 7];
            let tc = q[c];
            for (e, t) in th.iter().enumerate() {
                w[offsets[i] + 3 + e] -= tc * t;
            }
        }
        let cw: Vec<f64> = (0..rows)
            .map(|r| dot(&jac[r * n..(r + 1) * n], &w))
            .collect();
        let dg = oracle_position_along(k, m, &w);
        check_block(&cw, &dg, |r| {
            name(&format!(
                "row {r}: jacobian·w vs ∂g/∂q·w (dual) along {} of coordinate {c}",
                if identical(c) {
                    "the direction"
                } else {
                    "the tangent projection"
                }
            ))
        });
    }
    let no_ep = !is_ep(k.kinds[0]) && !is_ep(k.kinds[1]);
    if on_manifold || no_ep {
        // E2: the velocity level is d/dt of the position level along q̇ (tangent on the manifold).
        let dg = oracle_position_along(k, m, v);
        check_block(vel, &dg, |r| {
            name(&format!("velocity_residual row {r} vs d/dt g (dual)"))
        });
    }
    // E3: the position Hessian, H(r, c, j) = ∂²g_r/∂q_c∂q_j, for the columns c it determines.
    let mut hessian = Tensor::new(rows, n, f64::NAN);
    for c in (0..n).filter(|&c| identical(c)) {
        for j in 0..n {
            for (r, h) in oracle_position_hessian(k, m, j, c).into_iter().enumerate() {
                hessian.set(r, c, j, h);
            }
        }
    }
    for c in (0..n).filter(|&c| identical(c)) {
        let got = &rq[c * n..(c + 1) * n];
        let want: Vec<f64> = (0..n)
            .map(|j| (0..rows).map(|r| lambda[r] * hessian.at(r, c, j)).sum())
            .collect();
        check_block(got, &want, |j| {
            name(&format!(
                "reaction_q entry ({c}, {j}) vs Σ_r λ_r ∂²g_r/∂q_c∂q_j (position Hessian)"
            ))
        });
    }
    if no_ep {
        let want: Vec<f64> = (0..rows)
            .map(|r| {
                -(0..n)
                    .map(|j| (0..n).map(|c| hessian.at(r, c, j) * v[c]).sum::<f64>() * v[j])
                    .sum::<f64>()
            })
            .collect();
        check_block(convective, &want, |r| {
            name(&format!(
                "convective row {r} vs −Σ_jc ∂²g/∂q_j∂q_c·q̇_c·q̇_j (position Hessian)"
            ))
        });
    }
}

/// G: reaction_forces = Cᵀλ against the oracle's C (`c`, rows × n; the reverse sweep against
/// the forward derivatives), and the fused position_residual_and_reaction_forces against the
/// two kernels to the bit (`pos`: the position residual).
fn check_reaction_forces(
    k: &Pairing,
    (s0, s1): (Side, Side),
    lambda: &[f64],
    c: &[f64],
    pos: &[f64],
    name: &dyn Fn(&str) -> String,
) {
    let (n0, n1) = (s0.1.len(), s1.1.len());
    let (n, rows) = (n0 + n1, k.rows);
    let (mut f0, mut f1) = (vec![f64::NAN; n0], vec![f64::NAN; n1]);
    (k.reaction_forces)(lambda, s0, s1, &mut f0, &mut f1);
    let forces: Vec<f64> = f0.iter().chain(&f1).copied().collect();
    let want: Vec<f64> = (0..n)
        .map(|col| (0..rows).map(|r| lambda[r] * c[r * n + col]).sum())
        .collect();
    check_block(&forces, &want, |c| {
        name(&format!("reaction_forces entry {c} vs Cᵀλ (hyper-dual C)"))
    });

    // The fused position_residual_and_reaction_forces: the two kernels' bits (the same
    // expression trees, their common subexpressions shared).
    let (mut fr, mut ff0, mut ff1) = (vec![f64::NAN; rows], vec![f64::NAN; n0], vec![f64::NAN; n1]);
    (k.residual_and_reaction_forces)(lambda, s0, s1, &mut fr, &mut ff0, &mut ff1);
    let bits = |x: &[f64]| x.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    assert_eq!(
        bits(&fr),
        bits(pos),
        "{}",
        name("position_residual_and_reaction_forces: residual vs position_residual")
    );
    assert_eq!(
        bits(&ff0.iter().chain(&ff1).copied().collect::<Vec<_>>()),
        bits(&forces),
        "{}",
        name("position_residual_and_reaction_forces: forces vs reaction_forces")
    );
}
