//! Physics of Exudyn's `ObjectFFRFreducedOrder` (spec/superelements-and-kinematic-trees.md §2):
//! the floating-frame-of-reference body with modal reduction, as pip Exudyn 1.13.6 computes it.
//!
//! Object coordinates `q = [p (3), θ (4), ζ (n_m)]`: the frame node's position and Euler
//! parameters (a `NodeRigidBodyEP`, *total* coordinates: reference + displacement) and the modal
//! coordinates of the `NodeGenericODE2` (ζ_ref = 0, so total = displacement).
//! Conventions (Exudyn's): `A(θ)` is the Euler-parameter rotation matrix evaluated with θ as it
//! is (not normalised); `G = Ḡ = 2·[[−e1, e0, e3, −e2], [−e2, −e3, e0, e1], [−e3, e2, −e1, e0]]`
//! ("G_loc"); `ω = Ḡ·θ̇` is the *local* (body-frame) angular velocity — the one the FFRF formulas
//! of spec §2.4 use.
//!
//! Only the Euler-parameter frame node is supported. Tait–Bryan (or rotation-vector) frame nodes
//! are not: their Ḡ differs, and Exudyn's built-in terms omit the `Ḡ_t·θ̇` part, which is only
//! zero for Euler parameters. The EP normalisation `|θ|² = 1` is the node's own algebraic
//! equation, not part of this object. User functions (`forceUserFunction`,
//! `massMatrixUserFunction`) are not handled here: a caller adds `M_user` and `−f_user`.
//!
//! The functions do not allocate: all intermediate quantities are 3×3 / 3×4 stack matrices, and
//! the modal products are summed on the fly.

use nalgebra::{DMatrix, Matrix3, Matrix3x4, Vector3, Vector4};

use crate::items::{FfrfParameters, MatrixContainer};

/// Number of coordinates of the Euler-parameter frame node.
pub const FRAME_COORDINATES: usize = 7;

/// The object's constant data (the model file's keys in comments). Matrices given as an empty
/// `MatrixContainer` are 0×0 here.
#[derive(Clone, Debug)]
pub struct FfrfData {
    /// n_m: the number of coordinates of the modal `NodeGenericODE2` (`nodeNumbers[1]`).
    pub n_modes: usize,
    /// `mass` (m).
    pub mass: f64,
    /// `centerOfMass` (χ), local.
    pub center_of_mass: [f64; 3],
    /// `inertia` (Θ, about the frame origin, local). Exudyn 1.13.6 emits this key of
    /// FFRFreducedOrder as a 3×3 matrix and rejects a 6-vector ("Matrix size mismatch: expected 3
    /// rows!"); [`inertia_from_6d`] converts `[Jxx, Jyy, Jzz, Jyz, Jxz, Jxy]`.
    pub inertia: Matrix3<f64>,
    /// `massMatrixReduced` (n_m × n_m).
    pub mass_reduced: DMatrix<f64>,
    /// `stiffnessMatrixReduced` (n_m × n_m).
    pub stiffness_reduced: DMatrix<f64>,
    /// `dampingMatrixReduced` (n_m × n_m, or 0×0 = absent).
    pub damping_reduced: DMatrix<f64>,
    /// `mPsiTildePsi` (3n_m × n_m).
    pub m_psi_tilde_psi: DMatrix<f64>,
    /// `mPsiTildePsiTilde` (3n_m × 3n_m).
    pub m_psi_tilde_psi_tilde: DMatrix<f64>,
    /// `mPhitTPsi` (3 × n_m).
    pub m_phit_t_psi: DMatrix<f64>,
    /// `mPhitTPsiTilde` (3 × 3n_m).
    pub m_phit_t_psi_tilde: DMatrix<f64>,
    /// `mXRefTildePsi` (3 × n_m).
    pub m_xref_tilde_psi: DMatrix<f64>,
    /// `mXRefTildePsiTilde` (3 × 3n_m).
    pub m_xref_tilde_psi_tilde: DMatrix<f64>,
    /// `computeFFRFterms` (default true).
    pub compute_ffrf_terms: bool,
}

/// The symmetric inertia tensor from Exudyn's 6-vector `[Jxx, Jyy, Jzz, Jyz, Jxz, Jxy]`.
pub fn inertia_from_6d(j: [f64; 6]) -> Matrix3<f64> {
    Matrix3::new(j[0], j[5], j[4], j[5], j[1], j[3], j[4], j[3], j[2])
}

impl FfrfData {
    /// The data of an object, checked ([`check`](Self::check)); `n_modes` is the number of
    /// coordinates of its modal node. Also checks, as Exudyn's pre-assembly does, that
    /// `modeBasis` has n_m columns and `referencePositions` 3 entries per mesh node (these two are
    /// used by the superelement markers, not here).
    pub fn from_parameters(p: &FfrfParameters, n_modes: usize) -> Result<Self, (String, String)> {
        let dense = |key: &str, m: &MatrixContainer| {
            m.to_dense()
                .map_err(|message| (key.to_string(), format!("{key}: {message}")))
        };
        let psi = &p.mode_basis;
        if psi.ncols() != n_modes || !psi.nrows().is_multiple_of(3) {
            return Err((
                "modeBasis".into(),
                format!(
                    "modeBasis must be (3·mesh nodes) × {n_modes} ({n_modes} modal coordinates in NodeGenericODE2), but has size {} × {}",
                    psi.nrows(),
                    psi.ncols()
                ),
            ));
        }
        if p.reference_positions.len() != psi.nrows() {
            return Err((
                "referencePositions".into(),
                format!(
                    "referencePositions must have a length of mesh nodes * 3 = {}, but has length {}",
                    psi.nrows(),
                    p.reference_positions.len()
                ),
            ));
        }
        let psi_s = &p.output_variable_mode_basis;
        let mesh_nodes = psi.nrows() / 3;
        if let Some(kind) = p.output_variable_type_mode_basis
            && (psi_s.nrows() != mesh_nodes || psi_s.ncols() != 6 * n_modes)
        {
            return Err((
                "outputVariableModeBasis".into(),
                format!(
                    "with outputVariableTypeModeBasis {kind}, outputVariableModeBasis must be (mesh nodes = {mesh_nodes}) × (6·modes = {}), but has size {} × {}",
                    6 * n_modes,
                    psi_s.nrows(),
                    psi_s.ncols()
                ),
            ));
        }
        let d = FfrfData {
            n_modes,
            mass: p.mass,
            center_of_mass: p.center_of_mass,
            inertia: inertia_from_6d(p.inertia),
            mass_reduced: dense("massMatrixReduced", &p.mass_matrix_reduced)?,
            stiffness_reduced: dense("stiffnessMatrixReduced", &p.stiffness_matrix_reduced)?,
            damping_reduced: dense("dampingMatrixReduced", &p.damping_matrix_reduced)?,
            m_psi_tilde_psi: p.m_psi_tilde_psi.clone(),
            m_psi_tilde_psi_tilde: p.m_psi_tilde_psi_tilde.clone(),
            m_phit_t_psi: p.m_phit_t_psi.clone(),
            m_phit_t_psi_tilde: p.m_phit_t_psi_tilde.clone(),
            m_xref_tilde_psi: p.m_xref_tilde_psi.clone(),
            m_xref_tilde_psi_tilde: p.m_xref_tilde_psi_tilde.clone(),
            compute_ffrf_terms: p.compute_ffrf_terms,
        };
        d.check()?;
        Ok(d)
    }

    /// Number of modes n_m (the modal node's coordinates).
    pub fn modes(&self) -> usize {
        self.n_modes
    }

    /// Check all dimensions against n_m; `Err((key, message))`.
    ///
    /// With `computeFFRFterms` every matrix except `dampingMatrixReduced` is required: Exudyn
    /// needs them all (its pre-assembly check covers only M, K, D and the mode basis; a missing or
    /// wrong-sized `m…` matrix raises "Size mismatch" at the first evaluation). Without it every
    /// matrix may be absent (0×0); `mPhitTPsi` is still used by [`mass_proportional_jacobian`].
    pub fn check(&self) -> Result<(), (String, String)> {
        let n = self.n_modes;
        let required = self.compute_ffrf_terms;
        let shapes: [(&str, &DMatrix<f64>, usize, usize, bool); 9] = [
            ("massMatrixReduced", &self.mass_reduced, n, n, required),
            (
                "stiffnessMatrixReduced",
                &self.stiffness_reduced,
                n,
                n,
                required,
            ),
            ("dampingMatrixReduced", &self.damping_reduced, n, n, false),
            ("mPsiTildePsi", &self.m_psi_tilde_psi, 3 * n, n, required),
            (
                "mPsiTildePsiTilde",
                &self.m_psi_tilde_psi_tilde,
                3 * n,
                3 * n,
                required,
            ),
            ("mPhitTPsi", &self.m_phit_t_psi, 3, n, required),
            (
                "mPhitTPsiTilde",
                &self.m_phit_t_psi_tilde,
                3,
                3 * n,
                required,
            ),
            ("mXRefTildePsi", &self.m_xref_tilde_psi, 3, n, required),
            (
                "mXRefTildePsiTilde",
                &self.m_xref_tilde_psi_tilde,
                3,
                3 * n,
                required,
            ),
        ];
        for (key, m, rows, cols, required) in shapes {
            let absent = m.nrows() == 0 && m.ncols() == 0;
            if absent && !required {
                continue;
            }
            if m.nrows() != rows || m.ncols() != cols {
                let why = if absent {
                    " (it must be given if computeFFRFterms = True)"
                } else {
                    ""
                };
                return Err((
                    key.to_string(),
                    format!(
                        "{key} must be {rows} × {cols} for {n} modal coordinates{why}, but has size {} × {}",
                        m.nrows(),
                        m.ncols()
                    ),
                ));
            }
        }
        if !self.mass.is_finite() {
            return Err((
                "mass".into(),
                format!("mass must be finite, got {}", self.mass),
            ));
        }
        Ok(())
    }
}

fn skew(v: &Vector3<f64>) -> Matrix3<f64> {
    Matrix3::new(0.0, -v[2], v[1], v[2], 0.0, -v[0], -v[1], v[0], 0.0)
}

/// Euler-parameter rotation matrix A(θ), with θ as given (not normalised).
fn ep_rotation(e: &[f64]) -> Matrix3<f64> {
    let (e0, e1, e2, e3) = (e[0], e[1], e[2], e[3]);
    Matrix3::new(
        1.0 - 2.0 * (e2 * e2 + e3 * e3),
        2.0 * (e1 * e2 - e0 * e3),
        2.0 * (e1 * e3 + e0 * e2),
        2.0 * (e1 * e2 + e0 * e3),
        1.0 - 2.0 * (e1 * e1 + e3 * e3),
        2.0 * (e2 * e3 - e0 * e1),
        2.0 * (e1 * e3 - e0 * e2),
        2.0 * (e2 * e3 + e0 * e1),
        1.0 - 2.0 * (e1 * e1 + e2 * e2),
    )
}

/// Ḡ(θ) ("G_loc"): ω_local = Ḡ·θ̇.
fn ep_g_local(e: &[f64]) -> Matrix3x4<f64> {
    let (e0, e1, e2, e3) = (e[0], e[1], e[2], e[3]);
    2.0 * Matrix3x4::new(-e1, e0, e3, -e2, -e2, -e3, e0, e1, -e3, e2, -e1, e0)
}

/// `M·(z⊗I₃) = Σ_j z_j·M[:, 3j..3j+3]` for a 3 × 3n_m matrix M.
fn times_z(m: &DMatrix<f64>, z: &[f64]) -> Matrix3<f64> {
    let mut s = Matrix3::zeros();
    for (j, &zj) in z.iter().enumerate() {
        for c in 0..3 {
            for r in 0..3 {
                s[(r, c)] += zj * m[(r, 3 * j + c)];
            }
        }
    }
    s
}

/// `(a⊗I₃)ᵀ·M·(b⊗I₃) = Σ_ij a_i b_j·M[3i.., 3j..]` for a 3n_m × 3n_m matrix M.
fn z_t_m_z(m: &DMatrix<f64>, a: &[f64], b: &[f64]) -> Matrix3<f64> {
    let mut s = Matrix3::zeros();
    for (j, &bj) in b.iter().enumerate() {
        for c in 0..3 {
            let col = 3 * j + c;
            for (i, &ai) in a.iter().enumerate() {
                let f = ai * bj;
                for r in 0..3 {
                    s[(r, c)] += f * m[(3 * i + r, col)];
                }
            }
        }
    }
    s
}

/// The frame quantities: A, Ḡ.
fn frame(q_frame: &[f64]) -> (Matrix3<f64>, Matrix3x4<f64>) {
    assert_eq!(
        q_frame.len(),
        FRAME_COORDINATES,
        "FFRF frame node: only Euler parameters (7 coordinates) are supported"
    );
    let e = &q_frame[3..7];
    (ep_rotation(e), ep_g_local(e))
}

/// `C = m·χ̃ + M_ΦtΨ̃·Z`.
fn c_matrix(d: &FfrfData, zeta: &[f64]) -> Matrix3<f64> {
    d.mass * skew(&Vector3::from(d.center_of_mass)) + times_z(&d.m_phit_t_psi_tilde, zeta)
}

/// `J_rr = Θ + M_x̃Ψ̃·Z + (M_x̃Ψ̃·Z)ᵀ + Zᵀ·M_Ψ̃Ψ̃·Z`.
fn j_rr(d: &FfrfData, zeta: &[f64]) -> Matrix3<f64> {
    let x = times_z(&d.m_xref_tilde_psi_tilde, zeta);
    d.inertia + x + x.transpose() + z_t_m_z(&d.m_psi_tilde_psi_tilde, zeta, zeta)
}

/// Mass matrix over the object's coordinates, row-major (7+n_m)², into `out`.
///
/// `q_frame`: total coordinates `[x, y, z, θ0..θ3]` of the Euler-parameter frame node; `zeta`:
/// the modal coordinates. With `compute_ffrf_terms == false` the result is zero (Exudyn 1.13.6
/// then adds nothing, not even M_red, unless a mass-matrix user function is given).
pub fn mass_matrix(d: &FfrfData, q_frame: &[f64], zeta: &[f64], out: &mut [f64]) {
    let nm = zeta.len();
    debug_assert_eq!(nm, d.n_modes, "FFRF modal coordinates");
    let n = FRAME_COORDINATES + nm;
    assert_eq!(out.len(), n * n, "FFRF mass matrix size");
    out.fill(0.0);
    if !d.compute_ffrf_terms {
        return;
    }
    let (a, g) = frame(q_frame);
    // M_tt = m·I
    for i in 0..3 {
        out[i * n + i] = d.mass;
    }
    // M_tr = −A·C·Ḡ
    let m_tr = -(a * c_matrix(d, zeta) * g);
    for r in 0..3 {
        for c in 0..4 {
            out[r * n + 3 + c] = m_tr[(r, c)];
            out[(3 + c) * n + r] = m_tr[(r, c)];
        }
    }
    // M_rr = Ḡᵀ·J_rr·Ḡ
    let m_rr = g.transpose() * j_rr(d, zeta) * g;
    for r in 0..4 {
        for c in 0..4 {
            out[(3 + r) * n + 3 + c] = m_rr[(r, c)];
        }
    }
    for k in 0..nm {
        let col = FRAME_COORDINATES + k;
        // M_tf = A·M_ΦtΨ
        let t = a * Vector3::new(
            d.m_phit_t_psi[(0, k)],
            d.m_phit_t_psi[(1, k)],
            d.m_phit_t_psi[(2, k)],
        );
        // M_rf = −Ḡᵀ·(M_x̃Ψ + Zᵀ·M_Ψ̃Ψ)
        let mut b = Vector3::new(
            d.m_xref_tilde_psi[(0, k)],
            d.m_xref_tilde_psi[(1, k)],
            d.m_xref_tilde_psi[(2, k)],
        );
        for (i, &zi) in zeta.iter().enumerate() {
            for r in 0..3 {
                b[r] += zi * d.m_psi_tilde_psi[(3 * i + r, k)];
            }
        }
        let rf: Vector4<f64> = -(g.transpose() * b);
        for r in 0..3 {
            out[r * n + col] = t[r];
            out[col * n + r] = t[r];
        }
        for r in 0..4 {
            out[(3 + r) * n + col] = rf[r];
            out[col * n + 3 + r] = rf[r];
        }
        // M_ff = M_red
        for j in 0..nm {
            out[col * n + FRAME_COORDINATES + j] = d.mass_reduced[(k, j)];
        }
    }
}

/// The object's ODE2 left-hand side (quadratic velocity vector, elastic and damping terms) over
/// its coordinates, length 7+n_m, into `out` (Exudyn's sign: `M·q̈ + LHS = loads`).
///
/// `v_frame`: the frame node's velocities `[ẋ, ẏ, ż, θ̇0..θ̇3]`; `zeta_t`: modal velocities.
/// With `compute_ffrf_terms == false` the result is zero: in Exudyn 1.13.6 `K_red·ζ` and
/// `D_red·ζ̇` are applied only together with the FFRF terms (user functions aside).
pub fn lhs(
    d: &FfrfData,
    q_frame: &[f64],
    v_frame: &[f64],
    zeta: &[f64],
    zeta_t: &[f64],
    out: &mut [f64],
) {
    let nm = zeta.len();
    debug_assert_eq!(nm, d.n_modes, "FFRF modal coordinates");
    assert_eq!(zeta_t.len(), nm, "FFRF modal velocities");
    assert_eq!(out.len(), FRAME_COORDINATES + nm, "FFRF LHS size");
    assert_eq!(v_frame.len(), FRAME_COORDINATES, "FFRF frame velocities");
    out.fill(0.0);
    if !d.compute_ffrf_terms {
        return;
    }
    let (a, g) = frame(q_frame);
    let w = g * Vector4::new(v_frame[3], v_frame[4], v_frame[5], v_frame[6]);

    // LHS_t = −A·ω̃·C·ω − 2·A·M_ΦtΨ̃·Ż·ω
    let c = c_matrix(d, zeta);
    let c_t = times_z(&d.m_phit_t_psi_tilde, zeta_t);
    let lt = -(a * (w.cross(&(c * w)) + 2.0 * (c_t * w)));
    out[..3].copy_from_slice(lt.as_slice());

    // LHS_r = Ḡᵀ·ω̃·J_rr·ω + 2·Ḡᵀ·(M_x̃Ψ̃·Ż + Zᵀ·M_Ψ̃Ψ̃·Ż)·ω
    let jrr = j_rr(d, zeta);
    let x_t = times_z(&d.m_xref_tilde_psi_tilde, zeta_t)
        + z_t_m_z(&d.m_psi_tilde_psi_tilde, zeta, zeta_t);
    let lr = g.transpose() * (w.cross(&(jrr * w)) + 2.0 * (x_t * w));
    out[3..7].copy_from_slice(lr.as_slice());

    // LHS_f = K_red·ζ + D_red·ζ̇ − Ωᵀ·(M_x̃Ψ̃ᵀ + M_Ψ̃Ψ̃·Z)·ω − 2·M_Ψ̃Ψᵀ·Ż·ω
    let has_k = d.stiffness_reduced.nrows() != 0;
    let has_d = d.damping_reduced.nrows() != 0;
    for k in 0..nm {
        let mut s = 0.0;
        for j in 0..nm {
            if has_k {
                s += d.stiffness_reduced[(k, j)] * zeta[j];
            }
            if has_d {
                s += d.damping_reduced[(k, j)] * zeta_t[j];
            }
        }
        // Ωᵀ·y: row k takes ω·y[3k..3k+3], y = M_x̃Ψ̃ᵀ·ω + M_Ψ̃Ψ̃·(ζ⊗ω)
        let mut q = 0.0;
        for r in 0..3 {
            let p = 3 * k + r;
            let mut y = 0.0;
            for t in 0..3 {
                y += d.m_xref_tilde_psi_tilde[(t, p)] * w[t];
            }
            for (j, &zj) in zeta.iter().enumerate() {
                for t in 0..3 {
                    y += d.m_psi_tilde_psi_tilde[(p, 3 * j + t)] * zj * w[t];
                }
            }
            q += w[r] * y;
        }
        // M_Ψ̃Ψᵀ·(ζ̇⊗ω)
        let mut v = 0.0;
        for (j, &zj) in zeta_t.iter().enumerate() {
            for t in 0..3 {
                v += d.m_psi_tilde_psi[(3 * j + t, k)] * zj * w[t];
            }
        }
        out[FRAME_COORDINATES + k] = s - q - 2.0 * v;
    }
}

/// ∂(∫ρ p dV)/∂q, 3 × (7+n_m) row-major, into `out`: `[m·I | −A·skew(m·χ)·Ḡ | A·M_ΦtΨ]` — the
/// Jacobian `LoadMassProportional` uses (`ComputeItem(MassWeightedPositionJacobian)`).
///
/// As in Exudyn 1.13.6 it does not depend on ζ: the term `−A·skew(M_ΦtΨ·ζ)·Ḡ` of the exact
/// derivative is omitted (`zeta` only gives n_m). It is independent of `compute_ffrf_terms`. An
/// absent `mPhitTPsi` (allowed only without FFRF terms) gives zero modal columns.
pub fn mass_proportional_jacobian(d: &FfrfData, q_frame: &[f64], zeta: &[f64], out: &mut [f64]) {
    let nm = zeta.len();
    debug_assert_eq!(nm, d.n_modes, "FFRF modal coordinates");
    let n = FRAME_COORDINATES + nm;
    assert_eq!(out.len(), 3 * n, "FFRF mass-proportional Jacobian size");
    out.fill(0.0);
    let (a, g) = frame(q_frame);
    for i in 0..3 {
        out[i * n + i] = d.mass;
    }
    let rot = -(a * skew(&(d.mass * Vector3::from(d.center_of_mass))) * g);
    for r in 0..3 {
        for c in 0..4 {
            out[r * n + 3 + c] = rot[(r, c)];
        }
    }
    if d.m_phit_t_psi.ncols() == nm && d.m_phit_t_psi.nrows() == 3 {
        for k in 0..nm {
            let t = a * Vector3::new(
                d.m_phit_t_psi[(0, k)],
                d.m_phit_t_psi[(1, k)],
                d.m_phit_t_psi[(2, k)],
            );
            for r in 0..3 {
                out[r * n + FRAME_COORDINATES + k] = t[r];
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::items::{FfrfParameters, MatrixContainer};
    use serde_json::Value;

    const REFERENCE: &str = include_str!("ffrf_reference.json");

    fn reference() -> Value {
        serde_json::from_str(REFERENCE).expect("ffrf_reference.json")
    }

    fn vector(v: &Value) -> Vec<f64> {
        v.as_array()
            .expect("array")
            .iter()
            .map(|x| x.as_f64().expect("number"))
            .collect()
    }

    /// Dense matrix from an array of rows (`[]` = 0×0).
    fn matrix(v: &Value) -> DMatrix<f64> {
        let rows: Vec<Vec<f64>> = v.as_array().expect("rows").iter().map(vector).collect();
        let nr = rows.len();
        let nc = rows.first().map_or(0, Vec::len);
        DMatrix::from_fn(nr, nc, |r, c| rows[r][c])
    }

    /// Row-major flattening of an array of rows.
    fn flat(v: &Value) -> Vec<f64> {
        v.as_array()
            .expect("rows")
            .iter()
            .flat_map(vector)
            .collect()
    }

    fn data(reference: &Value) -> FfrfData {
        let d = &reference["data"];
        let c = vector(&d["centerOfMass"]);
        let inertia = matrix(&d["inertia"]);
        FfrfData {
            n_modes: reference["modes"].as_u64().unwrap() as usize,
            mass: d["mass"].as_f64().unwrap(),
            center_of_mass: [c[0], c[1], c[2]],
            inertia: Matrix3::from_fn(|r, c| inertia[(r, c)]),
            mass_reduced: matrix(&d["massMatrixReduced"]),
            stiffness_reduced: matrix(&d["stiffnessMatrixReduced"]),
            damping_reduced: matrix(&d["dampingMatrixReduced"]),
            m_psi_tilde_psi: matrix(&d["mPsiTildePsi"]),
            m_psi_tilde_psi_tilde: matrix(&d["mPsiTildePsiTilde"]),
            m_phit_t_psi: matrix(&d["mPhitTPsi"]),
            m_phit_t_psi_tilde: matrix(&d["mPhitTPsiTilde"]),
            m_xref_tilde_psi: matrix(&d["mXRefTildePsi"]),
            m_xref_tilde_psi_tilde: matrix(&d["mXRefTildePsiTilde"]),
            compute_ffrf_terms: d["computeFFRFterms"].as_bool().unwrap(),
        }
    }

    struct State {
        q_frame: Vec<f64>,
        v_frame: Vec<f64>,
        zeta: Vec<f64>,
        zeta_t: Vec<f64>,
        mass_matrix: Vec<f64>,
        lhs: Vec<f64>,
        jacobian: Vec<f64>,
    }

    fn states(reference: &Value, key: &str) -> Vec<State> {
        reference[key]
            .as_array()
            .expect("states")
            .iter()
            .map(|s| State {
                q_frame: vector(&s["q_frame"]),
                v_frame: vector(&s["v_frame"]),
                zeta: vector(&s["zeta"]),
                zeta_t: vector(&s["zeta_t"]),
                mass_matrix: flat(&s["mass_matrix"]),
                lhs: vector(&s["lhs"]),
                jacobian: flat(&s["mass_weighted_position_jacobian"]),
            })
            .collect()
    }

    /// max |a − b| / max |b| (absolute if b is all zero).
    fn relative_error(a: &[f64], b: &[f64]) -> f64 {
        assert_eq!(a.len(), b.len());
        let scale = b.iter().fold(0.0f64, |m, x| m.max(x.abs()));
        let err = a
            .iter()
            .zip(b)
            .fold(0.0f64, |m, (x, y)| m.max((x - y).abs()));
        if scale > 0.0 { err / scale } else { err }
    }

    /// Evaluate all three functions at a state; returns the three relative errors.
    fn errors(d: &FfrfData, s: &State) -> [f64; 3] {
        let n = FRAME_COORDINATES + s.zeta.len();
        let mut m = vec![0.0; n * n];
        let mut l = vec![0.0; n];
        let mut j = vec![0.0; 3 * n];
        mass_matrix(d, &s.q_frame, &s.zeta, &mut m);
        lhs(d, &s.q_frame, &s.v_frame, &s.zeta, &s.zeta_t, &mut l);
        mass_proportional_jacobian(d, &s.q_frame, &s.zeta, &mut j);
        [
            relative_error(&m, &s.mass_matrix),
            relative_error(&l, &s.lhs),
            relative_error(&j, &s.jacobian),
        ]
    }

    #[test]
    fn matches_exudyn_at_random_states() {
        let r = reference();
        assert_eq!(r["exudyn_version"], "1.13.6");
        let d = data(&r);
        assert_eq!(d.mass_reduced.nrows(), d.modes());
        d.check().expect("reference data is consistent");
        assert!(d.damping_reduced.iter().any(|&x| x != 0.0));
        let all = states(&r, "states");
        assert_eq!(all.len(), 3);
        for (i, s) in all.iter().enumerate() {
            let norm: f64 = s.q_frame[3..].iter().map(|x| x * x).sum();
            assert!((norm - 1.0).abs() > 1e-3, "θ should be non-unit");
            let [em, el, ej] = errors(&d, s);
            println!(
                "state {i}: mass matrix {em:.2e}, LHS {el:.2e}, mass-proportional Jacobian {ej:.2e}"
            );
            assert!(em < 1e-12, "mass matrix, state {i}: {em:e}");
            assert!(el < 1e-12, "LHS, state {i}: {el:e}");
            assert!(ej < 1e-12, "mass-proportional Jacobian, state {i}: {ej:e}");
        }
    }

    #[test]
    fn without_ffrf_terms_matches_exudyn() {
        let r = reference();
        let mut d = data(&r);
        d.compute_ffrf_terms = false;
        d.check().unwrap();
        for s in states(&r, "states_without_ffrf_terms") {
            assert!(s.mass_matrix.iter().all(|&x| x == 0.0));
            assert!(s.lhs.iter().all(|&x| x == 0.0));
            let [em, el, ej] = errors(&d, &s);
            assert_eq!(em, 0.0);
            assert_eq!(el, 0.0);
            assert!(ej < 1e-12, "mass-proportional Jacobian: {ej:e}");
        }
    }

    #[test]
    fn symmetric_mass_matrix_and_static_lhs() {
        let r = reference();
        let d = data(&r);
        for s in states(&r, "states") {
            let nm = s.zeta.len();
            let n = FRAME_COORDINATES + nm;
            let mut m = vec![0.0; n * n];
            mass_matrix(&d, &s.q_frame, &s.zeta, &mut m);
            let scale = m.iter().fold(0.0f64, |a, x| a.max(x.abs()));
            for i in 0..n {
                for j in 0..n {
                    assert!(
                        (m[i * n + j] - m[j * n + i]).abs() <= 1e-15 * scale,
                        "M[{i},{j}] != M[{j},{i}]"
                    );
                }
            }
            let mut l = vec![f64::NAN; n];
            lhs(&d, &s.q_frame, &[0.0; 7], &s.zeta, &vec![0.0; nm], &mut l);
            assert!(l[..FRAME_COORDINATES].iter().all(|&x| x == 0.0));
            for k in 0..nm {
                let kz: f64 = (0..nm)
                    .map(|j| d.stiffness_reduced[(k, j)] * s.zeta[j])
                    .sum();
                assert!((l[FRAME_COORDINATES + k] - kz).abs() <= 1e-14 * kz.abs().max(1.0));
            }
        }
    }

    #[test]
    fn check_names_the_wrong_key() {
        let r = reference();
        let mut d = data(&r);
        d.m_psi_tilde_psi_tilde = DMatrix::zeros(9, 8);
        let (key, msg) = d.check().unwrap_err();
        assert_eq!(key, "mPsiTildePsiTilde");
        assert!(msg.contains("9 × 9"), "{msg}");

        let mut d = data(&r);
        d.stiffness_reduced = DMatrix::zeros(0, 0);
        assert_eq!(d.check().unwrap_err().0, "stiffnessMatrixReduced");
        d.compute_ffrf_terms = false;
        d.check().unwrap();

        let mut d = data(&r);
        d.damping_reduced = DMatrix::zeros(0, 0);
        d.check().unwrap();
        d.damping_reduced = DMatrix::zeros(2, 2);
        assert_eq!(d.check().unwrap_err().0, "dampingMatrixReduced");
    }

    /// `from_parameters` (6-vector inertia, sparse and dense containers) gives the same data.
    #[test]
    fn from_parameters_matches() {
        let r = reference();
        let d = data(&r);
        let i = d.inertia;
        let sparse = |m: &DMatrix<f64>| MatrixContainer::Sparse {
            rows: m.nrows(),
            columns: m.ncols(),
            triplets: (0..m.nrows())
                .flat_map(|a| (0..m.ncols()).map(move |b| (a, b)))
                .filter(|&(a, b)| m[(a, b)] != 0.0)
                .map(|(a, b)| (a, b, m[(a, b)]))
                .collect(),
        };
        let mut p = FfrfParameters {
            mass_matrix_reduced: MatrixContainer::Dense(d.mass_reduced.clone()),
            stiffness_matrix_reduced: sparse(&d.stiffness_reduced),
            damping_matrix_reduced: sparse(&d.damping_reduced),
            mode_basis: matrix(&r["data"]["modeBasis"]),
            reference_positions: vector(&r["data"]["referencePositions"]),
            m_psi_tilde_psi: d.m_psi_tilde_psi.clone(),
            m_psi_tilde_psi_tilde: d.m_psi_tilde_psi_tilde.clone(),
            m_phit_t_psi: d.m_phit_t_psi.clone(),
            m_phit_t_psi_tilde: d.m_phit_t_psi_tilde.clone(),
            m_xref_tilde_psi: d.m_xref_tilde_psi.clone(),
            m_xref_tilde_psi_tilde: d.m_xref_tilde_psi_tilde.clone(),
            output_variable_mode_basis: DMatrix::zeros(0, 0),
            output_variable_type_mode_basis: None,
            mass: d.mass,
            inertia: [
                i[(0, 0)],
                i[(1, 1)],
                i[(2, 2)],
                i[(1, 2)],
                i[(0, 2)],
                i[(0, 1)],
            ],
            center_of_mass: d.center_of_mass,
            compute_ffrf_terms: true,
        };
        let e = FfrfData::from_parameters(&p, d.n_modes).unwrap();
        assert_eq!(e.inertia, d.inertia);
        assert_eq!(e.stiffness_reduced, d.stiffness_reduced);
        assert_eq!(e.damping_reduced, d.damping_reduced);
        for s in states(&r, "states") {
            assert!(errors(&e, &s).iter().all(|&x| x < 1e-12));
        }
        assert_eq!(
            FfrfData::from_parameters(&p, d.n_modes + 1).unwrap_err().0,
            "modeBasis"
        );
        p.reference_positions.pop();
        assert_eq!(
            FfrfData::from_parameters(&p, d.n_modes).unwrap_err().0,
            "referencePositions"
        );
    }
}
