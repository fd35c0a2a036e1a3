//! Oracle: the joints' rows from docs/joint-formulas.md.

use super::*;

// ------------------------------------------------------------------------------------------------
// Oracle: the joints' rows from docs/joint-formulas.md.

/// One residual row of a frame-based joint (a, b, k: axis indices 0 = x, 1 = y, 2 = z).
#[derive(Clone, Copy, Debug)]
pub(super) enum Row {
    /// `Δp_k`, velocity `Δv_k`.
    Global(usize),
    /// `t_k0·Δp`, velocity `t_k0·Δv + ṫ_k0·Δp`.
    Local(usize),
    /// `t_k1·Δp` (marker 1's frame), velocity `t_k1·Δv + ṫ_k1·Δp`.
    Local1(usize),
    /// `t_a0·t_b1`, velocity `ṫ_a0·t_b1 + t_a0·ṫ_b1`.
    Rotation(usize, usize),
}

use Row::{Global, Local, Local1, Rotation};

/// items.md §4: the positions coincide.
pub(super) const SPHERICAL: [Row; 3] = [Global(0), Global(1), Global(2)];
/// joint-formulas.md §1.
pub(super) const REVOLUTE_Z: [Row; 5] = [
    Global(0),
    Global(1),
    Global(2),
    Rotation(2, 0),
    Rotation(2, 1),
];
/// ObjectJointRevolute2D: the positions coincide in x and y.
pub(super) const REVOLUTE_2D: [Row; 2] = [Global(0), Global(1)];
/// ObjectJointPrismatic2D with `axisMarker0` = column x of frame 0 and `normalMarker1` =
/// column y of frame 1: `Δp·n1`, `t0·n1`.
pub(super) const PRISMATIC_2D: [Row; 2] = [Local1(1), Rotation(0, 1)];
/// joint-formulas.md §2.
pub(super) const PRISMATIC_X: [Row; 5] = [
    Local(1),
    Local(2),
    Rotation(2, 1),
    Rotation(2, 0),
    Rotation(0, 1),
];
/// joint-formulas.md §3 and the candidate rows of joint-kernels: 0–2 global, 3–5 local, 6–11
/// `t_a0·t_b1` for (a, b) = (z, y), (z, x), (x, y), (x, z), (y, x), (y, z).
pub(super) const GENERIC_ROWS: [Row; 12] = [
    Global(0),
    Global(1),
    Global(2),
    Local(0),
    Local(1),
    Local(2),
    Rotation(2, 1),
    Rotation(2, 0),
    Rotation(0, 1),
    Rotation(0, 2),
    Rotation(1, 0),
    Rotation(1, 2),
];

#[derive(Clone, Copy, Debug)]
pub(super) enum Formula {
    Rows(&'static [Row]),
    /// joint-formulas.md §4: `|Δp| − d`, velocity `Δp·Δv/|Δp|`.
    Distance,
}

/// A joint as the oracle knows it: its rows and its parameters.
#[derive(Clone, Debug)]
pub(super) struct JointOracle {
    pub(super) formula: Formula,
    pub(super) distance: f64,
    pub(super) rotation_marker: [M3; 2],
}

impl JointOracle {
    pub(super) fn rows(&self) -> usize {
        match self.formula {
            Formula::Rows(rows) => rows.len(),
            Formula::Distance => 1,
        }
    }

    /// Position-level rows, velocity-level rows, and the rows whose velocity derivative is
    /// Exudyn's constraint Jacobian C, from both markers' kinematics. The velocity level turns a
    /// frame axis with the local angular velocity, `ṫ = A·(ω̄ × R e_k)`; C's rows turn it with the
    /// global one, `ṫ = ω × t` (docs/joint-formulas.md §0 and §6.5): the two agree wherever A is
    /// orthonormal, and differ for Euler parameters off the unit sphere.
    pub(super) fn residuals<D: Num>(&self, k: [&Kin<D>; 2]) -> (Vec<D>, Vec<D>, Vec<D>) {
        let dp = sub3(k[1].p, k[0].p);
        let dv = sub3(k[1].v, k[0].v);
        let rows = match self.formula {
            Formula::Distance => {
                let norm = dot3(dp, dp).sqrt();
                let vel = dot3(dp, dv) / norm;
                return (vec![norm - self.distance], vec![vel], vec![vel]);
            }
            Formula::Rows(rows) => rows,
        };
        // Column k of A_i·R_i, of A_i·skew(ω̄_i)·R_i (= A_i·(ω̄_i × R_i·e_k)) and of
        // skew(ω_i)·A_i·R_i.
        let frame = |i: usize, axis: usize| -> ([D; 3], [D; 3], [D; 3]) {
            let a = k[i]
                .a
                .as_ref()
                .expect("a frame row needs an orientation marker");
            let r = &self.rotation_marker[i];
            let re = [0, 1, 2].map(|m| D::from(r[m][axis]));
            let t = mat_vec(a, re);
            (t, mat_vec(a, cross3(k[i].wl, re)), cross3(k[i].wg, t))
        };
        let mut pos = Vec::with_capacity(rows.len());
        let mut vel = Vec::with_capacity(rows.len());
        let mut jac = Vec::with_capacity(rows.len());
        for row in rows {
            match *row {
                Global(c) => {
                    pos.push(dp[c]);
                    vel.push(dv[c]);
                    jac.push(dv[c]);
                }
                Local(c) | Local1(c) => {
                    let (t, tt, tg) = frame(if matches!(row, Local1(_)) { 1 } else { 0 }, c);
                    pos.push(dot3(t, dp));
                    vel.push(dot3(t, dv) + dot3(tt, dp));
                    jac.push(dot3(t, dv) + dot3(tg, dp));
                }
                Rotation(a, b) => {
                    let (ta, tta, tga) = frame(0, a);
                    let (tb, ttb, tgb) = frame(1, b);
                    pos.push(dot3(ta, tb));
                    vel.push(dot3(tta, tb) + dot3(ta, ttb));
                    jac.push(dot3(tga, tb) + dot3(ta, tgb));
                }
            }
        }
        (pos, vel, jac)
    }
}
