//! ObjectConnectorCoordinateSpringDamper: a scalar spring-damper between two coordinate markers,
//! f = k(Δq − offset) + d·Δv on their displacement coordinates (Δq = q_m1 − q_m0), applied as
//! −f·J_0ᵀ and f·J_1ᵀ. The force and its derivatives are the compiler's, from the definition
//! `coordinate_spring_damper` of joint-kernels.

use std::any::Any;
use std::sync::Arc;

use joint_core::MarkerQuantities;

use super::{ConnectorAt, ConnectorFamily, ConnectorObject, ConnectorType, ItemKeys, MarkerNeed};
use crate::error::Result;
use crate::items::{MarkerIndex, Object, OutputVariable};
use crate::kernels::coordinate_spring_damper as kernel;
use crate::markers::ResolvedMarker;

pub(super) const TYPE: ConnectorType = ConnectorType {
    name: "ConnectorCoordinateSpringDamper",
    spellings: &[
        "ConnectorCoordinateSpringDamper",
        "ObjectConnectorCoordinateSpringDamper",
        "CoordinateSpringDamper",
    ],
    read,
};

/// The item's parameters, with Exudyn's names.
#[derive(Clone, Debug, PartialEq)]
pub struct CoordinateSpringDamper {
    /// `stiffness` k.
    pub stiffness: f64,
    /// `damping` d.
    pub damping: f64,
    /// `offset`.
    pub offset: f64,
}

impl CoordinateSpringDamper {
    /// The connector object between the coordinate markers `markers`: active, unnamed.
    pub fn between(self, markers: [MarkerIndex; 2]) -> Object {
        Object::Connector(ConnectorObject {
            family: Arc::new(self),
            name: String::new(),
            markers,
            data_node: None,
            active: true,
        })
    }

    fn parameters(&self) -> kernel::Parameters {
        kernel::Parameters {
            stiffness: self.stiffness,
            damping: self.damping,
            offset: self.offset,
        }
    }

    /// The markers' coordinates as the force definition reads them (`position[0]`,
    /// `velocity[0]`).
    fn quantities(
        m: &ResolvedMarker,
        qt: &[f64],
        q: Option<&[f64]>,
        v: &[f64],
    ) -> MarkerQuantities {
        let (value, velocity) = m.coordinate_state_of(qt, q, v);
        MarkerQuantities {
            position: [value, 0.0, 0.0],
            velocity: [velocity, 0.0, 0.0],
            rotation: [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
            angular_velocity: [0.0; 3],
        }
    }
}

fn read(keys: &mut dyn ItemKeys) -> Result<ConnectorObject> {
    let name = keys.name()?;
    let [m0, m1] = keys.two_indices("markerNumbers")?;
    keys.no_user_function("springForceUserFunction")?;
    let p = CoordinateSpringDamper {
        stiffness: keys.f64_or("stiffness", 0.0)?,
        damping: keys.f64_or("damping", 0.0)?,
        offset: keys.f64_or("offset", 0.0)?,
    };
    Ok(ConnectorObject {
        family: Arc::new(p),
        name,
        markers: [MarkerIndex(m0), MarkerIndex(m1)],
        data_node: None,
        active: keys.bool_or("activeConnector", true)?,
    })
}

impl ConnectorFamily for CoordinateSpringDamper {
    fn type_name(&self) -> &'static str {
        TYPE.name
    }

    fn marker_need(&self) -> MarkerNeed {
        MarkerNeed::Coordinate
    }

    fn data_size(&self) -> usize {
        0
    }

    fn check(&self) -> std::result::Result<(), (&'static str, String)> {
        for (key, value) in [
            ("stiffness", self.stiffness),
            ("damping", self.damping),
            ("offset", self.offset),
        ] {
            if !value.is_finite() {
                return Err((key, format!("expected finite numbers, found {value}")));
            }
        }
        Ok(())
    }

    fn lhs(
        &self,
        m: [&ResolvedMarker; 2],
        qt: &[f64],
        q: Option<&[f64]>,
        v: &[f64],
        _data: &[f64],
        out: &mut [f64],
        jac: &mut [f64],
    ) {
        let [q0, q1] = m.map(|m| Self::quantities(m, qt, q, v));
        let f = kernel::marker_level::force(&self.parameters(), &q0, &q1)[0];
        // −f·J_0ᵀ and f·J_1ᵀ: a node coordinate's Jacobian is 1 on its column (none on a ground
        // node), a rotation coordinate's its rotation Jacobian's row
        let (n0, n1) = (m[0].columns.len(), m[1].columns.len());
        m[0].coordinate_jacobian(qt, v, &mut out[..n0], jac);
        m[1].coordinate_jacobian(qt, v, &mut out[n0..n0 + n1], jac);
        for x in &mut out[..n0] {
            *x *= -f;
        }
        for x in &mut out[n0..n0 + n1] {
            *x *= f;
        }
    }

    /// Exudyn's object gives its Jacobian (k, d on the coordinates) analytically, but not with
    /// a rotation coordinate, whose marker has no Jacobian derivative: then object-wise forward
    /// differences.
    fn takes_analytic_jacobian(&self, m: [&ResolvedMarker; 2]) -> bool {
        !m.iter().any(|m| m.is_rotation_coordinate())
    }

    /// Between the node coordinates' unit Jacobians: s_a·(factor_k·∂f/∂c_b + factor_d·∂f/∂ċ_b)
    /// (s = −1, 1), f linear in them.
    fn analytic_jacobian(
        &self,
        m: [&ResolvedMarker; 2],
        qt: &[f64],
        v: &[f64],
        factor_k: f64,
        factor_d: f64,
        out: &mut [f64],
    ) {
        let [q0, q1] = m.map(|m| Self::quantities(m, qt, None, v));
        let j = kernel::marker_level::jacobian(&self.parameters(), &q0, &q1);
        // each marker has 0 (ground) or 1 column: row and column r of `out` are the r-th
        // marker with one
        let has = [!m[0].columns.is_empty(), !m[1].columns.is_empty()];
        let n = usize::from(has[0]) + usize::from(has[1]);
        let position = |k: usize| if k == 0 { 0 } else { usize::from(has[0]) };
        for a in (0..2).filter(|&a| has[a]) {
            let sign = if a == 0 { -1.0 } else { 1.0 };
            for b in (0..2).filter(|&b| has[b]) {
                out[position(a) * n + position(b)] =
                    sign * (factor_k * j.d_position[b][0][0] + factor_d * j.d_velocity[b][0][0]);
            }
        }
    }

    fn output(&self, var: OutputVariable, at: &ConnectorAt, out: &mut Vec<f64>) -> Option<()> {
        let ConnectorAt {
            markers: m,
            qt,
            v,
            data: _,
            active,
            ..
        } = *at;
        let [q0, q1] = m.map(|m| Self::quantities(m, qt, None, v));
        out.push(match var {
            OutputVariable::Displacement => q1.position[0] - q0.position[0],
            OutputVariable::Velocity => q1.velocity[0] - q0.velocity[0],
            OutputVariable::Force if active => {
                kernel::marker_level::force(&self.parameters(), &q0, &q1)[0]
            }
            OutputVariable::Force => 0.0,
            _ => return None,
        });
        Some(())
    }

    fn same_as(&self, other: &dyn ConnectorFamily) -> bool {
        (other as &dyn Any).downcast_ref::<Self>() == Some(self)
    }
}
