//! ∂g/∂p (`parameter_derivatives;`): the position-level residual differentiated by the joint's
//! parameters, and per pairing by the markers' own parameters (a body-fixed point, a ground
//! marker's point and frame) — what calibrating a model or its sensitivities by
//! parameters need. Forward differentiation of the residual rows, one variable at a time, like
//! ∂g/∂q.

use std::collections::HashMap;

use crate::definition::lower::parameter_variable;
use crate::definition::model::{JointModel, ParamKind};
use crate::kinematics::MarkerKind;
use crate::symbolic::diff::derivative_memo;
use crate::symbolic::{Graph, Id};

/// The joint's parameter columns in their flat layout (the `_slices` order: parameters in
/// definition order, matrices row-major, then the states' last values): the graph variable and
/// the name a doc comment gives each (`stiffness`, `offset[1]`, `frame[0][2]`).
pub fn joint_columns(model: &JointModel) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for p in &model.params {
        let name = p.name.to_string();
        for i in 0..p.kind.len() {
            let doc = match p.kind {
                ParamKind::Scalar => name.clone(),
                ParamKind::Vector => format!("{name}[{i}]"),
                ParamKind::Matrix => format!("{name}[{}][{}]", i / 3, i % 3),
            };
            out.push((parameter_variable(&name, p.kind, i), doc));
        }
    }
    out
}

/// Marker `i`'s parameter variables (`m0_…`, in the kind's order).
pub fn marker_columns(i: usize, kind: MarkerKind) -> Vec<String> {
    kind.parameter_names()
        .iter()
        .map(|n| format!("m{i}_{n}"))
        .collect()
}

/// ∂rows/∂vars as a row-major table (rows × vars).
pub fn table(g: &mut Graph, rows: &[Id], vars: &[String]) -> Vec<Id> {
    let mut out = vec![Id(0); rows.len() * vars.len()];
    for (c, name) in vars.iter().enumerate() {
        let x = g.var(name);
        let mut memo = HashMap::new();
        for (r, &row) in rows.iter().enumerate() {
            out[r * vars.len() + c] = derivative_memo(g, row, x, &mut memo);
        }
    }
    out
}

/// The doc line listing a table's columns.
pub fn columns_doc(names: &[String]) -> String {
    let list: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    list.join(", ")
}
