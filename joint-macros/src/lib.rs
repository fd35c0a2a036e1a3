//! # joint-macros: a compile-time constraint compiler
//!
//! `joint!` reads a declarative joint definition — its two markers and the capability each must
//! provide, its run-time parameters, its residual rows (axes) with their default mask, `let`
//! bindings and functions, and its residual at position level as an expression over marker
//! quantities — and emits straight-line Rust for the residuals, their derivatives by the
//! markers' quantities and, if asked, the second-order terms (the marker level, for any marker),
//! and for the pairs of marker kinds a definition lists, the same specialized per pairing, with
//! the Jacobian blocks by the kinds' coordinates. The velocity level
//! and every derivative are derived symbolically while the macro expands: no hand-written
//! Jacobians, no finite differences, no run-time differentiation.
//!
//! Use it through `joint_core::joint!` (or the `joint` crate's `joint!`), which points its
//! output at the `joint_core` types wherever it is invoked; the language, what it generates and
//! a walk-through are in the `joint` crate's documentation.
//!
//! ```
//! joint_core::joint! {
//!     /// Exudyn's ObjectJointSpherical.
//!     pub joint Spherical {
//!         marker m0: Position;
//!         marker m1: Position;
//!         axes [x = 1, y = 1, z = 1];
//!         position = m1.position - m0.position;
//!     }
//! }
//! assert_eq!(spherical::ROWS, 3);
//! ```
//!
//! `marker_kinematics!()` emits the kinematics of every marker kind on its own (position,
//! velocity, rotation, angular velocity, Jacobians), for loads, sensors and connectors.
//!
//! The crate is a thin shim (pest's layout): the grammar, internal model, checks and lowering
//! (`definition/`), the symbolic engine (`symbolic/`), the marker kinematics (`kinematics/`) and
//! the generators (`codegen/`) are plain Rust modules, unit-tested and snapshot-tested directly;
//! `ARCHITECTURE` notes are in their module documentation.

extern crate proc_macro;

mod codegen;
mod definition;
mod kinematics;
mod symbolic;

#[cfg(test)]
mod tests;

use proc_macro2::TokenStream;

/// Define a joint; see the crate documentation for the grammar.
#[proc_macro]
pub fn joint(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    expand_joint(input.into()).into()
}

/// Emit the `marker_kinematics` module with the kinematics of every built-in marker kind.
#[proc_macro]
pub fn marker_kinematics(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    let input: TokenStream = input.into();
    if !input.is_empty() {
        return syn::Error::new_spanned(input, "marker_kinematics!() takes no arguments")
            .to_compile_error()
            .into();
    }
    codegen::kinematics::expand().into()
}

/// Emit `joint_core`'s `MarkerKind` and `Capability` from the compiler's tables (used by
/// `joint_core` itself).
#[doc(hidden)]
#[proc_macro]
pub fn marker_kind_types(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    let input: TokenStream = input.into();
    if !input.is_empty() {
        return syn::Error::new_spanned(input, "marker_kind_types!() takes no arguments")
            .to_compile_error()
            .into();
    }
    codegen::marker_kinds::expand().into()
}

/// The whole expansion of `joint!`, on proc_macro2 tokens (callable from tests).
pub(crate) fn expand_joint(input: TokenStream) -> TokenStream {
    let file: definition::parse::JointFile = match syn::parse2(input) {
        Ok(p) => p,
        Err(e) => return e.to_compile_error(),
    };
    let core = file
        .core_path
        .clone()
        .unwrap_or_else(|| quote::quote!(::joint_core));
    let mut out = TokenStream::new();
    for joint in file.joints {
        let mut errors = definition::errors::Errors::new();
        let (name, vis) = (joint.name.clone(), joint.vis.clone());
        let kind = joint.kind;
        if definition::coordinate_vector::is_coordinate_vector(&joint) {
            let model = definition::coordinate_vector::CoordinateVectorModel::from_input(
                joint,
                &file.functions,
                file.core_path.clone(),
                &mut errors,
            );
            out.extend(match model {
                Some(m) if errors.is_empty() => codegen::coordinate_vector::expand(&m),
                _ => codegen::coordinate_vector::stub(errors, &vis, &name, &core),
            });
            continue;
        }
        let Some(model) = definition::model::JointModel::from_input(
            joint,
            &file.functions,
            file.core_path.clone(),
            &mut errors,
        ) else {
            out.extend(match kind {
                definition::parse::DefinitionKind::Joint => {
                    codegen::joint::stub(errors, &vis, &name, &core, None)
                }
                definition::parse::DefinitionKind::Force => {
                    codegen::force::stub(errors, &vis, &name, &core, None)
                }
            });
            continue;
        };
        if kind == definition::parse::DefinitionKind::Force {
            let tokens = codegen::force::expand(&model, &mut errors);
            out.extend(if errors.is_empty() {
                tokens
            } else {
                codegen::force::stub(errors, &vis, &name, &core, Some(&model))
            });
            continue;
        }
        let (tokens, _stats) = codegen::joint::expand(&model, &mut errors);
        out.extend(if errors.is_empty() {
            tokens
        } else {
            codegen::joint::stub(errors, &vis, &name, &core, Some(&model))
        });
    }
    out
}
