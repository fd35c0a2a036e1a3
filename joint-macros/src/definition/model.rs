//! The internal model of a joint definition, built from the parsed items with the checks that
//! need no lowering (the name checks are in `check`).

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Attribute, Expr, Ident, Visibility};

use super::errors::Errors;
pub use super::parse::DefinitionKind;
use super::parse::{FunctionDef, Item, JointInput};
use crate::kinematics::{Capability, MarkerKind};

pub struct MarkerDecl {
    pub name: Ident,
    pub capability: Capability,
    /// The marker kinds to generate unrolled pairings for (`None`: none, the marker-level form
    /// serves every kind).
    pub kinds: Option<Vec<MarkerKind>>,
}

impl MarkerDecl {
    /// Whether unrolled pairings are generated for marker kind `kind` on this marker.
    pub fn accepts(&self, kind: MarkerKind) -> bool {
        kind.provides(self.capability) && self.kinds.as_ref().is_some_and(|k| k.contains(&kind))
    }
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
    /// The slot of a state (`state NAME = …;`, its value at the last converged step): a scalar
    /// after every parameter in the flat layout, read by `last(NAME)` only.
    pub state: bool,
}

pub struct Axis {
    pub name: Ident,
    /// Default of the run-time mask (`constrainedAxes`): true = constrained.
    pub constrained: bool,
}

/// `let NAME = EXPR;`, or `state NAME = EXPR;` (`state`: its value is kept between steps).
pub struct Binding {
    pub name: Ident,
    pub expr: Expr,
    pub state: bool,
}

/// `output NAME = EXPR;`
pub struct OutputDecl {
    pub name: Ident,
    pub expr: Expr,
}

pub struct JointModel {
    pub attrs: Vec<Attribute>,
    pub vis: Visibility,
    /// A joint (constraint rows) or a force element.
    pub kind: DefinitionKind,
    pub name: Ident,
    /// Path of the `joint_core` crate in the generated code.
    pub core: TokenStream,
    pub markers: Vec<MarkerDecl>,
    pub params: Vec<ParamDecl>,
    pub axes: Vec<Axis>,
    /// The functions the joint sees: the input's shared ones, then its own.
    pub functions: Vec<FunctionDef>,
    /// `let` bindings, in definition order (each sees the ones before it).
    pub bindings: Vec<Binding>,
    /// The position level; `None`: the rows are written at velocity level only.
    pub position: Option<Expr>,
    /// The hand-written velocity level; `None`: derived from the position level.
    pub velocity: Option<Expr>,
    pub outputs: Vec<OutputDecl>,
    /// Whether ∂(C_q v)/∂q and ∂(C_qᵀλ)/∂q are generated (`second_order;`).
    pub second_order: bool,
    /// A force element's force (`force = …;`); `None` for a joint.
    pub force: Option<Expr>,
    /// A force element's torque (`torque = …;`), if it has one.
    pub torque: Option<Expr>,
}

/// `state NAME = angle(y, x);` is `state NAME = unwrap_angle(atan2(y, x), last(NAME));`: the
/// angle of (x, y) taken within π of the last converged step's value, continuous over turns.
fn state_expression(name: &Ident, expr: Expr) -> Expr {
    if let Expr::Call(call) = &expr
        && let Expr::Path(f) = &*call.func
        && f.path.is_ident("angle")
        && call.args.len() == 2
    {
        let (y, x) = (&call.args[0], &call.args[1]);
        let span = f.path.segments[0].ident.span();
        let unwrap = Ident::new("unwrap_angle", span);
        let atan2 = Ident::new("atan2", span);
        let last = Ident::new("last", span);
        return syn::parse_quote!(#unwrap(#atan2(#y, #x), #last(#name)));
    }
    expr
}

/// The states' slots after every parameter, and each state a named output of its own.
fn add_states(
    states: &[Ident],
    params: &mut Vec<ParamDecl>,
    outputs: &mut Vec<OutputDecl>,
    errors: &mut Errors,
) {
    for name in states {
        if let Some(o) = outputs.iter().find(|o| o.name == *name) {
            errors.at(
                &o.name,
                format!(
                    "`{name}` is a state, which is an output of its own: leave out this `output`"
                ),
            );
            continue;
        }
        params.push(ParamDecl {
            name: name.clone(),
            kind: ParamKind::Scalar,
            state: true,
        });
        outputs.push(OutputDecl {
            name: name.clone(),
            expr: syn::parse_quote!(#name),
        });
    }
}

impl JointModel {
    /// Check the parsed definition, reporting every problem into `errors`. Returns `None` only
    /// if the model is too broken to lower.
    pub fn from_input(
        input: JointInput,
        shared: &[FunctionDef],
        core: Option<TokenStream>,
        errors: &mut Errors,
    ) -> Option<JointModel> {
        let mut markers: Vec<MarkerDecl> = Vec::new();
        let mut params: Vec<ParamDecl> = Vec::new();
        let mut axes: Option<Vec<Axis>> = None;
        let mut functions: Vec<FunctionDef> = shared.to_vec();
        let mut bindings: Vec<Binding> = Vec::new();
        let mut position: Option<Expr> = None;
        let mut velocity: Option<Expr> = None;
        let mut outputs: Vec<OutputDecl> = Vec::new();
        let mut second_order = false;
        let mut second_order_token = None;
        let mut force: Option<Expr> = None;
        let mut torque: Option<(super::parse::kw::torque, Expr)> = None;
        let is_force = input.kind == DefinitionKind::Force;
        // the first residual or output item: `let` bindings come before it
        let mut residual_seen = false;
        let mut states: Vec<Ident> = Vec::new();
        for item in input.items {
            match item {
                Item::Marker {
                    name,
                    capability,
                    kinds,
                } => {
                    let cap = match capability.to_string().as_str() {
                        "Position" => Capability::Position,
                        "Rigid" => Capability::Rigid,
                        "Coordinate" => Capability::Coordinate,
                        _ => {
                            errors.at(
                                &capability,
                                format!(
                                    "unknown marker capability `{capability}`: expected `Position`, `Rigid`, `Coordinate` or `Coordinates` (a whole coordinate vector)"
                                ),
                            );
                            // keep the marker (as Rigid) so that this is the only error
                            Capability::Rigid
                        }
                    };
                    let kinds = kinds.map(|list| match list {
                        super::parse::KindList::All(_) => MarkerKind::ALL
                            .into_iter()
                            .filter(|k| k.provides(cap))
                            .collect(),
                        super::parse::KindList::Listed(list) => {
                            marker_kinds(&list, cap, &capability, errors)
                        }
                    });
                    if markers.iter().any(|m| m.name == name)
                        || params.iter().any(|p| p.name == name)
                    {
                        errors.at(&name, format!("duplicate marker name `{name}`"));
                    }
                    // a duplicate is kept too: one error, not a cascade about the marker count
                    markers.push(MarkerDecl {
                        name,
                        capability: cap,
                        kinds,
                    });
                }
                Item::Param { name, kind } => {
                    let k = match kind.to_string().as_str() {
                        "scalar" => ParamKind::Scalar,
                        "vector" => ParamKind::Vector,
                        "matrix" => ParamKind::Matrix,
                        _ => {
                            errors.at(
                                &kind,
                                format!("unknown parameter type `{kind}`: expected `scalar`, `vector` or `matrix` (`dvector` and `dmatrix` are for joints on `Coordinates` markers)"),
                            );
                            // keep it (as a vector) so that its uses add no further errors
                            ParamKind::Vector
                        }
                    };
                    let taken = params.iter().any(|p| p.name == name)
                        || markers.iter().any(|m| m.name == name);
                    if taken {
                        errors.at(&name, format!("duplicate name `{name}`"));
                    } else {
                        params.push(ParamDecl {
                            name,
                            kind: k,
                            state: false,
                        });
                    }
                }
                Item::Axes {
                    span_token,
                    axes: list,
                } => {
                    if is_force {
                        errors.at(
                            span_token,
                            "a force element has no residual rows: leave out `axes`",
                        );
                        continue;
                    }
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
                Item::SecondOrder { token } if is_force => errors.at(
                    token,
                    "`second_order` is for joints; a force element's derivatives are always generated",
                ),
                Item::Position { token, .. } if is_force => errors.at(
                    token,
                    "a force element has no residual: write `force = …;` (the force on marker 0)",
                ),
                Item::Velocity { token, .. } if is_force => errors.at(
                    token,
                    "a force element has no residual: write `force = …;` (the force on marker 0)",
                ),
                Item::SecondOrder { token } => {
                    if std::mem::replace(&mut second_order, true) {
                        errors.at(token, "`second_order` is given twice");
                    }
                    second_order_token = Some(token);
                }
                Item::Function(f) => functions.push(f),
                Item::Let { token, name, expr } => {
                    if residual_seen {
                        errors.at(
                            token,
                            "`let` bindings come before `position`, `velocity` and `output`",
                        );
                    }
                    bindings.push(Binding {
                        name,
                        expr,
                        state: false,
                    });
                }
                Item::State { token, name, expr } => {
                    if residual_seen {
                        errors.at(
                            token,
                            "`state` bindings come before `position`, `velocity`, `force` and `output`",
                        );
                    }
                    if states.contains(&name) {
                        errors.at(&name, format!("duplicate state `{name}`"));
                        continue;
                    }
                    states.push(name.clone());
                    let expr = state_expression(&name, expr);
                    bindings.push(Binding {
                        name,
                        expr,
                        state: true,
                    });
                }
                Item::Position { token, expr } => {
                    residual_seen = true;
                    if position.replace(expr).is_some() {
                        errors.at(token, "the position-level residual is given twice");
                    }
                }
                Item::Velocity { token, expr } => {
                    residual_seen = true;
                    if velocity.replace(expr).is_some() {
                        errors.at(token, "the velocity-level residual is given twice");
                    }
                }
                Item::Force { token, expr } => {
                    residual_seen = true;
                    if !is_force {
                        errors.at(
                            token,
                            "`force = …;` belongs to a force element (`pub force Name { … }`); a joint has `position` or `velocity` rows",
                        );
                    } else if force.replace(expr).is_some() {
                        errors.at(token, "the force is given twice");
                    }
                }
                Item::Torque { token, expr } => {
                    residual_seen = true;
                    if !is_force {
                        errors.at(
                            token,
                            "`torque = …;` belongs to a force element (`pub force Name { … }`)",
                        );
                    } else if torque.is_some() {
                        errors.at(token, "the torque is given twice");
                    } else {
                        torque = Some((token, expr));
                    }
                }
                Item::Output { token, name, expr } => {
                    residual_seen = true;
                    if outputs.iter().any(|o| o.name == name) {
                        errors.at(&name, format!("duplicate output name `{name}`"));
                    } else if !is_force
                        && ["force", "displacement", "velocity"].contains(&name.to_string().as_str())
                    {
                        errors.at(
                            &name,
                            format!("`{name}` is an output every joint has (λ per row, the position and velocity residuals); choose another name"),
                        );
                    } else if is_force
                        && ["force", "displacement", "velocity", "distance"]
                            .contains(&name.to_string().as_str())
                    {
                        errors.at(
                            &name,
                            format!("`{name}` is an output every force element has (f, Δp, Δv, |Δp|); choose another name"),
                        );
                    } else {
                        outputs.push(OutputDecl { name, expr });
                    }
                    let _ = token;
                }
            }
        }
        add_states(&states, &mut params, &mut outputs, errors);
        if markers.len() != 2 {
            let what = if is_force {
                "a force element"
            } else {
                "a joint"
            };
            errors.at(
                &input.name,
                format!(
                    "{what} connects exactly two markers; `{}` declares {}",
                    input.name,
                    markers.len()
                ),
            );
        }
        if is_force {
            for m in markers.iter().filter(|m| m.kinds.is_some()) {
                errors.at(
                    &m.name,
                    "a force element is evaluated at marker level, for every marker kind: leave out the list of kinds",
                );
            }
        } else if markers.len() == 2 && markers[0].kinds.is_some() != markers[1].kinds.is_some() {
            let unlisted = markers
                .iter()
                .find(|m| m.kinds.is_none())
                .expect("one of two");
            let cap = match unlisted.capability {
                Capability::Position => "Position",
                Capability::Rigid => "Rigid",
                Capability::Coordinate => "Coordinate",
            };
            errors.at(
                &unlisted.name,
                format!(
                    "unrolled pairings need both markers' kinds: list `{}`'s too (`{cap}(..)` for every kind), or leave out both lists for the marker-level form",
                    unlisted.name
                ),
            );
        }
        if is_force {
            let coordinates = markers
                .iter()
                .filter(|m| m.capability == Capability::Coordinate)
                .count();
            if coordinates == 1
                && let Some(m) = markers
                    .iter()
                    .find(|m| m.capability == Capability::Coordinate)
            {
                errors.at(
                    &m.name,
                    "a force element acts between two points (`Position` or `Rigid` markers) or between two coordinates (both `Coordinate`), not between a point and a coordinate",
                );
            }
            if let Some((token, _)) = &torque
                && let Some(m) = markers.iter().find(|m| m.capability != Capability::Rigid)
            {
                errors.at(
                    token,
                    format!(
                        "a torque acts between two `Rigid` markers (it enters through their rotation Jacobians); `{}` is declared `{:?}`",
                        m.name, m.capability
                    ),
                );
            }
            if force.is_none() {
                errors.at(
                    &input.name,
                    "missing `force = ...;`: the force on marker 0 (global, or a scalar between two coordinates; marker 1 receives its negative)",
                );
                return None;
            }
            if markers.len() != 2 {
                return None;
            }
            return Some(JointModel {
                attrs: input.attrs,
                vis: input.vis,
                kind: input.kind,
                name: input.name,
                core: core.unwrap_or_else(|| quote!(::joint_core)),
                markers,
                params,
                axes: Vec::new(),
                functions,
                bindings,
                position: None,
                velocity: None,
                outputs,
                second_order: false,
                force,
                torque: torque.map(|(_, e)| e),
            });
        }
        let Some(axes) = axes else {
            errors.at(
                &input.name,
                "missing `axes [...]`: the residual rows of the joint",
            );
            return None;
        };
        if position.is_none() && velocity.is_none() {
            errors.at(
                &input.name,
                "missing `position = ...;` (the position-level residual) or `velocity = ...;` alone (rows that exist only at velocity level)",
            );
            return None;
        }
        if position.is_none()
            && second_order
            && let Some(token) = &second_order_token
        {
            errors.at(
                token,
                "`second_order` needs a position level: rows written at velocity level have no ∂(C_q v)/∂q (their acceleration-level form is C·q̈ = 0, as in Exudyn)",
            );
        }
        if markers.len() != 2 {
            return None;
        }
        Some(JointModel {
            attrs: input.attrs,
            vis: input.vis,
            kind: input.kind,
            name: input.name,
            core: core.unwrap_or_else(|| quote!(::joint_core)),
            markers,
            params,
            axes,
            functions,
            bindings,
            position,
            velocity,
            outputs,
            second_order,
            force: None,
            torque: None,
        })
    }

    /// The level the rows are written at.
    pub fn level(&self) -> ResidualLevel {
        if self.position.is_some() {
            ResidualLevel::Position
        } else {
            ResidualLevel::Velocity
        }
    }

    /// The residual the rows are written as: the position level, or the velocity level of a
    /// joint written at velocity level (spans of row-level errors point at it).
    pub fn written(&self) -> &Expr {
        match (&self.position, &self.velocity) {
            (Some(p), _) => p,
            (None, Some(v)) => v,
            (None, None) => unreachable!("a model has a position or a velocity level"),
        }
    }
}

/// The level a joint's rows are written at (joint_core's `ResidualLevel`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResidualLevel {
    /// `position = …;` (with or without a hand-written velocity level).
    Position,
    /// `velocity = …;` alone.
    Velocity,
}

/// The kinds listed in `marker m: Capability(Kind, …)`, each checked against the capability.
fn marker_kinds(
    list: &[Ident],
    capability: Capability,
    capability_token: &Ident,
    errors: &mut Errors,
) -> Vec<MarkerKind> {
    let mut out = Vec::new();
    if list.is_empty() {
        errors.at(
            capability_token,
            "an empty list of marker kinds: leave out the parentheses for the marker-level form (any kind), or write `(..)` for every kind's unrolled pairings",
        );
    }
    for name in list {
        let Some(kind) = MarkerKind::ALL.into_iter().find(|k| *name == k.name()) else {
            let names: Vec<&str> = MarkerKind::ALL.iter().map(|k| k.name()).collect();
            errors.at(
                name,
                format!(
                    "unknown marker kind `{name}`: expected one of {}",
                    names.join(", ")
                ),
            );
            continue;
        };
        if !kind.provides(capability) {
            let why = match capability {
                Capability::Rigid => format!(
                    "marker kind `{name}` has no orientation, so it cannot be a `Rigid` marker"
                ),
                Capability::Position => format!(
                    "marker kind `{name}` gives a coordinate, not a position, so it cannot be a `Position` marker"
                ),
                Capability::Coordinate => format!(
                    "marker kind `{name}` gives a position, not a coordinate, so it cannot be a `Coordinate` marker"
                ),
            };
            errors.at(name, why);
            continue;
        }
        if out.contains(&kind) {
            errors.at(name, format!("marker kind `{name}` is listed twice"));
            continue;
        }
        out.push(kind);
    }
    out
}
