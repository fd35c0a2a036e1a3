//! A joint's run-time parameters: the `Parameters` struct, its flat value layout (the slice every
//! type-erased kernel takes) and the `let jp_… = joint.…;` bindings of the typed kernels.

use proc_macro2::TokenStream;
use quote::quote;
use std::collections::BTreeSet;

use crate::codegen::util::{ident, lit};
use crate::definition::lower::parameter_variable;
use crate::definition::model::{JointModel, ParamKind};

fn shape_tokens(core: &TokenStream, kind: ParamKind) -> TokenStream {
    match kind {
        ParamKind::Scalar => quote!(#core::ParameterShape::Scalar),
        ParamKind::Vector => quote!(#core::ParameterShape::Vector),
        ParamKind::Matrix => quote!(#core::ParameterShape::Matrix),
    }
}

/// `ParameterInfo { name, shape }` per parameter, in definition order (the states apart).
pub fn infos(model: &JointModel) -> Vec<TokenStream> {
    let core = &model.core;
    model
        .params
        .iter()
        .filter(|p| !p.state)
        .map(|p| {
            let n = p.name.to_string();
            let shape = shape_tokens(core, p.kind);
            quote!(#core::ParameterInfo { name: #n, shape: #shape })
        })
        .collect()
}

/// `StateInfo { name, update }` per state, in definition order: its update is its output's
/// marker-level kernel.
pub fn state_infos(model: &JointModel) -> Vec<TokenStream> {
    let core = &model.core;
    model
        .params
        .iter()
        .filter(|p| p.state)
        .map(|p| {
            let n = p.name.to_string();
            let f = ident(&format!("output_{n}_slices"));
            quote!(#core::StateInfo { name: #n, update: marker_level::#f })
        })
        .collect()
}

/// The `Parameters` struct (empty for a joint without parameters) and its `JointParameters`
/// implementation.
pub fn definition(model: &JointModel) -> TokenStream {
    let core = &model.core;
    let len: usize = model.params.iter().map(|p| p.kind.len()).sum();
    let len_lit = lit(len);
    let fields: Vec<TokenStream> = model
        .params
        .iter()
        .map(|p| {
            let f = &p.name;
            let ty = match p.kind {
                ParamKind::Scalar => quote!(S),
                ParamKind::Vector => quote!([S; 3]),
                ParamKind::Matrix => quote!([[S; 3]; 3]),
            };
            if p.state {
                let doc = format!(
                    " `state {f}`: its value at the last converged step, which a runtime \
                     updates after each; here its initial value (0 by default: an angle of \
                     `angle(y, x)` then starts in (−π, π])."
                );
                return quote! { #[doc = #doc] pub #f: #ty, };
            }
            let doc = format!(
                " `param {}: {}` (a constant given at run time{}).",
                f,
                match p.kind {
                    ParamKind::Scalar => "scalar",
                    ParamKind::Vector => "vector",
                    ParamKind::Matrix => "matrix",
                },
                if p.kind == ParamKind::Matrix {
                    ", row-major"
                } else {
                    ""
                }
            );
            quote! { #[doc = #doc] pub #f: #ty, }
        })
        .collect();
    let (writes, reads) = flat_layout(model);
    let values_arg = if len == 0 {
        quote!(_values)
    } else {
        quote!(values)
    };
    let from_body = if len == 0 {
        quote!(::core::option::Option::Some(Parameters {}))
    } else {
        quote! {
            let values: &[f64; #len_lit] = values.try_into().ok()?;
            ::core::option::Option::Some(Parameters { #(#reads)* })
        }
    };
    let what = match model.kind {
        crate::definition::model::DefinitionKind::Joint => "joint",
        crate::definition::model::DefinitionKind::Force => "force element",
    };
    let doc = if model.params.is_empty() {
        format!(" The {what}'s run-time parameters: none.")
    } else if model.params.iter().any(|p| p.state) {
        format!(" The {what}'s run-time parameters and its states' initial values.")
    } else {
        format!(" The {what}'s run-time parameters.")
    };
    let trait_impl = quote! {
        const LEN: usize = #len_lit;

        fn to_values(&self) -> #core::__private::alloc::vec::Vec<f64> {
            #core::__private::alloc::vec![#(#writes)*]
        }

        #[inline]
        fn from_values(#values_arg: &[f64]) -> ::core::option::Option<Self> {
            #from_body
        }
    };
    if model.params.is_empty() {
        return quote! {
            #[doc = #doc]
            #[derive(Clone, Copy, Debug, Default, PartialEq)]
            pub struct Parameters {}

            impl #core::JointParameters for Parameters {
                #trait_impl
            }
        };
    }
    let (maps, zeros) = (maps(model), zeros(model));
    quote! {
        #[doc = #doc]
        #[doc = ""]
        #[doc = " Its values are `f64`; `map` turns them into another scalar of the kernels, \
                  `f32` or a dual number seeded on one of them (a derivative by a parameter)."]
        #[derive(Clone, Copy, Debug, PartialEq)]
        pub struct Parameters<S = f64> {
            #(#fields)*
        }

        impl ::core::default::Default for Parameters<f64> {
            fn default() -> Self {
                Parameters { #(#zeros)* }
            }
        }

        impl<S: ::core::marker::Copy> Parameters<S> {
            /// Every value through `f` (vectors and matrices entry by entry).
            pub fn map<T>(self, f: impl Fn(S) -> T) -> Parameters<T> {
                Parameters { #(#maps)* }
            }
        }

        impl #core::JointParameters for Parameters<f64> {
            #trait_impl
        }
    }
}

/// The flat layout, each parameter's values in order (matrices row-major): the values written
/// from a `Parameters` (`to_values`) and the fields read back (`from_values`).
fn flat_layout(model: &JointModel) -> (Vec<TokenStream>, Vec<TokenStream>) {
    let mut writes = Vec::new();
    let mut reads = Vec::new();
    let mut offset = 0usize;
    for p in &model.params {
        let f = &p.name;
        match p.kind {
            ParamKind::Scalar => {
                let o = lit(offset);
                writes.push(quote!(self.#f,));
                reads.push(quote!(#f: values[#o],));
            }
            ParamKind::Vector => {
                let o: Vec<_> = (0..3).map(|i| lit(offset + i)).collect();
                writes.push(quote!(self.#f[0], self.#f[1], self.#f[2],));
                reads.push(quote!(#f: [#(values[#o]),*],));
            }
            ParamKind::Matrix => {
                let rows: Vec<TokenStream> = (0..3)
                    .map(|r| {
                        let o: Vec<_> = (0..3).map(|c| lit(offset + 3 * r + c)).collect();
                        quote!([#(values[#o]),*])
                    })
                    .collect();
                writes.push(quote!(
                    self.#f[0][0], self.#f[0][1], self.#f[0][2],
                    self.#f[1][0], self.#f[1][1], self.#f[1][2],
                    self.#f[2][0], self.#f[2][1], self.#f[2][2],
                ));
                reads.push(quote!(#f: [#(#rows),*],));
            }
        }
        offset += p.kind.len();
    }
    (writes, reads)
}

/// `field: f(self.field),` per parameter (`Parameters::map`).
fn maps(model: &JointModel) -> Vec<TokenStream> {
    model
        .params
        .iter()
        .map(|p| {
            let f = &p.name;
            match p.kind {
                ParamKind::Scalar => quote!(#f: f(self.#f),),
                ParamKind::Vector => quote!(#f: self.#f.map(&f),),
                ParamKind::Matrix => quote!(#f: self.#f.map(|row| row.map(&f)),),
            }
        })
        .collect()
}

/// `field: 0.0,` per parameter (`Parameters::<f64>::default`).
fn zeros(model: &JointModel) -> Vec<TokenStream> {
    model
        .params
        .iter()
        .map(|p| {
            let f = &p.name;
            match p.kind {
                ParamKind::Scalar => quote!(#f: 0.0,),
                ParamKind::Vector => quote!(#f: [0.0; 3],),
                ParamKind::Matrix => quote!(#f: [[0.0; 3]; 3],),
            }
        })
        .collect()
}

/// `let jp_x = joint.x[0];` for every used parameter element, and the typed kernels'
/// `joint: &Parameters<S>` argument (`None` for a joint without parameters).
pub fn bindings(
    model: &JointModel,
    used: &BTreeSet<String>,
) -> (Option<TokenStream>, Vec<TokenStream>) {
    if model.params.is_empty() {
        return (None, Vec::new());
    }
    let mut binds = Vec::new();
    for p in &model.params {
        let name = p.name.to_string();
        let field = ident(&name);
        for i in 0..p.kind.len() {
            let var = parameter_variable(&name, p.kind, i);
            if !used.contains(&var) {
                continue;
            }
            let v = ident(&var);
            let access = match p.kind {
                ParamKind::Scalar => quote!(joint.#field),
                ParamKind::Vector => {
                    let i = lit(i);
                    quote!(joint.#field[#i])
                }
                ParamKind::Matrix => {
                    let (r, c) = (lit(i / 3), lit(i % 3));
                    quote!(joint.#field[#r][#c])
                }
            };
            binds.push(quote!(let #v = #access;));
        }
    }
    let ty = quote!(super::Parameters<S>);
    let arg = if binds.is_empty() {
        quote!(_joint: &#ty)
    } else {
        quote!(joint: &#ty)
    };
    (Some(arg), binds)
}

/// In a type-erased wrapper: the flat parameter slice `joint` as `&Parameters` (named `joint`),
/// or the check that it is empty for a joint without parameters.
pub fn from_slice(model: &JointModel) -> TokenStream {
    let core = &model.core;
    if model.params.is_empty() {
        quote! {
            if !joint.is_empty() {
                return ::core::option::Option::None;
            }
        }
    } else {
        quote! {
            let joint = &<super::Parameters as #core::JointParameters>::from_values(joint)?;
        }
    }
}
