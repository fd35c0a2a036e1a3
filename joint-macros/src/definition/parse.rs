//! The grammar of a joint definition (the public reference is the `joint` crate's documentation
//! of `joint!`; this is its parser).
//!
//! ```text
//! input     := ("crate" "=" PATH ";")? function* (joint | force)+
//! joint     := ATTR* VIS "joint" NAME "{" item* "}"
//! force     := ATTR* VIS "force" NAME "{" item* "}"
//! item      := "marker" NAME ":" CAPABILITY ("(" KIND ("," KIND)* ")")? ";"
//!            | "param" NAME ":" ("scalar" | "vector" | "matrix") ";"
//!            | "axes" "[" NAME ("=" 0|1)? ("," NAME ("=" 0|1)?)* "]" ";"
//!            | "second_order" ";"
//!            | "parameter_derivatives" ";"
//!            | function
//!            | "let" NAME "=" EXPR ";"
//!            | "state" NAME "=" EXPR ";"
//!            | "position" "=" EXPR ";"
//!            | "velocity" "=" EXPR ";"
//!            | "output" NAME "=" EXPR ";"
//!            | "force" "=" EXPR ";"                  (force elements only)
//! function  := "fn" NAME "(" NAME ("," NAME)* ")" "=" EXPR ";"
//! ```
//!
//! Expressions are ordinary Rust expression syntax (parsed by syn) over marker quantities
//! (`m0.position`, `m0.velocity`, `m0.rotation`, `m0.angular_velocity`,
//! `m0.angular_velocity_local`), parameters, `let` bindings and function parameters; with
//! `+ − * /`, unary `−`, parentheses, literals, indexing `v[i]`, the built-in functions `dot`,
//! `cross`, `transpose`, `col`, `norm`, `sqrt`, `sin`, `cos`, `atan2`, `unwrap_angle`, `last`
//! (of a state) and `angle` (a state's whole value), calls of the definition's own
//! functions, `[a, b, …]` to list scalar rows, and `if a > b { x } else { y }` (`<`, `>`, `<=`,
//! `>=` between scalars) for a piecewise value.

use proc_macro2::TokenStream;
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::{Attribute, Expr, Ident, LitInt, Token, Visibility, braced, bracketed, parenthesized};

pub(crate) mod kw {
    syn::custom_keyword!(joint);
    syn::custom_keyword!(marker);
    syn::custom_keyword!(axes);
    syn::custom_keyword!(position);
    syn::custom_keyword!(velocity);
    syn::custom_keyword!(param);
    syn::custom_keyword!(output);
    syn::custom_keyword!(second_order);
    syn::custom_keyword!(parameter_derivatives);
    syn::custom_keyword!(force);
    syn::custom_keyword!(torque);
    syn::custom_keyword!(state);
}

/// A whole `joint!` input: functions shared by its joints, then the joints.
pub struct JointFile {
    /// The path of the `joint_core` crate (`crate = $crate::…;`, given by re-exporting macros),
    /// kept as tokens: `$crate` is not a path syn parses.
    pub core_path: Option<TokenStream>,
    pub functions: Vec<FunctionDef>,
    pub joints: Vec<JointInput>,
}

/// What a definition defines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DefinitionKind {
    /// `pub joint Name { … }`: constraint rows.
    Joint,
    /// `pub force Name { … }`: a force between the two markers.
    Force,
}

pub struct JointInput {
    pub attrs: Vec<Attribute>,
    pub vis: Visibility,
    pub kind: DefinitionKind,
    pub name: Ident,
    pub items: Vec<Item>,
}

/// `fn NAME(a, b, …) = EXPR;`: a function of the definition, expanded where it is called.
#[derive(Clone)]
pub struct FunctionDef {
    pub name: Ident,
    pub params: Vec<Ident>,
    pub body: Expr,
}

/// The kinds a marker lists for unrolled pairings.
pub enum KindList {
    /// `Rigid(..)`: every kind with the capability.
    All(Token![..]),
    /// `Rigid(GroundPoint, RigidEpPoint)`.
    Listed(Vec<Ident>),
}

pub enum Item {
    /// `marker m0: Rigid;` (the marker-level form, any kind), or `marker m0:
    /// Rigid(RigidEpPoint, GroundPoint);` / `Rigid(..)` (unrolled pairings for those kinds).
    Marker {
        name: Ident,
        capability: Ident,
        kinds: Option<KindList>,
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
    /// `second_order;`: also emit ∂(C_q v)/∂q and ∂(C_qᵀλ)/∂q per pairing.
    SecondOrder {
        token: kw::second_order,
    },
    /// `parameter_derivatives;`: also emit ∂g/∂p by the joint's parameters and by the markers'
    /// parameters per pairing, and ∂g/∂p at marker level.
    ParameterDerivatives {
        token: kw::parameter_derivatives,
    },
    Function(FunctionDef),
    /// `let NAME = EXPR;`
    Let {
        token: Token![let],
        name: Ident,
        expr: Expr,
    },
    /// `state NAME = EXPR;`: a binding whose value at each converged step is kept for the
    /// next (`last(NAME)`).
    State {
        token: kw::state,
        name: Ident,
        expr: Expr,
    },
    Position {
        token: kw::position,
        expr: Expr,
    },
    Velocity {
        token: kw::velocity,
        expr: Expr,
    },
    /// `output NAME = EXPR;`: a named output of the joint (scalar or 3-vector).
    Output {
        token: kw::output,
        name: Ident,
        expr: Expr,
    },
    /// `force = EXPR;`: a force element's force on marker 0 (global; marker 1 receives its
    /// negative).
    Force {
        token: kw::force,
        expr: Expr,
    },
    /// `torque = EXPR;`: a force element's torque on marker 0 (global; marker 1 receives its
    /// negative), between two `Rigid` markers.
    Torque {
        token: kw::torque,
        expr: Expr,
    },
}

pub struct AxisDecl {
    pub name: Ident,
    pub default: Option<LitInt>,
}

impl Parse for JointFile {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let core_path = if input.peek(Token![crate]) && input.peek2(Token![=]) {
            input.parse::<Token![crate]>()?;
            input.parse::<Token![=]>()?;
            let mut path = TokenStream::new();
            while !input.peek(Token![;]) {
                if input.is_empty() {
                    return Err(input.error("expected `;` after `crate = path`"));
                }
                let tt: proc_macro2::TokenTree = input.parse()?;
                path.extend([tt]);
            }
            input.parse::<Token![;]>()?;
            Some(path)
        } else {
            None
        };
        let mut functions = Vec::new();
        let mut joints = Vec::new();
        while !input.is_empty() {
            // doc comments document a function for the reader of the definition only
            let attrs = input.call(Attribute::parse_outer)?;
            if input.peek(Token![fn]) {
                if !joints.is_empty() {
                    return Err(input.error("shared functions come before the joints"));
                }
                functions.push(parse_function(input)?);
            } else {
                joints.push(parse_joint(input, attrs)?);
            }
        }
        if joints.is_empty() {
            return Err(input.error(
                "expected a joint or a force element: `pub joint Name { … }`, `pub force Name { … }`",
            ));
        }
        Ok(JointFile {
            core_path,
            functions,
            joints,
        })
    }
}

fn parse_function(input: ParseStream) -> syn::Result<FunctionDef> {
    input.parse::<Token![fn]>()?;
    let name: Ident = input.parse()?;
    let content;
    parenthesized!(content in input);
    let params: Punctuated<Ident, Token![,]> = content.parse_terminated(Ident::parse, Token![,])?;
    input.parse::<Token![=]>()?;
    let body: Expr = input.parse()?;
    input.parse::<Token![;]>()?;
    Ok(FunctionDef {
        name,
        params: params.into_iter().collect(),
        body,
    })
}

fn parse_joint(input: ParseStream, attrs: Vec<Attribute>) -> syn::Result<JointInput> {
    {
        let vis: Visibility = input.parse()?;
        let look = input.lookahead1();
        let kind = if look.peek(kw::joint) {
            input.parse::<kw::joint>()?;
            DefinitionKind::Joint
        } else if look.peek(kw::force) {
            input.parse::<kw::force>()?;
            DefinitionKind::Force
        } else {
            return Err(look.error());
        };
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
            kind,
            name,
            items,
        })
    }
}

impl Parse for Item {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        // doc comments on items are for the reader of the definition
        input.call(Attribute::parse_outer)?;
        let look = input.lookahead1();
        if look.peek(Token![fn]) {
            return Ok(Item::Function(parse_function(input)?));
        }
        let item = if look.peek(kw::marker) {
            input.parse::<kw::marker>()?;
            let name: Ident = input.parse()?;
            input.parse::<Token![:]>()?;
            let capability: Ident = input.parse()?;
            let kinds = if input.peek(syn::token::Paren) {
                let content;
                parenthesized!(content in input);
                if content.peek(Token![..]) {
                    Some(KindList::All(content.parse()?))
                } else {
                    let list: Punctuated<Ident, Token![,]> =
                        content.parse_terminated(Ident::parse, Token![,])?;
                    Some(KindList::Listed(list.into_iter().collect()))
                }
            } else {
                None
            };
            Item::Marker {
                name,
                capability,
                kinds,
            }
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
        } else if look.peek(kw::second_order) {
            Item::SecondOrder {
                token: input.parse()?,
            }
        } else if look.peek(kw::parameter_derivatives) {
            Item::ParameterDerivatives {
                token: input.parse()?,
            }
        } else if look.peek(Token![let]) {
            let token: Token![let] = input.parse()?;
            let name: Ident = input.parse()?;
            input.parse::<Token![=]>()?;
            Item::Let {
                token,
                name,
                expr: input.parse()?,
            }
        } else if look.peek(kw::state) {
            let token: kw::state = input.parse()?;
            let name: Ident = input.parse()?;
            input.parse::<Token![=]>()?;
            Item::State {
                token,
                name,
                expr: input.parse()?,
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
        } else if look.peek(kw::force) {
            let token: kw::force = input.parse()?;
            input.parse::<Token![=]>()?;
            Item::Force {
                token,
                expr: input.parse()?,
            }
        } else if look.peek(kw::torque) {
            let token: kw::torque = input.parse()?;
            input.parse::<Token![=]>()?;
            Item::Torque {
                token,
                expr: input.parse()?,
            }
        } else if look.peek(kw::output) {
            let token: kw::output = input.parse()?;
            let name: Ident = input.parse()?;
            input.parse::<Token![=]>()?;
            Item::Output {
                token,
                name,
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
