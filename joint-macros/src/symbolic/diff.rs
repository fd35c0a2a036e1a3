//! Symbolic differentiation on the shared DAG.
//!
//! `derivative(g, e, x)` returns ∂e/∂x as a new node of the same graph. The memo table is keyed by
//! node, so a subexpression used many times is differentiated once, and the results share the
//! graph's hash-consing (the derivative of a common subexpression is itself common).

use std::collections::HashMap;

use super::graph::{Graph, Id, Node};

/// ∂`expr`/∂`var`, where `var` must be a `Var` node.
#[cfg(test)]
pub fn derivative(g: &mut Graph, expr: Id, var: Id) -> Id {
    let mut memo = HashMap::new();
    derivative_memo(g, expr, var, &mut memo)
}

/// Same as [`derivative`], reusing `memo` across several expressions w.r.t. the same `var`.
pub fn derivative_memo(g: &mut Graph, expr: Id, var: Id, memo: &mut HashMap<Id, Id>) -> Id {
    if let Some(&d) = memo.get(&expr) {
        return d;
    }
    let d = match g.node(expr).clone() {
        Node::Const(_) => g.zero(),
        Node::Var(_) => {
            if expr == var {
                g.one()
            } else {
                g.zero()
            }
        }
        Node::Add(a, b) => {
            let da = derivative_memo(g, a, var, memo);
            let db = derivative_memo(g, b, var, memo);
            g.add(da, db)
        }
        Node::Neg(a) => {
            let da = derivative_memo(g, a, var, memo);
            g.neg(da)
        }
        Node::Mul(a, b) => {
            let da = derivative_memo(g, a, var, memo);
            let db = derivative_memo(g, b, var, memo);
            let t1 = g.mul(da, b);
            let t2 = g.mul(a, db);
            g.add(t1, t2)
        }
        Node::Div(a, b) => {
            // (a/b)' = a'/b − a b'/b²
            let da = derivative_memo(g, a, var, memo);
            let db = derivative_memo(g, b, var, memo);
            let t1 = g.div(da, b);
            let bb = g.mul(b, b);
            let adb = g.mul(a, db);
            let t2 = g.div(adb, bb);
            g.sub(t1, t2)
        }
        Node::Sqrt(a) => {
            // (√a)' = a' / (2√a); a simplifying graph skips the quotient of a literal 0.
            let da = derivative_memo(g, a, var, memo);
            if g.simplifies() && g.is_zero(da) {
                da
            } else {
                let two = g.constant(2.0);
                let den = g.mul(two, expr);
                g.div(da, den)
            }
        }
        Node::Sin(a) => {
            let da = derivative_memo(g, a, var, memo);
            let c = g.cos(a);
            g.mul(c, da)
        }
        Node::Cos(a) => {
            let da = derivative_memo(g, a, var, memo);
            let s = g.sin(a);
            let p = g.mul(s, da);
            g.neg(p)
        }
    };
    memo.insert(expr, d);
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    fn central_difference(g: &Graph, e: Id, name: &str, at: &[(&str, f64)]) -> f64 {
        let h = 1e-6;
        let val = |shift: f64| {
            g.eval(e, &|n: &str| {
                let v = at.iter().find(|(k, _)| *k == n).map(|(_, v)| *v).unwrap();
                if n == name { v + shift } else { v }
            })
        };
        (val(h) - val(-h)) / (2.0 * h)
    }

    #[test]
    fn derivative_of_mixed_expression_matches_central_difference() {
        let mut g = Graph::new();
        let x = g.var("x");
        let y = g.var("y");
        // e = sin(x·y) / sqrt(1 + x²) − cos(y)·x
        let xy = g.mul(x, y);
        let s = g.sin(xy);
        let xx = g.mul(x, x);
        let one = g.one();
        let r = g.add(one, xx);
        let q = g.sqrt(r);
        let f = g.div(s, q);
        let cy = g.cos(y);
        let t = g.mul(cy, x);
        let e = g.sub(f, t);
        let at = [("x", 0.7), ("y", -1.3)];
        for (name, var) in [("x", x), ("y", y)] {
            let d = derivative(&mut g, e, var);
            let exact = g.eval(d, &|n: &str| at.iter().find(|(k, _)| *k == n).unwrap().1);
            let fd = central_difference(&g, e, name, &at);
            assert!((exact - fd).abs() < 1e-8, "∂/∂{name}: {exact} vs {fd}");
        }
    }

    #[test]
    fn derivative_of_linear_term_is_simplified_to_the_coefficient() {
        let mut g = Graph::new();
        let x = g.var("x");
        let a = g.var("a");
        let three = g.constant(3.0);
        let ax = g.mul(a, x);
        let e = g.mul(three, ax);
        let d = derivative(&mut g, e, x);
        let expected = g.mul(three, a);
        assert_eq!(d, expected, "no 1· or 0· left behind");
    }
}
