//! 4. linkForces and linkTorques, with Exudyn's convention.

use super::*;

// ------------------------------------------------------------------------------------------
// 4. linkForces / linkTorques

#[test]
pub(super) fn link_forces_and_torques_follow_exudyn_convention() {
    for tree in trees() {
        let n = tree.n();
        let base = tree.data();
        let mut rng = Rng(0x11_4b_f0 + n as u64);
        for (s, st) in states(&tree).iter().enumerate() {
            let l0 = lhs(&base, &st.q, &st.q_t);
            let kin = Kin::new(&tree, &st.q);
            let f: Vec<[f64; 3]> = (0..n).map(|_| rng.vec3(-3.0, 3.0)).collect();
            let tau: Vec<[f64; 3]> = (0..n).map(|_| rng.vec3(-3.0, 3.0)).collect();
            let all: Vec<usize> = (0..n).collect();
            // Jacobians of the point of each link at the global base offset b
            let cols: Vec<Vec<(V3<f64>, V3<f64>)>> = (0..n)
                .map(|i| {
                    let local = mat_vec(&transpose(&kin.r[i]), sub(tree.base, kin.p[i]));
                    kin.columns(i, local, &all)
                })
                .collect();
            for (label, with_f, with_t) in [
                ("linkForces", true, false),
                ("linkTorques", false, true),
                ("linkForces + linkTorques", true, true),
            ] {
                let mut data = base.clone();
                if with_f {
                    data.link_forces = f.iter().map(|&x| x.into()).collect();
                }
                if with_t {
                    data.link_torques = tau.iter().map(|&x| x.into()).collect();
                }
                let l = lhs(&data, &st.q, &st.q_t);
                let want: Vec<f64> = (0..n)
                    .map(|j| {
                        (0..n)
                            .map(|i| {
                                let (jp, jw) = cols[i][j];
                                (if with_f { dot(jp, f[i]) } else { 0.0 })
                                    + if with_t { dot(jw, tau[i]) } else { 0.0 }
                            })
                            .sum()
                    })
                    .collect();
                let sc = max_abs(&want).max(max_abs(&l0));
                for j in 0..n {
                    assert_close(l[j] - l0[j], want[j], TOL_EXACT, sc, || {
                        format!(
                            "{} state {s}: {label} contribution to LHS[{j}] (joint type {}) vs \
                             +Σ J_p,i(b)ᵀ f_i + J_ω,iᵀ τ_i",
                            tree.name, tree.types[j]
                        )
                    });
                }
            }
        }
    }
}
