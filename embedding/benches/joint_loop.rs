//! The runtime's fast-path joint loop, as it would run with SIMD lanes: for each of 400
//! RevoluteZ joints between Euler-parameter bodies (perf3DRigidBodies' joints), gather the two
//! bodies' coordinates from the system's coordinate vector, evaluate
//! `position_residual_and_reaction_forces` (the fused kernel the fast mode calls at every
//! residual), store the 5 rows and add the two reaction forces into the bodies' entries. One
//! joint per call in `f64` (the runtime's loop today) against four per call in `wide::f64x4`,
//! the gather into lanes and the scatter out of them included — what lanes would buy the
//! runtime, to be set against the kernel's share of a fast run (docs/performance.md).
//!
//!     cargo bench --manifest-path embedding/Cargo.toml --bench joint_loop
//!     RUSTFLAGS="-C target-cpu=native" cargo bench --manifest-path embedding/Cargo.toml --bench joint_loop
//!
//! `main` first checks that both loops write the same bits.

use divan::counter::ItemsCount;
use divan::{Bencher, black_box};
use joint_embedding::revolute_z::{self, rigid_ep_point_to_rigid_ep_point as ep_ep};
use wide::f64x4;

const JOINTS: usize = 400;
const ROWS: usize = 5;

/// A chain's data: body i has coordinates `q[7i..7i + 7]`; joint k joins bodies k and k + 1 at
/// local points `b0[k]`, `b1[k]`, with frames `frames[k]`.
struct System {
    q: Vec<f64>,
    lambda: Vec<f64>,
    b: Vec<[[f64; 3]; 2]>,
    frames: Vec<revolute_z::Parameters>,
}

fn system() -> System {
    let x = |i: usize| (i as f64 * 0.618_033_988_749_895).fract() - 0.5;
    let mut q = Vec::new();
    for i in 0..=JOINTS {
        let e = [1.0 + x(7 * i), x(7 * i + 1), x(7 * i + 2), x(7 * i + 3)];
        let n = e.iter().map(|v| v * v).sum::<f64>().sqrt();
        q.extend([x(7 * i + 4), x(7 * i + 5), x(7 * i + 6)]);
        q.extend(e.map(|v| v / n));
    }
    let turn = |a: f64| {
        [
            [a.cos(), -a.sin(), 0.0],
            [a.sin(), a.cos(), 0.0],
            [0.0, 0.0, 1.0],
        ]
    };
    System {
        q,
        lambda: (0..JOINTS * ROWS).map(|i| x(i + 3)).collect(),
        b: (0..JOINTS)
            .map(|k| [[x(k), x(k + 1), x(k + 2)], [x(k + 3), x(k + 4), x(k + 5)]])
            .collect(),
        frames: (0..JOINTS)
            .map(|k| revolute_z::Parameters {
                rotation_marker0: turn(x(k)),
                rotation_marker1: turn(x(k + 7)),
            })
            .collect(),
    }
}

/// One joint per call: the rows into `g`, the forces added into `f`.
fn scalar_loop(s: &System, g: &mut [f64], f: &mut [f64]) {
    for k in 0..JOINTS {
        let q0: &[f64; 7] = s.q[7 * k..7 * k + 7].try_into().unwrap();
        let q1: &[f64; 7] = s.q[7 * k + 7..7 * k + 14].try_into().unwrap();
        let l: &[f64; ROWS] = s.lambda[ROWS * k..ROWS * k + ROWS].try_into().unwrap();
        let (rows, (f0, f1)) = ep_ep::position_residual_and_reaction_forces(
            &s.frames[k],
            l,
            &s.b[k][0],
            q0,
            &s.b[k][1],
            q1,
        );
        g[ROWS * k..ROWS * k + ROWS].copy_from_slice(&rows);
        for c in 0..7 {
            f[7 * k + c] += f0[c];
            f[7 * k + 7 + c] += f1[c];
        }
    }
}

/// What a runtime laid out in lanes once, at assembly: per batch of four joints, their
/// constant arguments (the joint frames, the markers' local points).
struct Constants {
    joint: revolute_z::Parameters<f64x4>,
    b: [[f64x4; 3]; 2],
}

fn constants(s: &System) -> Vec<Constants> {
    (0..JOINTS)
        .step_by(4)
        .map(|k0| {
            let lane =
                |get: &dyn Fn(usize) -> f64| f64x4::new(std::array::from_fn(|j| get(k0 + j)));
            let frame = |m: usize| {
                std::array::from_fn(|r| {
                    std::array::from_fn(|c| {
                        lane(&|k| {
                            let p = &s.frames[k];
                            [p.rotation_marker0, p.rotation_marker1][m][r][c]
                        })
                    })
                })
            };
            Constants {
                joint: revolute_z::Parameters {
                    rotation_marker0: frame(0),
                    rotation_marker1: frame(1),
                },
                b: std::array::from_fn(|m| std::array::from_fn(|c| lane(&|k| s.b[k][m][c]))),
            }
        })
        .collect()
}

/// Four joints per call: the coordinates and multipliers gathered into lanes at every call
/// (the constants laid out once), evaluated, the rows and forces scattered back in joint order
/// (the forces added joint after joint, as the scalar loop adds them, so the sums round alike).
fn lanes_loop(s: &System, constants: &[Constants], g: &mut [f64], f: &mut [f64]) {
    for (batch, c) in constants.iter().enumerate() {
        let k0 = 4 * batch;
        // each lane vector built from its four loads (no round trip through memory, which
        // would stall on store forwarding)
        let q: [[f64x4; 7]; 2] = std::array::from_fn(|m| {
            let at = |j: usize, i: usize| s.q[7 * (k0 + j + m) + i];
            std::array::from_fn(|i| f64x4::new([at(0, i), at(1, i), at(2, i), at(3, i)]))
        });
        let at = |j: usize, r: usize| s.lambda[ROWS * (k0 + j) + r];
        let l: [f64x4; ROWS] =
            std::array::from_fn(|r| f64x4::new([at(0, r), at(1, r), at(2, r), at(3, r)]));
        let (rows, (f0, f1)) = ep_ep::position_residual_and_reaction_forces(
            &c.joint, &l, &c.b[0], &q[0], &c.b[1], &q[1],
        );
        let rows = rows.map(|r| r.to_array());
        let (f0, f1) = (f0.map(|x| x.to_array()), f1.map(|x| x.to_array()));
        for j in 0..4 {
            let k = k0 + j;
            for r in 0..ROWS {
                g[ROWS * k + r] = rows[r][j];
            }
            for i in 0..7 {
                f[7 * k + i] += f0[i][j];
                f[7 * k + 7 + i] += f1[i][j];
            }
        }
    }
}

fn main() {
    println!(
        "target features: avx2 {}, fma {}, avx512f {}",
        cfg!(target_feature = "avx2"),
        cfg!(target_feature = "fma"),
        cfg!(target_feature = "avx512f")
    );
    let s = system();
    let n = 7 * (JOINTS + 1);
    let (mut g0, mut f0) = (vec![0.0; JOINTS * ROWS], vec![0.0; n]);
    let (mut g1, mut f1) = (vec![0.0; JOINTS * ROWS], vec![0.0; n]);
    scalar_loop(&s, &mut g0, &mut f0);
    lanes_loop(&s, &constants(&s), &mut g1, &mut f1);
    assert!(g0.iter().zip(&g1).all(|(a, b)| a.to_bits() == b.to_bits()));
    assert!(f0.iter().zip(&f1).all(|(a, b)| a.to_bits() == b.to_bits()));
    assert!(
        g0.iter().any(|&v| v.abs() > 0.1),
        "the rows are not all satisfied"
    );
    divan::main();
}

#[divan::bench]
fn loop_f64_one_joint_per_call(bencher: Bencher) {
    let s = system();
    let (mut g, mut f) = (vec![0.0; JOINTS * ROWS], vec![0.0; 7 * (JOINTS + 1)]);
    bencher
        .counter(ItemsCount::new(JOINTS))
        .bench_local(|| scalar_loop(black_box(&s), &mut g, &mut f));
}

#[divan::bench]
fn loop_f64x4_four_joints_per_call(bencher: Bencher) {
    let s = system();
    let c = constants(&s);
    let (mut g, mut f) = (vec![0.0; JOINTS * ROWS], vec![0.0; 7 * (JOINTS + 1)]);
    bencher
        .counter(ItemsCount::new(JOINTS))
        .bench_local(|| lanes_loop(black_box(&s), &c, &mut g, &mut f));
}

/// The lanes' kernel alone, every argument in lanes beforehand (the loop above less its
/// gather and scatter): what the lanes buy where the data already sits in lanes.
#[divan::bench]
fn kernel_f64x4_all_in_lanes_beforehand(bencher: Bencher) {
    let s = system();
    let lanes =
        |get: &dyn Fn(usize) -> f64, k0: usize| f64x4::new(std::array::from_fn(|j| get(k0 + j)));
    let batches: Vec<(Constants, [f64x4; ROWS], [[f64x4; 7]; 2])> = constants(&s)
        .into_iter()
        .enumerate()
        .map(|(batch, c)| {
            let k0 = 4 * batch;
            let l = std::array::from_fn(|r| lanes(&|k| s.lambda[ROWS * k + r], k0));
            let q = std::array::from_fn(|m| {
                std::array::from_fn(|i| lanes(&|k| s.q[7 * (k + m) + i], k0))
            });
            (c, l, q)
        })
        .collect();
    bencher.counter(ItemsCount::new(JOINTS)).bench_local(|| {
        for (c, l, q) in black_box(&batches) {
            black_box(ep_ep::position_residual_and_reaction_forces(
                &c.joint, l, &c.b[0], &q[0], &c.b[1], &q[1],
            ));
        }
    });
}
