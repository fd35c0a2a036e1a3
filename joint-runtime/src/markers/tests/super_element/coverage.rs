//! ∂(J_posᵀf)/∂q against finite differences, and the models' coverage of every marker variant.

use super::*;

/// ∂(J_pᵀf)/∂q (columns × columns, row-major) applied to each column direction d (θ columns:
/// tangent directions d ⊥ θ, modal and mesh columns freely) against central differences of
/// J_p(q)ᵀ·f along d. Zero for GenericODE2 (J_p is constant).
#[test]
pub(super) fn position_jacobian_t_times_vector_q_matches_finite_differences() {
    for_each_marker_state("∂(J_pᵀf)/∂q", |ck, ctx| {
        let l = &ctx.label;
        let n = ctx.n();
        let mut rng = Rng::new(seed_of(l, 7));
        let f: [f64; 3] = std::array::from_fn(|_| 2.0 * rng.uniform());
        let mut out = vec![f64::NAN; n * n];
        ctx.state(&ctx.qt, &ctx.v)
            .position_jacobian_t_times_vector_q(&f, &mut out);
        let jt_f = |qt: &[f64]| {
            let j = ctx.position_jacobian(qt);
            (0..n)
                .map(|c| (0..3).map(|r| j[r * n + c] * f[r]).sum::<f64>())
                .collect::<Vec<f64>>()
        };
        if ctx.spec.frame.is_none() {
            for (i, x) in out.iter().enumerate() {
                ck.value(
                    l,
                    &format!("∂(J_pᵀf)/∂q[({}, {})] (GenericODE2: 0)", i / n, i % n),
                    *x,
                    0.0,
                    0.0,
                );
            }
        }
        for (name, _, d) in ctx.directions() {
            let plus = jt_f(&ctx.shifted(&ctx.qt, &d, H));
            let minus = jt_f(&ctx.shifted(&ctx.qt, &d, -H));
            for r in 0..n {
                let fd = (plus[r] - minus[r]) * 0.5 / H;
                let analytic: f64 = (0..n).map(|c| out[r * n + c] * d[c]).sum();
                ck.value(
                    l,
                    &format!("row {r} of ∂(J_pᵀf)/∂q·d along {name} vs central FD"),
                    analytic,
                    fd,
                    TOL_FD,
                );
            }
        }
    });
}

/// The models cover both marker types on both object types, both approaches and modes 0, 1, 2.
#[test]
pub(super) fn the_models_cover_every_marker_variant() {
    let mut seen = BTreeSet::new();
    for case in cases() {
        for spec in &case.specs {
            seen.insert(spec.what.clone());
        }
    }
    let mut missing = Vec::new();
    for object in ["GenericODE2", "FFRFreducedOrder"] {
        let position = format!("SuperElementPosition on {object}");
        if !seen.contains(&position) {
            missing.push(position);
        }
        for approach in ["alternative", "standard"] {
            for mode in 0..3 {
                let what = format!(
                    "SuperElementRigid on {object}, {approach} approach, rotationsExponentialMap {mode}"
                );
                let needed = object == "GenericODE2"
                    || matches!(
                        (approach, mode),
                        ("alternative", 0 | 2) | ("standard", 1 | 2)
                    );
                if needed && !seen.contains(&what) {
                    missing.push(what);
                }
            }
        }
    }
    assert!(
        missing.is_empty(),
        "variants not covered: {missing:?} (seen: {seen:?})"
    );
}
