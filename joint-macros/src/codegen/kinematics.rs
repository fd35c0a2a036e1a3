//! Marker kinematics kernels, one module per marker kind: position, velocity, rotation,
//! angular velocities, the position and rotation Jacobians (∂v/∂q̇ and ∂ω/∂q̇), and the
//! derivative ∂(J_posᵀ f)/∂q a connector's Newton Jacobian needs. A runtime uses them for
//! loads, sensors and connectors, so no marker Jacobian is written by hand anywhere.

use proc_macro2::TokenStream;
use quote::quote;
use std::collections::HashMap;

use super::util::{ArrayArg, ident, lit, used_variables};
use crate::kinematics::{Kinematics, MarkerKind};
use crate::symbolic::diff::{derivative_memo, weighted_gradient};
use crate::symbolic::emit::emit_generic;
use crate::symbolic::{Graph, Id};

struct Func {
    name: &'static str,
    doc: String,
    with_velocities: bool,
    with_force: bool,
    /// Output shape: rows × columns (columns = 0 for a vector).
    rows: usize,
    columns: usize,
    entries: Vec<Id>,
}

fn function_tokens(g: &Graph, kind: MarkerKind, f: &Func) -> TokenStream {
    let used = used_variables(g, &f.entries);
    let mut arrays = Vec::new();
    if kind.parameter_count() > 0 {
        arrays.push(ArrayArg::new(
            "parameters".into(),
            "",
            kind.parameter_names(),
            "",
        ));
    }
    if kind.coordinate_count() > 0 {
        arrays.push(ArrayArg::new(
            "coordinates".into(),
            "",
            kind.coordinate_names(),
            "",
        ));
        if f.with_velocities {
            arrays.push(ArrayArg::new(
                "velocities".into(),
                "",
                kind.coordinate_names(),
                "_t",
            ));
        }
    }
    if f.with_force {
        arrays.push(ArrayArg::new("force".into(), "", &["f0", "f1", "f2"], ""));
    }
    let scalar = quote!(S);
    let decls: Vec<TokenStream> = arrays
        .iter()
        .map(|a| a.declaration_of(&used, &scalar))
        .collect();
    let binds: Vec<TokenStream> = arrays.iter().flat_map(|a| a.bindings(&used)).collect();
    let block = emit_generic(g, &f.entries, "t");
    let lets = &block.lets;
    let name = ident(f.name);
    let doc = format!(" {} ({} operations).", f.doc, block.operations);
    let (ret, value) = if f.columns == 0 {
        let n = lit(f.rows);
        let outs = &block.outputs;
        (quote!([S; #n]), quote!([#(#outs),*]))
    } else {
        let (r, c) = (lit(f.rows), lit(f.columns));
        let rows: Vec<TokenStream> = block
            .outputs
            .chunks(f.columns)
            .map(|row| quote!([#(#row),*]))
            .collect();
        (quote!([[S; #c]; #r]), quote!([#(#rows),*]))
    };
    quote! {
        #[doc = #doc]
        #[inline]
        pub fn #name<S: ::joint_core::Scalar>(#(#decls),*) -> #ret {
            #(#binds)*
            #(#lets)*
            #value
        }
    }
}

fn kind_module(kind: MarkerKind) -> TokenStream {
    let mut g = Graph::new();
    let kin = kind.build(&mut g, "");
    let n = kind.coordinate_count();
    let mut funcs = vec![
        Func {
            name: "position",
            doc: "Global position".into(),
            with_velocities: false,
            with_force: false,
            rows: 3,
            columns: 0,
            entries: kin.position.to_vec(),
        },
        Func {
            name: "velocity",
            doc: "Global velocity".into(),
            with_velocities: true,
            with_force: false,
            rows: 3,
            columns: 0,
            entries: kin.velocity.to_vec(),
        },
    ];
    if n > 0 {
        let jp = jacobian(&mut g, kin.velocity, &kin.velocities);
        // ∂(J_posᵀ f)/∂q: J_posᵀ f is a vector over the coordinates; differentiate each entry.
        let f: [Id; 3] = ["f0", "f1", "f2"].map(|s| g.var(s));
        let mut jtf = Vec::with_capacity(n);
        for c in 0..n {
            let terms: Vec<Id> = (0..3).map(|r| g.mul(jp[r * n + c], f[r])).collect();
            jtf.push(g.sum(&terms));
        }
        let mut dq = vec![g.zero(); n * n];
        for (c, &q) in kin.coordinates.iter().enumerate() {
            let mut memo = HashMap::new();
            for r in 0..n {
                dq[r * n + c] = derivative_memo(&mut g, jtf[r], q, &mut memo);
            }
        }
        funcs.push(Func {
            name: "position_jacobian",
            doc: format!("Position Jacobian ∂v/∂q̇, 3 × {n}"),
            with_velocities: false,
            with_force: false,
            rows: 3,
            columns: n,
            entries: jp,
        });
        funcs.push(Func {
            name: "position_jacobian_t_times_vector_q",
            doc: format!("∂(J_posᵀ·f)/∂q for a constant force f, {n} × {n}"),
            with_velocities: false,
            with_force: true,
            rows: n,
            columns: n,
            entries: dq,
        });
    }
    rotation_funcs(&mut g, &kin, n, &mut funcs);
    if n > 0 {
        // J_posᵀ·f itself by a reverse sweep over the velocity (linear in q̇), last: the nodes
        // it adds come after every other function's, which therefore emit as before
        let f: [Id; 3] = ["f0", "f1", "f2"].map(|s| g.var(s));
        let jtf = weighted_gradient(&mut g, &kin.velocity, &f, &kin.velocities);
        funcs.push(Func {
            name: "position_jacobian_t_times",
            doc: format!(
                "J_posᵀ·f, the generalized force of a force f at the marker point ({n} entries), without forming J_pos"
            ),
            with_velocities: false,
            with_force: true,
            rows: n,
            columns: 0,
            entries: jtf,
        });
    }
    if let (true, Some(w)) = (n > 0, kin.angular_velocity) {
        // ∂(J_rotᵀ·τ)/∂q for a constant torque τ (a force element's torque), last for the
        // same reason: J_rotᵀ·τ = ∂(ω·τ)/∂q̇, then each entry by each coordinate
        let t: [Id; 3] = ["f0", "f1", "f2"].map(|s| g.var(s));
        let jtt = weighted_gradient(&mut g, &w, &t, &kin.velocities);
        let mut dq = vec![g.zero(); n * n];
        for (c, &q) in kin.coordinates.iter().enumerate() {
            let mut memo = HashMap::new();
            for r in 0..n {
                dq[r * n + c] = derivative_memo(&mut g, jtt[r], q, &mut memo);
            }
        }
        funcs.push(Func {
            name: "rotation_jacobian_t_times_vector_q",
            doc: format!("∂(J_rotᵀ·τ)/∂q for a constant torque τ (in `f0..f2`), {n} × {n}"),
            with_velocities: false,
            with_force: true,
            rows: n,
            columns: n,
            entries: dq,
        });
    }
    rate_funcs(&mut g, &kin, n, &mut funcs);
    let fns: Vec<TokenStream> = funcs.iter().map(|f| function_tokens(&g, kind, f)).collect();
    let module = ident(kind.snake_name());
    let doc = format!(" {}: {}.", kind.name(), kind.description());
    let np = lit(kind.parameter_count());
    let nq = lit(n);
    let params: Vec<&str> = kind.parameter_names().to_vec();
    let coords: Vec<&str> = kind.coordinate_names().to_vec();
    quote! {
        #[doc = #doc]
        pub mod #module {
            /// Number of coordinates of the marker's node.
            pub const COORDINATES: usize = #nq;
            /// Names of the coordinates.
            pub const COORDINATE_NAMES: [&str; #nq] = [#(#coords),*];
            /// Number of constant parameters.
            pub const PARAMETERS: usize = #np;
            /// Names of the parameters.
            pub const PARAMETER_NAMES: [&str; #np] = [#(#params),*];
            #(#fns)*
        }
    }
}

/// ∂`vector`/∂`by` (3 × `by.len()`, row-major).
fn jacobian(g: &mut Graph, vector: [Id; 3], by: &[Id]) -> Vec<Id> {
    let mut out = vec![g.zero(); 3 * by.len()];
    for (c, &v) in by.iter().enumerate() {
        let mut memo = HashMap::new();
        for r in 0..3 {
            out[r * by.len() + c] = derivative_memo(g, vector[r], v, &mut memo);
        }
    }
    out
}

/// The rotation functions of a kind with an orientation: the rotation, angular velocities and
/// their Jacobians.
fn rotation_funcs(g: &mut Graph, kin: &Kinematics, n: usize, funcs: &mut Vec<Func>) {
    if let (Some(rot), Some(w), Some(wl)) = (
        kin.rotation,
        kin.angular_velocity,
        kin.angular_velocity_local,
    ) {
        funcs.push(Func {
            name: "rotation",
            doc: "Rotation matrix, local to global, row-major".into(),
            with_velocities: false,
            with_force: false,
            rows: 3,
            columns: 3,
            entries: rot.iter().flatten().copied().collect(),
        });
        funcs.push(Func {
            name: "angular_velocity",
            doc: "Global angular velocity ω".into(),
            with_velocities: true,
            with_force: false,
            rows: 3,
            columns: 0,
            entries: w.to_vec(),
        });
        funcs.push(Func {
            name: "angular_velocity_local",
            doc: "Angular velocity in the body frame ω̄".into(),
            with_velocities: true,
            with_force: false,
            rows: 3,
            columns: 0,
            entries: wl.to_vec(),
        });
        if n > 0 {
            // The velocity-dependent part of the angular accelerations, Σ_j ∂ω/∂q_j·q̇_j at
            // constant rates: G_t·θ̇ (global) and Ḡ_t·θ̇ (local). Identically zero for Euler
            // parameters, non-zero for Tait–Bryan angles.
            let rate_part = |g: &mut Graph, w: [Id; 3]| -> [Id; 3] {
                let mut out = [g.zero(); 3];
                for (&q, &qt) in kin.coordinates.iter().zip(&kin.velocities) {
                    let mut memo = HashMap::new();
                    for r in 0..3 {
                        let d = derivative_memo(g, w[r], q, &mut memo);
                        let p = g.mul(d, qt);
                        out[r] = g.add(out[r], p);
                    }
                }
                out
            };
            let wt = rate_part(g, w);
            let wlt = rate_part(g, wl);
            funcs.push(Func {
                name: "angular_acceleration_rate_part",
                doc: "Velocity part of the global angular acceleration, G_t·θ̇".into(),
                with_velocities: true,
                with_force: false,
                rows: 3,
                columns: 0,
                entries: wt.to_vec(),
            });
            funcs.push(Func {
                name: "angular_acceleration_local_rate_part",
                doc: "Velocity part of the local angular acceleration, Ḡ_t·θ̇".into(),
                with_velocities: true,
                with_force: false,
                rows: 3,
                columns: 0,
                entries: wlt.to_vec(),
            });
            let jrl = jacobian(g, wl, &kin.velocities);
            funcs.push(Func {
                name: "rotation_jacobian_local",
                doc: format!("Local rotation Jacobian ∂ω̄/∂q̇, 3 × {n}"),
                with_velocities: false,
                with_force: false,
                rows: 3,
                columns: n,
                entries: jrl,
            });
            let jr = jacobian(g, w, &kin.velocities);
            funcs.push(Func {
                name: "rotation_jacobian",
                doc: format!("Rotation Jacobian ∂ω/∂q̇, 3 × {n}"),
                with_velocities: false,
                with_force: false,
                rows: 3,
                columns: n,
                entries: jr,
            });
        }
    }
}

/// The true derivatives by the coordinates and the rates at q̈ = 0 (`joint_core::MarkerRates`),
/// emitted last so that every function before them emits as before.
fn rate_funcs(g: &mut Graph, kin: &Kinematics, n: usize, funcs: &mut Vec<Func>) {
    if n > 0 {
        // The true derivatives by the coordinates and the rates at q̈ = 0, last, so that the
        // functions above emit as before: what a runtime composes a joint's marker-level
        // Jacobian and second-order terms with (`joint_core::MarkerRates`).
        let by_q = |g: &mut Graph, entries: &[Id]| -> Vec<Id> {
            let mut out = vec![g.zero(); entries.len() * n];
            for (c, &q) in kin.coordinates.iter().enumerate() {
                let mut memo = HashMap::new();
                for (r, &e) in entries.iter().enumerate() {
                    out[r * n + c] = derivative_memo(g, e, q, &mut memo);
                }
            }
            out
        };
        let rate = |g: &mut Graph, entries: &[Id]| -> Vec<Id> {
            let d = by_q(g, entries);
            (0..entries.len())
                .map(|r| {
                    let terms: Vec<Id> = (0..n)
                        .map(|c| g.mul(d[r * n + c], kin.velocities[c]))
                        .collect();
                    g.sum(&terms)
                })
                .collect()
        };
        let pq = by_q(g, &kin.position);
        funcs.push(Func {
            name: "position_q",
            doc: format!("∂p/∂q, the position's own derivative (not J_pos off |θ| = 1), 3 × {n}"),
            with_velocities: false,
            with_force: false,
            rows: 3,
            columns: n,
            entries: pq,
        });
        let rotation: Option<Vec<Id>> = kin.rotation.map(|r| r.as_flattened().to_vec());
        if let Some(a) = &rotation {
            let aq = by_q(g, a);
            funcs.push(Func {
                name: "rotation_q",
                doc: format!("∂A/∂q, one row per entry of A (row-major), 9 × {n}"),
                with_velocities: false,
                with_force: false,
                rows: 9,
                columns: n,
                entries: aq,
            });
        }
        let mut rates = rate(g, &kin.position);
        match &rotation {
            Some(a) => rates.extend(rate(g, a)),
            None => rates.extend((0..9).map(|_| g.zero())),
        }
        rates.extend(rate(g, &kin.velocity));
        match kin.angular_velocity {
            Some(w) => rates.extend(rate(g, &w)),
            None => rates.extend((0..3).map(|_| g.zero())),
        }
        funcs.push(Func {
            name: "rates",
            doc: "ṗ, Ȧ (row-major), ∂v/∂q·q̇ and ∂ω/∂q·q̇ at q̈ = 0: the marker's rates \
                  (`joint_core::MarkerRates`), 18 entries"
                .into(),
            with_velocities: true,
            with_force: false,
            rows: 18,
            columns: 0,
            entries: rates,
        });
    }
}

/// Slice-based dispatch over kind indices for one kinematics function.
fn dispatch(
    name: &str,
    doc: &str,
    with_velocities: bool,
    with_force: bool,
    output: Output,
) -> TokenStream {
    let fname = ident(name);
    let mut arms = Vec::new();
    for (i, kind) in MarkerKind::ALL.iter().enumerate() {
        let has_fn = match name {
            "position" | "velocity" => true,
            "position_jacobian"
            | "position_jacobian_t_times"
            | "position_jacobian_t_times_vector_q"
            | "position_q"
            | "rates" => kind.coordinate_count() > 0,
            "rotation" | "angular_velocity" | "angular_velocity_local" => kind.has_orientation(),
            _ => kind.has_orientation() && kind.coordinate_count() > 0,
        };
        let module = ident(kind.snake_name());
        let il = lit(i);
        let mut args = Vec::new();
        // Slices the kind does not have must be empty.
        let mut empty = Vec::new();
        if kind.parameter_count() > 0 {
            args.push(quote!(parameters.try_into().ok()?));
        } else {
            empty.push(quote!(!parameters.is_empty()));
        }
        if kind.coordinate_count() > 0 {
            args.push(quote!(coordinates.try_into().ok()?));
            if with_velocities {
                args.push(quote!(velocities.try_into().ok()?));
            }
        } else {
            empty.push(quote!(!coordinates.is_empty()));
            if with_velocities {
                empty.push(quote!(!velocities.is_empty()));
            }
        }
        let guard = if empty.is_empty() {
            quote!()
        } else {
            quote!(#il if #(#empty)||* => ::core::option::Option::None,)
        };
        if with_force {
            args.push(quote!(force));
        }
        if !empty.is_empty() {
            arms.push(guard);
        }
        let arm = if has_fn {
            match output {
                Output::Vector => {
                    quote!(#il => ::core::option::Option::Some(#module::#fname(#(#args),*)),)
                }
                Output::Matrix3 => {
                    quote!(#il => ::core::option::Option::Some(#module::#fname(#(#args),*)),)
                }
                Output::Entries => quote!(#il => {
                    let e = #module::#fname(#(#args),*);
                    if out.len() != e.len() { return ::core::option::Option::None; }
                    out.copy_from_slice(&e);
                    ::core::option::Option::Some(())
                }),
                Output::Block => quote!(#il => {
                    let m = #module::#fname(#(#args),*);
                    let flat = m.as_flattened();
                    if out.len() != flat.len() { return ::core::option::Option::None; }
                    out.copy_from_slice(flat);
                    ::core::option::Option::Some(())
                }),
            }
        } else if matches!(output, Output::Block)
            && !kind.has_orientation()
            && name.starts_with("rotation")
        {
            continue;
        } else if name == "rates" {
            // no coordinates: at rest
            quote!(#il => {
                if out.len() != 18 { return ::core::option::Option::None; }
                out.fill(0.0);
                ::core::option::Option::Some(())
            })
        } else if matches!(output, Output::Block | Output::Entries) && kind.coordinate_count() == 0
        {
            // No coordinates: an empty block.
            quote!(#il => out.is_empty().then_some(()),)
        } else {
            continue;
        };
        arms.push(arm);
    }
    let mut params = vec![
        quote!(kind: usize),
        quote!(parameters: &[f64]),
        quote!(coordinates: &[f64]),
    ];
    if with_velocities {
        params.push(quote!(velocities: &[f64]));
    }
    if with_force {
        params.push(quote!(force: &[f64; 3]));
    }
    let ret = match output {
        Output::Vector => quote!(::core::option::Option<[f64; 3]>),
        Output::Matrix3 => quote!(::core::option::Option<[[f64; 3]; 3]>),
        Output::Block | Output::Entries => {
            params.push(quote!(out: &mut [f64]));
            quote!(::core::option::Option<()>)
        }
    };
    let doc = format!(
        " {doc} of marker kind `kind` (an index into [`MARKER_KINDS`]); `None` if the kind has no such quantity or a slice has the wrong length."
    );
    quote! {
        #[doc = #doc]
        #[allow(unused_variables)]
        pub fn #fname(#(#params),*) -> #ret {
            match kind {
                #(#arms)*
                _ => ::core::option::Option::None,
            }
        }
    }
}

#[derive(Clone, Copy)]
enum Output {
    Vector,
    Matrix3,
    /// Row-major block written into `out`.
    Block,
    /// One entry per coordinate, written into `out`.
    Entries,
}

/// The `marker_kinematics` module: one submodule per built-in marker kind.
pub fn expand() -> TokenStream {
    let modules: Vec<TokenStream> = MarkerKind::ALL.iter().map(|&k| kind_module(k)).collect();
    let dispatchers = [
        dispatch("position", "Global position", false, false, Output::Vector),
        dispatch("velocity", "Global velocity", true, false, Output::Vector),
        dispatch("rotation", "Rotation matrix", false, false, Output::Matrix3),
        dispatch(
            "angular_velocity",
            "Global angular velocity",
            true,
            false,
            Output::Vector,
        ),
        dispatch(
            "angular_velocity_local",
            "Local angular velocity",
            true,
            false,
            Output::Vector,
        ),
        dispatch(
            "angular_acceleration_rate_part",
            "G_t·θ̇",
            true,
            false,
            Output::Vector,
        ),
        dispatch(
            "angular_acceleration_local_rate_part",
            "Ḡ_t·θ̇",
            true,
            false,
            Output::Vector,
        ),
        dispatch(
            "position_jacobian",
            "Position Jacobian (3 × n, row-major)",
            false,
            false,
            Output::Block,
        ),
        dispatch(
            "rotation_jacobian",
            "Rotation Jacobian ∂ω/∂q̇ (3 × n, row-major)",
            false,
            false,
            Output::Block,
        ),
        dispatch(
            "rotation_jacobian_local",
            "Local rotation Jacobian ∂ω̄/∂q̇ (3 × n, row-major)",
            false,
            false,
            Output::Block,
        ),
        dispatch(
            "position_jacobian_t_times",
            "J_posᵀ·f (n entries)",
            false,
            true,
            Output::Entries,
        ),
        dispatch(
            "position_jacobian_t_times_vector_q",
            "∂(J_posᵀ·f)/∂q (n × n, row-major)",
            false,
            true,
            Output::Block,
        ),
        dispatch(
            "rotation_jacobian_t_times_vector_q",
            "∂(J_rotᵀ·τ)/∂q (n × n, row-major)",
            false,
            true,
            Output::Block,
        ),
        dispatch(
            "position_q",
            "∂p/∂q, the position's own derivative (3 × n, row-major)",
            false,
            false,
            Output::Block,
        ),
        dispatch(
            "rotation_q",
            "∂A/∂q, one row per entry of A (9 × n, row-major)",
            false,
            false,
            Output::Block,
        ),
        dispatch(
            "rates",
            "ṗ, Ȧ, ∂v/∂q·q̇, ∂ω/∂q·q̇ at q̈ = 0 (18 entries)",
            true,
            false,
            Output::Entries,
        ),
    ];
    let names: Vec<&str> = MarkerKind::ALL.iter().map(|k| k.name()).collect();
    let n = lit(names.len());
    let super_element = super::super_element::expand();
    let kinematic_tree = super::kinematic_tree::expand();
    let rigid_body_terms = super::rigid_body_terms::expand();
    quote! {
        /// Marker kinematics generated by `joint_macros::marker_kinematics!`.
        pub mod marker_kinematics {
            /// Kind names, in the compiler's canonical order (the kind indices of joint kernels).
            pub const MARKER_KINDS: [&str; #n] = [#(#names),*];
            #(#dispatchers)*
            #(#modules)*
            #super_element
            #kinematic_tree
            #rigid_body_terms
        }
    }
}
