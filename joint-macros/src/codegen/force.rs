//! Force elements (`pub force SpringDamper { … }`): the force between two markers as a function
//! of their quantities, lowered against free markers (`kinematics::marker_level`), and its
//! derivatives by every quantity, differentiated here, while the macro expands.
//!
//! `pub force SpringDamper { … }` expands to
//! * `pub struct SpringDamper;`, implementing `joint_core::Force`;
//! * `pub mod spring_damper` with the `Parameters` struct, the `DEFINITION` (a
//!   `joint_core::ForceDefinition`) and `marker_level`: `force` (f, on marker 0), `jacobian`
//!   (a `joint_core::ForceJacobian`: ∂f/∂p, ∂f/∂δπ, ∂f/∂v, ∂f/∂ω per marker) and the named
//!   outputs, each with its `_slices` form.
//!
//! Between two `Coordinate` markers the force is a scalar (the generalized force on marker 0's
//! coordinate, −f on marker 1's); the kernels carry it in the first entry, and its derivatives
//! by the coordinates and their velocities in the `[0][0]` entries (a coordinate is `p0`, its
//! velocity `v0` of the free markers).
//!
//! The rotation derivative is by a small global rotation of the marker's frame,
//! δA = skew(δπ)·A: ∂f/∂δπ_k = Σ_ab ∂f/∂A_ab·(skew(e_k)·A)_ab, which composes with the rotation
//! Jacobian (δπ = J_rot·δq) as ∂f/∂p composes with the position Jacobian.

use proc_macro2::TokenStream;
use quote::quote;
use std::collections::HashMap;

use super::joint::marker_level::{bind, named_outputs};
use super::joint::parameters;
use super::joint::stub::unknown_parameters;
use super::joint::{doc_text, expression_text, marker_declarations, module_name};
use super::util::{ident, lit, used_variables};
use crate::definition::errors::Errors;
use crate::definition::lower::{Lowerer, parameter_values};
use crate::definition::model::JointModel;
use crate::definition::value::Value;
use crate::kinematics::Kinematics;
use crate::kinematics::marker_level::free;
use crate::symbolic::diff::derivative_memo;
use crate::symbolic::emit::emit_generic;
use crate::symbolic::{Graph, Id};
use syn::{Ident, Visibility};

/// A force definition lowered at marker level, with its derivatives.
pub struct LoweredForce {
    pub graph: Graph,
    /// f, on marker 0.
    pub force: [Id; 3],
    /// ∂f/∂p, ∂f/∂δπ, ∂f/∂v, ∂f/∂ω (in that order), each per marker 0, 1, row-major 3 × 3.
    pub jacobian: Vec<Id>,
    /// The named outputs: (name, one root per entry).
    pub outputs: Vec<(String, Vec<Id>)>,
    /// The torque on marker 0 and its derivatives, if the definition has one.
    pub torque: Option<TorqueRoots>,
}

/// A force element's torque τ (global, on marker 0; marker 1 receives −τ) and its derivatives
/// (laid out as [`LoweredForce::jacobian`]).
pub struct TorqueRoots {
    pub torque: [Id; 3],
    pub jacobian: Vec<Id>,
}

/// Lower `model` (a force element) against free markers and differentiate its force. Errors go
/// into `errors`; `None` if the force did not lower.
pub fn lower(model: &JointModel, errors: &mut Errors) -> Option<LoweredForce> {
    let mut g = Graph::new();
    let kin = [free(&mut g, "m0_"), free(&mut g, "m1_")];
    let params = parameter_values(&mut g, model);
    let (force, outputs, torque) = {
        let mut lw = Lowerer::new(&mut g, model, &kin, params);
        lw.bindings(errors);
        let expr = model.force.as_ref()?;
        let between_coordinates = model
            .markers
            .iter()
            .all(|m| m.capability == crate::kinematics::Capability::Coordinate);
        let force = match lw.lower(expr, errors).map(|d| d.value) {
            // between coordinates: a scalar, in the first entry
            Some(Value::Scalar(s)) if between_coordinates => {
                let zero = lw.g.constant(0.0);
                Some([s, zero, zero])
            }
            Some(other) if between_coordinates => {
                errors.at(
                    expr,
                    format!(
                        "a force between two coordinates is a scalar, found {}",
                        other.type_name()
                    ),
                );
                None
            }
            other => vector3(other, expr, "force", errors),
        };
        let outputs = named_outputs(&mut lw, model, errors);
        let torque = match &model.torque {
            None => None,
            Some(expr) => {
                let value = lw.lower(expr, errors).map(|d| d.value);
                Some(vector3(value, expr, "torque", errors)?)
            }
        };
        (force?, outputs, torque)
    };
    let jacobian = derivatives(&mut g, &kin, &force);
    let torque = torque.map(|t| TorqueRoots {
        jacobian: derivatives(&mut g, &kin, &t),
        torque: t,
    });
    Some(LoweredForce {
        graph: g,
        force,
        jacobian,
        outputs,
        torque,
    })
}

/// A force's or torque's value as its three entries (a 3-vector, or a list of three rows);
/// anything else is an error at `expr`.
fn vector3(
    value: Option<Value>,
    expr: &syn::Expr,
    what: &str,
    errors: &mut Errors,
) -> Option<[Id; 3]> {
    match value? {
        Value::Vector(v) => Some(v),
        Value::Rows(r) if r.len() == 3 => Some([r[0], r[1], r[2]]),
        other => {
            errors.at(
                expr,
                format!(
                    "a {what} is a 3-vector (global, on marker 0), found {}",
                    other.type_name()
                ),
            );
            None
        }
    }
}

/// ∂x/∂p, ∂x/∂δπ, ∂x/∂v, ∂x/∂ω of a 3-vector `x` of the markers' quantities (in that order),
/// each per marker 0, 1, row-major 3 × 3.
fn derivatives(g: &mut Graph, kin: &[Kinematics; 2], x: &[Id; 3]) -> Vec<Id> {
    let mut jacobian = Vec::with_capacity(4 * 2 * 9);
    // ∂f/∂p and ∂f/∂v, ∂f/∂ω: plain derivatives by the quantities' variables
    let by_variables = |g: &mut Graph, vars: &[Id; 3], out: &mut Vec<Id>| {
        let mut memos: Vec<HashMap<Id, Id>> = (0..3).map(|_| HashMap::new()).collect();
        for &f in x {
            for (c, &v) in vars.iter().enumerate() {
                out.push(derivative_memo(g, f, v, &mut memos[c]));
            }
        }
    };
    for k in kin {
        by_variables(g, &k.position, &mut jacobian);
    }
    for k in kin {
        let a = k.rotation.expect("free markers have a rotation");
        // ∂f_r/∂A_ab, then contracted with skew(e_k)·A
        let mut d_a = [[[Id(0); 3]; 3]; 3];
        for (ai, row) in a.iter().enumerate() {
            for (bi, &v) in row.iter().enumerate() {
                let mut memo = HashMap::new();
                for (r, &f) in x.iter().enumerate() {
                    d_a[r][ai][bi] = derivative_memo(g, f, v, &mut memo);
                }
            }
        }
        for d in &d_a {
            for axis in 0..3 {
                let mut terms = Vec::new();
                // (skew(e_axis)·A)_ab = Σ_c skew(e_axis)_ac·A_cb, skew(e)_ac = −ε_{a,axis,c}
                for (ai, d_row) in d.iter().enumerate() {
                    for (c, a_row) in a.iter().enumerate() {
                        let sign = skew_unit(axis, ai, c);
                        if sign == 0.0 {
                            continue;
                        }
                        for (bi, &d_ab) in d_row.iter().enumerate() {
                            let t = g.mul(d_ab, a_row[bi]);
                            terms.push(if sign > 0.0 { t } else { g.neg(t) });
                        }
                    }
                }
                jacobian.push(g.sum(&terms));
            }
        }
    }
    for k in kin {
        by_variables(g, &k.velocity, &mut jacobian);
    }
    for k in kin {
        let w = k
            .angular_velocity
            .expect("free markers have an angular velocity");
        by_variables(g, &w, &mut jacobian);
    }
    jacobian
}

/// Entry (a, c) of skew(e_axis), the matrix of e_axis × ·: 0 or ±1.
fn skew_unit(axis: usize, a: usize, c: usize) -> f64 {
    // skew(w) = [[0, −w2, w1], [w2, 0, −w0], [−w1, w0, 0]]
    match (a, c) {
        (1, 2) if axis == 0 => -1.0,
        (2, 1) if axis == 0 => 1.0,
        (0, 2) if axis == 1 => 1.0,
        (2, 0) if axis == 1 => -1.0,
        (0, 1) if axis == 2 => -1.0,
        (1, 0) if axis == 2 => 1.0,
        _ => 0.0,
    }
}

/// What a marker-level kernel returns.
enum Returns {
    /// `[f64; N]`
    Array(usize),
    /// `ForceJacobian`
    Jacobian,
}

fn kernel(
    model: &JointModel,
    g: &Graph,
    name: &str,
    doc: &str,
    roots: &[Id],
    returns: Returns,
) -> TokenStream {
    let core = &model.core;
    let block = emit_generic(g, roots, "t");
    let used = used_variables(g, roots);
    let (mut binds, [m0, m1]) = bind(&used);
    let (params, b) = parameters::bindings(model, &used);
    binds.splice(0..0, b);
    let params = params.map(|a| quote!(#a,));
    let call_params = if model.params.is_empty() {
        quote!()
    } else {
        quote!(joint,)
    };
    let from_slice = parameters::from_slice(model);
    let lets = &block.lets;
    let out = &block.outputs;
    let typed = ident(name);
    let slices = ident(&format!("{name}_slices"));
    match returns {
        Returns::Array(n) => {
            let n = lit(n);
            quote! {
                #[doc = #doc]
                #[inline]
                pub fn #typed<S: #core::Scalar>(#params #m0: &#core::MarkerQuantities<S>, #m1: &#core::MarkerQuantities<S>) -> [S; #n] {
                    #(#binds)*
                    #(#lets)*
                    [#(#out),*]
                }

                /// On slices (the parameters as one slice); `None` if a length is wrong.
                pub fn #slices(joint: &[f64], m0: &#core::MarkerQuantities, m1: &#core::MarkerQuantities, out: &mut [f64]) -> ::core::option::Option<()> {
                    #from_slice
                    let out: &mut [f64; #n] = out.try_into().ok()?;
                    *out = #typed(#call_params m0, m1);
                    ::core::option::Option::Some(())
                }
            }
        }
        Returns::Jacobian => {
            // blocks ordered quantity (p, δπ, v, ω), marker, row, column
            let block = |quantity: usize, marker: usize| -> TokenStream {
                let rows: Vec<TokenStream> = (0..3)
                    .map(|r| {
                        let cols = (0..3).map(|c| &out[((quantity * 2 + marker) * 3 + r) * 3 + c]);
                        quote!([#(#cols),*])
                    })
                    .collect();
                quote!([#(#rows),*])
            };
            let [p0, p1, r0, r1, v0, v1, w0, w1] = [
                (0, 0),
                (0, 1),
                (1, 0),
                (1, 1),
                (2, 0),
                (2, 1),
                (3, 0),
                (3, 1),
            ]
            .map(|(q, m)| block(q, m));
            quote! {
                #[doc = #doc]
                #[inline]
                pub fn #typed<S: #core::Scalar>(#params #m0: &#core::MarkerQuantities<S>, #m1: &#core::MarkerQuantities<S>) -> #core::ForceJacobian<S> {
                    #(#binds)*
                    #(#lets)*
                    #core::ForceJacobian {
                        d_position: [#p0, #p1],
                        d_rotation: [#r0, #r1],
                        d_velocity: [#v0, #v1],
                        d_angular_velocity: [#w0, #w1],
                    }
                }

                /// On slices (the parameters as one slice); `None` if a length is wrong.
                pub fn #slices(joint: &[f64], m0: &#core::MarkerQuantities, m1: &#core::MarkerQuantities, out: &mut #core::ForceJacobian) -> ::core::option::Option<()> {
                    #from_slice
                    *out = #typed(#call_params m0, m1);
                    ::core::option::Option::Some(())
                }
            }
        }
    }
}

/// The force's `slices` signature differs from the outputs' (a fixed array): its wrapper.
fn force_slices(core: &TokenStream) -> TokenStream {
    quote! {
        /// The force into a fixed array, as [`DEFINITION`](super::DEFINITION) holds it.
        pub fn force_array(joint: &[f64], m0: &#core::MarkerQuantities, m1: &#core::MarkerQuantities, out: &mut [f64; 3]) -> ::core::option::Option<()> {
            force_slices(joint, m0, m1, out)
        }
    }
}

/// A force element's torque kernels (pushed onto `functions`) and its `TorqueDefinition`.
fn torque_kernels(
    model: &JointModel,
    g: &Graph,
    t: &TorqueRoots,
    functions: &mut Vec<TokenStream>,
) -> TokenStream {
    let core = &model.core;
    functions.push(kernel(
        model,
        g,
        "torque",
        " The torque on marker 0 (global); marker 1 receives its negative.",
        &t.torque,
        Returns::Array(3),
    ));
    functions.push(kernel(
        model,
        g,
        "torque_jacobian",
        " The torque's derivatives by both markers' positions, rotations (a small \
         global rotation δπ, δA = skew(δπ)·A), velocities and angular velocities.",
        &t.jacobian,
        Returns::Jacobian,
    ));
    functions.push(quote! {
        /// The torque into a fixed array, as [`DEFINITION`](super::DEFINITION) holds it.
        pub fn torque_array(joint: &[f64], m0: &#core::MarkerQuantities, m1: &#core::MarkerQuantities, out: &mut [f64; 3]) -> ::core::option::Option<()> {
            torque_slices(joint, m0, m1, out)
        }
    });
    let text = model
        .torque
        .as_ref()
        .map(expression_text)
        .unwrap_or_default();
    quote! {
        ::core::option::Option::Some(#core::TorqueDefinition {
            torque_text: #text,
            torque: marker_level::torque_array,
            jacobian: marker_level::torque_jacobian_slices,
        })
    }
}

/// Expand a checked force model. Errors are pushed into `errors`; the caller then emits the
/// stub instead of the returned tokens.
pub fn expand(model: &JointModel, errors: &mut Errors) -> TokenStream {
    crate::definition::check::check(model, errors);
    if !errors.is_empty() {
        return TokenStream::new();
    }
    let Some(lowered) = lower(model, errors) else {
        return TokenStream::new();
    };
    if !errors.is_empty() {
        return TokenStream::new();
    }
    let core = &model.core;
    let g = &lowered.graph;
    let mut functions = vec![
        kernel(
            model,
            g,
            "force",
            " The force on marker 0 (global; between two coordinates a scalar, in the first \
             entry); marker 1 receives its negative.",
            &lowered.force,
            Returns::Array(3),
        ),
        kernel(
            model,
            g,
            "jacobian",
            " The force's derivatives by both markers' positions, rotations (a small global \
             rotation δπ, δA = skew(δπ)·A), velocities and angular velocities.",
            &lowered.jacobian,
            Returns::Jacobian,
        ),
        force_slices(core),
    ];
    let torque_definition = match &lowered.torque {
        None => quote!(::core::option::Option::None),
        Some(t) => torque_kernels(model, g, t, &mut functions),
    };
    let mut output_infos = Vec::new();
    for (name, roots) in &lowered.outputs {
        let doc = format!(" The force element's output `{name}`.");
        functions.push(kernel(
            model,
            g,
            &format!("output_{name}"),
            &doc,
            roots,
            Returns::Array(roots.len()),
        ));
        let f = ident(&format!("output_{name}_slices"));
        let len = lit(roots.len());
        output_infos
            .push(quote!(#core::OutputInfo { name: #name, len: #len, evaluate: marker_level::#f }));
    }
    let name = &model.name;
    let name_str = name.to_string();
    let module_str = module_name(&name_str);
    let module = ident(&module_str);
    let vis = &model.vis;
    let docs: Vec<&syn::Attribute> = model
        .attrs
        .iter()
        .filter(|a| a.path().is_ident("doc"))
        .collect();
    let doc = doc_text(model);
    let force_text = model
        .force
        .as_ref()
        .map(expression_text)
        .unwrap_or_default();
    let parameters = parameters::definition(model);
    let names = super::joint::name_modules(model, false);
    let parameter_infos = parameters::infos(model);
    let state_infos = parameters::state_infos(model);
    let markers = marker_declarations(model, true);
    let type_doc = format!(
        " The force element `{name_str}` (see [`{module_str}`]): its [`joint_core::Force`] implementation."
    );
    let scalar_functions = crate::codegen::util::scalar_functions(core);
    quote! {
        #[doc = #type_doc]
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        #vis struct #name;

        impl #core::Force for #name {
            type Parameters = #module::Parameters;
            const DEFINITION: &'static #core::ForceDefinition = &#module::DEFINITION;
        }

        #(#docs)*
        #[allow(clippy::possible_missing_comma)]
        #vis mod #module {
            #names

            #parameters

            /// The force element as a runtime sees it.
            pub static DEFINITION: #core::ForceDefinition = #core::ForceDefinition {
                name: #name_str,
                module: #module_str,
                doc: #doc,
                markers: [#(#markers),*],
                parameters: &[#(#parameter_infos),*],
                states: &[#(#state_infos),*],
                outputs: &[#(#output_infos),*],
                force_text: #force_text,
                force: marker_level::force_array,
                jacobian: marker_level::jacobian_slices,
                torque: #torque_definition,
            };

            /// The force element at marker level: its force as a function of the two markers'
            /// quantities, its derivatives by them, and its named outputs.
            pub mod marker_level {
                #scalar_functions
                #(#functions)*
            }
        }
    }
}

/// What a force definition with errors expands to besides the errors: its type, `Force`
/// implementation and module with kernels that return `None`, so that uses add no errors.
pub fn stub(
    errors: Errors,
    vis: &Visibility,
    name: &Ident,
    core: &TokenStream,
    model: Option<&JointModel>,
) -> TokenStream {
    let errs = errors.into_compile_errors();
    let name_str = name.to_string();
    let module_str = module_name(&name_str);
    let module = ident(&module_str);
    // the typed kernels too when the parameters are known, so that calls of them resolve
    let typed = model.map(|m| {
        let p = (!m.params.is_empty()).then(|| quote!(_joint: &super::Parameters,));
        quote! {
            pub fn force(#p _m0: &#core::MarkerQuantities, _m1: &#core::MarkerQuantities) -> [f64; 3] {
                ::core::unreachable!("the force element's definition has errors")
            }
            pub fn jacobian(#p _m0: &#core::MarkerQuantities, _m1: &#core::MarkerQuantities) -> #core::ForceJacobian {
                ::core::unreachable!("the force element's definition has errors")
            }
        }
    });
    let params = match model {
        Some(m) => parameters::definition(m),
        None => unknown_parameters(core, "force element"),
    };
    let names = model.map(|m| super::joint::name_modules(m, false));
    let scalar_functions = crate::codegen::util::scalar_functions(core);
    quote! {
        #errs

        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        #vis struct #name;

        impl #core::Force for #name {
            type Parameters = #module::Parameters;
            const DEFINITION: &'static #core::ForceDefinition = &#module::DEFINITION;
        }

        #[allow(dead_code, unused, clippy::all)]
        #vis mod #module {
            #names

            #params

            pub static DEFINITION: #core::ForceDefinition = #core::ForceDefinition {
                name: #name_str,
                module: #module_str,
                doc: "",
                markers: [
                    #core::MarkerDeclaration { name: "m0", capability: #core::Capability::Position, kinds: &[] },
                    #core::MarkerDeclaration { name: "m1", capability: #core::Capability::Position, kinds: &[] },
                ],
                parameters: &[],
                states: &[],
                outputs: &[],
                force_text: "",
                force: marker_level::force_array,
                jacobian: marker_level::jacobian_slices,
                torque: ::core::option::Option::None,
            };

            pub mod marker_level {
                #scalar_functions
                #typed
                pub fn force_array(_: &[f64], _: &#core::MarkerQuantities, _: &#core::MarkerQuantities, _: &mut [f64; 3]) -> ::core::option::Option<()> {
                    ::core::option::Option::None
                }
                pub fn jacobian_slices(_: &[f64], _: &#core::MarkerQuantities, _: &#core::MarkerQuantities, _: &mut #core::ForceJacobian) -> ::core::option::Option<()> {
                    ::core::option::Option::None
                }
            }
        }
    }
}
