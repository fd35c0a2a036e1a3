//! The marker-level kernels of a joint — its default form: residuals as functions of the two
//! markers' quantities (`joint_core::MarkerQuantities`) and their derivatives by them, which a
//! runtime composes with any marker's own kinematics (`joint_core::MarkerLevel`), and the
//! joint's named outputs. Their code does not depend on the marker kinds. Lowering the
//! definition here is also where its errors are reported (once, whatever the pairings).

mod function;

use proc_macro2::TokenStream;
use quote::quote;
use std::collections::HashMap;

use super::{Lowered, lower_with, parameter_derivatives};
use crate::codegen::util::{ident, lit, used_variables};
use crate::definition::errors::Errors;
use crate::definition::lower::{Lowerer, parameter_values};
use crate::definition::model::JointModel;
use crate::definition::value::Value;
use crate::kinematics::marker_level;
use crate::symbolic::diff::{derivative_memo, weighted_gradient};
use crate::symbolic::{Graph, Id};

pub(crate) use function::bind_quantities;
use function::{Function, Reads, Shape, emit_function};

/// `let m0_p0 = m0.position[0];` … for the used quantities, and the markers' argument names
/// (`_m0` if unused): the force elements' binding.
pub(crate) fn bind(
    used: &std::collections::BTreeSet<String>,
) -> (Vec<TokenStream>, [TokenStream; 2]) {
    bind_quantities(used, false)
}

/// Every output of the marker-level kernels, as roots of the lowered graph.
struct Roots {
    /// ∂ṙ/∂(v, ω), ordered marker, variable (v0..v2, ω0..ω2), row.
    jacobian: Vec<Id>,
    /// ∂g/∂p (3) then ∂g/∂A (9), per marker, per row (empty at velocity level).
    position_jacobian: Vec<Id>,
    /// (∂ṙ/∂v_i)ᵀλ and (∂ṙ/∂ω_i)ᵀλ: force 0, torque 0, force 1, torque 1.
    reaction: Vec<Id>,
    /// With `second_order`: the Jacobian rows' rate along the markers' rates.
    rate: Vec<Id>,
    /// With `second_order`: the reaction by (p_j, A_j), per (i, j): force by p (3 × 3), by A
    /// (3 × 9), torque by p, by A.
    reaction_q: Vec<Id>,
    /// With `parameter_derivatives`: ∂g/∂p by the joint's parameters, rows × parameters.
    parameter: Vec<Id>,
}

/// A marker's position and rotation-matrix variables (the free kinematics' own).
fn pose_variables(kin: &crate::kinematics::Kinematics) -> [Id; 12] {
    let r = kin.rotation.expect("free markers have a rotation");
    let mut out = [Id(0); 12];
    out[..3].copy_from_slice(&kin.position);
    out[3..].copy_from_slice(r.as_flattened());
    out
}

/// Derivatives of `exprs` by `vars`: per var, per expr (one memo per var).
fn gradients(g: &mut Graph, exprs: &[Id], vars: &[Id]) -> Vec<Vec<Id>> {
    vars.iter()
        .map(|&x| {
            let mut memo = HashMap::new();
            exprs
                .iter()
                .map(|&e| derivative_memo(g, e, x, &mut memo))
                .collect()
        })
        .collect()
}

fn roots(lowered: &mut Lowered, model: &JointModel) -> Roots {
    let rows = model.axes.len();
    let position_level = model.position.is_some();
    let second_order = model.second_order;
    let g = &mut lowered.graph;
    let kin = &lowered.kin;
    let mut jacobian = Vec::new();
    for k in kin {
        for by_var in gradients(g, &lowered.jacobian_rows, &k.velocities) {
            jacobian.extend(by_var);
        }
    }
    let pose = [pose_variables(&kin[0]), pose_variables(&kin[1])];
    let mut position_jacobian = Vec::new();
    if position_level {
        for p in &pose {
            let by_var = gradients(g, &lowered.position, p);
            for r in 0..rows {
                position_jacobian.extend(by_var.iter().map(|d| d[r]));
            }
        }
    }
    let mut rate = Vec::new();
    if second_order && position_level {
        // Σ_x ∂ṙ/∂x·ẋ over p, A, v, ω of both markers, the rates free variables
        let mut terms = vec![Vec::new(); rows];
        for (i, k) in kin.iter().enumerate() {
            let r = marker_level::rates(g, &format!("m{i}_"));
            let vars: Vec<(Id, Id)> = pose[i]
                .iter()
                .copied()
                .zip(r.position.into_iter().chain(r.rotation))
                .chain(
                    k.velocities
                        .iter()
                        .copied()
                        .zip(r.velocity.into_iter().chain(r.angular_velocity)),
                )
                .collect();
            for (x, dx) in vars {
                let mut memo = HashMap::new();
                for (row, t) in lowered.jacobian_rows.iter().zip(&mut terms) {
                    let d = derivative_memo(g, *row, x, &mut memo);
                    t.push(g.mul(d, dx));
                }
            }
        }
        rate = terms.iter().map(|t| g.sum(t)).collect();
    }
    // the multipliers' reaction last but for its derivatives: every kernel before it emits
    // as it would without it
    let lambda: Vec<Id> = (0..rows).map(|r| g.var(&format!("lambda_{r}"))).collect();
    let velocities: Vec<Id> = kin.iter().flat_map(|k| k.velocities.clone()).collect();
    let reaction = weighted_gradient(g, &lowered.jacobian_rows, &lambda, &velocities);
    let mut reaction_q = Vec::new();
    if second_order && position_level {
        let by_pose = [
            gradients(g, &reaction, &pose[0]),
            gradients(g, &reaction, &pose[1]),
        ];
        for i in 0..2 {
            for by in &by_pose {
                // force rows 6i..6i+3, torque rows 6i+3..6i+6; columns p (3) then A (9)
                for (first, columns) in [(0, 0..3), (0, 3..12), (3, 0..3), (3, 3..12)] {
                    let start = 6 * i + first;
                    reaction_q.extend(
                        (start..start + 3).flat_map(|row| columns.clone().map(move |c| by[c][row])),
                    );
                }
            }
        }
    }
    // ∂g/∂p last: no runtime calls it, and every kernel before it emits as it would without
    let mut parameter = Vec::new();
    if model.parameter_derivatives && position_level {
        let columns: Vec<String> = parameter_derivatives::joint_columns(model)
            .into_iter()
            .map(|(var, _)| var)
            .collect();
        parameter = parameter_derivatives::table(g, &lowered.position, &columns);
    }
    Roots {
        jacobian,
        position_jacobian,
        reaction,
        rate,
        reaction_q,
        parameter,
    }
}

/// The velocity level's marker-level Jacobian must not depend on the markers' velocities: then
/// ṙ is linear in them, and so in every kind's coordinate velocities.
fn check_linear(model: &JointModel, g: &Graph, jacobian: &[Id], errors: &mut Errors) {
    use crate::kinematics::marker_level::{ANGULAR_VELOCITY, VELOCITY};
    let used = used_variables(g, jacobian);
    let quantity = |name: &str| -> Option<String> {
        (0..2).find_map(|i| {
            let fields = [
                ("velocity", &VELOCITY),
                ("angular_velocity", &ANGULAR_VELOCITY),
            ];
            fields.iter().find_map(|(field, names)| {
                let k = names.iter().position(|n| name == format!("m{i}_{n}"))?;
                Some(format!("m{i}.{field}[{k}]"))
            })
        })
    };
    if let Some(q) = used.iter().find_map(|n| quantity(n)) {
        errors.push(syn::Error::new_spanned(
            model.velocity.as_ref().unwrap_or(model.written()),
            format!(
                "the velocity-level residual is not linear in the markers' velocities (its Jacobian depends on `{q}`)"
            ),
        ));
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
    let position_level = model.position.is_some();
    let r = roots(&mut lowered, model);
    check_linear(model, &lowered.graph, &r.jacobian, errors);
    if !errors.is_empty() {
        return quote!();
    }
    let g = &lowered.graph;
    let residual_and_reaction: Vec<Id> = lowered
        .position
        .iter()
        .chain(&r.reaction)
        .copied()
        .collect();
    let parameter_doc = parameter_jacobian_doc(model);
    let functions = kernel_functions(model, &lowered, &r, &residual_and_reaction, &parameter_doc);
    let plain = Reads::default();
    let mut tokens: Vec<TokenStream> = functions
        .iter()
        .map(|f| emit_function(model, g, rows, f))
        .collect();
    for (name, roots) in &outputs {
        let doc = format!("The joint's output `{name}`.");
        let fname = format!("output_{name}");
        tokens.push(emit_function(
            model,
            g,
            rows,
            &Function {
                name: &fname,
                doc: &doc,
                roots,
                reads: plain,
                shape: Shape::Array(roots.len()),
            },
        ));
    }
    let kernels = kernels_const(core, position_level, !r.rate.is_empty());
    let scalar_functions = crate::codegen::util::scalar_functions(core);
    quote! {
        /// The joint at marker level — its default form, for any marker: residuals as functions
        /// of the two markers' quantities and their derivatives by them, which a runtime
        /// composes with the markers' own kinematics (`joint_core::MarkerLevel`), and the
        /// joint's named outputs.
        pub mod marker_level {
            #scalar_functions
            #kernels

            #[inline]
            fn store_reaction(r: &#core::MarkerLevelReaction, out: &mut [f64; 12]) {
                out[..3].copy_from_slice(&r.force[0]);
                out[3..6].copy_from_slice(&r.torque[0]);
                out[6..9].copy_from_slice(&r.force[1]);
                out[9..].copy_from_slice(&r.torque[1]);
            }

            #(#tokens)*
        }
    }
}

/// The marker-level kernels of a lowered definition, in the module's order.
fn kernel_functions<'a>(
    model: &JointModel,
    lowered: &'a Lowered,
    r: &'a Roots,
    residual_and_reaction: &'a [Id],
    parameter_doc: &'a str,
) -> Vec<Function<'a>> {
    let rows = model.axes.len();
    let position_level = model.position.is_some();
    let plain = Reads::default();
    let with_lambda = Reads {
        lambda: true,
        rates: false,
    };
    let mut functions: Vec<Function> = Vec::new();
    if position_level {
        functions.push(Function {
            name: "position_residual",
            doc: "Position-level residual.",
            roots: &lowered.position,
            reads: plain,
            shape: Shape::Array(rows),
        });
    }
    functions.push(Function {
        name: "velocity_residual",
        doc: "Velocity-level residual.",
        roots: &lowered.velocity,
        reads: plain,
        shape: Shape::Array(rows),
    });
    functions.push(Function {
        name: "jacobian",
        doc: "∂ṙ/∂v and ∂ṙ/∂ω: the Jacobian rows (the velocity level with rotations turning by \
              their global angular velocity) by the markers' velocities and angular velocities.",
        roots: &r.jacobian,
        reads: plain,
        shape: Shape::Jacobian,
    });
    if position_level {
        functions.push(Function {
            name: "position_jacobian",
            doc: "∂g/∂p and ∂g/∂A: the position level by the markers' positions and rotation \
                  matrices.",
            roots: &r.position_jacobian,
            reads: plain,
            shape: Shape::PositionJacobian,
        });
    }
    functions.push(Function {
        name: "reaction_forces",
        doc: "The rows' multipliers λ through the Jacobian: per marker a force at its point, \
              (∂ṙ/∂v)ᵀλ, and a torque on its frame, (∂ṙ/∂ω)ᵀλ.",
        roots: &r.reaction,
        reads: with_lambda,
        shape: Shape::Reaction,
    });
    if position_level {
        functions.push(Function {
            name: "position_residual_and_reaction_forces",
            doc: "[`position_residual`] and [`reaction_forces`] at the same quantities, their \
                  common subexpressions computed once.",
            roots: residual_and_reaction,
            reads: with_lambda,
            shape: Shape::RowsAndReaction,
        });
    }
    if !r.rate.is_empty() {
        functions.push(Function {
            name: "velocity_residual_rate",
            doc: "The Jacobian rows' rate along the markers' rates at constant quantities \
                  otherwise: (∂(C_q·v)/∂q)·v once composed with the markers' kinematics.",
            roots: &r.rate,
            reads: Reads {
                lambda: false,
                rates: true,
            },
            shape: Shape::Array(rows),
        });
        functions.push(Function {
            name: "reaction_forces_q",
            doc: "[`reaction_forces`] by the markers' positions and rotation matrices at \
                  constant λ: the geometric stiffness ∂(C_qᵀλ)/∂q once composed.",
            roots: &r.reaction_q,
            reads: with_lambda,
            shape: Shape::ReactionQ,
        });
    }
    if !r.parameter.is_empty() {
        functions.push(Function {
            name: "parameter_jacobian",
            doc: parameter_doc,
            roots: &r.parameter,
            reads: plain,
            shape: Shape::Table(r.parameter.len() / rows),
        });
    }
    functions
}

/// The doc comment of the marker level's `parameter_jacobian`: its columns.
fn parameter_jacobian_doc(model: &JointModel) -> String {
    let names: Vec<String> = parameter_derivatives::joint_columns(model)
        .into_iter()
        .map(|(_, doc)| doc)
        .collect();
    format!(
        "∂g/∂p: the position level by the joint's parameters, one row per residual row, one \
         column per value of their flat layout: {}.",
        parameter_derivatives::columns_doc(&names)
    )
}

/// `KERNELS`, the marker-level kernels behind the type-erased interface.
fn kernels_const(core: &TokenStream, position_level: bool, second_order: bool) -> TokenStream {
    let (position_residual, position_jacobian, fused) = if position_level {
        (
            quote!(position_residual_slices),
            quote!(position_jacobian_slices),
            quote!(position_residual_and_reaction_forces_slices),
        )
    } else {
        (
            quote!(#core::MarkerLevel::NO_POSITION_RESIDUAL),
            quote!(#core::MarkerLevel::NO_POSITION_JACOBIAN),
            quote!(#core::MarkerLevel::NO_POSITION_RESIDUAL_AND_REACTION_FORCES),
        )
    };
    let second_order = if second_order {
        quote!(::core::option::Option::Some(#core::MarkerLevelSecondOrder {
            velocity_residual_rate: velocity_residual_rate_slices,
            reaction_forces_q: reaction_forces_q_slices,
        }))
    } else {
        quote!(::core::option::Option::None)
    };
    quote! {
        /// The marker-level kernels behind the type-erased interface.
        pub const KERNELS: #core::MarkerLevel = #core::MarkerLevel {
            position_residual: #position_residual,
            velocity_residual: velocity_residual_slices,
            jacobian: jacobian_slices,
            position_jacobian: #position_jacobian,
            reaction_forces: reaction_forces_slices,
            position_residual_and_reaction_forces: #fused,
            second_order: #second_order,
        };
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
