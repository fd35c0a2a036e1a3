//! Connectors whose force is a `joint!` force definition: Exudyn's built-in force connectors
//! (their definitions in `kernels`) say so through [`ConnectorFamily::defined_force`] and are
//! then evaluated, differentiated and assembled like a user's force element; the
//! [`ForceHook`] names what the Exudyn item adds to its definition.
//!
//! [`ConnectorFamily::defined_force`]: super::ConnectorFamily::defined_force

use joint_core::{ForceDefinition, JointParameters};
use nalgebra::Vector3;

use super::ConnectorAt;
use crate::kernels::spring_damper;
use crate::markers::MarkerState;

/// A connector's force definition and its parameters in the definition's flat layout, as
/// assembly lays them out once.
#[derive(Clone, Debug)]
pub struct DefinedForce {
    /// The compiler's definition (`kernels::spring_damper::DEFINITION`, …).
    pub definition: &'static ForceDefinition,
    /// Its parameter values, in the definition's order.
    pub parameters: Vec<f64>,
    /// What the item adds to its definition.
    pub hook: ForceHook,
    /// How Exudyn forms its Jacobian.
    pub jacobian: ExudynJacobian,
}

/// How Exudyn forms a built-in force connector's Jacobian (the exact mode follows it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExudynJacobian {
    /// Analytically where both markers provide the Jacobian's derivative (body and node
    /// markers), by the object's forward differences otherwise; the runtime takes the
    /// definition's derivatives for the analytic one.
    Analytic,
    /// Always by forward differences.
    Numerical {
        /// The fast mode takes the definition's derivatives instead where the markers allow.
        fast_derived: bool,
    },
}

/// What an Exudyn force connector adds to its force definition.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum ForceHook {
    /// Nothing: the definition is all (a user's force element, LinearSpringDamper, Gravity).
    None,
    /// ObjectConnectorSpringDamper: at zero length, where the direction Δp/L is undefined,
    /// Exudyn's convention ([`spring_at_zero_length`]).
    ZeroLength,
    /// ObjectConnectorCartesianSpringDamper: its displacement output is Δp − offset.
    DisplacementOffset([f64; 3]),
    /// ObjectConnectorRigidBodySpringDamper: its outputs and, with `useIntrinsicFormulation`,
    /// its forces, which replace the definition's (the SE(3) logarithm in the mid frame,
    /// differentiated numerically as Exudyn does; [`super::RigidBodySpringDamper`]).
    RigidBodySpring {
        /// `useIntrinsicFormulation`.
        intrinsic: bool,
    },
}

/// A connector's force and the relative motion it acts on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ConnectorForce {
    /// The connector force f (global; Exudyn's `Force` output): it acts on marker 0 as f and on
    /// marker 1 as −f (the left-hand side gets −J_0ᵀf and J_1ᵀf).
    pub force: Vector3<f64>,
    /// Δp (Cartesian: minus the offset).
    pub delta_p: Vector3<f64>,
    /// Δv.
    pub delta_v: Vector3<f64>,
}

/// Why a defined element's kernel cannot refuse its parameter slice.
pub(crate) const PARAMETERS_CHECKED: &str = "parameter count checked at assemble";

/// The force of an active connector with force definition `definition` (`parameters` its
/// values, `hook` what the item adds) between the markers' states; `None` for the intrinsic
/// RigidBodySpringDamper, whose forces are its own LHS.
pub(crate) fn defined_force_between(
    definition: &ForceDefinition,
    parameters: &[f64],
    hook: ForceHook,
    m0: &MarkerState,
    m1: &MarkerState,
) -> Option<ConnectorForce> {
    let dp = m1.position() - m0.position();
    let dv = m1.velocity() - m0.velocity();
    Some(match hook {
        ForceHook::RigidBodySpring { intrinsic: true } => return None,
        ForceHook::ZeroLength if dp.norm() == 0.0 => {
            let (e, tension) = spring_at_zero_length(parameters, &dv);
            ConnectorForce {
                force: e * tension,
                delta_p: dp,
                delta_v: dv,
            }
        }
        _ => {
            let mut f = [0.0; 3];
            (definition.force)(parameters, &m0.quantities(), &m1.quantities(), &mut f)
                .expect(PARAMETERS_CHECKED);
            ConnectorForce {
                force: Vector3::from(f),
                delta_p: match hook {
                    ForceHook::DisplacementOffset(offset) => dp - Vector3::from(offset),
                    _ => dp,
                },
                delta_v: dv,
            }
        }
    })
}

/// The force of a connector with a defined force at `at` (zero if inactive: the relative
/// motion is still reported, as Exudyn's outputs do).
pub(super) fn force_at(
    at: &ConnectorAt,
    definition: &ForceDefinition,
    hook: ForceHook,
) -> ConnectorForce {
    let m0 = MarkerState::new(at.markers[0], at.qt, at.v);
    let m1 = MarkerState::new(at.markers[1], at.qt, at.v);
    let force = at
        .active
        .then(|| defined_force_between(definition, at.parameters, hook, &m0, &m1))
        .flatten();
    force.unwrap_or_else(|| ConnectorForce {
        force: Vector3::zeros(),
        delta_p: m1.position() - m0.position(),
        delta_v: m1.velocity() - m0.velocity(),
    })
}

/// The first value of each named output `names` of `definition` at `at`, the markers'
/// quantities formed once; `None` if it has no such output.
pub(super) fn named_outputs<const N: usize>(
    at: &ConnectorAt,
    definition: &ForceDefinition,
    names: [&str; N],
) -> Option<[f64; N]> {
    let m0 = MarkerState::new(at.markers[0], at.qt, at.v).quantities();
    let m1 = MarkerState::new(at.markers[1], at.qt, at.v).quantities();
    let mut values = [0.0; N];
    for (value, name) in values.iter_mut().zip(names) {
        let output = definition.output(name)?;
        let mut out = [0.0; 3];
        (output.evaluate)(at.parameters, &m0, &m1, &mut out[..output.len])
            .expect(PARAMETERS_CHECKED);
        *value = out[0];
    }
    Some(values)
}

/// `(key, values)` pairs checked finite: the first that is not, as a family's check reports it.
pub(super) fn check_finite<'a>(
    values: impl IntoIterator<Item = (&'static str, &'a [f64])>,
) -> std::result::Result<(), (&'static str, String)> {
    for (key, values) in values {
        if let Some(v) = values.iter().find(|v| !v.is_finite()) {
            return Err((key, format!("expected finite numbers, found {v}")));
        }
    }
    Ok(())
}

/// A SpringDamper's direction and tension at zero length ([`ForceHook::ZeroLength`]), Exudyn's
/// convention where Δp/L is undefined: along Δv (zero if Δv is zero too); its derivatives are taken as zero. `parameters`: its
/// definition's (`kernels::spring_damper`).
pub(crate) fn spring_at_zero_length(parameters: &[f64], dv: &Vector3<f64>) -> (Vector3<f64>, f64) {
    let p = spring_damper::Parameters::from_values(parameters).expect(PARAMETERS_CHECKED);
    let nv = dv.norm();
    let e = if nv != 0.0 { dv / nv } else { *dv };
    let tension = p.stiffness * (0.0 - p.reference_length)
        + p.damping * (dv.dot(&e) - p.velocity_offset)
        + p.force_offset;
    (e, tension)
}
