//! Which kernels a pairing has: their names, doc comments, roots, inputs and shapes.

use super::function::{Kernel, Reads, Shape};
use super::{Fused, Layout, Texts};
use crate::codegen::joint::{Derivatives, Lowered, parameter_derivatives};
use crate::definition::model::JointModel;

/// The velocity level as a doc comment shows it.
fn velocity_text(texts: &Texts) -> String {
    match (texts.velocity, texts.position) {
        (Some(v), _) => v.to_owned(),
        (None, Some(p)) => format!("d/dt({p})"),
        (None, None) => unreachable!("a model has a position or a velocity level"),
    }
}

/// The kernels of every joint: the velocity residual, the Jacobian and the reaction forces.
pub(super) fn velocity_kernels<'a>(
    texts: &Texts,
    layout: &Layout,
    d: &'a Derivatives,
    lowered: &'a Lowered,
) -> [Kernel<'a>; 3] {
    let velocity_text = velocity_text(texts);
    let with = layout.with;
    [
        Kernel {
            name: "velocity_residual",
            doc: match (texts.velocity, texts.position) {
                (Some(v), Some(_)) => format!(" Velocity-level residual `{v}` (as written)."),
                (Some(v), None) => format!(
                    " Velocity-level residual `{v}`: the joint's rows, written at velocity level (they have no position level)."
                ),
                (None, _) => {
                    format!(" Velocity-level residual `{velocity_text}`, derived by the compiler.")
                }
            },
            roots: &lowered.velocity,
            reads: Reads {
                velocities: true,
                lambda: false,
            },
            shape: Shape::Rows,
            slices: true,
        },
        Kernel {
            name: "jacobian",
            doc: format!(
                " Jacobian blocks ∂(`{velocity_text}`)/∂q̇ with respect to the coordinates of {with}."
            ),
            roots: &d.jac_roots,
            reads: Reads {
                velocities: false,
                lambda: false,
            },
            shape: Shape::Blocks(layout.blocks.clone()),
            slices: true,
        },
        Kernel {
            name: "reaction_forces",
            doc: format!(
                " C_qᵀλ: the reaction forces of the rows' multipliers λ on the coordinates of {with}, \
                 [`jacobian`] transposed times λ without forming it (the rows' gradient weighted by \
                 λ, differentiated in reverse)."
            ),
            roots: &d.reaction_roots,
            reads: Reads {
                velocities: false,
                lambda: true,
            },
            shape: Shape::Vectors(layout.blocks.clone()),
            slices: true,
        },
    ]
}

/// The kernels of a joint with a position level `position` (as written).
pub(super) fn position_kernels<'a>(
    position: &str,
    layout: &Layout,
    d: &'a Derivatives,
    lowered: &'a Lowered,
    fused: &'a Fused,
) -> Vec<Kernel<'a>> {
    let with = layout.with;
    let plain = Reads {
        velocities: false,
        lambda: false,
    };
    let blocks = || layout.blocks.clone();
    vec![
        Kernel {
            name: "position_residual",
            doc: format!(" Position-level residual `{position}`."),
            roots: &lowered.position,
            reads: plain,
            shape: Shape::Rows,
            slices: true,
        },
        Kernel {
            name: "position_residual_and_jacobian",
            doc: " [`position_residual`] and [`jacobian`] at the same coordinates, their common \
                  subexpressions computed once."
                .to_owned(),
            roots: &fused.residual_and_jacobian,
            reads: plain,
            shape: Shape::RowsAndBlocks(blocks()),
            slices: false,
        },
        Kernel {
            name: "position_jacobian",
            doc: format!(
                " ∂g/∂q: the position-level residual `{position}` differentiated by the coordinates of {with} — the Jacobian consistent with the residual (Exudyn's [`jacobian`] equals it for Euler parameters only along tangents of |θ| = 1)."
            ),
            roots: &d.pq_roots,
            reads: plain,
            shape: Shape::Blocks(blocks()),
            slices: true,
        },
        Kernel {
            name: "position_residual_and_reaction_forces",
            doc: " [`position_residual`] and [`reaction_forces`] at the same coordinates, their \
                  common subexpressions computed once: what a Newton iteration on the position \
                  level evaluates every time."
                .to_owned(),
            roots: &fused.residual_and_reaction,
            reads: Reads {
                velocities: false,
                lambda: true,
            },
            shape: Shape::RowsAndVectors(blocks()),
            slices: true,
        },
        Kernel {
            name: "position_residual_and_position_jacobian",
            doc: " [`position_residual`] and [`position_jacobian`] at the same coordinates, their \
                  common subexpressions computed once: the residual and its consistent Jacobian, \
                  what Newton's method on g(q) = 0 needs."
                .to_owned(),
            roots: &fused.residual_and_position_jacobian,
            reads: plain,
            shape: Shape::RowsAndBlocks(blocks()),
            slices: false,
        },
    ]
}

/// With `parameter_derivatives`: ∂g/∂p by the joint's parameters and by the markers' own, typed
/// only (generic, so they cost nothing where no one calls them).
pub(super) fn parameter_kernels<'a>(
    model: &JointModel,
    position: &str,
    layout: &Layout,
    d: &'a Derivatives,
) -> Vec<Kernel<'a>> {
    let plain = Reads {
        velocities: false,
        lambda: false,
    };
    let mut out = Vec::new();
    let columns = parameter_derivatives::joint_columns(model);
    if !columns.is_empty() {
        let names: Vec<String> = columns.into_iter().map(|(_, doc)| doc).collect();
        out.push(Kernel {
            name: "parameter_jacobian",
            doc: format!(
                " ∂g/∂p: the position-level residual `{position}` differentiated by the joint's parameters, one row per residual row, one column per value of their flat layout: {}.",
                parameter_derivatives::columns_doc(&names)
            ),
            roots: &d.joint_parameter_roots,
            reads: plain,
            shape: Shape::Table(names.len()),
            slices: false,
        });
    }
    let np = [
        layout.kinds[0].parameter_count(),
        layout.kinds[1].parameter_count(),
    ];
    if np.iter().any(|&n| n > 0) {
        let which: Vec<String> = (0..2)
            .filter(|&i| np[i] > 0)
            .map(|i| {
                format!(
                    "`m{i}` ({})",
                    parameter_derivatives::columns_doc(
                        &layout.kinds[i]
                            .parameter_names()
                            .iter()
                            .map(|n| n.to_string())
                            .collect::<Vec<_>>()
                    )
                )
            })
            .collect();
        out.push(Kernel {
            name: "marker_parameter_jacobian",
            doc: format!(
                " ∂g/∂p by the markers' own parameters: the position-level residual `{position}` differentiated by those of {}: per marker with parameters a block, rows × its parameters (the block alone if one marker has parameters, a tuple (m0's, m1's) if both); a rotation's entries are columns of their own, as independent values.",
                which.join(" and ")
            ),
            roots: &d.marker_parameter_roots,
            reads: plain,
            shape: Shape::Blocks(np.iter().map(|&n| (n > 0).then_some(n)).collect()),
            slices: false,
        });
    }
    out
}
