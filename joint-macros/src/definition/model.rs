//! The checked internal model of a joint definition.

use syn::{Attribute, Expr, Ident, Visibility};

use super::errors::Errors;
use super::parse::{Item, JointInput};
use crate::kinematics::Capability;

pub struct MarkerDecl {
    pub name: Ident,
    pub capability: Capability,
}

/// The shape of a run-time parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamKind {
    Scalar,
    Vector,
    Matrix,
}

impl ParamKind {
    /// Number of f64 values.
    pub fn len(self) -> usize {
        match self {
            ParamKind::Scalar => 1,
            ParamKind::Vector => 3,
            ParamKind::Matrix => 9,
        }
    }
}

pub struct ParamDecl {
    pub name: Ident,
    pub kind: ParamKind,
}

pub struct Axis {
    pub name: Ident,
    /// Default of the run-time mask (`constrainedAxes`): true = constrained.
    pub constrained: bool,
}

pub struct JointModel {
    pub attrs: Vec<Attribute>,
    pub vis: Visibility,
    pub name: Ident,
    pub markers: Vec<MarkerDecl>,
    pub params: Vec<ParamDecl>,
    pub axes: Vec<Axis>,
    pub position: Expr,
    pub velocity: Expr,
}

impl JointModel {
    /// Check the parsed definition, reporting every problem into `errors`. Returns `None` only
    /// if the model is too broken to lower.
    pub fn from_input(input: JointInput, errors: &mut Errors) -> Option<JointModel> {
        let mut markers: Vec<MarkerDecl> = Vec::new();
        let mut params: Vec<ParamDecl> = Vec::new();
        let mut axes: Option<Vec<Axis>> = None;
        let mut position: Option<Expr> = None;
        let mut velocity: Option<Expr> = None;
        for item in input.items {
            match item {
                Item::Marker { name, capability } => {
                    let cap = match capability.to_string().as_str() {
                        "Position" => Capability::Position,
                        "Rigid" => Capability::Rigid,
                        _ => {
                            errors.at(
                                &capability,
                                format!(
                                    "unknown marker capability `{capability}`: expected `Position` or `Rigid`"
                                ),
                            );
                            // keep the marker (as Rigid) so that this is the only error
                            Capability::Rigid
                        }
                    };
                    if markers.iter().any(|m| m.name == name)
                        || params.iter().any(|p| p.name == name)
                    {
                        errors.at(&name, format!("duplicate marker name `{name}`"));
                    }
                    // a duplicate is kept too: one error, not a cascade about the marker count
                    markers.push(MarkerDecl {
                        name,
                        capability: cap,
                    });
                }
                Item::Param { name, kind } => {
                    let k = match kind.to_string().as_str() {
                        "scalar" => Some(ParamKind::Scalar),
                        "vector" => Some(ParamKind::Vector),
                        "matrix" => Some(ParamKind::Matrix),
                        _ => {
                            errors.at(
                                &kind,
                                format!("unknown parameter type `{kind}`: expected `scalar`, `vector` or `matrix`"),
                            );
                            // keep it (as a vector) so that its uses add no further errors
                            Some(ParamKind::Vector)
                        }
                    };
                    let taken = params.iter().any(|p| p.name == name)
                        || markers.iter().any(|m| m.name == name);
                    if taken {
                        errors.at(&name, format!("duplicate name `{name}`"));
                    } else if let Some(kind) = k {
                        params.push(ParamDecl { name, kind });
                    }
                }
                Item::Axes {
                    span_token,
                    axes: list,
                } => {
                    if axes.is_some() {
                        errors.at(span_token, "`axes` is given twice");
                        continue;
                    }
                    if list.is_empty() {
                        errors.at(span_token, "a joint needs at least one residual axis");
                    }
                    let mut out: Vec<Axis> = Vec::new();
                    for a in list {
                        if out.iter().any(|o| o.name == a.name) {
                            // reported, but kept: the row count stays what was written
                            errors.at(&a.name, format!("duplicate axis name `{}`", a.name));
                        }
                        let constrained = match &a.default {
                            None => true,
                            Some(lit) => match lit.base10_parse::<u8>() {
                                Ok(1) => true,
                                Ok(0) => false,
                                _ => {
                                    errors
                                        .at(lit, "an axis default is 0 (free) or 1 (constrained)");
                                    true
                                }
                            },
                        };
                        out.push(Axis {
                            name: a.name,
                            constrained,
                        });
                    }
                    axes = Some(out);
                }
                Item::Position { token, expr } => {
                    if position.replace(expr).is_some() {
                        errors.at(token, "the position-level residual is given twice");
                    }
                }
                Item::Velocity { token, expr } => {
                    if velocity.replace(expr).is_some() {
                        errors.at(token, "the velocity-level residual is given twice");
                    }
                }
            }
        }
        if markers.len() != 2 {
            errors.at(
                &input.name,
                format!(
                    "a joint connects exactly two markers; `{}` declares {}",
                    input.name,
                    markers.len()
                ),
            );
        }
        let Some(axes) = axes else {
            errors.at(
                &input.name,
                "missing `axes [...]`: the residual rows of the joint",
            );
            return None;
        };
        let Some(position) = position else {
            errors.at(
                &input.name,
                "missing `position = ...;`: the position-level residual",
            );
            return None;
        };
        let Some(velocity) = velocity else {
            errors.at(
                &input.name,
                "missing `velocity = ...;`: the velocity-level residual",
            );
            return None;
        };
        if markers.len() != 2 {
            return None;
        }
        Some(JointModel {
            attrs: input.attrs,
            vis: input.vis,
            name: input.name,
            markers,
            params,
            axes,
            position,
            velocity,
        })
    }
}
