//! The pairing kernels are generic over the scalar (`joint_core::Scalar`): the `f64`
//! instance is what the runtime calls, `f32` serves engines that compute in single precision,
//! and dual numbers (`num_dual::Dual64`, joint-core's feature `num-dual`) differentiate a
//! kernel by any of its inputs. Checked here against the compiler's own derivatives:
//! `position_residual::<Dual64>` seeded on coordinate j gives column j of `position_jacobian`
//! (∂g/∂q, which the fast path's rows use) — an oracle independent of the emitted Jacobian,
//! as the dual numbers differentiate the emitted residual's arithmetic itself — and `f32`
//! agrees with `f64` to single precision.

use joint::core::Scalar;
use joint::runtime::kernels::{distance, spherical};
use num_dual::Dual64;

/// A rigid body's Euler-parameter coordinates at an arbitrary pose (|θ| ≠ 1 on purpose: the
/// kernels are functions of all seven).
const Q0: [f64; 7] = [0.3, -0.2, 0.5, 0.8, 0.3, -0.4, 0.2];
const Q1: [f64; 7] = [1.1, 0.4, -0.3, 0.6, -0.5, 0.1, 0.55];
const B0: [f64; 3] = [0.5, -0.25, 0.1];
const B1: [f64; 3] = [-0.3, 0.2, 0.45];

fn seeded(q: &[f64; 7], j: Option<usize>) -> [Dual64; 7] {
    std::array::from_fn(|k| {
        let x = Dual64::c(q[k]);
        if Some(k) == j { x.derivative() } else { x }
    })
}

fn constants<const N: usize>(v: &[f64; N]) -> [Dual64; N] {
    v.map(Dual64::c)
}

/// `|a − b| ≤ 1e-14·(1 + |b|)`: the dual and the emitted derivative differ only in rounding.
fn close(a: f64, b: f64, what: &str) {
    assert!(
        (a - b).abs() <= 1e-14 * (1.0 + b.abs()),
        "{what}: dual {a:e}, emitted {b:e}"
    );
}

#[test]
fn a_spherical_pairings_dual_residual_is_its_position_jacobian() {
    use spherical::rigid_ep_point_to_rigid_ep_point as ep_ep;
    let (jac0, jac1) = ep_ep::position_jacobian(&B0, &Q0, &B1, &Q1);
    for marker in 0..2 {
        for j in 0..7 {
            let (q0, q1) = match marker {
                0 => (seeded(&Q0, Some(j)), seeded(&Q1, None)),
                _ => (seeded(&Q0, None), seeded(&Q1, Some(j))),
            };
            let g = ep_ep::position_residual(&constants(&B0), &q0, &constants(&B1), &q1);
            let column = if marker == 0 { &jac0 } else { &jac1 };
            for r in 0..3 {
                close(g[r].eps, column[r][j], &format!("m{marker}, row {r}, q{j}"));
            }
        }
    }
    // the real part is the f64 kernel's residual, to the bit
    let g = ep_ep::position_residual(&B0, &Q0, &B1, &Q1);
    let d = ep_ep::position_residual(
        &constants(&B0),
        &seeded(&Q0, None),
        &constants(&B1),
        &seeded(&Q1, None),
    );
    for r in 0..3 {
        assert_eq!(d[r].re.to_bits(), g[r].to_bits(), "row {r}");
    }
}

/// A joint with a parameter and a square root: the parameter enters as a constant.
#[test]
fn a_distance_pairings_dual_residual_is_its_position_jacobian() {
    use distance::rigid_ep_point_to_rigid_ep_point as ep_ep;
    let joint = distance::Parameters { distance: 0.7 };
    let (jac0, jac1) = ep_ep::position_jacobian(&joint, &B0, &Q0, &B1, &Q1);
    for j in 0..7 {
        let g0 = ep_ep::position_residual(
            &joint,
            &constants(&B0),
            &seeded(&Q0, Some(j)),
            &constants(&B1),
            &seeded(&Q1, None),
        );
        let g1 = ep_ep::position_residual(
            &joint,
            &constants(&B0),
            &seeded(&Q0, None),
            &constants(&B1),
            &seeded(&Q1, Some(j)),
        );
        close(g0[0].eps, jac0[0][j], &format!("m0, q{j}"));
        close(g1[0].eps, jac1[0][j], &format!("m1, q{j}"));
    }
}

#[test]
fn the_f32_instance_agrees_with_f64_to_single_precision() {
    use spherical::rigid_ep_point_to_rigid_ep_point as ep_ep;
    let f32s = |v: &[f64]| v.iter().map(|&x| x as f32).collect::<Vec<_>>();
    let (b0, q0, b1, q1) = (f32s(&B0), f32s(&Q0), f32s(&B1), f32s(&Q1));
    let arr3 = |v: &[f32]| -> [f32; 3] { v.try_into().unwrap() };
    let arr7 = |v: &[f32]| -> [f32; 7] { v.try_into().unwrap() };
    let single = ep_ep::position_residual(&arr3(&b0), &arr7(&q0), &arr3(&b1), &arr7(&q1));
    let double = ep_ep::position_residual(&B0, &Q0, &B1, &Q1);
    let (j32, _) = ep_ep::position_jacobian(&arr3(&b0), &arr7(&q0), &arr3(&b1), &arr7(&q1));
    let (j64, _) = ep_ep::position_jacobian(&B0, &Q0, &B1, &Q1);
    for r in 0..3 {
        assert!((single[r] as f64 - double[r]).abs() < 1e-5, "row {r}");
        for c in 0..7 {
            assert!((j32[r][c] as f64 - j64[r][c]).abs() < 1e-5, "({r}, {c})");
        }
    }
}
