//! Connectors' Jacobians: analytic where Exudyn takes them so (the force definitions'
//! derivatives by the markers' quantities composed with the markers' position and rotation
//! Jacobians), by forward differences where its markers give no Jacobian derivative.

use joint_core::ForceJacobian;

use super::ForwardDifference;
use super::Scratch;
use super::connectors::*;
use crate::assemble::{ConnectorKind, ForceHook, Topology};
use crate::linear::MatrixAccumulator;
use crate::markers::MarkerState;

impl Topology {
    /// The derivatives of connector `c`'s torque by its markers' quantities (laid out as a
    /// [`ForceJacobian`]), for the connectors [`Self::connector_torque`] serves.
    pub fn connector_torque_jacobian(
        &self,
        c: usize,
        qt: &[f64],
        v: &[f64],
    ) -> Option<ForceJacobian> {
        self.with_torque_kernels(c, qt, v, |t, parameters, q0, q1| {
            let mut j = ForceJacobian::default();
            (t.jacobian)(parameters, q0, q1, &mut j).expect(PARAMETERS_CHECKED);
            j
        })
    }

    /// Add `factor_k`·K + `factor_d`·D of the connectors (K = ∂LHS/∂q, D = ∂LHS/∂v) into the
    /// matrix `m`, analytically, for the connectors whose markers all provide the Jacobian
    /// derivative and that Exudyn differentiates analytically, and with `derived` (the fast
    /// path) also for those Exudyn differentiates numerically though their force definition's
    /// derivatives apply (the others are in [`Self::add_connector_jacobians_fd`]).
    #[allow(clippy::too_many_arguments)]
    pub fn add_connector_jacobians(
        &self,
        qt: &[f64],
        v: &[f64],
        factor_k: f64,
        factor_d: f64,
        derived: bool,
        m: &mut impl MatrixAccumulator,
        scratch: &mut Scratch,
    ) {
        for c in 0..self.connectors.len() {
            if !self.connectors[c].analytic(derived) {
                continue;
            }
            let con = &self.connectors[c];
            if let ConnectorKind::Family { family, .. } = &con.kind {
                if con.active {
                    self.add_family_jacobian(
                        c,
                        family.as_ref(),
                        qt,
                        v,
                        factor_k,
                        factor_d,
                        m,
                        scratch,
                    );
                }
                continue;
            }
            let (Some(cf), Some((fj, rigid))) = (
                self.connector_force(c, qt, v),
                self.connector_force_jacobian(c, qt, v),
            ) else {
                continue;
            };
            // a torque τ adds s_a·(δ_ab·∂(J_rot,aᵀ)/∂q·τ + J_rot,aᵀ·∂τ/∂q_b) and
            // s_a·J_rot,aᵀ·∂τ/∂q̇_b, its derivatives composed as the force's
            let torque = self
                .connector_torque(c, qt, v)
                .zip(self.connector_torque_jacobian(c, qt, v));
            // LHS_a = s_a·J_aᵀf (s_0 = −1, s_1 = 1): K_ab = s_a·(δ_ab·∂(J_aᵀ)/∂q·f
            // + J_aᵀ·∂f/∂q_b), D_ab = s_a·J_aᵀ·∂f/∂q̇_b, with ∂f/∂q_b = ∂f/∂p_b·J_b
            // + ∂f/∂δπ_b·G_b and ∂f/∂q̇_b = ∂f/∂v_b·J_b + ∂f/∂ω_b·G_b (the definition's
            // derivatives, the marker velocities held, as Exudyn)
            let signs = [-1.0, 1.0];
            let f_arr = [cf.force[0], cf.force[1], cf.force[2]];
            for (&marker_a, sign) in con.markers.iter().zip(signs) {
                let ma = &self.markers[marker_a];
                let na = ma.columns.len();
                if na == 0 {
                    continue;
                }
                let sa = MarkerState::new(ma, qt, v);
                sa.position_jacobian(&mut scratch.jac_a[..3 * na]);
                if let Some((t, _)) = &torque {
                    sa.rotation_jacobian(&mut scratch.jac_d[..3 * na]);
                    let t_arr = [t[0], t[1], t[2]];
                    sa.rotation_jacobian_t_times_vector_q(&t_arr, &mut scratch.block[..na * na])
                        .expect("analytic connector Jacobians are taken on marker kinds only");
                    for (i, &gi) in ma.columns.iter().enumerate() {
                        for (j, &gj) in ma.columns.iter().enumerate() {
                            m.add(gi, gj, factor_k * sign * scratch.block[i * na + j]);
                        }
                    }
                }
                // a node coordinate's Jacobian row is constant: no ∂(J_aᵀ)/∂q·f
                if !ma.is_coordinate() {
                    sa.position_jacobian_t_times_vector_q(&f_arr, &mut scratch.block[..na * na]);
                    for (i, &gi) in ma.columns.iter().enumerate() {
                        for (j, &gj) in ma.columns.iter().enumerate() {
                            m.add(gi, gj, factor_k * sign * scratch.block[i * na + j]);
                        }
                    }
                }
                for (b, &marker_b) in con.markers.iter().enumerate() {
                    let mb = &self.markers[marker_b];
                    let nb = mb.columns.len();
                    if nb == 0 {
                        continue;
                    }
                    let sb = MarkerState::new(mb, qt, v);
                    sb.position_jacobian(&mut scratch.jac_b[..3 * nb]);
                    if rigid[b] {
                        sb.rotation_jacobian(&mut scratch.jac_c[..3 * nb]);
                    }
                    let (dp, dr) = (&fj.d_position[b], &fj.d_rotation[b]);
                    let (dv, dw) = (&fj.d_velocity[b], &fj.d_angular_velocity[b]);
                    for i in 0..na {
                        for j in 0..nb {
                            let mut kk = 0.0;
                            let mut dd = 0.0;
                            for r in 0..3 {
                                let ja = scratch.jac_a[r * na + i];
                                for t in 0..3 {
                                    let jb = scratch.jac_b[t * nb + j];
                                    kk += ja * dp[r][t] * jb;
                                    dd += ja * dv[r][t] * jb;
                                    if rigid[b] {
                                        let gb = scratch.jac_c[t * nb + j];
                                        kk += ja * dr[r][t] * gb;
                                        dd += ja * dw[r][t] * gb;
                                    }
                                }
                            }
                            if let Some((_, tj)) = &torque {
                                // both markers are Rigid (checked where a torque is defined)
                                for r in 0..3 {
                                    let ga = scratch.jac_d[r * na + i];
                                    for t in 0..3 {
                                        let jb = scratch.jac_b[t * nb + j];
                                        let gb = scratch.jac_c[t * nb + j];
                                        kk += ga
                                            * (tj.d_position[b][r][t] * jb
                                                + tj.d_rotation[b][r][t] * gb);
                                        dd += ga
                                            * (tj.d_velocity[b][r][t] * jb
                                                + tj.d_angular_velocity[b][r][t] * gb);
                                    }
                                }
                            }
                            m.add(
                                ma.columns[i],
                                mb.columns[j],
                                sign * (factor_k * kk + factor_d * dd),
                            );
                        }
                    }
                }
            }
        }
    }

    /// The derivatives of connector `c`'s force by its markers' quantities, from its force
    /// definition (a user's force element or a built-in one of `kernels`), and per marker whether its
    /// rotation enters them; `None` if the connector is inactive or differentiated otherwise.
    pub fn connector_force_jacobian(
        &self,
        c: usize,
        qt: &[f64],
        v: &[f64],
    ) -> Option<(ForceJacobian, [bool; 2])> {
        let con = &self.connectors[c];
        if !con.active {
            return None;
        }
        let m0 = MarkerState::new(&self.markers[con.markers[0]], qt, v);
        let m1 = MarkerState::new(&self.markers[con.markers[1]], qt, v);
        match &con.kind {
            ConnectorKind::Defined {
                hook: ForceHook::ZeroLength,
                ..
            } if (m1.position() - m0.position()).norm() == 0.0 => {
                // the direction is undefined there; Exudyn's convention (`connector_force`)
                Some((ForceJacobian::default(), [false; 2]))
            }
            // the intrinsic formulation is differentiated numerically
            ConnectorKind::Defined {
                hook: ForceHook::RigidBodySpring { intrinsic: true },
                ..
            } => None,
            ConnectorKind::Defined {
                definition,
                parameters,
                ..
            } => {
                let mut j = ForceJacobian::default();
                (definition.jacobian)(parameters, &m0.quantities(), &m1.quantities(), &mut j)
                    .expect(PARAMETERS_CHECKED);
                let rigid = definition
                    .markers
                    .map(|m| m.capability == joint_core::Capability::Rigid);
                Some((j, rigid))
            }
            _ => None,
        }
    }

    /// Add `factor_k`·K + `factor_d`·D of the connectors with a superelement or kinematic-tree
    /// marker, by Exudyn's object-wise forward differences of the connector's LHS: Exudyn takes
    /// the analytic connector Jacobian only when every marker provides the Jacobian derivative,
    /// which those markers do not (spec/solver.md §2.5). The differences also hold the terms the
    /// analytic form lacks for them, ∂(J_q q̇)/∂q of a marker on a rotating frame among them.
    ///
    /// Each coordinate is perturbed once (ε = relEps·max(minCoord, |x|), x the displacement or
    /// the velocity) even when both markers read it; the connector's block is summed, K and D
    /// columns together, before it is added, as Exudyn adds an object's local Jacobian. `qt` is
    /// perturbed in place and restored.
    #[allow(clippy::too_many_arguments)]
    pub fn add_connector_jacobians_fd(
        &self,
        q: &[f64],
        qt: &mut [f64],
        v: &[f64],
        data: &[f64],
        factor_k: f64,
        factor_d: f64,
        fd: ForwardDifference,
        derived: bool,
        m: &mut impl MatrixAccumulator,
        scratch: &mut Scratch,
    ) {
        if self.connectors.iter().all(|c| c.analytic(derived)) {
            return;
        }
        let mut velocities = std::mem::take(&mut scratch.fd_velocities);
        velocities.clear();
        velocities.extend_from_slice(v);
        let mut displacements = std::mem::take(&mut scratch.fd_displacements);
        displacements.clear();
        displacements.extend_from_slice(q);
        for c in 0..self.connectors.len() {
            if self.connectors[c].analytic(derived) || !self.connectors[c].active {
                continue;
            }
            let rows = self.connector_columns(c).count();
            let columns = &mut scratch.fd_columns;
            columns.clear();
            for g in self.connector_columns(c) {
                if !columns.contains(&g) {
                    columns.push(g);
                }
            }
            let n = columns.len();
            let (base, out) = (&mut scratch.fd_base[..rows], &mut scratch.fd_out[..rows]);
            self.connector_lhs_local(
                c,
                qt,
                Some(&displacements),
                &velocities,
                data,
                base,
                &mut scratch.jac_a,
            );
            let block = &mut scratch.block[..rows * n];
            block.fill(0.0);
            for (which, factor) in [(0, factor_k), (1, factor_d)] {
                if factor == 0.0 {
                    continue;
                }
                for (j, &g) in columns.iter().enumerate() {
                    let x = if which == 0 { q[g] } else { v[g] };
                    let eps = fd.increment(x);
                    let saved = qt[g];
                    if which == 0 {
                        // additive, or by composition on a Lie node
                        self.perturb_total(q, qt, g, eps);
                        displacements[g] = x + eps;
                    } else {
                        velocities[g] = x + eps;
                    }
                    self.connector_lhs_local(
                        c,
                        qt,
                        Some(&displacements),
                        &velocities,
                        data,
                        out,
                        &mut scratch.jac_a,
                    );
                    if which == 0 && self.lie_node_of(g).is_some() {
                        self.restore_total(q, qt, g);
                    } else {
                        qt[g] = saved;
                    }
                    velocities[g] = v[g];
                    displacements[g] = q[g];
                    let scale = (1.0 / eps) * factor;
                    for row in 0..rows {
                        block[row * n + j] += (out[row] - base[row]) * scale;
                    }
                }
            }
            for (row, r) in self.connector_columns(c).enumerate() {
                for (j, &g) in columns.iter().enumerate() {
                    m.add(r, g, block[row * n + j]);
                }
            }
        }
        scratch.fd_velocities = velocities;
        scratch.fd_displacements = displacements;
    }

    /// A family connector's analytic `factor_k·K + factor_d·D`, scattered over its markers'
    /// columns.
    #[allow(clippy::too_many_arguments)]
    fn add_family_jacobian(
        &self,
        c: usize,
        family: &dyn crate::items::connectors::ConnectorFamily,
        qt: &[f64],
        v: &[f64],
        factor_k: f64,
        factor_d: f64,
        m: &mut impl MatrixAccumulator,
        scratch: &mut Scratch,
    ) {
        let markers = self.connectors[c].markers.map(|k| &self.markers[k]);
        let n = markers[0].columns.len() + markers[1].columns.len();
        let block = &mut scratch.block[..n * n];
        family.analytic_jacobian(markers, qt, v, factor_k, factor_d, block);
        let columns = || markers[0].columns.iter().chain(&markers[1].columns);
        for (r, &gr) in columns().enumerate() {
            for (j, &gc) in columns().enumerate() {
                m.add(gr, gc, block[r * n + j]);
            }
        }
    }
}
