//! A joint's outputs at a state: the generic ones every joint defined with `joint!` has, and the
//! context the Exudyn items compute theirs from.

use joint_core::MarkerQuantities;

use super::topology::{ConstraintLevel, JointTopology, joint_kernel_rows};
use crate::items::OutputVariable;
use crate::markers::MarkerState;

/// One joint at one state, for its outputs ([`JointType::outputs`](super::JointType)): its
/// parameters, its markers' quantities, its multipliers, its residual and named outputs.
pub struct JointOutputs<'a> {
    /// The object's parameters as the item gives them (the topology's may have the markers'
    /// local rotations folded in).
    pub(crate) parameters: &'a [f64],
    /// The joint as assembled.
    pub(crate) topology: &'a JointTopology,
    /// Marker 0 at the state.
    pub(crate) m0: MarkerState<'a>,
    /// Marker 1 at the state.
    pub(crate) m1: MarkerState<'a>,
    /// λ of the joint's AE rows.
    pub(crate) lambda: &'a [f64],
}

impl JointOutputs<'_> {
    /// The joint's parameters as the item gives them, in its definition's flat layout.
    pub fn parameters(&self) -> &[f64] {
        self.parameters
    }

    /// λ of the joint's AE rows (its `Force` output).
    pub fn lambda(&self) -> &[f64] {
        self.lambda
    }

    /// Marker `k`'s (0 or 1) position, velocity, rotation and angular velocity, global, as the
    /// marker-level kernels read them.
    pub fn marker(&self, k: usize) -> MarkerQuantities {
        if k == 0 {
            self.m0.quantities()
        } else {
            self.m1.quantities()
        }
    }

    /// Whether the joint is written at velocity level (it then has no position residual).
    pub fn velocity_level(&self) -> bool {
        self.topology.velocity_level()
    }

    /// Append the joint's residual at `level` per AE row to `out` (a free row of an item that
    /// selects its equations, which has no kernel row, reads 0). Allocates nothing once `out`
    /// has room: sensors call it every step.
    pub fn residual(&self, level: ConstraintLevel, out: &mut Vec<f64>) {
        let t = self.topology;
        let start = out.len();
        out.resize(start + t.kernel_rows(), 0.0);
        joint_kernel_rows(t, level, &self.m0, &self.m1, &mut out[start..]);
        if (0..t.rows()).all(|k| t.row_kernel(k).is_none_or(|r| r == k)) {
            // AE row k is kernel row k (or free): keep the first `rows()` kernel rows
            out.truncate(start + t.rows());
            return;
        }
        let kernel: Vec<f64> = out.split_off(start);
        out.extend((0..t.rows()).map(|k| t.row_kernel(k).map_or(0.0, |r| kernel[r])));
    }

    /// Append the joint's named output `name` to `out`; `None` if its definition has none.
    pub fn named(&self, name: &str, out: &mut Vec<f64>) -> Option<()> {
        let o = self.topology.definition.output(name)?;
        let (q0, q1): (MarkerQuantities, MarkerQuantities) =
            (self.m0.quantities(), self.m1.quantities());
        let start = out.len();
        out.resize(start + o.len, 0.0);
        // the joint's own parameters: the markers' frames include their local rotations, which
        // assembly folds into the topology's parameters for an unrolled pairing only
        let done = (o.evaluate)(self.parameters, &q0, &q1, &mut out[start..]);
        if done.is_none() {
            out.truncate(start);
        }
        done
    }
}

/// The outputs every joint defined with `joint!` has: `Force` = λ per row, `Displacement` and
/// `Velocity` = the position and velocity residuals per row (a joint written at velocity level
/// has no `Displacement`), and the definition's named outputs.
pub fn generic(ctx: &JointOutputs, var: OutputVariable, out: &mut Vec<f64>) -> Option<()> {
    match var {
        OutputVariable::Force => out.extend_from_slice(ctx.lambda),
        // a joint written at velocity level has no position-level residual
        OutputVariable::Displacement if ctx.topology.velocity_level() => return None,
        OutputVariable::Displacement => ctx.residual(ConstraintLevel::Position, out),
        OutputVariable::Velocity => ctx.residual(ConstraintLevel::Velocity, out),
        OutputVariable::Named(name) => ctx.named(name, out)?,
        _ => return None,
    }
    Some(())
}
