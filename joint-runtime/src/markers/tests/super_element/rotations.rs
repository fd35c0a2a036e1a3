//! Rotations, angular velocities and the rotation Jacobian.

use super::*;

/// Central differences of rotation() along the motion, Ṙ, against the angular velocities.
///
/// With E = E(θ), A the frame rotation (I for GenericODE2) and ω_r the frame's local angular
/// velocity (G_loc·θ̇_frame), R = A·E and Ṙ = A·ω̃_r·E + A·Ė. It is the body-frame rate Rᵀ·Ṙ
/// (not Ṙ·Rᵀ) that the reported angular velocities approximate:
/// * GenericODE2, mode 2: Rᵀ·Ṙ = skew(T(θ)·θ̇) = skew(ω) exactly, for both reported angular
///   velocities (they are equal: A = I); Ṙ·Rᵀ = skew(E·ω) is the spatial rate.
/// * FFRF, mode 2: Rᵀ·Ṙ = skew(Eᵀ·ω_r + ω_m), while Exudyn reports ω_r + ω_m (local) and
///   A·(ω_r + ω_m) (global): E(θ) is ignored, a small-θ approximation (spec §5.2).
/// * mode 1: E = ExpSO3 but ω_m = θ̇ without T(θ): Rᵀ·Ṙ = skew(Eᵀ·ω_r + T(θ)·ω_m) — again only
///   a small-θ approximation of the reported ω_r + ω_m.
/// * mode 0: E = I + θ̃ is not orthogonal; Ṙ = A·(ω̃_r·E + skew(ω_m)) exactly, ω_m = θ̇.
///
/// Also checked: Ṙ against the spec's θ̇_w (so θ̇_w = dθ/dt), and RᵀR = I for modes 1, 2.
#[test]
pub(super) fn rotation_derivative_and_angular_velocities() {
    for_each_marker_state("d/dt rotation", |ck, ctx| {
        let Some(rigid) = ctx.spec.rigid else { return };
        let l = &ctx.label;
        let k = ctx.spec_kinematics();
        let qdot = ctx.qdot();
        let ms = ctx.state(&ctx.qt, &ctx.v);
        let r = mat3(&ms.rotation());
        let local = vec3(&ms.angular_velocity_local());
        let global = vec3(&ms.angular_velocity());
        let rp = mat3(
            &ctx.state(&ctx.shifted(&ctx.qt, &qdot, H), &ctx.v)
                .rotation(),
        );
        let rm = mat3(
            &ctx.state(&ctx.shifted(&ctx.qt, &qdot, -H), &ctx.v)
                .rotation(),
        );
        let r_dot = mscale(0.5 / H, &madd(&rp, &mscale(-1.0, &rm)));
        // Ṙ from the spec's θ̇_w: Ė = E·skew(T θ̇_w) (exponential map) or skew(θ̇_w).
        let e_dot = if rigid.mode > 0 {
            mm(&k.e, &skew(mv(&k.t, k.theta_dot)))
        } else {
            skew(k.theta_dot)
        };
        let expected_r_dot = madd(&mm(&k.a, &mm(&skew(k.omega_r), &k.e)), &mm(&k.a, &e_dot));
        ck.mat(
            l,
            "central FD of rotation along q̇ vs A·ω̃_r·E + A·Ė(θ, θ̇_w)",
            &r_dot,
            &expected_r_dot,
            TOL_FD,
        );
        // ω_m as reported (the local angular velocity minus the frame's own).
        let omega_m = sub(local, k.omega_r);
        if rigid.mode == 0 {
            let expected = mm(&k.a, &madd(&mm(&skew(k.omega_r), &k.e), &skew(omega_m)));
            ck.mat(
                l,
                "central FD of rotation along q̇ vs A·(ω̃_r·E + skew(ω_m)) (mode 0)",
                &r_dot,
                &expected,
                TOL_FD,
            );
            return;
        }
        ck.mat(
            l,
            "RᵀR (orthogonal for ExpSO3)",
            &mm(&transpose(&r), &r),
            &IDENTITY,
            TOL_EXACT,
        );
        let body = mm(&transpose(&r), &r_dot);
        ck.mat(
            l,
            "RᵀṘ + (RᵀṘ)ᵀ (skew-symmetric)",
            &madd(&body, &transpose(&body)),
            &[[0.0; 3]; 3],
            TOL_FD,
        );
        let body = vee(&body);
        if rigid.mode == 1 || ctx.spec.frame.is_some() {
            // Exudyn's small-angle approximation is visible: (T − I)·θ̇ (mode 1) and
            // (Eᵀ − I)·ω_r (FFRF) are far from round-off at these states.
            ck.visible_gap(
                l,
                "|vee(RᵀṘ) − angularVelocityLocal|",
                norm(sub(body, local)),
                1e-6,
            );
        }
        let frame_part = mv(&transpose(&k.e), k.omega_r);
        if rigid.mode == 2 {
            if ctx.spec.frame.is_none() {
                // Exact (spec §5.2): the reported ω is the body-frame rate of E(θ).
                ck.vec(l, "vee(RᵀṘ) vs angularVelocity", body, global, TOL_FD);
                ck.vec(l, "vee(RᵀṘ) vs angularVelocityLocal", body, local, TOL_FD);
                let spatial = vee(&mm(&r_dot, &transpose(&r)));
                ck.vec(
                    l,
                    "vee(ṘRᵀ) vs E(θ)·angularVelocity (spatial rate)",
                    spatial,
                    mv(&r, global),
                    TOL_FD,
                );
            }
            ck.vec(
                l,
                "vee(RᵀṘ) vs Eᵀω_r + ω_m (ω_m = angularVelocityLocal − ω_r)",
                body,
                add(frame_part, omega_m),
                TOL_FD,
            );
        } else {
            ck.vec(
                l,
                "vee(RᵀṘ) vs Eᵀω_r + T(θ)·ω_m (mode 1: ω_m = θ̇ lacks T)",
                body,
                add(frame_part, mv(&k.t, omega_m)),
                TOL_FD,
            );
        }
    });
}

/// The rotation Jacobian (spec §3): J_r = [0 | A·G | A·C·W⁻¹·Σ w_i P̃_i Ψ_i] (FFRF) or blocks
/// C·W⁻¹·w_i P̃_i (GenericODE2), C = T(θ) for the alternative approach with an exponential map
/// (modes 1, 2), else I. So J_r·q̇ = A·(ω_r + C·θ̇_w) (Σw = 1) while ω = A·(ω_r + Tmode·θ̇_w):
/// consistent for mode 0, alternative + mode 2 and standard + mode 1; standard + mode 2 lacks
/// T in J_r, alternative + mode 1 has T in J_r only (both documented Exudyn behaviour).
///
/// Column by column: J_r[:, c] = ∂ω/∂q̇_c where consistent; and against central differences of
/// the rotation in each column direction d (θ columns: tangent directions), with j = J_r·d:
/// θ directions ∂R = skew(j)·R; mesh/modal directions ∂R = R·skew(Aᵀj) (alternative, modes
/// 1, 2), R·skew(T·Aᵀj) (standard, modes 1, 2), A·skew(Aᵀj) (mode 0); translations ∂R = 0 = j.
#[test]
pub(super) fn rotation_jacobian_against_angular_velocity_and_rotation() {
    for_each_marker_state("J_r", |ck, ctx| {
        let Some(rigid) = ctx.spec.rigid else { return };
        let l = &ctx.label;
        let n = ctx.n();
        let k = ctx.spec_kinematics();
        let ms = ctx.state(&ctx.qt, &ctx.v);
        let global = vec3(&ms.angular_velocity());
        let jr = ctx.rotation_jacobian();
        let jw = jac_times(&jr, &ctx.qdot());
        let unit_weights = (ctx.spec.weight_sum - 1.0).abs() < 1e-12;
        let consistent = rigid.mode == 0
            || (rigid.alternative && rigid.mode == 2)
            || (!rigid.alternative && rigid.mode == 1);
        ck.vec(
            l,
            "J_r·q̇ vs A·(ω_r + C·W⁻¹Σ w P×v) (spec §3)",
            jw,
            k.jr_qdot,
            TOL_EXACT,
        );
        if unit_weights {
            let c = if rigid.alternative && rigid.mode > 0 {
                k.t
            } else {
                IDENTITY
            };
            ck.vec(
                l,
                "J_r·q̇ vs A·(ω_r + C·θ̇_w)",
                jw,
                mv(&k.a, add(k.omega_r, mv(&c, k.theta_dot))),
                TOL_EXACT,
            );
            if consistent {
                ck.vec(l, "J_r·q̇ vs angularVelocity", jw, global, TOL_EXACT);
            } else {
                // The documented inconsistency is real at these states: |A(T − I)θ̇_w| ≫ 0.
                ck.visible_gap(l, "|J_r·q̇ − angularVelocity|", norm(sub(jw, global)), 1e-6);
            }
        }
        for c in 0..n {
            let mut d = vec![0.0; n];
            d[c] = 1.0;
            let column = jac_column(&jr, n, c);
            let unit_v = ctx.shifted(&vec![0.0; ctx.v.len()], &d, 1.0);
            let documented = kinematics(ctx.spec, ctx.reference, &ctx.qt, &unit_v).jr_qdot;
            ck.vec(
                l,
                &format!("J_r[:, {c}] vs spec §3 column"),
                column,
                documented,
                TOL_EXACT,
            );
            if consistent && unit_weights {
                let vp = ctx.shifted(&ctx.v, &d, 1.0);
                let vm = ctx.shifted(&ctx.v, &d, -1.0);
                let dw = scale(
                    0.5,
                    sub(
                        vec3(&ctx.state(&ctx.qt, &vp).angular_velocity()),
                        vec3(&ctx.state(&ctx.qt, &vm).angular_velocity()),
                    ),
                );
                ck.vec(
                    l,
                    &format!(
                        "J_r[:, {c}] vs ∂angularVelocity/∂q̇[{}]",
                        ctx.marker.columns[c]
                    ),
                    column,
                    dw,
                    TOL_EXACT,
                );
            }
        }
        if !unit_weights {
            return;
        }
        let r = mat3(&ms.rotation());
        let rot = |qt: &[f64]| mat3(&ctx.state(qt, &ctx.v).rotation());
        for (name, kind, d) in ctx.directions() {
            let rp = rot(&ctx.shifted(&ctx.qt, &d, H));
            let rm = rot(&ctx.shifted(&ctx.qt, &d, -H));
            let dr = mscale(0.5 / H, &madd(&rp, &mscale(-1.0, &rm)));
            let j = jac_times(&jr, &d);
            let g = mv(&transpose(&k.a), j);
            let expected = match kind {
                ColumnKind::Translation => {
                    ck.vec(l, &format!("J_r·d along {name}"), j, ZERO, TOL_EXACT);
                    [[0.0; 3]; 3]
                }
                ColumnKind::EulerParameter => mm(&skew(j), &r),
                ColumnKind::Mesh if rigid.mode == 0 => mm(&k.a, &skew(g)),
                ColumnKind::Mesh if rigid.alternative => mm(&r, &skew(g)),
                ColumnKind::Mesh => mm(&r, &skew(mv(&k.t, g))),
            };
            ck.mat(
                l,
                &format!("central FD of rotation along {name} vs J_r·d"),
                &dr,
                &expected,
                TOL_FD,
            );
        }
    });
}
