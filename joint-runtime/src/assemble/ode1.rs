//! The first-order systems: every ObjectGenericODE1 on its NodeGenericODE1 nodes' ODE1
//! coordinates, with its matrix and vector checked against their size.

use nalgebra::DMatrix;

use super::Ode1System;
use super::checks::{finite, node_of_type};
use crate::error::{Error, Result};
use crate::items::{Node, Object};
use crate::system::MultibodySystem;

/// Every ObjectGenericODE1 of `mbs`, in object order.
pub(super) fn ode1_systems(mbs: &MultibodySystem, node_ode1: &[usize]) -> Result<Vec<Ode1System>> {
    let mut systems = Vec::new();
    for (i, object) in mbs.objects.iter().enumerate() {
        let Object::GenericODE1 {
            nodes,
            system_matrix,
            rhs_vector,
            ..
        } = object
        else {
            continue;
        };
        let item = mbs.object_ref(i);
        if nodes.is_empty() {
            return Err(Error::item(
                item,
                "nodeNumbers",
                "a GenericODE1 needs at least one NodeGenericODE1",
            ));
        }
        let mut columns = Vec::new();
        for (k, n) in nodes.iter().enumerate() {
            let node = node_of_type(
                mbs,
                &item,
                "nodeNumbers",
                *n,
                |node| matches!(node, Node::GenericODE1 { .. }),
                "ObjectGenericODE1 needs NodeGenericODE1 nodes",
            )?;
            if nodes[..k].contains(n) {
                return Err(Error::item(
                    item,
                    "nodeNumbers",
                    format!("node {} is listed twice", n.0),
                ));
            }
            let start = node_ode1[n.0];
            columns.extend(start..start + node.ode1_size());
        }
        let n = columns.len();
        let matrix = if system_matrix.is_empty() {
            None
        } else if system_matrix.shape() != (n, n) {
            return Err(Error::item(
                item,
                "systemMatrix",
                format!(
                    "expected a {n} × {n} matrix (the nodes' {n} ODE1 coordinates) or an empty one, found {} × {}",
                    system_matrix.nrows(),
                    system_matrix.ncols()
                ),
            ));
        } else {
            finite(&item, "systemMatrix", system_matrix.as_slice())?;
            Some(DMatrix::clone(system_matrix))
        };
        let rhs = if rhs_vector.is_empty() {
            None
        } else if rhs_vector.len() != n {
            return Err(Error::item(
                item,
                "rhsVector",
                format!(
                    "expected {n} entries (the nodes' ODE1 coordinates) or none, found {}",
                    rhs_vector.len()
                ),
            ));
        } else {
            finite(&item, "rhsVector", rhs_vector)?;
            Some(rhs_vector.clone())
        };
        systems.push(Ode1System {
            object: i,
            columns,
            matrix,
            rhs,
        });
    }
    Ok(systems)
}
