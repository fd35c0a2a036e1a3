//! Helpers shared by the generators: argument binding and symbol bookkeeping.

use std::collections::BTreeSet;

use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::quote;

use crate::symbolic::graph::Node;
use crate::symbolic::{Graph, Id};

pub fn ident(name: &str) -> Ident {
    Ident::new(name, Span::call_site())
}

/// Names of the variables that `roots` depend on.
pub fn used_variables(g: &Graph, roots: &[Id]) -> BTreeSet<String> {
    let mut seen = vec![false; g.len()];
    let mut stack = roots.to_vec();
    let mut out = BTreeSet::new();
    while let Some(id) = stack.pop() {
        if std::mem::replace(&mut seen[id.0 as usize], true) {
            continue;
        }
        match *g.node(id) {
            Node::Var(i) => {
                out.insert(g.var_info(i).name.clone());
            }
            Node::Const(_) => {}
            ref n => stack.extend(n.children()),
        }
    }
    out
}

/// One array argument of a kernel: `name: &[f64; N]`, whose elements are the variables
/// `{prefix}{element}`.
pub struct ArrayArg {
    pub name: String,
    pub elements: Vec<String>,
}

impl ArrayArg {
    pub fn new(name: String, prefix: &str, elements: &[&str], suffix: &str) -> Self {
        ArrayArg {
            name,
            elements: elements
                .iter()
                .map(|e| format!("{prefix}{e}{suffix}"))
                .collect(),
        }
    }

    /// The parameter declaration, `_`-prefixed when none of its elements is used.
    pub fn declaration(&self, used: &BTreeSet<String>) -> TokenStream {
        self.declaration_of(used, &quote!(f64))
    }

    /// `name: &[element; n]` (`_name` if no element is used).
    pub fn declaration_of(&self, used: &BTreeSet<String>, element: &TokenStream) -> TokenStream {
        let n = Literal::usize_unsuffixed(self.elements.len());
        let name = if self.elements.iter().any(|e| used.contains(e)) {
            ident(&self.name)
        } else {
            ident(&format!("_{}", self.name))
        };
        quote!(#name: &[#element; #n])
    }

    /// `let m1_x = m1_coordinates[0];` for each used element.
    pub fn bindings(&self, used: &BTreeSet<String>) -> Vec<TokenStream> {
        let array = ident(&self.name);
        self.elements
            .iter()
            .enumerate()
            .filter(|(_, e)| used.contains(*e))
            .map(|(i, e)| {
                let v = ident(e);
                let i = Literal::usize_unsuffixed(i);
                quote!(let #v = #array[#i];)
            })
            .collect()
    }
}

pub fn lit(n: usize) -> Literal {
    Literal::usize_unsuffixed(n)
}

/// `use joint_core::Scalar as _;` for a generated module: f64 code's `x.sqrt()`, `f64::atan2`, …
/// resolve to `Scalar`'s functions where std has none (no_std); with std the inherent methods
/// still win, so the results are std's.
pub fn scalar_functions(core: &TokenStream) -> TokenStream {
    quote! {
        #[allow(unused_imports)]
        use #core::Scalar as _;
    }
}
