//! A whole definition lowered: its parameters as graph variables, its residual rows, the
//! derived velocity level and the Jacobian rows.

use super::{Lowerer, RateRule};
use crate::definition::errors::Errors;
use crate::definition::model::JointModel;
use crate::definition::value::Value;
use crate::kinematics::Kinematics;
use crate::symbolic::{Graph, Id};

/// Variable name of element `i` of parameter `name` (scalar: `i` is ignored).
pub fn parameter_variable(
    name: &str,
    kind: crate::definition::model::ParamKind,
    i: usize,
) -> String {
    use crate::definition::model::ParamKind;
    match kind {
        ParamKind::Scalar => format!("jp_{name}"),
        ParamKind::Vector => format!("jp_{name}_{i}"),
        ParamKind::Matrix => format!("jp_{name}_{}{}", i / 3, i % 3),
    }
}

/// The joint's parameters as symbolic values (variables `jp_…`), by name; the states' slots
/// are read through `last(NAME)` only.
pub fn parameter_values(g: &mut Graph, model: &JointModel) -> Vec<(String, Value)> {
    use crate::definition::model::ParamKind;
    model
        .params
        .iter()
        .filter(|p| !p.state)
        .map(|p| {
            let name = p.name.to_string();
            let v: Vec<Id> = (0..p.kind.len())
                .map(|i| g.var(&parameter_variable(&name, p.kind, i)))
                .collect();
            let value = match p.kind {
                ParamKind::Scalar => Value::Scalar(v[0]),
                ParamKind::Vector => Value::Vector([v[0], v[1], v[2]]),
                ParamKind::Matrix => {
                    Value::Matrix([[v[0], v[1], v[2]], [v[3], v[4], v[5]], [v[6], v[7], v[8]]])
                }
            };
            (name, value)
        })
        .collect()
}

/// The position and velocity residual rows of `model` at kinematics `kin`: the velocity level
/// as written, or derived from the position level (the rates of a second lowering, so that the
/// position's nodes come first and the derivative's after them, as for a hand-written one).
/// A joint written at velocity level has no position rows (empty). Errors go into `errors`.
pub fn residuals(
    g: &mut Graph,
    model: &JointModel,
    kin: &[Kinematics],
    errors: &mut Errors,
) -> Option<(Vec<Id>, Vec<Id>)> {
    let params = parameter_values(g, model);
    let rows = model.axes.len();
    let (position, velocity) = {
        let mut lw = Lowerer::new(g, model, kin, params.clone());
        lw.bindings(errors);
        let position = match &model.position {
            Some(p) => lw.residual(p, "position-level", rows, errors),
            None => Some((Vec::new(), Vec::new())),
        };
        let velocity = match &model.velocity {
            Some(v) => lw
                .residual(v, "velocity-level", rows, errors)
                .map(|(r, _)| r),
            None => None,
        };
        (position, velocity)
    };
    let (position, _) = position?;
    let velocity = match (&model.velocity, velocity) {
        (Some(_), v) => v?,
        (None, _) => derived_velocity(g, model, kin, params, RateRule::Local)?,
    };
    Some((position, velocity))
}

/// The velocity level as the time derivative of the position level, with rotations turning by
/// `rule`.
pub fn derived_velocity(
    g: &mut Graph,
    model: &JointModel,
    kin: &[Kinematics],
    params: Vec<(String, Value)>,
    rule: RateRule,
) -> Option<Vec<Id>> {
    // the value pass has reported every error
    let mut scratch = Errors::new();
    let position = model.position.as_ref()?;
    let mut lw = Lowerer::with_rates(g, model, kin, params, rule);
    lw.residual(position, "position-level", model.axes.len(), &mut scratch)
        .map(|(_, rate)| rate)
}

/// The rows whose derivative by the coordinate velocities is the constraint Jacobian C, and by
/// the coordinates ∂(C q̇)/∂q: the hand-written velocity level with `angular_velocity` as G·θ̇,
/// or the position level's rate with rotations turning by their global angular velocity
/// (Exudyn's C, whose rotational columns are G; equal to the velocity level wherever the
/// rotation matrices are orthonormal).
pub fn jacobian_rows(
    g: &mut Graph,
    model: &JointModel,
    kin: &[Kinematics],
    velocity: &[Id],
) -> Vec<Id> {
    let params = parameter_values(g, model);
    if let Some(written) = &model.velocity {
        // the value pass has reported every error
        let mut scratch = Errors::new();
        let mut lw = Lowerer::new(g, model, kin, params).with_rule(RateRule::Global);
        return lw
            .residual(written, "velocity-level", model.axes.len(), &mut scratch)
            .map_or_else(|| velocity.to_vec(), |(rows, _)| rows);
    }
    derived_velocity(g, model, kin, params, RateRule::Global).unwrap_or_else(|| velocity.to_vec())
}
