//! The internal model of a joint definition, built from the parsed items with the checks that
//! need no lowering (the name checks are in `check`).

use proc_macro2::TokenStream;
use syn::{Attribute, Expr, Ident, Visibility};

use super::errors::Errors;
pub use super::parse::DefinitionKind;
use super::parse::FunctionDef;
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
    /// Whether ∂g/∂p by the joint's and the markers' parameters are generated
    /// (`parameter_derivatives;`; position level only).
    pub parameter_derivatives: bool,
    /// A force element's force (`force = …;`); `None` for a joint.
    pub force: Option<Expr>,
    /// A force element's torque (`torque = …;`), if it has one.
    pub torque: Option<Expr>,
}

/// `state NAME = angle(y, x);` is `state NAME = unwrap_angle(atan2(y, x), last(NAME));`: the
/// angle of (x, y) taken within π of the last converged step's value, continuous over turns.
pub(super) fn state_expression(name: &Ident, expr: Expr) -> Expr {
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
pub(super) fn add_states(
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
pub(super) fn marker_kinds(
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
