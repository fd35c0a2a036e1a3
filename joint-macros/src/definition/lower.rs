//! Symbolic evaluation of residual expressions against two markers' kinematics.

use syn::{BinOp, Expr, Lit, UnOp};

use super::errors::Errors;
use super::model::MarkerDecl;
use crate::kinematics::{Capability, Kinematics};
use crate::symbolic::vector::{self, Mat3, Vec3};
use crate::symbolic::{Graph, Id};

/// A typed symbolic value.
#[derive(Clone)]
pub enum Value {
    Scalar(Id),
    Vector(Vec3),
    Matrix(Mat3),
    /// A list of scalar rows written as `[a, b, …]`.
    Rows(Vec<Id>),
}

impl Value {
    fn type_name(&self) -> String {
        match self {
            Value::Scalar(_) => "a scalar".into(),
            Value::Vector(_) => "a 3-vector".into(),
            Value::Matrix(_) => "a 3×3 matrix".into(),
            Value::Rows(r) => format!("a list of {} rows", r.len()),
        }
    }

    /// The residual rows this value stands for.
    pub fn rows(&self) -> Option<Vec<Id>> {
        match self {
            Value::Scalar(s) => Some(vec![*s]),
            Value::Vector(v) => Some(v.to_vec()),
            Value::Rows(r) => Some(r.clone()),
            Value::Matrix(_) => None,
        }
    }
}

pub struct Scope<'a> {
    pub markers: &'a [MarkerDecl],
    pub kinematics: &'a [Kinematics],
    /// Run-time parameters by name, as symbolic values.
    pub params: &'a [(String, Value)],
}

pub fn lower(g: &mut Graph, scope: &Scope, expr: &Expr, errors: &mut Errors) -> Option<Value> {
    match expr {
        Expr::Paren(p) => lower(g, scope, &p.expr, errors),
        Expr::Group(p) => lower(g, scope, &p.expr, errors),
        Expr::Lit(lit) => match &lit.lit {
            Lit::Float(f) => match f.base10_parse::<f64>() {
                Ok(v) => Some(Value::Scalar(g.constant(v))),
                Err(e) => {
                    errors.push(e);
                    None
                }
            },
            Lit::Int(i) => match i.base10_parse::<f64>() {
                Ok(v) => Some(Value::Scalar(g.constant(v))),
                Err(e) => {
                    errors.push(e);
                    None
                }
            },
            other => {
                errors.at(other, "expected a number");
                None
            }
        },
        Expr::Path(p) => {
            let Some(ident) = p.path.get_ident() else {
                errors.at(
                    p,
                    "expected a parameter name or a marker quantity (m0.position, …)",
                );
                return None;
            };
            let name = ident.to_string();
            if let Some((_, v)) = scope.params.iter().find(|(n, _)| *n == name) {
                return Some(v.clone());
            }
            let hint = if scope.markers.iter().any(|m| m.name == *ident) {
                format!("`{ident}` is a marker; use one of its quantities, e.g. `{ident}.position`")
            } else {
                let names: Vec<&str> = scope.params.iter().map(|(n, _)| n.as_str()).collect();
                if names.is_empty() {
                    format!(
                        "unknown name `{ident}`: the joint declares no parameters (`param {ident}: vector;`)"
                    )
                } else {
                    format!(
                        "unknown name `{ident}`: the joint's parameters are {}",
                        names.join(", ")
                    )
                }
            };
            errors.at(ident, hint);
            None
        }
        Expr::Field(f) => {
            let Expr::Path(base) = &*f.base else {
                errors.at(&f.base, "expected a marker name before `.`");
                return None;
            };
            let Some(ident) = base.path.get_ident() else {
                errors.at(&f.base, "expected a marker name before `.`");
                return None;
            };
            let Some(index) = scope.markers.iter().position(|m| m.name == *ident) else {
                let names: Vec<String> = scope.markers.iter().map(|m| m.name.to_string()).collect();
                errors.at(
                    ident,
                    format!(
                        "unknown marker `{ident}`: the joint's markers are {}",
                        names.join(", ")
                    ),
                );
                return None;
            };
            let syn::Member::Named(q) = &f.member else {
                errors.at(&f.member, "expected a marker quantity name");
                return None;
            };
            let decl = &scope.markers[index];
            let kin = &scope.kinematics[index];
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
            match q.to_string().as_str() {
                "position" => Some(Value::Vector(kin.position)),
                "velocity" => Some(Value::Vector(kin.velocity)),
                "rotation" => {
                    rigid_only(errors).then(|| Value::Matrix(kin.rotation.expect("rigid kind")))
                }
                "angular_velocity" => rigid_only(errors)
                    .then(|| Value::Vector(kin.angular_velocity.expect("rigid kind"))),
                "angular_velocity_local" => rigid_only(errors)
                    .then(|| Value::Vector(kin.angular_velocity_local.expect("rigid kind"))),
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
        Expr::Unary(u) => {
            let v = lower(g, scope, &u.expr, errors)?;
            match u.op {
                UnOp::Neg(_) => Some(match v {
                    Value::Scalar(s) => Value::Scalar(g.neg(s)),
                    Value::Vector(a) => Value::Vector(vector::neg(g, a)),
                    Value::Matrix(m) => Value::Matrix(vector::mat_neg(g, &m)),
                    Value::Rows(r) => Value::Rows(r.into_iter().map(|x| g.neg(x)).collect()),
                }),
                _ => {
                    errors.at(u, "only unary `-` is supported");
                    None
                }
            }
        }
        Expr::Binary(b) => {
            let l = lower(g, scope, &b.left, errors);
            let r = lower(g, scope, &b.right, errors);
            let (l, r) = (l?, r?);
            binary(g, &b.op, l, r, b, errors)
        }
        Expr::Array(a) => {
            let mut rows = Vec::new();
            let mut ok = true;
            for e in &a.elems {
                match lower(g, scope, e, errors) {
                    Some(Value::Scalar(s)) => rows.push(s),
                    Some(other) => {
                        errors.at(
                            e,
                            format!("a row must be a scalar, found {}", other.type_name()),
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
            ok.then_some(Value::Rows(rows))
        }
        Expr::Index(ix) => {
            let base = lower(g, scope, &ix.expr, errors)?;
            let Expr::Lit(syn::ExprLit {
                lit: Lit::Int(i), ..
            }) = &*ix.index
            else {
                errors.at(&ix.index, "an index must be an integer literal");
                return None;
            };
            let i: usize = match i.base10_parse() {
                Ok(i) => i,
                Err(e) => {
                    errors.push(e);
                    return None;
                }
            };
            match base {
                Value::Vector(v) if i < 3 => Some(Value::Scalar(v[i])),
                Value::Rows(r) if i < r.len() => Some(Value::Scalar(r[i])),
                Value::Matrix(m) if i < 3 => Some(Value::Vector(m[i])),
                other => {
                    errors.at(
                        ix,
                        format!("index {i} out of range for {}", other.type_name()),
                    );
                    None
                }
            }
        }
        Expr::Call(c) => {
            let Expr::Path(p) = &*c.func else {
                errors.at(&c.func, "expected a function name");
                return None;
            };
            let Some(name) = p.path.get_ident() else {
                errors.at(&c.func, "expected a function name");
                return None;
            };
            let mut args = Vec::new();
            for a in &c.args {
                args.push(lower(g, scope, a, errors));
            }
            if args.iter().any(Option::is_none) {
                return None;
            }
            let args: Vec<Value> = args.into_iter().map(Option::unwrap).collect();
            call(g, name, &args, c, errors)
        }
        other => {
            errors.at(other, "unsupported expression in a residual");
            None
        }
    }
}

fn binary(
    g: &mut Graph,
    op: &BinOp,
    l: Value,
    r: Value,
    at: &syn::ExprBinary,
    errors: &mut Errors,
) -> Option<Value> {
    use Value::*;
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
            match (&l, &r) {
                (Scalar(a), Scalar(b)) => {
                    Some(Scalar(if add { g.add(*a, *b) } else { g.sub(*a, *b) }))
                }
                (Vector(a), Vector(b)) => Some(Vector(if add {
                    vector::add(g, *a, *b)
                } else {
                    vector::sub(g, *a, *b)
                })),
                (Matrix(a), Matrix(b)) => Some(Matrix(if add {
                    vector::mat_add(g, a, b)
                } else {
                    vector::mat_sub(g, a, b)
                })),
                (Rows(a), Rows(b)) if a.len() == b.len() => Some(Rows(
                    a.iter()
                        .zip(b)
                        .map(|(x, y)| if add { g.add(*x, *y) } else { g.sub(*x, *y) })
                        .collect(),
                )),
                _ => mismatch(errors, if add { "add" } else { "subtract" }, &l, &r),
            }
        }
        BinOp::Mul(_) => match (&l, &r) {
            (Scalar(a), Scalar(b)) => Some(Scalar(g.mul(*a, *b))),
            (Scalar(s), Vector(v)) | (Vector(v), Scalar(s)) => {
                Some(Vector(vector::scale(g, *s, *v)))
            }
            (Scalar(s), Matrix(m)) | (Matrix(m), Scalar(s)) => {
                Some(Matrix(vector::mat_scale(g, *s, m)))
            }
            (Matrix(m), Vector(v)) => Some(Vector(vector::mat_vec(g, m, *v))),
            (Matrix(a), Matrix(b)) => Some(Matrix(vector::mat_mat(g, a, b))),
            _ => mismatch(errors, "multiply", &l, &r),
        },
        BinOp::Div(_) => match (&l, &r) {
            (Scalar(a), Scalar(b)) => Some(Scalar(g.div(*a, *b))),
            (Vector(v), Scalar(s)) => Some(Vector(v.map(|x| g.div(x, *s)))),
            _ => mismatch(errors, "divide", &l, &r),
        },
        _ => {
            errors.at(at, "only + - * / are supported");
            None
        }
    }
}

fn call(
    g: &mut Graph,
    name: &syn::Ident,
    args: &[Value],
    at: &syn::ExprCall,
    errors: &mut Errors,
) -> Option<Value> {
    use Value::*;
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
        let types: Vec<String> = args.iter().map(Value::type_name).collect();
        errors.at(
            at,
            format!("`{name}` is not defined for ({})", types.join(", ")),
        );
        None
    };
    match name.to_string().as_str() {
        "dot" => {
            if !arity(errors, 2) {
                return None;
            }
            match (&args[0], &args[1]) {
                (Vector(a), Vector(b)) => Some(Scalar(vector::dot(g, *a, *b))),
                _ => bad(errors),
            }
        }
        "cross" => {
            if !arity(errors, 2) {
                return None;
            }
            match (&args[0], &args[1]) {
                (Vector(a), Vector(b)) => Some(Vector(vector::cross(g, *a, *b))),
                _ => bad(errors),
            }
        }
        "transpose" => {
            if !arity(errors, 1) {
                return None;
            }
            match &args[0] {
                Matrix(m) => Some(Matrix(vector::transpose(m))),
                _ => bad(errors),
            }
        }
        "norm" => {
            if !arity(errors, 1) {
                return None;
            }
            match &args[0] {
                Vector(a) => {
                    let d = vector::dot(g, *a, *a);
                    Some(Scalar(g.sqrt(d)))
                }
                _ => bad(errors),
            }
        }
        "sqrt" | "sin" | "cos" => {
            if !arity(errors, 1) {
                return None;
            }
            match &args[0] {
                Scalar(a) => Some(Scalar(match name.to_string().as_str() {
                    "sqrt" => g.sqrt(*a),
                    "sin" => g.sin(*a),
                    _ => g.cos(*a),
                })),
                _ => bad(errors),
            }
        }
        other => {
            errors.at(
                name,
                format!("unknown function `{other}`: expected dot, cross, transpose, norm, sqrt, sin or cos"),
            );
            None
        }
    }
}
