//! What a definition with errors expands to, besides the errors (thiserror's habit): the joint's
//! type, its `Joint` implementation and its module with `ROWS`, `Parameters`, `DEFINITION`, the
//! marker-level kernels and the typed functions of its pairings, with bodies that cannot run.
//! Uses of the joint then resolve, and the user sees the one error that matters.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Ident, Visibility};

use super::{module_name, pairing, pairings, parameters};
use crate::codegen::util::{ident, lit};
use crate::definition::errors::Errors;
use crate::definition::model::JointModel;

/// The errors and the stub of joint `name`; `model` is the definition as far as it was checked
/// (`None` if it could not be built: then the module has no rows and no pairings).
pub fn stub(
    errors: Errors,
    vis: &Visibility,
    name: &Ident,
    core: &TokenStream,
    model: Option<&JointModel>,
) -> TokenStream {
    let errs = errors.into_compile_errors();
    let module = ident(&module_name(&name.to_string()));
    let name_str = name.to_string();
    let module_str = module_name(&name_str);
    let rows = model.map_or(0, |m| m.axes.len());
    let rows_lit = lit(rows);
    let (params, pairing_modules) = match model {
        Some(m) => (
            parameters::definition(m),
            pairings(m)
                .into_iter()
                .map(|k| pairing::stub_module(m, k))
                .collect(),
        ),
        None => (unknown_parameters(core, "joint"), Vec::new()),
    };
    // the rows' and outputs' names as far as the definition was read, so that their uses resolve
    let names = model.map(|m| super::name_modules(m, true));
    let false_list = vec![quote!(false); rows];
    let empty_list = vec![quote!(""); rows];
    let scalar_functions = crate::codegen::util::scalar_functions(core);
    quote! {
        #errs

        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        #vis struct #name;

        impl #core::Joint for #name {
            type Parameters = #module::Parameters;
            const DEFINITION: &'static #core::JointDefinition = &#module::DEFINITION;
        }

        #[allow(dead_code, unused, clippy::all)]
        #vis mod #module {
            pub const ROWS: usize = #rows_lit;
            pub const AXES: [&str; #rows_lit] = [#(#empty_list),*];
            pub const DEFAULT_CONSTRAINED_AXES: [bool; #rows_lit] = [#(#false_list),*];

            #names

            #params

            pub static DEFINITION: #core::JointDefinition = #core::JointDefinition {
                name: #name_str,
                module: #module_str,
                doc: "",
                markers: [
                    #core::MarkerDeclaration { name: "m0", capability: #core::Capability::Position, kinds: &[] },
                    #core::MarkerDeclaration { name: "m1", capability: #core::Capability::Position, kinds: &[] },
                ],
                parameters: &[],
                states: &[],
                axes: &AXES,
                default_constrained_axes: &DEFAULT_CONSTRAINED_AXES,
                outputs: &[],
                pairings: &[],
                marker_level: marker_level::KERNELS,
                level: #core::ResidualLevel::Position,
                position_text: ::core::option::Option::None,
                velocity_text: ::core::option::Option::None,
                second_order: false,
            };

            pub static PAIRINGS: [&#core::Pairing; 0] = [];

            pub fn pairing(_k0: #core::MarkerKind, _k1: #core::MarkerKind) -> ::core::option::Option<&'static #core::Pairing> {
                ::core::option::Option::None
            }

            pub mod marker_level {
                #scalar_functions
                fn none(_: &[f64], _: &#core::MarkerQuantities, _: &#core::MarkerQuantities, _: &mut [f64]) -> ::core::option::Option<()> {
                    ::core::option::Option::None
                }
                fn none_lambda(_: &[f64], _: &[f64], _: &#core::MarkerQuantities, _: &#core::MarkerQuantities, _: &mut [f64]) -> ::core::option::Option<()> {
                    ::core::option::Option::None
                }
                pub const KERNELS: #core::MarkerLevel = #core::MarkerLevel {
                    position_residual: none,
                    velocity_residual: none,
                    jacobian: none,
                    position_jacobian: none,
                    reaction_forces: none_lambda,
                    position_residual_and_reaction_forces: #core::MarkerLevel::NO_POSITION_RESIDUAL_AND_REACTION_FORCES,
                    second_order: ::core::option::Option::None,
                };
            }

            #(#pairing_modules)*
        }
    }
}

/// The `Parameters` of a definition too broken to know its parameters: empty, never built from
/// values. `what`: "joint" or "force element".
pub(crate) fn unknown_parameters(core: &TokenStream, what: &str) -> TokenStream {
    let doc = format!(" The {what}'s run-time parameters (its definition has errors).");
    quote! {
        #[doc = #doc]
        #[derive(Clone, Copy, Debug, Default, PartialEq)]
        pub struct Parameters {}

        impl #core::JointParameters for Parameters {
            const LEN: usize = 0;
            fn to_values(&self) -> #core::__private::alloc::vec::Vec<f64> {
                #core::__private::alloc::vec::Vec::new()
            }
            fn from_values(_values: &[f64]) -> ::core::option::Option<Self> {
                ::core::option::Option::None
            }
        }
    }
}
