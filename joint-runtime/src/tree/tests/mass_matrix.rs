//! 1. The mass matrix against the global form.

use super::*;

// ------------------------------------------------------------------------------------------
// 1. Mass matrix

pub(super) fn check_mass_matrix(tree: &Tree, s: usize, st: &State, only_path: bool) {
    let n = tree.n();
    let data = tree.data();
    let m = mass_matrix(&data, &st.q);
    let kin = Kin::new(tree, &st.q);
    let want = mass_matrix_global(tree, &kin, only_path);
    let sc = max_abs(&want);
    for j in 0..n {
        for k in 0..n {
            assert_close(m[j * n + k], want[j * n + k], TOL_EXACT, sc, || {
                format!(
                    "{} state {s}: M[{j}][{k}] (joint types {}, {}) vs global form",
                    tree.name, tree.types[j], tree.types[k]
                )
            });
            assert_close(m[j * n + k], m[k * n + j], 1e-14, sc, || {
                format!(
                    "{} state {s}: M symmetric, M[{j}][{k}] vs M[{k}][{j}]",
                    tree.name
                )
            });
        }
    }
    // positive definite: Cholesky pivots
    let mut l = m.clone();
    for j in 0..n {
        for k in 0..j {
            let f = l[j * n + k];
            for r in j..n {
                l[r * n + j] -= f * l[r * n + k];
            }
        }
        let d = l[j * n + j];
        assert!(
            d > 1e-12 * sc,
            "{} state {s}: M not positive definite, Cholesky pivot {j} = {d:e}",
            tree.name
        );
        let d = d.sqrt();
        for r in j..n {
            l[r * n + j] /= d;
        }
    }
}

#[test]
pub(super) fn mass_matrix_matches_global_form_and_is_spd() {
    for tree in trees() {
        for (s, st) in states(&tree).iter().enumerate() {
            check_mass_matrix(&tree, s, st, false);
        }
    }
}

#[test]
pub(super) fn mass_matrix_of_500_link_chain_matches_global_form() {
    let mut rng = Rng(500);
    let tree = random_tree("chain500", &mut rng, chain(500), None);
    let st = &states(&tree)[0];
    check_mass_matrix(&tree, 0, st, true);
    // and the velocity/gravity terms of the long chain
    let kin = Kin::new(&tree, &st.q);
    let got = lhs(&tree.data(), &st.q, &st.q_t);
    let want = lhs_global(&tree, &kin, &st.q, &st.q_t, true);
    let sc = max_abs(&want);
    for j in 0..tree.n() {
        assert_close(got[j], want[j], TOL_EXACT, sc, || {
            format!(
                "chain500: LHS[{j}] (joint type {}) vs global form",
                tree.types[j]
            )
        });
    }
}
