//! Positions, velocities and the position Jacobian against the spec's formulas and differences.

use super::*;

/// Position, velocity, rotation and both angular velocities against the spec's formulas (§4,
/// §5.2: angularVelocityLocal = R_lᵀ(ω_r + ω_m) with R_l = I in these models — no localHT
/// rotation —, angularVelocity = A·(ω_r + ω_m)); and nothing depends on coordinates or velocities
/// outside the marker's columns.
#[test]
pub(super) fn kinematics_follow_the_spec_formulas() {
    for_each_marker_state("kinematics", |ck, ctx| {
        let l = &ctx.label;
        let k = ctx.spec_kinematics();
        let ms = ctx.state(&ctx.qt, &ctx.v);
        let position = vec3(&ms.position());
        let velocity = vec3(&ms.velocity());
        ck.vec(
            l,
            "position (spec §4/§5.2)",
            position,
            k.position,
            TOL_EXACT,
        );
        ck.vec(
            l,
            "velocity (spec §4/§5.2)",
            velocity,
            k.velocity,
            TOL_EXACT,
        );
        let mut outputs = vec![position, velocity];
        if ctx.spec.rigid.is_some() {
            assert!(ctx.marker.provides_orientation, "{l}: no orientation");
            let rotation = mat3(&ms.rotation());
            let local = vec3(&ms.angular_velocity_local());
            let global = vec3(&ms.angular_velocity());
            ck.mat(
                l,
                "rotation (spec A·E(θ)·R_l)",
                &rotation,
                &k.rotation,
                TOL_EXACT,
            );
            ck.vec(
                l,
                "angularVelocityLocal (spec R_lᵀ(ω_r + ω_m))",
                local,
                k.omega_local,
                TOL_EXACT,
            );
            ck.vec(
                l,
                "angularVelocity (spec A·(ω_r + ω_m))",
                global,
                k.omega_global,
                TOL_EXACT,
            );
            ck.vec(
                l,
                "angularVelocity vs A·angularVelocityLocal (E(θ) not applied)",
                global,
                mv(&k.a, local),
                TOL_EXACT,
            );
            outputs.extend([local, global]);
            outputs.extend(rotation);
        }
        // Perturb everything outside the marker's columns: nothing may change.
        let mut rng = Rng::new(seed_of(l, 99));
        let mut qt = ctx.qt.clone();
        let mut v = ctx.v.clone();
        for g in 0..qt.len() {
            if !ctx.marker.columns.contains(&g) {
                qt[g] += 0.1 * rng.uniform();
                v[g] += rng.uniform();
            }
        }
        let other = ctx.state(&qt, &v);
        let mut others = vec![vec3(&other.position()), vec3(&other.velocity())];
        if ctx.spec.rigid.is_some() {
            others.push(vec3(&other.angular_velocity_local()));
            others.push(vec3(&other.angular_velocity()));
            others.extend(mat3(&other.rotation()));
        }
        for (i, (a, b)) in outputs.iter().zip(&others).enumerate() {
            ck.vec(
                l,
                &format!("output {i} after changing coordinates outside the marker's columns"),
                *b,
                *a,
                0.0,
            );
        }
    });
}

/// velocity = J_p·q̇, and J_p[:, c] = ∂velocity/∂q̇_c (exact: velocity is linear in q̇). For
/// MarkerSuperElementPosition on FFRF with Σw ≠ 1 the spec (§2.5) documents J_p's translation
/// block as I although the velocity has Σw·ṗ_r: there velocity − J_p·q̇ = (Σw − 1)·ṗ_r.
#[test]
pub(super) fn velocity_is_position_jacobian_times_qdot() {
    for_each_marker_state("velocity = J_p·q̇", |ck, ctx| {
        let l = &ctx.label;
        let n = ctx.n();
        let k = ctx.spec_kinematics();
        let ms = ctx.state(&ctx.qt, &ctx.v);
        let jp = ctx.position_jacobian(&ctx.qt);
        let jv = jac_times(&jp, &ctx.qdot());
        let translation_defect = if ctx.spec.frame.is_some() && ctx.spec.rigid.is_none() {
            ctx.spec.weight_sum - 1.0
        } else {
            0.0
        };
        let expected = sub(
            vec3(&ms.velocity()),
            scale(translation_defect, k.frame_velocity),
        );
        ck.vec(l, "J_p·q̇ vs velocity", jv, expected, TOL_EXACT);
        for c in 0..n {
            let mut d = vec![0.0; n];
            d[c] = 1.0;
            let vp = ctx.shifted(&ctx.v, &d, 1.0);
            let vm = ctx.shifted(&ctx.v, &d, -1.0);
            let dv = scale(
                0.5,
                sub(
                    vec3(&ctx.state(&ctx.qt, &vp).velocity()),
                    vec3(&ctx.state(&ctx.qt, &vm).velocity()),
                ),
            );
            let expected = if ctx.column_kind(c) == ColumnKind::Translation {
                sub(dv, scale(translation_defect, unit(c)))
            } else {
                dv
            };
            ck.vec(
                l,
                &format!("J_p[:, {c}] vs ∂velocity/∂q̇[{}]", ctx.marker.columns[c]),
                jac_column(&jp, n, c),
                expected,
                TOL_EXACT,
            );
        }
    });
}

/// Central differences of position(): along the motion (qt ± h·q̇ in the marker's columns) they
/// give the velocity; in each column direction (tangent directions for θ) they give J_p·d.
#[test]
pub(super) fn position_derivatives_are_velocity_and_position_jacobian() {
    for_each_marker_state("d/dt position", |ck, ctx| {
        let l = &ctx.label;
        let qdot = ctx.qdot();
        let pos = |qt: &[f64]| vec3(&ctx.state(qt, &ctx.v).position());
        let fd = |d: &[f64]| {
            scale(
                0.5 / H,
                sub(
                    pos(&ctx.shifted(&ctx.qt, d, H)),
                    pos(&ctx.shifted(&ctx.qt, d, -H)),
                ),
            )
        };
        let velocity = vec3(&ctx.state(&ctx.qt, &ctx.v).velocity());
        ck.vec(
            l,
            "central FD of position along q̇ vs velocity",
            fd(&qdot),
            velocity,
            TOL_FD,
        );
        let jp = ctx.position_jacobian(&ctx.qt);
        let translation_defect = if ctx.spec.frame.is_some() && ctx.spec.rigid.is_none() {
            ctx.spec.weight_sum - 1.0
        } else {
            0.0
        };
        for (name, kind, d) in ctx.directions() {
            let mut expected = jac_times(&jp, &d);
            if kind == ColumnKind::Translation {
                expected = add(expected, scale(translation_defect, [d[0], d[1], d[2]]));
            }
            ck.vec(
                l,
                &format!("central FD of position along {name} vs J_p·d"),
                fd(&d),
                expected,
                TOL_FD,
            );
        }
    });
}
