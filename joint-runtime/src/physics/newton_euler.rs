//! The fast path's inertia terms of rigid bodies with their centre of mass at the node, in
//! Newton–Euler form (spec/items.md §3.3 rearranged):
//!
//! M·ä + LHS = [m·ü ; Ḡᵀ(J·α + ω̄ × J·ω̄)],  α = Ḡ·θ̈ + Ḡ_t·θ̇,  ω̄ = Ḡ·θ̇,
//!
//! one product with Ḡᵀ instead of forming M_θθ = ḠᵀJḠ and multiplying by θ̈ (Exudyn's order,
//! which the exact mode keeps because the reference cases pin its rounding).

use super::rigid_body::rigid_newton_euler;
use super::{RhsForm, Scratch};
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
        self.ode2_rhs_parts(qt, v, data, 1.0, f, scratch, RhsForm::Fast);
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

#[cfg(test)]
mod tests {
    use crate::assemble::BodyTopology;
    use crate::model::read_model;
    use crate::physics::Scratch;

    const CORPUS: &[&str] = &[
        concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/reference/own_cases/"),
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../tests/reference/exudyn_cases/"
        ),
    ];

    /// The fast path's residual against the exact mode's −f + M·ä (the sums Exudyn's order
    /// keeps) on every model of the reference corpus, at its initial coordinates with
    /// velocities and accelerations of order 1: equal up to rounding, with f complete.
    #[test]
    fn newton_euler_residual_is_mass_times_acceleration_minus_rhs() {
        let (mut models, mut centred) = (0, 0);
        for dir in CORPUS {
            for entry in std::fs::read_dir(dir).expect("reference corpus") {
                let path = entry.expect("a directory entry").path();
                if path.extension().is_none_or(|e| e != "json") {
                    continue;
                }
                let text = std::fs::read_to_string(&path).expect("a model file");
                let Ok(model) = read_model(&text) else {
                    continue;
                };
                let Ok(mut sim) = model.mbs.assemble() else {
                    continue;
                };
                let topo = &sim.topology;
                let n = topo.n_ode2;
                let wave = |i: usize, k: f64| (k * (i as f64 + 1.0)).sin();
                for i in 0..n {
                    sim.state.v[i] += wave(i, 0.7);
                    sim.state.a[i] = 2.0 * wave(i, 1.3);
                }
                let st = &sim.state;
                let mut qt = vec![0.0; n];
                topo.total_coordinates(&st.q, &mut qt);
                let mut scratch = Scratch::for_topology(topo);
                let (mut f, mut r) = (vec![0.0; n], vec![0.0; n]);
                topo.ode2_rhs(&qt, &st.v, &st.data, 1.0, &mut f, &mut scratch);
                for (r, f) in r.iter_mut().zip(&f) {
                    *r = -f;
                }
                topo.add_mass_times(&qt, &st.a, &mut r, &mut scratch);
                let (mut f_ne, mut r_ne) = (vec![f64::NAN; n], vec![f64::NAN; n]);
                topo.newton_euler_residual(
                    &qt,
                    &st.v,
                    &st.a,
                    &st.data,
                    &mut f_ne,
                    &mut r_ne,
                    &mut scratch,
                );
                let scale = r.iter().chain(&f).fold(1.0, |m: f64, x| m.max(x.abs()));
                for i in 0..n {
                    assert!(
                        (r_ne[i] - r[i]).abs() <= 1e-13 * scale
                            && (f_ne[i] - f[i]).abs() <= 1e-13 * scale,
                        "{}: coordinate {i}: r {} against {}, f {} against {}",
                        path.display(),
                        r_ne[i],
                        r[i],
                        f_ne[i],
                        f[i]
                    );
                }
                models += 1;
                centred += topo
                    .bodies
                    .iter()
                    .filter(|b| {
                        matches!(
                            b,
                            BodyTopology::Rigid {
                                center_of_mass: [0.0, 0.0, 0.0],
                                ..
                            }
                        )
                    })
                    .count();
            }
        }
        assert!(models > 100, "{models} models of the corpus compared");
        assert!(centred > 100, "{centred} rigid bodies in Newton–Euler form");
    }
}
