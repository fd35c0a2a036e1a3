//! Common-subexpression elimination and emission of straight-line Rust.
//!
//! Every node reachable from the outputs is counted; a non-leaf node used more than once becomes a
//! `let tN = …;` (named in first-use order, so snapshots are stable), every other node is inlined
//! into its single user. Operator precedence is respected exactly — the emitted tree is the DAG's
//! tree, so `a * (b / c)` never turns into `a * b / c` (they round differently).

use std::collections::HashMap;

use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::quote;

use super::graph::{Graph, Id, Node};

/// The emitted statements and one expression per requested output.
pub struct Block {
    pub lets: Vec<TokenStream>,
    pub outputs: Vec<TokenStream>,
    /// Number of `let` temporaries.
    #[cfg_attr(not(test), allow(dead_code))]
    pub temporaries: usize,
    /// Arithmetic operations in the emitted code (each shared node counted once).
    pub operations: usize,
}

const PREC_IF: u8 = 0;
const PREC_ADD: u8 = 1;
const PREC_MUL: u8 = 2;
const PREC_NEG: u8 = 3;
const PREC_ATOM: u8 = 4;

struct Emitter<'g> {
    g: &'g Graph,
    uses: HashMap<Id, usize>,
    names: HashMap<Id, Ident>,
    lets: Vec<TokenStream>,
    prefix: String,
    /// The scalar type parameter of generic code (`S`: constants `S::c(…)`, conditionals
    /// `S::select_ge(…)`), or `None` for `f64` code.
    scalar: Option<Ident>,
}

/// Emit `outputs` of graph `g` as `f64` code. Temporaries are named `{prefix}{n}`.
pub fn emit(g: &Graph, outputs: &[Id], prefix: &str) -> Block {
    emit_in(g, outputs, prefix, None)
}

/// Emit `outputs` of graph `g` as code generic over the scalar type parameter `S`
/// (`joint_core::Scalar`): the same operations in the same order, so its `f64` instance
/// computes what [`emit`]'s code does, bit for bit.
pub fn emit_generic(g: &Graph, outputs: &[Id], prefix: &str) -> Block {
    emit_in(g, outputs, prefix, Some(Ident::new("S", Span::call_site())))
}

fn emit_in(g: &Graph, outputs: &[Id], prefix: &str, scalar: Option<Ident>) -> Block {
    let mut uses: HashMap<Id, usize> = HashMap::new();
    let mut stack: Vec<Id> = Vec::new();
    for &o in outputs {
        *uses.entry(o).or_insert(0) += 1;
        stack.push(o);
    }
    let mut visited: std::collections::HashSet<Id> = std::collections::HashSet::new();
    while let Some(id) = stack.pop() {
        if !visited.insert(id) {
            continue;
        }
        for child in children(g.node(id)) {
            *uses.entry(child).or_insert(0) += 1;
            stack.push(child);
        }
    }
    let mut e = Emitter {
        g,
        uses,
        names: HashMap::new(),
        lets: Vec::new(),
        prefix: prefix.to_owned(),
        scalar,
    };
    let outputs_ts = outputs
        .iter()
        .map(|&o| {
            // An output that is itself shared is bound once and then referenced.
            let (ts, _) = e.expr(o);
            ts
        })
        .collect();
    let operations = g.operation_count_shared(outputs);
    Block {
        temporaries: e.lets.len(),
        lets: e.lets,
        outputs: outputs_ts,
        operations,
    }
}

fn children(n: &Node) -> Vec<Id> {
    n.children()
}

fn literal(v: f64) -> (TokenStream, u8) {
    if v.is_nan() {
        return (quote!(::core::f64::NAN), PREC_ATOM);
    }
    if v.is_infinite() {
        return if v > 0.0 {
            (quote!(::core::f64::INFINITY), PREC_ATOM)
        } else {
            (quote!(::core::f64::NEG_INFINITY), PREC_ATOM)
        };
    }
    // the constants clippy knows by name (`approx_constant`): written as their names
    use std::f64::consts;
    let named: [(f64, &str); 6] = [
        (consts::PI, "PI"),
        (consts::TAU, "TAU"),
        (consts::FRAC_PI_2, "FRAC_PI_2"),
        (consts::FRAC_1_PI, "FRAC_1_PI"),
        (consts::E, "E"),
        (consts::SQRT_2, "SQRT_2"),
    ];
    let magnitude = match named.iter().find(|(c, _)| *c == v.abs()) {
        Some((_, name)) => {
            let name = proc_macro2::Ident::new(name, proc_macro2::Span::call_site());
            quote!(::core::f64::consts::#name)
        }
        None => {
            let lit = Literal::f64_unsuffixed(v.abs());
            quote!(#lit)
        }
    };
    if v < 0.0 {
        (quote!(-#magnitude), PREC_NEG)
    } else {
        (magnitude, PREC_ATOM)
    }
}

impl Emitter<'_> {
    /// The expression for `id`, with its precedence. Shared nodes are hoisted into `let`s.
    fn expr(&mut self, id: Id) -> (TokenStream, u8) {
        if let Some(name) = self.names.get(&id) {
            return (quote!(#name), PREC_ATOM);
        }
        let node = self.g.node(id).clone();
        let shared = self.uses.get(&id).copied().unwrap_or(0) > 1;
        let (ts, prec) = match node {
            Node::Const(bits) => {
                let (value, prec) = literal(f64::from_bits(bits));
                return match &self.scalar {
                    Some(s) => (quote!(#s::c(#value)), PREC_ATOM),
                    None => (value, prec),
                };
            }
            Node::Var(i) => {
                let ident = Ident::new(&self.g.var_info(i).name, Span::call_site());
                return (quote!(#ident), PREC_ATOM);
            }
            Node::Add(a, b) => {
                // a + (−b) is written a − b; (−a) + b is written b − a.
                match (self.g.node(a).clone(), self.g.node(b).clone()) {
                    (_, Node::Neg(nb)) if !self.is_hoisted_or_shared(b) => {
                        let l = self.operand(a, PREC_ADD);
                        let r = self.operand(nb, PREC_ADD + 1);
                        (quote!(#l - #r), PREC_ADD)
                    }
                    (Node::Neg(na), _) if !self.is_hoisted_or_shared(a) => {
                        let l = self.operand(b, PREC_ADD);
                        let r = self.operand(na, PREC_ADD + 1);
                        (quote!(#l - #r), PREC_ADD)
                    }
                    _ => {
                        let l = self.operand(a, PREC_ADD);
                        let r = self.operand(b, PREC_ADD + 1);
                        (quote!(#l + #r), PREC_ADD)
                    }
                }
            }
            Node::Mul(a, b) => {
                let l = self.operand(a, PREC_MUL);
                let r = self.operand(b, PREC_MUL + 1);
                (quote!(#l * #r), PREC_MUL)
            }
            Node::Div(a, b) => {
                let l = self.operand(a, PREC_MUL);
                let r = self.operand(b, PREC_MUL + 1);
                (quote!(#l / #r), PREC_MUL)
            }
            Node::Neg(a) => {
                let x = self.operand(a, PREC_NEG);
                (quote!(-#x), PREC_NEG)
            }
            Node::Sqrt(a) => {
                let x = self.operand(a, PREC_ATOM);
                (quote!(#x.sqrt()), PREC_ATOM)
            }
            Node::Sin(a) => {
                let x = self.operand(a, PREC_ATOM);
                (quote!(#x.sin()), PREC_ATOM)
            }
            Node::Cos(a) => {
                let x = self.operand(a, PREC_ATOM);
                (quote!(#x.cos()), PREC_ATOM)
            }
            Node::Round(a) => {
                // as a path call: a literal would leave `{float}.round` ambiguous
                let x = self.operand(a, 0);
                let path = self.scalar_path();
                (quote!(#path::round(#x)), PREC_ATOM)
            }
            Node::Atan2(y, x) => {
                // as a path call: a literal y would leave `{float}.atan2` ambiguous
                let l = self.operand(y, 0);
                let r = self.operand(x, 0);
                let path = self.scalar_path();
                (quote!(#path::atan2(#l, #r)), PREC_ATOM)
            }
            // below every operator: parenthesized wherever it is an operand
            Node::Select {
                a,
                b,
                strict,
                then,
                otherwise,
            } => {
                let l = self.operand(a, PREC_ADD);
                let r = self.operand(b, PREC_ADD);
                let t = self.operand(then, 0);
                let o = self.operand(otherwise, 0);
                if let Some(s) = &self.scalar {
                    // both branches as closures: lanes may evaluate both and blend
                    let select = if strict {
                        quote!(select_gt)
                    } else {
                        quote!(select_ge)
                    };
                    return self.maybe_shared(
                        id,
                        shared,
                        quote!(#s::#select(#l, #r, || #t, || #o)),
                        PREC_ATOM,
                    );
                }
                let test = if strict {
                    quote!(#l > #r)
                } else {
                    quote!(#l >= #r)
                };
                (quote!(if #test { #t } else { #o }), PREC_IF)
            }
        };
        self.maybe_shared(id, shared, ts, prec)
    }

    /// `ts`, bound to a `let` if the node is shared.
    fn maybe_shared(
        &mut self,
        id: Id,
        shared: bool,
        ts: TokenStream,
        prec: u8,
    ) -> (TokenStream, u8) {
        if shared {
            let name = Ident::new(
                &format!("{}{}", self.prefix, self.lets.len()),
                Span::call_site(),
            );
            self.lets.push(quote!(let #name = #ts;));
            self.names.insert(id, name.clone());
            (quote!(#name), PREC_ATOM)
        } else {
            (ts, prec)
        }
    }

    /// `f64` or the scalar type parameter, for a function called by path.
    fn scalar_path(&self) -> TokenStream {
        match &self.scalar {
            Some(s) => quote!(#s),
            None => quote!(f64),
        }
    }

    fn is_hoisted_or_shared(&self, id: Id) -> bool {
        self.names.contains_key(&id) || self.uses.get(&id).copied().unwrap_or(0) > 1
    }

    fn operand(&mut self, id: Id, min_prec: u8) -> TokenStream {
        let (ts, prec) = self.expr(id);
        if prec < min_prec { quote!((#ts)) } else { ts }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render(b: &Block) -> String {
        let lets = &b.lets;
        let outs = &b.outputs;
        let ts = quote!(fn f() { #(#lets)* (#(#outs),*) });
        let file: syn::File = syn::parse2(ts).unwrap();
        prettyplease::unparse(&file)
    }

    #[test]
    fn shared_subexpression_is_bound_once() {
        let mut g = Graph::new();
        let x = g.var("x");
        let y = g.var("y");
        let s = g.add(x, y);
        let a = g.mul(s, x);
        let b = g.mul(s, y);
        let block = emit(&g, &[a, b], "t");
        assert_eq!(block.temporaries, 1);
        let text = render(&block);
        assert!(text.contains("let t0 = x + y;"), "{text}");
        assert!(text.contains("(x * t0, y * t0)"), "{text}");
    }

    #[test]
    fn parentheses_keep_the_tree_shape() {
        let mut g = Graph::new();
        let a = g.var("a");
        let b = g.var("b");
        let c = g.var("c");
        let bc = g.div(b, c);
        let e = g.mul(a, bc);
        let bpc = g.add(b, c);
        let f = g.sub(a, bpc);
        let text = render(&emit(&g, &[e, f], "t"));
        assert!(text.contains("a * (b / c)"), "{text}");
        assert!(text.contains("a - (b + c)"), "{text}");
    }
}
