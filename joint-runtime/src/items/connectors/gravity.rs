//! ObjectConnectorGravity: Newton's gravitation between two position markers,
//! f = G·m₀·m₁·Δp/max(L, minDistanceRegularization)³, its force definition `kernels::Gravity`
//! with `factor` = G·m₀·m₁. Exudyn differentiates it numerically; the fast mode takes the
//! definition's derivatives.

use std::any::Any;
use std::sync::Arc;

use joint_core::JointParameters;

use super::defined::{check_finite, force_at};
use super::{
    ConnectorAt, ConnectorFamily, ConnectorObject, ConnectorType, DefinedForce, ExudynJacobian,
    ForceHook, ItemKeys, MarkerNeed, read_connector,
};
use crate::error::Result;
use crate::items::output_variable::put3;
use crate::items::{MarkerIndex, Object, OutputVariable};
use crate::kernels::gravity;

pub(super) const TYPE: ConnectorType = ConnectorType {
    name: "ConnectorGravity",
    spellings: &["ConnectorGravity", "ObjectConnectorGravity"],
    read,
};

/// The item's parameters, with Exudyn's names. Outputs: `Distance`, `Displacement` (Δp),
/// `Force` (on marker 0, global).
#[derive(Clone, Debug, PartialEq)]
pub struct Gravity {
    /// `gravitationalConstant` G (Exudyn's default 6.6743e-11).
    pub gravitational_constant: f64,
    /// `mass0` (kg).
    pub mass0: f64,
    /// `mass1` (kg).
    pub mass1: f64,
    /// `minDistanceRegularization`: the distance below which the force stops growing.
    pub min_distance_regularization: f64,
}

impl Default for Gravity {
    fn default() -> Self {
        Gravity {
            gravitational_constant: 6.67430e-11,
            mass0: 0.0,
            mass1: 0.0,
            min_distance_regularization: 0.0,
        }
    }
}

impl Gravity {
    /// The connector object between the position markers `markers`: active, unnamed.
    pub fn between(self, markers: [MarkerIndex; 2]) -> Object {
        Object::Connector(ConnectorObject::new(Arc::new(self), markers))
    }
}

fn read(keys: &mut dyn ItemKeys) -> Result<ConnectorObject> {
    let defaults = Gravity::default();
    let p = Gravity {
        gravitational_constant: keys
            .f64_or("gravitationalConstant", defaults.gravitational_constant)?,
        mass0: keys.f64_or("mass0", 0.0)?,
        mass1: keys.f64_or("mass1", 0.0)?,
        min_distance_regularization: keys.f64_or("minDistanceRegularization", 0.0)?,
    };
    read_connector(keys, Arc::new(p))
}

impl ConnectorFamily for Gravity {
    fn type_name(&self) -> &'static str {
        TYPE.name
    }

    fn marker_need(&self) -> MarkerNeed {
        MarkerNeed::Position
    }

    fn check(&self) -> std::result::Result<(), (&'static str, String)> {
        check_finite([
            ("gravitationalConstant", &[self.gravitational_constant][..]),
            ("mass0", &[self.mass0]),
            ("mass1", &[self.mass1]),
            (
                "minDistanceRegularization",
                &[self.min_distance_regularization],
            ),
        ])?;
        for (key, v) in [
            ("mass0", self.mass0),
            ("mass1", self.mass1),
            (
                "minDistanceRegularization",
                self.min_distance_regularization,
            ),
        ] {
            if v < 0.0 {
                return Err((key, format!("must not be negative, found {v}")));
            }
        }
        Ok(())
    }

    fn defined_force(&self) -> Option<DefinedForce> {
        let p = gravity::Parameters {
            factor: self.gravitational_constant * (self.mass0 * self.mass1),
            min_distance: self.min_distance_regularization,
        };
        Some(DefinedForce {
            definition: &gravity::DEFINITION,
            parameters: p.to_values(),
            hook: ForceHook::None,
            jacobian: ExudynJacobian::Numerical { fast_derived: true },
        })
    }

    fn output(&self, var: OutputVariable, at: &ConnectorAt, out: &mut Vec<f64>) -> Option<()> {
        let cf = force_at(at, &gravity::DEFINITION, ForceHook::None);
        match var {
            OutputVariable::Distance => out.push(cf.delta_p.norm()),
            OutputVariable::Displacement => put3(out, cf.delta_p),
            OutputVariable::Force => put3(out, cf.force),
            _ => return None,
        }
        Some(())
    }

    fn same_as(&self, other: &dyn ConnectorFamily) -> bool {
        (other as &dyn Any).downcast_ref::<Self>() == Some(self)
    }
}
