//! The generated second-order terms of every spherical-joint pairing against central finite
//! differences of the generated first-order kernels: ∂(C_q v)/∂q (the velocity-level residual
//! differentiated by the coordinates) and ∂(C_qᵀλ)/∂q (the geometric stiffness).

use joint::runtime::kernels::spherical::{self, MarkerArgs};

/// A deterministic state of kind `kind`: (parameters, total coordinates, velocities).
fn state(kind: usize, seed: f64) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    let r = |i: usize| ((i as f64 + 1.0) * 0.917 + seed).sin();
    let (np, nq) = match spherical::MARKER_KINDS[kind] {
        "GroundPoint" => (15, 0),
        "MassPointBody" => (3, 3),
        "RigidEpPoint" => (3, 7),
        "RigidRxyzPoint" => (3, 6),
        "NodePoint" => (0, 3),
        "NodeEp" => (0, 7),
        _ => (0, 6),
    };
    let p: Vec<f64> = (0..np).map(r).collect();
    let q: Vec<f64> = (0..nq).map(|i| r(i + 30)).collect();
    let v: Vec<f64> = (0..nq).map(|i| r(i + 60)).collect();
    (p, q, v)
}

fn args<'a>(p: &'a [f64], q: &'a [f64], v: &'a [f64]) -> MarkerArgs<'a> {
    MarkerArgs {
        parameters: p,
        coordinates: q,
        velocities: v,
    }
}

#[test]
fn second_order_terms_match_finite_differences_for_every_pairing() {
    let h = 1e-6;
    let mut checked = 0;
    for k0 in 0..7 {
        for k1 in 0..7 {
            let Some(kernel) = spherical::kernel(k0, k1) else {
                continue;
            };
            let name = format!("{} – {}", kernel.kinds[0], kernel.kinds[1]);
            let (p0, q0, v0) = state(k0, 0.4);
            let (p1, q1, v1) = state(k1, 1.9);
            let (n0, n1) = (q0.len(), q1.len());
            let n = n0 + n1;
            let lambda = [0.7, -1.3, 0.4];
            // ∂(C_q v)/∂q
            let (mut a0, mut a1) = (vec![0.0; 3 * n0], vec![0.0; 3 * n1]);
            (kernel.velocity_residual_q)(
                args(&p0, &q0, &v0),
                args(&p1, &q1, &v1),
                &mut a0,
                &mut a1,
            )
            .unwrap();
            // ∂(C_qᵀλ)/∂q
            let mut rq = vec![0.0; n * n];
            (kernel.reaction_q)(&lambda, args(&p0, &q0, &v0), args(&p1, &q1, &v1), &mut rq)
                .unwrap();
            let reaction = |q0: &[f64], q1: &[f64]| -> Vec<f64> {
                let (mut j0, mut j1) = (vec![0.0; 3 * n0], vec![0.0; 3 * n1]);
                (kernel.jacobian)(args(&p0, q0, &v0), args(&p1, q1, &v1), &mut j0, &mut j1)
                    .unwrap();
                let mut f = vec![0.0; n];
                for c in 0..n0 {
                    f[c] = (0..3).map(|r| lambda[r] * j0[r * n0 + c]).sum();
                }
                for c in 0..n1 {
                    f[n0 + c] = (0..3).map(|r| lambda[r] * j1[r * n1 + c]).sum();
                }
                f
            };
            for col in 0..n {
                let shift = |q: &[f64], i: usize, s: f64| -> Vec<f64> {
                    let mut q = q.to_vec();
                    q[i] += s;
                    q
                };
                let (qp0, qm0, qp1, qm1) = if col < n0 {
                    (
                        shift(&q0, col, h),
                        shift(&q0, col, -h),
                        q1.clone(),
                        q1.clone(),
                    )
                } else {
                    (
                        q0.clone(),
                        q0.clone(),
                        shift(&q1, col - n0, h),
                        shift(&q1, col - n0, -h),
                    )
                };
                let (mut rp, mut rm) = ([0.0; 3], [0.0; 3]);
                (kernel.velocity_residual)(args(&p0, &qp0, &v0), args(&p1, &qp1, &v1), &mut rp)
                    .unwrap();
                (kernel.velocity_residual)(args(&p0, &qm0, &v0), args(&p1, &qm1, &v1), &mut rm)
                    .unwrap();
                for r in 0..3 {
                    let fd = (rp[r] - rm[r]) / (2.0 * h);
                    let got = if col < n0 {
                        a0[r * n0 + col]
                    } else {
                        a1[r * n1 + col - n0]
                    };
                    assert!(
                        (got - fd).abs() < 1e-6 * fd.abs().max(1.0),
                        "{name}: ∂(C_q v)_{r}/∂q_{col} = {got}, finite differences {fd}"
                    );
                }
                let (fp, fm) = (reaction(&qp0, &qp1), reaction(&qm0, &qm1));
                for r in 0..n {
                    let fd = (fp[r] - fm[r]) / (2.0 * h);
                    let got = rq[r * n + col];
                    assert!(
                        (got - fd).abs() < 1e-6 * fd.abs().max(1.0),
                        "{name}: ∂(C_qᵀλ)_{r}/∂q_{col} = {got}, finite differences {fd}"
                    );
                }
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 48);
}
