//! ObjectConnectorSpringDamper: a spring-damper along the line between two position markers,
//! f = (k(L − L₀) + d(L̇ − velocityOffset) + force)·Δp/L, its force definition
//! `kernels::SpringDamper`; at L = 0, where Δp/L is undefined, Exudyn's convention
//! ([`ForceHook::ZeroLength`]).

use std::any::Any;
use std::sync::Arc;

use joint_core::JointParameters;

use super::defined::{check_finite, force_at, named_outputs, spring_at_zero_length};
use super::{
    ConnectorAt, ConnectorFamily, ConnectorObject, ConnectorType, DefinedForce, ExudynJacobian,
    FamilyDrawing, ForceHook, ItemKeys, MarkerNeed, read_connector,
};
use crate::error::Result;
use crate::items::output_variable::put3;
use crate::items::{MarkerIndex, Object, OutputVariable};
use crate::kernels::spring_damper;

pub(super) const TYPE: ConnectorType = ConnectorType {
    name: "ConnectorSpringDamper",
    spellings: &[
        "ConnectorSpringDamper",
        "ObjectConnectorSpringDamper",
        "SpringDamper",
    ],
    read,
};

/// The item's parameters, with Exudyn's names. Outputs: `Distance`, `Displacement` (Δp),
/// `Velocity` (Δv), `Force` (on marker 0, global; marker 1 gets −f) and `ForceLocal` (the
/// tension, positive when pulling; 0 if inactive).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SpringDamper {
    /// `referenceLength` L₀.
    pub reference_length: f64,
    /// `stiffness` (N/m).
    pub stiffness: f64,
    /// `damping` (N·s/m).
    pub damping: f64,
    /// `force`: a constant force added along the spring.
    pub force: f64,
    /// `velocityOffset`: subtracted from L̇ before damping.
    pub velocity_offset: f64,
}

impl SpringDamper {
    /// The connector object between the position markers `markers`: active, unnamed.
    pub fn between(self, markers: [MarkerIndex; 2]) -> Object {
        Object::Connector(ConnectorObject::new(Arc::new(self), markers))
    }
}

fn read(keys: &mut dyn ItemKeys) -> Result<ConnectorObject> {
    keys.no_user_function("springForceUserFunction")?;
    let p = SpringDamper {
        reference_length: keys.f64_or("referenceLength", 0.0)?,
        stiffness: keys.f64_or("stiffness", 0.0)?,
        damping: keys.f64_or("damping", 0.0)?,
        force: keys.f64_or("force", 0.0)?,
        velocity_offset: keys.f64_or("velocityOffset", 0.0)?,
    };
    read_connector(keys, Arc::new(p))
}

impl ConnectorFamily for SpringDamper {
    fn type_name(&self) -> &'static str {
        TYPE.name
    }

    fn marker_need(&self) -> MarkerNeed {
        MarkerNeed::Position
    }

    fn check(&self) -> std::result::Result<(), (&'static str, String)> {
        check_finite([
            ("referenceLength", &[self.reference_length][..]),
            ("stiffness", &[self.stiffness]),
            ("damping", &[self.damping]),
            ("force", &[self.force]),
            ("velocityOffset", &[self.velocity_offset]),
        ])
    }

    fn defined_force(&self) -> Option<DefinedForce> {
        let p = spring_damper::Parameters {
            reference_length: self.reference_length,
            stiffness: self.stiffness,
            damping: self.damping,
            force_offset: self.force,
            velocity_offset: self.velocity_offset,
        };
        Some(DefinedForce {
            definition: &spring_damper::DEFINITION,
            parameters: p.to_values(),
            hook: ForceHook::ZeroLength,
            jacobian: ExudynJacobian::Analytic,
        })
    }

    fn output(&self, var: OutputVariable, at: &ConnectorAt, out: &mut Vec<f64>) -> Option<()> {
        let definition = &spring_damper::DEFINITION;
        let cf = force_at(at, definition, ForceHook::ZeroLength);
        match var {
            OutputVariable::Distance => out.push(cf.delta_p.norm()),
            OutputVariable::Displacement => put3(out, cf.delta_p),
            OutputVariable::Velocity => put3(out, cf.delta_v),
            OutputVariable::Force => put3(out, cf.force),
            // the tension, positive when pulling: 0 if inactive
            OutputVariable::ForceLocal => out.push(if !at.active {
                0.0
            } else if cf.delta_p.norm() == 0.0 {
                spring_at_zero_length(at.parameters, &cf.delta_v).1
            } else {
                named_outputs(at, definition, ["tension"])?[0]
            }),
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
