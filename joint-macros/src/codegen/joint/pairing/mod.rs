//! One pairing module: the kernels of a joint for two marker kinds, typed (fixed-size arrays,
//! for embedding) and type-erased (`_slices`, behind `joint_core::Pairing`, for runtimes).
//!
//! Each kernel function is emitted by [`kernel`]: its signature from the variables its outputs
//! use, `let` bindings of the used inputs, the common subexpressions, the value; and its
//! `_slices` wrapper that checks the slice lengths and calls it.

mod function;
mod kernels;

use proc_macro2::TokenStream;
use quote::quote;

use super::{
    Derivatives, Lowered, PairingStats, ParameterVariables, derivatives, kernel_roots,
    parameter_derivatives,
};
use crate::codegen::util::{ident, lit, used_variables};
use crate::definition::errors::Errors;
use crate::definition::model::JointModel;
use crate::kinematics::MarkerKind;
use crate::symbolic::{Graph, Id};
pub use function::stub_module;
use function::{MarkerArrays, kernel, marker_arrays};
use kernels::{parameter_kernels, position_kernels, velocity_kernels};

/// The definition's levels as written, for doc comments.
pub struct Texts<'a> {
    /// `None`: the joint is written at velocity level.
    pub position: Option<&'a str>,
    /// `None`: derived by the compiler.
    pub velocity: Option<&'a str>,
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
    let coordinates = if kind.coordinate_names().is_empty() {
        format!("`m{i}_coordinates` and `m{i}_velocities` none (no node).")
    } else {
        format!(
            "`m{i}_coordinates` {} (the node's total values), `m{i}_velocities` their time derivatives.",
            list(kind.coordinate_names())
        )
    };
    vec![
        format!(" * `m{i}`: {} ({}).", kind.name(), kind.description()),
        format!(
            "   `m{i}_parameters` {}, {coordinates}",
            list(kind.parameter_names())
        ),
    ]
}

/// The kernels that fuse two others, and those no runtime calls (`parameter_derivatives`):
/// their operations are not counted in the stats, which compare the runtime's kernels.
const NOT_COUNTED: [&str; 5] = [
    "position_residual_and_jacobian",
    "position_residual_and_reaction_forces",
    "position_residual_and_position_jacobian",
    "parameter_jacobian",
    "marker_parameter_jacobian",
];

/// A pairing's marker arrays and Jacobian blocks.
struct Layout {
    kinds: [MarkerKind; 2],
    arrays: [MarkerArrays; 2],
    /// Coordinates per marker.
    n: [usize; 2],
    /// The Jacobian blocks: per marker, its coordinate count if it has coordinates.
    blocks: Vec<Option<usize>>,
    /// "m0 and m1", "m0 (m1 has none)": whose coordinates the blocks are by.
    with: &'static str,
}

impl Layout {
    fn new(kinds: [MarkerKind; 2]) -> Self {
        let n = [kinds[0].coordinate_count(), kinds[1].coordinate_count()];
        Layout {
            kinds,
            arrays: [marker_arrays(0, kinds[0]), marker_arrays(1, kinds[1])],
            n,
            blocks: n.iter().map(|&c| (c > 0).then_some(c)).collect(),
            with: match (n[0] > 0, n[1] > 0) {
                (true, true) => "m0 and m1",
                (true, false) => "m0 (m1 has none)",
                _ => "m1 (m0 has none)",
            },
        }
    }
}

/// The velocity-level residual must be linear in the coordinate velocities; otherwise the
/// Jacobian would depend on them and is not a constraint Jacobian.
fn check_linear(
    model: &JointModel,
    g: &Graph,
    d: &Derivatives,
    kinds: [MarkerKind; 2],
    errors: &mut Errors,
) -> Option<()> {
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
    Some(())
}

/// Roots of the fused kernels: the residual followed by another kernel's outputs.
struct Fused {
    residual_and_jacobian: Vec<Id>,
    residual_and_reaction: Vec<Id>,
    residual_and_position_jacobian: Vec<Id>,
}

impl Fused {
    fn new(lowered: &Lowered, d: &Derivatives) -> Self {
        let after_residual =
            |more: &[Id]| -> Vec<Id> { lowered.position.iter().chain(more).copied().collect() };
        Fused {
            residual_and_jacobian: after_residual(&d.jac_roots),
            residual_and_reaction: after_residual(&d.reaction_roots),
            residual_and_position_jacobian: after_residual(&d.pq_roots),
        }
    }
}

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
    let parameters = model.parameter_derivatives.then(|| ParameterVariables {
        joint: parameter_derivatives::joint_columns(model)
            .into_iter()
            .map(|(var, _)| var)
            .collect(),
        markers: [
            parameter_derivatives::marker_columns(0, kinds[0]),
            parameter_derivatives::marker_columns(1, kinds[1]),
        ],
    });
    let d = derivatives(lowered, rows, parameters.as_ref());
    check_linear(model, &lowered.graph, &d, kinds, errors)?;
    let layout = Layout::new(kinds);
    let fused = Fused::new(lowered, &d);
    // in the order of the snapshots: the position residual, the velocity level and its
    // Jacobian, the position level's other kernels, the reaction forces, ∂g/∂p
    let [velocity, jacobian, reaction] = velocity_kernels(texts, &layout, &d, lowered);
    let mut kernels = Vec::new();
    let mut position_level = texts
        .position
        .map(|p| position_kernels(p, &layout, &d, lowered, &fused))
        .unwrap_or_default()
        .into_iter();
    kernels.extend(position_level.next());
    kernels.extend([velocity, jacobian]);
    kernels.extend(position_level);
    kernels.push(reaction);
    if let (Some(position), true) = (texts.position, model.parameter_derivatives) {
        kernels.extend(parameter_kernels(model, position, &layout, &d));
    }
    let g = &lowered.graph;
    let mut functions = Vec::new();
    let mut ops = Vec::new();
    for k in &kernels {
        let (tokens, block) = kernel(model, g, &layout.arrays, rows, k);
        functions.push(tokens);
        ops.push((k.name, block.operations));
    }
    let emitted: usize = ops
        .iter()
        .filter(|(name, _)| !NOT_COUNTED.contains(name))
        .map(|(_, o)| o)
        .sum();
    let stats = PairingStats {
        kinds,
        unsimplified_tree_operations: None,
        tree_operations: g.operation_count_tree(&kernel_roots(lowered, &d)),
        emitted_operations: emitted,
    };
    Some((
        pairing_tokens(model, &layout, texts, &ops, &functions),
        stats,
    ))
}

/// The module's doc comment: its arguments in order, and the operations per function.
fn module_doc(model: &JointModel, kinds: [MarkerKind; 2], ops: &[(&str, usize)]) -> Vec<String> {
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
    for (name, o) in ops {
        doc.push(format!(" `{name}` {o},"));
    }
    doc
}

/// The pairing module around its functions: its sizes and its `PAIRING`.
fn pairing_tokens(
    model: &JointModel,
    layout: &Layout,
    texts: &Texts,
    ops: &[(&str, usize)],
    functions: &[TokenStream],
) -> TokenStream {
    let (core, kinds, n) = (&model.core, layout.kinds, layout.n);
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
    let doc = module_doc(model, kinds, ops);
    quote! {
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
    }
}
