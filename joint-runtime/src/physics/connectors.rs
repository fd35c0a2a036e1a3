//! Connectors — the force connectors through their force definitions (a user's, or Exudyn's
//! built-in ones of `kernels`, with their hooks; RigidBodySpringDamper's outputs and intrinsic
//! formulation in its own file), the connector families of `items/connectors/` through their
//! own forces:
//! their forces (torques) from
//! the markers' relative motion, and their Jacobians — analytic from the force's derivatives
//! where Exudyn takes them so, by forward differences where its markers give no Jacobian
//! derivative.

use joint_core::MarkerQuantities;
use nalgebra::Vector3;

use super::{Scratch, v3};
use crate::assemble::{ConnectorKind, ForceHook, Topology};
use crate::kernels::spring_damper;
use crate::markers::MarkerState;
use joint_core::JointParameters;

/// A linear spring-damper's state: the displacement and velocity along marker 0's turned axis
/// `A_0·a`, and the force.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LinearSpring {
    pub displacement: f64,
    pub velocity: f64,
    /// k(u − offset) + d(u̇ − velocityOffset) + force; 0 if inactive.
    pub force: f64,
}

impl Topology {
    /// The state of connector `c` if it is a LinearSpringDamper, as Exudyn's outputs give it
    /// (force 0 when inactive), from its force definition's outputs.
    pub fn linear_spring(&self, c: usize, qt: &[f64], v: &[f64]) -> Option<LinearSpring> {
        let names = ["axial_displacement", "axial_velocity", "tension"];
        let [displacement, velocity, tension] = self.defined_outputs(c, names, qt, v)?;
        Some(LinearSpring {
            displacement,
            velocity,
            force: if self.connectors[c].active {
                tension
            } else {
                0.0
            },
        })
    }

    /// The first value of each named output `names` of connector `c`'s force definition, the
    /// markers' quantities formed once (`None`: not a defined force, or no such output).
    pub(crate) fn defined_outputs<const N: usize>(
        &self,
        c: usize,
        names: [&str; N],
        qt: &[f64],
        v: &[f64],
    ) -> Option<[f64; N]> {
        let con = &self.connectors[c];
        let ConnectorKind::Defined {
            definition,
            parameters,
            ..
        } = &con.kind
        else {
            return None;
        };
        let m0 = MarkerState::new(&self.markers[con.markers[0]], qt, v).quantities();
        let m1 = MarkerState::new(&self.markers[con.markers[1]], qt, v).quantities();
        let mut values = [0.0; N];
        for (value, name) in values.iter_mut().zip(names) {
            let output = definition.outputs.iter().find(|o| o.name == name)?;
            let mut out = [0.0; 3];
            (output.evaluate)(parameters, &m0, &m1, &mut out[..output.len])
                .expect(PARAMETERS_CHECKED);
            *value = out[0];
        }
        Some(values)
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
            // the intrinsic formulation has no force of its own (`rigid_body_spring_lhs`)
            ConnectorKind::Defined {
                hook: ForceHook::RigidBodySpring { intrinsic: true },
                ..
            } => return None,
            ConnectorKind::Defined {
                hook: ForceHook::ZeroLength,
                parameters,
                ..
            } if dp.norm() == 0.0 => {
                let (e, tension) = spring_damper_at_zero_length(parameters, &dv);
                ConnectorForce {
                    force: e * tension,
                    delta_p: dp,
                    delta_v: dv,
                }
            }
            ConnectorKind::Defined {
                definition,
                parameters,
                hook,
            } => {
                let mut f = [0.0; 3];
                (definition.force)(parameters, &m0.quantities(), &m1.quantities(), &mut f)
                    .expect(PARAMETERS_CHECKED);
                ConnectorForce {
                    force: Vector3::from(f),
                    delta_p: match hook {
                        ForceHook::DisplacementOffset(offset) => dp - v3(*offset),
                        _ => dp,
                    },
                    delta_v: dv,
                }
            }
            ConnectorKind::Family { .. } => return None,
        })
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
            ..
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

    /// The scalar force of SpringDamper `c` (positive in tension; Exudyn's `ForceLocal`), 0 if
    /// inactive: its definition's output `tension`, Exudyn's convention at zero length.
    pub fn spring_damper_tension(&self, c: usize, qt: &[f64], v: &[f64]) -> f64 {
        let con = &self.connectors[c];
        if !con.active {
            return 0.0;
        }
        let m0 = MarkerState::new(&self.markers[con.markers[0]], qt, v);
        let m1 = MarkerState::new(&self.markers[con.markers[1]], qt, v);
        if (m1.position() - m0.position()).norm() == 0.0
            && let ConnectorKind::Defined {
                hook: ForceHook::ZeroLength,
                parameters,
                ..
            } = &con.kind
        {
            return spring_damper_at_zero_length(parameters, &(m1.velocity() - m0.velocity())).1;
        }
        let [tension] = self
            .defined_outputs(c, ["tension"], qt, v)
            .expect("a SpringDamper's definition has the output tension");
        tension
    }
}

/// Which of a marker's Jacobians a connector's force or torque acts through.
#[derive(Clone, Copy)]
pub(super) enum Jacobian {
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
pub(super) const PARAMETERS_CHECKED: &str = "parameter count checked at assemble";

/// A SpringDamper's direction and tension at zero length, Exudyn's convention where Δp/L is
/// undefined: along Δv (zero if Δv is zero too); its derivatives are taken as zero.
/// `parameters`: its definition's (`kernels::spring_damper`).
pub(super) fn spring_damper_at_zero_length(
    parameters: &[f64],
    dv: &Vector3<f64>,
) -> (Vector3<f64>, f64) {
    let p = spring_damper::Parameters::from_values(parameters).expect(PARAMETERS_CHECKED);
    let nv = dv.norm();
    let e = if nv != 0.0 { dv / nv } else { *dv };
    let tension = p.stiffness * (0.0 - p.reference_length)
        + p.damping * (dv.dot(&e) - p.velocity_offset)
        + p.force_offset;
    (e, tension)
}
