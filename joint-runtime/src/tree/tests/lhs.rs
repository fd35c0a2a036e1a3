//! 2. The LHS against the global Newton–Euler form and Lagrange's equations.

use super::*;

// ------------------------------------------------------------------------------------------
// 2. LHS: global Newton–Euler form and Lagrange's equations

#[test]
pub(super) fn lhs_matches_global_newton_euler_form() {
    for tree in trees() {
        let data = tree.data();
        for (s, st) in states(&tree).iter().enumerate() {
            let kin = Kin::new(&tree, &st.q);
            let got = lhs(&data, &st.q, &st.q_t);
            let want = lhs_global(&tree, &kin, &st.q, &st.q_t, false);
            let sc = max_abs(&want);
            for j in 0..tree.n() {
                assert_close(got[j], want[j], TOL_EXACT, sc, || {
                    format!(
                        "{} state {s}: LHS[{j}] (joint type {}) vs global Newton–Euler form",
                        tree.name, tree.types[j]
                    )
                });
            }
            // at rest only gravity remains: LHS = −Σ m J_cᵀ g
            let rest = vec![0.0; tree.n()];
            let got = lhs(&data, &st.q, &rest);
            let mut want = vec![0.0; tree.n()];
            let all: Vec<usize> = (0..tree.n()).collect();
            for i in 0..tree.n() {
                for (c, &j) in kin.columns(i, tree.com[i], &all).iter().zip(&all) {
                    want[j] -= tree.mass[i] * dot(c.0, tree.gravity);
                }
            }
            let sc = max_abs(&want);
            for j in 0..tree.n() {
                assert_close(got[j], want[j], TOL_EXACT, sc, || {
                    format!("{} state {s}: LHS[{j}] at q̇ = 0 vs −Σ m J_cᵀ g", tree.name)
                });
            }
        }
    }
}

#[test]
pub(super) fn equations_of_motion_match_lagrange() {
    for tree in trees() {
        let data = tree.data();
        let n = tree.n();
        for (s, st) in states(&tree).iter().enumerate() {
            let m = mass_matrix(&data, &st.q);
            let l = lhs(&data, &st.q, &st.q_t);
            let got: Vec<f64> = (0..n)
                .map(|j| (0..n).map(|k| m[j * n + k] * st.q_tt[k]).sum::<f64>() + l[j])
                .collect();
            let want = lagrange(&tree, &st.q, &st.q_t, &st.q_tt);
            let sc = max_abs(&want);
            for j in 0..n {
                assert_close(got[j], want[j], TOL_EXACT, sc, || {
                    format!(
                        "{} state {s}: (M q̈ + LHS)[{j}] (joint type {}) vs Lagrange \
                         d/dt(∂T/∂q̇) − ∂T/∂q + ∂V/∂q",
                        tree.name, tree.types[j]
                    )
                });
            }
        }
    }
}
