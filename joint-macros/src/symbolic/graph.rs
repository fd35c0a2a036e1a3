//! A hash-consed scalar expression DAG.
//!
//! Every node is stored once: building the same expression twice yields the same [`Id`], so
//! common subexpressions are shared structurally from the start. The smart constructors fold
//! constants and drop the neutral elements (`x + 0`, `1 · x`, `0 · x`), so neither the derivatives
//! nor the emitted code ever multiply by a literal 0 or 1. Commutative operands are ordered by id,
//! which makes `a·b` and `b·a` the same node.
//!
//! Determinism: ids are handed out in creation order, maps are keyed by node contents only, and
//! no pass depends on hashing order, so the emitted code is stable across runs.

use std::collections::HashMap;

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
}

/// The expression store.
#[derive(Default, Debug)]
pub struct Graph {
    nodes: Vec<Node>,
    lookup: HashMap<Node, Id>,
    vars: Vec<Var>,
    var_lookup: HashMap<String, Id>,
}

impl Graph {
    pub fn new() -> Self {
        Self::default()
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
        match self.node(a).clone() {
            Node::Const(bits) => self.constant(-f64::from_bits(bits)),
            Node::Neg(x) => x,
            _ => self.intern(Node::Neg(a)),
        }
    }

    pub fn mul(&mut self, a: Id, b: Id) -> Id {
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
        // Constant factors float to the top: x·(c·y) = c·(x·y).
        if self.as_const(a).is_none() {
            if let Node::Mul(c, y) = self.node(b).clone()
                && self.as_const(c).is_some()
            {
                let p = self.mul(a, y);
                return self.mul(c, p);
            }
            if let Node::Mul(c, y) = self.node(a).clone()
                && self.as_const(c).is_some()
            {
                let p = self.mul(y, b);
                return self.mul(c, p);
            }
            let (a, b) = if a <= b { (a, b) } else { (b, a) };
            return self.intern(Node::Mul(a, b));
        }
        self.intern(Node::Mul(a, b))
    }

    pub fn div(&mut self, a: Id, b: Id) -> Id {
        match (self.as_const(a), self.as_const(b)) {
            (Some(x), Some(y)) if y != 0.0 => return self.constant(x / y),
            (Some(0.0), _) => return self.zero(),
            (None, Some(1.0)) => return a,
            _ => {}
        }
        self.intern(Node::Div(a, b))
    }

    pub fn sqrt(&mut self, a: Id) -> Id {
        match self.as_const(a) {
            Some(x) if x >= 0.0 => self.constant(x.sqrt()),
            _ => self.intern(Node::Sqrt(a)),
        }
    }

    pub fn sin(&mut self, a: Id) -> Id {
        match self.as_const(a) {
            Some(x) => self.constant(x.sin()),
            None => self.intern(Node::Sin(a)),
        }
    }

    pub fn cos(&mut self, a: Id) -> Id {
        match self.as_const(a) {
            Some(x) => self.constant(x.cos()),
            None => self.intern(Node::Cos(a)),
        }
    }

    /// Sum of several terms, left to right.
    pub fn sum(&mut self, terms: &[Id]) -> Id {
        let mut acc = self.zero();
        for &t in terms {
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
                Node::Neg(x) | Node::Sqrt(x) | Node::Sin(x) | Node::Cos(x) => {
                    count += 1;
                    stack.push(x);
                }
                Node::Add(x, y) | Node::Mul(x, y) | Node::Div(x, y) => {
                    count += 1;
                    stack.push(x);
                    stack.push(y);
                }
            }
        }
        count
    }

    /// Number of operations if every expression tree were evaluated without sharing.
    pub fn operation_count_tree(&self, roots: &[Id]) -> u128 {
        let mut memo: HashMap<Id, u128> = HashMap::new();
        roots.iter().map(|&r| self.tree_count(r, &mut memo)).sum()
    }

    fn tree_count(&self, id: Id, memo: &mut HashMap<Id, u128>) -> u128 {
        if let Some(&c) = memo.get(&id) {
            return c;
        }
        let c = match *self.node(id) {
            Node::Const(_) | Node::Var(_) => 0,
            Node::Neg(x) | Node::Sqrt(x) | Node::Sin(x) | Node::Cos(x) => {
                1 + self.tree_count(x, memo)
            }
            Node::Add(x, y) | Node::Mul(x, y) | Node::Div(x, y) => {
                1 + self.tree_count(x, memo) + self.tree_count(y, memo)
            }
        };
        memo.insert(id, c);
        c
    }

    #[cfg(test)]
    /// Evaluate `id` numerically with `values[var index]`; used by tests and by the macro's own
    /// consistency checks.
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
        };
        memo.insert(id, v);
        v
    }
}
