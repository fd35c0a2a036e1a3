//! ObjectConnectorLinearSpringDamper: a spring-damper along `A_0·axisMarker0`,
//! f = k(u − offset) + d(u̇ − velocityOffset) + force with u = (A_0·a)·Δp, u̇ = (A_0·a)·Δv,
//! applied through the markers' position Jacobians: its force definition
//! `kernels::LinearSpringDamper`. Exudyn differentiates it numerically; the fast mode takes
//! the definition's derivatives.

use std::any::Any;
use std::sync::Arc;

use joint_core::JointParameters;

use super::defined::{check_finite, named_outputs};
use super::{
    ConnectorAt, ConnectorFamily, ConnectorObject, ConnectorType, DefinedForce, ExudynJacobian,
    ForceHook, ItemKeys, MarkerNeed, read_connector,
};
use crate::error::Result;
use crate::items::{MarkerIndex, Object, OutputVariable};
use crate::kernels::linear_spring_damper;

pub(super) const TYPE: ConnectorType = ConnectorType {
    name: "ConnectorLinearSpringDamper",
    spellings: &[
        "ConnectorLinearSpringDamper",
        "ObjectConnectorLinearSpringDamper",
        "LinearSpringDamper",
    ],
    read,
};

/// The item's parameters, with Exudyn's names. Outputs, along the axis: `DisplacementLocal`,
/// `VelocityLocal`, `ForceLocal` (0 if inactive).
#[derive(Clone, Debug, PartialEq)]
pub struct LinearSpringDamper {
    /// `stiffness` (N/m).
    pub stiffness: f64,
    /// `damping` (N·s/m).
    pub damping: f64,
    /// `axisMarker0`: the axis in marker 0's frame.
    pub axis_marker0: [f64; 3],
    /// `offset`: the relaxed displacement.
    pub offset: f64,
    /// `velocityOffset`: subtracted from u̇ before damping.
    pub velocity_offset: f64,
    /// `force`: a constant force added.
    pub force: f64,
}

impl Default for LinearSpringDamper {
    fn default() -> Self {
        LinearSpringDamper {
            stiffness: 0.0,
            damping: 0.0,
            axis_marker0: [1.0, 0.0, 0.0],
            offset: 0.0,
            velocity_offset: 0.0,
            force: 0.0,
        }
    }
}

impl LinearSpringDamper {
    /// The connector object between the orientation markers `markers`: active, unnamed.
    pub fn between(self, markers: [MarkerIndex; 2]) -> Object {
        Object::Connector(ConnectorObject::new(Arc::new(self), markers))
    }
}

fn read(keys: &mut dyn ItemKeys) -> Result<ConnectorObject> {
    keys.no_user_function("springForceUserFunction")?;
    let p = LinearSpringDamper {
        stiffness: keys.f64_or("stiffness", 0.0)?,
        damping: keys.f64_or("damping", 0.0)?,
        axis_marker0: keys.vec3("axisMarker0", [1.0, 0.0, 0.0])?,
        offset: keys.f64_or("offset", 0.0)?,
        velocity_offset: keys.f64_or("velocityOffset", 0.0)?,
        force: keys.f64_or("force", 0.0)?,
    };
    read_connector(keys, Arc::new(p))
}

impl ConnectorFamily for LinearSpringDamper {
    fn type_name(&self) -> &'static str {
        TYPE.name
    }

    fn marker_need(&self) -> MarkerNeed {
        MarkerNeed::Orientation
    }

    fn check(&self) -> std::result::Result<(), (&'static str, String)> {
        check_finite([
            ("stiffness", &[self.stiffness][..]),
            ("damping", &[self.damping]),
            ("offset", &[self.offset]),
            ("velocityOffset", &[self.velocity_offset]),
            ("force", &[self.force]),
            ("axisMarker0", &self.axis_marker0),
        ])
    }

    fn defined_force(&self) -> Option<DefinedForce> {
        let p = linear_spring_damper::Parameters {
            stiffness: self.stiffness,
            damping: self.damping,
            axis: self.axis_marker0,
            offset: self.offset,
            velocity_offset: self.velocity_offset,
            force_offset: self.force,
        };
        Some(DefinedForce {
            definition: &linear_spring_damper::DEFINITION,
            parameters: p.to_values(),
            hook: ForceHook::None,
            jacobian: ExudynJacobian::Numerical { fast_derived: true },
        })
    }

    /// Along its axis: the displacement, velocity and force (0 if inactive).
    fn output(&self, var: OutputVariable, at: &ConnectorAt, out: &mut Vec<f64>) -> Option<()> {
        let names = ["axial_displacement", "axial_velocity", "tension"];
        let [u, du, tension] = named_outputs(at, &linear_spring_damper::DEFINITION, names)?;
        out.push(match var {
            OutputVariable::DisplacementLocal => u,
            OutputVariable::VelocityLocal => du,
            OutputVariable::ForceLocal if at.active => tension,
            OutputVariable::ForceLocal => 0.0,
            _ => return None,
        });
        Some(())
    }

    fn same_as(&self, other: &dyn ConnectorFamily) -> bool {
        (other as &dyn Any).downcast_ref::<Self>() == Some(self)
    }
}
