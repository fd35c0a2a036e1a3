//! `if a > b { x } else { y }`: a piecewise value (`<`, `>`, `<=`, `>=` between scalars; `else`
//! required, `else if` chains), of the branches' common type, differentiated branch by branch.

use syn::{BinOp, Expr};

use super::Lowerer;
use crate::definition::errors::Errors;
use crate::definition::value::{Dual, Value, rates};

impl Lowerer<'_> {
    pub(super) fn conditional(&mut self, e: &syn::ExprIf, errors: &mut Errors) -> Option<Dual> {
        let test = self.comparison(&e.cond, errors);
        let then = self.branch(&e.then_branch, errors);
        let otherwise = match &e.else_branch {
            Some((_, expr)) => match &**expr {
                Expr::Block(b) => self.branch(&b.block, errors),
                // `else if …`
                other => self.lower(other, errors),
            },
            None => {
                errors.at(
                    e,
                    "an `if` is a value: it needs an `else` (`if a > b { x } else { y }`)",
                );
                return None;
            }
        };
        let ((a, b, strict), x, y) = (test?, then?, otherwise?);
        let g = &mut *self.g;
        let pick = |g: &mut crate::symbolic::Graph, p: crate::symbolic::Id, q| {
            g.select(a, b, strict, p, q)
        };
        let value = match (&x.value, &y.value) {
            (Value::Scalar(p), Value::Scalar(q)) => Value::Scalar(pick(g, *p, *q)),
            (Value::Vector(p), Value::Vector(q)) => {
                Value::Vector(std::array::from_fn(|i| pick(g, p[i], q[i])))
            }
            (Value::Matrix(p), Value::Matrix(q)) => Value::Matrix(std::array::from_fn(|i| {
                std::array::from_fn(|j| pick(g, p[i][j], q[i][j]))
            })),
            (Value::Rows(p), Value::Rows(q)) if p.len() == q.len() => {
                Value::Rows(p.iter().zip(q).map(|(p, q)| pick(g, *p, *q)).collect())
            }
            (p, q) => {
                errors.at(
                    e,
                    format!(
                        "the branches of an `if` have different types: {} and {}",
                        p.type_name(),
                        q.type_name()
                    ),
                );
                return None;
            }
        };
        let rate = rates::select(g, (a, b, strict), &x.value, x.rate, y.rate);
        Some(Dual { value, rate })
    }

    /// The branch `{ expr }`: one expression.
    fn branch(&mut self, block: &syn::Block, errors: &mut Errors) -> Option<Dual> {
        match block.stmts.as_slice() {
            [syn::Stmt::Expr(expr, None)] => self.lower(expr, errors),
            _ => {
                errors.at(block, "a branch of an `if` is one expression: `{ x }`");
                None
            }
        }
    }

    /// `a > b` as (a, b, strict): `<` and `<=` with the operands swapped.
    fn comparison(
        &mut self,
        cond: &Expr,
        errors: &mut Errors,
    ) -> Option<(crate::symbolic::Id, crate::symbolic::Id, bool)> {
        let cond = match cond {
            Expr::Paren(p) => &*p.expr,
            other => other,
        };
        let Expr::Binary(b) = cond else {
            errors.at(
                cond,
                "expected a comparison of two scalars: `a > b`, `a < b`, `a >= b` or `a <= b`",
            );
            return None;
        };
        let (swap, strict) = match b.op {
            BinOp::Gt(_) => (false, true),
            BinOp::Ge(_) => (false, false),
            BinOp::Lt(_) => (true, true),
            BinOp::Le(_) => (true, false),
            _ => {
                errors.at(
                    b,
                    "expected a comparison of two scalars: `>`, `<`, `>=` or `<=` (no `==`: a value that switches at one point has no derivative there)",
                );
                return None;
            }
        };
        let l = self.lower(&b.left, errors);
        let r = self.lower(&b.right, errors);
        let scalar = |d: Dual, at: &Expr, errors: &mut Errors| match d.value {
            Value::Scalar(s) => Some(s),
            other => {
                errors.at(
                    at,
                    format!(
                        "a comparison is between scalars, found {}",
                        other.type_name()
                    ),
                );
                None
            }
        };
        let l = scalar(l?, &b.left, errors);
        let r = scalar(r?, &b.right, errors);
        let (l, r) = (l?, r?);
        Some(if swap { (r, l, strict) } else { (l, r, strict) })
    }
}
