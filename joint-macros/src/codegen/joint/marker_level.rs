//! The marker-level kernels of a joint: residuals as functions of the two markers' quantities
//! (`joint_core::MarkerQuantities`), their Jacobian with respect to the markers' velocities and
//! angular velocities, and the joint's named outputs. Lowering the definition here is also where
//! its errors are reported (once, whatever the pairings).

use proc_macro2::TokenStream;
use quote::quote;
use std::collections::{BTreeSet, HashMap};

use super::{lower_with, parameters};
use crate::codegen::util::{ident, lit, used_variables};
use crate::definition::errors::Errors;
use crate::definition::lower::{Lowerer, parameter_values};
use crate::definition::model::JointModel;
use crate::definition::value::Value;
use crate::kinematics::marker_level::{self, ANGULAR_VELOCITY, POSITION, ROTATION, VELOCITY};
use crate::symbolic::Graph;
use crate::symbolic::emit::emit;

/// `let m0_p0 = m0.position[0];` … for the used quantities, and the markers' argument names
/// (`_m0` if unused).
pub(crate) fn bind(used: &BTreeSet<String>) -> (Vec<TokenStream>, [TokenStream; 2]) {
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
}

/// A typed marker-level function and its `_slices` wrapper.
struct Function<'a> {
    name: proc_macro2::Ident,
    doc: &'a str,
    roots: &'a [crate::symbolic::Id],
    /// `[f64; N]` outputs (`None`: the Jacobian).
    len: Option<usize>,
}

fn function(model: &JointModel, g: &Graph, rows: usize, f: &Function) -> TokenStream {
    let core = &model.core;
    let block = emit(g, f.roots, "t");
    let used = used_variables(g, f.roots);
    let (mut binds, [m0, m1]) = bind(&used);
    let (joint, b) = parameters::bindings(model, &used);
    binds.splice(0..0, b);
    let joint = joint.map(|a| quote!(#a,));
    let lets = &block.lets;
    let out = &block.outputs;
    let name = &f.name;
    let slices = ident(&format!("{name}_slices"));
    let doc = f.doc;
    let from_slice = parameters::from_slice(model);
    let call_joint = if model.params.is_empty() {
        quote!()
    } else {
        quote!(joint,)
    };
    let rows_lit = lit(rows);
    match f.len {
        Some(n) => {
            let n = lit(n);
            quote! {
                #[doc = #doc]
                #[inline]
                pub fn #name(#joint #m0: &#core::MarkerQuantities, #m1: &#core::MarkerQuantities) -> [f64; #n] {
                    #(#binds)*
                    #(#lets)*
                    [#(#out),*]
                }

                /// On slices (the joint's parameters as one slice); `None` if a length is wrong.
                pub fn #slices(joint: &[f64], m0: &#core::MarkerQuantities, m1: &#core::MarkerQuantities, out: &mut [f64]) -> ::core::option::Option<()> {
                    #from_slice
                    let out: &mut [f64; #n] = out.try_into().ok()?;
                    *out = #name(#call_joint m0, m1);
                    ::core::option::Option::Some(())
                }
            }
        }
        None => {
            // entries are ordered marker, velocity variable (v0..v2, w0..w2), row
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
                #[doc = #doc]
                #[inline]
                pub fn #name(#joint #m0: &#core::MarkerQuantities, #m1: &#core::MarkerQuantities) -> #core::MarkerLevelJacobian<#rows_lit> {
                    #(#binds)*
                    #(#lets)*
                    #core::MarkerLevelJacobian {
                        d_velocity: [#dv0, #dv1],
                        d_angular_velocity: [#dw0, #dw1],
                    }
                }

                /// On slices: ∂r/∂v_0, ∂r/∂ω_0, ∂r/∂v_1, ∂r/∂ω_1 into `out`, each row-major
                /// `ROWS × 3`; `None` if a length is wrong.
                pub fn #slices(joint: &[f64], m0: &#core::MarkerQuantities, m1: &#core::MarkerQuantities, out: &mut [f64]) -> ::core::option::Option<()> {
                    #from_slice
                    if out.len() != 12 * super::ROWS {
                        return ::core::option::Option::None;
                    }
                    let j = #name(#call_joint m0, m1);
                    let parts = [
                        j.d_velocity[0].as_flattened(),
                        j.d_angular_velocity[0].as_flattened(),
                        j.d_velocity[1].as_flattened(),
                        j.d_angular_velocity[1].as_flattened(),
                    ];
                    for (chunk, part) in out.chunks_exact_mut(3 * super::ROWS).zip(parts) {
                        chunk.copy_from_slice(part);
                    }
                    ::core::option::Option::Some(())
                }
            }
        }
    }
}

/// The `marker_level` module. Lowering the definition against free markers here reports every
/// error of the definition into `errors` (the tokens are then empty).
pub fn module(model: &JointModel, errors: &mut Errors) -> TokenStream {
    let core = &model.core;
    let mut g = Graph::new();
    let kin = [
        marker_level::free(&mut g, "m0_"),
        marker_level::free(&mut g, "m1_"),
    ];
    let Some(mut lowered) = lower_with(model, g, kin, errors) else {
        return quote!();
    };
    let outputs = lower_outputs(model, &mut lowered, errors);
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
            for &row in &lowered.jacobian_rows {
                entries.push(crate::symbolic::diff::derivative_memo(g, row, v, &mut memo));
            }
        }
    }
    let g = &lowered.graph;
    let mut functions = Vec::new();
    if model.position.is_some() {
        functions.push(function(
            model,
            g,
            rows,
            &Function {
                name: ident("position_residual"),
                doc: " Position-level residual.",
                roots: &lowered.position,
                len: Some(rows),
            },
        ));
    }
    functions.extend([
        function(
            model,
            g,
            rows,
            &Function {
                name: ident("velocity_residual"),
                doc: " Velocity-level residual.",
                roots: &lowered.velocity,
                len: Some(rows),
            },
        ),
        function(
            model,
            g,
            rows,
            &Function {
                name: ident("jacobian"),
                doc: " Jacobian of the velocity-level residual with respect to the markers' \
                      velocities and angular velocities.",
                roots: &entries,
                len: None,
            },
        ),
    ]);
    let position_residual = if model.position.is_some() {
        quote!(position_residual_slices)
    } else {
        quote!(#core::MarkerLevel::NO_POSITION_RESIDUAL)
    };
    for (name, roots) in &outputs {
        let doc = format!(" The joint's output `{name}`.");
        functions.push(function(
            model,
            g,
            rows,
            &Function {
                name: ident(&format!("output_{name}")),
                doc: &doc,
                roots,
                len: Some(roots.len()),
            },
        ));
    }
    quote! {
        /// The joint at marker level: residuals as functions of the two markers' quantities,
        /// the Jacobian with respect to their velocities (compose with any marker's Jacobians:
        /// `C_q(marker i) = d_velocity[i]·J_pos,i + d_angular_velocity[i]·J_rot,i`), and the
        /// joint's named outputs.
        pub mod marker_level {
            /// The marker-level kernels behind the type-erased interface.
            pub const KERNELS: #core::MarkerLevel = #core::MarkerLevel {
                position_residual: #position_residual,
                velocity_residual: velocity_residual_slices,
                jacobian: jacobian_slices,
            };

            #(#functions)*
        }
    }
}

/// The named outputs lowered at marker level: (name, one root per entry).
fn lower_outputs(
    model: &JointModel,
    lowered: &mut super::Lowered,
    errors: &mut Errors,
) -> Vec<(String, Vec<crate::symbolic::Id>)> {
    let params = parameter_values(&mut lowered.graph, model);
    let mut lw = Lowerer::new(&mut lowered.graph, model, &lowered.kin, params);
    let mut scratch = Errors::new();
    // the bindings' errors were reported with the residuals
    lw.bindings(&mut scratch);
    named_outputs(&mut lw, model, errors)
}

/// The definition's named outputs lowered by `lw`: (name, one root per entry); an output that
/// is neither a scalar nor a 3-vector is an error.
pub(crate) fn named_outputs(
    lw: &mut Lowerer,
    model: &JointModel,
    errors: &mut Errors,
) -> Vec<(String, Vec<crate::symbolic::Id>)> {
    let mut out = Vec::new();
    for o in &model.outputs {
        match lw.lower(&o.expr, errors).map(|d| d.value) {
            Some(Value::Scalar(s)) => out.push((o.name.to_string(), vec![s])),
            Some(Value::Vector(v)) => out.push((o.name.to_string(), v.to_vec())),
            Some(Value::Rows(r)) if r.len() == 3 => out.push((o.name.to_string(), r)),
            Some(other) => errors.at(
                &o.expr,
                format!(
                    "an output is a scalar or a 3-vector, found {}",
                    other.type_name()
                ),
            ),
            None => {}
        }
    }
    out
}

/// `OutputInfo { name, len, evaluate }` per named output.
pub fn output_infos(model: &JointModel) -> Vec<TokenStream> {
    let core = &model.core;
    // lengths: lowered again cheaply (outputs are few), in a graph of free markers
    let mut g = Graph::new();
    let kin = [
        marker_level::free(&mut g, "m0_"),
        marker_level::free(&mut g, "m1_"),
    ];
    let params = parameter_values(&mut g, model);
    let mut lw = Lowerer::new(&mut g, model, &kin, params);
    let mut scratch = Errors::new();
    model
        .outputs
        .iter()
        .filter_map(|o| {
            let len = match lw.lower(&o.expr, &mut scratch)?.value {
                Value::Scalar(_) => 1usize,
                Value::Vector(_) => 3,
                _ => return None,
            };
            let n = o.name.to_string();
            let f = ident(&format!("output_{n}_slices"));
            let len = lit(len);
            Some(quote!(#core::OutputInfo { name: #n, len: #len, evaluate: marker_level::#f }))
        })
        .collect()
}
