//! Names: locals, `let` bindings, parameters, constants, and the markers' quantities
//! (`m0.position`, …) with the capability each needs.

use syn::{Expr, Lit};

use super::{Local, Lowerer, RateRule};
use crate::definition::errors::Errors;
use crate::definition::value::{Dual, Rate, Value};
use crate::kinematics::Capability;
use crate::symbolic::vector;

impl Lowerer<'_> {
    /// An integer constant: a literal, or a name bound to one (a function's parameter).
    pub(super) fn constant_index(&mut self, e: &Expr, errors: &mut Errors) -> Option<usize> {
        if let Expr::Lit(syn::ExprLit {
            lit: Lit::Int(i), ..
        }) = e
        {
            return match i.base10_parse() {
                Ok(i) => Some(i),
                Err(err) => {
                    errors.push(err);
                    None
                }
            };
        }
        let d = self.lower(e, errors)?;
        if let Value::Scalar(s) = d.value
            && let Some(c) = self.g.as_const(s)
            && c >= 0.0
            && c.fract() == 0.0
            && c < 1e6
        {
            return Some(c as usize);
        }
        errors.at(e, "an index must be an integer constant");
        None
    }

    pub(super) fn name(&mut self, p: &syn::ExprPath, errors: &mut Errors) -> Option<Dual> {
        let Some(ident) = p.path.get_ident() else {
            errors.at(
                p,
                "expected a parameter, a binding or a marker quantity (m0.position, …)",
            );
            return None;
        };
        let name = ident.to_string();
        match self.lookup_local(&name) {
            Some(Local::Value(v)) => return Some(v),
            Some(Local::Marker(_)) => {
                errors.at(
                    ident,
                    format!(
                        "`{ident}` is a marker; use one of its quantities, e.g. `{ident}.position`"
                    ),
                );
                return None;
            }
            None => {}
        }
        let model = self.model;
        if let Some(i) = model.bindings[..self.visible]
            .iter()
            .rposition(|b| b.name == *ident)
        {
            let mut scratch = Errors::new();
            // a failed binding was reported where it is defined: no second error here
            return self.binding(i, &mut scratch);
        }
        if let Some((_, v)) = self.params.iter().find(|(n, _)| *n == name) {
            return Some(Dual::constant(v.clone()));
        }
        let hint = if model.markers.iter().any(|m| m.name == *ident) {
            format!("`{ident}` is a marker; use one of its quantities, e.g. `{ident}.position`")
        } else if model.bindings[self.visible..]
            .iter()
            .any(|b| b.name == *ident)
        {
            format!("`{ident}` is bound later: a `let` binding sees only the ones before it")
        } else {
            let mut names: Vec<String> = self.params.iter().map(|(n, _)| n.clone()).collect();
            names.extend(
                model.bindings[..self.visible]
                    .iter()
                    .map(|b| b.name.to_string()),
            );
            if names.is_empty() {
                format!(
                    "unknown name `{ident}`: the joint declares no parameters or bindings (`param {ident}: vector;`, `let {ident} = …;`)"
                )
            } else {
                format!(
                    "unknown name `{ident}`: the joint's parameters and bindings are {}",
                    names.join(", ")
                )
            }
        };
        errors.at(ident, hint);
        None
    }

    /// The marker a `base.quantity` expression names.
    pub(super) fn marker_of(&self, base: &Expr, errors: &mut Errors) -> Option<usize> {
        let base = match base {
            Expr::Paren(p) => &*p.expr,
            Expr::Group(p) => &*p.expr,
            other => other,
        };
        let Expr::Path(path) = base else {
            errors.at(base, "expected a marker name before `.`");
            return None;
        };
        let Some(ident) = path.path.get_ident() else {
            errors.at(base, "expected a marker name before `.`");
            return None;
        };
        if let Some(Local::Marker(i)) = self.lookup_local(&ident.to_string()) {
            return Some(i);
        }
        match self.model.markers.iter().position(|m| m.name == *ident) {
            Some(i) => Some(i),
            None => {
                let names: Vec<String> = self
                    .model
                    .markers
                    .iter()
                    .map(|m| m.name.to_string())
                    .collect();
                errors.at(
                    ident,
                    format!(
                        "unknown marker `{ident}`: the joint's markers are {}",
                        names.join(", ")
                    ),
                );
                None
            }
        }
    }

    pub(super) fn quantity(&mut self, f: &syn::ExprField, errors: &mut Errors) -> Option<Dual> {
        let index = self.marker_of(&f.base, errors)?;
        let syn::Member::Named(q) = &f.member else {
            errors.at(&f.member, "expected a marker quantity name");
            return None;
        };
        let decl = &self.model.markers[index];
        let kin = &self.kinematics[index];
        let capability = decl.capability;
        let needs = |wanted: &[Capability], errors: &mut Errors| {
            if wanted.contains(&capability) {
                return true;
            }
            let declared = match capability {
                Capability::Position => "Position",
                Capability::Rigid => "Rigid",
                Capability::Coordinate => "Coordinate",
            };
            let needed = match wanted {
                [Capability::Coordinate] => "a Coordinate marker",
                [Capability::Rigid] => "a Rigid marker",
                _ => "a Position or Rigid marker",
            };
            errors.at(
                q,
                format!(
                    "`{q}` needs {needed}, but `{}` is declared `{declared}`",
                    decl.name
                ),
            );
            false
        };
        let spatial = [Capability::Position, Capability::Rigid];
        let rigid_only = |errors: &mut Errors| needs(&[Capability::Rigid], errors);
        let rates = self.rates;
        // Velocity quantities have no rate: a position level that is differentiated reads none
        // (`check` reports that), and a velocity level is never differentiated.
        match q.to_string().as_str() {
            "position" => needs(&spatial, errors).then_some(Dual {
                value: Value::Vector(kin.position),
                rate: if rates {
                    Rate::Vector(kin.velocity)
                } else {
                    Rate::Zero
                },
            }),
            "velocity" => {
                needs(&spatial, errors).then(|| Dual::constant(Value::Vector(kin.velocity)))
            }
            "coordinate" => needs(&[Capability::Coordinate], errors).then(|| {
                let (value, velocity) = kin.coordinate.expect("coordinate kind");
                Dual {
                    value: Value::Scalar(value),
                    rate: if rates {
                        Rate::Scalar(velocity)
                    } else {
                        Rate::Zero
                    },
                }
            }),
            "coordinate_velocity" => needs(&[Capability::Coordinate], errors)
                .then(|| Dual::constant(Value::Scalar(kin.coordinate.expect("coordinate kind").1))),
            "rotation" => rigid_only(errors).then(|| {
                let a = kin.rotation.expect("rigid kind");
                Dual {
                    value: Value::Matrix(a),
                    // Ȧ = A·skew(ω̄)
                    rate: if rates {
                        Rate::Matrix(match self.rule {
                            // Ȧ = A·skew(ω̄)
                            RateRule::Local => crate::definition::value::MatrixRate::Turning {
                                left: Some(a),
                                omega: kin.angular_velocity_local.expect("rigid kind"),
                                right: None,
                                transposed: false,
                            },
                            // Ȧ = skew(ω)·A
                            RateRule::Global => crate::definition::value::MatrixRate::Turning {
                                left: None,
                                omega: kin.angular_velocity.expect("rigid kind"),
                                right: Some(a),
                                transposed: false,
                            },
                        })
                    } else {
                        Rate::Zero
                    },
                }
            }),
            // The global angular velocity as Exudyn's markers give it: the value A·ω̄ (in
            // residuals and outputs), and G·θ̇ in the rows whose derivative by θ̇ is the
            // Jacobian, whose rotational columns are G (they agree for orthonormal A).
            "angular_velocity" => rigid_only(errors).then(|| {
                let omega = match (self.rates, self.rule) {
                    (false, RateRule::Local) => vector::mat_vec(
                        self.g,
                        &kin.rotation.expect("rigid kind"),
                        kin.angular_velocity_local.expect("rigid kind"),
                    ),
                    _ => kin.angular_velocity.expect("rigid kind"),
                };
                Dual::constant(Value::Vector(omega))
            }),
            "angular_velocity_local" => rigid_only(errors).then(|| {
                Dual::constant(Value::Vector(
                    kin.angular_velocity_local.expect("rigid kind"),
                ))
            }),
            other => {
                errors.at(
                    q,
                    format!(
                        "unknown marker quantity `{other}`: expected position, velocity, rotation, angular_velocity or angular_velocity_local (Position and Rigid markers), or coordinate and coordinate_velocity (Coordinate markers)"
                    ),
                );
                None
            }
        }
    }
}
