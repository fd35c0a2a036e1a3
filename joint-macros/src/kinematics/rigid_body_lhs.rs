//! A rigid body's quadratic-velocity terms, Exudyn's LHS ("version 1" equations, spec/items.md
//! §3.3), and their derivatives by the rotation parameters θ and their rates θ̇: the stiffness
//! and damping blocks a rigid body adds to the iteration matrix, which Exudyn forms by forward
//! differences of the LHS.
//!
//! LHS_u = A·(ω̄ × (U × ω̄) + U × Ḡ_t·θ̇),  LHS_θ = Ḡᵀ·(ω̄ × J·ω̄ + J·Ḡ_t·θ̇),
//!
//! with ω̄ = Ḡ·θ̇, U = −m·b (b the centre of mass in the body frame) and J the inertia about the
//! node. Neither reads the position or the translational velocity, so only the θ and θ̇ columns
//! are derived. Ḡ_t·θ̇ = Σ_k ∂(Ḡ·θ̇)/∂θ_k·θ̇_k is formed from Ḡ where the parametrization needs
//! it; for Euler parameters it vanishes identically (Ḡ is linear in θ and Ḡ(θ̇)·θ̇ = 0), as in
//! Exudyn, and is left out (`euler_parameters_have_no_rate_term` pins that).

use super::ParametrizationFn;
use super::rotation::Parametrization;
use crate::symbolic::diff::derivative_memo;
use crate::symbolic::vector::{self, Mat3, Vec3};
use crate::symbolic::{Graph, Id};

/// The inertia J about the node, row-major: `inertia[r][c]` is variable `j{r}{c}`.
pub const INERTIA: [&str; 9] = [
    "j00", "j01", "j02", "j10", "j11", "j12", "j20", "j21", "j22",
];
/// U = −m·b, the body's first moment of mass about the node, in the body frame.
pub const MOMENT: [&str; 3] = ["u0", "u1", "u2"];

/// A rotation parametrization of a rigid node, as the LHS needs it.
#[derive(Clone, Copy)]
pub struct RigidRotation {
    /// The generated functions' name.
    pub name: &'static str,
    /// What the parameters are, for the generated documentation.
    pub title: &'static str,
    pub parametrization: ParametrizationFn,
    /// Number of rotation parameters (θ and θ̇ are `theta{k}`, `theta_t{k}`).
    pub parameters: usize,
    /// Whether Ḡ_t·θ̇ is formed (false where it vanishes identically).
    pub rate_term: bool,
}

/// The rigid nodes whose rotation parameters are coordinates: Euler parameters and Tait–Bryan
/// angles xyz. (A Lie-group node's rotation is composed, not added, so its Jacobian is not a
/// derivative by its coordinates.)
pub const RIGID_ROTATIONS: [RigidRotation; 2] = [
    RigidRotation {
        name: "euler_parameters",
        title: "Euler parameters",
        parametrization: super::rotation::euler_parameters::parametrization,
        parameters: 4,
        rate_term: false,
    },
    RigidRotation {
        name: "tait_bryan_xyz",
        title: "Tait–Bryan angles xyz",
        parametrization: super::rotation::tait_bryan::parametrization,
        parameters: 3,
        rate_term: true,
    },
];

/// A rigid body's LHS and its derivatives, as expressions.
pub struct RigidLhs {
    /// The LHS rows that can be non-zero: the 3 translational rows (unless centred), then the
    /// rotation parameters' rows.
    pub lhs: Vec<Id>,
    /// ∂LHS/∂θ, row-major: one row per entry of `lhs`, one column per rotation parameter.
    pub stiffness: Vec<Id>,
    /// ∂LHS/∂θ̇, laid out as `stiffness`.
    pub damping: Vec<Id>,
}

/// The variables θ (`theta{k}`) and θ̇ (`theta_t{k}`) of `n` rotation parameters.
fn parameters(g: &mut Graph, n: usize) -> (Vec<Id>, Vec<Id>) {
    let theta = (0..n).map(|k| g.var(&format!("theta{k}"))).collect();
    let rates = (0..n).map(|k| g.var(&format!("theta_t{k}"))).collect();
    (theta, rates)
}

/// Ḡ_t·θ̇ = Σ_k ∂(Ḡ·θ̇)/∂θ_k·θ̇_k.
fn rate_term(g: &mut Graph, omega: Vec3, theta: &[Id], rates: &[Id]) -> Vec3 {
    let mut terms: [Vec<Id>; 3] = Default::default();
    for (&t, &rate) in theta.iter().zip(rates) {
        let mut memo = Default::default();
        for (i, terms) in terms.iter_mut().enumerate() {
            let d = derivative_memo(g, omega[i], t, &mut memo);
            terms.push(g.mul(d, rate));
        }
    }
    terms.map(|t| g.sum(&t))
}

/// The LHS of a rigid body with rotation `rotation`; `centred`: its centre of mass at the node
/// (U = 0, no translational rows).
pub fn rigid_lhs(g: &mut Graph, rotation: RigidRotation, centred: bool) -> RigidLhs {
    let n = rotation.parameters;
    let (theta, rates) = parameters(g, n);
    let j: Vec<Id> = INERTIA.iter().map(|name| g.var(name)).collect();
    let inertia: Mat3 = [[j[0], j[1], j[2]], [j[3], j[4], j[5]], [j[6], j[7], j[8]]];
    let Parametrization {
        rotation: a,
        g_local_columns,
        ..
    } = (rotation.parametrization)(g, &theta);
    let omega = Parametrization::apply(g, &g_local_columns, &rates);
    let rate = rotation
        .rate_term
        .then(|| rate_term(g, omega, &theta, &rates));
    // LHS_θ = Ḡᵀ·t, t = ω̄ × J·ω̄ (+ J·Ḡ_t·θ̇)
    let j_omega = vector::mat_vec(g, &inertia, omega);
    let mut t = vector::cross(g, omega, j_omega);
    if let Some(rate) = rate {
        let j_rate = vector::mat_vec(g, &inertia, rate);
        t = vector::add(g, t, j_rate);
    }
    let mut lhs = Vec::with_capacity(3 + n);
    if !centred {
        let u: Vec<Id> = MOMENT.iter().map(|name| g.var(name)).collect();
        let u = [u[0], u[1], u[2]];
        let u_omega = vector::cross(g, u, omega);
        let mut s = vector::cross(g, omega, u_omega);
        if let Some(rate) = rate {
            let u_rate = vector::cross(g, u, rate);
            s = vector::add(g, s, u_rate);
        }
        lhs.extend(vector::mat_vec(g, &a, s));
    }
    for column in &g_local_columns {
        lhs.push(vector::dot(g, *column, t));
    }
    let derive = |g: &mut Graph, by: &[Id]| {
        let mut out = vec![g.zero(); lhs.len() * n];
        for (k, &x) in by.iter().enumerate() {
            let mut memo = Default::default();
            for (row, &e) in lhs.iter().enumerate() {
                out[row * n + k] = derivative_memo(g, e, x, &mut memo);
            }
        }
        out
    };
    let stiffness = derive(g, &theta);
    let damping = derive(g, &rates);
    RigidLhs {
        lhs,
        stiffness,
        damping,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(name: &str) -> f64 {
        // arbitrary, not special: every variable a different value
        let h = name
            .bytes()
            .fold(17u64, |h, b| h.wrapping_mul(31).wrapping_add(b as u64));
        ((h % 1000) as f64 / 1000.0 - 0.5) * 1.7
    }

    /// Ḡ_t·θ̇ = Ḡ(θ̇)·θ̇ is zero for Euler parameters at any θ, θ̇: the term is left out there.
    #[test]
    fn euler_parameters_have_no_rate_term() {
        // Ḡ_t·θ̇ of a parametrization at `values`
        let rate_at_values = |rotation: RigidRotation| {
            let mut g = Graph::new();
            let (theta, rates) = parameters(&mut g, rotation.parameters);
            let p = (rotation.parametrization)(&mut g, &theta);
            let omega = Parametrization::apply(&mut g, &p.g_local_columns, &rates);
            let rate = rate_term(&mut g, omega, &theta, &rates);
            rate.map(|r| g.eval(r, &values))
        };
        let [ep, tb] = RIGID_ROTATIONS;
        assert!(!ep.rate_term && ep.name == "euler_parameters");
        assert!(rate_at_values(ep).iter().all(|r| r.abs() < 1e-15));
        // and Tait–Bryan angles need it
        assert!(tb.rate_term);
        assert!(rate_at_values(tb).iter().any(|r| r.abs() > 1e-3));
    }

    /// The derivatives against central differences of the LHS expression itself.
    #[test]
    fn stiffness_and_damping_are_the_lhs_derivatives() {
        for rotation in RIGID_ROTATIONS {
            for centred in [true, false] {
                let mut g = Graph::new();
                let f = rigid_lhs(&mut g, rotation, centred);
                let n = rotation.parameters;
                for (blocks, prefix) in [(&f.stiffness, "theta"), (&f.damping, "theta_t")] {
                    for k in 0..n {
                        let var = format!("{prefix}{k}");
                        let h = 1e-6;
                        let at = |shift: f64| {
                            let var = var.clone();
                            move |name: &str| values(name) + if name == var { shift } else { 0.0 }
                        };
                        for (row, &e) in f.lhs.iter().enumerate() {
                            let fd = (g.eval(e, &at(h)) - g.eval(e, &at(-h))) / (2.0 * h);
                            let exact = g.eval(blocks[row * n + k], &values);
                            assert!(
                                (fd - exact).abs() <= 1e-7 * (1.0 + exact.abs()),
                                "{} centred {centred}: ∂LHS[{row}]/∂{var} {exact} against {fd}",
                                rotation.name
                            );
                        }
                    }
                }
            }
        }
    }
}
