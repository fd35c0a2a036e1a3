//! 6. Accelerations against time derivatives.

use super::*;

// ------------------------------------------------------------------------------------------
// 6. accelerations

#[test]
pub(super) fn accelerations_match_time_derivatives() {
    for tree in trees() {
        let n = tree.n();
        let data = tree.data();
        for (s, st) in states(&tree).iter().enumerate() {
            let frames = data.frames(&st.q, &st.q_t);
            let acc = data.accelerations(&frames, &st.q_t, &st.q_tt);
            assert_eq!(acc.len(), n, "{}: accelerations length", tree.name);
            let mo = motion(&tree, &st.q, &st.q_t, &st.q_tt);
            // frames along q(t) = q + q̇t + ½q̈t², q̇(t) = q̇ + q̈t at t = ±H
            let at = |t: f64| {
                let q: Vec<f64> = (0..n)
                    .map(|k| st.q[k] + st.q_t[k] * t + 0.5 * st.q_tt[k] * t * t)
                    .collect();
                let q_t: Vec<f64> = (0..n).map(|k| st.q_t[k] + st.q_tt[k] * t).collect();
                data.frames(&q, &q_t)
            };
            let (fp, fm) = (at(H), at(-H));
            for i in 0..n {
                let fd_alpha: [f64; 3] = std::array::from_fn(|k| {
                    (fp[i].angular_velocity[k] - fm[i].angular_velocity[k]) / (2.0 * H)
                });
                let fd_acc: [f64; 3] =
                    std::array::from_fn(|k| (fp[i].velocity[k] - fm[i].velocity[k]) / (2.0 * H));
                let what = |e: &str| {
                    format!(
                        "{} state {s}: link {i} (joint type {}): {e}",
                        tree.name, tree.types[i]
                    )
                };
                for k in 0..3 {
                    let (alpha, a) = (acc[i].0[k], acc[i].1[k]);
                    assert_close(alpha, fd_alpha[k], TOL_FD, max_abs(&fd_alpha), || {
                        what(&format!("angular acceleration[{k}] vs central difference"))
                    });
                    assert_close(a, fd_acc[k], TOL_FD, max_abs(&fd_acc), || {
                        what(&format!("origin acceleration[{k}] vs central difference"))
                    });
                    assert_close(
                        alpha,
                        mo[i].alpha[k],
                        TOL_EXACT,
                        max_abs(&mo[i].alpha),
                        || what(&format!("angular acceleration[{k}] vs exact own")),
                    );
                    assert_close(a, mo[i].a[k], TOL_EXACT, max_abs(&mo[i].a), || {
                        what(&format!("origin acceleration[{k}] vs exact own"))
                    });
                }
                // COM acceleration from the runtime's origin quantities
                let r = frames[i].rotation;
                let arm = mat_vec(&r, tree.com[i]);
                let w = frames[i].angular_velocity;
                let ac: [f64; 3] = add(
                    add(acc[i].1.into(), cross(acc[i].0.into(), arm)),
                    cross(w, cross(w, arm)),
                );
                for k in 0..3 {
                    assert_close(ac[k], mo[i].ac[k], TOL_EXACT, max_abs(&mo[i].ac), || {
                        what(&format!("COM acceleration[{k}] vs exact own"))
                    });
                    assert_close(
                        frames[i].velocity[k] + cross(w, arm)[k],
                        mo[i].vc[k],
                        TOL_EXACT,
                        max_abs(&mo[i].vc),
                        || what(&format!("COM velocity[{k}] vs exact own")),
                    );
                    assert_close(
                        frames[i].position[k] + arm[k],
                        mo[i].xc[k],
                        TOL_EXACT,
                        max_abs(&mo[i].xc),
                        || what(&format!("COM position[{k}] vs exact own")),
                    );
                }
            }
        }
    }
}
