//! ObjectConnectorCartesianSpringDamper: a spring and a damper per global axis between two
//! position markers, f_i = k_i(Δp_i − offset_i) + d_i·Δv_i, its force definition
//! `kernels::CartesianSpringDamper`; its displacement output is Δp − offset.

use std::any::Any;
use std::sync::Arc;

use joint_core::JointParameters;

use super::defined::{check_finite, force_at};
use super::{
    ConnectorAt, ConnectorFamily, ConnectorObject, ConnectorType, DefinedForce, ExudynJacobian,
    FamilyDrawing, ForceHook, ItemKeys, MarkerNeed, read_connector,
};
use crate::error::Result;
use crate::items::output_variable::put3;
use crate::items::{MarkerIndex, Object, OutputVariable};
use crate::kernels::cartesian_spring_damper;

pub(super) const TYPE: ConnectorType = ConnectorType {
    name: "ConnectorCartesianSpringDamper",
    spellings: &[
        "ConnectorCartesianSpringDamper",
        "ObjectConnectorCartesianSpringDamper",
        "CartesianSpringDamper",
    ],
    read,
};

/// The item's parameters, with Exudyn's names. Outputs: `Distance` and `Displacement` (of
/// Δp − offset), `Velocity` (Δv), `Force` (on marker 0, global).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CartesianSpringDamper {
    /// `stiffness` per global axis (N/m).
    pub stiffness: [f64; 3],
    /// `damping` per global axis (N·s/m).
    pub damping: [f64; 3],
    /// `offset`: the relaxed displacement.
    pub offset: [f64; 3],
}

impl CartesianSpringDamper {
    /// The connector object between the position markers `markers`: active, unnamed.
    pub fn between(self, markers: [MarkerIndex; 2]) -> Object {
        Object::Connector(ConnectorObject::new(Arc::new(self), markers))
    }

    fn hook(&self) -> ForceHook {
        ForceHook::DisplacementOffset(self.offset)
    }
}

fn read(keys: &mut dyn ItemKeys) -> Result<ConnectorObject> {
    keys.no_user_function("springForceUserFunction")?;
    let p = CartesianSpringDamper {
        stiffness: keys.vec3("stiffness", [0.0; 3])?,
        damping: keys.vec3("damping", [0.0; 3])?,
        offset: keys.vec3("offset", [0.0; 3])?,
    };
    read_connector(keys, Arc::new(p))
}

impl ConnectorFamily for CartesianSpringDamper {
    fn type_name(&self) -> &'static str {
        TYPE.name
    }

    fn marker_need(&self) -> MarkerNeed {
        MarkerNeed::Position
    }

    fn check(&self) -> std::result::Result<(), (&'static str, String)> {
        check_finite([
            ("stiffness", &self.stiffness[..]),
            ("damping", &self.damping),
            ("offset", &self.offset),
        ])
    }

    fn defined_force(&self) -> Option<DefinedForce> {
        let p = cartesian_spring_damper::Parameters {
            stiffness: self.stiffness,
            damping: self.damping,
            offset: self.offset,
        };
        Some(DefinedForce {
            definition: &cartesian_spring_damper::DEFINITION,
            parameters: p.to_values(),
            hook: self.hook(),
            jacobian: ExudynJacobian::Analytic,
        })
    }

    fn output(&self, var: OutputVariable, at: &ConnectorAt, out: &mut Vec<f64>) -> Option<()> {
        let cf = force_at(at, &cartesian_spring_damper::DEFINITION, self.hook());
        match var {
            OutputVariable::Distance => out.push(cf.delta_p.norm()),
            OutputVariable::Displacement => put3(out, cf.delta_p),
            OutputVariable::Velocity => put3(out, cf.delta_v),
            OutputVariable::Force => put3(out, cf.force),
            _ => return None,
        }
        Some(())
    }

    fn drawing(&self) -> FamilyDrawing {
        FamilyDrawing::Line
    }

    fn same_as(&self, other: &dyn ConnectorFamily) -> bool {
        (other as &dyn Any).downcast_ref::<Self>() == Some(self)
    }
}
