//! Connectors' forces on their markers and their LHS: a connector with a force definition (a
//! user's force element, or an Exudyn connector of `items/connectors/` that has one) through
//! its kernels and its hook (the intrinsic RigidBodySpringDamper through its own LHS), the
//! other connectors of `items/connectors/` through their own `lhs`.

use joint_core::MarkerQuantities;
use nalgebra::Vector3;

use super::Scratch;
use crate::assemble::{ConnectorKind, ForceHook, Topology};
use crate::items::connectors::{ConnectorForce, RigidBodySpringDamper, defined_force_between};
use crate::markers::MarkerState;

pub(super) use crate::items::connectors::PARAMETERS_CHECKED;

impl Topology {
    /// Connector force on marker 1 (global), or None if inactive (or a coordinate connector,
    /// whose force is scalar: [`Self::coordinate_spring`]).
    pub fn connector_force(&self, c: usize, qt: &[f64], v: &[f64]) -> Option<ConnectorForce> {
        let con = &self.connectors[c];
        if !con.active {
            return None;
        }
        let ConnectorKind::Defined {
            definition,
            parameters,
            hook,
        } = &con.kind
        else {
            return None;
        };
        let m0 = MarkerState::new(&self.markers[con.markers[0]], qt, v);
        let m1 = MarkerState::new(&self.markers[con.markers[1]], qt, v);
        defined_force_between(definition, parameters, *hook, &m0, &m1)
    }

    /// `−J_0ᵀx` then `J_1ᵀx` over connector `c`'s markers' columns into `out` (added to it if
    /// `add`), with the markers' position or rotation Jacobians (`jac` their scratch).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn jacobians_t_times(
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
            let rotation = matches!(which, Jacobian::Rotation);
            MarkerState::new(marker, qt, v).jacobian_t_times(
                rotation,
                x,
                s,
                add,
                jac,
                &mut out[offset..],
            );
            offset += n;
        }
    }

    /// The torque on marker 0 (global; marker 1 receives its negative) of a connector whose
    /// force definition has one (RigidBodySpringDamper's default formulation, a defined force
    /// element with `torque = …;`); `None` otherwise or if inactive.
    pub fn connector_torque(&self, c: usize, qt: &[f64], v: &[f64]) -> Option<Vector3<f64>> {
        self.with_torque_kernels(c, qt, v, |t, parameters, q0, q1| {
            let mut out = [0.0; 3];
            (t.torque)(parameters, q0, q1, &mut out).expect(PARAMETERS_CHECKED);
            out.into()
        })
    }

    /// `kernels` (a defined force element's torque kernels) applied to active connector `c`'s
    /// parameters and marker quantities; `None` if it is inactive or has no torque (the
    /// intrinsic RigidBodySpringDamper's is in its LHS).
    pub(super) fn with_torque_kernels<R>(
        &self,
        c: usize,
        qt: &[f64],
        v: &[f64],
        kernels: impl FnOnce(
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
        let ConnectorKind::Defined {
            definition,
            parameters,
            hook,
        } = &con.kind
        else {
            return None;
        };
        if *hook == (ForceHook::RigidBodySpring { intrinsic: true }) {
            return None;
        }
        let torque = definition.torque.as_ref()?;
        let quantities =
            |k: usize| MarkerState::new(&self.markers[con.markers[k]], qt, v).quantities();
        Some(kernels(torque, parameters, &quantities(0), &quantities(1)))
    }

    /// The LHS of connector `c` over its markers' columns, marker 0's then marker 1's
    /// (−J_0ᵀf, then J_1ᵀf), into `out[..n_0 + n_1]`; `jac` holds a marker's position Jacobian.
    /// False (and `out` untouched) if the connector is inactive. `data`: the data coordinates.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn connector_lhs_local(
        &self,
        c: usize,
        qt: &[f64],
        q: Option<&[f64]>,
        v: &[f64],
        data: &[f64],
        out: &mut [f64],
        jac: &mut [f64],
    ) -> bool {
        let con = &self.connectors[c];
        if let ConnectorKind::Family {
            family,
            data: range,
        } = &con.kind
        {
            if !con.active {
                return false;
            }
            let m = con.markers.map(|k| &self.markers[k]);
            family.lhs(m, qt, q, v, &data[range.clone()], out, jac);
            return true;
        }
        if let ConnectorKind::Defined {
            hook: ForceHook::RigidBodySpring { intrinsic: true },
            parameters,
            ..
        } = &con.kind
        {
            if !con.active {
                return false;
            }
            let m = con.markers.map(|k| &self.markers[k]);
            let [m0, m1] = m.map(|m| MarkerState::new(m, qt, v));
            let spring = RigidBodySpringDamper::state(parameters, true, &m0, &m1, true);
            RigidBodySpringDamper::intrinsic_lhs(&spring, m, qt, v, out, jac);
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
        if self.connector_lhs_local(c, qt, None, v, data, local, &mut scratch.jac_a) {
            for (row, g) in self.connector_columns(c).enumerate() {
                f[g] += sign * local[row];
            }
        }
    }
}

/// Which of a marker's Jacobians a connector's force or torque acts through.
#[derive(Clone, Copy)]
pub(super) enum Jacobian {
    Position,
    Rotation,
}
