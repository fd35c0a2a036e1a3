//! MarkerKinematicTreeRigid: a frame fixed to a link of a kinematic tree (spec §7). Link frames
//! and the Jacobian columns along the path to the base come from the generated
//! `marker_kinematics::kinematic_tree` kernels.

use std::cell::RefCell;
use std::sync::Arc;

use nalgebra::{Matrix3, Vector3};

use super::kinematics::{MarkerAt, MarkerKinematics};
use crate::tree::{KinematicTreeData, sized, with_reused};

/// The buffers of [`KinematicTreeMarker::position_jacobian_t_times_vector_q`] and of the single
/// Jacobians.
#[derive(Default)]
struct MarkerWorkspace {
    coordinates: Vec<f64>,
    position: Vec<f64>,
    rotation: Vec<f64>,
    base: Vec<f64>,
}

thread_local! {
    static WORKSPACES: RefCell<Vec<MarkerWorkspace>> = const { RefCell::new(Vec::new()) };
}

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
        self.tree.with_frames(q, q_t, |frames| {
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
        })
    }

    /// Position and rotation Jacobians over the path columns (link, parent, …, root), row-major
    /// 3 × path length each.
    pub fn jacobians(&self, qt: &[f64], v: &[f64], position: &mut [f64], rotation: &mut [f64]) {
        let (q, q_t) = self.coordinates(qt, v);
        self.jacobians_at(q, q_t, position, rotation);
    }

    /// [`KinematicTreeMarker::jacobians`] at the tree's own coordinates and rates.
    fn jacobians_at(&self, q: &[f64], q_t: &[f64], position: &mut [f64], rotation: &mut [f64]) {
        self.tree.with_frames(q, q_t, |frames| {
            let f = &frames[self.link];
            let r = Matrix3::from_row_slice(f.rotation.as_flattened());
            let x = Vector3::from(f.position) + r * self.local_position;
            self.tree
                .with_point_jacobian(frames, self.link, &[x[0], x[1], x[2]], |_, jp, jr| {
                    let n = jp.len();
                    for c in 0..n {
                        for k in 0..3 {
                            position[k * n + c] = jp[c][k];
                            rotation[k * n + c] = jr[c][k];
                        }
                    }
                });
        });
    }

    /// The position Jacobian alone (row-major 3 × path length).
    pub fn position_jacobian(&self, qt: &[f64], v: &[f64], position: &mut [f64]) {
        with_reused(&WORKSPACES, |ws| {
            self.jacobians(qt, v, position, sized(&mut ws.rotation, position.len()));
        });
    }

    /// The rotation Jacobian alone (row-major 3 × path length).
    pub fn rotation_jacobian(&self, qt: &[f64], v: &[f64], rotation: &mut [f64]) {
        with_reused(&WORKSPACES, |ws| {
            self.jacobians(qt, v, sized(&mut ws.position, rotation.len()), rotation);
        });
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
        let (q, q_t) = self.coordinates(qt, v);
        with_reused(&WORKSPACES, |ws| {
            // perturbed copies of the tree's own coordinates (the columns lie in the tree)
            let qp = sized(&mut ws.coordinates, q.len());
            qp.copy_from_slice(q);
            let jp = sized(&mut ws.position, 3 * n);
            let jr = sized(&mut ws.rotation, 3 * n);
            self.jacobians_at(qp, q_t, jp, jr);
            let base = sized(&mut ws.base, n);
            for (c, b) in base.iter_mut().enumerate() {
                *b = (0..3).map(|k| jp[k * n + c] * force[k]).sum();
            }
            for (j, &col) in columns.iter().enumerate() {
                let eps = 1e-7 * 0.01f64.max(qt[col].abs());
                let i = col - self.start;
                qp[i] = qt[col] + eps;
                self.jacobians_at(qp, q_t, jp, jr);
                qp[i] = qt[col];
                for c in 0..n {
                    let x: f64 = (0..3).map(|k| jp[k * n + c] * force[k]).sum();
                    out[c * n + j] = (x - base[c]) / eps;
                }
            }
        });
    }
}

impl MarkerKinematics for KinematicTreeMarker {
    fn position(&self, at: MarkerAt) -> Vector3<f64> {
        self.state(at.qt, at.v).position
    }

    fn velocity(&self, at: MarkerAt) -> Vector3<f64> {
        self.state(at.qt, at.v).velocity
    }

    fn rotation(&self, at: MarkerAt) -> Matrix3<f64> {
        self.state(at.qt, at.v).rotation
    }

    fn angular_velocity(&self, at: MarkerAt) -> Vector3<f64> {
        self.state(at.qt, at.v).angular_velocity
    }

    fn angular_velocity_local(&self, at: MarkerAt) -> Vector3<f64> {
        let st = self.state(at.qt, at.v);
        st.rotation.transpose() * st.angular_velocity
    }

    fn position_jacobian(&self, at: MarkerAt, out: &mut [f64]) {
        KinematicTreeMarker::position_jacobian(self, at.qt, at.v, out);
    }

    fn rotation_jacobian(&self, at: MarkerAt, out: &mut [f64]) {
        KinematicTreeMarker::rotation_jacobian(self, at.qt, at.v, out);
    }

    fn position_jacobian_t_times_vector_q(&self, at: MarkerAt, f: &[f64; 3], out: &mut [f64]) {
        KinematicTreeMarker::position_jacobian_t_times_vector_q(
            self, at.qt, at.v, f, at.columns, out,
        );
    }
}
