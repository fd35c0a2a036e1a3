//! Marker kinematics kernels, one module per marker kind: position, velocity, rotation,
//! angular velocities, the position and rotation Jacobians (∂v/∂q̇ and ∂ω/∂q̇), and the
//! derivative ∂(J_posᵀ f)/∂q a connector's Newton Jacobian needs. A runtime uses them for
//! loads, sensors and connectors, so no marker Jacobian is written by hand anywhere.

use proc_macro2::TokenStream;
use quote::quote;
use std::collections::HashMap;

use super::util::{ArrayArg, ident, lit, used_variables};
use crate::kinematics::MarkerKind;
use crate::symbolic::diff::derivative_memo;
use crate::symbolic::emit::emit;
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
        arrays.push(ArrayArg::new("parameters".into(), "", kind.parameter_names(), ""));
    }
    if kind.coordinate_count() > 0 {
        arrays.push(ArrayArg::new("coordinates".into(), "", kind.coordinate_names(), ""));
        if f.with_velocities {
            arrays.push(ArrayArg::new("velocities".into(), "", kind.coordinate_names(), "_t"));
        }
    }
    if f.with_force {
        arrays.push(ArrayArg::new("force".into(), "", &["f0", "f1", "f2"], ""));
    }
    let decls: Vec<TokenStream> = arrays.iter().map(|a| a.declaration(&used)).collect();
    let binds: Vec<TokenStream> = arrays.iter().flat_map(|a| a.bindings(&used)).collect();
    let block = emit(g, &f.entries, "t");
    let lets = &block.lets;
    let name = ident(f.name);
    let doc = format!(" {} ({} operations).", f.doc, block.operations);
    let (ret, value) = if f.columns == 0 {
        let n = lit(f.rows);
        let outs = &block.outputs;
        (quote!([f64; #n]), quote!([#(#outs),*]))
    } else {
        let (r, c) = (lit(f.rows), lit(f.columns));
        let rows: Vec<TokenStream> = block
            .outputs
            .chunks(f.columns)
            .map(|row| quote!([#(#row),*]))
            .collect();
        (quote!([[f64; #c]; #r]), quote!([#(#rows),*]))
    };
    quote! {
        #[doc = #doc]
        #[inline]
        pub fn #name(#(#decls),*) -> #ret {
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
    let jac = |g: &mut Graph, vector: [Id; 3], by: &[Id]| -> Vec<Id> {
        let mut out = vec![g.zero(); 3 * by.len()];
        for (c, &v) in by.iter().enumerate() {
            let mut memo = HashMap::new();
            for r in 0..3 {
                out[r * by.len() + c] = derivative_memo(g, vector[r], v, &mut memo);
            }
        }
        out
    };
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
        let jp = jac(&mut g, kin.velocity, &kin.velocities);
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
    if let (Some(rot), Some(w), Some(wl)) = (kin.rotation, kin.angular_velocity, kin.angular_velocity_local) {
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
            let jr = jac(&mut g, w, &kin.velocities);
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

/// The `marker_kinematics` module: one submodule per built-in marker kind.
pub fn expand() -> TokenStream {
    let modules: Vec<TokenStream> = MarkerKind::ALL.iter().map(|&k| kind_module(k)).collect();
    let names: Vec<&str> = MarkerKind::ALL.iter().map(|k| k.name()).collect();
    let n = lit(names.len());
    quote! {
        /// Marker kinematics generated by `joint_macros::marker_kinematics!`.
        #[allow(clippy::all, clippy::pedantic)]
        pub mod marker_kinematics {
            /// Kind names, in the compiler's canonical order (the kind indices of joint kernels).
            pub const MARKER_KINDS: [&str; #n] = [#(#names),*];
            #(#modules)*
        }
    }
}
