//! MarkerSuperElementPosition and MarkerSuperElementRigid on ObjectGenericODE2 (no frame) and
//! ObjectFFRFreducedOrder (a floating Euler-parameter frame plus modal coordinates), as
//! spec/superelements-and-kinematic-trees.md §3–5 describes them.
//!
//! The per-node and frame maps are the generated marker kinematics (`node_point` for a
//! GenericODE2 mesh node, `rigid_ep_point` for the FFRF frame at a run-time local point); the
//! weighted sums over the run-time list of marked nodes are the loops here. Jacobians are kept
//! over the marker's own columns (the marked nodes' coordinates, or frame + modes), never as
//! 3 × (all coordinates).

use nalgebra::{DMatrix, Matrix3, Vector3};

use super::kinematics::{MarkerAt, MarkerKinematics};
use super::rotation_vector::{exp_so3, skew, t_exp_so3};
use crate::kernels::marker_kinematics as mk;
use crate::kernels::marker_kinematics::super_element as sek;
use joint_core::{MarkerKind, MarkerQuantities};

/// Which superelement the marker sits on.
#[derive(Clone, Debug)]
pub enum SuperElementFrame {
    /// GenericODE2: mesh node i is NodePoint `node_starts[i]` (its 3 global ODE2 indices).
    None { node_starts: Vec<usize> },
    /// FFRFreducedOrder: EP frame coordinates at `frame`..+7, modal coordinates at `modal`..+n_m.
    Ffrf {
        frame: usize,
        modal: usize,
        /// Ψ_k of each marked node (3 × n_m), in the order of `weights`.
        mode_rows: Vec<DMatrix<f64>>,
        /// Σ_i w_i Ψ_i (3 × n_m)
        weighted_modes: DMatrix<f64>,
        /// The same, row-major, for the generated kernels
        weighted_modes_row_major: Vec<f64>,
        /// Σ_i w_i P̃_i Ψ_i (3 × n_m), for the rotation Jacobian
        tilde_weighted_modes: DMatrix<f64>,
    },
}

/// The rotational part of MarkerSuperElementRigid.
#[derive(Clone, Debug)]
pub struct SuperElementRotation {
    pub offset: Vector3<f64>,
    pub alternative: bool,
    /// rotationsExponentialMap (0, 1, 2)
    pub mode: i64,
    /// W⁻¹ (alternative approach) or I / Σ w|P|² (standard approach)
    pub w_inverse: Matrix3<f64>,
    /// P_i = x_ref,i − x̄
    pub arms: Vec<Vector3<f64>>,
    /// GenericODE2: per Jacobian column block, Σ over its occurrences of w_i·P̃_i
    pub tilde_weights: Vec<Matrix3<f64>>,
}

/// A resolved superelement marker.
#[derive(Clone, Debug)]
pub struct SuperElementMarker {
    pub frame: SuperElementFrame,
    pub weights: Vec<f64>,
    pub weight_sum: f64,
    /// x_ref of each marked mesh node (local frame for FFRF)
    pub reference_positions: Vec<Vector3<f64>>,
    /// Σ_i w_i x_ref,i
    pub weighted_reference: Vector3<f64>,
    /// GenericODE2: per Jacobian column block (unique nodes, in first-appearance order), the
    /// node's global start and the weight Exudyn writes (the last one of a repeated node).
    pub jacobian_blocks: Vec<(usize, f64)>,
    /// `jacobian_blocks` split for the generated kernels.
    pub block_starts: Vec<usize>,
    pub block_weights: Vec<f64>,
    pub rotation: Option<SuperElementRotation>,
}

fn v3(a: [f64; 3]) -> Vector3<f64> {
    Vector3::new(a[0], a[1], a[2])
}

/// Kinematics of a superelement marker at one state.
pub struct SuperElementState {
    pub position: Vector3<f64>,
    pub velocity: Vector3<f64>,
    /// Orientation (SuperElementRigid only; identity otherwise).
    pub rotation: Matrix3<f64>,
    pub angular_velocity: Vector3<f64>,
    pub angular_velocity_local: Vector3<f64>,
    /// Rotation vector θ of the weighted node rotation.
    pub theta: Vector3<f64>,
    /// FFRF: the local point b (offset included) and the frame rotation A.
    pub local_point: Vector3<f64>,
    pub frame_rotation: Matrix3<f64>,
}

impl SuperElementMarker {
    /// Number of Jacobian columns.
    pub fn columns(&self) -> usize {
        match &self.frame {
            SuperElementFrame::None { .. } => 3 * self.jacobian_blocks.len(),
            SuperElementFrame::Ffrf { weighted_modes, .. } => 7 + weighted_modes.ncols(),
        }
    }

    /// Current local position and velocity of marked node i (displacement u_i too).
    fn node(&self, i: usize, qt: &[f64], v: &[f64]) -> (Vector3<f64>, Vector3<f64>) {
        match &self.frame {
            SuperElementFrame::None { node_starts } => {
                let s = node_starts[i];
                let p = mk::node_point::position(qt[s..s + 3].try_into().expect("3 coordinates"));
                (v3(p), Vector3::new(v[s], v[s + 1], v[s + 2]))
            }
            SuperElementFrame::Ffrf {
                modal, mode_rows, ..
            } => {
                let psi = &mode_rows[i];
                let n = psi.ncols();
                let mut u = Vector3::zeros();
                let mut ut = Vector3::zeros();
                for r in 0..3 {
                    for c in 0..n {
                        u[r] += psi[(r, c)] * qt[modal + c];
                        ut[r] += psi[(r, c)] * v[modal + c];
                    }
                }
                (self.reference_positions[i] + u, ut)
            }
        }
    }

    /// Rotation vector and its weighted rate, θ = W⁻¹ Σ w_i P_i × (u_i − ū).
    fn rotation_vector(
        &self,
        rot: &SuperElementRotation,
        qt: &[f64],
        v: &[f64],
    ) -> (Vector3<f64>, Vector3<f64>) {
        let mut u_bar = Vector3::zeros();
        let mut v_bar = Vector3::zeros();
        for (i, w) in self.weights.iter().enumerate() {
            let (p, vel) = self.node(i, qt, v);
            u_bar += *w * (p - self.reference_positions[i]);
            v_bar += *w * vel;
        }
        let mut s = Vector3::zeros();
        let mut st = Vector3::zeros();
        for (i, w) in self.weights.iter().enumerate() {
            let (p, vel) = self.node(i, qt, v);
            let u = p - self.reference_positions[i];
            s += *w * rot.arms[i].cross(&(u - u_bar));
            st += *w * rot.arms[i].cross(&(vel - v_bar));
        }
        (rot.w_inverse * s, rot.w_inverse * st)
    }

    /// `B` of the rotation Jacobian: C·W⁻¹ (alternative; C = T(θ) if the exponential map is
    /// used) or I/Σ w|P|² (standard).
    fn rotation_jacobian_factor(rot: &SuperElementRotation, theta: &Vector3<f64>) -> Matrix3<f64> {
        if rot.alternative && rot.mode > 0 {
            t_exp_so3(theta) * rot.w_inverse
        } else {
            rot.w_inverse
        }
    }

    /// The weighted local point Σ w_i p_i and velocity Σ w_i v_i (generated loops).
    fn weighted_point(&self, qt: &[f64], v: &[f64]) -> (Vector3<f64>, Vector3<f64>) {
        let (b, bt) = match &self.frame {
            SuperElementFrame::None { node_starts } => (
                sek::weighted_node_position(&self.weights, node_starts, qt),
                sek::weighted_node_velocity(&self.weights, node_starts, qt, v),
            ),
            SuperElementFrame::Ffrf {
                modal,
                weighted_modes_row_major: wm,
                ..
            } => {
                let m = wm.len() / 3;
                let wr = [
                    self.weighted_reference[0],
                    self.weighted_reference[1],
                    self.weighted_reference[2],
                ];
                (
                    sek::modal_local_point(&wr, wm, &qt[*modal..*modal + m]),
                    sek::modal_local_velocity(wm, &v[*modal..*modal + m]),
                )
            }
        };
        (
            v3(b.expect("sizes checked at assemble")),
            v3(bt.expect("sizes checked at assemble")),
        )
    }

    pub fn state(&self, qt: &[f64], v: &[f64]) -> SuperElementState {
        let (b, bt) = self.weighted_point(qt, v);
        let (theta, theta_t) = match &self.rotation {
            Some(rot) => self.rotation_vector(rot, qt, v),
            None => (Vector3::zeros(), Vector3::zeros()),
        };
        let (e, omega_m) = match &self.rotation {
            Some(rot) => {
                let e = if rot.mode > 0 {
                    exp_so3(&theta)
                } else {
                    Matrix3::identity() + skew(&theta)
                };
                let w = if rot.mode == 2 {
                    t_exp_so3(&theta) * theta_t
                } else {
                    theta_t
                };
                (e, w)
            }
            None => (Matrix3::identity(), Vector3::zeros()),
        };
        let offset = self
            .rotation
            .as_ref()
            .map_or(Vector3::zeros(), |r| r.offset);
        match &self.frame {
            SuperElementFrame::None { .. } => SuperElementState {
                position: offset + b,
                velocity: bt,
                rotation: e,
                angular_velocity: omega_m,
                angular_velocity_local: omega_m,
                theta,
                local_point: offset + b,
                frame_rotation: Matrix3::identity(),
            },
            SuperElementFrame::Ffrf { frame, .. } => {
                let f = *frame;
                let (fq, fv) = (&qt[f..f + 7], &v[f..f + 7]);
                let local = offset + b;
                let lp = [local[0], local[1], local[2]];
                let kind = MarkerKind::RigidEpPoint.index();
                let a = Matrix3::from_row_slice(
                    mk::rotation(kind, &lp, fq)
                        .expect("EP frame")
                        .as_flattened(),
                );
                let mut position = v3(mk::position(kind, &lp, fq).expect("EP frame"));
                let mut velocity = v3(mk::velocity(kind, &lp, fq, fv).expect("EP frame")) + a * bt;
                if self.rotation.is_none() {
                    // MarkerSuperElementPosition: Σw·p_r + A·Σ w p_i (Exudyn does not normalise w)
                    let extra = self.weight_sum - 1.0;
                    position += extra * Vector3::new(fq[0], fq[1], fq[2]);
                    velocity += extra * Vector3::new(fv[0], fv[1], fv[2]);
                }
                let omega_r = v3(mk::angular_velocity_local(kind, &lp, fq, fv).expect("EP frame"));
                SuperElementState {
                    position,
                    velocity,
                    rotation: a * e,
                    angular_velocity: a * (omega_r + omega_m),
                    angular_velocity_local: omega_r + omega_m,
                    theta,
                    local_point: local,
                    frame_rotation: a,
                }
            }
        }
    }

    /// Position Jacobian over the marker's columns (row-major 3 × columns).
    pub fn position_jacobian(&self, qt: &[f64], v: &[f64], out: &mut [f64]) {
        let done = match &self.frame {
            SuperElementFrame::None { .. } => sek::weighted_node_position_jacobian(
                &self.block_weights,
                &self.block_starts,
                qt,
                out,
            ),
            SuperElementFrame::Ffrf {
                frame,
                weighted_modes_row_major,
                ..
            } => {
                let st = self.state(qt, v);
                let lp = [st.local_point[0], st.local_point[1], st.local_point[2]];
                let f = *frame;
                sek::frame_modal_position_jacobian(
                    &lp,
                    qt[f..f + 7].try_into().expect("7 frame coordinates"),
                    weighted_modes_row_major,
                    out,
                )
            }
        };
        done.expect("sizes checked at assemble");
    }

    /// Rotation Jacobian ∂ω/∂q̇ over the marker's columns (SuperElementRigid).
    pub fn rotation_jacobian(&self, qt: &[f64], v: &[f64], out: &mut [f64]) {
        let n = self.columns();
        out.fill(0.0);
        let Some(rot) = &self.rotation else { return };
        let st = self.state(qt, v);
        let b = Self::rotation_jacobian_factor(rot, &st.theta);
        match &self.frame {
            SuperElementFrame::None { .. } => {
                for (k, s) in rot.tilde_weights.iter().enumerate() {
                    let block = b * s;
                    for r in 0..3 {
                        for c in 0..3 {
                            out[r * n + 3 * k + c] = block[(r, c)];
                        }
                    }
                }
            }
            SuperElementFrame::Ffrf {
                frame,
                tilde_weighted_modes,
                ..
            } => {
                let f = *frame;
                let a = st.frame_rotation;
                let mut gl = [0.0; 21];
                mk::rotation_jacobian_local(
                    MarkerKind::NodeEp.index(),
                    &[],
                    &qt[f..f + 7],
                    &mut gl,
                )
                .expect("EP frame");
                for r in 0..3 {
                    for c in 3..7 {
                        out[r * n + c] = (0..3).map(|k| a[(r, k)] * gl[k * 7 + c]).sum();
                    }
                }
                // A·B·(Σ w P̃ Ψ), without a dynamically sized temporary
                let ab = a * b;
                for r in 0..3 {
                    for c in 0..tilde_weighted_modes.ncols() {
                        out[r * n + 7 + c] = (0..3)
                            .map(|k| ab[(r, k)] * tilde_weighted_modes[(k, c)])
                            .sum();
                    }
                }
            }
        }
    }

    /// ∂(J_posᵀ f)/∂q over the marker's columns: zero for GenericODE2 (a linear map); for FFRF
    /// the frame part at the current local point b plus the frame–mode couplings,
    /// ∂(Ḡᵀ(b × Aᵀf))/∂ζ = −Ḡᵀ·skew(Aᵀf)·W_Ψ and ∂(W_Ψᵀ Aᵀ f)/∂θ = W_Ψᵀ·skew(Aᵀf)·Ḡ (the
    /// rotation differentiated in its tangent space, as for rigid bodies).
    pub fn position_jacobian_t_times_vector_q(
        &self,
        qt: &[f64],
        v: &[f64],
        force: &[f64; 3],
        out: &mut [f64],
    ) {
        let n = self.columns();
        out.fill(0.0);
        if let SuperElementFrame::Ffrf { frame, .. } = &self.frame {
            let st = self.state(qt, v);
            let lp = [st.local_point[0], st.local_point[1], st.local_point[2]];
            let f = *frame;
            let mut block = [0.0; 49];
            mk::position_jacobian_t_times_vector_q(
                MarkerKind::RigidEpPoint.index(),
                &lp,
                &qt[f..f + 7],
                force,
                &mut block,
            )
            .expect("EP frame");
            for r in 0..7 {
                out[r * n..r * n + 7].copy_from_slice(&block[r * 7..r * 7 + 7]);
            }
            let SuperElementFrame::Ffrf { weighted_modes, .. } = &self.frame else {
                unreachable!()
            };
            let mut gl = [0.0; 21];
            mk::rotation_jacobian_local(MarkerKind::NodeEp.index(), &[], &qt[f..f + 7], &mut gl)
                .expect("EP frame");
            let g_local = nalgebra::Matrix3x4::from_fn(|r, c| gl[r * 7 + 3 + c]);
            let atf = st.frame_rotation.transpose() * Vector3::new(force[0], force[1], force[2]);
            let s_atf = skew(&atf);
            // θζ block −(Ḡᵀ·skew(Aᵀf))·W_Ψ (4 × n_m) and ζθ block W_Ψᵀ·(skew(Aᵀf)·Ḡ)
            // (n_m × 4), without dynamically sized temporaries
            let gs = -(g_local.transpose() * s_atf);
            let sg = s_atf * g_local;
            let nm = weighted_modes.ncols();
            for r in 0..4 {
                for c in 0..nm {
                    out[(3 + r) * n + 7 + c] =
                        (0..3).map(|k| gs[(r, k)] * weighted_modes[(k, c)]).sum();
                }
            }
            for r in 0..nm {
                for c in 0..4 {
                    out[(7 + r) * n + 3 + c] =
                        (0..3).map(|k| weighted_modes[(k, r)] * sg[(k, c)]).sum();
                }
            }
        }
    }
}

impl MarkerKinematics for SuperElementMarker {
    fn position(&self, at: MarkerAt) -> Vector3<f64> {
        self.state(at.qt, at.v).position
    }

    fn velocity(&self, at: MarkerAt) -> Vector3<f64> {
        self.state(at.qt, at.v).velocity
    }

    fn rotation(&self, at: MarkerAt) -> Matrix3<f64> {
        match self.rotation {
            Some(_) => self.state(at.qt, at.v).rotation,
            None => Matrix3::identity(),
        }
    }

    fn angular_velocity(&self, at: MarkerAt) -> Vector3<f64> {
        self.state(at.qt, at.v).angular_velocity
    }

    fn angular_velocity_local(&self, at: MarkerAt) -> Vector3<f64> {
        self.state(at.qt, at.v).angular_velocity_local
    }

    fn position_jacobian(&self, at: MarkerAt, out: &mut [f64]) {
        SuperElementMarker::position_jacobian(self, at.qt, at.v, out);
    }

    fn rotation_jacobian(&self, at: MarkerAt, out: &mut [f64]) {
        SuperElementMarker::rotation_jacobian(self, at.qt, at.v, out);
    }

    fn position_jacobian_t_times_vector_q(&self, at: MarkerAt, f: &[f64; 3], out: &mut [f64]) {
        SuperElementMarker::position_jacobian_t_times_vector_q(self, at.qt, at.v, f, out);
    }

    /// One evaluation of the weighted-node map for all four quantities (its rotation even
    /// without a rotation part: the marker-level kernels read the state's own).
    fn quantities(&self, at: MarkerAt) -> MarkerQuantities {
        let st = self.state(at.qt, at.v);
        super::kinematics::quantities(st.position, st.velocity, st.rotation, st.angular_velocity)
    }
}
