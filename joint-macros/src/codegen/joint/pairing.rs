//! One pairing module: the kernels of a joint for two marker kinds, typed (fixed-size arrays,
//! for embedding) and type-erased (`_slices`, behind `joint_core::Pairing`, for runtimes).
//!
//! Each kernel function is emitted by [`kernel`]: its signature from the variables its outputs
//! use, `let` bindings of the used inputs, the common subexpressions, the value; and its
//! `_slices` wrapper that checks the slice lengths and calls it.

use proc_macro2::TokenStream;
use quote::quote;
use std::collections::BTreeSet;

use super::kernel_blocks::{blocks_store, blocks_type, blocks_value, vectors};
use super::{Derivatives, Lowered, PairingStats, derivatives, kernel_roots, parameters};
use crate::codegen::util::{ArrayArg, ident, lit, used_variables};
use crate::definition::errors::Errors;
use crate::definition::model::JointModel;
use crate::kinematics::MarkerKind;
use crate::symbolic::emit::{Block, emit_generic};
use crate::symbolic::{Graph, Id};

/// The definition's levels as written, for doc comments.
pub struct Texts<'a> {
    /// `None`: the joint is written at velocity level.
    pub position: Option<&'a str>,
    /// `None`: derived by the compiler.
    pub velocity: Option<&'a str>,
}

/// Per-marker argument arrays of a kernel.
struct MarkerArrays {
    parameters: Option<ArrayArg>,
    coordinates: Option<ArrayArg>,
    velocities: Option<ArrayArg>,
}

fn marker_arrays(i: usize, kind: MarkerKind) -> MarkerArrays {
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
struct Reads {
    velocities: bool,
    lambda: bool,
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
enum Shape {
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
}

/// A typed kernel function and its `_slices` wrapper.
struct Kernel<'a> {
    name: &'a str,
    doc: String,
    roots: &'a [Id],
    reads: Reads,
    shape: Shape,
    /// Whether the `_slices` wrapper is emitted (it is codegen'd in the user's crate even when
    /// unused, as `PAIRING` names it: only the functions a runtime calls have one).
    slices: bool,
}

fn kernel(
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

/// `m0`: its kind, and the names of its arguments' entries (the argument order an embedder
/// fills them in).
fn marker_doc(i: usize, kind: MarkerKind) -> Vec<String> {
    let list = |names: &[&str]| {
        if names.is_empty() {
            "none".to_owned()
        } else {
            format!("`[{}]`", names.join(", "))
        }
    };
    vec![
        format!(" * `m{i}`: {} ({}).", kind.name(), kind.description()),
        format!(
            "   `m{i}_parameters` {}, `m{i}_coordinates` {} (total values), `m{i}_velocities` their time derivatives.",
            list(kind.parameter_names()),
            list(kind.coordinate_names())
        ),
    ]
}

/// The kernels that fuse two others (their operations are not counted again in the stats).
const FUSED: [&str; 3] = [
    "position_residual_and_jacobian",
    "position_residual_and_reaction_forces",
    "position_residual_and_position_jacobian",
];

/// The pairing module of `kinds`, with its operation counts; `None` (with an error) if the
/// velocity level is not linear in the coordinate velocities.
pub fn module(
    model: &JointModel,
    lowered: &mut Lowered,
    kinds: [MarkerKind; 2],
    texts: &Texts,
    errors: &mut Errors,
) -> Option<(TokenStream, PairingStats)> {
    let rows = model.axes.len();
    let d: Derivatives = derivatives(lowered, rows);
    let g = &lowered.graph;
    // The velocity-level residual must be linear in the coordinate velocities; otherwise the
    // Jacobian would depend on them and is not a constraint Jacobian.
    let jac_used = used_variables(g, &d.jac_roots);
    if let Some(v) = jac_used.iter().find(|n| n.ends_with("_t")) {
        errors.push(syn::Error::new_spanned(
            model.velocity.as_ref().unwrap_or(model.written()),
            format!(
                "the velocity-level residual is not linear in the coordinate velocities (its Jacobian depends on `{v}`) for pairing {} – {}",
                kinds[0].name(),
                kinds[1].name()
            ),
        ));
        return None;
    }
    let arrays = [marker_arrays(0, kinds[0]), marker_arrays(1, kinds[1])];
    let n = [kinds[0].coordinate_count(), kinds[1].coordinate_count()];
    let blocks: Vec<Option<usize>> = n.iter().map(|&c| (c > 0).then_some(c)).collect();
    let with = match (n[0] > 0, n[1] > 0) {
        (true, true) => "m0 and m1",
        (true, false) => "m0 (m1 has none)",
        _ => "m1 (m0 has none)",
    };
    let velocity_text = match (texts.velocity, texts.position) {
        (Some(v), _) => v.to_owned(),
        (None, Some(p)) => format!("d/dt({p})"),
        (None, None) => unreachable!("a model has a position or a velocity level"),
    };
    let both_roots: Vec<Id> = lowered
        .position
        .iter()
        .chain(&d.jac_roots)
        .copied()
        .collect();
    let reads = |velocities, lambda| Reads { velocities, lambda };
    let mut kernels = Vec::new();
    if let Some(position) = texts.position {
        kernels.push(Kernel {
            name: "position_residual",
            doc: format!(" Position-level residual `{position}`."),
            roots: &lowered.position,
            reads: reads(false, false),
            shape: Shape::Rows,
            slices: true,
        });
    }
    kernels.extend([
        Kernel {
            name: "velocity_residual",
            doc: match (texts.velocity, texts.position) {
                (Some(v), Some(_)) => format!(" Velocity-level residual `{v}` (as written)."),
                (Some(v), None) => format!(
                    " Velocity-level residual `{v}`: the joint's rows, written at velocity level (they have no position level)."
                ),
                (None, _) => {
                    format!(" Velocity-level residual `{velocity_text}`, derived by the compiler.")
                }
            },
            roots: &lowered.velocity,
            reads: reads(true, false),
            shape: Shape::Rows,
            slices: true,
        },
        Kernel {
            name: "jacobian",
            doc: format!(
                " Jacobian blocks ∂(`{velocity_text}`)/∂q̇ with respect to the coordinates of {}.",
                with
            ),
            roots: &d.jac_roots,
            reads: reads(false, false),
            shape: Shape::Blocks(blocks.clone()),
            slices: true,
        },
    ]);
    if let Some(position) = texts.position {
        kernels.push(Kernel {
            name: "position_residual_and_jacobian",
            doc: " [`position_residual`] and [`jacobian`] at the same coordinates, their common \
                  subexpressions computed once."
                .to_owned(),
            roots: &both_roots,
            reads: reads(false, false),
            shape: Shape::RowsAndBlocks(blocks.clone()),
            slices: false,
        });
        kernels.push(Kernel {
            name: "position_jacobian",
            doc: format!(
                " ∂g/∂q: the position-level residual `{position}` differentiated by the coordinates of {with} — the Jacobian consistent with the residual (Exudyn's [`jacobian`] equals it for Euler parameters only along tangents of |θ| = 1)."
            ),
            roots: &d.pq_roots,
            reads: reads(false, false),
            shape: Shape::Blocks(blocks.clone()),
            slices: true,
        });
    }
    let residual_and_reaction_roots: Vec<Id> = lowered
        .position
        .iter()
        .chain(&d.reaction_roots)
        .copied()
        .collect();
    let residual_and_position_jacobian_roots: Vec<Id> = lowered
        .position
        .iter()
        .chain(&d.pq_roots)
        .copied()
        .collect();
    if texts.position.is_some() {
        kernels.push(Kernel {
            name: "position_residual_and_reaction_forces",
            doc: " [`position_residual`] and [`reaction_forces`] at the same coordinates, their \
                  common subexpressions computed once: what a Newton iteration on the position \
                  level evaluates every time."
                .to_owned(),
            roots: &residual_and_reaction_roots,
            reads: reads(false, true),
            shape: Shape::RowsAndVectors(blocks.clone()),
            slices: true,
        });
        kernels.push(Kernel {
            name: "position_residual_and_position_jacobian",
            doc: " [`position_residual`] and [`position_jacobian`] at the same coordinates, their \
                  common subexpressions computed once: the residual and its consistent Jacobian, \
                  what Newton's method on g(q) = 0 needs."
                .to_owned(),
            roots: &residual_and_position_jacobian_roots,
            reads: reads(false, false),
            shape: Shape::RowsAndBlocks(blocks.clone()),
            slices: false,
        });
    }
    kernels.push(Kernel {
        name: "reaction_forces",
        doc: format!(
            " C_qᵀλ: the reaction forces of the rows' multipliers λ on the coordinates of {with}, \
             [`jacobian`] transposed times λ without forming it (the rows' gradient weighted by \
             λ, differentiated in reverse)."
        ),
        roots: &d.reaction_roots,
        reads: reads(false, true),
        shape: Shape::Vectors(blocks.clone()),
        slices: true,
    });
    let mut functions = Vec::new();
    let mut ops = Vec::new();
    for k in &mut kernels {
        let (tokens, block) = kernel(model, g, &arrays, rows, k);
        functions.push(tokens);
        ops.push((k.name, block.operations));
    }
    let emitted: usize = ops
        .iter()
        .filter(|(name, _)| !FUSED.contains(name))
        .map(|(_, o)| o)
        .sum();
    let stats = PairingStats {
        kinds,
        unsimplified_tree_operations: None,
        tree_operations: g.operation_count_tree(&kernel_roots(lowered, &d)),
        emitted_operations: emitted,
    };
    let core = &model.core;
    let module_name = super::pairing_module_name(kinds[0], kinds[1]);
    let module = ident(&module_name);
    let joint_module = super::module_name(&model.name.to_string());
    let (n0l, n1l) = (lit(n[0]), lit(n[1]));
    let (np0, np1) = (
        lit(kinds[0].parameter_count()),
        lit(kinds[1].parameter_count()),
    );
    let (k0, k1) = (
        super::kind_tokens(core, kinds[0]),
        super::kind_tokens(core, kinds[1]),
    );
    let (position_residual, position_jacobian, residual_and_reaction) = if texts.position.is_some()
    {
        (
            quote!(position_residual_slices),
            quote!(position_jacobian_slices),
            quote!(position_residual_and_reaction_forces_slices),
        )
    } else {
        (
            quote!(#core::Pairing::NO_POSITION_RESIDUAL),
            quote!(#core::Pairing::NO_POSITION_JACOBIAN),
            quote!(#core::Pairing::NO_POSITION_RESIDUAL_AND_REACTION_FORCES),
        )
    };
    let mut doc: Vec<String> = vec![format!(
        " The kernels of `{}` for marker kinds {} – {}. Their arguments, in order:",
        model.name,
        kinds[0].name(),
        kinds[1].name()
    )];
    if !model.params.is_empty() {
        let names: Vec<String> = model.params.iter().map(|p| p.name.to_string()).collect();
        doc.push(format!(
            " * `joint`: the joint's [`Parameters`](super::Parameters) ({}); the `_slices` forms take them as one slice in that order, matrices row-major;",
            names.join(", ")
        ));
    }
    doc.extend(marker_doc(0, kinds[0]));
    doc.extend(marker_doc(1, kinds[1]));
    doc.push(String::new());
    doc.push(" Operations emitted per function:".to_owned());
    for (name, o) in &ops {
        doc.push(format!(" `{name}` {o},"));
    }
    let tokens = quote! {
        #(#[doc = #doc])*
        pub mod #module {
            /// Coordinates of `m0`'s and `m1`'s node.
            pub const COORDINATES: [usize; 2] = [#n0l, #n1l];
            /// Parameters of `m0` and `m1`.
            pub const PARAMETERS: [usize; 2] = [#np0, #np1];

            /// The pairing behind the type-erased interface.
            pub static PAIRING: #core::Pairing = #core::Pairing {
                joint: #joint_module,
                name: #module_name,
                kinds: [#k0, #k1],
                coordinates: COORDINATES,
                parameters: PARAMETERS,
                rows: super::ROWS,
                position_residual: #position_residual,
                velocity_residual: velocity_residual_slices,
                jacobian: jacobian_slices,
                position_jacobian: #position_jacobian,
                reaction_forces: reaction_forces_slices,
                position_residual_and_reaction_forces: #residual_and_reaction,
            };

            #(#functions)*
        }
    };
    Some((tokens, stats))
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
    let module = ident(&super::pairing_module_name(kinds[0], kinds[1]));
    quote! {
        pub mod #module {
            #(#functions)*
        }
    }
}
