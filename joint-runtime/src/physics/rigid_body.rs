//! A rigid body's own terms with Euler parameters, Tait–Bryan angles or a Lie-group rotation
//! vector: its mass matrix and its LHS (the quadratic-velocity terms), Exudyn's "version 1"
//! equations (spec/items.md §3.3), from the node's generated kinematics (Ḡ and its rate). A
//! RotVecLG node's velocity coordinates are ω̄ itself: Ḡ = I and Ḡ_t = 0, so the same sums hold
//! with the identity (docs/research/rotation_coordinate_and_rotvec_lie_group.md B2).

use nalgebra::{Matrix3, Vector3};

use super::{m3, skew, v3};
use crate::assemble::Rotation;
use crate::kernels::marker_kinematics as mk;
use crate::markers::rotation_vector::rotation_vector_matrix;
use joint_core::MarkerKind;

/// Node-level kinematics kind of a rigid body's node (none for the Lie-group node, whose
/// Jacobians are not derivatives by its coordinates).
pub(super) fn node_kind(rotation: Rotation) -> Option<MarkerKind> {
    match rotation {
        Rotation::EulerParameters => Some(MarkerKind::NodeEp),
        Rotation::TaitBryanXyz => Some(MarkerKind::NodeRxyz),
        Rotation::RotationVectorLieGroup => None,
    }
}

/// The rotation matrix A of a rigid node at its total coordinates `qt`.
pub(crate) fn rigid_rotation(rotation: Rotation, qt: &[f64]) -> Matrix3<f64> {
    match node_kind(rotation) {
        Some(kind) => m3(mk::rotation(kind.index(), &[], qt).expect("rigid node")),
        None => rotation_vector_matrix(&v3([qt[3], qt[4], qt[5]])),
    }
}

/// Rigid-body quantities at a state.
pub(super) struct RigidState {
    /// Ḡ, 3 × nθ, row-major.
    g_local: [f64; 12],
    n_rot: usize,
    omega_local: Vector3<f64>,
    /// Ḡ_t·θ̇ (zero for Euler parameters).
    g_local_t_rates: Vector3<f64>,
}

/// Ḡ (ω̄ = Ḡθ̇) of a rigid node, row-major 3 × nθ.
pub(super) fn rigid_g_local(rotation: Rotation, qt: &[f64]) -> [f64; 12] {
    let Some(kind) = node_kind(rotation) else {
        let mut g = [0.0; 12];
        (g[0], g[4], g[8]) = (1.0, 1.0, 1.0);
        return g;
    };
    let kind = kind.index();
    let n = qt.len();
    let n_rot = n - 3;
    let mut jac = [0.0; 21];
    mk::rotation_jacobian_local(kind, &[], qt, &mut jac[..3 * n]).expect("rigid node");
    let mut g_local = [0.0; 12];
    for r in 0..3 {
        for c in 0..n_rot {
            g_local[r * n_rot + c] = jac[r * n + 3 + c];
        }
    }
    g_local
}

pub(super) fn rigid_state(rotation: Rotation, qt: &[f64], v: &[f64]) -> RigidState {
    let n_rot = qt.len() - 3;
    let g_local = rigid_g_local(rotation, qt);
    let (omega_local, g_local_t_rates) = match node_kind(rotation) {
        // ω̄ is the velocity coordinate; Ḡ_t = 0
        None => (v3([v[3], v[4], v[5]]), Vector3::zeros()),
        Some(kind) => {
            let kind = kind.index();
            let omega_local = v3(mk::angular_velocity_local(kind, &[], qt, v).expect("rigid node"));
            (
                omega_local,
                match rotation {
                    Rotation::TaitBryanXyz => {
                        v3(mk::angular_acceleration_local_rate_part(kind, &[], qt, v)
                            .expect("rigid node"))
                    }
                    // Exudyn omits Ḡ_t·θ̇ for EP nodes (it vanishes identically).
                    _ => Vector3::zeros(),
                },
            )
        }
    };
    RigidState {
        g_local,
        n_rot,
        omega_local,
        g_local_t_rates,
    }
}

/// Mass matrix of a rigid body over its node's coordinates (row-major n × n, n = 3 + nθ).
pub fn rigid_mass_matrix(
    rotation: Rotation,
    mass: f64,
    inertia: &Matrix3<f64>,
    com: &[f64; 3],
    qt: &[f64],
    out: &mut [f64],
) {
    // only Ḡ (and A for a centre-of-mass offset): not the velocities rigid_state also computes
    let n = qt.len();
    let nr = n - 3;
    let g_local = rigid_g_local(rotation, qt);
    out.fill(0.0);
    for i in 0..3 {
        out[i * n + i] = mass;
    }
    let g = |r: usize, c: usize| g_local[r * nr + c];
    let m_theta = rigid_mass_theta(inertia, &g_local, nr);
    for i in 0..nr {
        out[(3 + i) * n + 3..(3 + i) * n + n].copy_from_slice(&m_theta[i * nr..(i + 1) * nr]);
    }
    if com.iter().any(|&c| c != 0.0) {
        // M_uθ = −m A skew(c) Ḡ
        let a = rigid_rotation(rotation, qt);
        let ask = -mass * a * skew(&v3(*com));
        for r in 0..3 {
            for j in 0..nr {
                let s: f64 = (0..3).map(|k| ask[(r, k)] * g(k, j)).sum();
                out[r * n + 3 + j] = s;
                out[(3 + j) * n + r] = s;
            }
        }
    }
}

/// M_θθ = Ḡᵀ J Ḡ (row-major nθ × nθ).
///
/// Summed as s_ij = Σ_a Σ_b (Ḡ_ai J_ab) Ḡ_bj, the order with which every reference case
/// reproduces Exudyn's Newton iteration counts: the products Ḡ_ai J_ab are formed once (the same
/// values), which halves the multiplications without changing a bit of the result.
pub(super) fn rigid_mass_theta(
    inertia: &Matrix3<f64>,
    g_local: &[f64; 12],
    nr: usize,
) -> [f64; 16] {
    // The rotation parameter count as a constant, so the loops unroll; same sums either way.
    match nr {
        4 => mass_theta_n::<4>(inertia, g_local),
        3 => mass_theta_n::<3>(inertia, g_local),
        _ => unreachable!("rigid nodes have 3 or 4 rotation parameters, not {nr}"),
    }
}

#[inline(always)]
pub(super) fn mass_theta_n<const NR: usize>(
    inertia: &Matrix3<f64>,
    g_local: &[f64; 12],
) -> [f64; 16] {
    let mut gj = [[[0.0; 3]; 3]; NR];
    for (i, gj_i) in gj.iter_mut().enumerate() {
        for (a, gj_ia) in gj_i.iter_mut().enumerate() {
            let g_ai = g_local[a * NR + i];
            for (b, x) in gj_ia.iter_mut().enumerate() {
                *x = g_ai * inertia[(a, b)];
            }
        }
    }
    let mut m = [0.0; 16];
    for (i, gj_i) in gj.iter().enumerate() {
        for j in 0..NR {
            let mut s = 0.0;
            for gj_ia in gj_i {
                for (b, x) in gj_ia.iter().enumerate() {
                    s += x * g_local[b * NR + j];
                }
            }
            m[i * NR + j] = s;
        }
    }
    m
}

/// The rigid body's LHS vector (quadratic velocity terms), over its node's coordinates.
pub fn rigid_lhs(
    rotation: Rotation,
    mass: f64,
    inertia: &Matrix3<f64>,
    com: &[f64; 3],
    qt: &[f64],
    v: &[f64],
    out: &mut [f64],
) {
    let st = rigid_state(rotation, qt, v);
    let nr = st.n_rot;
    let w = st.omega_local;
    // LHS_θ = Ḡᵀ (ω̄ × J ω̄) + Ḡᵀ J (Ḡ_t θ̇)
    let mut t = w.cross(&(inertia * w));
    if rotation == Rotation::TaitBryanXyz {
        t += inertia * st.g_local_t_rates;
    }
    for c in 0..nr {
        out[3 + c] = (0..3).map(|r| st.g_local[r * nr + c] * t[r]).sum();
    }
    if com.iter().any(|&c| c != 0.0) {
        // LHS_u = A [ω̄ × (U × ω̄) + U × (Ḡ_t θ̇)], U = −m c
        let u = -mass * v3(*com);
        // A only here: most bodies have their centre of mass at the node
        let a = rigid_rotation(rotation, qt);
        let lu = a * (w.cross(&u.cross(&w)) + u.cross(&st.g_local_t_rates));
        out[..3].copy_from_slice(lu.as_slice());
    } else {
        out[..3].fill(0.0);
    }
}

/// M·ä + LHS of a rigid body with its centre of mass at the node, in Newton–Euler form:
/// `[m·ü ; Ḡᵀ(J·(Ḡθ̈ + Ḡ_tθ̇) + ω̄ × Jω̄)]` into `inertial`, and its LHS alone into `lhs` (both over
/// the node's coordinates). The fast path's form: the same sums as [`rigid_mass_matrix`] · ä +
/// [`rigid_lhs`] regrouped, so equal up to rounding
/// (`newton_euler_form_is_mass_matrix_times_acceleration_plus_lhs`).
#[allow(clippy::too_many_arguments)]
pub(super) fn rigid_newton_euler(
    rotation: Rotation,
    mass: f64,
    inertia: &Matrix3<f64>,
    qt: &[f64],
    v: &[f64],
    a: &[f64],
    inertial: &mut [f64],
    lhs: &mut [f64],
) {
    if rotation == Rotation::EulerParameters {
        return ep_newton_euler(mass, inertia, qt, v, a, inertial, lhs);
    }
    let st = rigid_state(rotation, qt, v);
    let nr = st.n_rot;
    let g = |r: usize, c: usize| st.g_local[r * nr + c];
    let w = st.omega_local;
    // the LHS's torque: ω̄ × Jω̄ + J·Ḡ_tθ̇ (Ḡ_tθ̇ = 0 for Euler parameters)
    let mut lhs_torque = w.cross(&(inertia * w));
    if rotation == Rotation::TaitBryanXyz {
        lhs_torque += inertia * st.g_local_t_rates;
    }
    let mut angular_acceleration = Vector3::zeros();
    for r in 0..3 {
        angular_acceleration[r] = (0..nr).map(|c| g(r, c) * a[3 + c]).sum();
    }
    let torque = inertia * angular_acceleration + lhs_torque;
    for i in 0..3 {
        inertial[i] = mass * a[i];
        lhs[i] = 0.0;
    }
    for c in 0..nr {
        inertial[3 + c] = (0..3).map(|r| g(r, c) * torque[r]).sum();
        lhs[3 + c] = (0..3).map(|r| g(r, c) * lhs_torque[r]).sum();
    }
}

/// Ḡ of an Euler-parameter node (ω̄ = Ḡ·θ̇), 3 × 4 row-major:
/// 2·[−e1 e0 e3 −e2; −e2 −e3 e0 e1; −e3 e2 −e1 e0], the generated node kinematics' Ḡ written
/// out (`ep_g_local_is_the_generated_rotation_jacobian`) so that [`ep_newton_euler`] forms it
/// once, without the generic kernel's 3 × 7 Jacobian and its second pass for ω̄.
#[inline(always)]
fn ep_g_local(e: [f64; 4]) -> [[f64; 4]; 3] {
    let [e0, e1, e2, e3] = e.map(|x| 2.0 * x);
    [[-e1, e0, e3, -e2], [-e2, -e3, e0, e1], [-e3, e2, -e1, e0]]
}

/// [`rigid_newton_euler`] for an Euler-parameter node (Ḡ_t·θ̇ = 0): Ḡ formed once and ω̄ = Ḡ·θ̇,
/// α = Ḡ·θ̈ taken from it, every loop of constant length.
#[inline]
fn ep_newton_euler(
    mass: f64,
    inertia: &Matrix3<f64>,
    qt: &[f64],
    v: &[f64],
    a: &[f64],
    inertial: &mut [f64],
    lhs: &mut [f64],
) {
    let g = ep_g_local([qt[3], qt[4], qt[5], qt[6]]);
    let times = |x: &[f64]| Vector3::from_fn(|r, _| (0..4).map(|c| g[r][c] * x[3 + c]).sum());
    let w = times(v);
    let lhs_torque = w.cross(&(inertia * w));
    let torque = inertia * times(a) + lhs_torque;
    for i in 0..3 {
        inertial[i] = mass * a[i];
        lhs[i] = 0.0;
    }
    for c in 0..4 {
        inertial[3 + c] = (0..3).map(|r| g[r][c] * torque[r]).sum();
        lhs[3 + c] = (0..3).map(|r| g[r][c] * lhs_torque[r]).sum();
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// A parametrization with total coordinates and velocities.
    pub(in crate::physics) type BodyState = (Rotation, Vec<f64>, Vec<f64>);

    /// An inertia tensor with products of inertia, and a state of each parametrization whose
    /// rotation parameters are coordinates (θ unnormalized, velocities of order 1), that the
    /// rigid-body tests share.
    pub(in crate::physics) fn inertia_and_states() -> (Matrix3<f64>, [BodyState; 2]) {
        let inertia = Matrix3::new(0.3, 0.01, -0.02, 0.01, 0.5, 0.03, -0.02, 0.03, 0.7);
        let states = [
            (
                Rotation::EulerParameters,
                vec![0.1, -0.2, 0.3, 0.9, 0.1, -0.3, 0.2],
                vec![1.0, 2.0, -3.0, 0.4, -0.7, 0.2, 0.9],
            ),
            (
                Rotation::TaitBryanXyz,
                vec![0.1, -0.2, 0.3, 0.4, -1.1, 2.0],
                vec![1.0, 2.0, -3.0, 0.4, -0.7, 0.9],
            ),
        ];
        (inertia, states)
    }

    /// The written-out Ḡ of [`ep_newton_euler`] is the generated kernel's, to the bit, at
    /// normalized and unnormalized parameters.
    #[test]
    fn ep_g_local_is_the_generated_rotation_jacobian() {
        for qt in [
            [0.1, -0.2, 0.3, 0.9, 0.1, -0.3, 0.2],
            [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0],
            [5.0, 1.0, -2.0, -0.31, 0.72, 0.55, -0.28],
        ] {
            let generated = rigid_g_local(Rotation::EulerParameters, &qt);
            let written = ep_g_local([qt[3], qt[4], qt[5], qt[6]]);
            for r in 0..3 {
                for c in 0..4 {
                    assert_eq!(
                        written[r][c].to_bits(),
                        generated[r * 4 + c].to_bits(),
                        "Ḡ[{r}][{c}] at {qt:?}"
                    );
                }
            }
        }
    }

    /// `add_body_jacobians_fd` skips evaluating a rigid body's LHS for perturbed positions and
    /// translational velocities, taking the unperturbed LHS instead. That is only exact if the
    /// LHS does not read them at all, with the centre of mass at the node or off it.
    #[test]
    pub(super) fn rigid_lhs_ignores_translation_to_the_bit() {
        let (inertia, cases) = inertia_and_states();
        let bits = |x: &[f64]| x.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        for (rotation, q, v) in cases {
            for com in [[0.0; 3], [0.1, -0.05, 0.2]] {
                let n = q.len();
                let mut base = vec![0.0; n];
                rigid_lhs(rotation, 2.5, &inertia, &com, &q, &v, &mut base);
                let translational = com != [0.0; 3];
                assert!(base[3..].iter().any(|x| *x != 0.0), "{rotation:?}: LHS_θ");
                assert_eq!(
                    base[..3].iter().any(|x| *x != 0.0),
                    translational,
                    "{rotation:?}: LHS_u is zero exactly when the centre of mass is at the node"
                );
                for i in 0..3 {
                    for (dq, dv) in [(1e-7, 0.0), (0.0, 1e-7), (3.0, -5.0)] {
                        let (mut q2, mut v2) = (q.clone(), v.clone());
                        q2[i] += dq;
                        v2[i] += dv;
                        let mut out = vec![f64::NAN; n];
                        rigid_lhs(rotation, 2.5, &inertia, &com, &q2, &v2, &mut out);
                        assert_eq!(
                            bits(&out),
                            bits(&base),
                            "{rotation:?} {com:?}, coordinate {i}"
                        );
                    }
                }
            }
        }
    }

    /// The fast path's Newton–Euler form regroups the sums of M·ä + LHS (and its LHS is
    /// rigid_lhs's): equal up to rounding, for both node types.
    #[test]
    fn newton_euler_form_is_mass_matrix_times_acceleration_plus_lhs() {
        let inertia = Matrix3::new(0.3, 0.01, -0.02, 0.01, 0.5, 0.03, -0.02, 0.03, 0.7);
        // (node type, q, q̇, ä)
        type State = (Rotation, Vec<f64>, Vec<f64>, Vec<f64>);
        let cases: [State; 2] = [
            (
                Rotation::EulerParameters,
                vec![0.1, -0.2, 0.3, 0.9, 0.1, -0.3, 0.2],
                vec![1.0, 2.0, -3.0, 0.4, -0.7, 0.2, 0.9],
                vec![-0.5, 0.3, 2.0, 1.1, -0.4, 0.8, -1.3],
            ),
            (
                Rotation::TaitBryanXyz,
                vec![0.1, -0.2, 0.3, 0.4, -1.1, 2.0],
                vec![1.0, 2.0, -3.0, 0.4, -0.7, 0.9],
                vec![-0.5, 0.3, 2.0, 1.1, -0.4, 0.8],
            ),
        ];
        let com = [0.0; 3];
        for (rotation, q, v, a) in cases {
            let n = q.len();
            let mut m = vec![0.0; n * n];
            rigid_mass_matrix(rotation, 2.5, &inertia, &com, &q, &mut m);
            let mut lhs = vec![0.0; n];
            rigid_lhs(rotation, 2.5, &inertia, &com, &q, &v, &mut lhs);
            let (mut inertial, mut lhs_ne) = (vec![f64::NAN; n], vec![f64::NAN; n]);
            rigid_newton_euler(
                rotation,
                2.5,
                &inertia,
                &q,
                &v,
                &a,
                &mut inertial,
                &mut lhs_ne,
            );
            for i in 0..n {
                let expected = (0..n).map(|j| m[i * n + j] * a[j]).sum::<f64>() + lhs[i];
                assert!(
                    (inertial[i] - expected).abs() <= 1e-14 * expected.abs().max(1.0),
                    "{rotation:?} row {i}: {} against {expected}",
                    inertial[i]
                );
                assert!((lhs_ne[i] - lhs[i]).abs() <= 1e-14 * lhs[i].abs().max(1.0));
            }
            // the terms matter: the acceleration part alone is far from the LHS
            assert!(inertial.iter().zip(&lhs).any(|(x, l)| (x - l).abs() > 0.1));
        }
    }
}
