//! A pairing kernel as a function: its typed signature from the variables its outputs use, the
//! `let` bindings of those inputs, the shared subexpressions and the value, and its `_slices`
//! wrapper that checks the slice lengths and calls it; and the stubs of a definition with errors.

use proc_macro2::TokenStream;
use quote::quote;
use std::collections::BTreeSet;

use super::super::kernel_blocks::{blocks_store, blocks_type, blocks_value, vectors};
use super::super::parameters;
use crate::codegen::util::{ArrayArg, ident, lit, used_variables};
use crate::definition::model::JointModel;
use crate::kinematics::MarkerKind;
use crate::symbolic::emit::{Block, emit_generic};
use crate::symbolic::{Graph, Id};

/// Per-marker argument arrays of a kernel.
pub(super) struct MarkerArrays {
    pub(super) parameters: Option<ArrayArg>,
    pub(super) coordinates: Option<ArrayArg>,
    pub(super) velocities: Option<ArrayArg>,
}

pub(super) fn marker_arrays(i: usize, kind: MarkerKind) -> MarkerArrays {
    let prefix = format!("m{i}_");
    let arr = |what: &str, names: &[&str], suffix: &str| {
        (!names.is_empty()).then(|| ArrayArg::new(format!("m{i}_{what}"), &prefix, names, suffix))
    };
    MarkerArrays {
        parameters: arr("parameters", kind.parameter_names(), ""),
        coordinates: arr("coordinates", kind.coordinate_names(), ""),
        velocities: arr("velocities", kind.coordinate_names(), "_t"),
    }
}

/// What a kernel function reads besides the joint's parameters.
#[derive(Clone, Copy)]
pub(super) struct Reads {
    pub(super) velocities: bool,
    pub(super) lambda: bool,
}

/// The typed function's parameters, its input bindings, and the arguments its `_slices`
/// wrapper passes (`m0.coordinates.try_into().ok()?`, …).
struct Signature {
    decls: Vec<TokenStream>,
    binds: Vec<TokenStream>,
    call: Vec<TokenStream>,
}

fn signature(
    model: &JointModel,
    arrays: &[MarkerArrays; 2],
    reads: Reads,
    rows: usize,
    used: &BTreeSet<String>,
) -> Signature {
    let mut s = Signature {
        decls: Vec::new(),
        binds: Vec::new(),
        call: Vec::new(),
    };
    let scalar = quote!(S);
    if let (Some(arg), binds) = parameters::bindings(model, used) {
        s.decls.push(arg);
        s.binds.extend(binds);
        s.call.push(quote!(joint));
    }
    if reads.lambda {
        let rows_lit = lit(rows);
        let used_any = (0..rows).any(|r| used.contains(&format!("lambda_{r}")));
        let name = if used_any {
            quote!(lambda)
        } else {
            quote!(_lambda)
        };
        s.decls.push(quote!(#name: &[S; #rows_lit]));
        for r in 0..rows {
            let var = format!("lambda_{r}");
            if used.contains(&var) {
                let v = ident(&var);
                let rl = lit(r);
                s.binds.push(quote!(let #v = lambda[#rl];));
            }
        }
        s.call.push(quote!(lambda.try_into().ok()?));
    }
    for (i, a) in arrays.iter().enumerate() {
        let m = ident(&format!("m{i}"));
        let list: [(&Option<ArrayArg>, TokenStream); 3] = [
            (&a.parameters, quote!(parameters)),
            (&a.coordinates, quote!(coordinates)),
            (&a.velocities, quote!(velocities)),
        ];
        for (j, (arr, field)) in list.into_iter().enumerate() {
            if j == 2 && !reads.velocities {
                continue;
            }
            if let Some(arr) = arr {
                s.decls.push(arr.declaration_of(used, &scalar));
                s.binds.extend(arr.bindings(used));
                s.call.push(quote!(#m.#field.try_into().ok()?));
            }
        }
    }
    s
}

/// In a `_slices` wrapper: the slices of arrays a kind does not have must be empty.
fn empty_slice_checks(arrays: &[MarkerArrays; 2], velocities: bool) -> TokenStream {
    let mut checks = Vec::new();
    for (i, a) in arrays.iter().enumerate() {
        let m = ident(&format!("m{i}"));
        if a.parameters.is_none() {
            checks.push(quote!(!#m.parameters.is_empty()));
        }
        if a.coordinates.is_none() {
            checks.push(quote!(!#m.coordinates.is_empty()));
            if velocities {
                checks.push(quote!(!#m.velocities.is_empty()));
            }
        }
    }
    if checks.is_empty() {
        quote!()
    } else {
        quote! {
            if #(#checks)||* {
                return ::core::option::Option::None;
            }
        }
    }
}

/// How a kernel's outputs are shaped and stored.
pub(super) enum Shape {
    /// `[S; ROWS]`, stored into `out: &mut [f64]`.
    Rows,
    /// One `[[S; n]; ROWS]` per marker with coordinates, stored into `block0`, `block1`.
    Blocks(Vec<Option<usize>>),
    /// Rows, then blocks (`position_residual_and_jacobian`).
    RowsAndBlocks(Vec<Option<usize>>),
    /// One `[S; n]` per marker with coordinates (a tuple if both have), stored into
    /// `force0`, `force1` (`reaction_forces`).
    Vectors(Vec<Option<usize>>),
    /// Rows, then vectors (`position_residual_and_reaction_forces`).
    RowsAndVectors(Vec<Option<usize>>),
    /// `[[S; n]; ROWS]`, typed only (`parameter_jacobian`).
    Table(usize),
}

/// A typed kernel function and its `_slices` wrapper.
pub(super) struct Kernel<'a> {
    pub(super) name: &'a str,
    pub(super) doc: String,
    pub(super) roots: &'a [Id],
    pub(super) reads: Reads,
    pub(super) shape: Shape,
    /// Whether the `_slices` wrapper is emitted (it is codegen'd in the user's crate even when
    /// unused, as `PAIRING` names it: only the functions a runtime calls have one).
    pub(super) slices: bool,
}

pub(super) fn kernel(
    model: &JointModel,
    g: &Graph,
    arrays: &[MarkerArrays; 2],
    rows: usize,
    k: &Kernel,
) -> (TokenStream, Block) {
    let block = emit_generic(g, k.roots, "t");
    let used = used_variables(g, k.roots);
    let sig = signature(model, arrays, k.reads, rows, &used);
    let name = ident(k.name);
    let slices = ident(&format!("{}_slices", k.name));
    let rows_lit = lit(rows);
    let (decls, binds, lets, call) = (&sig.decls, &sig.binds, &block.lets, &sig.call);
    let outputs = &block.outputs;
    let s = quote!(S);
    let (ret, value, out_args, store) = match &k.shape {
        Shape::Rows => (
            quote!([S; #rows_lit]),
            quote!([#(#outputs),*]),
            quote!(out: &mut [f64]),
            quote! {
                let out: &mut [f64; #rows_lit] = out.try_into().ok()?;
                *out = #name(#(#call),*);
            },
        ),
        Shape::Blocks(b) => {
            let (checks, store) = blocks_store(b, quote!(#name(#(#call),*)));
            (
                blocks_type(b, rows, &s),
                blocks_value(b, rows, outputs),
                quote!(block0: &mut [f64], block1: &mut [f64]),
                quote!(#checks #store),
            )
        }
        Shape::Table(n) => {
            debug_assert!(!k.slices, "a table has no `_slices` form");
            let table = [Some(*n)];
            (
                blocks_type(&table, rows, &s),
                blocks_value(&table, rows, outputs),
                quote!(),
                quote!(),
            )
        }
        Shape::Vectors(b) => {
            let v = vectors(b, outputs, &s);
            let (pattern, copies) = (&v.pattern, &v.copies);
            (
                v.ty.clone(),
                v.value.clone(),
                quote!(force0: &mut [f64], force1: &mut [f64]),
                quote! {
                    #v
                    let #pattern = #name(#(#call),*);
                    #(#copies)*
                },
            )
        }
        Shape::RowsAndVectors(b) => {
            let (residual, forces) = outputs.split_at(rows);
            let v = vectors(b, forces, &s);
            let (ty, value, pattern, copies) = (&v.ty, &v.value, &v.pattern, &v.copies);
            (
                quote!(([S; #rows_lit], #ty)),
                quote!(([#(#residual),*], #value)),
                quote!(out: &mut [f64], force0: &mut [f64], force1: &mut [f64]),
                quote! {
                    #v
                    let out: &mut [f64; #rows_lit] = out.try_into().ok()?;
                    let (residual, forces) = #name(#(#call),*);
                    *out = residual;
                    let #pattern = forces;
                    #(#copies)*
                },
            )
        }
        Shape::RowsAndBlocks(b) => {
            let (residual, jac) = outputs.split_at(rows);
            let bt = blocks_type(b, rows, &s);
            let bv = blocks_value(b, rows, jac);
            let (checks, store) = blocks_store(b, quote!(blocks));
            (
                quote!(([S; #rows_lit], #bt)),
                quote!(([#(#residual),*], #bv)),
                quote!(out: &mut [f64], block0: &mut [f64], block1: &mut [f64]),
                quote! {
                    #checks
                    let out: &mut [f64; #rows_lit] = out.try_into().ok()?;
                    let (residual, blocks) = #name(#(#call),*);
                    *out = residual;
                    #store
                },
            )
        }
    };
    let checks = empty_slice_checks(arrays, k.reads.velocities);
    let joint = parameters::from_slice(model);
    let lambda_arg = if k.reads.lambda {
        quote!(lambda: &[f64],)
    } else {
        quote!()
    };
    let doc = &k.doc;
    let slices_doc = format!(
        " [`{}`] on slices: the joint's parameters as one slice (empty for a joint without), the \
         markers' arguments, the outputs (blocks row-major); `None` (nothing written) if a length is wrong.",
        k.name
    );
    let core = &model.core;
    let typed = quote! {
        #[doc = #doc]
        #[inline]
        pub fn #name<S: #core::Scalar>(#(#decls),*) -> #ret {
            #(#binds)*
            #(#lets)*
            #value
        }
    };
    if !k.slices {
        return (typed, block);
    }
    let tokens = quote! {
        #typed

        #[doc = #slices_doc]
        pub fn #slices(joint: &[f64], #lambda_arg m0: #core::MarkerArgs<'_>, m1: #core::MarkerArgs<'_>, #out_args) -> ::core::option::Option<()> {
            #joint
            #checks
            #store
            ::core::option::Option::Some(())
        }
    };
    (tokens, block)
}

/// The typed functions of pairing `kinds` with bodies that cannot run: the stub of a definition
/// with errors, so that an embedder's calls still resolve and only the definition's error shows.
pub fn stub_module(model: &JointModel, kinds: [MarkerKind; 2]) -> TokenStream {
    let rows = model.axes.len();
    let arrays = [marker_arrays(0, kinds[0]), marker_arrays(1, kinds[1])];
    let n = [kinds[0].coordinate_count(), kinds[1].coordinate_count()];
    let blocks: Vec<Option<usize>> = n.iter().map(|&c| (c > 0).then_some(c)).collect();
    let unused = BTreeSet::new();
    let rows_lit = lit(rows);
    let bt = blocks_type(&blocks, rows, &quote!(S));
    let mut fns: Vec<(&str, Reads, TokenStream)> = vec![
        (
            "position_residual",
            Reads {
                velocities: false,
                lambda: false,
            },
            quote!([S; #rows_lit]),
        ),
        (
            "velocity_residual",
            Reads {
                velocities: true,
                lambda: false,
            },
            quote!([S; #rows_lit]),
        ),
        (
            "jacobian",
            Reads {
                velocities: false,
                lambda: false,
            },
            bt.clone(),
        ),
        (
            "position_residual_and_jacobian",
            Reads {
                velocities: false,
                lambda: false,
            },
            quote!(([S; #rows_lit], #bt)),
        ),
    ];
    let forces: Vec<TokenStream> = n
        .iter()
        .filter(|&&c| c > 0)
        .map(|&c| {
            let c = lit(c);
            quote!([S; #c])
        })
        .collect();
    let forces = if forces.len() == 1 {
        forces[0].clone()
    } else {
        quote!((#(#forces),*))
    };
    fns.push((
        "reaction_forces",
        Reads {
            velocities: false,
            lambda: true,
        },
        forces.clone(),
    ));
    fns.push((
        "position_residual_and_reaction_forces",
        Reads {
            velocities: false,
            lambda: true,
        },
        quote!(([S; #rows_lit], #forces)),
    ));
    fns.push((
        "position_residual_and_position_jacobian",
        Reads {
            velocities: false,
            lambda: false,
        },
        quote!(([S; #rows_lit], #bt)),
    ));
    let plain = Reads {
        velocities: false,
        lambda: false,
    };
    fns.push(("position_jacobian", plain, bt.clone()));
    if model.parameter_derivatives {
        let columns = super::super::parameter_derivatives::joint_columns(model).len();
        if columns > 0 {
            fns.push((
                "parameter_jacobian",
                plain,
                blocks_type(&[Some(columns)], rows, &quote!(S)),
            ));
        }
        let np: Vec<Option<usize>> = kinds
            .iter()
            .map(|k| (k.parameter_count() > 0).then_some(k.parameter_count()))
            .collect();
        if np.iter().any(Option::is_some) {
            fns.push((
                "marker_parameter_jacobian",
                plain,
                blocks_type(&np, rows, &quote!(S)),
            ));
        }
    }
    let functions: Vec<TokenStream> = fns
        .into_iter()
        .map(|(name, reads, ret)| {
            let sig = signature(model, &arrays, reads, rows, &unused);
            let decls = &sig.decls;
            let name = ident(name);
            let core = &model.core;
            quote! {
                pub fn #name<S: #core::Scalar>(#(#decls),*) -> #ret {
                    ::core::unreachable!("the joint's definition has errors")
                }
            }
        })
        .collect();
    let module = ident(&super::super::pairing_module_name(kinds[0], kinds[1]));
    quote! {
        pub mod #module {
            #(#functions)*
        }
    }
}
