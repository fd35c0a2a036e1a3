//! Loads: forces, torques and mass-proportional loads on their markers, body-fixed or global,
//! and their Jacobians by forward differences (Exudyn's `computeLoadsJacobian`).

use super::ForwardDifference;
use super::{RhsForm, Scratch, v3};
use crate::assemble::{BodyTopology, LoadKind, LoadTopology, Topology};
use crate::linear::MatrixAccumulator;
use crate::markers::{MarkerModel, MarkerState};

impl Topology {
    /// Generalized load vector, scaled by `load_factor`, added into `f`.
    pub fn add_loads(
        &self,
        qt: &[f64],
        v: &[f64],
        load_factor: f64,
        f: &mut [f64],
        scratch: &mut Scratch,
        form: RhsForm,
    ) {
        for l in &self.loads {
            if l.constant {
                // the fast residual starts from their sum (`constant_loads`)
                if form == RhsForm::Fast {
                    continue;
                }
                // the same bits as forming it (`exact_force`)
                if load_factor == 1.0 && !l.exact_force.is_empty() {
                    let columns = &self.markers[l.marker].columns;
                    for (c, x) in columns.iter().zip(&l.exact_force) {
                        f[*c] += x;
                    }
                    continue;
                }
            }
            self.add_load(l.load, qt, v, load_factor, f, scratch, form);
        }
    }

    /// Whether load `l`'s generalized force is independent of the state: a node coordinate's
    /// load, or a global force or mass-proportional load at a marker whose position Jacobian is
    /// constant (a marker kind without orientation, or one at its body's or node's reference
    /// point: J_pos = [I | 0]).
    fn load_is_constant(&self, l: &LoadTopology) -> bool {
        let marker = &self.markers[l.marker];
        match l.kind {
            LoadKind::Coordinate => !marker.is_rotation_coordinate(),
            LoadKind::Torque => false,
            LoadKind::Force if l.body_fixed => false,
            LoadKind::Force | LoadKind::MassProportional => match &marker.model {
                MarkerModel::Kind { kind, parameters } => {
                    !kind.has_orientation()
                        || kind
                            .parameter_names()
                            .iter()
                            .zip(parameters)
                            .all(|(name, &b)| !name.starts_with('b') || b == 0.0)
                }
                _ => false,
            },
        }
    }

    /// Mark the loads whose generalized force is independent of the state and sum their
    /// generalized forces (load factor 1) into `constant_loads`, once, at the reference
    /// configuration (any configuration gives the same). Each constant load's force in
    /// Exudyn's rounding is kept too (`LoadTopology::exact_force`) if two other states give
    /// it bit for bit: the rotation columns of J_pos = [I | 0] come out as ±0, whose sign
    /// depends on the state but not the sum (the residual's load rows start at +0, and
    /// +0 + ±0 = +0, x + ±0 = x), and the position columns are the load itself.
    pub(crate) fn sum_constant_loads(&mut self) {
        for i in 0..self.loads.len() {
            let constant = self.load_is_constant(&self.loads[i]);
            self.loads[i].constant = constant;
        }
        let mut f = vec![0.0; self.n_ode2];
        let qt = self.reference.clone();
        let v = vec![0.0; self.n_ode2];
        let mut scratch = Scratch::for_topology(self);
        for l in self.loads.iter().filter(|l| l.constant) {
            self.add_load(l.load, &qt, &v, 1.0, &mut f, &mut scratch, RhsForm::Fast);
        }
        self.constant_loads = f;
        // two states unlike the reference: every coordinate moved, every velocity nonzero
        let states: Vec<(Vec<f64>, Vec<f64>)> = [0.3, -0.7]
            .iter()
            .map(|&a| {
                let q = (self.reference.iter().enumerate())
                    .map(|(i, r)| r + a * (i as f64 + 1.0).sin())
                    .collect();
                let v = (0..self.n_ode2)
                    .map(|i| a * (i as f64 + 0.5).cos())
                    .collect();
                (q, v)
            })
            .collect();
        for i in 0..self.loads.len() {
            let l = &self.loads[i];
            let n = self.markers[l.marker].columns.len();
            if !l.constant || n == 0 {
                continue;
            }
            let force = |qt: &[f64], v: &[f64], scratch: &mut Scratch| {
                let mut out = vec![0.0; n];
                self.load_vector_local(i, qt, v, 1.0, &mut out, scratch, RhsForm::Exudyn);
                out
            };
            let at_reference = force(&qt, &v, &mut scratch);
            // `==`: ±0 are equal, as they are in the sum; NaN is not
            let same = states
                .iter()
                .all(|(q, v)| force(q, v, &mut scratch) == at_reference);
            if same {
                self.loads[i].exact_force = at_reference;
            }
        }
    }

    /// One load's generalized force (by position in `self.loads`), added into `f`.
    #[allow(clippy::too_many_arguments)]
    pub fn add_load(
        &self,
        index: usize,
        qt: &[f64],
        v: &[f64],
        load_factor: f64,
        f: &mut [f64],
        scratch: &mut Scratch,
        form: RhsForm,
    ) {
        let marker = &self.markers[self.loads[index].marker];
        let n = marker.columns.len();
        if n == 0 {
            return; // loads on ground are skipped
        }
        let mut local = std::mem::take(&mut scratch.load);
        local.resize(n, 0.0);
        self.load_vector_local(index, qt, v, load_factor, &mut local, scratch, form);
        for (c, x) in marker.columns.iter().zip(&local) {
            f[*c] += x;
        }
        scratch.load = local;
    }

    /// A load's generalized force over its marker's columns.
    /// In [`RhsForm::Fast`], a force at a marker acts through its generated J_posᵀ·f kernel
    /// (another rounding than Exudyn's product with the formed Jacobian).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn load_vector_local(
        &self,
        index: usize,
        qt: &[f64],
        v: &[f64],
        load_factor: f64,
        out: &mut [f64],
        scratch: &mut Scratch,
        form: RhsForm,
    ) {
        let l = &self.loads[index];
        let marker = &self.markers[l.marker];
        if l.kind == LoadKind::Coordinate {
            let load = load_factor * l.vector[0];
            if marker.is_rotation_coordinate() {
                // Q = load·J_iᵀ, J_i the rotation Jacobian's row: a global torque load·e_i
                let n = marker.columns.len();
                marker.coordinate_jacobian(qt, v, &mut out[..n], &mut scratch.jac_a);
                for x in &mut out[..n] {
                    *x *= load;
                }
                return;
            }
            // the marker's one column is the coordinate: Q = load
            out[0] = load;
            return;
        }
        let n = marker.columns.len();
        let ms = MarkerState::new(marker, qt, v);
        let vector = v3(l.vector) * load_factor;
        let jac = &mut scratch.jac_a[..3 * n];
        // the Jacobian the load acts through: formed here, or a marker's position Jacobian
        let (vec, factor, formed) = match l.kind {
            LoadKind::MassProportional => match &marker.model {
                MarkerModel::FfrfMass { body } => {
                    let BodyTopology::Ffrf {
                        frame, modal, data, ..
                    } = &self.bodies[*body]
                    else {
                        unreachable!("FfrfMass markers point at FFRF bodies")
                    };
                    crate::superelement::ffrf::mass_proportional_jacobian(
                        data,
                        &qt[*frame..*frame + 7],
                        &qt[*modal..*modal + data.modes()],
                        jac,
                    );
                    (vector, marker.mass, true)
                }
                _ => (vector, marker.mass, false),
            },
            LoadKind::Force => {
                let f = if l.body_fixed {
                    ms.rotation() * vector
                } else {
                    vector
                };
                (f, 1.0, false)
            }
            LoadKind::Coordinate => unreachable!("coordinate loads returned above"),
            LoadKind::Torque => {
                ms.rotation_jacobian(jac);
                let t = if l.body_fixed {
                    ms.rotation() * vector
                } else {
                    vector
                };
                (t, 1.0, true)
            }
        };
        if !formed {
            if form == RhsForm::Fast {
                ms.position_jacobian_t_times(&[vec[0], vec[1], vec[2]], &mut out[..n], jac);
                for x in &mut out[..n] {
                    *x *= factor;
                }
                return;
            }
            ms.position_jacobian(jac);
        }
        for c in 0..n {
            let s: f64 = (0..3).map(|r| jac[r * n + c] * vec[r]).sum();
            out[c] = factor * s;
        }
    }

    /// Add `factor`·∂Q/∂q of every load by forward differences over its marker's columns
    /// (Exudyn's numerical load Jacobian, ε = relEps·max(minCoord, |q_i|)). `qt` is perturbed
    /// in place and restored.
    #[allow(clippy::too_many_arguments)]
    pub fn add_load_jacobians_fd(
        &self,
        q: &[f64],
        qt: &mut [f64],
        v: &[f64],
        load_factor: f64,
        factor: f64,
        fd: ForwardDifference,
        m: &mut impl MatrixAccumulator,
        scratch: &mut Scratch,
    ) {
        let mut base = std::mem::take(&mut scratch.load);
        let mut pert = std::mem::take(&mut scratch.load2);
        for index in 0..self.loads.len() {
            let marker = &self.markers[self.loads[index].marker];
            let n = marker.columns.len();
            if n == 0 {
                continue;
            }
            base.resize(n, 0.0);
            pert.resize(n, 0.0);
            self.load_vector_local(
                index,
                qt,
                v,
                load_factor,
                &mut base,
                scratch,
                RhsForm::Exudyn,
            );
            for (i, &col) in marker.columns.iter().enumerate() {
                let x = q[col];
                let eps = fd.increment(x);
                let saved = qt[col];
                // additive, or by composition on a Lie node
                self.perturb_total(q, qt, col, eps);
                self.load_vector_local(
                    index,
                    qt,
                    v,
                    load_factor,
                    &mut pert,
                    scratch,
                    RhsForm::Exudyn,
                );
                if self.lie_node_of(col).is_some() {
                    self.restore_total(q, qt, col);
                } else {
                    qt[col] = saved;
                }
                for (row, &r) in marker.columns.iter().enumerate() {
                    m.add(r, col, factor * (pert[row] - base[row]) / eps);
                }
                let _ = i;
            }
        }
        scratch.load = base;
        scratch.load2 = pert;
    }
}

#[cfg(test)]
mod tests {
    /// A rigid body under gravity with a marker at its centre and one off it (the loads' tests).
    fn body_under_gravity() -> (
        crate::MultibodySystem,
        crate::MarkerIndex,
        crate::MarkerIndex,
    ) {
        use crate::{Marker, MultibodySystem, RigidBodyInertia, RigidBodyOptions};
        let mut mbs = MultibodySystem::new();
        let mut o = RigidBodyOptions::new(RigidBodyInertia::cuboid(1000.0, [0.3, 0.1, 0.05]));
        o.gravity = [0.0, 0.0, -9.81];
        let body = mbs.create_rigid_body(&o).body;
        let centre = mbs.add_marker(Marker::body_rigid(body, [0.0; 3]));
        let off = mbs.add_marker(Marker::body_position(body, [0.15, 0.02, 0.0]));
        (mbs, centre, off)
    }

    /// The loads the fast residual takes from `Topology::constant_loads` (summed once) are those
    /// whose generalized force does not depend on the state: evaluated at a turned, moved state
    /// they give the bits of the sum; the others are evaluated at every residual.
    #[test]
    fn constant_loads_do_not_depend_on_the_state() {
        use crate::Load;
        use crate::physics::{RhsForm, Scratch};
        let (mut mbs, centre, off) = body_under_gravity();
        let force = |marker, body_fixed| Load::ForceVector {
            name: String::new(),
            marker,
            load_vector: [1.0, -2.0, 3.0],
            body_fixed,
        };
        mbs.add_load(force(centre, false)); // constant: J_pos = [I | 0]
        mbs.add_load(force(off, false)); // −A·skew(b)·G depends on θ
        mbs.add_load(force(centre, true)); // turns with the body
        mbs.add_load(Load::TorqueVector {
            name: String::new(),
            marker: centre,
            load_vector: [0.5, 0.0, 0.0],
            body_fixed: false,
        });
        let sim = mbs.assemble().expect("assembles");
        let topo = &sim.topology;
        // gravity (a BodyMass marker at the centre of mass) comes first
        let constant: Vec<bool> = topo.loads.iter().map(|l| l.constant).collect();
        assert_eq!(constant, [true, true, false, false, false]);
        let n = topo.n_ode2;
        let mut qt = topo.reference.clone();
        // moved and turned: θ of a unit quaternion away from the reference
        let theta = [0.8f64, 0.1, -0.5, 0.3];
        let norm = theta.iter().map(|x| x * x).sum::<f64>().sqrt();
        qt[0] += 0.4;
        for (i, t) in theta.iter().enumerate() {
            qt[3 + i] = t / norm;
        }
        let v = vec![0.3; n];
        let mut scratch = Scratch::for_topology(topo);
        let mut at_state = vec![0.0; n];
        for l in topo.loads.iter().filter(|l| l.constant) {
            topo.add_load(
                l.load,
                &qt,
                &v,
                1.0,
                &mut at_state,
                &mut scratch,
                RhsForm::Fast,
            );
        }
        assert_eq!(at_state, topo.constant_loads);
        assert!(topo.constant_loads.iter().any(|x| *x != 0.0));
        // a load left out does depend on the state
        let mut turned = vec![0.0; n];
        let mut reference = vec![0.0; n];
        topo.add_load(2, &qt, &v, 1.0, &mut turned, &mut scratch, RhsForm::Fast);
        topo.add_load(
            2,
            &topo.reference,
            &v,
            1.0,
            &mut reference,
            &mut scratch,
            RhsForm::Fast,
        );
        assert_ne!(turned, reference);
    }

    /// The exact residual adds a constant load's force formed once (`LoadTopology::exact_force`)
    /// instead of forming it at every residual: in every state the load rows come out bit for
    /// bit as forming each load there gives them (±0 included), so the exact mode's results do
    /// not change.
    #[test]
    fn exact_loads_formed_once_are_the_bits_formed_in_every_state() {
        use crate::Load;
        use crate::physics::{RhsForm, Scratch};
        let (mut mbs, centre, off) = body_under_gravity();
        mbs.add_load(Load::ForceVector {
            name: String::new(),
            marker: centre,
            load_vector: [1.0, -2.0, 0.0],
            body_fixed: false,
        });
        mbs.add_load(Load::ForceVector {
            name: String::new(),
            marker: off,
            load_vector: [0.0, 0.5, 3.0],
            body_fixed: false,
        });
        let sim = mbs.assemble().expect("assembles");
        let topo = &sim.topology;
        // gravity and the force at the centre are formed once, the force off the centre is not
        let formed_once: Vec<bool> = topo
            .loads
            .iter()
            .map(|l| !l.exact_force.is_empty())
            .collect();
        assert_eq!(formed_once, [true, true, false]);
        let n = topo.n_ode2;
        let mut scratch = Scratch::for_topology(topo);
        for (k, theta) in [
            [0.8f64, 0.1, -0.5, 0.3],
            [-0.2, 0.9, 0.3, -0.1],
            [1.0, 0.0, 0.0, 0.0],
        ]
        .iter()
        .enumerate()
        {
            let mut qt = topo.reference.clone();
            let norm = theta.iter().map(|x| x * x).sum::<f64>().sqrt();
            qt[0] += 0.4 * k as f64;
            qt[2] -= 1.3;
            for (i, t) in theta.iter().enumerate() {
                qt[3 + i] = t / norm;
            }
            let v: Vec<f64> = (0..n).map(|i| 0.3 - 0.1 * i as f64).collect();
            for load_factor in [1.0, 0.5] {
                let mut summed = vec![0.0; n];
                topo.add_loads(
                    &qt,
                    &v,
                    load_factor,
                    &mut summed,
                    &mut scratch,
                    RhsForm::Exudyn,
                );
                let mut formed = vec![0.0; n];
                for l in &topo.loads {
                    topo.add_load(
                        l.load,
                        &qt,
                        &v,
                        load_factor,
                        &mut formed,
                        &mut scratch,
                        RhsForm::Exudyn,
                    );
                }
                let bits = |x: &[f64]| x.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                assert_eq!(
                    bits(&summed),
                    bits(&formed),
                    "state {k}, load factor {load_factor}"
                );
            }
        }
    }
}
