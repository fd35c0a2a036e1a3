//! Random marker states for the kernel tests (`kernel_jacobians`, `joint_dual_oracles`): one
//! marker kind's parameters, total coordinates and velocities, built from a pool of numbers in
//! [−1, 1) that proptest draws (fixed seeds, so every run checks the same states).

#![allow(dead_code)] // each test uses its part

use joint::core::{MarkerArgs, MarkerKind};

/// One marker's inputs: parameters, total node coordinates, their velocities.
#[derive(Clone, Debug)]
pub struct MarkerState {
    pub p: Vec<f64>,
    pub q: Vec<f64>,
    pub v: Vec<f64>,
}

impl MarkerState {
    /// The state as a kernel's slice arguments.
    pub fn args(&self) -> MarkerArgs<'_> {
        MarkerArgs {
            parameters: &self.p,
            coordinates: &self.q,
            velocities: &self.v,
        }
    }
}

/// Numbers in [−1, 1) that a marker state is built from.
pub const POOL: usize = 24;

/// Euler-parameter kinds.
pub fn is_ep(kind: MarkerKind) -> bool {
    matches!(kind, MarkerKind::RigidEpPoint | MarkerKind::NodeEp)
}

/// Tait–Bryan kinds.
pub fn is_rxyz(kind: MarkerKind) -> bool {
    matches!(kind, MarkerKind::RigidRxyzPoint | MarkerKind::NodeRxyz)
}

/// `a · b`.
pub fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// `r[..4]` normalised (nudged away from zero first).
pub fn normalized4(r: &[f64]) -> [f64; 4] {
    let mut t = [r[0], r[1], r[2], r[3]];
    if dot(&t, &t) < 0.04 {
        t[0] += 1.0;
    }
    let n = dot(&t, &t).sqrt();
    t.map(|x| x / n)
}

/// A marker state of `kind` from `r` (POOL numbers in [−1, 1)).
///
/// `on_manifold`: Euler parameters are a unit vector and θ̇·θ = 0 (Exudyn's kinematic relations
/// are exact derivatives there); otherwise θ has a norm in [0.5, 1.5] and θ̇ is arbitrary.
/// Tait–Bryan ψ1 stays in [−1.3, 1.3], away from the singularity at ±π/2. Ground rotations are
/// `ground_rotation` of random angles (each test passes its own oracle's rotation).
pub fn marker_state(
    kind: MarkerKind,
    r: &[f64],
    on_manifold: bool,
    ground_rotation: impl Fn([f64; 3]) -> [[f64; 3]; 3],
) -> MarkerState {
    use std::f64::consts::PI;
    assert_eq!(r.len(), POOL);
    let x = [2.0 * r[0], 2.0 * r[1], 2.0 * r[2]];
    let xt = [3.0 * r[3], 3.0 * r[4], 3.0 * r[5]];
    let b = [1.5 * r[14], 1.5 * r[15], 1.5 * r[16]];
    let (rot, rot_t): (Vec<f64>, Vec<f64>) = if is_ep(kind) {
        let unit = normalized4(&r[6..10]);
        let w = [2.0 * r[10], 2.0 * r[11], 2.0 * r[12], 2.0 * r[13]];
        if on_manifold {
            let wt = dot(&w, &unit);
            (unit.to_vec(), (0..4).map(|i| w[i] - wt * unit[i]).collect())
        } else {
            let s = 1.0 + 0.5 * r[17];
            (unit.iter().map(|t| s * t).collect(), w.to_vec())
        }
    } else if is_rxyz(kind) {
        (
            vec![PI * r[6], 1.3 * r[7], PI * r[8]],
            vec![2.0 * r[10], 2.0 * r[11], 2.0 * r[12]],
        )
    } else {
        (vec![], vec![])
    };
    let q: Vec<f64> = x.iter().chain(&rot).copied().collect();
    let v: Vec<f64> = xt.iter().chain(&rot_t).copied().collect();
    match kind {
        MarkerKind::GroundPoint => {
            // A random proper rotation (the caller's product of elementary rotations) and position.
            // the point (the ground's position plus its turned local point, formed once by the
            // runtime), then the frame
            let rg = ground_rotation([PI * r[18], PI * r[19], PI * r[20]]);
            let mut p: Vec<f64> = (0..3)
                .map(|i| 3.0 * r[i] + rg[i][0] * b[0] + rg[i][1] * b[1] + rg[i][2] * b[2])
                .collect();
            p.extend(rg.iter().flatten());
            MarkerState {
                p,
                q: vec![],
                v: vec![],
            }
        }
        MarkerKind::MassPointBody | MarkerKind::NodePoint => MarkerState {
            p: if kind == MarkerKind::MassPointBody {
                b.to_vec()
            } else {
                vec![]
            },
            q: x.to_vec(),
            v: xt.to_vec(),
        },
        MarkerKind::RigidEpPoint | MarkerKind::RigidRxyzPoint => MarkerState {
            p: b.to_vec(),
            q,
            v,
        },
        MarkerKind::NodeEp | MarkerKind::NodeRxyz => MarkerState { p: vec![], q, v },
        // a coordinate c with its reference value c_ref (the kernels read c − c_ref)
        MarkerKind::NodeCoordinate => MarkerState {
            p: vec![2.0 * r[21]],
            q: vec![3.0 * r[0]],
            v: vec![2.0 * r[3]],
        },
        MarkerKind::GroundCoordinate => MarkerState {
            p: vec![],
            q: vec![],
            v: vec![],
        },
        MarkerKind::MassPoint2DBody | MarkerKind::NodePoint2D => MarkerState {
            p: if kind == MarkerKind::MassPoint2DBody {
                b.to_vec()
            } else {
                vec![]
            },
            q: x[..2].to_vec(),
            v: xt[..2].to_vec(),
        },
        // [x, y, ψ] and their rates
        MarkerKind::Rigid2DPoint | MarkerKind::NodeRigid2D => MarkerState {
            p: if kind == MarkerKind::Rigid2DPoint {
                b.to_vec()
            } else {
                vec![]
            },
            q: vec![x[0], x[1], PI * r[8]],
            v: vec![xt[0], xt[1], 2.0 * r[12]],
        },
    }
}
