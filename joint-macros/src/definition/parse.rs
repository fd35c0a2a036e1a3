//! The grammar of a joint definition.
//!
//! ```text
//! joint! {
//!     /// Documentation of the joint.
//!     pub joint Spherical {
//!         marker m0: Position;
//!         marker m1: Position;
//!         axes [x = 1, y = 1, z = 1];        // residual rows, default of the run-time mask
//!         position = m1.position - m0.position;
//!         velocity = m1.velocity - m0.velocity;
//!     }
//! }
//! ```
//!
//! Residual expressions are ordinary Rust expression syntax (parsed by syn) over marker
//! quantities: `position`, `velocity`, `rotation`, `angular_velocity`,
//! `angular_velocity_local`; with `+ − *`, unary `−`, parentheses, literals, indexing `v[i]`, and
//! the functions `dot`, `cross`, `transpose`, `norm`, `sqrt`, `sin`, `cos`, and `[a, b, …]` to
//! list scalar rows.

use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::{Attribute, Expr, Ident, LitInt, Token, Visibility, braced, bracketed};

mod kw {
    syn::custom_keyword!(joint);
    syn::custom_keyword!(marker);
    syn::custom_keyword!(axes);
    syn::custom_keyword!(position);
    syn::custom_keyword!(velocity);
    syn::custom_keyword!(param);
}

pub struct JointInput {
    pub attrs: Vec<Attribute>,
    pub vis: Visibility,
    pub name: Ident,
    pub items: Vec<Item>,
}

pub enum Item {
    Marker {
        name: Ident,
        capability: Ident,
    },
    /// `param name: scalar | vector | matrix;` — a constant given at run time.
    Param {
        name: Ident,
        kind: Ident,
    },
    Axes {
        span_token: kw::axes,
        axes: Vec<AxisDecl>,
    },
    Position {
        token: kw::position,
        expr: Expr,
    },
    Velocity {
        token: kw::velocity,
        expr: Expr,
    },
}

pub struct AxisDecl {
    pub name: Ident,
    pub default: Option<LitInt>,
}

impl Parse for JointInput {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let attrs = input.call(Attribute::parse_outer)?;
        let vis: Visibility = input.parse()?;
        input.parse::<kw::joint>()?;
        let name: Ident = input.parse()?;
        let body;
        braced!(body in input);
        let mut items = Vec::new();
        while !body.is_empty() {
            items.push(body.parse()?);
        }
        Ok(JointInput {
            attrs,
            vis,
            name,
            items,
        })
    }
}

impl Parse for Item {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let look = input.lookahead1();
        let item = if look.peek(kw::marker) {
            input.parse::<kw::marker>()?;
            let name: Ident = input.parse()?;
            input.parse::<Token![:]>()?;
            let capability: Ident = input.parse()?;
            Item::Marker { name, capability }
        } else if look.peek(kw::param) {
            input.parse::<kw::param>()?;
            let name: Ident = input.parse()?;
            input.parse::<Token![:]>()?;
            let kind: Ident = input.parse()?;
            Item::Param { name, kind }
        } else if look.peek(kw::axes) {
            let span_token: kw::axes = input.parse()?;
            let content;
            bracketed!(content in input);
            let list: Punctuated<AxisDecl, Token![,]> =
                content.parse_terminated(AxisDecl::parse, Token![,])?;
            Item::Axes {
                span_token,
                axes: list.into_iter().collect(),
            }
        } else if look.peek(kw::position) {
            let token: kw::position = input.parse()?;
            input.parse::<Token![=]>()?;
            Item::Position {
                token,
                expr: input.parse()?,
            }
        } else if look.peek(kw::velocity) {
            let token: kw::velocity = input.parse()?;
            input.parse::<Token![=]>()?;
            Item::Velocity {
                token,
                expr: input.parse()?,
            }
        } else {
            return Err(look.error());
        };
        input.parse::<Token![;]>()?;
        Ok(item)
    }
}

impl Parse for AxisDecl {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let name: Ident = input.parse()?;
        let default = if input.peek(Token![=]) {
            input.parse::<Token![=]>()?;
            Some(input.parse()?)
        } else {
            None
        };
        Ok(AxisDecl { name, default })
    }
}
