//! Checks of a joint model that need no lowering: the names of bindings and functions, and that
//! the position level (which the compiler differentiates) reads no velocity quantity.

use std::collections::HashSet;

use syn::Expr;

use super::errors::Errors;
use super::model::JointModel;

/// The built-in functions of the expression language.
pub const BUILT_IN_FUNCTIONS: [&str; 12] = [
    "dot",
    "cross",
    "transpose",
    "col",
    "norm",
    "sqrt",
    "sin",
    "cos",
    "atan2",
    "unwrap_angle",
    "angle",
    "last",
];

/// Marker quantities that are velocities (the position level must not read them).
pub const VELOCITY_QUANTITIES: [&str; 3] =
    ["velocity", "angular_velocity", "angular_velocity_local"];

/// Every name check of `model`, into `errors`.
pub fn check(model: &JointModel, errors: &mut Errors) {
    check_bindings(model, errors);
    check_functions(model, errors);
    check_position_reads_no_velocity(model, errors);
}

fn check_bindings(model: &JointModel, errors: &mut Errors) {
    for (i, b) in model.bindings.iter().enumerate() {
        let name = &b.name;
        if model.bindings[..i].iter().any(|o| o.name == *name) {
            errors.at(
                name,
                format!("duplicate binding `{name}`: each `let` name is bound once"),
            );
        } else if model.markers.iter().any(|m| m.name == *name) {
            errors.at(
                name,
                format!("the binding `{name}` shadows the marker `{name}`"),
            );
        } else if model.params.iter().any(|p| p.name == *name && !p.state) {
            errors.at(
                name,
                format!("the binding `{name}` shadows the parameter `{name}`"),
            );
        }
    }
}

fn check_functions(model: &JointModel, errors: &mut Errors) {
    for (i, f) in model.functions.iter().enumerate() {
        let name = f.name.to_string();
        if BUILT_IN_FUNCTIONS.contains(&name.as_str()) {
            errors.at(
                &f.name,
                format!("`{name}` is a built-in function; choose another name"),
            );
        } else if model.functions[..i].iter().any(|o| o.name == f.name) {
            errors.at(&f.name, format!("duplicate function `{name}`"));
        }
        for (k, p) in f.params.iter().enumerate() {
            if f.params[..k].contains(p) {
                errors.at(p, format!("duplicate parameter `{p}` of function `{name}`"));
            }
        }
    }
}

/// The position level, and every binding and function it reaches, reads no velocity quantity:
/// the compiler differentiates it in time (and checks a hand-written velocity level against that).
fn check_position_reads_no_velocity(model: &JointModel, errors: &mut Errors) {
    let mut walk = Walk {
        model,
        seen_bindings: HashSet::new(),
        seen_functions: HashSet::new(),
        errors,
    };
    if let Some(position) = &model.position {
        walk.expr(position);
    }
}

struct Walk<'a> {
    model: &'a JointModel,
    seen_bindings: HashSet<String>,
    seen_functions: HashSet<String>,
    errors: &'a mut Errors,
}

impl Walk<'_> {
    fn expr(&mut self, e: &Expr) {
        match e {
            Expr::Paren(p) => self.expr(&p.expr),
            Expr::Group(p) => self.expr(&p.expr),
            Expr::Unary(u) => self.expr(&u.expr),
            Expr::Binary(b) => {
                self.expr(&b.left);
                self.expr(&b.right);
            }
            Expr::Array(a) => a.elems.iter().for_each(|x| self.expr(x)),
            Expr::If(i) => {
                self.expr(&i.cond);
                for s in &i.then_branch.stmts {
                    if let syn::Stmt::Expr(x, _) = s {
                        self.expr(x);
                    }
                }
                if let Some((_, x)) = &i.else_branch {
                    self.expr(x);
                }
            }
            Expr::Block(b) => {
                for s in &b.block.stmts {
                    if let syn::Stmt::Expr(x, _) = s {
                        self.expr(x);
                    }
                }
            }
            Expr::Index(ix) => {
                self.expr(&ix.expr);
                self.expr(&ix.index);
            }
            // `last(NAME)` reads a stored value, not the state's expression
            Expr::Call(c) if matches!(&*c.func, Expr::Path(p) if p.path.is_ident("last")) => {}
            Expr::Call(c) => {
                c.args.iter().for_each(|x| self.expr(x));
                if let Expr::Path(p) = &*c.func
                    && let Some(name) = p.path.get_ident()
                {
                    let name = name.to_string();
                    if let Some(f) = self.model.functions.iter().find(|f| f.name == name)
                        && self.seen_functions.insert(name)
                    {
                        self.expr(&f.body);
                    }
                }
            }
            Expr::Field(f) => {
                if let syn::Member::Named(q) = &f.member
                    && VELOCITY_QUANTITIES.contains(&q.to_string().as_str())
                {
                    self.errors.at(
                        &f.member,
                        format!(
                            "`{q}` is a velocity quantity: the position level (and the bindings and functions it uses) depends on positions and rotations only; the compiler derives the velocity level from it"
                        ),
                    );
                }
                self.expr(&f.base);
            }
            Expr::Path(p) => {
                if let Some(name) = p.path.get_ident() {
                    let name = name.to_string();
                    if let Some(b) = self.model.bindings.iter().find(|b| b.name == name)
                        && self.seen_bindings.insert(name)
                    {
                        self.expr(&b.expr);
                    }
                }
            }
            _ => {}
        }
    }
}
