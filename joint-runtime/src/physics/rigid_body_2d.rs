//! ObjectRigidBody2D's own terms on [x, y, ψ]: its mass matrix and the quadratic-velocity LHS,
//! Exudyn's formulas (spec/items.md; `physicsInertia` J is about the node, the centre of mass
//! `c` in body axes).
//!
//! With `G = m·A(ψ)·[−c_y, c_x]`: `M = [[m, 0, G_x], [0, m, G_y], [G_x, G_y, J]]` and
//! `LHS = [−m ψ̇² (A c)_x, −m ψ̇² (A c)_y, 0]`, both reducing to the constant `diag(m, m, J)` and
//! 0 for `c = 0`. The LHS is Lagrange's `Ṁ q̇ − ∂T/∂q` for `T = ½ q̇ᵀ M(ψ) q̇`
//! (`lhs_is_lagranges_velocity_term`).

/// A(ψ)·v for a plane vector.
fn turned(psi: f64, v: [f64; 2]) -> [f64; 2] {
    let (s, c) = psi.sin_cos();
    [c * v[0] - s * v[1], s * v[0] + c * v[1]]
}

/// The row-major 3 × 3 mass matrix at total angle `psi`.
pub(super) fn rigid_2d_mass_matrix(
    mass: f64,
    inertia: f64,
    center_of_mass: [f64; 2],
    psi: f64,
) -> [f64; 9] {
    let [c0, c1] = center_of_mass;
    let g = if center_of_mass == [0.0, 0.0] {
        [0.0, 0.0]
    } else {
        let t = turned(psi, [-c1, c0]);
        [mass * t[0], mass * t[1]]
    };
    [mass, 0.0, g[0], 0.0, mass, g[1], g[0], g[1], inertia]
}

/// The LHS at total angle `psi` and angular velocity `psi_t`.
pub(super) fn rigid_2d_lhs(mass: f64, center_of_mass: [f64; 2], psi: f64, psi_t: f64) -> [f64; 3] {
    if center_of_mass == [0.0, 0.0] {
        return [0.0; 3];
    }
    let t = turned(psi, center_of_mass);
    let f = -(mass * (psi_t * psi_t));
    [f * t[0], f * t[1], 0.0]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// M(ψ)·q̈ + LHS are Lagrange's equations of T = ½ q̇ᵀ M(ψ) q̇: LHS = Ṁ q̇ − ∂T/∂q, with
    /// Ṁ = ψ̇ ∂M/∂ψ and ∂T/∂ψ = ½ q̇ᵀ (∂M/∂ψ) q̇, ∂M/∂ψ by central differences.
    #[test]
    fn lhs_is_lagranges_velocity_term() {
        let (m, j, c) = (2.5, 0.7, [0.3, -0.45]);
        for (psi, v) in [(0.4, [0.2, -1.1, 2.3]), (-2.9, [1.5, 0.3, -0.8])] {
            let h = 1e-6;
            let dm: Vec<f64> = rigid_2d_mass_matrix(m, j, c, psi + h)
                .iter()
                .zip(rigid_2d_mass_matrix(m, j, c, psi - h))
                .map(|(a, b)| (a - b) / (2.0 * h))
                .collect();
            let dm_v = |i: usize| (0..3).map(|k| dm[3 * i + k] * v[k]).sum::<f64>();
            let dt_dpsi = 0.5 * (0..3).map(|i| v[i] * dm_v(i)).sum::<f64>();
            let want = [v[2] * dm_v(0), v[2] * dm_v(1), v[2] * dm_v(2) - dt_dpsi];
            let lhs = rigid_2d_lhs(m, c, psi, v[2]);
            for i in 0..3 {
                assert!((lhs[i] - want[i]).abs() < 1e-8, "{lhs:?} vs {want:?}");
            }
        }
    }

    /// M is the kinetic energy's: ½ q̇ᵀ M q̇ = ½ m |v_c|² + ½ (J − m|c|²) ψ̇², with v_c the
    /// centre of mass's velocity and J about the node (Steiner).
    #[test]
    fn mass_matrix_gives_the_kinetic_energy() {
        let (m, j, c, psi) = (2.5, 0.7, [0.3, -0.45], 1.2);
        let v = [0.2, -1.1, 2.3];
        let mm = rigid_2d_mass_matrix(m, j, c, psi);
        let t: f64 = (0..3)
            .map(|i| (0..3).map(|k| v[i] * mm[3 * i + k] * v[k]).sum::<f64>())
            .sum::<f64>()
            / 2.0;
        let ac = turned(psi, c);
        let vc = [v[0] - v[2] * ac[1], v[1] + v[2] * ac[0]];
        let c2 = c[0] * c[0] + c[1] * c[1];
        let want = 0.5 * m * (vc[0] * vc[0] + vc[1] * vc[1]) + 0.5 * (j - m * c2) * v[2] * v[2];
        assert!((t - want).abs() < 1e-12, "{t} vs {want}");
    }
}
