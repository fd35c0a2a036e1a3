//! Coordinate-vector joints: a definition whose markers are declared `Coordinates` constrains
//! the two markers' whole coordinate vectors, of lengths n0 and n1 known only at run time, with
//! a row count known only at run time. Its residual is a signed sum of terms
//!
//! ```text
//! term := (scalar *)* DMATRIX * element      — Σ_j M_ij·φ(q_j), one marker's coordinates
//!       | (scalar *)* DVECTOR                — v_i
//!       | ( sum )                            — a group, possibly negated
//! element := m.coordinates | m.coordinates_velocity | FUNCTION(element)
//! ```
//!
//! where each element is an elementwise scalar function φ of one marker's coordinates (or their
//! velocities): `square(m1.coordinates)` is `[φ(q_0), φ(q_1), …]` with `fn square(q) = q * q;`.
//! The compiler differentiates φ once and twice symbolically; the Jacobian of a term is then
//! `M·diag(φ'(q))`, its second-order term `M·diag(φ''(q))`, and the generated kernels are loops
//! over the run-time rows and coordinates.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Attribute, BinOp, Expr, Ident, UnOp, Visibility};

use super::errors::Errors;
use super::lower::Lowerer;
use super::model::{JointModel, ParamDecl, ParamKind, ResidualLevel};
use super::parse::{DefinitionKind, FunctionDef, Item, JointInput};
use super::value::{Dual, Value};
use crate::symbolic::diff::derivative;
use crate::symbolic::{Graph, Id};

/// Whether `input` is a coordinate-vector joint (a marker declared `Coordinates`).
pub fn is_coordinate_vector(input: &JointInput) -> bool {
    input.kind == DefinitionKind::Joint
        && input
            .items
            .iter()
            .any(|i| matches!(i, Item::Marker { capability, .. } if capability == "Coordinates"))
}

/// `joint_core::MAX_DYN_PARAMETERS` (this crate does not depend on joint-core; a unit test
/// holds the two equal).
pub const MAX_PARAMETERS: usize = 16;

/// The shape of a parameter of a coordinate-vector joint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DynKind {
    Scalar,
    /// `dvector`: one entry per row.
    Vector,
    /// `dmatrix`: rows × the coordinates of the marker it multiplies.
    Matrix,
}

pub struct DynParam {
    pub name: Ident,
    pub kind: DynKind,
    /// A matrix's marker, found from its use.
    pub marker: Option<usize>,
}

/// The name of the variable an element's φ is a function of (one coordinate).
pub const ELEMENT_VARIABLE: &str = "x";

/// An elementwise function of one marker's coordinates, with its derivatives.
pub struct Element {
    pub marker: usize,
    /// Of the coordinates' velocities (`coordinates_velocity`).
    pub velocity: bool,
    /// φ, φ', φ'' of the variable [`ELEMENT_VARIABLE`].
    pub phi: [Id; 3],
    /// φ is the coordinate itself (the term is a matrix–vector product, summed on its own).
    pub linear: bool,
}

pub enum Term {
    /// `factors · M · φ(q)`.
    Product {
        factors: Vec<Id>,
        matrix: usize,
        element: Element,
    },
    /// `factors · v`.
    Vector { factors: Vec<Id>, vector: usize },
    /// `( … )`.
    Group(Vec<(bool, Term)>),
}

/// A coordinate-vector joint, checked and lowered.
pub struct CoordinateVectorModel {
    pub attrs: Vec<Attribute>,
    pub vis: Visibility,
    pub name: Ident,
    pub core: TokenStream,
    pub markers: [Ident; 2],
    pub params: Vec<DynParam>,
    pub level: ResidualLevel,
    pub written: Expr,
    pub second_order: bool,
    pub graph: Graph,
    /// The residual: signed terms (`true`: subtracted), in the order written.
    pub terms: Vec<(bool, Term)>,
}

impl CoordinateVectorModel {
    /// Check and lower `input`, reporting every problem into `errors`; `None` if it cannot be
    /// generated.
    pub fn from_input(
        input: JointInput,
        shared: &[FunctionDef],
        core: Option<TokenStream>,
        errors: &mut Errors,
    ) -> Option<Self> {
        let mut markers: Vec<Ident> = Vec::new();
        let mut params: Vec<DynParam> = Vec::new();
        let mut functions = shared.to_vec();
        let mut position = None;
        let mut velocity = None;
        let mut second_order = false;
        for item in input.items {
            match item {
                Item::Marker {
                    name,
                    capability,
                    kinds,
                } => coordinates_marker(name, &capability, kinds, &mut markers, &params, errors),
                Item::Param { name, kind } => dyn_param(name, &kind, &markers, &mut params, errors),
                Item::Axes { span_token, .. } => errors.at(
                    span_token,
                    "a joint on `Coordinates` markers has as many rows as its matrices (known at run time): leave out `axes`",
                ),
                Item::SecondOrder { token } => {
                    if std::mem::replace(&mut second_order, true) {
                        errors.at(token, "`second_order` is given twice");
                    }
                }
                Item::ParameterDerivatives { token } => errors.at(
                    token,
                    "`parameter_derivatives` is not generated for joints on `Coordinates` markers: their rows are linear in each run-time matrix, ∂g/∂M_ij = f_j(q) of the row i",
                ),
                Item::Function(f) => functions.push(f),
                Item::Let { token, .. } => errors.at(
                    token,
                    "a joint on `Coordinates` markers has no `let` bindings: its residual is a sum of `matrix * f(m.coordinates)` terms",
                ),
                Item::State { token, .. } => errors.at(
                    token,
                    "a joint on `Coordinates` markers keeps no state: its rows are linear in whole coordinate vectors",
                ),
                Item::Output { token, .. } => errors.at(
                    token,
                    "a joint on `Coordinates` markers has no named outputs (its outputs are Exudyn's: displacement, velocity, constraint equation, λ)",
                ),
                Item::Force { token, .. } => errors.at(
                    token,
                    "`force = …;` belongs to a force element (`pub force Name { … }`)",
                ),
                Item::Torque { token, .. } => errors.at(
                    token,
                    "`torque = …;` belongs to a force element (`pub force Name { … }`)",
                ),
                Item::Position { token, expr } => {
                    if position.replace(expr).is_some() {
                        errors.at(token, "the position-level residual is given twice");
                    }
                }
                Item::Velocity { token, expr } => {
                    if velocity.replace(expr).is_some() {
                        errors.at(token, "the velocity-level residual is given twice");
                    }
                }
            }
        }
        if markers.len() != 2 {
            errors.at(
                &input.name,
                format!(
                    "a joint connects exactly two markers; `{}` declares {}",
                    input.name,
                    markers.len()
                ),
            );
            return None;
        }
        let (level, written) = match (position, velocity) {
            (Some(p), None) => (ResidualLevel::Position, p),
            (None, Some(v)) => (ResidualLevel::Velocity, v),
            (Some(p), Some(_)) => {
                errors.at(
                    &p,
                    "a joint on `Coordinates` markers is written at one level: `position = …;` (its velocity level is derived) or `velocity = …;` alone",
                );
                return None;
            }
            (None, None) => {
                errors.at(
                    &input.name,
                    "missing `position = ...;` (the position-level residual) or `velocity = ...;` alone",
                );
                return None;
            }
        };
        if second_order && level == ResidualLevel::Velocity {
            errors.at(
                &written,
                "`second_order` needs a position level: rows written at velocity level have no ∂(C_q v)/∂q",
            );
        }
        let scope = lowering_scope(&input.name, &params, functions);
        let mut graph = Graph::new();
        let markers = [markers[0].clone(), markers[1].clone()];
        let scalars = super::lower::parameter_values(&mut graph, &scope);
        let terms = {
            let mut analysis = Analysis {
                lowerer: Lowerer::new(&mut graph, &scope, &[], scalars),
                markers: &markers,
                params: &mut params,
                level,
            };
            let mut terms = Vec::new();
            analysis.sum(&written, false, &mut terms, errors);
            terms
        };
        if !errors.is_empty() {
            return None;
        }
        if terms.is_empty() {
            errors.at(&written, "the residual has no terms");
            return None;
        }
        if !params
            .iter()
            .any(|p| p.kind == DynKind::Matrix && p.marker.is_some())
        {
            errors.at(
                &written,
                "the residual has no `matrix * m.coordinates` term: its rows are counted by its matrices",
            );
            return None;
        }
        Some(CoordinateVectorModel {
            attrs: input.attrs,
            vis: input.vis,
            name: input.name,
            core: core.unwrap_or_else(|| quote!(::joint_core)),
            markers,
            params,
            level,
            written,
            second_order,
            graph,
            terms,
        })
    }
}

struct Analysis<'a, 'g> {
    lowerer: Lowerer<'g>,
    markers: &'a [Ident; 2],
    params: &'a mut Vec<DynParam>,
    level: ResidualLevel,
}

impl Analysis<'_, '_> {
    /// The signed terms of `expr` (negated if `negated`) into `out`.
    fn sum(
        &mut self,
        expr: &Expr,
        negated: bool,
        out: &mut Vec<(bool, Term)>,
        errors: &mut Errors,
    ) {
        match expr {
            Expr::Binary(b) if matches!(b.op, BinOp::Add(_) | BinOp::Sub(_)) => {
                self.sum(&b.left, negated, out, errors);
                let sub = matches!(b.op, BinOp::Sub(_));
                self.sum(&b.right, negated ^ sub, out, errors);
            }
            Expr::Paren(p) if !out.is_empty() || negated => {
                // a group: summed on its own, then added or subtracted
                let mut inner = Vec::new();
                self.sum(&p.expr, false, &mut inner, errors);
                out.push((negated, Term::Group(inner)));
            }
            Expr::Paren(p) => self.sum(&p.expr, negated, out, errors),
            Expr::Group(p) => self.sum(&p.expr, negated, out, errors),
            Expr::Unary(u) if matches!(u.op, UnOp::Neg(_)) => {
                self.sum(&u.expr, !negated, out, errors)
            }
            other => {
                if let Some(t) = self.product(other, errors) {
                    out.push((negated, t));
                }
            }
        }
    }

    /// One product term: scalar factors, then a `dmatrix` times an element, or a `dvector`.
    fn product(&mut self, expr: &Expr, errors: &mut Errors) -> Option<Term> {
        let mut chain = Vec::new();
        flatten_product(expr, &mut chain);
        let mut factors = Vec::new();
        let mut matrix = None;
        let mut vector = None;
        let mut element = None;
        let mut ok = true;
        for f in chain {
            if let Some(i) = self.param_named(f, DynKind::Matrix) {
                if matrix.replace(i).is_some() || vector.is_some() {
                    errors.at(f, "a term has one `dmatrix` or one `dvector`");
                    ok = false;
                }
            } else if let Some(i) = self.param_named(f, DynKind::Vector) {
                if vector.replace(i).is_some() || matrix.is_some() {
                    errors.at(f, "a term has one `dmatrix` or one `dvector`");
                    ok = false;
                }
            } else if mentions_marker(f, self.markers) {
                if element.is_some() {
                    errors.at(
                        f,
                        "a term has one marker's coordinates: `matrix * f(m.coordinates)`",
                    );
                    ok = false;
                } else if matrix.is_none() {
                    errors.at(
                        f,
                        "coordinates need a `dmatrix` parameter in front of them: `matrix * f(m.coordinates)`",
                    );
                    ok = false;
                } else {
                    element = self.element(f, errors);
                    ok &= element.is_some();
                }
            } else {
                match self.lowerer.lower(f, errors) {
                    Some(Dual {
                        value: Value::Scalar(s),
                        ..
                    }) => factors.push(s),
                    Some(other) => {
                        errors.at(
                            f,
                            format!(
                                "a factor of a coordinate-vector term is a scalar, found {}",
                                other.value.type_name()
                            ),
                        );
                        ok = false;
                    }
                    None => ok = false,
                }
            }
        }
        if !ok {
            return None;
        }
        match (matrix, vector, element) {
            (Some(m), None, Some(e)) => {
                let p = &mut self.params[m];
                match p.marker {
                    Some(k) if k != e.marker => {
                        errors.at(
                            expr,
                            format!(
                                "`{}` multiplies both markers' coordinates; give each marker its own matrix",
                                p.name
                            ),
                        );
                        return None;
                    }
                    _ => p.marker = Some(e.marker),
                }
                Some(Term::Product {
                    factors,
                    matrix: m,
                    element: e,
                })
            }
            (None, Some(v), None) => Some(Term::Vector { factors, vector: v }),
            (Some(_), None, None) => {
                errors.at(
                    expr,
                    "a `dmatrix` multiplies a marker's coordinates: `matrix * m.coordinates`",
                );
                None
            }
            _ => {
                errors.at(
                    expr,
                    "expected `matrix * f(m.coordinates)` or a `dvector` (with scalar factors)",
                );
                None
            }
        }
    }

    fn param_named(&self, e: &Expr, kind: DynKind) -> Option<usize> {
        let Expr::Path(p) = e else { return None };
        let id = p.path.get_ident()?;
        self.params
            .iter()
            .position(|q| q.name == *id && q.kind == kind)
    }

    /// `m.coordinates`, `m.coordinates_velocity` or a function of one element.
    fn element(&mut self, e: &Expr, errors: &mut Errors) -> Option<Element> {
        match e {
            Expr::Paren(p) => self.element(&p.expr, errors),
            Expr::Group(p) => self.element(&p.expr, errors),
            Expr::Field(f) => {
                let marker = match &*f.base {
                    Expr::Path(p) => p
                        .path
                        .get_ident()
                        .and_then(|id| self.markers.iter().position(|m| m == id)),
                    _ => None,
                };
                let Some(marker) = marker else {
                    errors.at(&f.base, "expected a marker name before `.`");
                    return None;
                };
                let syn::Member::Named(q) = &f.member else {
                    errors.at(
                        &f.member,
                        "expected `coordinates` or `coordinates_velocity`",
                    );
                    return None;
                };
                let velocity = match q.to_string().as_str() {
                    "coordinates" => false,
                    "coordinates_velocity" => true,
                    other => {
                        errors.at(
                            q,
                            format!(
                                "`{other}`: a `Coordinates` marker gives `coordinates` and `coordinates_velocity`"
                            ),
                        );
                        return None;
                    }
                };
                match (self.level, velocity) {
                    (ResidualLevel::Position, true) => {
                        errors.at(
                            q,
                            "a position-level residual reads no velocities (its velocity level is derived); write the rows with `velocity = …;` instead",
                        );
                        return None;
                    }
                    (ResidualLevel::Velocity, false) => {
                        errors.at(
                            q,
                            "rows written at velocity level read `coordinates_velocity` (their Jacobian is ∂g/∂q̇)",
                        );
                        return None;
                    }
                    _ => {}
                }
                let x = self.lowerer.g.var(ELEMENT_VARIABLE);
                Some(self.with_derivatives(marker, velocity, x, true))
            }
            Expr::Call(c) if c.args.len() == 1 => {
                let inner = self.element(&c.args[0], errors)?;
                // the call with its argument bound to the inner function's value
                let arg = "__coordinate";
                let mut call = c.clone();
                call.args[0] = syn::parse_quote!(__coordinate);
                let value = Dual::constant(Value::Scalar(inner.phi[0]));
                let d = self.lowerer.lower_with_locals(
                    &Expr::Call(call),
                    vec![(arg.to_owned(), value)],
                    errors,
                )?;
                let Value::Scalar(phi) = d.value else {
                    errors.at(
                        c,
                        format!(
                            "an elementwise function returns a scalar, `{}` returns {}",
                            quote::ToTokens::to_token_stream(&c.func),
                            d.value.type_name()
                        ),
                    );
                    return None;
                };
                Some(self.with_derivatives(inner.marker, inner.velocity, phi, false))
            }
            other => {
                errors.at(
                    other,
                    "expected `m.coordinates`, `m.coordinates_velocity` or a function of one of them, applied to each coordinate",
                );
                None
            }
        }
    }

    fn with_derivatives(
        &mut self,
        marker: usize,
        velocity: bool,
        phi: Id,
        linear: bool,
    ) -> Element {
        let g = &mut *self.lowerer.g;
        let x = g.var(ELEMENT_VARIABLE);
        let d1 = derivative(g, phi, x);
        let d2 = derivative(g, d1, x);
        Element {
            marker,
            velocity,
            phi: [phi, d1, d2],
            linear,
        }
    }
}

/// `a * b * c` as `[a, b, c]` (left to right).
fn flatten_product<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
    match e {
        Expr::Binary(b) if matches!(b.op, BinOp::Mul(_)) => {
            flatten_product(&b.left, out);
            flatten_product(&b.right, out);
        }
        other => out.push(other),
    }
}

/// Whether `e` reads a marker (`m.…` anywhere in it).
fn mentions_marker(e: &Expr, markers: &[Ident; 2]) -> bool {
    use quote::ToTokens;
    let mut found = false;
    let tokens = e.to_token_stream();
    fn walk(ts: TokenStream, markers: &[Ident; 2], found: &mut bool) {
        for tt in ts {
            match tt {
                proc_macro2::TokenTree::Ident(i) if markers.contains(&i) => *found = true,
                proc_macro2::TokenTree::Group(g) => walk(g.stream(), markers, found),
                _ => {}
            }
        }
    }
    walk(tokens, markers, &mut found);
    found
}

/// A `Coordinates` marker: both markers are, with no list of kinds.
fn coordinates_marker(
    name: Ident,
    capability: &Ident,
    kinds: Option<crate::definition::parse::KindList>,
    markers: &mut Vec<Ident>,
    params: &[DynParam],
    errors: &mut Errors,
) {
    if capability != "Coordinates" {
        errors.at(
            capability,
            "a joint on `Coordinates` markers constrains whole coordinate vectors: both of its markers are `Coordinates`",
        );
    }
    let message = "`Coordinates` markers take no list of marker kinds (any marker with coordinates: a node's or a body's)";
    match &kinds {
        Some(crate::definition::parse::KindList::All(t)) => errors.at(t, message),
        Some(crate::definition::parse::KindList::Listed(k)) if !k.is_empty() => {
            errors.at(&k[0], message)
        }
        _ => {}
    }
    if markers.contains(&name) || params.iter().any(|p| p.name == name) {
        errors.at(&name, format!("duplicate marker name `{name}`"));
    }
    markers.push(name);
}

/// A `scalar`, `dvector` or `dmatrix` parameter (at most `MAX_PARAMETERS`).
fn dyn_param(
    name: Ident,
    kind: &Ident,
    markers: &[Ident],
    params: &mut Vec<DynParam>,
    errors: &mut Errors,
) {
    let k = match kind.to_string().as_str() {
        "scalar" => DynKind::Scalar,
        "dvector" => DynKind::Vector,
        "dmatrix" => DynKind::Matrix,
        _ => {
            errors.at(
                kind,
                format!(
                    "unknown parameter type `{kind}` for a joint on `Coordinates` markers: expected `scalar`, `dvector` (one value per row) or `dmatrix` (rows × a marker's coordinates)"
                ),
            );
            DynKind::Matrix
        }
    };
    if params.iter().any(|p| p.name == name) || markers.contains(&name) {
        errors.at(&name, format!("duplicate name `{name}`"));
        return;
    }
    if params.len() == MAX_PARAMETERS {
        errors.at(
            &name,
            format!(
                "a joint on `Coordinates` markers takes at most {MAX_PARAMETERS} parameters (a runtime passes their views from the stack)"
            ),
        );
    }
    params.push(DynParam {
        name,
        kind: k,
        marker: None,
    });
}

/// The functions and scalar parameters as the lowerer sees them (no markers: an element's
/// function sees one coordinate, bound to its parameter).
fn lowering_scope(name: &Ident, params: &[DynParam], functions: Vec<FunctionDef>) -> JointModel {
    JointModel {
        attrs: Vec::new(),
        vis: Visibility::Inherited,
        kind: DefinitionKind::Joint,
        name: name.clone(),
        core: TokenStream::new(),
        markers: Vec::new(),
        params: params
            .iter()
            .filter(|p| p.kind == DynKind::Scalar)
            .map(|p| ParamDecl {
                name: p.name.clone(),
                kind: ParamKind::Scalar,
                state: false,
            })
            .collect(),
        axes: Vec::new(),
        functions,
        bindings: Vec::new(),
        position: None,
        velocity: None,
        outputs: Vec::new(),
        second_order: false,
        parameter_derivatives: false,
        force: None,
        torque: None,
    }
}
