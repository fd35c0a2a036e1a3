//! Coordinate-vector joints (markers declared `Coordinates`): loops over the run-time rows and
//! coordinates, with each term's elementwise function φ and its derivatives emitted inline.
//!
//! `pub joint CoordinateVectorConstraint { … }` expands to
//! * `pub struct CoordinateVectorConstraint;`, implementing `joint_core::CoordinateVectorJoint`;
//! * `pub mod coordinate_vector_constraint` with the `DEFINITION` and the kernels: `rows` (the
//!   row count, after checking every parameter's shape), `position_residual`,
//!   `velocity_residual`, `jacobian`, `reaction_forces` and, with `second_order;`,
//!   `velocity_residual_q` and `reaction_q`.
//!
//! Rounding follows the definition: a sum is accumulated term by term in the order written, a
//! term `M * m.coordinates` as its own sum Σ_j M_ij·q_j added at once, a term through a function
//! entry by entry, and a group `(…)` summed on its own (into the row directly when it opens the
//! residual, then negated if subtracted). Written as Exudyn writes ObjectConnectorCoordinateVector,
//! `-(X0 * q0 + Y0 * square(q0)) + X1 * q1 + Y1 * square(q1) - offset`, this is Exudyn's
//! order of operations; the Jacobian entries follow the same shape.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Ident, Visibility};

use super::joint::{doc_text_of, expression_text, module_name};
use super::util::{ident, lit};
use crate::definition::coordinate_vector::{
    CoordinateVectorModel, DynKind, ELEMENT_VARIABLE, Element, Term,
};
use crate::definition::errors::Errors;
use crate::definition::model::ResidualLevel;
use crate::symbolic::Id;
use crate::symbolic::emit::emit;

/// What one pass over the terms computes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// The residual as written: Σ_j M_ij·φ(q_j) (or of the velocities).
    Value,
    /// Its time derivative: Σ_j M_ij·φ'(q_j)·v_j (offsets drop out).
    Rate,
    /// Entry (i, j) of marker `marker`'s block of the `order`-th derivative: M_ij·φ^(order)(q_j).
    Entry { marker: usize, order: usize },
}

struct Generator<'m> {
    model: &'m CoordinateVectorModel,
    core: &'m TokenStream,
}

impl Generator<'_> {
    /// The source slice of an element: the marker's coordinates or velocities.
    fn source(&self, e: &Element, mode: Mode) -> Ident {
        let _ = mode;
        ident(&format!(
            "{}{}",
            if e.velocity { "v" } else { "q" },
            e.marker
        ))
    }

    /// `Id` as an inline expression (its shared subexpressions as `let`s in a block).
    fn scalar(&self, id: Id, prefix: &str) -> TokenStream {
        let b = emit(&self.model.graph, &[id], prefix);
        let lets = &b.lets;
        let out = &b.outputs[0];
        if lets.is_empty() {
            quote!((#out))
        } else {
            quote!({ #(#lets)* #out })
        }
    }

    /// `value` times the term's scalar factors.
    fn scaled(&self, factors: &[Id], value: TokenStream) -> TokenStream {
        let mut out = value;
        for f in factors.iter().rev() {
            let f = self.scalar(*f, "f");
            out = quote!(#f * (#out));
        }
        out
    }

    /// The statements that add the terms into `acc`.
    fn sum(&self, terms: &[(bool, Term)], acc: &Ident, mode: Mode, depth: usize) -> TokenStream {
        let mut out = TokenStream::new();
        for (idx, (negated, term)) in terms.iter().enumerate() {
            let op = if *negated { quote!(-=) } else { quote!(+=) };
            match term {
                Term::Group(inner) if idx == 0 => {
                    // the accumulator is still 0: sum the group into it, then negate
                    let body = self.sum(inner, acc, mode, depth + 1);
                    let empty = body.is_empty();
                    out.extend(body);
                    if *negated && !empty {
                        out.extend(quote!(#acc = -#acc;));
                    }
                }
                Term::Group(inner) => {
                    let g = ident(&format!("group{depth}"));
                    let body = self.sum(inner, &g, mode, depth + 1);
                    if body.is_empty() {
                        continue;
                    }
                    out.extend(quote!({ let mut #g = 0.0f64; #body #acc #op #g; }));
                }
                Term::Vector { factors, vector } => {
                    if mode == Mode::Value {
                        let p = lit(*vector);
                        let value = self.scaled(factors, quote!(parameters[#p].values[i]));
                        out.extend(quote! {
                            if !parameters[#p].is_empty() {
                                #acc #op #value;
                            }
                        });
                    }
                }
                Term::Product {
                    factors,
                    matrix,
                    element,
                } => out.extend(self.product(factors, *matrix, element, acc, &op, mode)),
            }
        }
        out
    }

    fn product(
        &self,
        factors: &[Id],
        matrix: usize,
        e: &Element,
        acc: &Ident,
        op: &TokenStream,
        mode: Mode,
    ) -> TokenStream {
        let m = lit(matrix);
        let src = self.source(e, mode);
        let x = ident(ELEMENT_VARIABLE);
        let entry = quote!(parameters[#m].values[i * parameters[#m].columns + j]);
        let guard = |body: TokenStream| {
            quote! {
                if !parameters[#m].is_empty() && !#src.is_empty() {
                    #body
                }
            }
        };
        match mode {
            Mode::Value | Mode::Rate if e.linear => {
                // Σ_j M_ij·q_j (or ·v_j: φ' = 1) on its own, then added
                let s = if mode == Mode::Value {
                    src.clone()
                } else {
                    ident(&format!("v{}", e.marker))
                };
                let value = self.scaled(factors, quote!(sum));
                guard(quote! {
                    let mut sum = 0.0f64;
                    for j in 0..#s.len() {
                        sum += #entry * #s[j];
                    }
                    #acc #op #value;
                })
            }
            Mode::Value => {
                let phi = self.scalar(e.phi[0], "t");
                let value = self.scaled(factors, quote!(#entry * #phi));
                guard(quote! {
                    for j in 0..#src.len() {
                        let #x = #src[j];
                        #acc #op #value;
                    }
                })
            }
            Mode::Rate => {
                let v = ident(&format!("v{}", e.marker));
                let d = self.scalar(e.phi[1], "t");
                let value = self.scaled(factors, quote!(#entry * (#d * #v[j])));
                guard(quote! {
                    for j in 0..#src.len() {
                        let #x = #src[j];
                        #acc #op #value;
                    }
                })
            }
            Mode::Entry { marker, order } => {
                if marker != e.marker {
                    return TokenStream::new();
                }
                // the caller loops over (i, j)
                if e.linear {
                    if order != 1 {
                        return TokenStream::new();
                    }
                    let value = self.scaled(factors, entry);
                    return quote! {
                        if !parameters[#m].is_empty() {
                            #acc #op #value;
                        }
                    };
                }
                let d = self.scalar(e.phi[order], "t");
                let value = self.scaled(factors, quote!(#entry * #d));
                quote! {
                    if !parameters[#m].is_empty() {
                        let #x = #src[j];
                        #acc #op #value;
                    }
                }
            }
        }
    }

    /// `let jp_k: f64 = parameters[i].values[0];` for each scalar parameter.
    fn scalars(&self) -> TokenStream {
        let mut out = TokenStream::new();
        for (i, p) in self.model.params.iter().enumerate() {
            if p.kind == DynKind::Scalar {
                let v = ident(&format!("jp_{}", p.name));
                let i = lit(i);
                out.extend(quote!(let #v: f64 = parameters[#i].values[0];));
            }
        }
        out
    }

    /// The row count without checks: the largest matrix's rows.
    fn row_count(&self) -> TokenStream {
        let matrices: Vec<_> = self
            .model
            .params
            .iter()
            .enumerate()
            .filter(|(_, p)| p.kind == DynKind::Matrix)
            .map(|(i, _)| lit(i))
            .collect();
        quote!(0usize #(.max(parameters[#matrices].rows))*)
    }

    fn residual_fn(&self, name: &str, mode: Mode, doc: &str) -> TokenStream {
        let core = self.core;
        let name = ident(name);
        let scalars = self.scalars();
        let r = ident("row");
        let body = self.sum(&self.model.terms, &r, mode, 0);
        quote! {
            #[doc = #doc]
            pub fn #name(
                parameters: &[#core::DynParameter],
                q0: &[f64],
                q1: &[f64],
                v0: &[f64],
                v1: &[f64],
                out: &mut [f64],
            ) {
                #scalars
                for i in 0..out.len() {
                    let mut row = 0.0f64;
                    #body
                    out[i] = row;
                }
            }
        }
    }

    /// A per-marker block function: `out_k[i·n_k + j]` = the entry (times v_j with `times_v`).
    fn blocks_fn(&self, name: &str, order: usize, times_v: bool, doc: &str) -> TokenStream {
        let core = self.core;
        let name = ident(name);
        let scalars = self.scalars();
        let rows = self.row_count();
        let c = ident("entry");
        let mut blocks = TokenStream::new();
        for k in 0..2 {
            let body = self.sum(&self.model.terms, &c, Mode::Entry { marker: k, order }, 0);
            let (q, out) = (ident(&format!("q{k}")), ident(&format!("out{k}")));
            let v = ident(&format!("v{k}"));
            let value = if times_v {
                quote!(entry * #v[j])
            } else {
                quote!(entry)
            };
            blocks.extend(quote! {
                let n = #q.len();
                for i in 0..rows {
                    for j in 0..n {
                        let mut entry = 0.0f64;
                        #body
                        #out[i * n + j] = #value;
                    }
                }
            });
        }
        quote! {
            #[doc = #doc]
            pub fn #name(
                parameters: &[#core::DynParameter],
                q0: &[f64],
                q1: &[f64],
                v0: &[f64],
                v1: &[f64],
                out0: &mut [f64],
                out1: &mut [f64],
            ) {
                #scalars
                let rows = #rows;
                #blocks
            }
        }
    }

    /// Σ_i λ_i·(entry i, j) per marker: C_qᵀλ (order 1) or the diagonal ∂(C_qᵀλ)/∂q (order 2).
    fn transposed_fn(&self, name: &str, order: usize, doc: &str) -> TokenStream {
        let core = self.core;
        let name = ident(name);
        let scalars = self.scalars();
        let rows = self.row_count();
        let c = ident("entry");
        let mut blocks = TokenStream::new();
        for k in 0..2 {
            let body = self.sum(&self.model.terms, &c, Mode::Entry { marker: k, order }, 0);
            let (q, out) = (ident(&format!("q{k}")), ident(&format!("out{k}")));
            blocks.extend(quote! {
                for j in 0..#q.len() {
                    let mut sum = 0.0f64;
                    for i in 0..rows {
                        let mut entry = 0.0f64;
                        #body
                        sum += lambda[i] * entry;
                    }
                    #out[j] = sum;
                }
            });
        }
        let velocities = (order == 1).then(|| quote!(v0: &[f64], v1: &[f64],));
        quote! {
            #[doc = #doc]
            pub fn #name(
                parameters: &[#core::DynParameter],
                lambda: &[f64],
                q0: &[f64],
                q1: &[f64],
                #velocities
                out0: &mut [f64],
                out1: &mut [f64],
            ) {
                #scalars
                let rows = #rows;
                #blocks
            }
        }
    }

    /// `rows`: the row count (the largest matrix's rows, as Exudyn counts them) after checking
    /// every parameter's shape.
    fn rows_fn(&self) -> TokenStream {
        let core = self.core;
        let count = lit(self.model.params.len());
        let mut checks = TokenStream::new();
        for (i, p) in self.model.params.iter().enumerate() {
            let i = lit(i);
            let name = p.name.to_string();
            let check = match (p.kind, p.marker) {
                (DynKind::Scalar, _) => quote! {
                    if (p.rows, p.columns) != (1, 1) {
                        return shape(#name, "1 × 1 (a scalar)".into(), p);
                    }
                },
                (DynKind::Vector, _) => quote! {
                    if !p.is_empty() && (p.rows != rows || p.columns != 1) {
                        return shape(#name, #core::__private::alloc::format!("{rows} × 1 (one value per row) or empty"), p);
                    }
                },
                (DynKind::Matrix, None) => quote! {},
                (DynKind::Matrix, Some(k)) => {
                    let n = ident(&format!("n{k}"));
                    // Exudyn ignores the matrix of a marker without coordinates (a ground node)
                    quote! {
                        if !p.is_empty() && #n > 0 && (p.rows != rows || p.columns != #n) {
                            return shape(#name, #core::__private::alloc::format!("{rows} × {} (rows × the marker's coordinates) or empty", #n), p);
                        }
                    }
                }
            };
            checks.extend(quote! { { let p = &parameters[#i]; #check } });
        }
        let row_count = self.row_count();
        quote! {
            /// The number of rows (the largest matrix's rows), after checking every parameter's
            /// shape against the markers' coordinate counts `n0` and `n1`.
            pub fn rows(
                parameters: &[#core::DynParameter],
                n0: usize,
                n1: usize,
            ) -> ::core::result::Result<usize, #core::DynSizeError> {
                fn shape(
                    parameter: &'static str,
                    expected: #core::__private::alloc::string::String,
                    p: &#core::DynParameter,
                ) -> ::core::result::Result<usize, #core::DynSizeError> {
                    ::core::result::Result::Err(#core::DynSizeError::Shape {
                        parameter,
                        expected,
                        found: (p.rows, p.columns),
                    })
                }
                if parameters.len() != #count {
                    return ::core::result::Result::Err(#core::DynSizeError::ParameterCount {
                        expected: #count,
                        found: parameters.len(),
                    });
                }
                let rows = #row_count;
                if rows == 0 {
                    return ::core::result::Result::Err(#core::DynSizeError::NoRows);
                }
                #checks
                ::core::result::Result::Ok(rows)
            }
        }
    }
}

/// The whole expansion of a coordinate-vector joint.
pub fn expand(model: &CoordinateVectorModel) -> TokenStream {
    let core = &model.core;
    let generator = Generator { model, core };
    let vis = &model.vis;
    let name = &model.name;
    let name_str = name.to_string();
    let module_str = module_name(&name_str);
    let module = ident(&module_str);
    let attrs = &model.attrs;
    let doc = doc_text_of(&model.attrs);
    let text = expression_text(&model.written);
    let (m0, m1) = (model.markers[0].to_string(), model.markers[1].to_string());
    let params = model.params.iter().map(|p| {
        let n = p.name.to_string();
        let shape = match p.kind {
            DynKind::Scalar => quote!(#core::DynShape::Scalar),
            DynKind::Vector => quote!(#core::DynShape::Vector),
            DynKind::Matrix => quote!(#core::DynShape::Matrix),
        };
        let marker = match p.marker {
            Some(k) => {
                let k = lit(k);
                quote!(::core::option::Option::Some(#k))
            }
            None => quote!(::core::option::Option::None),
        };
        quote!(#core::DynParameterInfo { name: #n, shape: #shape, marker: #marker })
    });
    let rows = generator.rows_fn();
    let (level, velocity) = match model.level {
        ResidualLevel::Position => (
            quote!(#core::ResidualLevel::Position),
            generator.residual_fn(
                "velocity_residual",
                Mode::Rate,
                "The velocity level, derived: Σ M·diag(φ'(q))·q̇ (offsets drop out).",
            ),
        ),
        ResidualLevel::Velocity => (
            quote!(#core::ResidualLevel::Velocity),
            generator.residual_fn(
                "velocity_residual",
                Mode::Value,
                "The rows as written (at velocity level).",
            ),
        ),
    };
    let position = generator.residual_fn(
        "position_residual",
        Mode::Value,
        "The residual as written, one entry per row of `out`.",
    );
    let jacobian = generator.blocks_fn(
        "jacobian",
        1,
        false,
        "C = ∂g/∂q (∂g/∂q̇ for rows written at velocity level) per marker, rows × n_i, row-major.",
    );
    let reaction = generator.transposed_fn("reaction_forces", 1, "C_iᵀλ per marker (set).");
    let (second, second_fns) = if model.second_order {
        (
            quote!(::core::option::Option::Some(#core::DynSecondOrder {
                velocity_residual_q,
                reaction_q,
            })),
            {
                let b = generator.blocks_fn(
                    "velocity_residual_q",
                    2,
                    true,
                    "∂(C_q v)/∂q per marker: M·diag(φ''(q)·v), rows × n_i.",
                );
                let d = generator.transposed_fn(
                    "reaction_q",
                    2,
                    "∂(C_qᵀλ)/∂q per marker, diagonal: φ''(q_j)·(Mᵀλ)_j.",
                );
                quote!(#b #d)
            },
        )
    } else {
        (quote!(::core::option::Option::None), TokenStream::new())
    };
    let scalar_functions = crate::codegen::util::scalar_functions(core);
    quote! {
        #(#attrs)*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        #vis struct #name;

        impl #core::CoordinateVectorJoint for #name {
            const DEFINITION: &'static #core::CoordinateVectorDefinition = &#module::DEFINITION;
        }

        #[doc = concat!("Kernels of [`", #name_str, "`] (coordinate vectors of run-time length).")]
        #[allow(unused_variables, unused_mut, clippy::all)]
        #vis mod #module {
            #scalar_functions
            /// The compiler's definition.
            pub static DEFINITION: #core::CoordinateVectorDefinition = #core::CoordinateVectorDefinition {
                name: #name_str,
                module: #module_str,
                doc: #doc,
                markers: [#m0, #m1],
                parameters: &[#(#params),*],
                level: #level,
                residual_text: #text,
                rows,
                position_residual,
                velocity_residual,
                jacobian,
                reaction_forces,
                second_order: #second,
            };

            #rows
            #position
            #velocity
            #jacobian
            #reaction
            #second_fns
        }
    }
}

/// On errors: the errors, the type and a definition whose kernels are never reached (calls of
/// it still resolve, so the user sees the definition's errors only).
pub fn stub(errors: Errors, vis: &Visibility, name: &Ident, core: &TokenStream) -> TokenStream {
    let errs = errors.into_compile_errors();
    let name_str = name.to_string();
    let module_str = module_name(&name_str);
    let module = ident(&module_str);
    let scalar_functions = crate::codegen::util::scalar_functions(core);
    quote! {
        #errs

        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        #vis struct #name;

        impl #core::CoordinateVectorJoint for #name {
            const DEFINITION: &'static #core::CoordinateVectorDefinition = &#module::DEFINITION;
        }

        #[allow(dead_code, unused, clippy::all)]
        #vis mod #module {
            #scalar_functions
            fn unreachable_rows(_: &[#core::DynParameter], _: usize, _: usize) -> ::core::result::Result<usize, #core::DynSizeError> {
                ::core::unreachable!("the joint's definition has errors")
            }
            fn unreachable_residual(_: &[#core::DynParameter], _: &[f64], _: &[f64], _: &[f64], _: &[f64], _: &mut [f64]) {
                ::core::unreachable!("the joint's definition has errors")
            }
            fn unreachable_blocks(_: &[#core::DynParameter], _: &[f64], _: &[f64], _: &[f64], _: &[f64], _: &mut [f64], _: &mut [f64]) {
                ::core::unreachable!("the joint's definition has errors")
            }
            fn unreachable_reaction(_: &[#core::DynParameter], _: &[f64], _: &[f64], _: &[f64], _: &[f64], _: &[f64], _: &mut [f64], _: &mut [f64]) {
                ::core::unreachable!("the joint's definition has errors")
            }
            pub static DEFINITION: #core::CoordinateVectorDefinition = #core::CoordinateVectorDefinition {
                name: #name_str,
                module: #module_str,
                doc: "",
                markers: ["m0", "m1"],
                parameters: &[],
                level: #core::ResidualLevel::Position,
                residual_text: "",
                rows: unreachable_rows,
                position_residual: unreachable_residual,
                velocity_residual: unreachable_residual,
                jacobian: unreachable_blocks,
                reaction_forces: unreachable_reaction,
                second_order: ::core::option::Option::None,
            };
        }
    }
}
