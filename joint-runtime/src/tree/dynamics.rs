//! Kinematic-tree dynamics: the mass matrix by the composite-rigid-body algorithm and the
//! left-hand side by recursive Newton–Euler, in Featherstone's spatial notation with link
//! coordinates, exactly as Exudyn's ObjectKinematicTree (spec §6.3–6.4). Link frames and
//! point Jacobians come from the generated `marker_kinematics::kinematic_tree` kernels.

use std::cell::RefCell;

use nalgebra::{Matrix3, Matrix6, Vector3, Vector6};

use super::{sized, with_reused};
use crate::kernels::marker_kinematics::kinematic_tree::{self as kt, LinkFrame};

/// An angular and a linear 3-vector (spatial motion or force, or a link's accelerations).
type Pair = (Vector3<f64>, Vector3<f64>);

/// The buffers of [`KinematicTreeData::mass_matrix`] and [`KinematicTreeData::lhs`].
#[derive(Default)]
struct DynamicsWorkspace {
    transforms: Vec<Transform>,
    absolute: Vec<Transform>,
    spatial: Vec<Matrix6<f64>>,
    composite: Vec<Matrix6<f64>>,
    velocities: Vec<Pair>,
    accelerations: Vec<Pair>,
    forces: Vec<Pair>,
}

/// The buffers of [`KinematicTreeData::with_point_jacobian`].
#[derive(Default)]
struct JacobianWorkspace {
    path: Vec<usize>,
    position: Vec<[f64; 3]>,
    rotation: Vec<[f64; 3]>,
}

thread_local! {
    static DYNAMICS: RefCell<Vec<DynamicsWorkspace>> = const { RefCell::new(Vec::new()) };
    static FRAMES: RefCell<Vec<Vec<LinkFrame>>> = const { RefCell::new(Vec::new()) };
    static JACOBIANS: RefCell<Vec<JacobianWorkspace>> = const { RefCell::new(Vec::new()) };
    static ACCELERATIONS: RefCell<Vec<Vec<Pair>>> = const { RefCell::new(Vec::new()) };
}

/// The constant data of a tree (its model-file keys in comments).
#[derive(Clone, Debug, PartialEq)]
pub struct KinematicTreeData {
    /// jointTypes (Exudyn numbers: RevoluteX/Y/Z = 1/2/3, PrismaticX/Y/Z = 4/5/6)
    pub joint_types: Vec<u8>,
    /// linkParents (−1 = base, `parents[i] < i`)
    pub parents: Vec<isize>,
    /// jointTransformations A_i
    pub transformations: Vec<[[f64; 3]; 3]>,
    /// jointOffsets o_i
    pub offsets: Vec<[f64; 3]>,
    /// linkInertiasCOM J_i (about the COM, link coordinates)
    pub inertias_com: Vec<Matrix3<f64>>,
    /// linkCOMs c_i (link coordinates)
    pub coms: Vec<Vector3<f64>>,
    /// linkMasses m_i
    pub masses: Vec<f64>,
    /// linkForces, linkTorques (empty or one per link; Exudyn's convention, see `lhs`)
    pub link_forces: Vec<Vector3<f64>>,
    pub link_torques: Vec<Vector3<f64>>,
    /// jointForceVector (empty or one per joint)
    pub joint_forces: Vec<f64>,
    /// jointPositionOffsetVector u_o and jointPControlVector P (both empty or both n)
    pub position_offsets: Vec<f64>,
    pub p_control: Vec<f64>,
    /// jointVelocityOffsetVector v_o and jointDControlVector D (both empty or both n)
    pub velocity_offsets: Vec<f64>,
    pub d_control: Vec<f64>,
    /// gravity
    pub gravity: Vector3<f64>,
    /// baseOffset b
    pub base_offset: [f64; 3],
}

fn skew(v: &Vector3<f64>) -> Matrix3<f64> {
    Matrix3::new(0.0, -v[2], v[1], v[2], 0.0, -v[0], -v[1], v[0], 0.0)
}

/// A Plücker transform parent → link: x_link = E·x_parent + r.
#[derive(Clone, Copy, Debug)]
struct Transform {
    e: Matrix3<f64>,
    r: Vector3<f64>,
}

impl Default for Transform {
    fn default() -> Self {
        Transform {
            e: Matrix3::identity(),
            r: Vector3::zeros(),
        }
    }
}

impl Transform {
    /// X·[ω; v] = [Eω; E v + r × (Eω)]
    fn motion(&self, w: &Vector3<f64>, v: &Vector3<f64>) -> (Vector3<f64>, Vector3<f64>) {
        let ew = self.e * w;
        (ew, self.e * v + self.r.cross(&ew))
    }

    /// Xᵀ·[n; f] = [Eᵀ(n − r × f); Eᵀ f]
    fn force_transpose(&self, n: &Vector3<f64>, f: &Vector3<f64>) -> (Vector3<f64>, Vector3<f64>) {
        (
            self.e.transpose() * (n - self.r.cross(f)),
            self.e.transpose() * f,
        )
    }

    /// X⁻ᵀ·[n; f] = [E n + r × (E f); E f]
    fn force_inverse_transpose(
        &self,
        n: &Vector3<f64>,
        f: &Vector3<f64>,
    ) -> (Vector3<f64>, Vector3<f64>) {
        let ef = self.e * f;
        (self.e * n + self.r.cross(&ef), ef)
    }

    /// self ∘ parent: x = E(E_p x + r_p) + r
    fn then(&self, parent: &Transform) -> Transform {
        Transform {
            e: self.e * parent.e,
            r: self.r + self.e * parent.r,
        }
    }

    fn matrix(&self) -> Matrix6<f64> {
        let mut x = Matrix6::zeros();
        x.fixed_view_mut::<3, 3>(0, 0).copy_from(&self.e);
        x.fixed_view_mut::<3, 3>(3, 3).copy_from(&self.e);
        x.fixed_view_mut::<3, 3>(3, 0)
            .copy_from(&(skew(&self.r) * self.e));
        x
    }
}

fn axis(t: u8) -> Vector3<f64> {
    let mut e = Vector3::zeros();
    e[(t as usize - 1) % 3] = 1.0;
    e
}

fn is_revolute(t: u8) -> bool {
    t <= 3
}

fn rotation_about(k: usize, q: f64) -> Matrix3<f64> {
    let (s, c) = q.sin_cos();
    match k {
        0 => Matrix3::new(1.0, 0.0, 0.0, 0.0, c, -s, 0.0, s, c),
        1 => Matrix3::new(c, 0.0, s, 0.0, 1.0, 0.0, -s, 0.0, c),
        _ => Matrix3::new(c, -s, 0.0, s, c, 0.0, 0.0, 0.0, 1.0),
    }
}

/// Spatial inertia at the link origin: I·[ω; v] = [J_O ω + h × v; m v − h × ω].
struct SpatialInertia {
    m: f64,
    h: Vector3<f64>,
    j_o: Matrix3<f64>,
}

impl SpatialInertia {
    fn apply(&self, w: &Vector3<f64>, v: &Vector3<f64>) -> (Vector3<f64>, Vector3<f64>) {
        (self.j_o * w + self.h.cross(v), self.m * v - self.h.cross(w))
    }

    fn matrix(&self) -> Matrix6<f64> {
        let mut i = Matrix6::zeros();
        let ht = skew(&self.h);
        i.fixed_view_mut::<3, 3>(0, 0).copy_from(&self.j_o);
        i.fixed_view_mut::<3, 3>(0, 3).copy_from(&ht);
        i.fixed_view_mut::<3, 3>(3, 0).copy_from(&(-ht));
        i.fixed_view_mut::<3, 3>(3, 3)
            .copy_from(&(Matrix3::identity() * self.m));
        i
    }
}

impl KinematicTreeData {
    pub fn links(&self) -> usize {
        self.joint_types.len()
    }

    fn transform(&self, i: usize, q: f64) -> Transform {
        let t = self.joint_types[i];
        let a = Matrix3::from_row_slice(self.transformations[i].as_flattened());
        let o = Vector3::from(self.offsets[i]);
        // child-to-parent HT(R_c, p_c) = HT(A, o)·J(q)
        let (rc, pc) = if is_revolute(t) {
            (a * rotation_about((t as usize - 1) % 3, q), o)
        } else {
            (a, o + a * axis(t) * q)
        };
        let e = rc.transpose();
        Transform { e, r: -(e * pc) }
    }

    fn inertia(&self, i: usize) -> SpatialInertia {
        let m = self.masses[i];
        let c = self.coms[i];
        let ct = skew(&c);
        SpatialInertia {
            m,
            h: m * c,
            j_o: self.inertias_com[i] - m * ct * ct,
        }
    }

    /// Motion subspace S_i = [e_k; 0] (revolute) or [0; e_k] (prismatic).
    fn subspace(&self, i: usize) -> Vector6<f64> {
        let t = self.joint_types[i];
        let e = axis(t);
        if is_revolute(t) {
            Vector6::new(e[0], e[1], e[2], 0.0, 0.0, 0.0)
        } else {
            Vector6::new(0.0, 0.0, 0.0, e[0], e[1], e[2])
        }
    }

    /// Global link frames at total coordinates `q` and rates `q_t` (generated kernels).
    pub fn frames(&self, q: &[f64], q_t: &[f64]) -> Vec<LinkFrame> {
        let mut frames = vec![LinkFrame::default(); self.links()];
        self.frames_into(q, q_t, &mut frames);
        frames
    }

    /// [`KinematicTreeData::frames`] into `frames` (one per link).
    pub fn frames_into(&self, q: &[f64], q_t: &[f64], frames: &mut [LinkFrame]) {
        kt::link_frames(
            &self.joint_types,
            &self.parents,
            &self.transformations,
            &self.offsets,
            &self.base_offset,
            q,
            q_t,
            frames,
        )
        .expect("tree checked at assemble");
    }

    /// `f` of the link frames at (`q`, `q_t`), computed into a reused buffer (no allocation).
    pub fn with_frames<R>(&self, q: &[f64], q_t: &[f64], f: impl FnOnce(&[LinkFrame]) -> R) -> R {
        with_reused(&FRAMES, |buffer| {
            let frames = sized(buffer, self.links());
            self.frames_into(q, q_t, frames);
            f(frames)
        })
    }

    /// Jacobians of the global point `point` of link `link`: returns (path joints, J_p columns,
    /// J_r columns), each column a 3-vector.
    pub fn point_jacobian(
        &self,
        frames: &[LinkFrame],
        link: usize,
        point: &[f64; 3],
    ) -> (Vec<usize>, Vec<[f64; 3]>, Vec<[f64; 3]>) {
        self.with_point_jacobian(frames, link, point, |path, jp, jr| {
            (path.to_vec(), jp.to_vec(), jr.to_vec())
        })
    }

    /// `f(path joints, J_p columns, J_r columns)` of [`KinematicTreeData::point_jacobian`],
    /// computed into reused buffers (no allocation).
    pub fn with_point_jacobian<R>(
        &self,
        frames: &[LinkFrame],
        link: usize,
        point: &[f64; 3],
        f: impl FnOnce(&[usize], &[[f64; 3]], &[[f64; 3]]) -> R,
    ) -> R {
        with_reused(&JACOBIANS, |ws| {
            let n = self.links();
            let (path, jp, jr) = (
                sized(&mut ws.path, n),
                sized(&mut ws.position, n),
                sized(&mut ws.rotation, n),
            );
            let k = kt::point_jacobian(
                &self.joint_types,
                &self.parents,
                frames,
                link,
                point,
                path,
                jp,
                jr,
            )
            .expect("tree checked at assemble");
            f(&path[..k], &jp[..k], &jr[..k])
        })
    }

    /// Global accelerations of every link (angular acceleration α_i and origin acceleration),
    /// from the frames at (q, q̇) and the joint accelerations q̈: α_i = α_π + a_i q̈_i + ω_π × a_i q̇_i
    /// (revolute); a_i = a_π + α_π × r + ω_π × (ω_π × r) (+ a_i q̈_i + 2 ω_π × a_i q̇_i for
    /// prismatic), r = p_i − p_π.
    pub fn accelerations(&self, frames: &[LinkFrame], q_t: &[f64], q_tt: &[f64]) -> Vec<Pair> {
        let mut out = vec![(Vector3::zeros(), Vector3::zeros()); self.links()];
        self.accelerations_into(frames, q_t, q_tt, &mut out);
        out
    }

    /// `f` of [`KinematicTreeData::accelerations`], computed into a reused buffer.
    pub fn with_accelerations<R>(
        &self,
        frames: &[LinkFrame],
        q_t: &[f64],
        q_tt: &[f64],
        f: impl FnOnce(&[Pair]) -> R,
    ) -> R {
        with_reused(&ACCELERATIONS, |buffer| {
            let out = sized(buffer, self.links());
            self.accelerations_into(frames, q_t, q_tt, out);
            f(out)
        })
    }

    /// [`KinematicTreeData::accelerations`] into `out` (one per link).
    pub fn accelerations_into(
        &self,
        frames: &[LinkFrame],
        q_t: &[f64],
        q_tt: &[f64],
        out: &mut [Pair],
    ) {
        let n = self.links();
        for i in 0..n {
            let t = self.joint_types[i];
            let r = Matrix3::from_row_slice(frames[i].rotation.as_flattened());
            let a = r * axis(t);
            let p = Vector3::from(frames[i].position);
            let (alpha_p, acc_p, w_p, p_p) = match self.parents[i] {
                -1 => (
                    Vector3::zeros(),
                    Vector3::zeros(),
                    Vector3::zeros(),
                    Vector3::from(self.base_offset),
                ),
                j => {
                    let j = j as usize;
                    (
                        out[j].0,
                        out[j].1,
                        Vector3::from(frames[j].angular_velocity),
                        Vector3::from(frames[j].position),
                    )
                }
            };
            let arm = p - p_p;
            let mut acc = acc_p + alpha_p.cross(&arm) + w_p.cross(&w_p.cross(&arm));
            let alpha = if is_revolute(t) {
                alpha_p + a * q_tt[i] + w_p.cross(&(a * q_t[i]))
            } else {
                acc += a * q_tt[i] + 2.0 * w_p.cross(&(a * q_t[i]));
                alpha_p
            };
            out[i] = (alpha, acc);
        }
    }

    /// The mass matrix M(q) (row-major n × n) by the composite-rigid-body algorithm.
    pub fn mass_matrix(&self, q: &[f64], out: &mut [f64]) {
        with_reused(&DYNAMICS, |ws| self.mass_matrix_in(ws, q, out));
    }

    fn mass_matrix_in(&self, ws: &mut DynamicsWorkspace, q: &[f64], out: &mut [f64]) {
        let n = self.links();
        let xs = sized(&mut ws.spatial, n);
        let ic = sized(&mut ws.composite, n);
        for i in 0..n {
            xs[i] = self.transform(i, q[i]).matrix();
            ic[i] = self.inertia(i).matrix();
        }
        for i in (0..n).rev() {
            let p = self.parents[i];
            if p >= 0 {
                let add = xs[i].transpose() * ic[i] * xs[i];
                ic[p as usize] += add;
            }
        }
        out.fill(0.0);
        for i in 0..n {
            let s = self.subspace(i);
            let mut f = ic[i] * s;
            out[i * n + i] = s.dot(&f);
            let mut j = i;
            while self.parents[j] >= 0 {
                f = xs[j].transpose() * f;
                j = self.parents[j] as usize;
                let m = self.subspace(j).dot(&f);
                out[i * n + j] = m;
                out[j * n + i] = m;
            }
        }
    }

    /// The tree's LHS (M q̈ + LHS = 0): Newton–Euler velocity and gravity terms, Exudyn's
    /// linkForces/linkTorques (LHS += Σ J_p,i(b)ᵀ f_i + J_ω,iᵀ τ_i, with b the base offset),
    /// jointForceVector, and P/D control on total coordinates.
    pub fn lhs(&self, q: &[f64], q_t: &[f64], out: &mut [f64]) {
        with_reused(&DYNAMICS, |ws| self.lhs_in(ws, q, q_t, out));
    }

    fn lhs_in(&self, ws: &mut DynamicsWorkspace, q: &[f64], q_t: &[f64], out: &mut [f64]) {
        let n = self.links();
        let xs = sized(&mut ws.transforms, n);
        for (i, x) in xs.iter_mut().enumerate() {
            *x = self.transform(i, q[i]);
        }
        let vel = sized(&mut ws.velocities, n);
        let force = sized(&mut ws.forces, n);
        let acc = sized(&mut ws.accelerations, n);
        let g = self.gravity;
        for i in 0..n {
            let s = self.subspace(i);
            let vj = (
                Vector3::new(s[0], s[1], s[2]) * q_t[i],
                Vector3::new(s[3], s[4], s[5]) * q_t[i],
            );
            let (v, a) = match self.parents[i] {
                -1 => (vj, xs[i].motion(&Vector3::zeros(), &(-g))),
                p => {
                    let (pw, pv) = vel[p as usize];
                    let (w, v) = xs[i].motion(&pw, &pv);
                    let v = (w + vj.0, v + vj.1);
                    let (aw, av) = acc[p as usize];
                    let (aw, av) = xs[i].motion(&aw, &av);
                    // crm(V)·vJ = [ω × vJω; v × vJω + ω × vJv]
                    let c = (v.0.cross(&vj.0), v.1.cross(&vj.0) + v.0.cross(&vj.1));
                    (v, (aw + c.0, av + c.1))
                }
            };
            vel[i] = v;
            acc[i] = a;
            let inertia = self.inertia(i);
            let (ia_n, ia_f) = inertia.apply(&a.0, &a.1);
            let (iv_n, iv_f) = inertia.apply(&v.0, &v.1);
            // crf(V)·F = [ω × n + v × f; ω × f]
            force[i] = (
                ia_n + v.0.cross(&iv_n) + v.1.cross(&iv_f),
                ia_f + v.0.cross(&iv_f),
            );
        }
        if !self.link_forces.is_empty() || !self.link_torques.is_empty() {
            let absolute = sized(&mut ws.absolute, n);
            for i in 0..n {
                let a = match self.parents[i] {
                    -1 => xs[i],
                    p => xs[i].then(&absolute[p as usize]),
                };
                absolute[i] = a;
                let f = self
                    .link_forces
                    .get(i)
                    .copied()
                    .unwrap_or_else(Vector3::zeros);
                let t = self
                    .link_torques
                    .get(i)
                    .copied()
                    .unwrap_or_else(Vector3::zeros);
                let (dn, df) = a.force_inverse_transpose(&t, &f);
                force[i].0 += dn;
                force[i].1 += df;
            }
        }
        for i in (0..n).rev() {
            let s = self.subspace(i);
            let (fn_, ff) = force[i];
            out[i] = s[0] * fn_[0]
                + s[1] * fn_[1]
                + s[2] * fn_[2]
                + s[3] * ff[0]
                + s[4] * ff[1]
                + s[5] * ff[2];
            let p = self.parents[i];
            if p >= 0 {
                let (tn, tf) = xs[i].force_transpose(&fn_, &ff);
                force[p as usize].0 += tn;
                force[p as usize].1 += tf;
            }
        }
        for i in 0..n {
            if let Some(f) = self.joint_forces.get(i) {
                out[i] -= f;
            }
            if let (Some(p), Some(u)) = (self.p_control.get(i), self.position_offsets.get(i)) {
                out[i] -= p * (u - q[i]);
            }
            if let (Some(d), Some(v)) = (self.d_control.get(i), self.velocity_offsets.get(i)) {
                out[i] -= d * (v - q_t[i]);
            }
        }
    }
}
