//! Binary and unary operators over scalars, vectors and matrices, with their rates.

use syn::BinOp;

use super::Lowerer;
use crate::definition::errors::Errors;
use crate::definition::value::{Dual, Value, rates};
use crate::symbolic::vector;

impl Lowerer<'_> {
    pub(super) fn binary(
        &mut self,
        op: &BinOp,
        l: Dual,
        r: Dual,
        at: &syn::ExprBinary,
        errors: &mut Errors,
    ) -> Option<Dual> {
        use Value::*;
        // a list of three rows beside a vector, matrix or scalar is that vector:
        // `m * [a, b, c]`, `k * [a, b, c]`, `[a, b, c] - v`
        let (l, r) = match (&l.value, &r.value) {
            (Rows(x), Vector(_) | Matrix(_) | Scalar(_)) if x.len() == 3 => (l.into_vector(), r),
            (Vector(_) | Matrix(_) | Scalar(_), Rows(x)) if x.len() == 3 => (l, r.into_vector()),
            _ => (l, r),
        };
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
}
