//! The fast path's inertia terms of rigid bodies with their centre of mass at the node, in
//! Newton–Euler form (spec/items.md §3.3 rearranged):
//!
//! M·ä + LHS = [m·ü ; Ḡᵀ(J·α + ω̄ × J·ω̄)],  α = Ḡ·θ̈ + Ḡ_t·θ̇,  ω̄ = Ḡ·θ̇,
//!
//! one product with Ḡᵀ instead of forming M_θθ = ḠᵀJḠ and multiplying by θ̈ (Exudyn's order,
//! which the exact mode keeps because the reference cases pin its rounding).

use super::rigid_body::rigid_newton_euler;
use super::Scratch;
use crate::assemble::{BodyTopology, Topology};

impl Topology {
    /// r = M(q)·ä − f(q, q̇) over the ODE2 coordinates, with the rigid bodies whose centre of
    /// mass is at the node in Newton–Euler form; f (loads − LHS) is complete on return, as
    /// [`ode2_rhs`](Topology::ode2_rhs) writes it. Equal to −f + M·ä up to rounding
    /// (`newton_euler_residual_is_mass_times_acceleration_minus_rhs`).
    #[allow(clippy::too_many_arguments)]
    pub fn newton_euler_residual(
        &self,
        qt: &[f64],
        v: &[f64],
        a: &[f64],
        data: &[f64],
        f: &mut [f64],
        r: &mut [f64],
        scratch: &mut Scratch,
    ) {
        // f without the centred rigid bodies' LHS: r = −f + M·ä takes it back below
        self.ode2_rhs_parts(qt, v, data, 1.0, f, scratch, true);
        for (r, f) in r.iter_mut().zip(f.iter()) {
            *r = -f;
        }
        self.add_mass_times_parts(qt, a, r, scratch, true);
        for body in &self.bodies {
            if let BodyTopology::Rigid {
                ode2,
                rotation,
                mass,
                inertia,
                center_of_mass: [0.0, 0.0, 0.0],
            } = body
            {
                let n = ode2.len();
                let (inertial, lhs) = (&mut scratch.lhs[..n], &mut scratch.lhs2[..n]);
                rigid_newton_euler(
                    *rotation,
                    *mass,
                    inertia,
                    &qt[ode2.clone()],
                    &v[ode2.clone()],
                    &a[ode2.clone()],
                    inertial,
                    lhs,
                );
                for i in 0..n {
                    f[ode2.start + i] -= lhs[i];
                    r[ode2.start + i] += inertial[i];
                }
            }
        }
    }
}
