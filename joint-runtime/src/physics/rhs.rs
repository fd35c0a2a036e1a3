//! The ODE2 right-hand side `f = loads − LHS`: the bodies' own terms (rigid bodies'
//! quadratic-velocity terms, GenericODE2's K, D and f, FFRF and kinematic trees) and the
//! connectors' forces, with the loads added.

use super::Scratch;
use super::beam_2d::beam_2d_lhs;
use super::rigid_body::rigid_lhs;
use super::rigid_body_2d::rigid_2d_lhs;
use crate::assemble::{BodyTopology, Topology};

/// How the ODE2 right-hand side is formed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RhsForm {
    /// Every term, in Exudyn's order of operations.
    Exudyn,
    /// The fast path's: without the LHS of the rigid bodies whose centre of mass is at the node
    /// (its Newton–Euler residual adds it with their inertia terms), and forces at markers
    /// through the generated J_posᵀ·f kernels.
    Fast,
}

impl Topology {
    /// f = load_factor·loads − LHS(bodies, connectors), over the ODE2 coordinates; `data` the
    /// data coordinates (NodeGenericData), which some connectors read.
    #[allow(clippy::too_many_arguments)]
    pub fn ode2_rhs(
        &self,
        qt: &[f64],
        v: &[f64],
        data: &[f64],
        load_factor: f64,
        f: &mut [f64],
        scratch: &mut Scratch,
    ) {
        self.ode2_rhs_parts(qt, v, data, load_factor, f, scratch, RhsForm::Exudyn);
    }

    /// [`ode2_rhs`](Topology::ode2_rhs) in `form`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn ode2_rhs_parts(
        &self,
        qt: &[f64],
        v: &[f64],
        data: &[f64],
        load_factor: f64,
        f: &mut [f64],
        scratch: &mut Scratch,
        form: RhsForm,
    ) {
        if form == RhsForm::Fast {
            // the state-independent loads, summed once (`Topology::constant_loads`)
            for (x, c) in f.iter_mut().zip(&self.constant_loads) {
                *x = load_factor * c;
            }
        } else {
            f.fill(0.0);
        }
        self.add_loads(qt, v, load_factor, f, scratch, form);
        for body in &self.bodies {
            if let BodyTopology::Rigid {
                ode2,
                rotation,
                mass,
                inertia,
                center_of_mass,
            } = body
            {
                if form == RhsForm::Fast && *center_of_mass == [0.0; 3] {
                    continue;
                }
                let n = ode2.len();
                let lhs = &mut scratch.lhs[..n];
                rigid_lhs(
                    *rotation,
                    *mass,
                    inertia,
                    center_of_mass,
                    &qt[ode2.clone()],
                    &v[ode2.clone()],
                    lhs,
                );
                for i in 0..n {
                    f[ode2.start + i] -= lhs[i];
                }
            }
        }
        for body in &self.bodies {
            match body {
                BodyTopology::Beam2D { columns, beam } => {
                    let q_ref = columns.map(|c| self.reference[c]);
                    let lhs = beam_2d_lhs(
                        beam,
                        &q_ref,
                        &columns.map(|c| qt[c]),
                        &columns.map(|c| v[c]),
                    );
                    for (&c, x) in columns.iter().zip(lhs) {
                        f[c] -= x;
                    }
                }
                BodyTopology::Rigid2D {
                    ode2,
                    mass,
                    center_of_mass,
                    ..
                } => {
                    let o = *ode2;
                    let lhs = rigid_2d_lhs(*mass, *center_of_mass, qt[o + 2], v[o + 2]);
                    for i in 0..3 {
                        f[o + i] -= lhs[i];
                    }
                }
                BodyTopology::GenericODE2 {
                    columns,
                    stiffness,
                    damping,
                    force,
                    ..
                } => {
                    // LHS = K q + D q̇ − f, on displacements q (reference coordinates excluded)
                    for (i, &ci) in columns.iter().enumerate() {
                        let mut lhs = -force[i];
                        for (j, &cj) in columns.iter().enumerate() {
                            lhs += stiffness[(i, j)] * (qt[cj] - self.reference[cj])
                                + damping[(i, j)] * v[cj];
                        }
                        f[ci] -= lhs;
                    }
                }
                BodyTopology::Ffrf {
                    frame, modal, data, ..
                } => {
                    let nm = data.modes();
                    let out = &mut scratch.lhs[..7 + nm];
                    crate::superelement::ffrf::lhs(
                        data,
                        &qt[*frame..*frame + 7],
                        &v[*frame..*frame + 7],
                        &qt[*modal..*modal + nm],
                        &v[*modal..*modal + nm],
                        out,
                    );
                    for i in 0..7 {
                        f[frame + i] -= out[i];
                    }
                    for i in 0..nm {
                        f[modal + i] -= out[7 + i];
                    }
                }
                BodyTopology::KinematicTree { start, data, .. } => {
                    let n = data.links();
                    let out = &mut scratch.lhs[..n];
                    data.lhs(&qt[*start..*start + n], &v[*start..*start + n], out);
                    for i in 0..n {
                        f[start + i] -= out[i];
                    }
                }
                _ => {}
            }
        }
        for c in 0..self.connectors.len() {
            self.add_connector_lhs(c, qt, v, data, -1.0, f, scratch);
        }
    }
}
