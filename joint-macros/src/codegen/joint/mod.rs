//! Joint kernels: for every pairing of marker kinds the definition asks for, compose the
//! residual with both markers' kinematics, differentiate, simplify, share common subexpressions
//! and emit straight-line Rust; then the joint's module around them.
//!
//! `pub joint RevoluteZ { … }` expands to
//! * `pub struct RevoluteZ;`, implementing `joint_core::Joint`;
//! * `pub mod revolute_z` with `ROWS`, `AXES`, `DEFAULT_CONSTRAINED_AXES`, the `Parameters`
//!   struct, the `DEFINITION` (a `joint_core::JointDefinition`: what a runtime reads), the
//!   `marker_level` kernels ([`marker_level`]) and one module per pairing ([`pairing`]).
//!
//! A definition with errors expands to the same items with bodies that cannot run (`stub`), so
//! that uses of the joint add no errors of their own.

mod kernel_blocks;
pub(crate) mod marker_level;
mod pairing;
mod parameter_derivatives;
pub(crate) mod parameters;
pub(crate) mod stub;

use proc_macro2::TokenStream;
use quote::quote;
use std::collections::HashMap;

use super::util::{ident, lit};
use crate::definition::errors::Errors;
use crate::definition::lower::{jacobian_rows, residuals};
use crate::definition::model::JointModel;
use crate::kinematics::{Capability, Kinematics, MarkerKind};
use crate::symbolic::diff::{derivative_memo, weighted_gradient};
use crate::symbolic::{Graph, Id};

pub use stub::stub;

/// Operation counts of one pairing, over everything its kernels compute: both residuals, the
/// Jacobian, the position level's own Jacobian and the reaction forces. An operation is one node `+ · / − sqrt sin cos` (so `a − b` is an addition and
/// a negation); literals and inputs are free.
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

/// Snake-case module name of a joint: a word starts at an uppercase letter after a lowercase
/// one, at the last capital of a run followed by a lowercase letter (`ABCJoint` → `abc_joint`),
/// at a digit after a letter, and at a capital after a digit only if a lowercase letter follows
/// (`Revolute2D` → `revolute_2d`, `Link3Axis` → `link_3_axis`).
pub fn module_name(name: &str) -> String {
    let c: Vec<char> = name.chars().collect();
    let mut out = String::new();
    for (i, &ch) in c.iter().enumerate() {
        let prev = i.checked_sub(1).map(|j| c[j]);
        let next_lower = c.get(i + 1).is_some_and(|n| n.is_lowercase());
        let boundary = match prev {
            None => false,
            Some(p) if ch.is_uppercase() => {
                p.is_lowercase() || (p.is_uppercase() || p.is_ascii_digit()) && next_lower
            }
            Some(p) => ch.is_ascii_digit() && p.is_alphabetic(),
        };
        if boundary {
            out.push('_');
        }
        out.extend(ch.to_lowercase());
    }
    out
}

pub fn pairing_module_name(k0: MarkerKind, k1: MarkerKind) -> String {
    format!("{}_to_{}", k0.snake_name(), k1.snake_name())
}

/// The unrolled pairings generated for `model`: every ordered pair of the kinds its markers list
/// (`Rigid(GroundPoint, RigidEpPoint)`, `Rigid(..)` for every kind with the capability; none for
/// the default form), except two kinds without coordinates (nothing to constrain).
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

/// A definition lowered against two markers' kinematics.
struct Lowered {
    graph: Graph,
    kin: [Kinematics; 2],
    position: Vec<Id>,
    velocity: Vec<Id>,
    /// The rows whose derivatives are the Jacobian and ∂(C q̇)/∂q (`lower::jacobian_rows`).
    jacobian_rows: Vec<Id>,
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
    let jacobian_rows = jacobian_rows(&mut g, model, &kin, &velocity);
    Some(Lowered {
        graph: g,
        kin,
        position,
        velocity,
        jacobian_rows,
    })
}

/// The outputs a pairing's kernels compute beyond the two residuals, as roots of its graph.
struct Derivatives {
    /// The Jacobian blocks' entries, marker by marker, row-major.
    jac_roots: Vec<Id>,
    /// ∂g/∂q of the position-level residual itself, marker by marker, row-major, in the shape
    /// of the Jacobian blocks: the Jacobian consistent with the residual,
    /// where `jac_roots` is Exudyn's (which for Euler parameters is ∂g/∂q only on |θ| = 1).
    pq_roots: Vec<Id>,
    /// C_qᵀλ, the reaction forces on each marker's coordinates, marker by marker (markers with
    /// coordinates only): the Jacobian rows' gradient weighted by λ, in one reverse sweep.
    reaction_roots: Vec<Id>,
    /// With `parameter_derivatives`: ∂g/∂p by the joint's parameters, rows × parameters.
    joint_parameter_roots: Vec<Id>,
    /// With `parameter_derivatives`: ∂g/∂p by each marker's parameters (markers with
    /// parameters only), marker by marker, row-major.
    marker_parameter_roots: Vec<Id>,
}

/// The variables ∂g/∂p differentiates by (`parameter_derivatives`): the joint's flat layout,
/// and each marker's parameters.
struct ParameterVariables {
    joint: Vec<String>,
    markers: [Vec<String>; 2],
}

/// Differentiate a lowered pairing: the Jacobian, the position level's own Jacobian and the
/// reaction forces. The one place these are computed, for the kernels and for the operation
/// counts alike. (Second-order terms are the marker level's, composed by a runtime: they cost
/// (n0 + n1)² entries per pairing and serve only the initial accelerations and exact Newton.)
fn derivatives(
    lowered: &mut Lowered,
    rows: usize,
    parameters: Option<&ParameterVariables>,
) -> Derivatives {
    let g = &mut lowered.graph;
    // Jacobian blocks: ∂(Jacobian row)/∂(coordinate velocity), per marker with coordinates. The
    // Jacobian rows are the velocity level with rotations turning by their global angular
    // velocity (Exudyn's C; the velocity level itself turns them by the local one).
    let mut blocks: Vec<Option<Vec<Vec<Id>>>> = Vec::new();
    for kin in &lowered.kin {
        if kin.velocities.is_empty() {
            blocks.push(None);
            continue;
        }
        let mut block = vec![Vec::with_capacity(kin.velocities.len()); rows];
        for &v in &kin.velocities {
            let mut memo = HashMap::new();
            for (r, &row) in lowered.jacobian_rows.iter().enumerate() {
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
    let mut d = Derivatives {
        jac_roots,
        pq_roots: Vec::new(),
        reaction_roots: Vec::new(),
        joint_parameter_roots: Vec::new(),
        marker_parameter_roots: Vec::new(),
    };
    // ∂g/∂q of the position level, in the Jacobian blocks' shape
    for kin in &lowered.kin {
        if kin.velocities.is_empty() {
            continue;
        }
        let mut block = vec![vec![Id(0); kin.coordinates.len()]; rows];
        for (c, &q) in kin.coordinates.iter().enumerate() {
            let mut memo = HashMap::new();
            for (r, &row) in lowered.position.iter().enumerate() {
                block[r][c] = derivative_memo(g, row, q, &mut memo);
            }
        }
        d.pq_roots.extend(block.iter().flatten().copied());
    }
    // C_qᵀλ last: its nodes (and the λ variables) come after every other kernel's, so those
    // kernels' node ids, and their emitted code, are the same with it as without.
    let g = &mut lowered.graph;
    let lambda: Vec<Id> = (0..rows).map(|r| g.var(&format!("lambda_{r}"))).collect();
    for kin in &lowered.kin {
        if kin.velocities.is_empty() {
            continue;
        }
        let f = weighted_gradient(g, &lowered.jacobian_rows, &lambda, &kin.velocities);
        d.reaction_roots.extend(f);
    }
    // ∂g/∂p after every kernel the runtime calls, for the same reason
    if let Some(p) = parameters {
        d.joint_parameter_roots = parameter_derivatives::table(g, &lowered.position, &p.joint);
        for vars in &p.markers {
            let t = parameter_derivatives::table(g, &lowered.position, vars);
            d.marker_parameter_roots.extend(t);
        }
    }
    d
}

/// Every output of a pairing's kernels, in kernel order.
fn kernel_roots(lowered: &Lowered, d: &Derivatives) -> Vec<Id> {
    [
        &lowered.position[..],
        &lowered.velocity,
        &d.jac_roots,
        &d.pq_roots,
        &d.reaction_roots,
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
    let d = derivatives(&mut lowered, model.axes.len(), None);
    let roots = kernel_roots(&lowered, &d);
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

/// A residual expression as written, for doc comments (`m1.position - m0.position`).
pub(crate) fn expression_text(expr: &syn::Expr) -> String {
    use quote::ToTokens;
    expr.to_token_stream()
        .to_string()
        .replace(" . ", ".")
        .replace(" (", "(")
        .replace("( ", "(")
        .replace(" )", ")")
        .replace(" ,", ",")
        .replace(" [", "[")
}

/// The joint's doc comment as one string.
pub(crate) fn doc_text(model: &JointModel) -> String {
    doc_text_of(&model.attrs)
}

/// A definition's doc comment (its `#[doc]` attributes) as one string.
pub(crate) fn doc_text_of(attrs: &[syn::Attribute]) -> String {
    let mut lines = Vec::new();
    for a in attrs {
        if let syn::Meta::NameValue(nv) = &a.meta
            && nv.path.is_ident("doc")
            && let syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            }) = &nv.value
        {
            lines.push(s.value().trim().to_owned());
        }
    }
    lines.join("\n")
}

/// `joint_core::Capability::Rigid`
fn capability_tokens(core: &TokenStream, c: Capability) -> TokenStream {
    match c {
        Capability::Position => quote!(#core::Capability::Position),
        Capability::Rigid => quote!(#core::Capability::Rigid),
        Capability::Coordinate => quote!(#core::Capability::Coordinate),
    }
}

/// `MarkerDeclaration { name, capability, kinds }` of both markers: the kinds unrolled pairings
/// were generated for, or (`every_kind`, a force element's) every kind with the capability.
pub(crate) fn marker_declarations(model: &JointModel, every_kind: bool) -> Vec<TokenStream> {
    let core = &model.core;
    model
        .markers
        .iter()
        .map(|m| {
            let n = m.name.to_string();
            let cap = capability_tokens(core, m.capability);
            let kinds: Vec<TokenStream> = MarkerKind::ALL
                .into_iter()
                .filter(|&k| {
                    if every_kind {
                        k.provides(m.capability)
                    } else {
                        m.accepts(k)
                    }
                })
                .map(|k| kind_tokens(core, k))
                .collect();
            quote!(#core::MarkerDeclaration { name: #n, capability: #cap, kinds: &[#(#kinds),*] })
        })
        .collect()
}

/// `axis` (a joint's rows by name: `AXES[axis::RX] == "rx"`) and `outputs` (its named outputs as
/// `joint_core::OutputName` constants), so that a user names them without strings.
/// A name given twice (an error reported elsewhere) or twice up to case keeps its first constant.
pub(crate) fn name_modules(model: &JointModel, with_axes: bool) -> TokenStream {
    let core = &model.core;
    let constant = |name: &str| ident(&name.to_uppercase());
    let first = |names: Vec<String>| -> Vec<(usize, String)> {
        let mut seen = std::collections::HashSet::new();
        names
            .into_iter()
            .enumerate()
            .filter(|(_, n)| seen.insert(n.to_uppercase()))
            .collect()
    };
    let axes = with_axes.then(|| {
        let names = first(model.axes.iter().map(|a| a.name.to_string()).collect());
        let items = names.iter().map(|(k, n)| {
            let (c, k) = (constant(n), lit(*k));
            let doc = format!(" Row `{n}`.");
            quote!(#[doc = #doc] pub const #c: usize = #k;)
        });
        quote! {
            /// The rows by name: indices into `AXES`, a row's λ (`Force`), residual
            /// (`Displacement`) and the kernels' rows.
            pub mod axis {
                #(#items)*
            }
        }
    });
    let outputs = first(model.outputs.iter().map(|o| o.name.to_string()).collect());
    let outputs = outputs.iter().map(|(_, n)| {
        let c = constant(n);
        let doc = format!(" The output `{n}`.");
        quote!(#[doc = #doc] pub const #c: #core::OutputName = #core::OutputName(#n);)
    });
    quote! {
        #axes
        /// The named outputs, for a runtime's output variable (`OutputVariable::from(outputs::NAME)`).
        pub mod outputs {
            #(#outputs)*
        }
    }
}

/// `joint_core::MarkerKind::RigidEpPoint`
fn kind_tokens(core: &TokenStream, k: MarkerKind) -> TokenStream {
    let v = ident(k.name());
    quote!(#core::MarkerKind::#v)
}

/// Expand a checked joint model. Errors are pushed into `errors`; the caller then emits the
/// stub instead of the returned tokens.
pub fn expand(model: &JointModel, errors: &mut Errors) -> (TokenStream, Vec<PairingStats>) {
    let pairings = pairings(model);
    let position_text = model.position.as_ref().map(expression_text);
    let velocity_text = model.velocity.as_ref().map(expression_text);

    // Every error of the definition is found before any pairing is generated: the name checks,
    // then the lowering at marker level (types, capabilities, unknown names: the same for every
    // pairing), then a hand-written velocity level against the derived one.
    crate::definition::check::check(model, errors);
    let marker_level = if errors.is_empty() {
        marker_level::module(model, errors)
    } else {
        quote!()
    };
    if errors.is_empty() {
        crate::definition::velocity_check::check(model, errors);
    }
    if errors.is_empty() && pairings.is_empty() && model.markers.iter().any(|m| m.kinds.is_some()) {
        errors.at(
            &model.name,
            "no pairing of marker kinds to generate: both markers list only kinds without coordinates",
        );
    }
    let texts = pairing::Texts {
        position: position_text.as_deref(),
        velocity: velocity_text.as_deref(),
    };
    let mut pairing_modules = Vec::new();
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
        match pairing::module(model, &mut lowered, *kinds, &texts, errors) {
            Some((tokens, s)) => {
                pairing_modules.push(tokens);
                stats.push(s);
            }
            None => break,
        }
    }
    if !errors.is_empty() {
        return (TokenStream::new(), stats);
    }
    let tokens = joint_module(
        model,
        &pairings,
        &stats,
        marker_level,
        &pairing_modules,
        position_text.as_deref(),
        velocity_text.as_deref(),
    );
    (tokens, stats)
}

/// The joint's type and module around its pairing modules.
fn joint_module(
    model: &JointModel,
    pairings: &[[MarkerKind; 2]],
    stats: &[PairingStats],
    marker_level: TokenStream,
    pairing_modules: &[TokenStream],
    position_text: Option<&str>,
    velocity_text: Option<&str>,
) -> TokenStream {
    let core = &model.core;
    let name = &model.name;
    let name_str = name.to_string();
    let module_str = module_name(&name_str);
    let module = ident(&module_str);
    let rows_lit = lit(model.axes.len());
    let axes: Vec<String> = model.axes.iter().map(|a| a.name.to_string()).collect();
    let defaults: Vec<bool> = model.axes.iter().map(|a| a.constrained).collect();
    let vis = &model.vis;
    let docs: Vec<&syn::Attribute> = model
        .attrs
        .iter()
        .filter(|a| a.path().is_ident("doc"))
        .collect();
    let doc = doc_text(model);
    let count_rows: Vec<TokenStream> = stats
        .iter()
        .map(|s: &PairingStats| {
            let (a, b) = (s.kinds[0].name(), s.kinds[1].name());
            let tree = u64::try_from(s.tree_operations).unwrap_or(u64::MAX);
            let emitted = s.emitted_operations as u64;
            quote!((#a, #b, #tree, #emitted))
        })
        .collect();
    let n_pairings = lit(pairings.len());
    let pairing_refs: Vec<TokenStream> = pairings
        .iter()
        .map(|k| {
            let m = ident(&pairing_module_name(k[0], k[1]));
            quote!(&#m::PAIRING)
        })
        .collect();
    let parameters = parameters::definition(model);
    let names = name_modules(model, true);
    let parameter_infos = parameters::infos(model);
    let state_infos = parameters::state_infos(model);
    let markers = marker_declarations(model, false);
    let outputs = marker_level::output_infos(model);
    let optional_text = |t: Option<&str>| match t {
        Some(t) => quote!(::core::option::Option::Some(#t)),
        None => quote!(::core::option::Option::None),
    };
    let (position_text, velocity_text) =
        (optional_text(position_text), optional_text(velocity_text));
    let level = match model.level() {
        crate::definition::model::ResidualLevel::Position => quote!(#core::ResidualLevel::Position),
        crate::definition::model::ResidualLevel::Velocity => quote!(#core::ResidualLevel::Velocity),
    };
    let second_order = model.second_order;
    let type_doc = format!(
        " The joint `{name_str}` (see [`{module_str}`]): its [`{core_str}::Joint`] implementation.",
        core_str = "joint_core"
    );
    let pairing_doc = format!(
        " The pairing generated for marker kinds `(k0, k1)`, or `None` ({} pairings).",
        pairings.len()
    );
    quote! {
        #[doc = #type_doc]
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        #vis struct #name;

        impl #core::Joint for #name {
            type Parameters = #module::Parameters;
            const DEFINITION: &'static #core::JointDefinition = &#module::DEFINITION;
        }

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

            #names

            #parameters

            /// The joint as a runtime sees it.
            pub static DEFINITION: #core::JointDefinition = #core::JointDefinition {
                name: #name_str,
                module: #module_str,
                doc: #doc,
                markers: [#(#markers),*],
                parameters: &[#(#parameter_infos),*],
                states: &[#(#state_infos),*],
                axes: &AXES,
                default_constrained_axes: &DEFAULT_CONSTRAINED_AXES,
                outputs: &[#(#outputs),*],
                pairings: &PAIRINGS,
                marker_level: marker_level::KERNELS,
                level: #level,
                position_text: #position_text,
                velocity_text: #velocity_text,
                second_order: #second_order,
            };

            /// The unrolled pairings (none unless the markers list their kinds).
            pub static PAIRINGS: [&#core::Pairing; #n_pairings] = [#(#pairing_refs),*];

            #[doc = #pairing_doc]
            pub fn pairing(k0: #core::MarkerKind, k1: #core::MarkerKind) -> ::core::option::Option<&'static #core::Pairing> {
                DEFINITION.pairing(k0, k1)
            }

            /// Per pairing `(kind0, kind1, operations as independent trees, operations emitted)`
            /// over all of the pairing's kernels (residuals, Jacobian, second-order terms), both
            /// after simplification: the effect of sharing common subexpressions, counted while
            /// expanding. (The count before simplification is only in joint-macros' report.)
            pub const OPERATION_COUNTS: [(&str, &str, u64, u64); #n_pairings] = [#(#count_rows),*];

            #marker_level

            #(#pairing_modules)*
        }
    }
}

#[cfg(test)]
mod tests {
    use super::module_name;

    /// Digits and capital runs: the generated module of `Revolute2D` is `revolute_2d`, as the
    /// marker kinds' (`mass_point_2d_body`), not `revolute2_d`.
    #[test]
    fn module_names_split_words_at_digits_and_capital_runs() {
        for (name, want) in [
            ("Spherical", "spherical"),
            ("RevoluteZ", "revolute_z"),
            ("GenericRows", "generic_rows"),
            ("Revolute2D", "revolute_2d"),
            ("Prismatic2D", "prismatic_2d"),
            ("Link3Axis", "link_3_axis"),
            ("ABCJoint", "abc_joint"),
            ("MyJoint", "my_joint"),
            ("my_joint", "my_joint"),
        ] {
            assert_eq!(module_name(name), want, "{name}");
        }
    }
}
