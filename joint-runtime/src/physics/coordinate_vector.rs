//! Coordinate-vector joints in the equations: their rows, Jacobian blocks, convective term,
//! geometric stiffness and reaction forces, through the generated loops. Each marker's
//! coordinates (total values) and velocities are gathered from its columns into the scratch
//! space first.

use super::Scratch;
use crate::assemble::Topology;
use crate::items::joints::{ConstraintLevel, CoordinateVectorTopology, with_views};

/// The markers' coordinates and velocities, gathered: `[q0, q1, v0, v1]`.
fn gather(t: &Topology, c: &CoordinateVectorTopology, qt: &[f64], v: &[f64], s: &mut Scratch) {
    gather_into(t, c, qt, v, &mut s.coordinates);
}

fn gather_into(
    t: &Topology,
    c: &CoordinateVectorTopology,
    qt: &[f64],
    v: &[f64],
    coordinates: &mut [Vec<f64>; 4],
) {
    let (q, rest) = coordinates.split_at_mut(2);
    for k in 0..2 {
        for (i, &g) in t.markers[c.markers[k]].columns.iter().enumerate() {
            q[k][i] = qt[g];
            rest[k][i] = v[g];
        }
    }
}

/// Its rows at `level` into `out` (`rows` entries).
fn rows_at(
    t: &Topology,
    c: &CoordinateVectorTopology,
    qt: &[f64],
    v: &[f64],
    level: ConstraintLevel,
    out: &mut [f64],
    coordinates: &mut [Vec<f64>; 4],
) {
    gather_into(t, c, qt, v, coordinates);
    let (n0, n1) = t.cv_sizes(c);
    let [q0, q1, v0, v1] = &*coordinates;
    let level = if c.velocity_level() {
        ConstraintLevel::Velocity
    } else {
        level
    };
    let f = match level {
        ConstraintLevel::Position => c.definition.position_residual,
        ConstraintLevel::Velocity => c.definition.velocity_residual,
    };
    with_views(&c.parameters, |p| {
        f(p, &q0[..n0], &q1[..n1], &v0[..n0], &v1[..n1], out)
    });
}

impl Topology {
    fn cv_sizes(&self, c: &CoordinateVectorTopology) -> (usize, usize) {
        (
            self.markers[c.markers[0]].columns.len(),
            self.markers[c.markers[1]].columns.len(),
        )
    }

    #[allow(clippy::too_many_arguments)]
    /// A coordinate-vector joint's rows of `g` at `level` (its written level for rows at
    /// velocity level); `λ` for an inactive one.
    pub(super) fn coordinate_vector_residual(
        &self,
        c: &CoordinateVectorTopology,
        qt: &[f64],
        v: &[f64],
        lambda: &[f64],
        level: ConstraintLevel,
        g: &mut [f64],
        scratch: &mut Scratch,
    ) {
        let out = &mut g[c.ae..c.ae + c.rows];
        if !c.active {
            out.copy_from_slice(&lambda[c.ae..c.ae + c.rows]);
            return;
        }
        rows_at(self, c, qt, v, level, out, &mut scratch.coordinates);
    }

    /// Its Jacobian blocks C (rows × n_i, row-major) into `scratch.jac_a`, `scratch.jac_b`.
    pub(super) fn coordinate_vector_jacobian(
        &self,
        c: &CoordinateVectorTopology,
        qt: &[f64],
        v: &[f64],
        scratch: &mut Scratch,
    ) {
        gather(self, c, qt, v, scratch);
        let (n0, n1) = self.cv_sizes(c);
        let [q0, q1, v0, v1] = &scratch.coordinates;
        let (j0, j1) = (
            &mut scratch.jac_a[..c.rows * n0],
            &mut scratch.jac_b[..c.rows * n1],
        );
        with_views(&c.parameters, |p| {
            (c.definition.jacobian)(p, &q0[..n0], &q1[..n1], &v0[..n0], &v1[..n1], j0, j1)
        });
    }

    /// −(∂(C_q v)/∂q)·v of its rows into `c_out` (all AE entries; 0 for rows written at
    /// velocity level, as Exudyn): from its second-order kernel, or by forward differences of
    /// its velocity residual.
    pub(super) fn coordinate_vector_convective(
        &self,
        c: &CoordinateVectorTopology,
        qt: &[f64],
        v: &[f64],
        c_out: &mut [f64],
        scratch: &mut Scratch,
    ) {
        if !c.active || c.velocity_level() {
            return;
        }
        let (n0, n1) = self.cv_sizes(c);
        let rows = c.rows;
        if let Some(so) = c.definition.second_order {
            gather(self, c, qt, v, scratch);
            let [q0, q1, v0, v1] = &scratch.coordinates;
            let (b0, b1) = (
                &mut scratch.jac_a[..rows * n0],
                &mut scratch.jac_b[..rows * n1],
            );
            with_views(&c.parameters, |p| {
                (so.velocity_residual_q)(p, &q0[..n0], &q1[..n1], &v0[..n0], &v1[..n1], b0, b1)
            });
            for r in 0..rows {
                let a: f64 = (0..n0).map(|j| b0[r * n0 + j] * v0[j]).sum();
                let b: f64 = (0..n1).map(|j| b1[r * n1 + j] * v1[j]).sum();
                c_out[c.ae + r] = -(a + b);
            }
            return;
        }
        // forward differences of the velocity residual over the markers' columns (as Exudyn)
        let vel = ConstraintLevel::Velocity;
        let mut base = std::mem::take(&mut scratch.rows2);
        let mut pert = std::mem::take(&mut scratch.rows3);
        let mut qp = std::mem::take(&mut scratch.fd_q);
        qp.clear();
        qp.extend_from_slice(qt);
        rows_at(
            self,
            c,
            qt,
            v,
            vel,
            &mut base[..rows],
            &mut scratch.coordinates,
        );
        let (m0, m1) = (&self.markers[c.markers[0]], &self.markers[c.markers[1]]);
        let coordinates = &mut scratch.coordinates;
        self.difference_convective(
            [&m0.columns, &m1.columns],
            qt,
            v,
            false,
            &mut qp,
            &mut base[..rows],
            &mut pert[..rows],
            &mut c_out[c.ae..c.ae + rows],
            |qp, pert| rows_at(self, c, qp, v, vel, pert, coordinates),
        );
        scratch.rows2 = base;
        scratch.rows3 = pert;
        scratch.fd_q = qp;
    }

    /// Add `factor`·∂(C_qᵀλ)/∂q (diagonal per marker) into the ODE2 block.
    pub(super) fn add_coordinate_vector_geometric_stiffness(
        &self,
        c: &CoordinateVectorTopology,
        qt: &[f64],
        lambda: &[f64],
        factor: f64,
        m: &mut impl crate::linear::MatrixAccumulator,
        scratch: &mut Scratch,
    ) {
        let Some(so) = c.definition.second_order else {
            return;
        };
        if !c.active {
            return;
        }
        gather(self, c, qt, qt, scratch);
        let (n0, n1) = self.cv_sizes(c);
        let [q0, q1, ..] = &scratch.coordinates;
        let (d0, d1) = (&mut scratch.lhs[..n0], &mut scratch.lhs2[..n1]);
        let l = &lambda[c.ae..c.ae + c.rows];
        with_views(&c.parameters, |p| {
            (so.reaction_q)(p, l, &q0[..n0], &q1[..n1], d0, d1)
        });
        for (k, d) in [(0, &*d0), (1, &*d1)] {
            for (&g, x) in self.markers[c.markers[k]].columns.iter().zip(d) {
                m.add(g, g, factor * x);
            }
        }
    }

    /// Add C_qᵀλ by its `reaction_forces` kernel into `r` (ODE2).
    pub(super) fn add_coordinate_vector_reaction_forces(
        &self,
        c: &CoordinateVectorTopology,
        qt: &[f64],
        lambda: &[f64],
        r: &mut [f64],
        scratch: &mut Scratch,
    ) {
        if !c.active {
            return;
        }
        gather(self, c, qt, qt, scratch);
        let (n0, n1) = self.cv_sizes(c);
        let [q0, q1, v0, v1] = &scratch.coordinates;
        let (f0, f1) = (&mut scratch.lhs[..n0], &mut scratch.lhs2[..n1]);
        let l = &lambda[c.ae..c.ae + c.rows];
        with_views(&c.parameters, |p| {
            (c.definition.reaction_forces)(p, l, &q0[..n0], &q1[..n1], &v0[..n0], &v1[..n1], f0, f1)
        });
        for (k, f) in [(0, &*f0), (1, &*f1)] {
            for (&g, x) in self.markers[c.markers[k]].columns.iter().zip(f) {
                r[g] += x;
            }
        }
    }
}
