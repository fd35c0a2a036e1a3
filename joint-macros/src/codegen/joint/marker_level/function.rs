//! One marker-level kernel: a typed function of the two markers' quantities (and, as it needs,
//! the rows' multipliers λ and the markers' rates) returning fixed-size arrays or a joint-core
//! struct, and its `_slices` wrapper behind the type-erased `joint_core::MarkerLevel`.

use proc_macro2::TokenStream;
use quote::quote;
use std::collections::BTreeSet;

use crate::codegen::joint::parameters;
use crate::codegen::util::{ident, lit, used_variables};
use crate::definition::model::JointModel;
use crate::kinematics::marker_level::{ANGULAR_VELOCITY, POSITION, ROTATION, VELOCITY};
use crate::symbolic::emit::emit_generic;
use crate::symbolic::{Graph, Id};

/// `let m0_p0 = m0.position[0];` … for the used quantities of argument `m{i}` (or, with
/// `rates`, `let m0_dp0 = r0.position[0];` … of argument `r{i}`), and the arguments' names
/// (`_m0` if unused).
pub(crate) fn bind_quantities(
    used: &BTreeSet<String>,
    rates: bool,
) -> (Vec<TokenStream>, [TokenStream; 2]) {
    let mut binds = Vec::new();
    let letter = if rates { "r" } else { "m" };
    let mut names = [0, 1].map(|i| {
        let n = ident(&format!("_{letter}{i}"));
        quote!(#n)
    });
    let names_of = |list: &'static [&'static str]| -> Vec<String> {
        if rates {
            list.iter().map(|n| format!("d{n}")).collect()
        } else {
            list.iter().map(|n| (*n).to_owned()).collect()
        }
    };
    for (i, name) in names.iter_mut().enumerate() {
        let arg = ident(&format!("{letter}{i}"));
        let mut any = false;
        let fields: [(&[&str], TokenStream); 4] = [
            (&POSITION, quote!(position)),
            (&VELOCITY, quote!(velocity)),
            (&ROTATION, quote!(rotation)),
            (&ANGULAR_VELOCITY, quote!(angular_velocity)),
        ];
        for (list, field) in fields {
            for (k, n) in names_of(list).iter().enumerate() {
                let var = format!("m{i}_{n}");
                if !used.contains(&var) {
                    continue;
                }
                any = true;
                let v = ident(&var);
                let access = if list.len() == 9 {
                    let (r, c) = (lit(k / 3), lit(k % 3));
                    quote!(#arg.#field[#r][#c])
                } else {
                    let k = lit(k);
                    quote!(#arg.#field[#k])
                };
                binds.push(quote!(let #v = #access;));
            }
        }
        if any {
            *name = quote!(#arg);
        }
    }
    (binds, names)
}

/// How a kernel's outputs are returned and stored.
#[derive(Clone, Copy)]
pub enum Shape {
    /// `[S; n]`, stored into `out`.
    Array(usize),
    /// `MarkerLevelJacobian<ROWS>`: entries ordered marker, variable (v0..v2, ω0..ω2), row.
    Jacobian,
    /// `MarkerLevelPositionJacobian<ROWS>`: per marker, per row, ∂/∂p (3) then ∂/∂A (9).
    PositionJacobian,
    /// `MarkerLevelReaction`: force 0, torque 0, force 1, torque 1.
    Reaction,
    /// `([f64; ROWS], MarkerLevelReaction)`: the position rows, then the reaction.
    RowsAndReaction,
    /// `MarkerLevelReactionQ`: per (i, j), force by p (9), by A (27), torque by p, by A.
    ReactionQ,
    /// `[[S; n]; ROWS]`, row-major; typed only, no `_slices` wrapper (`parameter_jacobian`).
    Table(usize),
}

/// What a kernel reads besides the parameters and the markers' quantities.
#[derive(Clone, Copy, Default)]
pub struct Reads {
    pub lambda: bool,
    pub rates: bool,
}

/// A typed marker-level function and its `_slices` wrapper.
pub struct Function<'a> {
    pub name: &'a str,
    pub doc: &'a str,
    pub roots: &'a [Id],
    pub reads: Reads,
    pub shape: Shape,
}

/// `[[e; columns]; rows]` from `entries` in order.
fn matrix(entries: &[TokenStream], rows: usize, columns: usize) -> TokenStream {
    let rows: Vec<TokenStream> = entries
        .chunks(columns)
        .take(rows)
        .map(|r| quote!([#(#r),*]))
        .collect();
    quote!([#(#rows),*])
}

/// The typed return type, its value from the emitted outputs, and the `_slices` statements that
/// store the typed result `value` into the slice outputs.
fn returned(
    core: &TokenStream,
    shape: Shape,
    rows: usize,
    out: &[TokenStream],
) -> (TokenStream, TokenStream, TokenStream) {
    let rl = lit(rows);
    match shape {
        Shape::Table(n) => (
            {
                let nl = lit(n);
                quote!([[S; #nl]; #rl])
            },
            matrix(out, rows, n),
            quote!(),
        ),
        Shape::Array(n) => {
            let nl = lit(n);
            (
                quote!([S; #nl]),
                quote!([#(#out),*]),
                quote! {
                    let out: &mut [f64; #nl] = out.try_into().ok()?;
                    *out = value;
                },
            )
        }
        Shape::Jacobian => {
            // entries ordered marker, variable, row
            let block = |marker: usize, offset: usize| -> TokenStream {
                let e: Vec<TokenStream> = (0..rows)
                    .flat_map(|r| (0..3).map(move |c| (marker * 6 + offset + c) * rows + r))
                    .map(|k| out[k].clone())
                    .collect();
                matrix(&e, rows, 3)
            };
            let (dv0, dw0, dv1, dw1) = (block(0, 0), block(0, 3), block(1, 0), block(1, 3));
            (
                quote!(#core::MarkerLevelJacobian<#rl, S>),
                quote!(#core::MarkerLevelJacobian {
                    d_velocity: [#dv0, #dv1],
                    d_angular_velocity: [#dw0, #dw1],
                }),
                quote! {
                    if out.len() != 12 * #rl {
                        return ::core::option::Option::None;
                    }
                    let parts = [
                        value.d_velocity[0].as_flattened(),
                        value.d_angular_velocity[0].as_flattened(),
                        value.d_velocity[1].as_flattened(),
                        value.d_angular_velocity[1].as_flattened(),
                    ];
                    for (chunk, part) in out.chunks_exact_mut(3 * #rl).zip(parts) {
                        chunk.copy_from_slice(part);
                    }
                },
            )
        }
        Shape::PositionJacobian => {
            // per marker, per row: 3 then 9
            let part = |marker: usize, at: usize, n: usize| -> TokenStream {
                let e: Vec<TokenStream> = (0..rows)
                    .flat_map(|r| (0..n).map(move |c| marker * 12 * rows + r * 12 + at + c))
                    .map(|k| out[k].clone())
                    .collect();
                matrix(&e, rows, n)
            };
            let (p0, a0, p1, a1) = (part(0, 0, 3), part(0, 3, 9), part(1, 0, 3), part(1, 3, 9));
            (
                quote!(#core::MarkerLevelPositionJacobian<#rl, S>),
                quote!(#core::MarkerLevelPositionJacobian {
                    d_position: [#p0, #p1],
                    d_rotation: [#a0, #a1],
                }),
                quote! {
                    if out.len() != 24 * #rl {
                        return ::core::option::Option::None;
                    }
                    let parts = [
                        value.d_position[0].as_flattened(),
                        value.d_rotation[0].as_flattened(),
                        value.d_position[1].as_flattened(),
                        value.d_rotation[1].as_flattened(),
                    ];
                    let mut at = 0;
                    for part in parts {
                        out[at..at + part.len()].copy_from_slice(part);
                        at += part.len();
                    }
                },
            )
        }
        Shape::Reaction => (
            quote!(#core::MarkerLevelReaction<S>),
            reaction_value(core, out),
            quote! {
                let out: &mut [f64; 12] = out.try_into().ok()?;
                store_reaction(&value, out);
            },
        ),
        Shape::RowsAndReaction => {
            let (residual, reaction) = out.split_at(rows);
            let r = reaction_value(core, reaction);
            (
                quote!(([S; #rl], #core::MarkerLevelReaction<S>)),
                quote!(([#(#residual),*], #r)),
                quote! {
                    let out: &mut [f64; #rl] = out.try_into().ok()?;
                    let reaction: &mut [f64; 12] = reaction.try_into().ok()?;
                    *out = value.0;
                    store_reaction(&value.1, reaction);
                },
            )
        }
        Shape::ReactionQ => reaction_q(core, out),
    }
}

/// `MarkerLevelReactionQ`'s type, its value from `out` (per (i, j): force by p (3 × 3), by A
/// (3 × 9), torque by p, by A) and its store.
fn reaction_q(core: &TokenStream, out: &[TokenStream]) -> (TokenStream, TokenStream, TokenStream) {
    // per (i, j): force by p (3 × 3), by A (3 × 9), torque by p, by A
    let mut fp = Vec::new();
    let mut fa = Vec::new();
    let mut tp = Vec::new();
    let mut ta = Vec::new();
    for i in 0..2 {
        let (mut fpi, mut fai, mut tpi, mut tai) = (vec![], vec![], vec![], vec![]);
        for j in 0..2 {
            let base = (i * 2 + j) * 72;
            fpi.push(matrix(&out[base..base + 9], 3, 3));
            fai.push(matrix(&out[base + 9..base + 36], 3, 9));
            tpi.push(matrix(&out[base + 36..base + 45], 3, 3));
            tai.push(matrix(&out[base + 45..base + 72], 3, 9));
        }
        fp.push(quote!([#(#fpi),*]));
        fa.push(quote!([#(#fai),*]));
        tp.push(quote!([#(#tpi),*]));
        ta.push(quote!([#(#tai),*]));
    }
    (
        quote!(#core::MarkerLevelReactionQ<S>),
        quote!(#core::MarkerLevelReactionQ {
            force_position: [#(#fp),*],
            force_rotation: [#(#fa),*],
            torque_position: [#(#tp),*],
            torque_rotation: [#(#ta),*],
        }),
        quote! {
            let out: &mut [f64; #core::MARKER_LEVEL_REACTION_Q_LEN] = out.try_into().ok()?;
            value.to_slice(out);
        },
    )
}

fn reaction_value(core: &TokenStream, e: &[TokenStream]) -> TokenStream {
    let v = |k: usize| {
        let x = &e[k..k + 3];
        quote!([#(#x),*])
    };
    let (f0, t0, f1, t1) = (v(0), v(3), v(6), v(9));
    quote!(#core::MarkerLevelReaction { force: [#f0, #f1], torque: [#t0, #t1] })
}

/// The `_slices` wrapper's output parameters.
fn out_args(shape: Shape) -> TokenStream {
    match shape {
        Shape::RowsAndReaction => quote!(out: &mut [f64], reaction: &mut [f64]),
        _ => quote!(out: &mut [f64]),
    }
}

/// The typed function and its `_slices` wrapper.
pub fn emit_function(model: &JointModel, g: &Graph, rows: usize, f: &Function) -> TokenStream {
    let core = &model.core;
    let block = emit_generic(g, f.roots, "t");
    let used = used_variables(g, f.roots);
    let (mut binds, [m0, m1]) = bind_quantities(&used, false);
    let (joint, b) = parameters::bindings(model, &used);
    binds.splice(0..0, b);
    let mut decls = Vec::new();
    let mut call = Vec::new();
    if let Some(j) = joint {
        decls.push(j);
        call.push(quote!(joint));
    }
    if f.reads.lambda {
        let rl = lit(rows);
        let any = (0..rows).any(|r| used.contains(&format!("lambda_{r}")));
        let name = if any { quote!(lambda) } else { quote!(_lambda) };
        decls.push(quote!(#name: &[S; #rl]));
        for r in 0..rows {
            let var = format!("lambda_{r}");
            if used.contains(&var) {
                let (v, rl) = (ident(&var), lit(r));
                binds.push(quote!(let #v = lambda[#rl];));
            }
        }
        call.push(quote!(lambda.try_into().ok()?));
    }
    decls.push(quote!(#m0: &#core::MarkerQuantities<S>));
    decls.push(quote!(#m1: &#core::MarkerQuantities<S>));
    call.extend([quote!(m0), quote!(m1)]);
    if f.reads.rates {
        let (rate_binds, [r0, r1]) = bind_quantities(&used, true);
        binds.extend(rate_binds);
        decls.push(quote!(#r0: &#core::MarkerRates<S>));
        decls.push(quote!(#r1: &#core::MarkerRates<S>));
        call.extend([quote!(r0), quote!(r1)]);
    }
    let (ret, value, store) = returned(core, f.shape, rows, &block.outputs);
    let lets = &block.lets;
    let name = ident(f.name);
    let slices = ident(&format!("{}_slices", f.name));
    let doc = format!(
        " {} ({} operations).",
        f.doc.trim().trim_end_matches('.'),
        block.operations
    );
    let from_slice = parameters::from_slice(model);
    let lambda_arg = f.reads.lambda.then(|| quote!(lambda: &[f64],));
    let rates_arg = f
        .reads
        .rates
        .then(|| quote!(r0: &#core::MarkerRates, r1: &#core::MarkerRates,));
    let outs = out_args(f.shape);
    let typed = quote! {
        #[doc = #doc]
        #[inline]
        pub fn #name<S: #core::Scalar>(#(#decls),*) -> #ret {
            #(#binds)*
            #(#lets)*
            #value
        }
    };
    if matches!(f.shape, Shape::Table(_)) {
        return typed;
    }
    quote! {
        #typed

        /// On slices (the joint's parameters as one slice); `None` (nothing written) if a
        /// length is wrong.
        pub fn #slices(joint: &[f64], #lambda_arg m0: &#core::MarkerQuantities, m1: &#core::MarkerQuantities, #rates_arg #outs) -> ::core::option::Option<()> {
            #from_slice
            let value = #name(#(#call),*);
            #store
            ::core::option::Option::Some(())
        }
    }
}
