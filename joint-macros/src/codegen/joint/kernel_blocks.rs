//! How a pairing kernel returns its rows: as `[[e, …]; rows]` blocks per marker (a tuple if
//! several), their types, the stores of a typed kernel's result into its `_slices` wrapper's
//! outputs, and the row vectors of the block-free form.

use proc_macro2::TokenStream;
use quote::quote;

use crate::codegen::util::{ident, lit};

/// `[[e, …]; rows]` blocks (a tuple if several) filled from `outputs` in order.
pub(super) fn blocks_value(
    blocks: &[Option<usize>],
    rows: usize,
    outputs: &[TokenStream],
) -> TokenStream {
    let mut it = outputs.iter();
    let exprs: Vec<TokenStream> = blocks
        .iter()
        .flatten()
        .map(|&n| {
            let rows_ts: Vec<TokenStream> = (0..rows)
                .map(|_| {
                    let entries: Vec<&TokenStream> =
                        (0..n).map(|_| it.next().expect("entry")).collect();
                    quote!([#(#entries),*])
                })
                .collect();
            quote!([#(#rows_ts),*])
        })
        .collect();
    if exprs.len() == 1 {
        exprs[0].clone()
    } else {
        quote!((#(#exprs),*))
    }
}

pub(super) fn blocks_type(
    blocks: &[Option<usize>],
    rows: usize,
    element: &TokenStream,
) -> TokenStream {
    let rows_lit = lit(rows);
    let types: Vec<TokenStream> = blocks
        .iter()
        .flatten()
        .map(|&n| {
            let n = lit(n);
            quote!([[#element; #n]; #rows_lit])
        })
        .collect();
    if types.len() == 1 {
        types[0].clone()
    } else {
        quote!((#(#types),*))
    }
}

/// The length checks of the block outputs `block0`, `block1`, and the statements storing blocks
/// returned as `result` (a tuple if several) into them, after the checks.
pub(super) fn blocks_store(
    blocks: &[Option<usize>],
    result: TokenStream,
) -> (TokenStream, TokenStream) {
    let present: Vec<usize> = (0..2).filter(|&i| blocks[i].is_some()).collect();
    let names: Vec<proc_macro2::Ident> = present.iter().map(|i| ident(&format!("b{i}"))).collect();
    let pattern = if names.len() == 1 {
        let b = &names[0];
        quote!(#b)
    } else {
        quote!((#(#names),*))
    };
    let mut checks = Vec::new();
    let mut copies = Vec::new();
    for (i, b) in blocks.iter().enumerate() {
        let out = ident(&format!("block{i}"));
        match b {
            Some(n) => {
                let n = lit(*n);
                let local = ident(&format!("b{i}"));
                checks.push(quote!(#out.len() != #n * super::ROWS));
                copies.push(quote!(#out.copy_from_slice(#local.as_flattened());));
            }
            None => checks.push(quote!(!#out.is_empty())),
        }
    }
    (
        quote! {
            if #(#checks)||* {
                return ::core::option::Option::None;
            }
        },
        quote! {
            let #pattern = #result;
            #(#copies)*
        },
    )
}

/// Per-marker vector outputs `[S; n]` (a tuple if both markers have coordinates): their type,
/// their value from `outputs` in order, and, for a `_slices` wrapper, the pattern a result is
/// bound to and the copies into `force0`, `force1`. As tokens, the length checks of those.
pub(super) struct Vectors {
    pub(super) ty: TokenStream,
    pub(super) value: TokenStream,
    pub(super) checks: Vec<TokenStream>,
    pub(super) pattern: TokenStream,
    pub(super) copies: Vec<TokenStream>,
}

impl quote::ToTokens for Vectors {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        let checks = &self.checks;
        tokens.extend(quote! {
            if #(#checks)||* {
                return ::core::option::Option::None;
            }
        });
    }
}

pub(super) fn vectors(
    b: &[Option<usize>],
    outputs: &[TokenStream],
    element: &TokenStream,
) -> Vectors {
    let mut it = outputs.iter();
    let present: Vec<(usize, usize)> = (0..2).filter_map(|i| b[i].map(|n| (i, n))).collect();
    let one_or_tuple = |items: Vec<TokenStream>| {
        if items.len() == 1 {
            items[0].clone()
        } else {
            quote!((#(#items),*))
        }
    };
    let value = one_or_tuple(
        present
            .iter()
            .map(|&(_, n)| {
                let e: Vec<&TokenStream> = (0..n).map(|_| it.next().expect("entry")).collect();
                quote!([#(#e),*])
            })
            .collect(),
    );
    let ty = one_or_tuple(
        present
            .iter()
            .map(|&(_, n)| {
                let n = lit(n);
                quote!([#element; #n])
            })
            .collect(),
    );
    let pattern = one_or_tuple(
        present
            .iter()
            .map(|&(i, _)| {
                let l = ident(&format!("f{i}"));
                quote!(#l)
            })
            .collect(),
    );
    let mut checks = Vec::new();
    let mut copies = Vec::new();
    for (i, n) in b.iter().enumerate() {
        let out = ident(&format!("force{i}"));
        match n {
            Some(n) => {
                let n = lit(*n);
                let local = ident(&format!("f{i}"));
                checks.push(quote!(#out.len() != #n));
                copies.push(quote!(#out.copy_from_slice(&#local);));
            }
            None => checks.push(quote!(!#out.is_empty())),
        }
    }
    Vectors {
        ty,
        value,
        checks,
        pattern,
        copies,
    }
}
