//! 5. Frames, point Jacobians and the marker state.

use super::*;

// ------------------------------------------------------------------------------------------
// 5. Frames, point Jacobians, marker

#[test]
pub(super) fn frames_match_forward_kinematics() {
    for tree in trees() {
        let data = tree.data();
        for (s, st) in states(&tree).iter().enumerate() {
            let frames = data.frames(&st.q, &st.q_t);
            let mo = motion(&tree, &st.q, &st.q_t, &st.q_tt);
            for (i, (f, m)) in frames.iter().zip(&mo).enumerate() {
                let what = |e: &str| format!("{} state {s}: link {i} frame {e}", tree.name);
                for r in 0..3 {
                    for c in 0..3 {
                        assert_close(f.rotation[r][c], m.r[r][c], TOL_EXACT, 1.0, || {
                            what(&format!("rotation[{r}][{c}]"))
                        });
                    }
                    assert_close(f.position[r], m.p[r], TOL_EXACT, max_abs(&m.p), || {
                        what(&format!("position[{r}]"))
                    });
                    assert_close(
                        f.angular_velocity[r],
                        m.w[r],
                        TOL_EXACT,
                        max_abs(&m.w),
                        || what(&format!("angular_velocity[{r}]")),
                    );
                    assert_close(f.velocity[r], m.v[r], TOL_EXACT, max_abs(&m.v), || {
                        what(&format!("velocity[{r}]"))
                    });
                }
            }
        }
    }
}

/// Runtime frames at q ± h e_j.
pub(super) fn frames_shifted(
    data: &KinematicTreeData,
    q: &[f64],
    q_t: &[f64],
    j: usize,
    h: f64,
) -> Vec<LinkFrame> {
    let mut qs = q.to_vec();
    qs[j] += h;
    data.frames(&qs, q_t)
}

#[test]
pub(super) fn point_jacobian_matches_finite_differences() {
    for tree in trees() {
        let n = tree.n();
        let data = tree.data();
        let mut rng = Rng(0x9017 + n as u64);
        for (s, st) in states(&tree).iter().enumerate() {
            let frames = data.frames(&st.q, &st.q_t);
            let kin = Kin::new(&tree, &st.q);
            let plus: Vec<_> = (0..n)
                .map(|j| frames_shifted(&data, &st.q, &st.q_t, j, H))
                .collect();
            let minus: Vec<_> = (0..n)
                .map(|j| frames_shifted(&data, &st.q, &st.q_t, j, -H))
                .collect();
            let all: Vec<usize> = (0..n).collect();
            for i in 0..n {
                let local = rng.vec3(-1.0, 1.0);
                let point_at = |f: &LinkFrame| add(f.position, mat_vec(&f.rotation, local));
                let x = point_at(&frames[i]);
                let (path, jp, jr) = data.point_jacobian(&frames, i, &x);
                assert_eq!(
                    path,
                    tree.path(i),
                    "{} state {s}: link {i} point_jacobian path",
                    tree.name
                );
                let own = kin.columns(i, local, &all);
                let rt = transpose(&frames[i].rotation);
                for j in 0..n {
                    let col = path.iter().position(|&k| k == j);
                    let (gp, gr) = col.map_or(([0.0; 3], [0.0; 3]), |c| (jp[c], jr[c]));
                    // central differences of the runtime frames
                    let dx = scale(sub(point_at(&plus[j][i]), point_at(&minus[j][i])), 0.5 / H);
                    let mut dr = [[0.0; 3]; 3];
                    for (r, row) in dr.iter_mut().enumerate() {
                        for (c, v) in row.iter_mut().enumerate() {
                            *v = (plus[j][i].rotation[r][c] - minus[j][i].rotation[r][c])
                                * (0.5 / H);
                        }
                    }
                    let w = mat_mul(&dr, &rt); // ≈ skew(J_r[:, j])
                    let sw = skew(gr);
                    let what = |e: &str| {
                        format!(
                            "{} state {s}: link {i}, joint {j} (type {}, {}): {e}",
                            tree.name,
                            tree.types[j],
                            if col.is_some() { "on path" } else { "off path" }
                        )
                    };
                    for k in 0..3 {
                        assert_close(gp[k], dx[k], TOL_FD, max_abs(&dx), || {
                            what(&format!("J_p[{k}] vs central difference"))
                        });
                        assert_close(gp[k], own[j].0[k], TOL_EXACT, max_abs(&own[j].0), || {
                            what(&format!("J_p[{k}] vs exact own Jacobian"))
                        });
                        assert_close(gr[k], own[j].1[k], TOL_EXACT, 1.0, || {
                            what(&format!("J_r[{k}] vs exact own Jacobian"))
                        });
                        for c in 0..3 {
                            assert_close(sw[k][c], w[k][c], TOL_FD, 1.0, || {
                                what(&format!(
                                    "skew(J_r)[{k}][{c}] vs dR/dq_j·Rᵀ (central difference)"
                                ))
                            });
                        }
                    }
                }
            }
        }
    }
}

#[test]
pub(super) fn marker_state_and_jacobians() {
    const START: usize = 2;
    for tree in trees() {
        let n = tree.n();
        let data = Arc::new(tree.data());
        let mut rng = Rng(0x3a7c + n as u64);
        for (s, st) in states(&tree).iter().enumerate() {
            // the tree's node in the middle of a larger ODE2 vector
            let mut qt = vec![0.3, -0.7];
            qt.extend(&st.q);
            qt.push(1.1);
            let mut v = vec![-2.0, 0.4];
            v.extend(&st.q_t);
            v.push(0.9);
            let kin = Kin::new(&tree, &st.q);
            let mo = motion(&tree, &st.q, &st.q_t, &st.q_tt);
            for i in 0..n {
                let local = rng.vec3(-1.0, 1.0);
                let marker = KinematicTreeMarker {
                    tree: data.clone(),
                    start: START,
                    link: i,
                    local_position: local.into(),
                };
                let state = marker.state(&qt, &v);
                let m = &mo[i];
                let x = add(m.p, mat_vec(&m.r, local));
                let xv = add(m.v, cross(m.w, mat_vec(&m.r, local)));
                let what = |e: &str| format!("{} state {s}: marker on link {i}: {e}", tree.name);
                for k in 0..3 {
                    assert_close(state.position[k], x[k], TOL_EXACT, max_abs(&x), || {
                        what(&format!("position[{k}]"))
                    });
                    assert_close(state.velocity[k], xv[k], TOL_EXACT, max_abs(&xv), || {
                        what(&format!("velocity[{k}]"))
                    });
                    assert_close(
                        state.angular_velocity[k],
                        m.w[k],
                        TOL_EXACT,
                        max_abs(&m.w),
                        || what(&format!("angular_velocity[{k}] (global)")),
                    );
                    for c in 0..3 {
                        assert_close(state.rotation[(k, c)], m.r[k][c], TOL_EXACT, 1.0, || {
                            what(&format!("rotation[{k}][{c}]"))
                        });
                    }
                }
                let path = tree.path(i);
                let np = path.len();
                let (mut jp, mut jr) = (vec![f64::NAN; 3 * np], vec![f64::NAN; 3 * np]);
                marker.jacobians(&qt, &v, &mut jp, &mut jr);
                let own = kin.columns(i, local, &path);
                for (c, &j) in path.iter().enumerate() {
                    // central differences of the marker position in the global coordinates
                    let mut qp = qt.clone();
                    qp[START + j] += H;
                    let xp = marker.state(&qp, &v).position;
                    qp[START + j] -= 2.0 * H;
                    let xm = marker.state(&qp, &v).position;
                    for k in 0..3 {
                        let what = |e: &str| {
                            what(&format!(
                                "column {c} (joint {j}, type {}): {e}",
                                tree.types[j]
                            ))
                        };
                        let fd = (xp[k] - xm[k]) / (2.0 * H);
                        assert_close(jp[k * np + c], fd, TOL_FD, max_abs(&own[c].0), || {
                            what(&format!("position Jacobian[{k}] vs central difference"))
                        });
                        assert_close(
                            jp[k * np + c],
                            own[c].0[k],
                            TOL_EXACT,
                            max_abs(&own[c].0),
                            || what(&format!("position Jacobian[{k}] vs exact own")),
                        );
                        assert_close(jr[k * np + c], own[c].1[k], TOL_EXACT, 1.0, || {
                            what(&format!("rotation Jacobian[{k}] vs exact own"))
                        });
                    }
                }
                // coordinates outside the tree's node do not matter
                let mut qp = qt.clone();
                qp[0] += 0.5;
                qp[START + n] -= 0.5;
                let other = marker.state(&qp, &v).position;
                for k in 0..3 {
                    assert_eq!(
                        other[k], state.position[k],
                        "{} state {s}: marker on link {i}: position[{k}] depends on foreign \
                         coordinates",
                        tree.name
                    );
                }
            }
        }
    }
}
