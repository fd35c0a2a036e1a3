//! A hash-consed scalar expression DAG.
//!
//! Every node is stored once: building the same expression twice yields the same [`Id`], so
//! common subexpressions are shared structurally from the start. The smart constructors fold
//! constants and drop the neutral elements (`x + 0`, `1 · x`, `0 · x`), so neither the derivatives
//! nor the emitted code ever multiply by a literal 0 or 1. Commutative operands are ordered by id,
//! which makes `a·b` and `b·a` the same node. A power-of-two factor stays on an operand and goes
//! into a sum of two products (x·(2y), 2·(xy + uv) = x·(2y) + u·(2v)): scaling by it is exact,
//! so the bits are those of the expression as written, and a doubled operand is shared.
//!
//! Determinism: ids are handed out in creation order, maps are keyed by node contents only, and
//! no pass depends on hashing order, so the emitted code is stable across runs.
//!
//! For the operation-count report only, `Graph::unsimplified` makes a graph whose constructors
//! build every operation exactly as called: no constant folding, no neutral or absorbing
//! elements, no double negation, no reordering of operands. Hash-consing stays (identical
//! subtrees are still one node): it keeps that graph small and does not change the size of any
//! expression *tree*, which is all that is counted there ([`Graph::operation_count_tree`]).

use std::collections::HashMap;

/// ±2ᵏ: multiplying by it only changes the exponent.
fn is_power_of_two(c: f64) -> bool {
    let m = c.abs();
    m.is_normal() && m.to_bits() & ((1u64 << 52) - 1) == 0
}

/// Index of a node in a [`Graph`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Id(pub(crate) u32);

/// What a variable stands for in a kernel's argument list.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Var {
    /// Rust identifier used in the emitted code.
    pub name: String,
}

/// One node of the DAG.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Node {
    /// A literal, stored by its bit pattern so that it can be hashed.
    Const(u64),
    /// An input of the kernel (a coordinate, a coordinate velocity or a parameter).
    Var(u32),
    Add(Id, Id),
    Mul(Id, Id),
    Neg(Id),
    Div(Id, Id),
    Sqrt(Id),
    Sin(Id),
    Cos(Id),
    /// `y.atan2(x)`: the angle of the point (x, y), in (−π, π].
    Atan2(Id, Id),
    /// `x.round()`: the nearest integer (half away from zero). Piecewise constant: its
    /// derivative is zero (the jumps have none), as for the turn count of a continuous angle.
    Round(Id),
    /// `if a > b { then } else { otherwise }` (`a >= b` unless `strict`): a piecewise value,
    /// differentiated branch by branch.
    Select {
        a: Id,
        b: Id,
        strict: bool,
        then: Id,
        otherwise: Id,
    },
}

impl Node {
    /// The operands, in order.
    pub fn children(&self) -> Vec<Id> {
        match *self {
            Node::Const(_) | Node::Var(_) => vec![],
            Node::Neg(x) | Node::Sqrt(x) | Node::Sin(x) | Node::Cos(x) | Node::Round(x) => {
                vec![x]
            }
            Node::Add(a, b) | Node::Mul(a, b) | Node::Div(a, b) | Node::Atan2(a, b) => vec![a, b],
            Node::Select {
                a,
                b,
                then,
                otherwise,
                ..
            } => vec![a, b, then, otherwise],
        }
    }
}

/// The expression store.
#[derive(Default, Debug)]
pub struct Graph {
    nodes: Vec<Node>,
    lookup: HashMap<Node, Id>,
    vars: Vec<Var>,
    var_lookup: HashMap<String, Id>,
    /// Build every operation as called, without algebraic simplification (see the module docs).
    unsimplified: bool,
}

impl Graph {
    pub fn new() -> Self {
        Self::default()
    }

    /// A graph whose constructors do not simplify: `add(x, 0)` is an addition, `mul(2, 3)` a
    /// multiplication, `neg(neg(x))` two negations. Only for counting operations before
    /// simplification; code is never emitted from such a graph.
    #[cfg(test)]
    pub fn unsimplified() -> Self {
        Self {
            unsimplified: true,
            ..Self::default()
        }
    }

    /// Whether the constructors fold and simplify (false for `Graph::unsimplified`).
    pub fn simplifies(&self) -> bool {
        !self.unsimplified
    }

    pub fn node(&self, id: Id) -> &Node {
        &self.nodes[id.0 as usize]
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn var_info(&self, index: u32) -> &Var {
        &self.vars[index as usize]
    }

    fn intern(&mut self, node: Node) -> Id {
        if let Some(&id) = self.lookup.get(&node) {
            return id;
        }
        let id = Id(u32::try_from(self.nodes.len()).expect("expression graph exceeds u32 nodes"));
        self.nodes.push(node.clone());
        self.lookup.insert(node, id);
        id
    }

    /// The variable named `name`, created on first use.
    pub fn var(&mut self, name: &str) -> Id {
        if let Some(&id) = self.var_lookup.get(name) {
            return id;
        }
        let index = u32::try_from(self.vars.len()).expect("too many variables");
        self.vars.push(Var {
            name: name.to_owned(),
        });
        let id = self.intern(Node::Var(index));
        self.var_lookup.insert(name.to_owned(), id);
        id
    }

    pub fn constant(&mut self, value: f64) -> Id {
        // -0.0 and 0.0 are one literal: normalise so that `is_zero` sees both.
        let value = if value == 0.0 { 0.0 } else { value };
        self.intern(Node::Const(value.to_bits()))
    }

    pub fn zero(&mut self) -> Id {
        self.constant(0.0)
    }

    pub fn one(&mut self) -> Id {
        self.constant(1.0)
    }

    pub fn as_const(&self, id: Id) -> Option<f64> {
        match self.node(id) {
            Node::Const(bits) => Some(f64::from_bits(*bits)),
            _ => None,
        }
    }

    pub fn is_zero(&self, id: Id) -> bool {
        self.as_const(id) == Some(0.0)
    }

    pub fn add(&mut self, a: Id, b: Id) -> Id {
        if self.unsimplified {
            return self.intern(Node::Add(a, b));
        }
        match (self.as_const(a), self.as_const(b)) {
            (Some(x), Some(y)) => return self.constant(x + y),
            (Some(0.0), None) => return b,
            (None, Some(0.0)) => return a,
            _ => {}
        }
        // x + x = 2·x
        if a == b {
            let two = self.constant(2.0);
            return self.mul(two, a);
        }
        // x + (−x) = 0
        if *self.node(a) == Node::Neg(b) || *self.node(b) == Node::Neg(a) {
            return self.zero();
        }
        // (−x) + (−y) = −(x + y): keeps negations at the top where `sub` can absorb them.
        if let (Node::Neg(x), Node::Neg(y)) = (self.node(a).clone(), self.node(b).clone()) {
            let s = self.add(x, y);
            return self.neg(s);
        }
        let (a, b) = if a <= b { (a, b) } else { (b, a) };
        self.intern(Node::Add(a, b))
    }

    pub fn sub(&mut self, a: Id, b: Id) -> Id {
        let nb = self.neg(b);
        self.add(a, nb)
    }

    pub fn neg(&mut self, a: Id) -> Id {
        if self.unsimplified {
            return self.intern(Node::Neg(a));
        }
        match self.node(a).clone() {
            Node::Const(bits) => self.constant(-f64::from_bits(bits)),
            Node::Neg(x) => x,
            _ => self.intern(Node::Neg(a)),
        }
    }

    pub fn mul(&mut self, a: Id, b: Id) -> Id {
        if self.unsimplified {
            return self.intern(Node::Mul(a, b));
        }
        match (self.as_const(a), self.as_const(b)) {
            (Some(x), Some(y)) => return self.constant(x * y),
            (Some(0.0), _) | (_, Some(0.0)) => return self.zero(),
            (Some(1.0), None) => return b,
            (None, Some(1.0)) => return a,
            (Some(-1.0), None) => return self.neg(b),
            (None, Some(-1.0)) => return self.neg(a),
            _ => {}
        }
        // Pull negations out of products: (−x)·y = −(x·y).
        match (self.node(a).clone(), self.node(b).clone()) {
            (Node::Neg(x), Node::Neg(y)) => return self.mul(x, y),
            (Node::Neg(x), _) => {
                let p = self.mul(x, b);
                return self.neg(p);
            }
            (_, Node::Neg(y)) => {
                let p = self.mul(a, y);
                return self.neg(p);
            }
            _ => {}
        }
        // Fold nested constant factors: c1·(c2·x) = (c1·c2)·x.
        if let Some(c1) = self.as_const(a)
            && let Node::Mul(x, y) = self.node(b).clone()
            && let Some(c2) = self.as_const(x)
        {
            let c = self.constant(c1 * c2);
            return self.mul(c, y);
        }
        if self.as_const(b).is_some() {
            return self.mul(b, a);
        }
        // A power of two goes into a sum of two products, onto each product's second operand
        // (the later node): 2·(x·y ± u·v) = x·(2y) ± u·(2v). Scaling by it is exact, so both
        // round alike; A(θ)'s nine entries 2(θ1θ3 + θ0θ2), 1 − 2(θ2² + θ3²), … then share the
        // four doubled θᵢ (which Ḡ uses anyway) instead of doubling each entry. Which operand
        // is doubled does not change the count but the code LLVM makes of it: the second gave
        // the EP–EP fast kernel 331 instructions and 19.5 ns, the first 356 and 20.6 ns
        // (before: 328 and 20.6 ns; docs/performance.md).
        if let Some(c) = self.as_const(a)
            && is_power_of_two(c)
            && let Node::Add(x, y) = self.node(b).clone()
            && let (Some(x_product), Some(y_product)) = (self.product(x), self.product(y))
        {
            let x = self.scale_product(c, x_product);
            let y = self.scale_product(c, y_product);
            return self.add(x, y);
        }
        // Constant factors float to the top: x·(c·y) = c·(x·y). Not powers of two: scaling by
        // one is exact, so x·(c·y) rounds as c·(x·y) does, and keeping the scaled operand (often
        // a shared entry such as A(θ)'s 2(θ1θ2 − θ0θ3)) saves a multiplication at every use.
        if self.as_const(a).is_none() {
            if let Node::Mul(c, y) = self.node(b).clone()
                && self.as_const(c).is_some_and(|c| !is_power_of_two(c))
            {
                let p = self.mul(a, y);
                return self.mul(c, p);
            }
            if let Node::Mul(c, y) = self.node(a).clone()
                && self.as_const(c).is_some_and(|c| !is_power_of_two(c))
            {
                let p = self.mul(y, b);
                return self.mul(c, p);
            }
            let (a, b) = if a <= b { (a, b) } else { (b, a) };
            return self.intern(Node::Mul(a, b));
        }
        self.intern(Node::Mul(a, b))
    }

    /// `x` as a product: whether it is negated, and its two operands.
    fn product(&self, x: Id) -> Option<(bool, Id, Id)> {
        match *self.node(x) {
            Node::Mul(u, v) => Some((false, u, v)),
            Node::Neg(p) => match *self.node(p) {
                Node::Mul(u, v) => Some((true, u, v)),
                _ => None,
            },
            _ => None,
        }
    }

    /// `c·(±u·v)` as `±u·(c·v)`.
    fn scale_product(&mut self, c: f64, (negated, u, v): (bool, Id, Id)) -> Id {
        let c = self.constant(c);
        let cv = self.mul(c, v);
        let p = self.mul(u, cv);
        if negated { self.neg(p) } else { p }
    }

    pub fn div(&mut self, a: Id, b: Id) -> Id {
        if self.unsimplified {
            return self.intern(Node::Div(a, b));
        }
        match (self.as_const(a), self.as_const(b)) {
            (Some(x), Some(y)) if y != 0.0 => return self.constant(x / y),
            (Some(0.0), _) => return self.zero(),
            (None, Some(1.0)) => return a,
            _ => {}
        }
        // Negations out of quotients, as out of products: (−x)/y = x/(−y) = −(x/y), exact
        // (division rounds symmetrically), so −(x/y) shares x/y where it is used too.
        match (self.node(a).clone(), self.node(b).clone()) {
            (Node::Neg(x), Node::Neg(y)) => return self.div(x, y),
            (Node::Neg(x), _) => {
                let q = self.div(x, b);
                return self.neg(q);
            }
            (_, Node::Neg(y)) => {
                let q = self.div(a, y);
                return self.neg(q);
            }
            _ => {}
        }
        // A common power of two cancels: (c·x)/(c·y) = x/y, exact as both scalings are (unless
        // c·x or c·y overflows). The derivative of a norm, (2·Δp·Δp')/(2·|Δp|), then shares
        // Δp/|Δp| with the force's direction.
        if let (Node::Mul(c0, x), Node::Mul(c1, y)) = (self.node(a).clone(), self.node(b).clone())
            && let (Some(c0), Some(c1)) = (self.as_const(c0), self.as_const(c1))
            && c0 == c1
            && is_power_of_two(c0)
        {
            return self.div(x, y);
        }
        self.intern(Node::Div(a, b))
    }

    pub fn sqrt(&mut self, a: Id) -> Id {
        if self.unsimplified {
            return self.intern(Node::Sqrt(a));
        }
        match self.as_const(a) {
            Some(x) if x >= 0.0 => self.constant(x.sqrt()),
            _ => self.intern(Node::Sqrt(a)),
        }
    }

    pub fn sin(&mut self, a: Id) -> Id {
        if self.unsimplified {
            return self.intern(Node::Sin(a));
        }
        match self.as_const(a) {
            Some(x) => self.constant(x.sin()),
            None => self.intern(Node::Sin(a)),
        }
    }

    pub fn cos(&mut self, a: Id) -> Id {
        if self.unsimplified {
            return self.intern(Node::Cos(a));
        }
        match self.as_const(a) {
            Some(x) => self.constant(x.cos()),
            None => self.intern(Node::Cos(a)),
        }
    }

    /// round(a), Rust's `a.round()`.
    pub fn round(&mut self, a: Id) -> Id {
        if self.unsimplified {
            return self.intern(Node::Round(a));
        }
        match self.as_const(a) {
            Some(x) => self.constant(x.round()),
            None => self.intern(Node::Round(a)),
        }
    }

    /// atan2(y, x), Rust's `y.atan2(x)`.
    pub fn atan2(&mut self, y: Id, x: Id) -> Id {
        if self.unsimplified {
            return self.intern(Node::Atan2(y, x));
        }
        match (self.as_const(y), self.as_const(x)) {
            (Some(a), Some(b)) => self.constant(a.atan2(b)),
            _ => self.intern(Node::Atan2(y, x)),
        }
    }

    /// `if a > b { then } else { otherwise }` (`>=` unless `strict`). A simplifying graph takes
    /// the branch when the comparison is of literals, and drops the test when both branches
    /// are one node.
    pub fn select(&mut self, a: Id, b: Id, strict: bool, then: Id, otherwise: Id) -> Id {
        if !self.unsimplified {
            if then == otherwise {
                return then;
            }
            if let (Some(x), Some(y)) = (self.as_const(a), self.as_const(b)) {
                let holds = if strict { x > y } else { x >= y };
                return if holds { then } else { otherwise };
            }
        }
        self.intern(Node::Select {
            a,
            b,
            strict,
            then,
            otherwise,
        })
    }

    /// Sum of several terms, left to right: `n − 1` additions (the literal 0 for no terms).
    /// Starting from the first term rather than from 0 gives the same node in a simplifying graph
    /// (`0 + t = t`) and no spurious `0 +` in an unsimplified one. The literal 0 is interned first
    /// in any case, as it always was: node ids, and with them the order of commutative operands
    /// in the emitted code, must not depend on this.
    pub fn sum(&mut self, terms: &[Id]) -> Id {
        let zero = self.zero();
        let Some((&first, rest)) = terms.split_first() else {
            return zero;
        };
        let mut acc = first;
        for &t in rest {
            acc = self.add(acc, t);
        }
        acc
    }

    /// Number of arithmetic operations needed to evaluate `roots` if every node is computed once.
    pub fn operation_count_shared(&self, roots: &[Id]) -> usize {
        let mut seen = vec![false; self.nodes.len()];
        let mut stack: Vec<Id> = roots.to_vec();
        let mut count = 0;
        while let Some(id) = stack.pop() {
            if std::mem::replace(&mut seen[id.0 as usize], true) {
                continue;
            }
            match *self.node(id) {
                Node::Const(_) | Node::Var(_) => {}
                Node::Neg(x) | Node::Sqrt(x) | Node::Sin(x) | Node::Cos(x) | Node::Round(x) => {
                    count += 1;
                    stack.push(x);
                }
                Node::Add(x, y) | Node::Mul(x, y) | Node::Div(x, y) | Node::Atan2(x, y) => {
                    count += 1;
                    stack.push(x);
                    stack.push(y);
                }
                // the comparison; both branches are counted
                ref n @ Node::Select { .. } => {
                    count += 1;
                    stack.extend(n.children());
                }
            }
        }
        count
    }

    /// Number of operations if every expression tree were evaluated without sharing: the size of
    /// each root's tree, summed. Computed per node in one pass over the graph (a node's operands
    /// always have smaller ids), so a tree is never materialized; saturates at `u128::MAX`.
    pub fn operation_count_tree(&self, roots: &[Id]) -> u128 {
        let Some(last) = roots.iter().map(|r| r.0 as usize).max() else {
            return 0;
        };
        let mut size: Vec<u128> = Vec::with_capacity(last + 1);
        for node in &self.nodes[..=last] {
            let s = match *node {
                Node::Const(_) | Node::Var(_) => 0,
                Node::Neg(x) | Node::Sqrt(x) | Node::Sin(x) | Node::Cos(x) | Node::Round(x) => {
                    size[x.0 as usize].saturating_add(1)
                }
                Node::Add(x, y) | Node::Mul(x, y) | Node::Div(x, y) | Node::Atan2(x, y) => size
                    [x.0 as usize]
                    .saturating_add(size[y.0 as usize])
                    .saturating_add(1),
                ref n @ Node::Select { .. } => n
                    .children()
                    .iter()
                    .fold(1u128, |acc, c| acc.saturating_add(size[c.0 as usize])),
            };
            size.push(s);
        }
        roots
            .iter()
            .fold(0u128, |acc, r| acc.saturating_add(size[r.0 as usize]))
    }

    /// Every node's value, in id order (a node's operands come before it), with the variables'
    /// values from `values`: the macro's own numeric checks evaluate whole graphs this way.
    pub fn evaluate(&self, values: &dyn Fn(&str) -> f64) -> Vec<f64> {
        let mut out: Vec<f64> = Vec::with_capacity(self.nodes.len());
        for node in &self.nodes {
            let v = match *node {
                Node::Const(bits) => f64::from_bits(bits),
                Node::Var(i) => values(&self.vars[i as usize].name),
                Node::Add(a, b) => out[a.0 as usize] + out[b.0 as usize],
                Node::Mul(a, b) => out[a.0 as usize] * out[b.0 as usize],
                Node::Div(a, b) => out[a.0 as usize] / out[b.0 as usize],
                Node::Neg(a) => -out[a.0 as usize],
                Node::Sqrt(a) => out[a.0 as usize].sqrt(),
                Node::Sin(a) => out[a.0 as usize].sin(),
                Node::Cos(a) => out[a.0 as usize].cos(),
                Node::Round(a) => out[a.0 as usize].round(),
                Node::Atan2(a, b) => out[a.0 as usize].atan2(out[b.0 as usize]),
                Node::Select {
                    a,
                    b,
                    strict,
                    then,
                    otherwise,
                } => {
                    let (x, y) = (out[a.0 as usize], out[b.0 as usize]);
                    let holds = if strict { x > y } else { x >= y };
                    out[if holds { then } else { otherwise }.0 as usize]
                }
            };
            out.push(v);
        }
        out
    }

    #[cfg(test)]
    /// Evaluate `id` numerically with `values[var index]`; used by tests.
    pub fn eval(&self, id: Id, values: &dyn Fn(&str) -> f64) -> f64 {
        let mut memo: HashMap<Id, f64> = HashMap::new();
        self.eval_memo(id, values, &mut memo)
    }

    #[cfg(test)]
    fn eval_memo(&self, id: Id, values: &dyn Fn(&str) -> f64, memo: &mut HashMap<Id, f64>) -> f64 {
        if let Some(&v) = memo.get(&id) {
            return v;
        }
        let v = match *self.node(id) {
            Node::Const(bits) => f64::from_bits(bits),
            Node::Var(i) => values(&self.vars[i as usize].name),
            Node::Add(a, b) => self.eval_memo(a, values, memo) + self.eval_memo(b, values, memo),
            Node::Mul(a, b) => self.eval_memo(a, values, memo) * self.eval_memo(b, values, memo),
            Node::Div(a, b) => self.eval_memo(a, values, memo) / self.eval_memo(b, values, memo),
            Node::Neg(a) => -self.eval_memo(a, values, memo),
            Node::Sqrt(a) => self.eval_memo(a, values, memo).sqrt(),
            Node::Sin(a) => self.eval_memo(a, values, memo).sin(),
            Node::Cos(a) => self.eval_memo(a, values, memo).cos(),
            Node::Round(a) => self.eval_memo(a, values, memo).round(),
            Node::Atan2(a, b) => {
                let y = self.eval_memo(a, values, memo);
                y.atan2(self.eval_memo(b, values, memo))
            }
            Node::Select {
                a,
                b,
                strict,
                then,
                otherwise,
            } => {
                let (x, y) = (
                    self.eval_memo(a, values, memo),
                    self.eval_memo(b, values, memo),
                );
                let holds = if strict { x > y } else { x >= y };
                self.eval_memo(if holds { then } else { otherwise }, values, memo)
            }
        };
        memo.insert(id, v);
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `(−(−x) · 1 + 0) + 2·3`, built in `g`.
    fn sample(g: &mut Graph) -> Id {
        let x = g.var("x");
        let nx = g.neg(x);
        let nnx = g.neg(nx);
        let one = g.one();
        let p = g.mul(nnx, one);
        let zero = g.zero();
        let s = g.add(p, zero);
        let (two, three) = (g.constant(2.0), g.constant(3.0));
        let six = g.mul(two, three);
        g.add(s, six)
    }

    #[test]
    fn unsimplified_graph_keeps_every_operation() {
        let mut g = Graph::unsimplified();
        let e = sample(&mut g);
        // neg, neg, ·1, +0, 2·3, +
        assert_eq!(g.operation_count_tree(&[e]), 6);
        assert_eq!(g.eval(e, &|_| 5.0), 11.0);
        let mut s = Graph::new();
        let e = sample(&mut s);
        // x + 6
        assert_eq!(s.operation_count_tree(&[e]), 1);
    }

    #[test]
    fn unsimplified_graph_is_still_hash_consed() {
        let mut g = Graph::unsimplified();
        let x = g.var("x");
        let a = g.mul(x, x);
        let b = g.mul(x, x);
        assert_eq!(a, b);
        let s = g.add(a, b);
        // a tree counts the shared operand twice, the DAG once
        assert_eq!(g.operation_count_tree(&[s]), 3);
        assert_eq!(g.operation_count_shared(&[s]), 2);
    }

    #[test]
    fn sum_starts_from_the_first_term() {
        let mut g = Graph::unsimplified();
        let t: Vec<Id> = ["a", "b", "c"].iter().map(|n| g.var(n)).collect();
        let s = g.sum(&t);
        assert_eq!(g.operation_count_tree(&[s]), 2);
        let empty = g.sum(&[]);
        assert!(g.is_zero(empty));
    }

    #[test]
    fn power_of_two_factor_stays_on_its_operand_other_constants_float() {
        let mut g = Graph::new();
        let (x, y) = (g.var("x"), g.var("y"));
        let two = g.constant(2.0);
        let two_y = g.mul(two, y);
        // x·(2y) is kept: 2y is computed once however often it is used
        let p = g.mul(x, two_y);
        assert_eq!(g.node(p), &Node::Mul(x, two_y));
        let three = g.constant(3.0);
        let three_y = g.mul(three, y);
        let q = g.mul(x, three_y);
        let xy = g.mul(x, y);
        assert_eq!(g.node(q), &Node::Mul(three, xy));
        for c in [2.0, 0.5, -4.0, 1.0 / 1024.0] {
            assert!(is_power_of_two(c), "{c}");
        }
        for c in [
            3.0,
            0.1,
            -6.0,
            0.0,
            f64::INFINITY,
            f64::NAN,
            f64::MIN_POSITIVE / 4.0,
        ] {
            assert!(!is_power_of_two(c), "{c}");
        }
    }

    /// Normal numbers with a random mantissa and sign, magnitudes between 2^-60 and 2^68
    /// (xorshift from `seed`): their products and sums neither overflow nor underflow.
    fn random_normals(seed: u64) -> impl FnMut() -> f64 {
        let mut state = seed;
        move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            f64::from_bits((state & ((1u64 << 52) - 1)) | ((1023 - 60 + (state >> 57)) << 52))
                * if state & 1 == 0 { 1.0 } else { -1.0 }
        }
    }

    /// Why keeping x·(2y) is safe: away from overflow and underflow, scaling by a power of two
    /// is exact, so x·(c·y) and c·(x·y) round to the same bits.
    #[test]
    fn scaling_by_a_power_of_two_commutes_with_rounding() {
        let mut next = random_normals(0x2545_f491_4f6c_dd1d);
        for _ in 0..100_000 {
            let (x, y) = (next(), next());
            for c in [2.0, 0.5, -2.0, 8.0] {
                assert_eq!(
                    (x * (c * y)).to_bits(),
                    (c * (x * y)).to_bits(),
                    "{x} {y} {c}"
                );
            }
        }
    }

    #[test]
    fn power_of_two_goes_into_a_sum_of_two_products() {
        let mut g = Graph::new();
        let (x, y, u, v, w) = (g.var("x"), g.var("y"), g.var("u"), g.var("v"), g.var("w"));
        let two = g.constant(2.0);
        let (xy, uv) = (g.mul(x, y), g.mul(u, v));
        let (two_y, two_v) = (g.mul(two, y), g.mul(two, v));
        let (two_x_y, two_u_v) = (g.mul(x, two_y), g.mul(u, two_v));
        // 2·(xy + uv) = x·(2y) + u·(2v), and 2·(xy − uv) shares both doubled products
        let sum = g.add(xy, uv);
        let plus = g.mul(two, sum);
        let expected = g.add(two_x_y, two_u_v);
        assert_eq!(plus, expected);
        let difference = g.sub(xy, uv);
        let minus = g.mul(two, difference);
        let expected = g.sub(two_x_y, two_u_v);
        assert_eq!(minus, expected);
        // A sum with an addend that is not a product keeps its factor outside.
        let mixed = g.add(xy, w);
        let scaled = g.mul(two, mixed);
        assert_eq!(g.node(scaled), &Node::Mul(two, mixed));
        // Other constants are not distributed.
        let three = g.constant(3.0);
        let scaled = g.mul(three, sum);
        assert_eq!(g.node(scaled), &Node::Mul(three, sum));
    }

    /// Why distributing a power of two over a sum of products is safe: c·(x·y ± u·v) and
    /// x·(c·y) ± u·(c·v) round to the same bits (each product and the sum scale exactly).
    #[test]
    fn power_of_two_distributes_over_a_sum_of_products_to_the_bit() {
        let mut next = random_normals(0x9e37_79b9_7f4a_7c15);
        for _ in 0..100_000 {
            let (x, y, u, v) = (next(), next(), next(), next());
            for c in [2.0, 0.5, -2.0, 8.0] {
                assert_eq!(
                    (c * (x * y + u * v)).to_bits(),
                    (x * (c * y) + u * (c * v)).to_bits(),
                    "{x} {y} {u} {v} {c}"
                );
                assert_eq!(
                    (c * (x * y - u * v)).to_bits(),
                    (x * (c * y) - u * (c * v)).to_bits(),
                    "{x} {y} {u} {v} {c}"
                );
            }
        }
    }

    #[test]
    fn tree_count_of_a_deep_shared_chain_does_not_overflow() {
        // x_{k+1} = x_k · x_k: the tree of x_200 has 2^200 − 1 multiplications.
        let mut g = Graph::unsimplified();
        let mut e = g.var("x");
        for _ in 0..200 {
            e = g.mul(e, e);
        }
        assert_eq!(g.operation_count_tree(&[e]), u128::MAX);
        let mut e = g.var("y");
        for _ in 0..100 {
            e = g.mul(e, e);
        }
        assert_eq!(g.operation_count_tree(&[e]), (1u128 << 100) - 1);
    }
}
