//! Connectors (SpringDamper, CartesianSpringDamper, LinearSpringDamper, Gravity,
//! TorsionalSpringDamper, CoordinateSpringDamper; RigidBodySpringDamper in its own file):
//! their forces (torques) from
//! the markers' relative motion, and their Jacobians — analytic from the force's derivatives
//! where Exudyn takes them so, by forward differences where its markers give no Jacobian
//! derivative.

use joint_core::{ForceJacobian, MarkerQuantities};
use nalgebra::{Matrix3, Matrix6, Vector3};

use super::ForwardDifference;
use super::{Scratch, v3};
use crate::assemble::{ConnectorKind, Topology};
use crate::kernels::{
    cartesian_spring_damper, coordinate_spring_damper, gravity, linear_spring_damper,
    rigid_body_spring_damper, spring_damper,
};
use crate::linear::MatrixAccumulator;
use crate::markers::MarkerState;

/// A coordinate spring-damper's state: Δq and Δv of its markers' displacement coordinates
/// (without reference values, as Exudyn's coordinate markers measure) and its scalar force.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CoordinateSpring {
    pub delta_q: f64,
    pub delta_v: f64,
    /// k(Δq − offset) + d·Δv; 0 if inactive.
    pub force: f64,
}

/// A linear spring-damper's state: the displacement and velocity along marker 0's turned axis
/// `A_0·a`, and the force.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LinearSpring {
    pub displacement: f64,
    pub velocity: f64,
    /// k(u − offset) + d(u̇ − velocityOffset) + force; 0 if inactive.
    pub force: f64,
}

/// A torsional spring-damper's state, as Exudyn computes it: the relative rotation's z angle
/// (xyz Tait–Bryan angles of `A_J0ᵀA_J1`, shifted by −2π above π), the relative angular
/// velocity's z component in joint frame 0, the torque and joint frame 0 `A_J0`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TorsionalSpring {
    pub angle: f64,
    pub angular_velocity: f64,
    /// k(φ − offset) + d(ω − velocityOffset) + torque; 0 if inactive.
    pub torque: f64,
    pub frame0: Matrix3<f64>,
}

impl Topology {
    /// The state of connector `c` if it is a TorsionalSpringDamper; `data` the data
    /// coordinates (its continuous angle, if it has a data node).
    pub fn torsional_spring(
        &self,
        c: usize,
        qt: &[f64],
        v: &[f64],
        data: &[f64],
    ) -> Option<TorsionalSpring> {
        let con = &self.connectors[c];
        let ConnectorKind::TorsionalSpringDamper {
            stiffness,
            damping,
            offset,
            velocity_offset,
            torque,
            rotation0,
            rotation1,
            continuous_angle,
        } = &con.kind
        else {
            return None;
        };
        let m0 = MarkerState::new(&self.markers[con.markers[0]], qt, v);
        let m1 = MarkerState::new(&self.markers[con.markers[1]], qt, v);
        let (a0, a1) = (m0.rotation(), m1.rotation());
        let frame0 = a0 * rotation0;
        let relative = frame0.transpose() * (a1 * rotation1);
        let mut angle = crate::markers::rotation_vector::rotation_matrix_to_rot_xyz(&relative)[2];
        use std::f64::consts::PI;
        if angle > PI {
            angle -= 2.0 * PI;
        }
        // Exudyn: the angle within π of the last converged step's continuous angle
        if let Some(k) = continuous_angle {
            let previous = data[*k];
            if (angle - previous).abs() > PI {
                angle += ((previous - angle) / (2.0 * PI)).round() * 2.0 * PI;
            }
        }
        let omega = frame0.transpose()
            * (a1 * m1.angular_velocity_local() - a0 * m0.angular_velocity_local());
        let angular_velocity = omega[2];
        let torque = if con.active {
            stiffness * (angle - offset) + damping * (angular_velocity - velocity_offset) + torque
        } else {
            0.0
        };
        Some(TorsionalSpring {
            angle,
            angular_velocity,
            torque,
            frame0,
        })
    }

    /// After a converged step: each TorsionalSpringDamper with a data node stores its
    /// continuous angle, the new angle taken within π of the one stored (Exudyn's
    /// PostNewtonStep, which changes no equation of the step, so no iteration repeats).
    pub fn update_data_coordinates(&self, qt: &[f64], v: &[f64], data: &mut [f64]) {
        for (c, con) in self.connectors.iter().enumerate() {
            if let ConnectorKind::TorsionalSpringDamper {
                continuous_angle: Some(k),
                ..
            } = con.kind
                && let Some(spring) = self.torsional_spring(c, qt, v, data)
            {
                data[k] = spring.angle;
            }
        }
    }

    /// The state of connector `c` if it is a LinearSpringDamper, as Exudyn's outputs give it
    /// (force 0 when inactive), from its force definition's outputs.
    pub fn linear_spring(&self, c: usize, qt: &[f64], v: &[f64]) -> Option<LinearSpring> {
        let con = &self.connectors[c];
        let p = linear_spring_damper_parameters(&con.kind)?;
        let m0 = MarkerState::new(&self.markers[con.markers[0]], qt, v);
        let m1 = MarkerState::new(&self.markers[con.markers[1]], qt, v);
        let (q0, q1) = (m0.quantities(), m1.quantities());
        let lsd = |f: fn(_, _, _) -> [f64; 1]| f(&p, &q0, &q1)[0];
        use linear_spring_damper::marker_level as kernels;
        Some(LinearSpring {
            displacement: lsd(kernels::output_axial_displacement),
            velocity: lsd(kernels::output_axial_velocity),
            force: if con.active {
                lsd(kernels::output_tension)
            } else {
                0.0
            },
        })
    }

    /// A coordinate marker's displacement and velocity (0 on a ground node: no column).
    fn coordinate_value(&self, marker: usize, qt: &[f64], v: &[f64]) -> (f64, f64) {
        let m = &self.markers[marker];
        if m.is_rotation_coordinate() {
            return m.coordinate_state(qt, v);
        }
        match m.columns.first() {
            Some(&g) => (qt[g] - self.reference[g], v[g]),
            None => (0.0, 0.0),
        }
    }

    /// The state of connector `c` if it is a CoordinateSpringDamper.
    pub fn coordinate_spring(&self, c: usize, qt: &[f64], v: &[f64]) -> Option<CoordinateSpring> {
        let con = &self.connectors[c];
        let ConnectorKind::CoordinateSpringDamper {
            stiffness,
            damping,
            offset,
        } = con.kind
        else {
            return None;
        };
        let (q0, v0) = self.coordinate_value(con.markers[0], qt, v);
        let (q1, v1) = self.coordinate_value(con.markers[1], qt, v);
        let (delta_q, delta_v) = (q1 - q0, v1 - v0);
        let force = if con.active {
            let p = coordinate_spring_damper::Parameters {
                stiffness,
                damping,
                offset,
            };
            coordinate_spring_damper::marker_level::force(
                &p,
                &coordinate_quantities(q0, v0),
                &coordinate_quantities(q1, v1),
            )[0]
        } else {
            0.0
        };
        Some(CoordinateSpring {
            delta_q,
            delta_v,
            force,
        })
    }

    /// Connector force on marker 1 (global), or None if inactive (or a coordinate connector,
    /// whose force is scalar: [`Self::coordinate_spring`]).
    pub fn connector_force(&self, c: usize, qt: &[f64], v: &[f64]) -> Option<ConnectorForce> {
        let con = &self.connectors[c];
        if !con.active {
            return None;
        }
        let m0 = MarkerState::new(&self.markers[con.markers[0]], qt, v);
        let m1 = MarkerState::new(&self.markers[con.markers[1]], qt, v);
        let dp = m1.position() - m0.position();
        let dv = m1.velocity() - m0.velocity();
        Some(match &con.kind {
            ConnectorKind::SpringDamper { .. } if dp.norm() == 0.0 => {
                let (e, tension) = spring_damper_at_zero_length(&con.kind, &dv);
                ConnectorForce {
                    force: e * tension,
                    delta_p: dp,
                    delta_v: dv,
                }
            }
            ConnectorKind::SpringDamper { .. } => {
                let p = spring_damper_parameters(&con.kind);
                let (q0, q1) = (m0.quantities(), m1.quantities());
                ConnectorForce {
                    force: Vector3::from(spring_damper::marker_level::force(&p, &q0, &q1)),
                    delta_p: dp,
                    delta_v: dv,
                }
            }
            ConnectorKind::CartesianSpringDamper { offset, .. } => {
                let p = cartesian_spring_damper_parameters(&con.kind);
                let force = Vector3::from(cartesian_spring_damper::marker_level::force(
                    &p,
                    &m0.quantities(),
                    &m1.quantities(),
                ));
                ConnectorForce {
                    force,
                    delta_p: dp - v3(*offset),
                    delta_v: dv,
                }
            }
            ConnectorKind::Defined {
                definition,
                parameters,
            } => {
                let mut f = [0.0; 3];
                (definition.force)(parameters, &m0.quantities(), &m1.quantities(), &mut f)
                    .expect(PARAMETERS_CHECKED);
                ConnectorForce {
                    force: Vector3::from(f),
                    delta_p: dp,
                    delta_v: dv,
                }
            }
            ConnectorKind::Gravity { .. } => {
                let p = gravity_parameters(&con.kind).expect("a gravity connector");
                let f = gravity::marker_level::force(&p, &m0.quantities(), &m1.quantities());
                ConnectorForce {
                    force: Vector3::from(f),
                    delta_p: dp,
                    delta_v: dv,
                }
            }
            ConnectorKind::LinearSpringDamper { .. } => {
                // Exudyn: along A_0·a, through the position Jacobians only (the turning axis
                // applies no torque to marker 0)
                let p = linear_spring_damper_parameters(&con.kind).expect("a linear spring");
                let (q0, q1) = (m0.quantities(), m1.quantities());
                ConnectorForce {
                    force: Vector3::from(linear_spring_damper::marker_level::force(&p, &q0, &q1)),
                    delta_p: dp,
                    delta_v: dv,
                }
            }
            ConnectorKind::RigidBodySpringDamper {
                intrinsic: false, ..
            } => {
                let p =
                    rigid_body_spring_damper_parameters(&con.kind).expect("default formulation");
                let (q0, q1) = (m0.quantities(), m1.quantities());
                ConnectorForce {
                    force: Vector3::from(rigid_body_spring_damper::marker_level::force(
                        &p, &q0, &q1,
                    )),
                    delta_p: dp,
                    delta_v: dv,
                }
            }
            ConnectorKind::CoordinateSpringDamper { .. }
            | ConnectorKind::TorsionalSpringDamper { .. }
            | ConnectorKind::RigidBodySpringDamper { .. } => return None,
        })
    }

    /// The torque on marker 0 (global; marker 1 receives its negative) of a connector whose
    /// force definition has one (RigidBodySpringDamper's default formulation, a defined force
    /// element with `torque = …;`); `None` otherwise or if inactive.
    pub fn connector_torque(&self, c: usize, qt: &[f64], v: &[f64]) -> Option<Vector3<f64>> {
        self.with_torque_kernels(
            c,
            qt,
            v,
            |p, q0, q1| rigid_body_spring_damper::marker_level::torque(p, q0, q1).into(),
            |t, parameters, q0, q1| {
                let mut out = [0.0; 3];
                (t.torque)(parameters, q0, q1, &mut out).expect(PARAMETERS_CHECKED);
                out.into()
            },
        )
    }

    /// The derivatives of connector `c`'s torque by its markers' quantities (laid out as a
    /// [`ForceJacobian`]), for the connectors [`Self::connector_torque`] serves.
    pub fn connector_torque_jacobian(
        &self,
        c: usize,
        qt: &[f64],
        v: &[f64],
    ) -> Option<ForceJacobian> {
        self.with_torque_kernels(
            c,
            qt,
            v,
            rigid_body_spring_damper::marker_level::torque_jacobian,
            |t, parameters, q0, q1| {
                let mut j = ForceJacobian::default();
                (t.jacobian)(parameters, q0, q1, &mut j).expect(PARAMETERS_CHECKED);
                j
            },
        )
    }

    /// `built_in` (RigidBodySpringDamper's typed kernels) or `defined` (a defined force
    /// element's torque kernels) applied to active connector `c`'s marker quantities; `None`
    /// if it is inactive or has no torque.
    fn with_torque_kernels<R>(
        &self,
        c: usize,
        qt: &[f64],
        v: &[f64],
        built_in: impl FnOnce(
            &rigid_body_spring_damper::Parameters,
            &MarkerQuantities,
            &MarkerQuantities,
        ) -> R,
        defined: impl FnOnce(
            &joint_core::TorqueDefinition,
            &[f64],
            &MarkerQuantities,
            &MarkerQuantities,
        ) -> R,
    ) -> Option<R> {
        let con = &self.connectors[c];
        if !con.active {
            return None;
        }
        let quantities =
            |k: usize| MarkerState::new(&self.markers[con.markers[k]], qt, v).quantities();
        match &con.kind {
            ConnectorKind::RigidBodySpringDamper {
                intrinsic: false, ..
            } => {
                let p = rigid_body_spring_damper_parameters(&con.kind)?;
                Some(built_in(&p, &quantities(0), &quantities(1)))
            }
            ConnectorKind::Defined {
                definition,
                parameters,
            } => {
                let torque = definition.torque.as_ref()?;
                Some(defined(torque, parameters, &quantities(0), &quantities(1)))
            }
            _ => None,
        }
    }

    /// The LHS of connector `c` over its markers' columns, marker 0's then marker 1's
    /// (−J_0ᵀf, then J_1ᵀf), into `out[..n_0 + n_1]`; `jac` holds a marker's position Jacobian.
    /// False (and `out` untouched) if the connector is inactive. `data`: the data coordinates.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn connector_lhs_local(
        &self,
        c: usize,
        qt: &[f64],
        v: &[f64],
        data: &[f64],
        out: &mut [f64],
        jac: &mut [f64],
    ) -> bool {
        let con = &self.connectors[c];
        if let Some(spring) = self.coordinate_spring(c, qt, v) {
            if !con.active {
                return false;
            }
            // −f·J_0ᵀ and f·J_1ᵀ: a node coordinate's Jacobian is 1 on its column (none on a
            // ground node), a rotation coordinate's its rotation Jacobian's row
            let (m0, m1) = (&self.markers[con.markers[0]], &self.markers[con.markers[1]]);
            let (n0, n1) = (m0.columns.len(), m1.columns.len());
            m0.coordinate_jacobian(qt, v, &mut out[..n0], jac);
            m1.coordinate_jacobian(qt, v, &mut out[n0..n0 + n1], jac);
            for x in &mut out[..n0] {
                *x *= -spring.force;
            }
            for x in &mut out[n0..n0 + n1] {
                *x *= spring.force;
            }
            return true;
        }
        if let Some(spring) = self.torsional_spring(c, qt, v, data) {
            if !con.active {
                return false;
            }
            // −J_ω0ᵀ(A_J0 e_z τ), then J_ω1ᵀ(A_J0 e_z τ)
            let t = spring.frame0 * Vector3::new(0.0, 0.0, spring.torque);
            self.jacobians_t_times(c, qt, v, &t, Jacobian::Rotation, false, out, jac);
            return true;
        }
        if let ConnectorKind::RigidBodySpringDamper {
            intrinsic: true, ..
        } = con.kind
            && let Some(spring) = self.rigid_body_spring(c, qt, v)
        {
            if !con.active {
                return false;
            }
            self.rigid_body_spring_lhs(c, &spring, qt, v, out, jac);
            return true;
        }
        let Some(cf) = self.connector_force(c, qt, v) else {
            return false;
        };
        self.jacobians_t_times(c, qt, v, &cf.force, Jacobian::Position, false, out, jac);
        if let Some(torque) = self.connector_torque(c, qt, v) {
            self.jacobians_t_times(c, qt, v, &torque, Jacobian::Rotation, true, out, jac);
        }
        true
    }

    /// `−J_0ᵀx` then `J_1ᵀx` over connector `c`'s markers' columns into `out` (added to it if
    /// `add`), with the markers' position or rotation Jacobians (`jac` their scratch).
    #[allow(clippy::too_many_arguments)]
    fn jacobians_t_times(
        &self,
        c: usize,
        qt: &[f64],
        v: &[f64],
        x: &Vector3<f64>,
        which: Jacobian,
        add: bool,
        out: &mut [f64],
        jac: &mut [f64],
    ) {
        let mut offset = 0;
        for (k, s) in [(0usize, -1.0), (1, 1.0)] {
            let marker = &self.markers[self.connectors[c].markers[k]];
            let n = marker.columns.len();
            if n == 0 {
                continue;
            }
            let jac = &mut jac[..3 * n];
            let state = MarkerState::new(marker, qt, v);
            match which {
                Jacobian::Position => state.position_jacobian(jac),
                Jacobian::Rotation => state.rotation_jacobian(jac),
            }
            for col in 0..n {
                let val: f64 = (0..3).map(|r| jac[r * n + col] * x[r]).sum();
                if add {
                    out[offset + col] += s * val;
                } else {
                    out[offset + col] = s * val;
                }
            }
            offset += n;
        }
    }

    /// The columns of connector `c`'s markers, marker 0's then marker 1's.
    pub(super) fn connector_columns(&self, c: usize) -> impl Iterator<Item = usize> + '_ {
        self.connectors[c]
            .markers
            .iter()
            .flat_map(|&m| self.markers[m].columns.iter().copied())
    }

    /// Add `sign`·LHS of connector `c` (+J1ᵀf, −J0ᵀf) into `f`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn add_connector_lhs(
        &self,
        c: usize,
        qt: &[f64],
        v: &[f64],
        data: &[f64],
        sign: f64,
        f: &mut [f64],
        scratch: &mut Scratch,
    ) {
        let local = &mut scratch.lhs2;
        if self.connector_lhs_local(c, qt, v, data, local, &mut scratch.jac_a) {
            for (row, g) in self.connector_columns(c).enumerate() {
                f[g] += sign * local[row];
            }
        }
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
            if let ConnectorKind::CoordinateSpringDamper {
                stiffness,
                damping,
                offset,
            } = con.kind
            {
                // between the node coordinates' unit Jacobians (rotation coordinates take the
                // differences: `analytic_jacobian` is false for them, as in Exudyn):
                // s_a·(factor_k·∂f/∂c_b + factor_d·∂f/∂ċ_b), f linear in them
                if !con.active {
                    continue;
                }
                let p = coordinate_spring_damper::Parameters {
                    stiffness,
                    damping,
                    offset,
                };
                let [(q0, v0), (q1, v1)] = con.markers.map(|k| self.coordinate_value(k, qt, v));
                let j = coordinate_spring_damper::marker_level::jacobian(
                    &p,
                    &coordinate_quantities(q0, v0),
                    &coordinate_quantities(q1, v1),
                );
                let signs = [-1.0, 1.0];
                for (&ma, sign) in con.markers.iter().zip(signs) {
                    for (b, &mb) in con.markers.iter().enumerate() {
                        let ca = &self.markers[ma].columns;
                        let cb = &self.markers[mb].columns;
                        if let (Some(&ga), Some(&gb)) = (ca.first(), cb.first()) {
                            let local =
                                factor_k * j.d_position[b][0][0] + factor_d * j.d_velocity[b][0][0];
                            m.add(ga, gb, sign * local);
                        }
                    }
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

    /// The scalar force of SpringDamper `c` (positive in tension; Exudyn's `ForceLocal`), 0 if
    /// inactive: its definition's output `tension`, Exudyn's convention at zero length.
    pub fn spring_damper_tension(&self, c: usize, qt: &[f64], v: &[f64]) -> f64 {
        let con = &self.connectors[c];
        if !con.active {
            return 0.0;
        }
        let m0 = MarkerState::new(&self.markers[con.markers[0]], qt, v);
        let m1 = MarkerState::new(&self.markers[con.markers[1]], qt, v);
        if (m1.position() - m0.position()).norm() == 0.0 {
            return spring_damper_at_zero_length(&con.kind, &(m1.velocity() - m0.velocity())).1;
        }
        let p = spring_damper_parameters(&con.kind);
        spring_damper::marker_level::output_tension(&p, &m0.quantities(), &m1.quantities())[0]
    }

    /// The derivatives of connector `c`'s force by its markers' quantities, from its force
    /// definition (SpringDamper, CartesianSpringDamper: `kernels`), and per marker whether its
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
            ConnectorKind::SpringDamper { .. } if (m1.position() - m0.position()).norm() == 0.0 => {
                // the direction is undefined there; Exudyn's convention (`connector_force`)
                Some((ForceJacobian::default(), [false; 2]))
            }
            ConnectorKind::SpringDamper { .. } => {
                let p = spring_damper_parameters(&con.kind);
                let j =
                    spring_damper::marker_level::jacobian(&p, &m0.quantities(), &m1.quantities());
                Some((j, [false; 2]))
            }
            ConnectorKind::CartesianSpringDamper { .. } => {
                let p = cartesian_spring_damper_parameters(&con.kind);
                let j = cartesian_spring_damper::marker_level::jacobian(
                    &p,
                    &m0.quantities(),
                    &m1.quantities(),
                );
                Some((j, [false; 2]))
            }
            ConnectorKind::LinearSpringDamper { .. } => {
                let p = linear_spring_damper_parameters(&con.kind).expect("a linear spring");
                let j = linear_spring_damper::marker_level::jacobian(
                    &p,
                    &m0.quantities(),
                    &m1.quantities(),
                );
                Some((j, [true, false]))
            }
            ConnectorKind::Gravity { .. } => {
                let p = gravity_parameters(&con.kind).expect("a gravity connector");
                let j = gravity::marker_level::jacobian(&p, &m0.quantities(), &m1.quantities());
                Some((j, [false; 2]))
            }
            ConnectorKind::RigidBodySpringDamper {
                intrinsic: false, ..
            } => {
                let p =
                    rigid_body_spring_damper_parameters(&con.kind).expect("default formulation");
                let j = rigid_body_spring_damper::marker_level::jacobian(
                    &p,
                    &m0.quantities(),
                    &m1.quantities(),
                );
                Some((j, [true, true]))
            }
            ConnectorKind::Defined {
                definition,
                parameters,
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
            self.connector_lhs_local(c, qt, &velocities, data, base, &mut scratch.jac_a);
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
                    } else {
                        velocities[g] = x + eps;
                    }
                    self.connector_lhs_local(c, qt, &velocities, data, out, &mut scratch.jac_a);
                    if which == 0 && self.lie_node_of(g).is_some() {
                        self.restore_total(q, qt, g);
                    } else {
                        qt[g] = saved;
                    }
                    velocities[g] = v[g];
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
    }
}

/// Which of a marker's Jacobians a connector's force or torque acts through.
#[derive(Clone, Copy)]
enum Jacobian {
    Position,
    Rotation,
}

/// A connector's force and the relative motion it acts on.
pub struct ConnectorForce {
    /// The connector force f (global; Exudyn's `Force` output): it acts on marker 0 as f and on
    /// marker 1 as −f (the left-hand side gets −J_0ᵀf and J_1ᵀf).
    pub force: Vector3<f64>,
    /// Δp (Cartesian: minus the offset).
    pub delta_p: Vector3<f64>,
    pub delta_v: Vector3<f64>,
}

/// Why a defined element's kernel cannot refuse its parameter slice.
const PARAMETERS_CHECKED: &str = "parameter count checked at assemble";

/// A coordinate marker's value and velocity as the force definitions between coordinates read
/// them (`position[0]`, `velocity[0]`).
fn coordinate_quantities(value: f64, velocity: f64) -> MarkerQuantities {
    MarkerQuantities {
        position: [value, 0.0, 0.0],
        velocity: [velocity, 0.0, 0.0],
        ..MarkerQuantities::default()
    }
}

/// A Gravity connector's parameters as its force definition takes them (`None`: another kind).
fn gravity_parameters(kind: &ConnectorKind) -> Option<gravity::Parameters> {
    let ConnectorKind::Gravity {
        factor,
        min_distance,
    } = *kind
    else {
        return None;
    };
    Some(gravity::Parameters {
        factor,
        min_distance,
    })
}

/// A RigidBodySpringDamper's parameters as its force definition takes them (K and D by
/// 3 × 3 blocks); `None` for another kind or the intrinsic formulation, which has none.
fn rigid_body_spring_damper_parameters(
    kind: &ConnectorKind,
) -> Option<rigid_body_spring_damper::Parameters> {
    let ConnectorKind::RigidBodySpringDamper {
        stiffness,
        damping,
        offset,
        rotation0,
        rotation1,
        intrinsic: false,
    } = kind
    else {
        return None;
    };
    let block = |m: &Matrix6<f64>, r: usize, c: usize| -> [[f64; 3]; 3] {
        std::array::from_fn(|i| std::array::from_fn(|j| m[(r + i, c + j)]))
    };
    let rows = |m: &Matrix3<f64>| -> [[f64; 3]; 3] {
        std::array::from_fn(|i| std::array::from_fn(|j| m[(i, j)]))
    };
    Some(rigid_body_spring_damper::Parameters {
        stiffness_pp: block(stiffness, 0, 0),
        stiffness_pr: block(stiffness, 0, 3),
        stiffness_rp: block(stiffness, 3, 0),
        stiffness_rr: block(stiffness, 3, 3),
        damping_pp: block(damping, 0, 0),
        damping_pr: block(damping, 0, 3),
        damping_rp: block(damping, 3, 0),
        damping_rr: block(damping, 3, 3),
        offset_p: [offset[0], offset[1], offset[2]],
        offset_r: [offset[3], offset[4], offset[5]],
        rotation_marker0: rows(rotation0),
        rotation_marker1: rows(rotation1),
    })
}

/// A LinearSpringDamper's parameters as its force definition takes them (`None`: another
/// kind).
fn linear_spring_damper_parameters(
    kind: &ConnectorKind,
) -> Option<linear_spring_damper::Parameters> {
    let ConnectorKind::LinearSpringDamper {
        stiffness,
        damping,
        axis,
        offset,
        velocity_offset,
        force,
    } = *kind
    else {
        return None;
    };
    Some(linear_spring_damper::Parameters {
        stiffness,
        damping,
        axis,
        offset,
        velocity_offset,
        force_offset: force,
    })
}

/// A SpringDamper's direction and tension at zero length, Exudyn's convention where Δp/L is
/// undefined: along Δv (zero if Δv is zero too); its derivatives are taken as zero.
fn spring_damper_at_zero_length(kind: &ConnectorKind, dv: &Vector3<f64>) -> (Vector3<f64>, f64) {
    let p = spring_damper_parameters(kind);
    let nv = dv.norm();
    let e = if nv != 0.0 { dv / nv } else { *dv };
    let tension = p.stiffness * (0.0 - p.reference_length)
        + p.damping * (dv.dot(&e) - p.velocity_offset)
        + p.force_offset;
    (e, tension)
}

/// A SpringDamper's parameters as its force definition (`kernels::SpringDamper`) takes them.
fn spring_damper_parameters(kind: &ConnectorKind) -> spring_damper::Parameters {
    let ConnectorKind::SpringDamper {
        reference_length,
        stiffness,
        damping,
        force,
        velocity_offset,
    } = *kind
    else {
        unreachable!("a SpringDamper connector")
    };
    spring_damper::Parameters {
        reference_length,
        stiffness,
        damping,
        force_offset: force,
        velocity_offset,
    }
}

/// A CartesianSpringDamper's parameters as its force definition takes them.
fn cartesian_spring_damper_parameters(kind: &ConnectorKind) -> cartesian_spring_damper::Parameters {
    let ConnectorKind::CartesianSpringDamper {
        stiffness,
        damping,
        offset,
    } = *kind
    else {
        unreachable!("a CartesianSpringDamper connector")
    };
    cartesian_spring_damper::Parameters {
        stiffness,
        damping,
        offset,
    }
}
