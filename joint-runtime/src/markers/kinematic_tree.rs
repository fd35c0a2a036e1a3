//! MarkerKinematicTreeRigid: a frame fixed to a link of a kinematic tree (spec §7). Link frames
//! and the Jacobian columns along the path to the base come from the generated
//! `marker_kinematics::kinematic_tree` kernels.

use std::sync::Arc;

use nalgebra::{Matrix3, Vector3};

use crate::tree::KinematicTreeData;

#[derive(Clone, Debug)]
pub struct KinematicTreeMarker {
    pub tree: Arc<KinematicTreeData>,
    /// First global ODE2 index of the tree's node.
    pub start: usize,
    pub link: usize,
    pub local_position: Vector3<f64>,
}

pub struct KinematicTreeMarkerState {
    pub position: Vector3<f64>,
    pub velocity: Vector3<f64>,
    pub rotation: Matrix3<f64>,
    pub angular_velocity: Vector3<f64>,
}

impl KinematicTreeMarker {
    fn coordinates<'a>(&self, qt: &'a [f64], v: &'a [f64]) -> (&'a [f64], &'a [f64]) {
        let n = self.tree.links();
        (
            &qt[self.start..self.start + n],
            &v[self.start..self.start + n],
        )
    }

    pub fn state(&self, qt: &[f64], v: &[f64]) -> KinematicTreeMarkerState {
        let (q, q_t) = self.coordinates(qt, v);
        let frames = self.tree.frames(q, q_t);
        let f = &frames[self.link];
        let r = Matrix3::from_row_slice(f.rotation.as_flattened());
        let w = Vector3::from(f.angular_velocity);
        let arm = r * self.local_position;
        KinematicTreeMarkerState {
            position: Vector3::from(f.position) + arm,
            velocity: Vector3::from(f.velocity) + w.cross(&arm),
            rotation: r,
            angular_velocity: w,
        }
    }

    /// Position and rotation Jacobians over the path columns (link, parent, …, root), row-major
    /// 3 × path length each.
    pub fn jacobians(&self, qt: &[f64], v: &[f64], position: &mut [f64], rotation: &mut [f64]) {
        let (q, q_t) = self.coordinates(qt, v);
        let frames = self.tree.frames(q, q_t);
        let f = &frames[self.link];
        let r = Matrix3::from_row_slice(f.rotation.as_flattened());
        let x = Vector3::from(f.position) + r * self.local_position;
        let (_, jp, jr) = self
            .tree
            .point_jacobian(&frames, self.link, &[x[0], x[1], x[2]]);
        let n = jp.len();
        for c in 0..n {
            for k in 0..3 {
                position[k * n + c] = jp[c][k];
                rotation[k * n + c] = jr[c][k];
            }
        }
    }

    /// ∂(J_posᵀ f)/∂q over the path columns, by forward differences (Exudyn differentiates
    /// connectors on these markers numerically).
    pub fn position_jacobian_t_times_vector_q(
        &self,
        qt: &[f64],
        v: &[f64],
        force: &[f64; 3],
        columns: &[usize],
        out: &mut [f64],
    ) {
        let n = columns.len();
        let mut qp = qt.to_vec();
        let (mut jp, mut jr) = (vec![0.0; 3 * n], vec![0.0; 3 * n]);
        self.jacobians(qt, v, &mut jp, &mut jr);
        let base: Vec<f64> = (0..n)
            .map(|c| (0..3).map(|k| jp[k * n + c] * force[k]).sum())
            .collect();
        for (j, &col) in columns.iter().enumerate() {
            let eps = 1e-7 * 0.01f64.max(qt[col].abs());
            qp[col] = qt[col] + eps;
            self.jacobians(&qp, v, &mut jp, &mut jr);
            qp[col] = qt[col];
            for c in 0..n {
                let x: f64 = (0..3).map(|k| jp[k * n + c] * force[k]).sum();
                out[c * n + j] = (x - base[c]) / eps;
            }
        }
    }
}
