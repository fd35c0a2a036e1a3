//! What a definition's items give, collected in order and checked item by item (the checks
//! across items are the model's, `model.rs`).

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Expr, Ident};

use super::errors::Errors;
use super::model::{
    Axis, Binding, DefinitionKind, JointModel, MarkerDecl, OutputDecl, ParamDecl, ParamKind,
    add_states, marker_kinds, state_expression,
};
use super::parse::{AxisDecl, FunctionDef, Item, JointInput, KindList, kw};
use crate::kinematics::{Capability, MarkerKind};

/// The items of one definition, as they are read.
pub(super) struct Collected {
    pub(super) is_force: bool,
    pub(super) markers: Vec<MarkerDecl>,
    pub(super) params: Vec<ParamDecl>,
    pub(super) axes: Option<Vec<Axis>>,
    pub(super) functions: Vec<FunctionDef>,
    pub(super) bindings: Vec<Binding>,
    pub(super) position: Option<Expr>,
    pub(super) velocity: Option<Expr>,
    pub(super) outputs: Vec<OutputDecl>,
    pub(super) second_order: bool,
    pub(super) second_order_token: Option<kw::second_order>,
    pub(super) parameter_derivatives: Option<kw::parameter_derivatives>,
    pub(super) force: Option<Expr>,
    pub(super) torque: Option<(kw::torque, Expr)>,
    /// The first residual or output item was read: `let` bindings come before it.
    residual_seen: bool,
    pub(super) states: Vec<Ident>,
}

impl Collected {
    /// Nothing read yet; the shared functions (`fn` items outside the definition) first.
    pub(super) fn new(shared: &[FunctionDef], is_force: bool) -> Self {
        Collected {
            is_force,
            markers: Vec::new(),
            params: Vec::new(),
            axes: None,
            functions: shared.to_vec(),
            bindings: Vec::new(),
            position: None,
            velocity: None,
            outputs: Vec::new(),
            second_order: false,
            second_order_token: None,
            parameter_derivatives: None,
            force: None,
            torque: None,
            residual_seen: false,
            states: Vec::new(),
        }
    }

    /// One item, checked against those before it.
    pub(super) fn item(&mut self, item: Item, errors: &mut Errors) {
        match item {
            Item::Marker {
                name,
                capability,
                kinds,
            } => self.marker(name, capability, kinds, errors),
            Item::Param { name, kind } => self.param(name, kind, errors),
            Item::Axes {
                span_token,
                axes: list,
            } => self.axes(span_token, list, errors),
            Item::SecondOrder { token } if self.is_force => errors.at(
                token,
                "`second_order` is for joints; a force element's derivatives are always generated",
            ),
            Item::ParameterDerivatives { token } if self.is_force => errors.at(
                token,
                "`parameter_derivatives` is for joints: a force element has no residual to differentiate",
            ),
            Item::ParameterDerivatives { token } => {
                if self.parameter_derivatives.replace(token).is_some() {
                    errors.at(token, "`parameter_derivatives` is given twice");
                }
            }
            Item::Position { token, .. } if self.is_force => errors.at(
                token,
                "a force element has no residual: write `force = …;` (the force on marker 0)",
            ),
            Item::Velocity { token, .. } if self.is_force => errors.at(
                token,
                "a force element has no residual: write `force = …;` (the force on marker 0)",
            ),
            Item::SecondOrder { token } => {
                if std::mem::replace(&mut self.second_order, true) {
                    errors.at(token, "`second_order` is given twice");
                }
                self.second_order_token = Some(token);
            }
            Item::Function(f) => self.functions.push(f),
            Item::Let { token, name, expr } => {
                if self.residual_seen {
                    errors.at(
                        token,
                        "`let` bindings come before `position`, `velocity` and `output`",
                    );
                }
                self.bindings.push(Binding {
                    name,
                    expr,
                    state: false,
                });
            }
            Item::State { token, name, expr } => {
                if self.residual_seen {
                    errors.at(
                        token,
                        "`state` bindings come before `position`, `velocity`, `force` and `output`",
                    );
                }
                if self.states.contains(&name) {
                    errors.at(&name, format!("duplicate state `{name}`"));
                    return;
                }
                self.states.push(name.clone());
                let expr = state_expression(&name, expr);
                self.bindings.push(Binding {
                    name,
                    expr,
                    state: true,
                });
            }
            Item::Position { token, expr } => {
                self.residual_seen = true;
                if self.position.replace(expr).is_some() {
                    errors.at(token, "the position-level residual is given twice");
                }
            }
            Item::Velocity { token, expr } => {
                self.residual_seen = true;
                if self.velocity.replace(expr).is_some() {
                    errors.at(token, "the velocity-level residual is given twice");
                }
            }
            Item::Force { token, expr } => {
                self.residual_seen = true;
                if !self.is_force {
                    errors.at(
                        token,
                        "`force = …;` belongs to a force element (`pub force Name { … }`); a joint has `position` or `velocity` rows",
                    );
                } else if self.force.replace(expr).is_some() {
                    errors.at(token, "the force is given twice");
                }
            }
            Item::Torque { token, expr } => {
                self.residual_seen = true;
                if !self.is_force {
                    errors.at(
                        token,
                        "`torque = …;` belongs to a force element (`pub force Name { … }`)",
                    );
                } else if self.torque.is_some() {
                    errors.at(token, "the torque is given twice");
                } else {
                    self.torque = Some((token, expr));
                }
            }
            Item::Output { token, name, expr } => {
                self.residual_seen = true;
                self.output(name, expr, errors);
                let _ = token;
            }
        }
    }

    /// `marker NAME: Capability(kinds…);`
    fn marker(
        &mut self,
        name: Ident,
        capability: Ident,
        kinds: Option<KindList>,
        errors: &mut Errors,
    ) {
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
            super::parse::KindList::Listed(list) => marker_kinds(&list, cap, &capability, errors),
        });
        if self.markers.iter().any(|m| m.name == name) || self.params.iter().any(|p| p.name == name)
        {
            errors.at(&name, format!("duplicate marker name `{name}`"));
        }
        // a duplicate is kept too: one error, not a cascade about the marker count
        self.markers.push(MarkerDecl {
            name,
            capability: cap,
            kinds,
        });
    }

    /// `param NAME: scalar | vector | matrix;`
    fn param(&mut self, name: Ident, kind: Ident, errors: &mut Errors) {
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
        let taken = self.params.iter().any(|p| p.name == name)
            || self.markers.iter().any(|m| m.name == name);
        if taken {
            errors.at(&name, format!("duplicate name `{name}`"));
        } else {
            self.params.push(ParamDecl {
                name,
                kind: k,
                state: false,
            });
        }
    }

    /// `axes [NAME (= 0 | 1), …];`
    fn axes(&mut self, span_token: kw::axes, list: Vec<AxisDecl>, errors: &mut Errors) {
        if self.is_force {
            errors.at(
                span_token,
                "a force element has no residual rows: leave out `axes`",
            );
            return;
        }
        if self.axes.is_some() {
            errors.at(span_token, "`axes` is given twice");
            return;
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
                        errors.at(lit, "an axis default is 0 (free) or 1 (constrained)");
                        true
                    }
                },
            };
            out.push(Axis {
                name: a.name,
                constrained,
            });
        }
        self.axes = Some(out);
    }

    /// `output NAME = …;`: a name of its own
    fn output(&mut self, name: Ident, expr: Expr, errors: &mut Errors) {
        if self.outputs.iter().any(|o| o.name == name) {
            errors.at(&name, format!("duplicate output name `{name}`"));
        } else if !self.is_force
            && ["force", "displacement", "velocity"].contains(&name.to_string().as_str())
        {
            errors.at(
                &name,
                format!("`{name}` is an output every joint has (λ per row, the position and velocity residuals); choose another name"),
            );
        } else if self.is_force
            && ["force", "displacement", "velocity", "distance"]
                .contains(&name.to_string().as_str())
        {
            errors.at(
                &name,
                format!("`{name}` is an output every force element has (f, Δp, Δv, |Δp|); choose another name"),
            );
        } else {
            self.outputs.push(OutputDecl { name, expr });
        }
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
        let mut c = Collected::new(shared, input.kind == DefinitionKind::Force);
        for item in input.items {
            c.item(item, errors);
        }
        let Collected {
            is_force,
            markers,
            mut params,
            axes,
            functions,
            bindings,
            position,
            velocity,
            mut outputs,
            second_order,
            second_order_token,
            parameter_derivatives,
            force,
            torque,
            states,
            ..
        } = c;
        add_states(&states, &mut params, &mut outputs, errors);
        check_marker_lists(&input.name, is_force, &markers, errors);
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
                parameter_derivatives: false,
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
        if position.is_none()
            && let Some(token) = &parameter_derivatives
        {
            errors.at(
                token,
                "`parameter_derivatives` needs a position level: they are ∂g/∂p of the position-level residual g",
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
            parameter_derivatives: parameter_derivatives.is_some(),
            force: None,
            torque: None,
        })
    }
}

/// Two markers; a force element's without kinds (it is evaluated at marker level), a joint's
/// with both lists of kinds or neither.
fn check_marker_lists(name: &Ident, is_force: bool, markers: &[MarkerDecl], errors: &mut Errors) {
    if markers.len() != 2 {
        let what = if is_force {
            "a force element"
        } else {
            "a joint"
        };
        errors.at(
            name,
            format!(
                "{what} connects exactly two markers; `{}` declares {}",
                name,
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
}
