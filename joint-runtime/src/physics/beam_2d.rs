//! ObjectBeamGeometricallyExact2D: Exudyn's two-node shear-deformable planar beam on
//! NodeRigidBody2D coordinates `q = [x0, y0, ψ0, x1, y1, ψ1]` (totals).
//!
//! Linear shape functions `N = [½ − ξ/L, ½ + ξ/L]` over ξ ∈ [−L/2, L/2]. The strains are
//! evaluated at the midpoint (one Gauss point, reduced integration against shear locking):
//! with the section angle `θ = N·ψ` (less the nodes' reference angles plus the reference slope's
//! angle unless `includeReferenceRotations`) and the centre line's slope `r' = N'·[x, y]`,
//! axial strain `γ1 = r'·[cos θ, sin θ] − 1`, shear strain `γ2 = r'·[−sin θ, cos θ]`, curvature
//! `κ = N'·ψ − κ_ref`. The LHS is the virtual work of the section forces,
//! `L·[(EA γ1 + D_a γ̇1) δγ1 + (GA γ2 + D_s γ̇2) δγ2 + (EI κ + D_b κ̇) δκ]`, written term by term as
//! Exudyn writes it so that it rounds alike. Exudyn differentiates it automatically for its
//! Jacobian; so does [`beam_2d_lhs_jacobian`] (num-dual), exactly, not by differences.
//!
//! The mass matrix is `∫ Nᵢ Nⱼ (ρA, ρA, ρJ)` by two-point Gauss quadrature (exact for linear N).

use num_dual::{Dual64, DualNum};

use crate::items::beam::Beam2D;

/// ±1/√3: the two-point Gauss rule on [−1, 1] (weights 1).
const GAUSS_2: [f64; 2] = [-0.577_350_269_189_625_8, 0.577_350_269_189_625_8];

/// The 6 × 6 mass matrix, row-major.
pub(super) fn beam_2d_mass_matrix(beam: &Beam2D) -> [f64; 36] {
    let (a, b) = (-0.5 * beam.length, 0.5 * beam.length);
    let mut m = [0.0; 36];
    for point in GAUSS_2 {
        let x = 0.5 * (b - a) * point + 0.5 * (b + a);
        let n = shape(beam.length, x);
        let weight = 0.5 * (b - a);
        for i in 0..2 {
            for j in 0..2 {
                let nn = n[i] * n[j];
                for (k, rho) in [
                    beam.mass_per_length,
                    beam.mass_per_length,
                    beam.cross_section_inertia,
                ]
                .into_iter()
                .enumerate()
                {
                    m[(3 * i + k) * 6 + 3 * j + k] += nn * rho * weight;
                }
            }
        }
    }
    m
}

fn shape(length: f64, x: f64) -> [f64; 2] {
    [(0.5 * length - x) / length, (0.5 * length + x) / length]
}

/// The LHS at total coordinates `q` and velocities `q_t`; `q_ref` the reference coordinates.
pub(super) fn beam_2d_lhs<D: DualNum<Primitive = f64> + Copy>(
    beam: &Beam2D,
    q_ref: &[f64; 6],
    q: &[D; 6],
    q_t: &[D; 6],
) -> [D; 6] {
    let l = beam.length;
    // one Gauss point, ξ = 0
    let n = shape(l, 0.0);
    let n_x = [-1.0 / l, 1.0 / l];
    let fact = l;
    let map = |v: &[f64; 6], w: &[f64; 2], k: usize| w[0] * v[k] + w[1] * v[3 + k];
    let map_d = |v: &[D; 6], w: &[f64; 2], k: usize| v[k] * w[0] + v[3 + k] * w[1];
    let slope_ref = [map(q_ref, &n_x, 0), map(q_ref, &n_x, 1)];
    let mut theta = D::from(0.0);
    if !beam.include_reference_rotations {
        theta = D::from(slope_ref[1].atan2(slope_ref[0]) - map(q_ref, &n, 2));
    }
    theta += map_d(q, &n, 2);
    let slope = [map_d(q, &n_x, 0), map_d(q, &n_x, 1)];
    let u1_x = slope[0] - slope_ref[0];
    let u2_x = slope[1] - slope_ref[1];
    let theta_x = map_d(q, &n_x, 2) - beam.reference_curvature;
    let (s, c) = (theta.sin(), theta.cos());
    let rs = slope_ref;
    let r0 = u1_x + rs[0] - c;
    let r1 = u2_x + rs[1] - s;
    let gamma1 = c * r0 + s * r1;
    let term_gamma1 = -s * r0 + c * s + c * r1 - s * c;
    let gamma2 = -s * r0 + c * r1;
    let term_gamma2 = -c * r0 - s * s - s * r1 - c * c;
    let delta_gamma1 = [
        c * n_x[0],
        s * n_x[0],
        term_gamma1 * n[0],
        c * n_x[1],
        s * n_x[1],
        term_gamma1 * n[1],
    ];
    let delta_gamma2 = [
        -s * n_x[0],
        c * n_x[0],
        term_gamma2 * n[0],
        -s * n_x[1],
        c * n_x[1],
        term_gamma2 * n[1],
    ];
    let theta_xt = map_d(q_t, &n_x, 2);
    let dot = |a: &[D; 6], b: &[D; 6]| (1..6).fold(a[0] * b[0], |acc, i| acc + a[i] * b[i]);
    let gamma1_t = dot(&delta_gamma1, q_t);
    let gamma2_t = dot(&delta_gamma2, q_t);
    let axial = (gamma1_t * beam.axial_damping + gamma1 * beam.axial_stiffness) * fact;
    let shear = (gamma2_t * beam.shear_damping + gamma2 * beam.shear_stiffness) * fact;
    let bend = (theta_xt * beam.bending_damping + theta_x * beam.bending_stiffness) * fact;
    let mut lhs = [D::from(0.0); 6];
    for i in 0..6 {
        lhs[i] += axial * delta_gamma1[i];
    }
    for i in 0..6 {
        lhs[i] += shear * delta_gamma2[i];
    }
    for i in 0..2 {
        lhs[3 * i + 2] += bend * n_x[i];
    }
    lhs
}

/// `factor_q`·∂LHS/∂q + `factor_q_t`·∂LHS/∂q̇, row-major 6 × 6, by forward-mode automatic
/// differentiation (one dual evaluation per column).
pub(super) fn beam_2d_lhs_jacobian(
    beam: &Beam2D,
    q_ref: &[f64; 6],
    q: &[f64; 6],
    q_t: &[f64; 6],
    factor_q: f64,
    factor_q_t: f64,
) -> [f64; 36] {
    let mut jac = [0.0; 36];
    for (velocity, factor) in [(false, factor_q), (true, factor_q_t)] {
        if factor == 0.0 {
            continue;
        }
        for col in 0..6 {
            let seed = |v: &[f64; 6], on: bool| {
                std::array::from_fn(|i| Dual64::new(v[i], if on && i == col { 1.0 } else { 0.0 }))
            };
            let out = beam_2d_lhs(beam, q_ref, &seed(q, !velocity), &seed(q_t, velocity));
            for row in 0..6 {
                jac[row * 6 + col] += factor * out[row].eps;
            }
        }
    }
    jac
}

#[cfg(test)]
mod tests {
    use super::*;

    fn beam() -> Beam2D {
        Beam2D {
            length: 0.5,
            mass_per_length: 7.8,
            cross_section_inertia: 0.0065,
            bending_stiffness: 17.5,
            axial_stiffness: 2.1e3,
            shear_stiffness: 6.9e2,
            bending_damping: 0.3,
            axial_damping: 20.0,
            shear_damping: 5.0,
            reference_curvature: 0.1,
            include_reference_rotations: false,
        }
    }

    /// The beam in its reference configuration gives no force (without reference curvature,
    /// with equal node angles: its curvature is N'·ψ), and a rigid motion of it (a turn about
    /// z and a shift, at rest) none either.
    #[test]
    fn rigid_motions_are_stress_free() {
        let mut b = beam();
        b.reference_curvature = 0.0;
        let q_ref = [
            0.2,
            0.1,
            0.3,
            0.2 + 0.5 * 0.6f64.cos(),
            0.1 + 0.5 * 0.6f64.sin(),
            0.3,
        ];
        let zero = [0.0; 6];
        let lhs = beam_2d_lhs(&b, &q_ref, &q_ref, &zero);
        assert!(lhs.iter().all(|x| x.abs() < 1e-6), "{lhs:?}");
        let (s, c) = 0.7f64.sin_cos();
        let turn = |x: f64, y: f64| [c * x - s * y + 1.0, s * x + c * y - 2.0];
        let (p0, p1) = (turn(q_ref[0], q_ref[1]), turn(q_ref[3], q_ref[4]));
        let q = [p0[0], p0[1], q_ref[2] + 0.7, p1[0], p1[1], q_ref[5] + 0.7];
        let lhs = beam_2d_lhs(&b, &q_ref, &q, &zero);
        assert!(lhs.iter().all(|x| x.abs() < 1e-6), "{lhs:?}");
    }

    /// The automatic Jacobian against central differences of the LHS (stiffnesses small enough
    /// that the differences' round-off stays below 1e-7).
    #[test]
    fn jacobian_matches_central_differences() {
        let b = beam();
        let q_ref = [0.0, 0.0, 0.0, 0.5, 0.0, 0.0];
        let q = [0.01, -0.02, 0.1, 0.52, 0.03, -0.2];
        let q_t = [0.3, -0.1, 0.5, 0.2, 0.4, -0.6];
        for (factor_q, factor_q_t) in [(1.0, 0.0), (0.0, 1.0)] {
            let jac = beam_2d_lhs_jacobian(&b, &q_ref, &q, &q_t, factor_q, factor_q_t);
            for col in 0..6 {
                let h = 1e-6;
                let at = |d: f64| {
                    let (mut q2, mut qt2) = (q, q_t);
                    if factor_q == 1.0 {
                        q2[col] += d;
                    } else {
                        qt2[col] += d;
                    }
                    beam_2d_lhs(&b, &q_ref, &q2, &qt2)
                };
                let (plus, minus) = (at(h), at(-h));
                for row in 0..6 {
                    let fd = (plus[row] - minus[row]) / (2.0 * h);
                    let want = jac[row * 6 + col];
                    assert!(
                        (fd - want).abs() <= 1e-6 * (1.0 + want.abs()),
                        "({row}, {col}): {want} vs {fd}"
                    );
                }
            }
        }
    }

    /// The consistent mass matrix of a linear element: ρA·L/6·[[2, 1], [1, 2]] per translation.
    #[test]
    fn mass_matrix_is_the_consistent_one() {
        let b = beam();
        let m = beam_2d_mass_matrix(&b);
        let ra = b.mass_per_length * b.length / 6.0;
        assert!((m[0] - 2.0 * ra).abs() < 1e-14 && (m[3] - ra).abs() < 1e-14);
        let rj = b.cross_section_inertia * b.length / 6.0;
        assert!((m[2 * 6 + 2] - 2.0 * rj).abs() < 1e-16 && (m[2 * 6 + 5] - rj).abs() < 1e-16);
        assert_eq!(m[1], 0.0);
    }
}
