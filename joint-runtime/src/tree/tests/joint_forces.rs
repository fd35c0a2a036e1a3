//! 3. jointForceVector and the PD control.

use super::*;

// ------------------------------------------------------------------------------------------
// 3. jointForceVector and P/D control

#[test]
pub(super) fn joint_forces_and_pd_control_enter_lhs_exactly() {
    for tree in trees() {
        let n = tree.n();
        let base = tree.data();
        let mut rng = Rng(0xc0_47_01 + n as u64);
        for (s, st) in states(&tree).iter().enumerate() {
            let l0 = lhs(&base, &st.q, &st.q_t);
            let f: Vec<f64> = (0..n).map(|_| rng.uniform(-5.0, 5.0)).collect();
            let u: Vec<f64> = (0..n).map(|_| rng.uniform(-1.0, 1.0)).collect();
            let p: Vec<f64> = (0..n).map(|_| rng.uniform(0.0, 50.0)).collect();
            let v: Vec<f64> = (0..n).map(|_| rng.uniform(-1.0, 1.0)).collect();
            let d: Vec<f64> = (0..n).map(|_| rng.uniform(0.0, 5.0)).collect();
            let variants: [(&str, bool, bool, bool); 4] = [
                ("jointForceVector", true, false, false),
                ("P control", false, true, false),
                ("D control", false, false, true),
                ("jointForceVector + P + D", true, true, true),
            ];
            for (label, with_f, with_p, with_d) in variants {
                let mut data = base.clone();
                if with_f {
                    data.joint_forces = f.clone();
                }
                if with_p {
                    data.position_offsets = u.clone();
                    data.p_control = p.clone();
                }
                if with_d {
                    data.velocity_offsets = v.clone();
                    data.d_control = d.clone();
                }
                let l = lhs(&data, &st.q, &st.q_t);
                for j in 0..n {
                    let mut want = 0.0;
                    if with_f {
                        want -= f[j];
                    }
                    if with_p {
                        want -= p[j] * (u[j] - st.q[j]);
                    }
                    if with_d {
                        want -= d[j] * (v[j] - st.q_t[j]);
                    }
                    let sc = l0[j].abs() + want.abs();
                    assert_close(l[j] - l0[j], want, 1e-14, sc, || {
                        format!(
                            "{} state {s}: {label} contribution to LHS[{j}] (joint type {})",
                            tree.name, tree.types[j]
                        )
                    });
                }
            }
        }
    }
}
