//! Symbolic evaluation of the expression language against two markers' kinematics, with the
//! time derivative of every value alongside when asked (`Lowerer::with_rates`).

use std::collections::HashMap;

use syn::{BinOp, Expr, Lit, UnOp};

use super::check::BUILT_IN_FUNCTIONS;
use super::errors::Errors;
use super::model::JointModel;
use super::value::{Dual, Rate, Value, column, rates};
use crate::kinematics::{Capability, Kinematics};
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
        let v = self.lower(&model.bindings[i].expr, errors);
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
            other => {
                errors.at(other, "unsupported expression in a residual");
                None
            }
        }
    }

    /// An integer constant: a literal, or a name bound to one (a function's parameter).
    fn constant_index(&mut self, e: &Expr, errors: &mut Errors) -> Option<usize> {
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

    fn name(&mut self, p: &syn::ExprPath, errors: &mut Errors) -> Option<Dual> {
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
    fn marker_of(&self, base: &Expr, errors: &mut Errors) -> Option<usize> {
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

    fn quantity(&mut self, f: &syn::ExprField, errors: &mut Errors) -> Option<Dual> {
        let index = self.marker_of(&f.base, errors)?;
        let syn::Member::Named(q) = &f.member else {
            errors.at(&f.member, "expected a marker quantity name");
            return None;
        };
        let decl = &self.model.markers[index];
        let kin = &self.kinematics[index];
        let rigid_only = |errors: &mut Errors| {
            if decl.capability != Capability::Rigid {
                errors.at(
                    q,
                    format!(
                        "`{q}` needs a Rigid marker, but `{}` is declared `Position`",
                        decl.name
                    ),
                );
                return false;
            }
            true
        };
        let rates = self.rates;
        // Velocity quantities have no rate: a position level that is differentiated reads none
        // (`check` reports that), and a velocity level is never differentiated.
        match q.to_string().as_str() {
            "position" => Some(Dual {
                value: Value::Vector(kin.position),
                rate: if rates {
                    Rate::Vector(kin.velocity)
                } else {
                    Rate::Zero
                },
            }),
            "velocity" => Some(Dual::constant(Value::Vector(kin.velocity))),
            "rotation" => rigid_only(errors).then(|| {
                let a = kin.rotation.expect("rigid kind");
                Dual {
                    value: Value::Matrix(a),
                    // Ȧ = A·skew(ω̄)
                    rate: if rates {
                        Rate::Matrix(match self.rule {
                            // Ȧ = A·skew(ω̄)
                            RateRule::Local => super::value::MatrixRate::Turning {
                                left: Some(a),
                                omega: kin.angular_velocity_local.expect("rigid kind"),
                                right: None,
                                transposed: false,
                            },
                            // Ȧ = skew(ω)·A
                            RateRule::Global => super::value::MatrixRate::Turning {
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
            "angular_velocity" => rigid_only(errors)
                .then(|| Dual::constant(Value::Vector(kin.angular_velocity.expect("rigid kind")))),
            "angular_velocity_local" => rigid_only(errors).then(|| {
                Dual::constant(Value::Vector(
                    kin.angular_velocity_local.expect("rigid kind"),
                ))
            }),
            other => {
                errors.at(
                    q,
                    format!(
                        "unknown marker quantity `{other}`: expected position, velocity, rotation, angular_velocity or angular_velocity_local"
                    ),
                );
                None
            }
        }
    }

    fn binary(
        &mut self,
        op: &BinOp,
        l: Dual,
        r: Dual,
        at: &syn::ExprBinary,
        errors: &mut Errors,
    ) -> Option<Dual> {
        use Value::*;
        let g = &mut *self.g;
        let mismatch = |errors: &mut Errors, what: &str, l: &Value, r: &Value| {
            errors.at(
                at,
                format!("cannot {what} {} and {}", l.type_name(), r.type_name()),
            );
            None
        };
        match op {
            BinOp::Add(_) | BinOp::Sub(_) => {
                let add = matches!(op, BinOp::Add(_));
                let value = match (&l.value, &r.value) {
                    (Scalar(a), Scalar(b)) => {
                        Scalar(if add { g.add(*a, *b) } else { g.sub(*a, *b) })
                    }
                    (Vector(a), Vector(b)) => Vector(if add {
                        vector::add(g, *a, *b)
                    } else {
                        vector::sub(g, *a, *b)
                    }),
                    (Matrix(a), Matrix(b)) => Matrix(if add {
                        vector::mat_add(g, a, b)
                    } else {
                        vector::mat_sub(g, a, b)
                    }),
                    (Rows(a), Rows(b)) if a.len() == b.len() => Rows(
                        a.iter()
                            .zip(b)
                            .map(|(x, y)| if add { g.add(*x, *y) } else { g.sub(*x, *y) })
                            .collect(),
                    ),
                    _ => {
                        return mismatch(
                            errors,
                            if add { "add" } else { "subtract" },
                            &l.value,
                            &r.value,
                        );
                    }
                };
                let rate = rates::add(g, &l.value, l.rate, r.rate, !add);
                Some(Dual { value, rate })
            }
            BinOp::Mul(_) => {
                let value = match (&l.value, &r.value) {
                    (Scalar(a), Scalar(b)) => Scalar(g.mul(*a, *b)),
                    (Scalar(s), Vector(v)) | (Vector(v), Scalar(s)) => {
                        Vector(vector::scale(g, *s, *v))
                    }
                    (Scalar(s), Matrix(m)) | (Matrix(m), Scalar(s)) => {
                        Matrix(vector::mat_scale(g, *s, m))
                    }
                    (Matrix(m), Vector(v)) => Vector(vector::mat_vec(g, m, *v)),
                    (Matrix(a), Matrix(b)) => Matrix(vector::mat_mat(g, a, b)),
                    _ => return mismatch(errors, "multiply", &l.value, &r.value),
                };
                let rate = rates::mul(g, &l.value, &l.rate, &r.value, &r.rate);
                Some(Dual { value, rate })
            }
            BinOp::Div(_) => {
                let (value, den) = match (&l.value, &r.value) {
                    (Scalar(a), Scalar(b)) => (Scalar(g.div(*a, *b)), *b),
                    (Vector(v), Scalar(s)) => (Vector(v.map(|x| g.div(x, *s))), *s),
                    _ => return mismatch(errors, "divide", &l.value, &r.value),
                };
                let rate = rates::div(g, &l.value, &l.rate, den, &r.rate);
                Some(Dual { value, rate })
            }
            _ => {
                errors.at(at, "only + - * / are supported");
                None
            }
        }
    }

    fn call(&mut self, c: &syn::ExprCall, errors: &mut Errors) -> Option<Dual> {
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
    fn column_call(&mut self, c: &syn::ExprCall, errors: &mut Errors) -> Option<Dual> {
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

    /// A call of one of the definition's functions: its body, lowered with its parameters bound
    /// to the arguments (a bare marker name binds the marker itself).
    fn user_call(
        &mut self,
        f: &'a super::parse::FunctionDef,
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
    fn marker_argument(&self, arg: &Expr) -> Option<usize> {
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

    fn built_in(
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

/// Variable name of element `i` of parameter `name` (scalar: `i` is ignored).
pub fn parameter_variable(name: &str, kind: super::model::ParamKind, i: usize) -> String {
    use super::model::ParamKind;
    match kind {
        ParamKind::Scalar => format!("jp_{name}"),
        ParamKind::Vector => format!("jp_{name}_{i}"),
        ParamKind::Matrix => format!("jp_{name}_{}{}", i / 3, i % 3),
    }
}

/// The joint's parameters as symbolic values (variables `jp_…`).
pub fn parameter_values(g: &mut Graph, model: &JointModel) -> Vec<(String, Value)> {
    use super::model::ParamKind;
    model
        .params
        .iter()
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
/// Errors go into `errors`.
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
        let position = lw.residual(&model.position, "position-level", rows, errors);
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
    let mut lw = Lowerer::with_rates(g, model, kin, params, rule);
    lw.residual(
        &model.position,
        "position-level",
        model.axes.len(),
        &mut scratch,
    )
    .map(|(_, rate)| rate)
}

/// The rows whose derivative by the coordinate velocities is the constraint Jacobian C, and by
/// the coordinates ∂(C q̇)/∂q: the hand-written velocity level, or the position level's rate
/// with rotations turning by their global angular velocity (Exudyn's C; equal to the derived
/// velocity level wherever the rotation matrices are orthonormal).
pub fn jacobian_rows(
    g: &mut Graph,
    model: &JointModel,
    kin: &[Kinematics],
    velocity: &[Id],
) -> Vec<Id> {
    if model.velocity.is_some() {
        return velocity.to_vec();
    }
    let params = parameter_values(g, model);
    derived_velocity(g, model, kin, params, RateRule::Global).unwrap_or_else(|| velocity.to_vec())
}
