//! The `MarkerKind` and `Capability` types of `joint_core`, emitted from the compiler's own
//! tables (`kinematics::MarkerKind`), so that the kinds generated kernels are built for and the
//! kinds a runtime resolves its markers to are one list.

use proc_macro2::TokenStream;
use quote::quote;

use super::util::{ident, lit};
use crate::kinematics::{Capability, MarkerKind};

pub fn expand() -> TokenStream {
    let variants: Vec<TokenStream> = MarkerKind::ALL
        .iter()
        .enumerate()
        .map(|(i, k)| {
            let v = ident(k.name());
            let doc = format!(" {}.", k.description());
            let i = lit(i);
            quote!(#[doc = #doc] #v = #i,)
        })
        .collect();
    let all: Vec<TokenStream> = MarkerKind::ALL
        .iter()
        .map(|k| {
            let v = ident(k.name());
            quote!(MarkerKind::#v)
        })
        .collect();
    let n = lit(MarkerKind::ALL.len());
    let arm = |f: &dyn Fn(MarkerKind) -> TokenStream| -> Vec<TokenStream> {
        MarkerKind::ALL
            .iter()
            .map(|&k| {
                let v = ident(k.name());
                let value = f(k);
                quote!(MarkerKind::#v => #value,)
            })
            .collect()
    };
    let names = arm(&|k| {
        let s = k.name();
        quote!(#s)
    });
    let snake = arm(&|k| {
        let s = k.snake_name();
        quote!(#s)
    });
    let descriptions = arm(&|k| {
        let s = k.description();
        quote!(#s)
    });
    let coordinates = arm(&|k| {
        let s = k.coordinate_names();
        quote!(&[#(#s),*])
    });
    let parameters = arm(&|k| {
        let s = k.parameter_names();
        quote!(&[#(#s),*])
    });
    let orientation = arm(&|k| {
        let b = k.has_orientation();
        quote!(#b)
    });
    let coordinate = arm(&|k| {
        let b = k.is_coordinate();
        quote!(#b)
    });
    let _ = Capability::Coordinate;
    quote! {
        /// What a joint requires of a marker.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Capability {
            /// Position and velocity.
            Position,
            /// Position, velocity, rotation matrix and angular velocity.
            Rigid,
            /// One scalar coordinate (a displacement) and its velocity.
            Coordinate,
        }

        /// A marker kind of the compiler: what a joint kernel sees of a marker (which
        /// coordinates it depends on, which constant parameters it carries). Every pairing of a
        /// joint is generated for two kinds.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        pub enum MarkerKind {
            #(#variants)*
        }

        impl MarkerKind {
            /// Every kind, in the compiler's canonical order ([`MarkerKind::index`]).
            pub const ALL: [MarkerKind; #n] = [#(#all),*];

            /// The kind's position in [`MarkerKind::ALL`].
            pub const fn index(self) -> usize {
                self as usize
            }

            /// `RigidEpPoint`
            pub const fn name(self) -> &'static str {
                match self { #(#names)* }
            }

            /// `rigid_ep_point`: the kind's part of a pairing module's name.
            pub const fn snake_name(self) -> &'static str {
                match self { #(#snake)* }
            }

            /// The Exudyn markers of this kind and its position formula.
            pub const fn description(self) -> &'static str {
                match self { #(#descriptions)* }
            }

            /// Names of the node coordinates a kernel reads (total values, in the node's order);
            /// the velocities are their time derivatives, in the same order.
            pub const fn coordinate_names(self) -> &'static [&'static str] {
                match self { #(#coordinates)* }
            }

            /// Names of the kind's constant parameters, in argument order.
            pub const fn parameter_names(self) -> &'static [&'static str] {
                match self { #(#parameters)* }
            }

            /// Number of node coordinates a kernel reads.
            pub const fn coordinate_count(self) -> usize {
                self.coordinate_names().len()
            }

            /// Number of the kind's constant parameters.
            pub const fn parameter_count(self) -> usize {
                self.parameter_names().len()
            }

            /// Whether the kind has a rotation matrix and an angular velocity.
            pub const fn has_orientation(self) -> bool {
                match self { #(#orientation)* }
            }

            /// Whether the kind gives one scalar coordinate instead of a position.
            pub const fn is_coordinate(self) -> bool {
                match self { #(#coordinate)* }
            }

            /// Whether the kind gives what `capability` requires.
            pub const fn provides(self, capability: Capability) -> bool {
                match capability {
                    Capability::Position => !self.is_coordinate(),
                    Capability::Rigid => self.has_orientation(),
                    Capability::Coordinate => self.is_coordinate(),
                }
            }

            /// The kind named `name` (`RigidEpPoint`).
            pub fn from_name(name: &str) -> ::core::option::Option<MarkerKind> {
                Self::ALL.into_iter().find(|k| k.name() == name)
            }
        }
    }
}
