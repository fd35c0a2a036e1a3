//! Joints in their marker-level form (`joint_core::MarkerLevel`: a user's joint by default, and
//! any joint on markers its unrolled pairings do not cover) composed with their markers' own
//! kinematics, marker i contributing its position and rotation Jacobians J_pos,i and J_rot,i,
//! its true derivatives ∂p_i/∂q and ∂A_i/∂q, and its rates:
//!
//! * C_q,i = ∂ṙ/∂v_i·J_pos,i + ∂ṙ/∂ω_i·J_rot,i (Exudyn's constraint Jacobian);
//! * ∂g/∂q_i = ∂g/∂p_i·∂p_i/∂q + ∂g/∂A_i·∂A_i/∂q (the position level's own, the fast path's rows);
//! * C_q,iᵀλ = J_pos,iᵀ·f_i + J_rot,iᵀ·τ_i with (f_i, τ_i) the multipliers through the kernel;
//! * (∂(C_q v)/∂q)·v = Σ_x ∂ṙ/∂x·ẋ over the markers' quantities and their rates;
//! * ∂(C_qᵀλ)/∂q = Σ_i ∂(J_pos,iᵀf_i)/∂q + ∂(J_rot,iᵀτ_i)/∂q (each kind's generated second
//!   derivative) + Σ_ij [J_pos,iᵀ J_rot,iᵀ]·∂(f_i, τ_i)/∂(p_j, A_j)·[∂p_j/∂q; ∂A_j/∂q].
//!
//! C_q and C_qᵀλ need only the Jacobians, which every marker model has. ∂g/∂q, the convective
//! term and the geometric stiffness need the true derivatives and rates, which the built-in
//! kinds have ([`MarkerState::has_derivatives`]); the last two also need the joint's
//! `second_order;`. Elsewhere the callers take Exudyn's rows (∂g/∂q) or differences (second
//! order). The oracles are num-dual and central differences over every pair of kinds
//! (`tests/joint_dual_oracles/`, `tests/joint_properties.rs`, through `crate::composed`) and the
//! unrolled pairings' own kernels (`tests/marker_level_kernel.rs`).

use super::Scratch;
use crate::items::joints::SIZES_CHECKED;
use crate::markers::MarkerState;
use joint_core::{JointDefinition, MARKER_LEVEL_REACTION_Q_LEN, MarkerLevelReaction};

/// `out[r·n + c] = Σ_k a[r·k_len + k]·b[k·n + c]` for `rows` rows: a (rows × k_len) times b
/// (k_len × n), both row-major.
fn multiply(a: &[f64], b: &[f64], rows: usize, k_len: usize, n: usize, out: &mut [f64]) {
    for r in 0..rows {
        for c in 0..n {
            out[r * n + c] = (0..k_len).map(|k| a[r * k_len + k] * b[k * n + c]).sum();
        }
    }
}

/// `out[c] += Σ_k jac[k·n + c]·f[k]`: a 3 × n Jacobian transposed times a 3-vector.
fn add_transposed_times(jac: &[f64], f: &[f64; 3], n: usize, out: &mut [f64]) {
    for (c, o) in out[..n].iter_mut().enumerate() {
        *o += (0..3).map(|k| jac[k * n + c] * f[k]).sum::<f64>();
    }
}

/// Whether a torque (or a rotational block) is present: markers without orientation have none.
fn nonzero(x: &[f64]) -> bool {
    x.iter().any(|x| *x != 0.0)
}

/// A joint as the composition needs it: its definition and its parameters as the kernels take
/// them.
#[derive(Clone, Copy)]
pub(crate) struct Joint<'a> {
    pub definition: &'static JointDefinition,
    pub parameters: &'a [f64],
}

impl Joint<'_> {
    fn kernel_rows(&self) -> usize {
        self.definition.rows()
    }
}

impl<'a> From<&'a crate::items::joints::JointTopology> for Joint<'a> {
    fn from(j: &'a crate::items::joints::JointTopology) -> Self {
        Joint {
            definition: j.definition,
            parameters: &j.parameters,
        }
    }
}

/// Exudyn's C_q blocks of joint `j` through its marker-level Jacobian, composed with the
/// markers' position and rotation Jacobians: kernel rows × each marker's columns,
/// row-major, into `scratch.jac_a` and `scratch.jac_b`.
pub(crate) fn jacobian(j: Joint, m: [&MarkerState; 2], scratch: &mut Scratch) {
    let rows = j.kernel_rows();
    let ml = &mut scratch.marker_level[..12 * rows];
    (j.definition.marker_level.jacobian)(j.parameters, &m[0].quantities(), &m[1].quantities(), ml)
        .expect(SIZES_CHECKED);
    let (ml0, ml1) = ml.split_at(6 * rows);
    let outs = [&mut scratch.jac_a, &mut scratch.jac_b];
    for ((ms, out), ml) in m.iter().zip(outs).zip([ml0, ml1]) {
        let n = ms.marker.columns.len();
        let (d_velocity, d_angular) = ml.split_at(3 * rows);
        let jp = &mut scratch.jac_c[..3 * n];
        ms.position_jacobian(jp);
        let rotational = nonzero(d_angular);
        let jr = &mut scratch.jac_d[..3 * n];
        if rotational {
            ms.rotation_jacobian(jr);
        }
        for k in 0..rows {
            for c in 0..n {
                let mut x = 0.0;
                for t in 0..3 {
                    x += d_velocity[3 * k + t] * jp[t * n + c];
                    if rotational {
                        x += d_angular[3 * k + t] * jr[t * n + c];
                    }
                }
                out[k * n + c] = x;
            }
        }
    }
}

/// ∂g/∂q of joint `j`'s position level through its marker-level ∂g/∂p and ∂g/∂A, composed
/// with the markers' true derivatives, into `scratch.jac_a` and `scratch.jac_b`; `false`
/// (nothing written) if a marker has no such derivatives.
pub(crate) fn position_jacobian(j: Joint, m: [&MarkerState; 2], scratch: &mut Scratch) -> bool {
    if !m.iter().all(|ms| ms.has_derivatives()) {
        return false;
    }
    let rows = j.kernel_rows();
    let c = &mut scratch.composition;
    let d = &mut c.kernel[..24 * rows];
    (j.definition.marker_level.position_jacobian)(
        j.parameters,
        &m[0].quantities(),
        &m[1].quantities(),
        d,
    )
    .expect(SIZES_CHECKED);
    let (d0, d1) = d.split_at(12 * rows);
    let outs = [&mut scratch.jac_a, &mut scratch.jac_b];
    for ((ms, out), d) in m.iter().zip(outs).zip([d0, d1]) {
        let n = ms.marker.columns.len();
        let (dp, da) = d.split_at(3 * rows);
        let (pq, aq) = (&mut c.pq[0][..3 * n], &mut c.aq[0][..9 * n]);
        ms.position_q(pq).expect("kind marker");
        multiply(dp, pq, rows, 3, n, &mut out[..rows * n]);
        if nonzero(da) {
            ms.rotation_q(aq).expect("kind marker");
            let t = &mut c.block[..rows * n];
            multiply(da, aq, rows, 9, n, t);
            for (o, x) in out.iter_mut().zip(t.iter()) {
                *o += x;
            }
        }
    }
    true
}

/// Add joint `j`'s C_qᵀλ into `r` (ODE2) through its marker-level reaction (`l`: λ per
/// kernel row), without forming C_q: J_pos,iᵀ·f_i by the marker's kernel, J_rot,iᵀ·τ_i.
pub(crate) fn add_reaction_forces(
    j: Joint,
    m: [&MarkerState; 2],
    l: &[f64],
    r: &mut [f64],
    scratch: &mut Scratch,
) {
    let mut out = [0.0; 12];
    (j.definition.marker_level.reaction_forces)(
        j.parameters,
        l,
        &m[0].quantities(),
        &m[1].quantities(),
        &mut out,
    )
    .expect(SIZES_CHECKED);
    add_reaction(m, &reaction_of(&out), r, scratch);
}

/// Joint `j`'s position rows into `rows` and its C_qᵀλ added into `r`, through the fused
/// marker-level kernel (the markers' quantities evaluated once for both).
pub(crate) fn residual_and_reaction_forces(
    j: Joint,
    m: [&MarkerState; 2],
    l: &[f64],
    rows: &mut [f64],
    r: &mut [f64],
    scratch: &mut Scratch,
) {
    let mut out = [0.0; 12];
    (j.definition
        .marker_level
        .position_residual_and_reaction_forces)(
        j.parameters,
        l,
        &m[0].quantities(),
        &m[1].quantities(),
        rows,
        &mut out,
    )
    .expect(SIZES_CHECKED);
    add_reaction(m, &reaction_of(&out), r, scratch);
}

fn add_reaction(
    m: [&MarkerState; 2],
    reaction: &MarkerLevelReaction,
    r: &mut [f64],
    scratch: &mut Scratch,
) {
    for (i, ms) in m.iter().enumerate() {
        let n = ms.marker.columns.len();
        if n == 0 {
            continue;
        }
        let f = &mut scratch.composition.f[..n];
        if ms.marker.is_coordinate() {
            // its value is the position's first entry: J_pos formed, row 0 its coordinate's
            let jp = &mut scratch.jac_c[..3 * n];
            ms.position_jacobian(jp);
            f.fill(0.0);
            add_transposed_times(jp, &reaction.force[i], n, f);
        } else {
            ms.position_jacobian_t_times(&reaction.force[i], f, &mut scratch.jac_c);
        }
        if nonzero(&reaction.torque[i]) {
            let jr = &mut scratch.jac_d[..3 * n];
            ms.rotation_jacobian(jr);
            add_transposed_times(jr, &reaction.torque[i], n, f);
        }
        for (c, x) in ms.marker.columns.iter().zip(f.iter()) {
            r[*c] += x;
        }
    }
}

/// −(∂(C_q v)/∂q)·v of joint `j`'s rows into `out` (kernel rows) through its marker-level
/// rate and the markers' rates; `false` (nothing written) without marker-level second-order
/// kernels or a marker's rates.
pub(crate) fn convective(j: Joint, m: [&MarkerState; 2], out: &mut [f64]) -> bool {
    let Some(so) = j.definition.marker_level.second_order else {
        return false;
    };
    let (Some(r0), Some(r1)) = (m[0].rates(), m[1].rates()) else {
        return false;
    };
    (so.velocity_residual_rate)(
        j.parameters,
        &m[0].quantities(),
        &m[1].quantities(),
        &r0,
        &r1,
        out,
    )
    .expect(SIZES_CHECKED);
    for x in out.iter_mut() {
        *x = -*x;
    }
    true
}

/// ∂(C_qᵀλ)/∂q of joint `j` (`l`: λ per kernel row) into the square `block` over the
/// columns of m0 then m1, composed from its marker-level reaction, the reaction's
/// derivatives and the markers' kinematics; `false` (nothing written) without
/// marker-level second-order kernels or a marker's derivatives.
pub(crate) fn reaction_q(
    j: Joint,
    m: [&MarkerState; 2],
    l: &[f64],
    block: &mut [f64],
    scratch: &mut Scratch,
) -> bool {
    let Some(so) = j.definition.marker_level.second_order else {
        return false;
    };
    if !m.iter().all(|ms| ms.has_derivatives()) {
        return false;
    }
    let q = [m[0].quantities(), m[1].quantities()];
    let mut out = [0.0; 12];
    (j.definition.marker_level.reaction_forces)(j.parameters, l, &q[0], &q[1], &mut out)
        .expect(SIZES_CHECKED);
    let reaction = reaction_of(&out);
    let mut dr = [0.0; MARKER_LEVEL_REACTION_Q_LEN];
    (so.reaction_forces_q)(j.parameters, l, &q[0], &q[1], &mut dr).expect(SIZES_CHECKED);
    let ns = [m[0].marker.columns.len(), m[1].marker.columns.len()];
    let (n, offsets) = (ns[0] + ns[1], [0, ns[0]]);
    block[..n * n].fill(0.0);
    let c = &mut scratch.composition;
    // each marker's Jacobians and true derivatives, side by side
    for (i, ms) in m.iter().enumerate() {
        let ni = ns[i];
        ms.position_jacobian(&mut c.jp[i][..3 * ni]);
        ms.rotation_jacobian_or_zero(&mut c.jr[i][..3 * ni]);
        ms.position_q(&mut c.pq[i][..3 * ni]).expect("kind marker");
        ms.rotation_q(&mut c.aq[i][..9 * ni]).expect("kind marker");
    }
    for (i, ms) in m.iter().enumerate() {
        let ni = ns[i];
        // the marker's own second derivatives at constant force and torque
        let nn = &mut c.block[..ni * ni];
        ms.position_jacobian_t_times_vector_q(&reaction.force[i], nn);
        add_square(block, n, offsets[i], nn, ni);
        if nonzero(&reaction.torque[i])
            && ms
                .rotation_jacobian_t_times_vector_q(&reaction.torque[i], nn)
                .is_some()
        {
            add_square(block, n, offsets[i], nn, ni);
        }
        // the reaction's derivatives through every marker's pose
        for (jm, &nj) in ns.iter().enumerate() {
            let base = (2 * i + jm) * 72;
            let parts = &dr[base..base + 72];
            let (fp, fa, tp, ta) = (&parts[..9], &parts[9..36], &parts[36..45], &parts[45..]);
            for (force_part, jac, by_p, by_a) in
                [(true, &c.jp[i], fp, fa), (false, &c.jr[i], tp, ta)]
            {
                if !force_part && !nonzero(by_p) && !nonzero(by_a) {
                    continue;
                }
                // D = ∂(f or τ)/∂p_j·∂p_j/∂q + ∂(f or τ)/∂A_j·∂A_j/∂q (3 × nj)
                let d = &mut c.d[..3 * nj];
                let t = &mut c.t[..3 * nj];
                multiply(by_p, &c.pq[jm], 3, 3, nj, d);
                multiply(by_a, &c.aq[jm], 3, 9, nj, t);
                for (x, y) in d.iter_mut().zip(t.iter()) {
                    *x += y;
                }
                // block[o_i + a][o_j + b] += Σ_k jac[k][a]·D[k][b]
                for a in 0..ni {
                    for b in 0..nj {
                        let x: f64 = (0..3).map(|k| jac[k * ni + a] * d[k * nj + b]).sum();
                        block[(offsets[i] + a) * n + offsets[jm] + b] += x;
                    }
                }
            }
        }
    }
    true
}

/// `block[(o + r)·n + o + c] += nn[r·k + c]`: marker block `nn` (k × k) on the diagonal at `o`.
fn add_square(block: &mut [f64], n: usize, o: usize, nn: &[f64], k: usize) {
    for r in 0..k {
        for c in 0..k {
            block[(o + r) * n + o + c] += nn[r * k + c];
        }
    }
}

/// The reaction from its flat layout: force 0, torque 0, force 1, torque 1.
fn reaction_of(out: &[f64; 12]) -> MarkerLevelReaction {
    let v = |k: usize| [out[k], out[k + 1], out[k + 2]];
    MarkerLevelReaction {
        force: [v(0), v(6)],
        torque: [v(3), v(9)],
    }
}
