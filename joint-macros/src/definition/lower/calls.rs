//! Calls: built-in functions (`dot`, `cross`, `norm`, …), matrix columns, and the
//! definition's own functions, inlined with a depth limit.

use syn::Expr;

use super::{Local, Lowerer, MAX_CALL_DEPTH};
use crate::definition::check::BUILT_IN_FUNCTIONS;
use crate::definition::errors::Errors;
use crate::definition::value::{Dual, Value, column, rates};
use crate::symbolic::vector;

impl<'a> Lowerer<'a> {
    pub(super) fn call(&mut self, c: &syn::ExprCall, errors: &mut Errors) -> Option<Dual> {
        let Expr::Path(p) = &*c.func else {
            errors.at(&c.func, "expected a function name");
            return None;
        };
        let Some(name) = p.path.get_ident() else {
            errors.at(&c.func, "expected a function name");
            return None;
        };
        let model = self.model;
        if let Some(f) = model.functions.iter().rev().find(|f| f.name == *name) {
            return self.user_call(f, c, errors);
        }
        if name == "col" {
            return self.column_call(c, errors);
        }
        if name == "last" {
            return self.last_call(c, errors);
        }
        let mut args = Vec::new();
        for a in &c.args {
            args.push(self.lower(a, errors));
        }
        if args.iter().any(Option::is_none) {
            return None;
        }
        let args: Vec<Dual> = args.into_iter().map(Option::unwrap).collect();
        self.built_in(name, &args, c, errors)
    }

    /// `col(M, k)`: column k of a matrix.
    pub(super) fn column_call(&mut self, c: &syn::ExprCall, errors: &mut Errors) -> Option<Dual> {
        if c.args.len() != 2 {
            errors.at(
                c,
                format!("`col` takes 2 argument(s), found {}", c.args.len()),
            );
            return None;
        }
        let m = self.lower(&c.args[0], errors);
        let k = self.constant_index(&c.args[1], errors);
        let (m, k) = (m?, k?);
        let Value::Matrix(mv) = m.value else {
            errors.at(
                c,
                format!("`col` takes a matrix, found {}", m.value.type_name()),
            );
            return None;
        };
        if k >= 3 {
            errors.at(
                &c.args[1],
                format!("column {k} out of range for a 3×3 matrix"),
            );
            return None;
        }
        let rate = rates::column(self.g, &m.rate, k);
        Some(Dual {
            value: Value::Vector(column(&mv, k)),
            rate,
        })
    }

    /// `last(NAME)`: state NAME's value at the last converged step, a constant of the step
    /// (the slot after the parameters in the kernels' slice).
    fn last_call(&mut self, c: &syn::ExprCall, errors: &mut Errors) -> Option<Dual> {
        let state = match c.args.first() {
            Some(Expr::Path(p)) if c.args.len() == 1 => p.path.get_ident().and_then(|ident| {
                self.model
                    .params
                    .iter()
                    .find(|p| p.state && p.name == *ident)
            }),
            _ => None,
        };
        let Some(state) = state else {
            let states: Vec<String> = self
                .model
                .params
                .iter()
                .filter(|p| p.state)
                .map(|p| format!("`{}`", p.name))
                .collect();
            let which = if states.is_empty() {
                "the definition declares none (`state NAME = …;`)".to_owned()
            } else {
                format!("the definition's states are {}", states.join(", "))
            };
            errors.at(
                c,
                format!("`last` takes the name of a state: its value at the last converged step; {which}"),
            );
            return None;
        };
        let var = super::parameter_variable(&state.name.to_string(), state.kind, 0);
        Some(Dual::constant(Value::Scalar(self.g.var(&var))))
    }

    /// A call of one of the definition's functions: its body, lowered with its parameters bound
    /// to the arguments (a bare marker name binds the marker itself).
    pub(super) fn user_call(
        &mut self,
        f: &'a crate::definition::parse::FunctionDef,
        c: &syn::ExprCall,
        errors: &mut Errors,
    ) -> Option<Dual> {
        if c.args.len() != f.params.len() {
            errors.at(
                c,
                format!(
                    "`{}` takes {} argument(s), found {}",
                    f.name,
                    f.params.len(),
                    c.args.len()
                ),
            );
            return None;
        }
        if self.stack.iter().any(|n| f.name == n) {
            // once per function, not once per recursive call
            if !self.called.insert(format!("recursion {}", f.name)) {
                return None;
            }
            errors.at(
                &c.func,
                format!(
                    "`{}` calls itself (through {}): functions are expanded where they are called, so they cannot recurse",
                    f.name,
                    self.stack
                        .iter()
                        .map(|n| format!("`{n}`"))
                        .collect::<Vec<_>>()
                        .join(" → ")
                ),
            );
            return None;
        }
        if self.frames.len() >= MAX_CALL_DEPTH {
            errors.at(
                c,
                format!("functions nest more than {MAX_CALL_DEPTH} calls deep here"),
            );
            return None;
        }
        let mut frame = Vec::new();
        let mut ok = true;
        for (param, arg) in f.params.iter().zip(&c.args) {
            let local = match self.marker_argument(arg) {
                Some(m) => Some(Local::Marker(m)),
                None => self.lower(arg, errors).map(Local::Value),
            };
            match local {
                Some(l) => frame.push((param.to_string(), l)),
                None => ok = false,
            }
        }
        if !ok {
            return None;
        }
        self.frames.push(frame);
        self.stack.push(f.name.to_string());
        // the body's errors are reported at its first call only
        let first = !self.called.contains(&f.name.to_string());
        self.called.insert(f.name.to_string());
        let v = if first {
            self.lower(&f.body, errors)
        } else {
            let mut scratch = Errors::new();
            let v = self.lower(&f.body, &mut scratch);
            if !scratch.is_empty() && v.is_none() {
                errors.at(
                    c,
                    format!(
                        "`{}` cannot be evaluated for these arguments (see the error in its body)",
                        f.name
                    ),
                );
            }
            v
        };
        self.frames.pop();
        self.stack.pop();
        v
    }

    /// The marker a bare-name argument names, unless the name is a value here.
    pub(super) fn marker_argument(&self, arg: &Expr) -> Option<usize> {
        let Expr::Path(p) = arg else { return None };
        let ident = p.path.get_ident()?;
        let name = ident.to_string();
        match self.lookup_local(&name) {
            Some(Local::Marker(i)) => return Some(i),
            Some(Local::Value(_)) => return None,
            None => {}
        }
        if self.model.bindings[..self.visible]
            .iter()
            .any(|b| b.name == *ident)
            || self.params.iter().any(|(n, _)| *n == name)
        {
            return None;
        }
        self.model.markers.iter().position(|m| m.name == *ident)
    }

    pub(super) fn built_in(
        &mut self,
        name: &syn::Ident,
        args: &[Dual],
        at: &syn::ExprCall,
        errors: &mut Errors,
    ) -> Option<Dual> {
        use Value::*;
        let g = &mut *self.g;
        let arity = |errors: &mut Errors, n: usize| {
            if args.len() != n {
                errors.at(
                    at,
                    format!("`{name}` takes {n} argument(s), found {}", args.len()),
                );
                false
            } else {
                true
            }
        };
        let bad = |errors: &mut Errors| {
            let types: Vec<String> = args.iter().map(|a| a.value.type_name()).collect();
            errors.at(
                at,
                format!("`{name}` is not defined for ({})", types.join(", ")),
            );
            None
        };
        let fname = name.to_string();
        match fname.as_str() {
            "dot" | "cross" => {
                if !arity(errors, 2) {
                    return None;
                }
                let (Vector(a), Vector(b)) = (&args[0].value, &args[1].value) else {
                    return bad(errors);
                };
                Some(if fname == "dot" {
                    Dual {
                        value: Scalar(vector::dot(g, *a, *b)),
                        rate: rates::dot(g, *a, &args[0].rate, *b, &args[1].rate),
                    }
                } else {
                    Dual {
                        value: Vector(vector::cross(g, *a, *b)),
                        rate: rates::cross(g, *a, &args[0].rate, *b, &args[1].rate),
                    }
                })
            }
            "transpose" => {
                if !arity(errors, 1) {
                    return None;
                }
                match &args[0].value {
                    Matrix(m) => Some(Dual {
                        value: Matrix(vector::transpose(m)),
                        rate: rates::transpose(args[0].rate.clone()),
                    }),
                    _ => bad(errors),
                }
            }
            "norm" => {
                if !arity(errors, 1) {
                    return None;
                }
                match &args[0].value {
                    Vector(a) => {
                        let d = vector::dot(g, *a, *a);
                        let n = g.sqrt(d);
                        Some(Dual {
                            value: Scalar(n),
                            rate: rates::norm(g, *a, &args[0].rate, n),
                        })
                    }
                    _ => bad(errors),
                }
            }
            "atan2" => {
                if !arity(errors, 2) {
                    return None;
                }
                let (Scalar(y), Scalar(x)) = (&args[0].value, &args[1].value) else {
                    return bad(errors);
                };
                Some(Dual {
                    value: Scalar(g.atan2(*y, *x)),
                    rate: rates::atan2(g, *y, &args[0].rate, *x, &args[1].rate),
                })
            }
            "unwrap_angle" => {
                if !arity(errors, 2) {
                    return None;
                }
                let (Scalar(a), Scalar(r)) = (&args[0].value, &args[1].value) else {
                    return bad(errors);
                };
                // a + 2π·round((r − a)/2π): the turn count is piecewise constant, so the
                // value changes (and is differentiated) as `a`
                let turn = g.constant(std::f64::consts::TAU);
                let gap = g.sub(*r, *a);
                let turns = g.div(gap, turn);
                let k = g.round(turns);
                let shift = g.mul(turn, k);
                Some(Dual {
                    value: Scalar(g.add(*a, shift)),
                    rate: args[0].rate.clone(),
                })
            }
            "angle" => {
                errors.at(
                    at,
                    "`angle(y, x)` is the whole value of a state, `state NAME = angle(y, x);`: the angle of (x, y) continuous over turns (within π of its last converged value). Elsewhere write `atan2(y, x)`, in (−π, π], or `unwrap_angle(a, reference)`",
                );
                None
            }
            "sqrt" | "sin" | "cos" => {
                if !arity(errors, 1) {
                    return None;
                }
                match &args[0].value {
                    Scalar(a) => {
                        let v = match fname.as_str() {
                            "sqrt" => g.sqrt(*a),
                            "sin" => g.sin(*a),
                            _ => g.cos(*a),
                        };
                        Some(Dual {
                            value: Scalar(v),
                            rate: rates::function(g, &fname, *a, &args[0].rate, v),
                        })
                    }
                    _ => bad(errors),
                }
            }
            other => {
                let mut known: Vec<String> =
                    BUILT_IN_FUNCTIONS.iter().map(|s| (*s).to_owned()).collect();
                known.extend(self.model.functions.iter().map(|f| f.name.to_string()));
                errors.at(
                    name,
                    format!("unknown function `{other}`: expected {}", known.join(", ")),
                );
                None
            }
        }
    }
}
