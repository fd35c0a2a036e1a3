//! A joint's outputs at a state: the generic ones every joint defined with `joint!` has, and the
//! context the Exudyn items compute theirs from.

use joint_core::MarkerQuantities;

use super::object::JointObject;
use crate::assemble::JointTopology;
use crate::output::OutputVariable;
use crate::physics::{ConstraintLevel, MarkerState, joint_kernel_rows};

/// One joint at one state, for its outputs.
pub struct JointOutputs<'a> {
    pub object: &'a JointObject,
    pub topology: &'a JointTopology,
    pub m0: MarkerState<'a>,
    pub m1: MarkerState<'a>,
    /// λ of the joint's AE rows.
    pub lambda: &'a [f64],
}

impl JointOutputs<'_> {
    /// The joint's residual at `level` per AE row (a free row of an item that selects its
    /// equations, which has no kernel row, reads 0).
    pub fn residual(&self, level: ConstraintLevel) -> Vec<f64> {
        let t = self.topology;
        let mut rows = vec![0.0; t.kernel_rows()];
        joint_kernel_rows(t, level, &self.m0, &self.m1, &mut rows);
        (0..t.rows())
            .map(|k| match t.row_kernel(k) {
                Some(r) => rows[r],
                None => 0.0,
            })
            .collect()
    }

    /// The joint's named output `name`, if its definition has one.
    pub fn named(&self, name: &str) -> Option<Vec<f64>> {
        let o = self.topology.definition.output(name)?;
        let (q0, q1): (MarkerQuantities, MarkerQuantities) =
            (self.m0.quantities(), self.m1.quantities());
        let mut out = vec![0.0; o.len];
        (o.evaluate)(&self.topology.parameters, &q0, &q1, &mut out)?;
        Some(out)
    }
}

/// The outputs every joint defined with `joint!` has: `Force` = λ per row, `Displacement` and
/// `Velocity` = the position and velocity residuals per row, and the definition's named outputs.
pub fn generic(ctx: &JointOutputs, var: OutputVariable, out: &mut Vec<f64>) -> Option<()> {
    match var {
        OutputVariable::Force => out.extend_from_slice(ctx.lambda),
        OutputVariable::Displacement => out.extend(ctx.residual(ConstraintLevel::Position)),
        OutputVariable::Velocity => out.extend(ctx.residual(ConstraintLevel::Velocity)),
        OutputVariable::Named(name) => out.extend(ctx.named(name)?),
        _ => return None,
    }
    Some(())
}

/// The output variables [`generic`] gives for a joint (named ones included).
pub fn generic_names(object: &JointObject) -> Vec<String> {
    let mut names: Vec<String> = ["Force", "Displacement", "Velocity"]
        .map(str::to_owned)
        .to_vec();
    names.extend(
        object
            .joint_type
            .definition
            .outputs
            .iter()
            .map(|o| o.name.to_owned()),
    );
    names
}
