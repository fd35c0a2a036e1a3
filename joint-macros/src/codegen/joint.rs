//! Joint kernels: for every pairing of marker kinds that satisfies the joint's capabilities,
//! compose the residual with both markers' kinematics, differentiate, simplify, share common
//! subexpressions and emit straight-line Rust.
//!
//! Per pairing `m0kind_to_m1kind` the expansion contains
//! * `position_residual(p0, q0, p1, q1) -> [f64; ROWS]`,
//! * `velocity_residual(p0, q0, v0, p1, q1, v1) -> [f64; ROWS]`,
//! * `jacobian(p0, q0, p1, q1) -> ([[f64; N0]; ROWS], [[f64; N1]; ROWS])`, only the blocks of markers
//!   that have coordinates (ground contributes none),
//!
//! where `p` are a marker's parameters, `q` its node's total coordinates and `v` their velocities;
//! arrays of length 0 are left out of the signatures. The Jacobian is
//! ∂(velocity residual)/∂(coordinate velocities), Exudyn's convention, which for a position-level
//! constraint equals its position Jacobian wherever the kinematic relations are exact.
//! A uniform slice-based [`PairingKernel`] table lets a runtime select a pairing once at assemble.

use proc_macro2::TokenStream;
use quote::{ToTokens, quote};
use std::collections::HashMap;

use super::util::{ArrayArg, ident, lit, used_variables};
use crate::definition::errors::Errors;
use crate::definition::lower::{parameter_variable, residuals};
use crate::definition::model::JointModel;
use crate::kinematics::{Kinematics, MarkerKind};
use crate::symbolic::diff::derivative_memo;
use crate::symbolic::emit::emit;
use crate::symbolic::{Graph, Id};

/// Operation counts of one pairing, over everything its kernels compute: both residuals, the
/// Jacobian and the two second-order terms (∂(C_q v)/∂q and ∂(C_qᵀλ)/∂q). An operation is one
/// node `+ · / − sqrt sin cos` (so `a − b` is an addition and a negation); literals and inputs
/// are free.
#[derive(Debug, Clone)]
pub struct PairingStats {
    pub kinds: [MarkerKind; 2],
    /// Before simplification: every output as an independent expression tree, exactly as the
    /// definition, the marker kinematics and the rules of differentiation build it, with no
    /// constant folding or algebraic simplification (`0·x`, `1·x`, `x + 0`, `−(−x)` … all
    /// kept; see `Graph::unsimplified`). Expensive, so [`expand`] leaves it `None`; the
    /// operation-count report fills it in (`operation_counts`, test builds only).
    #[cfg_attr(not(test), allow(dead_code))]
    pub unsimplified_tree_operations: Option<u128>,
    /// After simplification: every output as an independent expression tree, as the simplifying
    /// graph builds it (constants folded, neutral elements dropped).
    pub tree_operations: u128,
    /// After simplification and common-subexpression elimination: operations in the emitted
    /// code (every shared node once per kernel function).
    pub emitted_operations: usize,
}

/// Snake-case module name of a joint.
pub fn module_name(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.extend(c.to_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

pub fn pairing_module_name(k0: MarkerKind, k1: MarkerKind) -> String {
    format!("{}_to_{}", k0.snake_name(), k1.snake_name())
}

/// The pairings generated for `model`: every ordered pair of kinds providing the declared
/// capabilities, except ground with ground (no coordinates: nothing to constrain).
pub fn pairings(model: &JointModel) -> Vec<[MarkerKind; 2]> {
    let mut out = Vec::new();
    for k0 in MarkerKind::ALL {
        for k1 in MarkerKind::ALL {
            if k0.coordinate_count() + k1.coordinate_count() == 0 {
                continue;
            }
            if model.markers[0].accepts(k0) && model.markers[1].accepts(k1) {
                out.push([k0, k1]);
            }
        }
    }
    out
}

struct Lowered {
    graph: Graph,
    kin: [Kinematics; 2],
    position: Vec<Id>,
    velocity: Vec<Id>,
}

fn lower_pairing(
    model: &JointModel,
    kinds: [MarkerKind; 2],
    errors: &mut Errors,
) -> Option<Lowered> {
    let mut g = Graph::new();
    let kin = [kinds[0].build(&mut g, "m0_"), kinds[1].build(&mut g, "m1_")];
    lower_with(model, g, kin, errors)
}

fn lower_with(
    model: &JointModel,
    mut g: Graph,
    kin: [Kinematics; 2],
    errors: &mut Errors,
) -> Option<Lowered> {
    let (position, velocity) = residuals(&mut g, model, &kin, errors)?;
    Some(Lowered {
        graph: g,
        kin,
        position,
        velocity,
    })
}

/// The outputs a pairing's kernels compute beyond the two residuals, as roots of its graph.
struct Derivatives {
    /// Jacobian blocks `[row][coordinate velocity]` per marker (`None`: no coordinates).
    blocks: Vec<Option<Vec<Vec<Id>>>>,
    /// The Jacobian blocks' entries, marker by marker, row-major.
    jac_roots: Vec<Id>,
    /// ∂(C_q v)/∂q, marker by marker, row-major.
    vq_roots: Vec<Id>,
    /// Per block of `vq_roots`: (marker, rows, columns).
    vq_shapes: Vec<(usize, usize, usize)>,
    /// ∂(C_qᵀλ)/∂q, block by block, row-major.
    rq_roots: Vec<Id>,
    /// Per block of `rq_roots`: (row marker, column marker, rows, columns).
    rq_shapes: Vec<(usize, usize, usize, usize)>,
}

/// Differentiate a lowered pairing: the Jacobian and the second-order terms. The one place
/// these are computed, for the kernels and for the operation counts alike.
fn derivatives(lowered: &mut Lowered, rows: usize) -> Derivatives {
    let g = &mut lowered.graph;
    // Jacobian blocks: ∂(velocity residual row)/∂(coordinate velocity), per marker with coordinates.
    let mut blocks: Vec<Option<Vec<Vec<Id>>>> = Vec::new();
    for kin in &lowered.kin {
        if kin.velocities.is_empty() {
            blocks.push(None);
            continue;
        }
        let mut block = vec![Vec::with_capacity(kin.velocities.len()); rows];
        for &v in &kin.velocities {
            let mut memo = HashMap::new();
            for (r, &row) in lowered.velocity.iter().enumerate() {
                block[r].push(derivative_memo(g, row, v, &mut memo));
            }
        }
        blocks.push(Some(block));
    }
    let jac_roots: Vec<Id> = blocks
        .iter()
        .flatten()
        .flatten()
        .flatten()
        .copied()
        .collect();
    // Second-order terms, differentiated once more by the coordinates:
    // ∂(C_q v)/∂q = ∂(velocity residual)/∂q (the residual is linear in v, so it is C_q v), and
    // ∂(C_qᵀλ)/∂q with λ the rows' multipliers.
    let lambda: Vec<Id> = (0..rows).map(|r| g.var(&format!("lambda_{r}"))).collect();
    let mut vq_roots = Vec::new();
    let mut vq_shapes = Vec::new();
    for (i, kin) in lowered.kin.iter().enumerate() {
        if kin.coordinates.is_empty() {
            continue;
        }
        let n = kin.coordinates.len();
        let mut block = vec![vec![Id(0); n]; rows];
        for (c, &q) in kin.coordinates.iter().enumerate() {
            let mut memo = HashMap::new();
            for (r, &row) in lowered.velocity.iter().enumerate() {
                block[r][c] = derivative_memo(g, row, q, &mut memo);
            }
        }
        vq_roots.extend(block.iter().flatten().copied());
        vq_shapes.push((i, rows, n));
    }
    // C_qᵀλ per marker with coordinates: f_i[c] = Σ_r λ_r J_i[r][c]
    let mut reaction: Vec<(usize, Vec<Id>)> = Vec::new();
    for (i, b) in blocks.iter().enumerate() {
        let Some(b) = b else { continue };
        let n = b[0].len();
        let f: Vec<Id> = (0..n)
            .map(|c| {
                let terms: Vec<Id> = (0..rows).map(|r| g.mul(lambda[r], b[r][c])).collect();
                g.sum(&terms)
            })
            .collect();
        reaction.push((i, f));
    }
    let mut rq_roots = Vec::new();
    let mut rq_shapes = Vec::new();
    for (i, f) in &reaction {
        for (j, kin) in lowered.kin.iter().enumerate() {
            if kin.coordinates.is_empty() {
                continue;
            }
            let (ni, nj) = (f.len(), kin.coordinates.len());
            let mut block = vec![vec![Id(0); nj]; ni];
            for (c, &q) in kin.coordinates.iter().enumerate() {
                let mut memo = HashMap::new();
                for (r, &fr) in f.iter().enumerate() {
                    block[r][c] = derivative_memo(g, fr, q, &mut memo);
                }
            }
            rq_roots.extend(block.iter().flatten().copied());
            rq_shapes.push((*i, j, ni, nj));
        }
    }
    Derivatives {
        blocks,
        jac_roots,
        vq_roots,
        vq_shapes,
        rq_roots,
        rq_shapes,
    }
}

/// Every output of a pairing's kernels, in kernel order.
fn kernel_roots(
    position: &[Id],
    velocity: &[Id],
    jacobian: &[Id],
    velocity_residual_q: &[Id],
    reaction_q: &[Id],
) -> Vec<Id> {
    [
        position,
        velocity,
        jacobian,
        velocity_residual_q,
        reaction_q,
    ]
    .concat()
}

/// [`PairingStats::unsimplified_tree_operations`] of pairing `kinds` of a checked `model`: the
/// same lowering and the same derivatives as the kernels (one [`derivatives`] for both), in a
/// `Graph::unsimplified`, counted as trees. The graph stays hash-consed and the tree sizes are
/// summed per node, so trees far too large to build are counted in time linear in the graph.
/// `None` if the pairing does not lower.
#[cfg(test)]
pub fn unsimplified_tree_operations(model: &JointModel, kinds: [MarkerKind; 2]) -> Option<u128> {
    let mut g = Graph::unsimplified();
    let kin = [kinds[0].build(&mut g, "m0_"), kinds[1].build(&mut g, "m1_")];
    let mut errors = Errors::new();
    let mut lowered = lower_with(model, g, kin, &mut errors)?;
    if !errors.is_empty() {
        return None;
    }
    let d = derivatives(&mut lowered, model.axes.len());
    let roots = kernel_roots(
        &lowered.position,
        &lowered.velocity,
        &d.jac_roots,
        &d.vq_roots,
        &d.rq_roots,
    );
    Some(lowered.graph.operation_count_tree(&roots))
}

/// The [`PairingStats`] of every pairing of a checked `model`, all three counts included (the
/// operation-count report's numbers). Errors found while lowering are pushed into `errors`.
#[cfg(test)]
pub fn operation_counts(model: &JointModel, errors: &mut Errors) -> Vec<PairingStats> {
    let (_, mut stats) = expand(model, errors);
    for s in &mut stats {
        s.unsimplified_tree_operations = unsimplified_tree_operations(model, s.kinds);
    }
    stats
}

/// Expand a checked joint model. Errors found while lowering are pushed into `errors`; the
/// returned tokens are then only the stub module.
pub fn expand(model: &JointModel, errors: &mut Errors) -> (TokenStream, Vec<PairingStats>) {
    let pairings = pairings(model);
    let module = ident(&module_name(&model.name.to_string()));
    let rows = model.axes.len();
    let rows_lit = lit(rows);
    let axes: Vec<String> = model.axes.iter().map(|a| a.name.to_string()).collect();
    let defaults: Vec<bool> = model.axes.iter().map(|a| a.constrained).collect();
    let kind_names: Vec<&str> = MarkerKind::ALL.iter().map(|k| k.name()).collect();
    let n_kinds = lit(kind_names.len());
    let vis = &model.vis;
    let docs: Vec<&syn::Attribute> = model
        .attrs
        .iter()
        .filter(|a| a.path().is_ident("doc"))
        .collect();
    let position_text = expression_text(&model.position);
    let velocity_text = match &model.velocity {
        Some(v) => expression_text(v),
        None => format!("d/dt({position_text})"),
    };

    // Every error of the definition is found before any pairing is generated: the name checks,
    // then the lowering at marker level (types, capabilities, unknown names: the same for every
    // pairing), then a hand-written velocity level against the derived one.
    crate::definition::check::check(model, errors);
    let marker_level = if errors.is_empty() {
        marker_level_module(model, errors)
    } else {
        quote!()
    };
    if errors.is_empty() {
        crate::definition::velocity_check::check(model, errors);
    }
    let mut pairing_modules = Vec::new();
    let mut table_arms = Vec::new();
    let mut stats = Vec::new();
    let to_generate: &[[MarkerKind; 2]] = if errors.is_empty() { &pairings } else { &[] };
    for kinds in to_generate {
        let mut local_errors = Errors::new();
        let Some(mut lowered) = lower_pairing(model, *kinds, &mut local_errors) else {
            // cannot happen once the marker level lowered; report rather than panic
            if let Err(e) = local_errors.finish() {
                errors.push(e);
            }
            break;
        };
        match pairing_module(
            model,
            &mut lowered,
            *kinds,
            rows,
            &position_text,
            &velocity_text,
            errors,
        ) {
            Some((tokens, s)) => {
                pairing_modules.push(tokens);
                stats.push(s);
            }
            None => break,
        }
        let k0 = MarkerKind::ALL
            .iter()
            .position(|k| k == &kinds[0])
            .expect("kind");
        let k1 = MarkerKind::ALL
            .iter()
            .position(|k| k == &kinds[1])
            .expect("kind");
        let m = ident(&pairing_module_name(kinds[0], kinds[1]));
        let (k0l, k1l) = (lit(k0), lit(k1));
        let names = [kinds[0].name(), kinds[1].name()];
        table_arms.push(quote! {
            (#k0l, #k1l) => ::core::option::Option::Some(PairingKernel {
                kinds: [#(#names),*],
                coordinates: #m::COORDINATES,
                parameters: #m::PARAMETERS,
                position_residual: #m::position_residual_slices,
                velocity_residual: #m::velocity_residual_slices,
                jacobian: #m::jacobian_slices,
                velocity_residual_q: #m::velocity_residual_q_slices,
                reaction_q: #m::reaction_q_slices,
            }),
        });
    }
    let count_rows: Vec<TokenStream> = stats
        .iter()
        .map(|s: &PairingStats| {
            let (a, b) = (s.kinds[0].name(), s.kinds[1].name());
            let tree = u64::try_from(s.tree_operations).unwrap_or(u64::MAX);
            let emitted = s.emitted_operations as u64;
            quote!((#a, #b, #tree, #emitted))
        })
        .collect();
    let n_pairings = lit(stats.len());
    let joint_ty = if model.params.is_empty() {
        quote!()
    } else {
        quote!(&Parameters,)
    };
    let parameters_struct = parameters_struct(model);
    let kernel_doc = format!(
        "The kernel table entry for marker kinds `(kind0, kind1)` (indices into [`MARKER_KINDS`]), \
         or `None` if the joint was not generated for that pairing ({} pairings).",
        pairings.len()
    );
    let tokens = quote! {
        #(#docs)*
        // Generated tokens all carry the call site's span: clippy sees no line structure and
        // misreads binary operators inside array literals as missing commas.
        #[allow(clippy::possible_missing_comma)]
        #vis mod #module {
            /// Number of residual rows (one Lagrange multiplier each).
            pub const ROWS: usize = #rows_lit;
            /// Names of the residual rows.
            pub const AXES: [&str; #rows_lit] = [#(#axes),*];
            /// Default of the run-time axis mask (`constrainedAxes`): `true` = constrained.
            pub const DEFAULT_CONSTRAINED_AXES: [bool; #rows_lit] = [#(#defaults),*];
            /// The compiler's marker kinds, in the order of the kind indices of [`kernel`].
            pub const MARKER_KINDS: [&str; #n_kinds] = [#(#kind_names),*];

            #parameters_struct

            /// One marker's inputs as slices: constant parameters, total coordinates of its node
            /// and their velocities. Lengths must match the pairing's `PARAMETERS` and
            /// `COORDINATES`.
            #[derive(Clone, Copy, Debug)]
            pub struct MarkerArgs<'a> {
                pub parameters: &'a [f64],
                pub coordinates: &'a [f64],
                pub velocities: &'a [f64],
            }

            /// A pairing's kernels behind a uniform, slice-based interface. Every function returns
            /// `None` (and writes nothing) if a slice has the wrong length.
            #[derive(Clone, Copy, Debug)]
            pub struct PairingKernel {
                /// Marker kind names of `m0` and `m1`.
                pub kinds: [&'static str; 2],
                /// Coordinates of `m0`'s and `m1`'s node (0 for ground).
                pub coordinates: [usize; 2],
                /// Parameters of `m0` and `m1`.
                pub parameters: [usize; 2],
                /// Position-level residual.
                pub position_residual: fn(#joint_ty MarkerArgs<'_>, MarkerArgs<'_>, &mut [f64; ROWS]) -> ::core::option::Option<()>,
                /// Velocity-level residual.
                pub velocity_residual: fn(#joint_ty MarkerArgs<'_>, MarkerArgs<'_>, &mut [f64; ROWS]) -> ::core::option::Option<()>,
                /// Jacobian blocks, row-major `ROWS × coordinates[0]` and `ROWS × coordinates[1]`.
                pub jacobian: fn(#joint_ty MarkerArgs<'_>, MarkerArgs<'_>, &mut [f64], &mut [f64]) -> ::core::option::Option<()>,
                /// ∂(C_q v)/∂q blocks, row-major `ROWS × coordinates[0]` and `ROWS × coordinates[1]`.
                pub velocity_residual_q: fn(#joint_ty MarkerArgs<'_>, MarkerArgs<'_>, &mut [f64], &mut [f64]) -> ::core::option::Option<()>,
                /// ∂(C_qᵀλ)/∂q, row-major `(n0 + n1)²` over the columns of m0 then m1.
                pub reaction_q: fn(#joint_ty &[f64; ROWS], MarkerArgs<'_>, MarkerArgs<'_>, &mut [f64]) -> ::core::option::Option<()>,
            }

            /// Per pairing `(kind0, kind1, operations as independent trees, operations emitted)`
            /// over all of the pairing's kernels (residuals, Jacobian, second-order terms), both
            /// after simplification: the effect of sharing common subexpressions, counted while
            /// expanding. (The count before simplification is only in joint-macros' report.)
            pub const OPERATION_COUNTS: [(&str, &str, u64, u64); #n_pairings] = [#(#count_rows),*];

            #[doc = #kernel_doc]
            pub fn kernel(kind0: usize, kind1: usize) -> ::core::option::Option<PairingKernel> {
                match (kind0, kind1) {
                    #(#table_arms)*
                    _ => ::core::option::Option::None,
                }
            }

            #marker_level

            #(#pairing_modules)*
        }
    };
    (tokens, stats)
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

/// Signature pieces and bindings for the arrays `select` picks from both markers.
fn arguments(
    arrays: &[MarkerArrays; 2],
    with_velocities: bool,
    used: &std::collections::BTreeSet<String>,
) -> (Vec<TokenStream>, Vec<TokenStream>, Vec<TokenStream>) {
    let mut decls = Vec::new();
    let mut binds = Vec::new();
    let mut slice_args = Vec::new();
    for (i, a) in arrays.iter().enumerate() {
        let m = ident(&format!("m{i}"));
        let list: [(&Option<ArrayArg>, TokenStream); 3] = [
            (&a.parameters, quote!(parameters)),
            (&a.coordinates, quote!(coordinates)),
            (&a.velocities, quote!(velocities)),
        ];
        for (j, (arr, field)) in list.into_iter().enumerate() {
            if j == 2 && !with_velocities {
                continue;
            }
            if let Some(arr) = arr {
                decls.push(arr.declaration(used));
                binds.extend(arr.bindings(used));
                slice_args.push(quote!(#m.#field.try_into().ok()?));
            }
        }
    }
    (decls, binds, slice_args)
}

/// In the slice wrappers: the slices of arrays a kind does not have must be empty.
fn empty_slice_checks(arrays: &[MarkerArrays; 2], with_velocities: bool) -> TokenStream {
    let mut checks = Vec::new();
    for (i, a) in arrays.iter().enumerate() {
        let m = ident(&format!("m{i}"));
        if a.parameters.is_none() {
            checks.push(quote!(!#m.parameters.is_empty()));
        }
        if a.coordinates.is_none() {
            checks.push(quote!(!#m.coordinates.is_empty()));
            if with_velocities {
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

fn pairing_module(
    model: &JointModel,
    lowered: &mut Lowered,
    kinds: [MarkerKind; 2],
    rows: usize,
    position_text: &str,
    velocity_text: &str,
    errors: &mut Errors,
) -> Option<(TokenStream, PairingStats)> {
    let Derivatives {
        blocks,
        jac_roots,
        vq_roots,
        vq_shapes,
        rq_roots,
        rq_shapes,
    } = derivatives(lowered, rows);
    let g = &mut lowered.graph;
    // The velocity-level residual must be linear in the coordinate velocities; otherwise the
    // Jacobian would depend on them and is not a constraint Jacobian.
    let jac_used = used_variables(g, &jac_roots);
    if let Some(v) = jac_used.iter().find(|n| n.ends_with("_t")) {
        errors.push(syn::Error::new_spanned(
            model.velocity.as_ref().unwrap_or(&model.position),
            format!(
                "the velocity-level residual is not linear in the coordinate velocities (its Jacobian depends on `{v}`) for pairing {} – {}",
                kinds[0].name(),
                kinds[1].name()
            ),
        ));
        return None;
    }
    let arrays = [marker_arrays(0, kinds[0]), marker_arrays(1, kinds[1])];
    let n0 = kinds[0].coordinate_count();
    let n1 = kinds[1].coordinate_count();
    let (n0l, n1l) = (lit(n0), lit(n1));
    let (np0, np1) = (
        lit(kinds[0].parameter_count()),
        lit(kinds[1].parameter_count()),
    );
    let rows_lit = lit(rows);

    // position_residual
    let pos_block = emit(g, &lowered.position, "t");
    let pos_used = used_variables(g, &lowered.position);
    let (mut pos_decls, mut pos_binds, mut pos_slices) = arguments(&arrays, false, &pos_used);
    let has_params = !model.params.is_empty();
    let with_joint = |decls: &mut Vec<TokenStream>,
                      binds: &mut Vec<TokenStream>,
                      slices: &mut Vec<TokenStream>,
                      used| {
        if let (Some(arg), b) = parameter_bindings(model, used) {
            decls.insert(0, arg);
            binds.splice(0..0, b);
            slices.insert(0, quote!(joint));
        }
    };
    with_joint(&mut pos_decls, &mut pos_binds, &mut pos_slices, &pos_used);
    let pos_checks = empty_slice_checks(&arrays, false);
    let pos_lets = &pos_block.lets;
    let pos_out = &pos_block.outputs;

    // velocity_residual
    let vel_block = emit(g, &lowered.velocity, "t");
    let vel_used = used_variables(g, &lowered.velocity);
    let (mut vel_decls, mut vel_binds, mut vel_slices) = arguments(&arrays, true, &vel_used);
    with_joint(&mut vel_decls, &mut vel_binds, &mut vel_slices, &vel_used);
    let vel_checks = empty_slice_checks(&arrays, true);
    let vel_lets = &vel_block.lets;
    let vel_out = &vel_block.outputs;

    let vq_types: Vec<TokenStream> = vq_shapes
        .iter()
        .map(|&(_, _, n)| {
            let nl = lit(n);
            quote!([[f64; #nl]; #rows_lit])
        })
        .collect();
    let rq_types: Vec<TokenStream> = rq_shapes
        .iter()
        .map(|&(_, _, ni, nj)| {
            let (nil, njl) = (lit(ni), lit(nj));
            quote!([[f64; #njl]; #nil])
        })
        .collect();
    let shape_value = |outs: &[TokenStream], shapes: &[(usize, usize)]| -> TokenStream {
        let mut it = outs.iter();
        let mats: Vec<TokenStream> = shapes
            .iter()
            .map(|&(r, c)| {
                let rows_ts: Vec<TokenStream> = (0..r)
                    .map(|_| {
                        let row: Vec<&TokenStream> =
                            (0..c).map(|_| it.next().expect("entry")).collect();
                        quote!([#(#row),*])
                    })
                    .collect();
                quote!([#(#rows_ts),*])
            })
            .collect();
        if mats.len() == 1 {
            mats[0].clone()
        } else {
            quote!((#(#mats),*))
        }
    };
    let tuple_type = |types: &[TokenStream]| -> TokenStream {
        if types.len() == 1 {
            types[0].clone()
        } else {
            quote!((#(#types),*))
        }
    };
    let vq_block = emit(g, &vq_roots, "t");
    let vq_used = used_variables(g, &vq_roots);
    let (mut vq_decls, mut vq_binds, mut vq_slices) = arguments(&arrays, true, &vq_used);
    with_joint(&mut vq_decls, &mut vq_binds, &mut vq_slices, &vq_used);
    let _ = vq_slices;
    let vq_lets = &vq_block.lets;
    let vq_value = shape_value(
        &vq_block.outputs,
        &vq_shapes.iter().map(|s| (s.1, s.2)).collect::<Vec<_>>(),
    );
    let vq_ret = tuple_type(&vq_types);
    let rq_block = emit(g, &rq_roots, "t");
    let rq_used = used_variables(g, &rq_roots);
    let (mut rq_decls, mut rq_binds, mut rq_slices) = arguments(&arrays, false, &rq_used);
    with_joint(&mut rq_decls, &mut rq_binds, &mut rq_slices, &rq_used);
    let _ = rq_slices;
    let lambda_name = if (0..rows).any(|r| rq_used.contains(&format!("lambda_{r}"))) {
        quote!(lambda)
    } else {
        quote!(_lambda)
    };
    rq_decls.insert(
        if has_params { 1 } else { 0 },
        quote!(#lambda_name: &[f64; #rows_lit]),
    );
    for r in 0..rows {
        let name = format!("lambda_{r}");
        if rq_used.contains(&name) {
            let v = ident(&name);
            let rl = lit(r);
            rq_binds.push(quote!(let #v = lambda[#rl];));
        }
    }
    let rq_lets = &rq_block.lets;
    let rq_value = shape_value(
        &rq_block.outputs,
        &rq_shapes.iter().map(|s| (s.2, s.3)).collect::<Vec<_>>(),
    );
    let rq_ret = tuple_type(&rq_types);
    // Slice wrappers: ∂(C_q v)/∂q into row-major R × N0 and R × N1; ∂(C_qᵀλ)/∂q into one
    // row-major (N0 + N1)² block over [m0 columns, m1 columns].
    let (nt, off) = (n0 + n1, [0usize, n0]);
    let ntl = lit(nt);
    let vq_names: Vec<proc_macro2::Ident> = (0..vq_shapes.len())
        .map(|k| ident(&format!("b{k}")))
        .collect();
    let vq_pattern = if vq_names.len() == 1 {
        let b = &vq_names[0];
        quote!(#b)
    } else {
        quote!((#(#vq_names),*))
    };
    let vq_stores: Vec<TokenStream> = vq_shapes
        .iter()
        .zip(&vq_names)
        .map(|(&(i, _, n), b)| {
            let out = if i == 0 { quote!(jac0) } else { quote!(jac1) };
            let nl = lit(n);
            quote! {
                if #out.len() != #nl * ROWS { return ::core::option::Option::None; }
                #out.copy_from_slice(#b.as_flattened());
            }
        })
        .collect();
    let vq_empty: Vec<TokenStream> = [(0usize, n0), (1, n1)]
        .iter()
        .filter(|(_, n)| *n == 0)
        .map(|(i, _)| {
            let out = if *i == 0 { quote!(jac0) } else { quote!(jac1) };
            quote!(if !#out.is_empty() { return ::core::option::Option::None; })
        })
        .collect();
    let rq_names: Vec<proc_macro2::Ident> = (0..rq_shapes.len())
        .map(|k| ident(&format!("b{k}")))
        .collect();
    let rq_pattern = if rq_names.len() == 1 {
        let b = &rq_names[0];
        quote!(#b)
    } else {
        quote!((#(#rq_names),*))
    };
    let rq_stores: Vec<TokenStream> = rq_shapes
        .iter()
        .zip(&rq_names)
        .map(|(&(i, j, _, _), b)| {
            let (ro, co) = (lit(off[i]), lit(off[j]));
            quote! {
                for (r, row) in #b.iter().enumerate() {
                    for (c, x) in row.iter().enumerate() {
                        out[(#ro + r) * #ntl + #co + c] = *x;
                    }
                }
            }
        })
        .collect();
    let vq_call_args = {
        let (_, _, sl) = arguments(&arrays, true, &vq_used);
        let mut sl = sl;
        if has_params {
            sl.insert(0, quote!(joint));
        }
        sl
    };
    let rq_call_args = {
        let (_, _, sl) = arguments(&arrays, false, &rq_used);
        let mut sl = sl;
        sl.insert(0, quote!(lambda));
        if has_params {
            sl.insert(0, quote!(joint));
        }
        sl
    };
    let vq_doc = format!(
        " ∂(C_q·v)/∂q: the velocity-level residual differentiated by the coordinates of {} ({} operations) — the convective term of the acceleration-level constraint.",
        match (n0 > 0, n1 > 0) {
            (true, true) => "m0 and m1",
            (true, false) => "m0",
            _ => "m1",
        },
        vq_block.operations
    );
    let rq_doc = format!(
        " ∂(C_qᵀλ)/∂q, the constraint's geometric stiffness: blocks (row marker, column marker) over the markers with coordinates ({} operations).",
        rq_block.operations
    );

    // jacobian
    let jac_block = emit(g, &jac_roots, "t");
    let (mut jac_decls, mut jac_binds, mut jac_slices) = arguments(&arrays, false, &jac_used);
    with_joint(&mut jac_decls, &mut jac_binds, &mut jac_slices, &jac_used);
    let joint_arg = if has_params {
        quote!(joint: &super::Parameters,)
    } else {
        quote!()
    };
    let jac_checks = empty_slice_checks(&arrays, false);
    let jac_lets = &jac_block.lets;
    let block_types: Vec<TokenStream> = blocks
        .iter()
        .enumerate()
        .filter(|(_, b)| b.is_some())
        .map(|(i, _)| {
            let n = if i == 0 { &n0l } else { &n1l };
            quote!([[f64; #n]; #rows_lit])
        })
        .collect();
    let jac_ret = if block_types.len() == 1 {
        block_types[0].clone()
    } else {
        quote!((#(#block_types),*))
    };
    let jac_value = jacobian_value(&blocks, &jac_block.outputs);
    let jac_store = if blocks[0].is_some() && blocks[1].is_some() {
        quote! {
            let (j0, j1) = jacobian(#(#jac_slices),*);
            if jac0.len() != #n0l * ROWS || jac1.len() != #n1l * ROWS {
                return ::core::option::Option::None;
            }
            jac0.copy_from_slice(j0.as_flattened());
            jac1.copy_from_slice(j1.as_flattened());
        }
    } else if blocks[0].is_some() {
        quote! {
            let j0 = jacobian(#(#jac_slices),*);
            if jac0.len() != #n0l * ROWS || !jac1.is_empty() {
                return ::core::option::Option::None;
            }
            jac0.copy_from_slice(j0.as_flattened());
        }
    } else {
        quote! {
            let j1 = jacobian(#(#jac_slices),*);
            if !jac0.is_empty() || jac1.len() != #n1l * ROWS {
                return ::core::option::Option::None;
            }
            jac1.copy_from_slice(j1.as_flattened());
        }
    };

    // position_residual_and_jacobian: both in one block, so the marker kinematics they share
    // (A(θ)'s products, for one) are computed once.
    let both_roots: Vec<Id> = lowered.position.iter().chain(&jac_roots).copied().collect();
    let both_block = emit(g, &both_roots, "t");
    let both_used = used_variables(g, &both_roots);
    let (mut both_decls, mut both_binds, mut both_slices) = arguments(&arrays, false, &both_used);
    with_joint(
        &mut both_decls,
        &mut both_binds,
        &mut both_slices,
        &both_used,
    );
    let _ = both_slices;
    let both_lets = &both_block.lets;
    let (both_residual, both_jacobian) = both_block.outputs.split_at(rows);
    let both_jac_value = jacobian_value(&blocks, both_jacobian);
    let both_doc = format!(
        " [`position_residual`] and [`jacobian`] at the same coordinates, their common \
         subexpressions computed once ({} operations, against {} for the two calls).",
        both_block.operations,
        pos_block.operations + jac_block.operations
    );

    let roots_all = kernel_roots(
        &lowered.position,
        &lowered.velocity,
        &jac_roots,
        &vq_roots,
        &rq_roots,
    );
    let stats = PairingStats {
        kinds,
        unsimplified_tree_operations: None,
        tree_operations: g.operation_count_tree(&roots_all),
        emitted_operations: pos_block.operations
            + vel_block.operations
            + jac_block.operations
            + vq_block.operations
            + rq_block.operations,
    };
    let module = ident(&pairing_module_name(kinds[0], kinds[1]));
    let doc0 = format!(" `m0`: {} ({}).", kinds[0].name(), kinds[0].description());
    let doc1 = format!(" `m1`: {} ({}).", kinds[1].name(), kinds[1].description());
    let pos_doc = format!(
        " Position-level residual `{position_text}` ({} operations).",
        pos_block.operations
    );
    let vel_doc = format!(
        " Velocity-level residual `{velocity_text}` ({} operations).",
        vel_block.operations
    );
    let jac_doc = format!(
        " Jacobian blocks ∂(`{velocity_text}`)/∂q̇ with respect to the coordinates of {} ({} operations).",
        match (n0 > 0, n1 > 0) {
            (true, true) => "m0 and m1",
            (true, false) => "m0 (m1 has none)",
            _ => "m1 (m0 has none)",
        },
        jac_block.operations
    );
    let tokens = quote! {
        #[doc = #doc0]
        #[doc = #doc1]
        pub mod #module {
            use super::{MarkerArgs, ROWS};
            /// Coordinates of `m0`'s and `m1`'s node.
            pub const COORDINATES: [usize; 2] = [#n0l, #n1l];
            /// Parameters of `m0` and `m1`.
            pub const PARAMETERS: [usize; 2] = [#np0, #np1];

            #[doc = #pos_doc]
            #[inline]
            pub fn position_residual(#(#pos_decls),*) -> [f64; #rows_lit] {
                #(#pos_binds)*
                #(#pos_lets)*
                [#(#pos_out),*]
            }

            #[doc = #vel_doc]
            #[inline]
            pub fn velocity_residual(#(#vel_decls),*) -> [f64; #rows_lit] {
                #(#vel_binds)*
                #(#vel_lets)*
                [#(#vel_out),*]
            }

            #[doc = #jac_doc]
            #[inline]
            pub fn jacobian(#(#jac_decls),*) -> #jac_ret {
                #(#jac_binds)*
                #(#jac_lets)*
                #jac_value
            }

            #[doc = #both_doc]
            #[inline]
            pub fn position_residual_and_jacobian(#(#both_decls),*) -> ([f64; #rows_lit], #jac_ret) {
                #(#both_binds)*
                #(#both_lets)*
                ([#(#both_residual),*], #both_jac_value)
            }

            #[doc = #vq_doc]
            #[inline]
            pub fn velocity_residual_q(#(#vq_decls),*) -> #vq_ret {
                #(#vq_binds)*
                #(#vq_lets)*
                #vq_value
            }

            #[doc = #rq_doc]
            #[inline]
            pub fn reaction_q(#(#rq_decls),*) -> #rq_ret {
                #(#rq_binds)*
                #(#rq_lets)*
                #rq_value
            }

            /// [`velocity_residual_q`] on slices, row-major `ROWS × coordinates[0]` and `ROWS × coordinates[1]`.
            pub fn velocity_residual_q_slices(#joint_arg m0: MarkerArgs<'_>, m1: MarkerArgs<'_>, jac0: &mut [f64], jac1: &mut [f64]) -> ::core::option::Option<()> {
                #vel_checks
                #(#vq_empty)*
                let #vq_pattern = velocity_residual_q(#(#vq_call_args),*);
                #(#vq_stores)*
                ::core::option::Option::Some(())
            }

            /// [`reaction_q`] on slices: one row-major `(n0 + n1)²` block over the columns of
            /// `m0` then `m1`.
            pub fn reaction_q_slices(#joint_arg lambda: &[f64; ROWS], m0: MarkerArgs<'_>, m1: MarkerArgs<'_>, out: &mut [f64]) -> ::core::option::Option<()> {
                #jac_checks
                if out.len() != #ntl * #ntl { return ::core::option::Option::None; }
                let #rq_pattern = reaction_q(#(#rq_call_args),*);
                #(#rq_stores)*
                ::core::option::Option::Some(())
            }

            /// [`position_residual`] on slices.
            pub fn position_residual_slices(#joint_arg m0: MarkerArgs<'_>, m1: MarkerArgs<'_>, out: &mut [f64; ROWS]) -> ::core::option::Option<()> {
                #pos_checks
                *out = position_residual(#(#pos_slices),*);
                ::core::option::Option::Some(())
            }

            /// [`velocity_residual`] on slices.
            pub fn velocity_residual_slices(#joint_arg m0: MarkerArgs<'_>, m1: MarkerArgs<'_>, out: &mut [f64; ROWS]) -> ::core::option::Option<()> {
                #vel_checks
                *out = velocity_residual(#(#vel_slices),*);
                ::core::option::Option::Some(())
            }

            /// [`jacobian`] on slices, row-major.
            pub fn jacobian_slices(#joint_arg m0: MarkerArgs<'_>, m1: MarkerArgs<'_>, jac0: &mut [f64], jac1: &mut [f64]) -> ::core::option::Option<()> {
                #jac_checks
                #jac_store
                ::core::option::Option::Some(())
            }
        }
    };
    Some((tokens, stats))
}

/// The Jacobian's value: one `[[…; n]; ROWS]` array per marker with coordinates (a tuple if
/// both have), filled row by row from `outputs`.
fn jacobian_value(blocks: &[Option<Vec<Vec<Id>>>], outputs: &[TokenStream]) -> TokenStream {
    let mut outs = outputs.iter();
    let exprs: Vec<TokenStream> = blocks
        .iter()
        .flatten()
        .map(|b| {
            let rows_ts: Vec<TokenStream> = b
                .iter()
                .map(|row| {
                    let entries: Vec<&TokenStream> =
                        row.iter().map(|_| outs.next().expect("entry")).collect();
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

/// A residual expression as written, for doc comments (`m1.position - m0.position`).
fn expression_text(expr: &syn::Expr) -> String {
    expr.to_token_stream()
        .to_string()
        .replace(" . ", ".")
        .replace(" (", "(")
        .replace("( ", "(")
        .replace(" )", ")")
        .replace(" ,", ",")
        .replace(" [", "[")
}

/// The marker-level kernel: residuals of marker quantities and their Jacobian with respect to
/// the markers' velocities and angular velocities (see `kinematics::marker_level`).
fn marker_level_module(model: &JointModel, errors: &mut Errors) -> TokenStream {
    use crate::kinematics::marker_level::{self, ANGULAR_VELOCITY, POSITION, ROTATION, VELOCITY};
    let mut g = Graph::new();
    let kin = [
        marker_level::free(&mut g, "m0_"),
        marker_level::free(&mut g, "m1_"),
    ];
    let Some(mut lowered) = lower_with(model, g, kin, errors) else {
        return quote!();
    };
    if !errors.is_empty() {
        return quote!();
    }
    let rows = model.axes.len();
    let g = &mut lowered.graph;
    // ∂r/∂(v, ω) per marker: rows × 6, split into the v and ω halves.
    let mut entries = Vec::new();
    for kin in &lowered.kin {
        for &v in &kin.velocities {
            let mut memo = HashMap::new();
            for &row in &lowered.velocity {
                entries.push(derivative_memo(g, row, v, &mut memo));
            }
        }
    }
    let bind = |used: &std::collections::BTreeSet<String>| -> (Vec<TokenStream>, [TokenStream; 2]) {
        let mut binds = Vec::new();
        let mut names = [quote!(_m0), quote!(_m1)];
        for (i, name) in names.iter_mut().enumerate() {
            let m = ident(&format!("m{i}"));
            let mut any = false;
            let fields: [(&[&str], TokenStream); 4] = [
                (&POSITION, quote!(position)),
                (&VELOCITY, quote!(velocity)),
                (&ROTATION, quote!(rotation)),
                (&ANGULAR_VELOCITY, quote!(angular_velocity)),
            ];
            for (list, field) in fields {
                for (k, n) in list.iter().enumerate() {
                    let var = format!("m{i}_{n}");
                    if used.contains(&var) {
                        any = true;
                        let v = ident(&var);
                        let access = if list.len() == 9 {
                            let (r, c) = (lit(k / 3), lit(k % 3));
                            quote!(#m.#field[#r][#c])
                        } else {
                            let k = lit(k);
                            quote!(#m.#field[#k])
                        };
                        binds.push(quote!(let #v = #access;));
                    }
                }
            }
            if any {
                *name = quote!(#m);
            }
        }
        (binds, names)
    };
    let rows_lit = lit(rows);
    let pos_block = emit(g, &lowered.position, "t");
    let pos_used = used_variables(g, &lowered.position);
    let (mut pos_binds, [p0, p1]) = bind(&pos_used);
    let (pos_joint, b) = parameter_bindings(model, &pos_used);
    pos_binds.splice(0..0, b);
    let pos_joint = pos_joint.map(|a| quote!(#a,));
    let pos_lets = &pos_block.lets;
    let pos_out = &pos_block.outputs;
    let vel_block = emit(g, &lowered.velocity, "t");
    let vel_used = used_variables(g, &lowered.velocity);
    let (mut vel_binds, [v0, v1]) = bind(&vel_used);
    let (vel_joint, b) = parameter_bindings(model, &vel_used);
    vel_binds.splice(0..0, b);
    let vel_joint = vel_joint.map(|a| quote!(#a,));
    let vel_lets = &vel_block.lets;
    let vel_out = &vel_block.outputs;
    let jac_block = emit(g, &entries, "t");
    let jac_used = used_variables(g, &entries);
    let (mut jac_binds, [j0, j1]) = bind(&jac_used);
    let (jac_joint, b) = parameter_bindings(model, &jac_used);
    jac_binds.splice(0..0, b);
    let jac_joint = jac_joint.map(|a| quote!(#a,));
    let jac_lets = &jac_block.lets;
    // entries are ordered marker, velocity variable (v0..v2, w0..w2), row
    let out = &jac_block.outputs;
    let block = |marker: usize, offset: usize| -> TokenStream {
        let rows_ts: Vec<TokenStream> = (0..rows)
            .map(|r| {
                let cols: Vec<&TokenStream> = (0..3)
                    .map(|c| &out[(marker * 6 + offset + c) * rows + r])
                    .collect();
                quote!([#(#cols),*])
            })
            .collect();
        quote!([#(#rows_ts),*])
    };
    let (dv0, dw0, dv1, dw1) = (block(0, 0), block(0, 3), block(1, 0), block(1, 3));
    quote! {
        /// The joint at marker level: residuals as functions of the two markers' quantities and
        /// the Jacobian with respect to their velocities. Compose with any marker's Jacobians:
        /// `C_q(marker i) = d_velocity[i]·J_pos,i + d_angular_velocity[i]·J_rot,i`.
        pub mod marker_level {
            /// What a joint sees of a marker.
            #[derive(Clone, Copy, Debug, Default, PartialEq)]
            pub struct MarkerQuantities {
                pub position: [f64; 3],
                pub velocity: [f64; 3],
                /// Local to global, row-major (identity for markers without orientation).
                pub rotation: [[f64; 3]; 3],
                /// Global angular velocity.
                pub angular_velocity: [f64; 3],
            }

            /// ∂r/∂v_i and ∂r/∂ω_i for markers i = 0, 1.
            #[derive(Clone, Copy, Debug, Default, PartialEq)]
            pub struct MarkerLevelJacobian {
                pub d_velocity: [[[f64; 3]; #rows_lit]; 2],
                pub d_angular_velocity: [[[f64; 3]; #rows_lit]; 2],
            }

            /// Position-level residual.
            #[inline]
            pub fn position_residual(#pos_joint #p0: &MarkerQuantities, #p1: &MarkerQuantities) -> [f64; #rows_lit] {
                #(#pos_binds)*
                #(#pos_lets)*
                [#(#pos_out),*]
            }

            /// Velocity-level residual.
            #[inline]
            pub fn velocity_residual(#vel_joint #v0: &MarkerQuantities, #v1: &MarkerQuantities) -> [f64; #rows_lit] {
                #(#vel_binds)*
                #(#vel_lets)*
                [#(#vel_out),*]
            }

            /// Jacobian of the velocity-level residual with respect to the markers' velocities
            /// and angular velocities.
            #[inline]
            pub fn jacobian(#jac_joint #j0: &MarkerQuantities, #j1: &MarkerQuantities) -> MarkerLevelJacobian {
                #(#jac_binds)*
                #(#jac_lets)*
                MarkerLevelJacobian {
                    d_velocity: [#dv0, #dv1],
                    d_angular_velocity: [#dw0, #dw1],
                }
            }
        }
    }
}

/// `let jp_x = joint.x[0];` for every used parameter element, and the `joint: &Parameters`
/// argument (None for joints without parameters).
fn parameter_bindings(
    model: &JointModel,
    used: &std::collections::BTreeSet<String>,
) -> (Option<TokenStream>, Vec<TokenStream>) {
    use crate::definition::model::ParamKind;
    if model.params.is_empty() {
        return (None, Vec::new());
    }
    let mut binds = Vec::new();
    let mut any = false;
    for p in &model.params {
        let name = p.name.to_string();
        let field = ident(&name);
        for i in 0..p.kind.len() {
            let var = parameter_variable(&name, p.kind, i);
            if !used.contains(&var) {
                continue;
            }
            any = true;
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
    let arg = if any {
        quote!(joint: &super::Parameters)
    } else {
        quote!(_joint: &super::Parameters)
    };
    (Some(arg), binds)
}

/// The `Parameters` struct of a joint with run-time parameters.
fn parameters_struct(model: &JointModel) -> TokenStream {
    use crate::definition::model::ParamKind;
    if model.params.is_empty() {
        return quote!();
    }
    let fields: Vec<TokenStream> = model
        .params
        .iter()
        .map(|p| {
            let f = &p.name;
            let ty = match p.kind {
                ParamKind::Scalar => quote!(f64),
                ParamKind::Vector => quote!([f64; 3]),
                ParamKind::Matrix => quote!([[f64; 3]; 3]),
            };
            let doc = format!(
                " `param {}: {}` (a constant given at run time).",
                f,
                match p.kind {
                    ParamKind::Scalar => "scalar",
                    ParamKind::Vector => "vector",
                    ParamKind::Matrix => "matrix (row-major)",
                }
            );
            quote! { #[doc = #doc] pub #f: #ty, }
        })
        .collect();
    quote! {
        /// The joint's run-time parameters.
        #[derive(Clone, Copy, Debug, Default, PartialEq)]
        pub struct Parameters {
            #(#fields)*
        }
    }
}
