//! Symbolic evaluation of the expression language against two markers' kinematics, with the
//! time derivative of every value alongside when asked (`Lowerer::with_rates`).
//!
//! Here the lowerer and the dispatch over expression forms; `names` (locals, parameters,
//! marker quantities), `operators`, `calls` (built-in and user functions) and `definition`
//! (a whole definition's rows, velocity level and Jacobian) hold the rest.

mod calls;
mod conditional;
mod definition;
mod names;
mod operators;

pub use definition::{
    derived_velocity, jacobian_rows, parameter_values, parameter_variable, residuals,
};

use std::collections::HashMap;

use syn::{Expr, Lit, UnOp};

use super::errors::Errors;
use super::model::JointModel;
use super::value::{Dual, Value, rates};
use crate::kinematics::Kinematics;
use crate::symbolic::vector;
use crate::symbolic::{Graph, Id};

/// What a name stands for inside a function body.
#[derive(Clone)]
enum Local {
    Value(Dual),
    /// A marker passed as an argument (`frame(m0)`).
    Marker(usize),
}

/// How a marker's rotation matrix A turns in the derived rates. The two agree for orthonormal
/// A; they differ for Euler parameters off the unit sphere (as during Newton iterations), where
/// Exudyn uses the first for the velocity level and the second for the constraint Jacobian.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RateRule {
    /// Ȧ = A·skew(ω̄), with the local angular velocity ω̄ = Ḡθ̇: Exudyn's velocity level.
    Local,
    /// Ȧ = skew(ω)·A, with the global angular velocity ω = Gθ̇: Exudyn's constraint Jacobian,
    /// whose rotation rows are `(a×b)ᵀ·G` (docs/joint-formulas.md §0, §6.5).
    Global,
}

/// Function calls nest at most this deep (a recursive function is an error, not a hang).
const MAX_CALL_DEPTH: usize = 16;

/// Lowers expressions of one joint model into one graph.
pub struct Lowerer<'a> {
    pub g: &'a mut Graph,
    model: &'a JointModel,
    kinematics: &'a [Kinematics],
    /// Run-time parameters by name, as symbolic values.
    params: Vec<(String, Value)>,
    /// Whether rates are built (otherwise every rate is `Rate::Zero`).
    rates: bool,
    /// How rotation matrices turn in the rates.
    rule: RateRule,
    /// Lowered `let` bindings by index (`None`: it failed; its error is reported once).
    bindings: HashMap<usize, Option<Dual>>,
    /// Bindings visible to the expression being lowered (`let` i sees 0..i).
    visible: usize,
    /// Function-call frames: parameter name → argument.
    frames: Vec<Vec<(String, Local)>>,
    /// Functions called so far (a body's errors are reported at its first call).
    called: std::collections::HashSet<String>,
    /// The functions being expanded, outermost first.
    stack: Vec<String>,
}

impl<'a> Lowerer<'a> {
    /// Values only.
    pub fn new(
        g: &'a mut Graph,
        model: &'a JointModel,
        kinematics: &'a [Kinematics],
        params: Vec<(String, Value)>,
    ) -> Self {
        Lowerer {
            g,
            model,
            kinematics,
            params,
            rates: false,
            rule: RateRule::Local,
            bindings: HashMap::new(),
            visible: model.bindings.len(),
            frames: Vec::new(),
            called: std::collections::HashSet::new(),
            stack: Vec::new(),
        }
    }

    /// Values only, with rotations' angular velocities by `rule`: `RateRule::Global` lowers
    /// `angular_velocity` as G·θ̇ (the rows a Jacobian is differentiated from), `Local` as
    /// A·ω̄ (the value Exudyn's markers give).
    pub fn with_rule(self, rule: RateRule) -> Self {
        Lowerer { rule, ..self }
    }

    /// Values with their time derivatives along the markers' motion.
    pub fn with_rates(
        g: &'a mut Graph,
        model: &'a JointModel,
        kinematics: &'a [Kinematics],
        params: Vec<(String, Value)>,
        rule: RateRule,
    ) -> Self {
        Lowerer {
            rates: true,
            rule,
            ..Self::new(g, model, kinematics, params)
        }
    }

    /// Lower every binding in order (so that each one's errors are reported, used or not).
    pub fn bindings(&mut self, errors: &mut Errors) {
        for i in 0..self.model.bindings.len() {
            self.binding(i, errors);
        }
    }

    fn binding(&mut self, i: usize, errors: &mut Errors) -> Option<Dual> {
        if let Some(v) = self.bindings.get(&i) {
            return v.clone();
        }
        let outer = std::mem::replace(&mut self.visible, i);
        let frames = std::mem::take(&mut self.frames);
        let model = self.model;
        let b = &model.bindings[i];
        let mut v = self.lower(&b.expr, errors);
        if b.state
            && let Some(d) = &v
            && !matches!(d.value, Value::Scalar(_))
        {
            errors.at(
                &b.expr,
                format!(
                    "a state is a scalar, found {}: keep a vector's entries as states of their own",
                    d.value.type_name()
                ),
            );
            v = None;
        }
        self.frames = frames;
        self.visible = outer;
        self.bindings.insert(i, v.clone());
        v
    }

    /// Residual rows of `expr` (`rows` of them), with their rates.
    pub fn residual(
        &mut self,
        expr: &Expr,
        what: &str,
        rows: usize,
        errors: &mut Errors,
    ) -> Option<(Vec<Id>, Vec<Id>)> {
        let d = self.lower(expr, errors)?;
        let Some(r) = d.value.rows() else {
            errors.at(
                expr,
                format!(
                    "the {what} residual must be a scalar, a 3-vector or a list of rows, not a matrix"
                ),
            );
            return None;
        };
        if r.len() != rows {
            errors.at(
                expr,
                format!(
                    "the {what} residual has {} row(s), but the joint declares {rows} axes",
                    r.len()
                ),
            );
            return None;
        }
        let rate = if self.rates {
            rates::residual_rows(self.g, &d.value, &d.rate)
        } else {
            Vec::new()
        };
        Some((r, rate))
    }

    /// Lower `expr` in a frame of its own with `locals` bound (a coordinate-vector joint's
    /// elementwise functions: the call with its argument bound to the coordinate's value).
    pub fn lower_with_locals(
        &mut self,
        expr: &Expr,
        locals: Vec<(String, Dual)>,
        errors: &mut Errors,
    ) -> Option<Dual> {
        let frame = locals
            .into_iter()
            .map(|(n, d)| (n, Local::Value(d)))
            .collect();
        self.frames.push(frame);
        let v = self.lower(expr, errors);
        self.frames.pop();
        v
    }

    fn lookup_local(&self, name: &str) -> Option<Local> {
        self.frames
            .last()
            .and_then(|f| f.iter().find(|(n, _)| n == name).map(|(_, l)| l.clone()))
    }

    pub fn lower(&mut self, expr: &Expr, errors: &mut Errors) -> Option<Dual> {
        match expr {
            Expr::Paren(p) => self.lower(&p.expr, errors),
            Expr::Group(p) => self.lower(&p.expr, errors),
            Expr::Lit(lit) => {
                let v = match &lit.lit {
                    Lit::Float(f) => f.base10_parse::<f64>(),
                    Lit::Int(i) => i.base10_parse::<f64>(),
                    other => {
                        errors.at(other, "expected a number");
                        return None;
                    }
                };
                match v {
                    Ok(v) => Some(Dual::constant(Value::Scalar(self.g.constant(v)))),
                    Err(e) => {
                        errors.push(e);
                        None
                    }
                }
            }
            Expr::Path(p) => self.name(p, errors),
            Expr::Field(f) => self.quantity(f, errors),
            Expr::Unary(u) => {
                let d = self.lower(&u.expr, errors)?;
                match u.op {
                    UnOp::Neg(_) => {
                        let g = &mut *self.g;
                        let value = match d.value {
                            Value::Scalar(s) => Value::Scalar(g.neg(s)),
                            Value::Vector(a) => Value::Vector(vector::neg(g, a)),
                            Value::Matrix(m) => Value::Matrix(vector::mat_neg(g, &m)),
                            Value::Rows(r) => {
                                Value::Rows(r.into_iter().map(|x| g.neg(x)).collect())
                            }
                        };
                        let rate = rates::neg(g, d.rate);
                        Some(Dual { value, rate })
                    }
                    _ => {
                        errors.at(u, "only unary `-` is supported");
                        None
                    }
                }
            }
            Expr::Binary(b) => {
                let l = self.lower(&b.left, errors);
                let r = self.lower(&b.right, errors);
                let (l, r) = (l?, r?);
                self.binary(&b.op, l, r, b, errors)
            }
            Expr::Array(a) => {
                let mut rows = Vec::new();
                let mut row_rates = Vec::new();
                let mut ok = true;
                for e in &a.elems {
                    match self.lower(e, errors) {
                        Some(Dual {
                            value: Value::Scalar(s),
                            rate,
                        }) => {
                            rows.push(s);
                            row_rates.push(rate);
                        }
                        Some(other) => {
                            errors.at(
                                e,
                                format!(
                                    "a row must be a scalar, found {}",
                                    other.value.type_name()
                                ),
                            );
                            ok = false;
                        }
                        None => ok = false,
                    }
                }
                if rows.is_empty() && ok {
                    errors.at(a, "an empty list of rows");
                    return None;
                }
                let rate = rates::rows(self.g, &row_rates);
                ok.then_some(Dual {
                    value: Value::Rows(rows),
                    rate,
                })
            }
            Expr::Index(ix) => {
                let base = self.lower(&ix.expr, errors)?;
                let i = self.constant_index(&ix.index, errors)?;
                let rate = rates::index(self.g, &base.rate, i.min(2));
                match base.value {
                    Value::Vector(v) if i < 3 => Some(Dual {
                        value: Value::Scalar(v[i]),
                        rate,
                    }),
                    Value::Rows(r) if i < r.len() => Some(Dual {
                        value: Value::Scalar(r[i]),
                        rate,
                    }),
                    Value::Matrix(m) if i < 3 => Some(Dual {
                        value: Value::Vector(m[i]),
                        rate,
                    }),
                    other => {
                        errors.at(
                            ix,
                            format!("index {i} out of range for {}", other.type_name()),
                        );
                        None
                    }
                }
            }
            Expr::Call(c) => self.call(c, errors),
            Expr::If(e) => self.conditional(e, errors),
            other => {
                errors.at(other, "unsupported expression in a residual");
                None
            }
        }
    }
}
