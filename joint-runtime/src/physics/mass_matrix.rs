//! The mass matrix M: per body its block (constant for mass points and GenericODE2, from the
//! rigid-body terms otherwise), assembled, or applied to a vector.

use super::Scratch;
use super::beam_2d::beam_2d_mass_matrix;
use super::rigid_body::{rigid_g_local, rigid_mass_matrix, rigid_mass_theta};
use super::rigid_body_2d::rigid_2d_mass_matrix;
use crate::assemble::{BodyTopology, Topology};
use crate::linear::MatrixAccumulator;

impl Topology {
    /// Visit each body's mass matrix block: `visit(global columns, row-major n × n block)`.
    pub(super) fn for_each_mass_block(
        &self,
        qt: &[f64],
        scratch: &mut Scratch,
        visit: impl FnMut(&[usize], &[f64]),
    ) {
        self.mass_blocks(qt, scratch, false, visit);
    }

    /// [`Self::for_each_mass_block`], optionally without the rigid bodies whose centre of mass
    /// is at the node.
    pub(super) fn mass_blocks(
        &self,
        qt: &[f64],
        scratch: &mut Scratch,
        skip_centred_rigid: bool,
        mut visit: impl FnMut(&[usize], &[f64]),
    ) {
        for body in &self.bodies {
            match body {
                BodyTopology::Rigid {
                    center_of_mass: [0.0, 0.0, 0.0],
                    ..
                } if skip_centred_rigid => {}
                BodyTopology::MassPoint { ode2, mass } => {
                    let m = *mass;
                    let o = *ode2;
                    visit(&[o, o + 1, o + 2], &[m, 0.0, 0.0, 0.0, m, 0.0, 0.0, 0.0, m]);
                }
                BodyTopology::MassPoint2D { ode2, mass } => {
                    let (o, m) = (*ode2, *mass);
                    visit(&[o, o + 1], &[m, 0.0, 0.0, m]);
                }
                BodyTopology::Mass1D { ode2, mass } => visit(&[*ode2], &[*mass]),
                BodyTopology::Beam2D { columns, beam } => {
                    visit(columns, &beam_2d_mass_matrix(beam));
                }
                BodyTopology::Rigid2D {
                    ode2,
                    mass,
                    inertia,
                    center_of_mass,
                } => {
                    let o = *ode2;
                    let block = rigid_2d_mass_matrix(*mass, *inertia, *center_of_mass, qt[o + 2]);
                    visit(&[o, o + 1, o + 2], &block);
                }
                BodyTopology::Rigid {
                    ode2,
                    rotation,
                    mass,
                    inertia,
                    center_of_mass,
                } => {
                    let n = ode2.len();
                    let block = &mut scratch.block[..n * n];
                    rigid_mass_matrix(
                        *rotation,
                        *mass,
                        inertia,
                        center_of_mass,
                        &qt[ode2.clone()],
                        block,
                    );
                    let mut cols = [0usize; 7];
                    for (i, c) in cols.iter_mut().enumerate().take(n) {
                        *c = ode2.start + i;
                    }
                    visit(&cols[..n], block);
                }
                BodyTopology::GenericODE2 { columns, mass, .. } => {
                    // nalgebra is column-major; the mass matrix is symmetric, but transpose
                    // anyway so that a non-symmetric M is applied as given.
                    let n = columns.len();
                    let block = &mut scratch.block[..n * n];
                    for i in 0..n {
                        for j in 0..n {
                            block[i * n + j] = mass[(i, j)];
                        }
                    }
                    visit(columns, block);
                }
                BodyTopology::KinematicTree { start, data, .. } => {
                    let n = data.links();
                    let block = &mut scratch.block[..n * n];
                    data.mass_matrix(&qt[*start..*start + n], block);
                    let cols = &mut scratch.columns;
                    cols.clear();
                    cols.extend(*start..*start + n);
                    visit(cols, block);
                }
                BodyTopology::Ffrf {
                    frame, modal, data, ..
                } => {
                    let nm = data.modes();
                    let n = 7 + nm;
                    let block = &mut scratch.block[..n * n];
                    crate::superelement::ffrf::mass_matrix(
                        data,
                        &qt[*frame..*frame + 7],
                        &qt[*modal..*modal + nm],
                        block,
                    );
                    let cols = &mut scratch.columns;
                    cols.clear();
                    cols.extend(*frame..*frame + 7);
                    cols.extend(*modal..*modal + nm);
                    visit(cols, block);
                }
            }
        }
    }

    /// Add the mass matrix into `m`, scaled by `factor`.
    pub fn add_mass_matrix(
        &self,
        qt: &[f64],
        factor: f64,
        m: &mut impl MatrixAccumulator,
        scratch: &mut Scratch,
    ) {
        self.for_each_mass_block(qt, scratch, |cols, block| {
            let n = cols.len();
            for (i, &ci) in cols.iter().enumerate() {
                for (j, &cj) in cols.iter().enumerate() {
                    m.add(ci, cj, factor * block[i * n + j]);
                }
            }
        });
    }

    /// out += M(qt)·x
    pub fn add_mass_times(&self, qt: &[f64], x: &[f64], out: &mut [f64], scratch: &mut Scratch) {
        self.add_mass_times_parts(qt, x, out, scratch, false);
    }

    /// [`add_mass_times`](Topology::add_mass_times), without the rigid bodies whose centre of
    /// mass is at the node if `skip_centred_rigid` (the fast path's Newton–Euler residual).
    pub(super) fn add_mass_times_parts(
        &self,
        qt: &[f64],
        x: &[f64],
        out: &mut [f64],
        scratch: &mut Scratch,
        skip_centred_rigid: bool,
    ) {
        // Rigid bodies with the centre of mass at the node (the common case) skip the zero
        // blocks of M; the sums keep their order, so the result is the same to the bit.
        if !skip_centred_rigid {
            for body in &self.bodies {
                if let BodyTopology::Rigid {
                    ode2,
                    rotation,
                    mass,
                    inertia,
                    center_of_mass: [0.0, 0.0, 0.0],
                } = body
                {
                    let (o, nr) = (ode2.start, ode2.len() - 3);
                    let g_local = rigid_g_local(*rotation, &qt[ode2.clone()]);
                    let m_theta = rigid_mass_theta(inertia, &g_local, nr);
                    for i in 0..3 {
                        out[o + i] += mass * x[o + i];
                    }
                    for i in 0..nr {
                        let mut s = 0.0;
                        for j in 0..nr {
                            s += m_theta[i * nr + j] * x[o + 3 + j];
                        }
                        out[o + 3 + i] += s;
                    }
                }
            }
        }
        self.mass_blocks(qt, scratch, true, |cols, block| {
            let n = cols.len();
            for (i, &ci) in cols.iter().enumerate() {
                let s: f64 = cols
                    .iter()
                    .enumerate()
                    .map(|(j, &cj)| block[i * n + j] * x[cj])
                    .sum();
                out[ci] += s;
            }
        });
    }
}
