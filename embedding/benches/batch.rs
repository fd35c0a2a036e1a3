//! Several joints per instruction: the EP–EP spherical pairing's position residual and
//! Jacobian (`position_residual_and_jacobian`) for 1024 joints, one joint per call in `f64`
//! (what the runtime calls) against the same generic kernel instantiated with SIMD lanes —
//! `wide::f64x4` (four joints per call, lane k of every argument being joint k's) and
//! `wide::f32x8` (eight) — and the scalar `f32` instance.
//!
//!     cargo bench --manifest-path embedding/Cargo.toml
//!     RUSTFLAGS="-C target-cpu=native" cargo bench --manifest-path embedding/Cargo.toml
//!
//! `wide` uses AVX2 only where the build enables it (the second command; `main` prints which
//! features this build has): without, an `f64x4` is two SSE2 halves. Per-joint throughput is
//! divan's items per second (1024 joints per iteration). Before timing, `main` checks that the
//! `f64x4` lanes equal the scalar `f64` kernel to the bit (the kernel is additions,
//! multiplications and square roots, all correctly rounded in both) and `f32x8` the scalar
//! `f32` kernel to 1e-5.

use divan::counter::ItemsCount;
use divan::{Bencher, black_box};
use joint_embedding::spherical::rigid_ep_point_to_rigid_ep_point as ep_ep;
use wide::{f32x8, f64x4};

const JOINTS: usize = 1024;

/// One joint's arguments: marker 0's local position and coordinates, marker 1's.
type Args<T> = ([T; 3], [T; 7], [T; 3], [T; 7]);

/// Joint `k`'s arguments: bodies at varied poses (Euler parameters normalised).
fn joint(k: usize) -> Args<f64> {
    let x = |i: usize| ((k * 7 + i) as f64 * 0.618_033_988_749_895).fract() - 0.5;
    let pose = |o: usize| {
        let e = [1.0 + x(o), x(o + 1), x(o + 2), x(o + 3)];
        let n = e.iter().map(|v| v * v).sum::<f64>().sqrt();
        [
            x(o + 4),
            x(o + 5),
            x(o + 6),
            e[0] / n,
            e[1] / n,
            e[2] / n,
            e[3] / n,
        ]
    };
    (
        [x(10), x(11), x(12)],
        pose(0),
        [x(13), x(14), x(15)],
        pose(20),
    )
}

fn scalar_f64() -> Vec<Args<f64>> {
    (0..JOINTS).map(joint).collect()
}

fn scalar_f32() -> Vec<Args<f32>> {
    let f = |v: &[f64]| v.iter().map(|&x| x as f32).collect::<Vec<_>>();
    scalar_f64()
        .iter()
        .map(|(b0, q0, b1, q1)| {
            (
                f(b0).try_into().unwrap(),
                f(q0).try_into().unwrap(),
                f(b1).try_into().unwrap(),
                f(q1).try_into().unwrap(),
            )
        })
        .collect()
}

/// The joints in structure-of-arrays form, `L` per batch: entry i of batch j holds entry i of
/// joints `L·j .. L·j + L`.
fn lanes<const L: usize, T: Copy, V>(
    joints: &[Args<T>],
    make: impl Fn([T; L]) -> V,
) -> Vec<Args<V>> {
    joints
        .chunks_exact(L)
        .map(|c| {
            (
                std::array::from_fn(|i| make(std::array::from_fn(|l| c[l].0[i]))),
                std::array::from_fn(|i| make(std::array::from_fn(|l| c[l].1[i]))),
                std::array::from_fn(|i| make(std::array::from_fn(|l| c[l].2[i]))),
                std::array::from_fn(|i| make(std::array::from_fn(|l| c[l].3[i]))),
            )
        })
        .collect()
}

fn main() {
    println!(
        "target features: avx2 {}, fma {}, avx512f {}",
        cfg!(target_feature = "avx2"),
        cfg!(target_feature = "fma"),
        cfg!(target_feature = "avx512f")
    );
    let (s64, s32) = (scalar_f64(), scalar_f32());
    let (l64, l32) = (
        lanes::<4, _, _>(&s64, f64x4::new),
        lanes::<8, _, _>(&s32, f32x8::new),
    );
    for (j, (b0, q0, b1, q1)) in l64.iter().enumerate() {
        let (g, (c0, c1)) = ep_ep::position_residual_and_jacobian(b0, q0, b1, q1);
        for l in 0..4 {
            let (b0, q0, b1, q1) = &s64[4 * j + l];
            let (gs, (s0, s1)) = ep_ep::position_residual_and_jacobian(b0, q0, b1, q1);
            for r in 0..3 {
                assert_eq!(g[r].to_array()[l].to_bits(), gs[r].to_bits());
                for c in 0..7 {
                    assert_eq!(c0[r][c].to_array()[l].to_bits(), s0[r][c].to_bits());
                    assert_eq!(c1[r][c].to_array()[l].to_bits(), s1[r][c].to_bits());
                }
            }
        }
    }
    for (j, (b0, q0, b1, q1)) in l32.iter().enumerate() {
        let (g, _) = ep_ep::position_residual_and_jacobian(b0, q0, b1, q1);
        for l in 0..8 {
            let (b0, q0, b1, q1) = &s32[8 * j + l];
            let (gs, _) = ep_ep::position_residual_and_jacobian(b0, q0, b1, q1);
            for r in 0..3 {
                assert!((g[r].to_array()[l] - gs[r]).abs() <= 1e-5);
            }
        }
    }
    println!("f64x4 lanes equal the scalar f64 kernel to the bit, f32x8 the f32 kernel to 1e-5");
    divan::main();
}

#[divan::bench]
fn scalar_f64_per_joint(bencher: Bencher) {
    let joints = scalar_f64();
    bencher.counter(ItemsCount::new(JOINTS)).bench_local(|| {
        for (b0, q0, b1, q1) in black_box(&joints) {
            black_box(&ep_ep::position_residual_and_jacobian(b0, q0, b1, q1));
        }
    });
}

#[divan::bench]
fn scalar_f32_per_joint(bencher: Bencher) {
    let joints = scalar_f32();
    bencher.counter(ItemsCount::new(JOINTS)).bench_local(|| {
        for (b0, q0, b1, q1) in black_box(&joints) {
            black_box(&ep_ep::position_residual_and_jacobian(b0, q0, b1, q1));
        }
    });
}

#[divan::bench]
fn lanes_f64x4_four_joints(bencher: Bencher) {
    let joints = lanes::<4, _, _>(&scalar_f64(), f64x4::new);
    bencher.counter(ItemsCount::new(JOINTS)).bench_local(|| {
        for (b0, q0, b1, q1) in black_box(&joints) {
            black_box(&ep_ep::position_residual_and_jacobian(b0, q0, b1, q1));
        }
    });
}

#[divan::bench]
fn lanes_f32x8_eight_joints(bencher: Bencher) {
    let joints = lanes::<8, _, _>(&scalar_f32(), f32x8::new);
    bencher.counter(ItemsCount::new(JOINTS)).bench_local(|| {
        for (b0, q0, b1, q1) in black_box(&joints) {
            black_box(&ep_ep::position_residual_and_jacobian(b0, q0, b1, q1));
        }
    });
}
