//! Symbolic differentiation on the shared DAG.
//!
//! `derivative(g, e, x)` returns ∂e/∂x as a new node of the same graph. The memo table is keyed by
//! node, so a subexpression used many times is differentiated once, and the results share the
//! graph's hash-consing (the derivative of a common subexpression is itself common).

use std::collections::HashMap;

use super::graph::{Graph, Id, Node};

/// ∂`expr`/∂`var`, where `var` must be a `Var` node.
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
        Node::Atan2(y, x) => {
            // d atan2(y, x) = (x·dy − y·dx)/(x² + y²)
            let dy = derivative_memo(g, y, var, memo);
            let dx = derivative_memo(g, x, var, memo);
            let r2 = atan2_radius_squared(g, y, x);
            let xdy = g.mul(x, dy);
            let ydx = g.mul(y, dx);
            let num = g.sub(xdy, ydx);
            g.div(num, r2)
        }
        // piecewise constant: the jumps have no derivative
        Node::Round(_) => g.zero(),
        // branch by branch (the comparison's switching point has no derivative)
        Node::Select {
            a,
            b,
            strict,
            then,
            otherwise,
        } => {
            let dt = derivative_memo(g, then, var, memo);
            let d_o = derivative_memo(g, otherwise, var, memo);
            g.select(a, b, strict, dt, d_o)
        }
    };
    memo.insert(expr, d);
    d
}

/// x² + y², the denominator of atan2(y, x)'s derivatives (one node, shared by both).
fn atan2_radius_squared(g: &mut Graph, y: Id, x: Id) -> Id {
    let xx = g.mul(x, x);
    let yy = g.mul(y, y);
    g.add(xx, yy)
}

/// Σₖ wₖ·∂eₖ/∂x for every `x` of `vars` (each a `Var` node), by one reverse sweep over the
/// DAG: a node's adjoint is the sum of its parents' adjoints times their local derivatives, and
/// only nodes that depend on some `x` carry one.
///
/// For rows linear in the velocities, `e` the rows and `w` their multipliers λ, this is C_qᵀλ in
/// the cost of one evaluation of the rows (the products run in the order λᵀ·A·B… from the
/// left), where Σₖ λₖ·(∂eₖ/∂x) from the forward derivatives costs one Jacobian and a product.
pub fn weighted_gradient(g: &mut Graph, exprs: &[Id], weights: &[Id], vars: &[Id]) -> Vec<Id> {
    assert_eq!(exprs.len(), weights.len(), "one weight per expression");
    // Children have smaller ids than their parents (a node is interned after its operands),
    // so descending ids are a reverse topological order.
    let top = exprs.iter().map(|e| e.0 as usize + 1).max().unwrap_or(0);
    let mut depends = vec![false; top];
    for &v in vars {
        if (v.0 as usize) < top {
            depends[v.0 as usize] = true;
        }
    }
    for i in 0..top {
        if depends[i] {
            continue;
        }
        depends[i] = match g.node(Id(i as u32)) {
            // piecewise constant: no derivative flows through it
            Node::Const(_) | Node::Var(_) | Node::Round(_) => false,
            Node::Add(a, b) | Node::Mul(a, b) | Node::Div(a, b) | Node::Atan2(a, b) => {
                depends[a.0 as usize] || depends[b.0 as usize]
            }
            Node::Neg(a) | Node::Sqrt(a) | Node::Sin(a) | Node::Cos(a) => depends[a.0 as usize],
            // the comparison's operands carry no derivative
            Node::Select {
                then, otherwise, ..
            } => depends[then.0 as usize] || depends[otherwise.0 as usize],
        };
    }
    // adjoint terms per node, summed when the sweep reaches the node
    let mut terms: Vec<Vec<Id>> = vec![Vec::new(); top];
    for (&e, &w) in exprs.iter().zip(weights) {
        if depends[e.0 as usize] {
            terms[e.0 as usize].push(w);
        }
    }
    let mut adjoint_of_var = std::collections::BTreeMap::new();
    for i in (0..top).rev() {
        if !depends[i] || terms[i].is_empty() {
            continue;
        }
        let list = std::mem::take(&mut terms[i]);
        let a = g.sum(&list);
        let node = Id(i as u32);
        let mut push = |g: &mut Graph, child: Id, term: &dyn Fn(&mut Graph) -> Id| {
            if depends[child.0 as usize] {
                let t = term(g);
                terms[child.0 as usize].push(t);
            }
        };
        match g.node(node).clone() {
            Node::Const(_) | Node::Round(_) => {}
            Node::Var(_) => {
                adjoint_of_var.insert(node, a);
            }
            Node::Add(x, y) => {
                push(g, x, &|_| a);
                push(g, y, &|_| a);
            }
            Node::Neg(x) => push(g, x, &|g| g.neg(a)),
            Node::Mul(x, y) => {
                push(g, x, &|g| g.mul(a, y));
                push(g, y, &|g| g.mul(a, x));
            }
            Node::Div(x, y) => {
                // ∂(x/y)/∂x = 1/y, ∂(x/y)/∂y = −(x/y)/y
                push(g, x, &|g| g.div(a, y));
                push(g, y, &|g| {
                    let q = g.div(node, y);
                    let t = g.mul(a, q);
                    g.neg(t)
                });
            }
            Node::Sqrt(x) => push(g, x, &|g| {
                let two = g.constant(2.0);
                let den = g.mul(two, node);
                g.div(a, den)
            }),
            Node::Sin(x) => push(g, x, &|g| {
                let c = g.cos(x);
                g.mul(a, c)
            }),
            Node::Cos(x) => push(g, x, &|g| {
                let s = g.sin(x);
                let t = g.mul(a, s);
                g.neg(t)
            }),
            Node::Atan2(y, x) => {
                // ∂/∂y = x/(x² + y²), ∂/∂x = −y/(x² + y²)
                push(g, y, &|g| {
                    let r2 = atan2_radius_squared(g, y, x);
                    let t = g.mul(a, x);
                    g.div(t, r2)
                });
                push(g, x, &|g| {
                    let r2 = atan2_radius_squared(g, y, x);
                    let t = g.mul(a, y);
                    let q = g.div(t, r2);
                    g.neg(q)
                });
            }
            Node::Select {
                a: l,
                b: r,
                strict,
                then,
                otherwise,
            } => {
                push(g, then, &|g| {
                    let z = g.zero();
                    g.select(l, r, strict, a, z)
                });
                push(g, otherwise, &|g| {
                    let z = g.zero();
                    g.select(l, r, strict, z, a)
                });
            }
        }
    }
    vars.iter()
        .map(|v| match adjoint_of_var.get(v) {
            Some(&a) => a,
            None => g.zero(),
        })
        .collect()
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

    /// sin(x·y) / sqrt(1 + x²) − cos(y)·x: every kind of node.
    fn mixed_expression(g: &mut Graph, x: Id, y: Id) -> Id {
        let xy = g.mul(x, y);
        let s = g.sin(xy);
        let xx = g.mul(x, x);
        let one = g.one();
        let r = g.add(one, xx);
        let q = g.sqrt(r);
        let f = g.div(s, q);
        let cy = g.cos(y);
        let t = g.mul(cy, x);
        g.sub(f, t)
    }

    #[test]
    fn derivative_of_mixed_expression_matches_central_difference() {
        let mut g = Graph::new();
        let x = g.var("x");
        let y = g.var("y");
        let e = mixed_expression(&mut g, x, y);
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

    #[test]
    fn weighted_gradient_equals_weighted_forward_derivatives() {
        let mut g = Graph::new();
        let (x, y, z) = (g.var("x"), g.var("y"), g.var("z"));
        let (w0, w1) = (g.var("w0"), g.var("w1"));
        // e0 = sin(x·y)/sqrt(1 + x²) − cos(y)·x,  e1 = (x·z)/(y + 3) + y·y·z
        let e0 = mixed_expression(&mut g, x, y);
        let xz = g.mul(x, z);
        let three = g.constant(3.0);
        let y3 = g.add(y, three);
        let d = g.div(xz, y3);
        let yy = g.mul(y, y);
        let yyz = g.mul(yy, z);
        let e1 = g.add(d, yyz);
        let at = [
            ("x", 0.7),
            ("y", -1.3),
            ("z", 0.4),
            ("w0", 1.9),
            ("w1", -0.6),
        ];
        let value = |n: &str| at.iter().find(|(k, _)| *k == n).unwrap().1;
        let gradient = weighted_gradient(&mut g, &[e0, e1], &[w0, w1], &[x, y, z]);
        for (var, adjoint) in [x, y, z].into_iter().zip(gradient) {
            let d0 = derivative(&mut g, e0, var);
            let d1 = derivative(&mut g, e1, var);
            let forward = value("w0") * g.eval(d0, &value) + value("w1") * g.eval(d1, &value);
            let reverse = g.eval(adjoint, &value);
            assert!(
                (forward - reverse).abs() < 1e-14 * forward.abs().max(1.0),
                "{forward} vs {reverse}"
            );
        }
    }

    /// At each point of `points`, ∂e/∂x and ∂e/∂y (vars `x`, `y`) by the forward derivative
    /// against central differences, and the reverse sweep's `gradient` of w·e (w = 1.5) against
    /// 1.5 times the forward derivative.
    fn assert_derivatives_at(g: &mut Graph, e: Id, gradient: &[Id], points: &[[(&str, f64); 3]]) {
        let (x, y) = (g.var("x"), g.var("y"));
        for at in points {
            let value = |n: &str| at.iter().find(|(k, _)| *k == n).unwrap().1;
            assert_eq!(value("w"), 1.5, "the weight of the reverse sweep");
            for (k, (name, var)) in [("x", x), ("y", y)].into_iter().enumerate() {
                let d = derivative(g, e, var);
                let exact = g.eval(d, &value);
                let fd = central_difference(g, e, name, at);
                assert!(
                    (exact - fd).abs() < 1e-8,
                    "∂/∂{name} at {at:?}: {exact} vs {fd}"
                );
                let reverse = g.eval(gradient[k], &value);
                assert!(
                    (reverse - 1.5 * exact).abs() < 1e-12,
                    "{reverse} vs {exact}"
                );
            }
        }
    }

    /// `if x > y { x·x·y } else { sin(x) + y·x }`: forward and reverse derivatives are the taken
    /// branch's, on both sides of the switch.
    #[test]
    fn select_is_differentiated_branch_by_branch() {
        let mut g = Graph::new();
        let (x, y, w) = (g.var("x"), g.var("y"), g.var("w"));
        let xx = g.mul(x, x);
        let then = g.mul(xx, y);
        let sx = g.sin(x);
        let yx = g.mul(y, x);
        let otherwise = g.add(sx, yx);
        let e = g.select(x, y, true, then, otherwise);
        let gradient = weighted_gradient(&mut g, &[e], &[w], &[x, y]);
        assert_derivatives_at(
            &mut g,
            e,
            &gradient,
            &[
                [("x", 0.9), ("y", 0.4), ("w", 1.5)],
                [("x", -0.3), ("y", 0.4), ("w", 1.5)],
            ],
        );
        // literals decide at build time; equal branches need no test
        let (one, two) = (g.one(), g.constant(2.0));
        assert_eq!(g.select(two, one, true, x, y), x);
        assert_eq!(g.select(one, one, true, x, y), y);
        assert_eq!(g.select(one, one, false, x, y), x);
        assert_eq!(g.select(x, y, true, w, w), w);
    }

    /// atan2(x·y, x − y²) in all four quadrants (the branch cut excluded): forward and reverse
    /// derivatives against central differences.
    #[test]
    fn atan2_is_differentiated_in_every_quadrant() {
        let mut g = Graph::new();
        let (x, y, w) = (g.var("x"), g.var("y"), g.var("w"));
        let num = g.mul(x, y);
        let yy = g.mul(y, y);
        let den = g.sub(x, yy);
        let e = g.atan2(num, den);
        let gradient = weighted_gradient(&mut g, &[e], &[w], &[x, y]);
        assert_derivatives_at(
            &mut g,
            e,
            &gradient,
            &[
                [("x", 0.9), ("y", 0.4), ("w", 1.5)],
                [("x", -0.3), ("y", 0.4), ("w", 1.5)],
                [("x", -0.7), ("y", -0.2), ("w", 1.5)],
                [("x", 0.2), ("y", -0.8), ("w", 1.5)],
            ],
        );
        let (one, minus_one) = (g.one(), g.constant(-1.0));
        let folded = g.atan2(one, minus_one);
        assert_eq!(g.as_const(folded), Some(1f64.atan2(-1.0)));
    }

    #[test]
    fn weighted_gradient_of_an_absent_variable_is_zero() {
        let mut g = Graph::new();
        let (x, y, w) = (g.var("x"), g.var("y"), g.var("w"));
        let e = g.mul(x, x);
        let gradient = weighted_gradient(&mut g, &[e], &[w], &[y, x]);
        assert!(g.is_zero(gradient[0]));
        let wx = g.mul(w, x);
        // w·x + w·x (= 2·(w·x)), as the sweep builds it from the two operands of x·x
        assert_eq!(gradient[1], g.add(wx, wx));
    }
}
