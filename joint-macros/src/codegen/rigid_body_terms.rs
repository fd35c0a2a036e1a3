//! Rigid bodies' LHS derivatives (`marker_kinematics::rigid_body_terms`): for each rotation
//! parametrization whose parameters are coordinates, ∂LHS/∂θ and ∂LHS/∂θ̇ unrolled, for a body
//! with its centre of mass at the node and for one with it elsewhere
//! (`kinematics/rigid_body_lhs.rs` derives them).

use proc_macro2::TokenStream;
use quote::quote;

use super::util::{ArrayArg, ident, lit, used_variables};
use crate::kinematics::rigid_body_lhs::{
    INERTIA, MOMENT, RIGID_ROTATIONS, RigidRotation, rigid_lhs,
};
use crate::symbolic::Graph;
use crate::symbolic::emit::emit;

fn function(rotation: RigidRotation, centred: bool) -> TokenStream {
    let mut g = Graph::new();
    let f = rigid_lhs(&mut g, rotation, centred);
    let n = rotation.parameters;
    let outputs: Vec<_> = f.stiffness.iter().chain(&f.damping).copied().collect();
    let used = used_variables(&g, &outputs);
    let names = |prefix: &str| (0..n).map(|k| format!("{prefix}{k}")).collect::<Vec<_>>();
    let theta = ArrayArg {
        name: "theta".into(),
        elements: names("theta"),
    };
    let theta_t = ArrayArg {
        name: "theta_t".into(),
        elements: names("theta_t"),
    };
    let moment = ArrayArg::new("moment".into(), "", &MOMENT, "");
    let mut args = vec![&theta, &theta_t];
    if !centred {
        args.push(&moment);
    }
    let declarations: Vec<TokenStream> = args.iter().map(|a| a.declaration(&used)).collect();
    let bindings: Vec<TokenStream> = args.iter().flat_map(|a| a.bindings(&used)).collect();
    let inertia_name = if INERTIA.iter().any(|j| used.contains(*j)) {
        ident("inertia")
    } else {
        ident("_inertia")
    };
    let inertia_bindings: Vec<TokenStream> = INERTIA
        .iter()
        .enumerate()
        .filter(|(_, j)| used.contains(**j))
        .map(|(i, j)| {
            let v = ident(j);
            let (r, c) = (lit(i / 3), lit(i % 3));
            quote!(let #v = #inertia_name[#r][#c];)
        })
        .collect();
    let block = emit(&g, &outputs, "t");
    let lets = &block.lets;
    let entries = f.lhs.len() * n;
    let (k, d) = block.outputs.split_at(entries);
    let size = lit(entries);
    let rows = f.lhs.len();
    let (name, which) = if centred {
        (
            format!("{}_centred", rotation.name),
            "centre of mass at the node: the rotation rows only",
        )
    } else {
        (
            rotation.name.to_string(),
            "centre of mass anywhere (`moment` = −m·b): the translational rows, then the rotation rows",
        )
    };
    let doc = format!(
        " ∂LHS/∂θ (`stiffness`) and ∂LHS/∂θ̇ (`damping`) of a rigid body with {} ({} rotation \
         parameters), {which}; row-major {rows} × {n} ({} operations).",
        rotation.title, n, block.operations
    );
    let name = ident(&name);
    let k_index = (0..entries).map(lit);
    let d_index = (0..entries).map(lit);
    quote! {
        #[doc = #doc]
        #[inline]
        #[allow(clippy::too_many_arguments)]
        pub fn #name(#(#declarations,)* #inertia_name: &[[f64; 3]; 3], stiffness: &mut [f64; #size], damping: &mut [f64; #size]) {
            #(#bindings)*
            #(#inertia_bindings)*
            #(#lets)*
            #(stiffness[#k_index] = #k;)*
            #(damping[#d_index] = #d;)*
        }
    }
}

/// The `rigid_body_terms` module inside `marker_kinematics`.
pub fn expand() -> TokenStream {
    let functions: Vec<TokenStream> = RIGID_ROTATIONS
        .iter()
        .flat_map(|&r| [function(r, true), function(r, false)])
        .collect();
    quote! {
        /// Rigid bodies' quadratic-velocity terms (Exudyn's LHS) differentiated by the rotation
        /// parameters θ and their rates θ̇: LHS_u = A·(ω̄ × (U × ω̄) + U × Ḡ_t·θ̇),
        /// LHS_θ = Ḡᵀ·(ω̄ × J·ω̄ + J·Ḡ_t·θ̇), ω̄ = Ḡ·θ̇, U = −m·b, J the inertia about the node
        /// (row-major). The LHS reads neither the position nor the translational velocity, so
        /// only the θ and θ̇ columns are given.
        pub mod rigid_body_terms {
            #(#functions)*
        }
    }
}
