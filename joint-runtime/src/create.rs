//! One-call helpers as Exudyn's `mbs.Create…` (spec/items.md §9), and `RigidBodyInertia`.

use nalgebra::{Matrix3, Vector3};

use crate::error::{Error, ItemRef, Result};
use crate::items::joints::{JointObject, JointVisualization};
use crate::items::{Load, LoadIndex, Marker, MarkerIndex, Node, NodeIndex, Object, ObjectIndex};
use crate::system::MultibodySystem;

/// Exudyn's `eulerParameters0`.
pub const EULER_PARAMETERS_0: [f64; 4] = [1.0, 0.0, 0.0, 0.0];

/// Mass, inertia tensor about the reference point, and centre of mass (Exudyn's
/// `RigidBodyInertia`). Matrices are `[[f64; 3]; 3]`, row by row, as every matrix of the
/// items' API.
///
/// ```
/// use joint_runtime::RigidBodyInertia;
/// // a 2 kg body with the inertia 0.1·diag(1, 2, 3) about its centre of mass at x = 0.5
/// let j = [[0.1, 0.0, 0.0], [0.0, 0.2, 0.0], [0.0, 0.0, 0.3]];
/// let inertia = RigidBodyInertia::new(2.0, j, [0.5, 0.0, 0.0], true);
/// // about the reference point: + m·(|c|²·I − c·cᵀ)
/// assert_eq!(inertia.inertia[1][1], 0.2 + 2.0 * 0.25);
/// assert_eq!(inertia.inertia_6d(), [0.1, 0.7, 0.8, 0.0, 0.0, 0.0]);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct RigidBodyInertia {
    /// Mass (kg).
    pub mass: f64,
    /// Inertia tensor about the body's reference point, in body axes (kg·m²), row by row.
    pub inertia: [[f64; 3]; 3],
    /// Centre of mass in body axes.
    pub com: [f64; 3],
}

impl RigidBodyInertia {
    /// `InertiaCuboid(density, sideLengths)`: COM 0, m/12·diag(L2²+L3², L1²+L3², L1²+L2²).
    pub fn cuboid(density: f64, side_lengths: [f64; 3]) -> Self {
        let [a, b, c] = side_lengths;
        let m = density * a * b * c;
        RigidBodyInertia {
            mass: m,
            inertia: [
                [m / 12.0 * (b * b + c * c), 0.0, 0.0],
                [0.0, m / 12.0 * (a * a + c * c), 0.0],
                [0.0, 0.0, m / 12.0 * (a * a + b * b)],
            ],
            com: [0.0; 3],
        }
    }

    /// `RigidBodyInertia(mass, inertiaTensor, com, inertiaTensorAtCOM)`: `inertia` row by row,
    /// about the centre of mass if `inertia_at_com` (then moved to the reference point by
    /// Steiner's theorem), else about the reference point.
    pub fn new(mass: f64, inertia: [[f64; 3]; 3], com: [f64; 3], inertia_at_com: bool) -> Self {
        let j = Matrix3::from_row_slice(inertia.as_flattened());
        let j = if inertia_at_com {
            let s = skew(com);
            j + mass * s.transpose() * s
        } else {
            j
        };
        RigidBodyInertia {
            mass,
            inertia: row_major(&j),
            com,
        }
    }

    /// `GetInertia6D()`: [J00, J11, J22, J12, J02, J01].
    pub fn inertia_6d(&self) -> [f64; 6] {
        let j = &self.inertia;
        [j[0][0], j[1][1], j[2][2], j[1][2], j[0][2], j[0][1]]
    }
}

/// A matrix row by row.
fn row_major(m: &Matrix3<f64>) -> [[f64; 3]; 3] {
    std::array::from_fn(|i| std::array::from_fn(|j| m[(i, j)]))
}

fn skew(v: [f64; 3]) -> Matrix3<f64> {
    Matrix3::new(0.0, -v[2], v[1], v[2], 0.0, -v[0], -v[1], v[0], 0.0)
}

/// Rotation parametrization for `create_rigid_body`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum RigidNodeType {
    #[default]
    /// NodeRigidBodyEP: Euler parameters with their constraint.
    EulerParameters,
    /// NodeRigidBodyRxyz: Tait–Bryan angles x-y-z.
    RotationRxyz,
    /// NodeRigidBodyRotVecLG: a rotation vector, integrated on the Lie group (Exudyn's
    /// `exu.NodeType.RotationRotationVector`).
    RotationRotationVector,
}

/// Exudyn's Python `RotationMatrix2RotationVector`: φ·n from the Euler parameters (e₀, e),
/// φ = 2·atan2(|e|, e₀), n = e/|e|; `a` row by row.
pub fn rotation_matrix_to_rotation_vector(a: &[[f64; 3]; 3]) -> [f64; 3] {
    let t = rotation_matrix_to_euler_parameters(a);
    let norm = (t[1] * t[1] + t[2] * t[2] + t[3] * t[3]).sqrt();
    let phi = 2.0 * norm.atan2(t[0]);
    let scale = if norm != 0.0 { 1.0 / norm } else { 1.0 };
    [
        phi * (scale * t[1]),
        phi * (scale * t[2]),
        phi * (scale * t[3]),
    ]
}

/// Exudyn's `RotationMatrix2EulerParameters` (normalized, as the Python helper); `a` row by row.
pub fn rotation_matrix_to_euler_parameters(a: &[[f64; 3]; 3]) -> [f64; 4] {
    let a = &Matrix3::from_row_slice(a.as_flattened());
    let tr = a[(0, 0)] + a[(1, 1)] + a[(2, 2)] + 1.0;
    let mut t = if tr.abs() > 1e-15 {
        let s = 0.5 / tr.abs().sqrt();
        [
            0.25 / s,
            (a[(2, 1)] - a[(1, 2)]) * s,
            (a[(0, 2)] - a[(2, 0)]) * s,
            (a[(1, 0)] - a[(0, 1)]) * s,
        ]
    } else if a[(0, 0)] >= a[(1, 1)] && a[(0, 0)] >= a[(2, 2)] {
        let s = 2.0 * (1.0 + a[(0, 0)] - a[(1, 1)] - a[(2, 2)]).abs().sqrt();
        [
            (a[(1, 2)] - a[(2, 1)]) / s,
            s / 4.0,
            (a[(0, 1)] + a[(1, 0)]) / s,
            (a[(0, 2)] + a[(2, 0)]) / s,
        ]
    } else if a[(1, 1)] >= a[(2, 2)] {
        let s = 2.0 * (1.0 + a[(1, 1)] - a[(0, 0)] - a[(2, 2)]).abs().sqrt();
        [
            (a[(0, 2)] - a[(2, 0)]) / s,
            (a[(0, 1)] + a[(1, 0)]) / s,
            s / 4.0,
            (a[(1, 2)] + a[(2, 1)]) / s,
        ]
    } else {
        let s = 2.0 * (1.0 + a[(2, 2)] - a[(0, 0)] - a[(1, 1)]).abs().sqrt();
        [
            (a[(0, 1)] - a[(1, 0)]) / s,
            (a[(0, 2)] + a[(2, 0)]) / s,
            (a[(1, 2)] + a[(2, 1)]) / s,
            s / 4.0,
        ]
    };
    let n = t.iter().map(|x| x * x).sum::<f64>().sqrt();
    for x in &mut t {
        *x /= n;
    }
    t
}

/// What [`MultibodySystem::create_mass_point`] and [`MultibodySystem::create_rigid_body`]
/// added to the system.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CreatedBody {
    /// The body: an ObjectMassPoint or ObjectRigidBody.
    pub body: ObjectIndex,
    /// Its node.
    pub node: NodeIndex,
    /// Its gravity, when not zero: the MarkerBodyMass and the LoadMassProportional on it.
    pub gravity: Option<(MarkerIndex, LoadIndex)>,
}

/// What [`MultibodySystem::create_spherical_joint`] added to the system.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CreatedJoint {
    /// The joint.
    pub joint: ObjectIndex,
    /// Its two MarkerBodyPosition, at the joint's point on each body.
    pub markers: [MarkerIndex; 2],
}

/// Arguments of [`MultibodySystem::create_rigid_body`], with Exudyn's defaults.
#[derive(Clone, Debug)]
pub struct RigidBodyOptions {
    /// The body's `name`.
    pub name: String,
    /// The reference point's global position.
    pub reference_position: [f64; 3],
    /// The body's rotation, body to global, row by row.
    pub reference_rotation_matrix: [[f64; 3]; 3],
    /// Initial velocity of the reference point.
    pub initial_velocity: [f64; 3],
    /// Global angular velocity ω0.
    pub initial_angular_velocity: [f64; 3],
    /// Mass, inertia and centre of mass.
    pub inertia: RigidBodyInertia,
    /// Gravity (a LoadMassProportional is added unless zero).
    pub gravity: [f64; 3],
    /// The rigid node's rotation parametrization.
    pub node_type: RigidNodeType,
}

impl RigidBodyOptions {
    /// Exudyn's defaults for a body with `inertia`: at the origin, unrotated, at rest, no gravity, Euler parameters.
    pub fn new(inertia: RigidBodyInertia) -> Self {
        RigidBodyOptions {
            name: String::new(),
            reference_position: [0.0; 3],
            reference_rotation_matrix: [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
            initial_velocity: [0.0; 3],
            initial_angular_velocity: [0.0; 3],
            inertia,
            gravity: [0.0; 3],
            node_type: RigidNodeType::EulerParameters,
        }
    }
}

impl MultibodySystem {
    /// `mbs.CreateGround(referencePosition)`.
    pub fn create_ground(&mut self, reference_position: [f64; 3]) -> ObjectIndex {
        let mut g = Object::ground();
        if let Object::Ground {
            reference_position: p,
            ..
        } = &mut g
        {
            *p = reference_position;
        }
        self.add_object(g)
    }

    /// `mbs.CreateMassPoint(...)`: node, mass point and (if gravity ≠ 0) its gravity load.
    ///
    /// ```
    /// use joint_runtime::MultibodySystem;
    /// let mut mbs = MultibodySystem::new();
    /// let point = mbs.create_mass_point("p", [0.0, 0.0, 1.0], [0.0; 3], 2.0, [0.0, 0.0, -9.81]);
    /// assert_eq!(mbs.objects.len(), 1);
    /// assert!(point.gravity.is_some());
    /// # let _ = point.node;
    /// ```
    pub fn create_mass_point(
        &mut self,
        name: &str,
        reference_position: [f64; 3],
        initial_velocity: [f64; 3],
        mass: f64,
        gravity: [f64; 3],
    ) -> CreatedBody {
        let node = self.add_node(Node::Point {
            name: if name.is_empty() {
                String::new()
            } else {
                format!("Node:{name}")
            },
            reference_coordinates: reference_position,
            initial_coordinates: [0.0; 3],
            initial_velocities: initial_velocity,
        });
        let body = self.add_object(Object::MassPoint {
            name: name.to_owned(),
            mass,
            node,
        });
        let gravity = (gravity != [0.0; 3]).then(|| {
            let m = self.add_marker(Marker::body_mass(body));
            (m, self.add_load(Load::gravity(m, gravity)))
        });
        CreatedBody {
            body,
            node,
            gravity,
        }
    }

    /// `mbs.CreateRigidBody(...)`: node (EP, Rxyz or RotVecLG), rigid body and (if gravity ≠ 0)
    /// its gravity load. Rotation velocities are evaluated at the reference rotation, as Exudyn
    /// (for RotVecLG the body-frame ω̄ = Aᵀω).
    pub fn create_rigid_body(&mut self, o: &RigidBodyOptions) -> CreatedBody {
        let r = &Matrix3::from_row_slice(o.reference_rotation_matrix.as_flattened());
        let w = Vector3::from(o.initial_angular_velocity);
        let v = o.initial_velocity;
        let node = match o.node_type {
            RigidNodeType::EulerParameters => {
                let t = rotation_matrix_to_euler_parameters(&o.reference_rotation_matrix);
                // θ̇0 = ¼ G(θ)ᵀ ω
                let g = [
                    [-t[1], t[0], -t[3], t[2]],
                    [-t[2], t[3], t[0], -t[1]],
                    [-t[3], -t[2], t[1], t[0]],
                ];
                let mut tt = [0.0; 4];
                for (k, x) in tt.iter_mut().enumerate() {
                    *x = 0.25 * (0..3).map(|i| 2.0 * g[i][k] * w[i]).sum::<f64>();
                }
                let p = o.reference_position;
                Node::RigidBodyEP {
                    name: format!("Node:{}", o.name),
                    reference_coordinates: [p[0], p[1], p[2], t[0], t[1], t[2], t[3]],
                    initial_coordinates: [0.0; 7],
                    initial_velocities: [v[0], v[1], v[2], tt[0], tt[1], tt[2], tt[3]],
                    add_constraint_equation: true,
                }
            }
            RigidNodeType::RotationRxyz => {
                let psi = crate::markers::rotation_vector::rotation_matrix_to_rot_xyz(r);
                let (s0, c0, s1, c1) = (psi[0].sin(), psi[0].cos(), psi[1].sin(), psi[1].cos());
                let m =
                    Matrix3::new(c1, s0 * s1, -c0 * s1, 0.0, c0 * c1, s0 * c1, 0.0, -s0, c0) / c1;
                let pt = m * w;
                let p = o.reference_position;
                Node::RigidBodyRxyz {
                    name: format!("Node:{}", o.name),
                    reference_coordinates: [p[0], p[1], p[2], psi[0], psi[1], psi[2]],
                    initial_coordinates: [0.0; 6],
                    initial_velocities: [v[0], v[1], v[2], pt[0], pt[1], pt[2]],
                }
            }
            RigidNodeType::RotationRotationVector => {
                let nu = rotation_matrix_to_rotation_vector(&o.reference_rotation_matrix);
                let w_local = r.transpose() * w;
                let p = o.reference_position;
                Node::RigidBodyRotVecLG {
                    name: format!("Node:{}", o.name),
                    reference_coordinates: [p[0], p[1], p[2], nu[0], nu[1], nu[2]],
                    initial_coordinates: [0.0; 6],
                    initial_velocities: [v[0], v[1], v[2], w_local[0], w_local[1], w_local[2]],
                }
            }
        };
        let node = self.add_node(node);
        let body = self.add_object(Object::RigidBody {
            name: o.name.clone(),
            mass: o.inertia.mass,
            inertia: o.inertia.inertia_6d(),
            center_of_mass: o.inertia.com,
            node,
        });
        let gravity = (o.gravity.iter().map(|x| x * x).sum::<f64>() != 0.0).then(|| {
            let m = self.add_marker(Marker::body_mass(body));
            (m, self.add_load(Load::gravity(m, o.gravity)))
        });
        CreatedBody {
            body,
            node,
            gravity,
        }
    }

    /// Reference position and rotation of a body, as `GetObjectOutputBody(…, Reference)`.
    fn body_reference_pose(
        &self,
        owner: &ItemRef,
        body: ObjectIndex,
    ) -> Result<([f64; 3], Matrix3<f64>)> {
        let o = self.object_checked(owner, "bodyNumbers", body)?;
        let node_ref =
            |n: NodeIndex| -> Result<&Node> { self.node_checked(owner, "bodyNumbers", n) };
        Ok(match o {
            Object::Ground {
                reference_position,
                reference_rotation,
                ..
            } => (
                *reference_position,
                Matrix3::from_row_slice(reference_rotation.as_flattened()),
            ),
            Object::MassPoint { node, .. } => {
                let r = node_ref(*node)?.reference_coordinates();
                ([r[0], r[1], r[2]], Matrix3::identity())
            }
            Object::RigidBody { node, .. } => {
                let n = node_ref(*node)?;
                let r = n.reference_coordinates();
                let a = match n {
                    Node::RigidBodyEP { .. } => {
                        let t = [r[3], r[4], r[5], r[6]];
                        Matrix3::new(
                            1.0 - 2.0 * (t[2] * t[2] + t[3] * t[3]),
                            2.0 * (t[1] * t[2] - t[0] * t[3]),
                            2.0 * (t[1] * t[3] + t[0] * t[2]),
                            2.0 * (t[1] * t[2] + t[0] * t[3]),
                            1.0 - 2.0 * (t[1] * t[1] + t[3] * t[3]),
                            2.0 * (t[2] * t[3] - t[0] * t[1]),
                            2.0 * (t[1] * t[3] - t[0] * t[2]),
                            2.0 * (t[2] * t[3] + t[0] * t[1]),
                            1.0 - 2.0 * (t[1] * t[1] + t[2] * t[2]),
                        )
                    }
                    Node::RigidBodyRotVecLG { .. } => {
                        crate::markers::rotation_vector::rotation_vector_matrix(&Vector3::new(
                            r[3], r[4], r[5],
                        ))
                    }
                    _ => {
                        let (s0, c0, s1, c1, s2, c2) = (
                            r[3].sin(),
                            r[3].cos(),
                            r[4].sin(),
                            r[4].cos(),
                            r[5].sin(),
                            r[5].cos(),
                        );
                        Matrix3::new(
                            c1 * c2,
                            -c1 * s2,
                            s1,
                            s0 * s1 * c2 + c0 * s2,
                            -s0 * s1 * s2 + c0 * c2,
                            -s0 * c1,
                            -c0 * s1 * c2 + s0 * s2,
                            c0 * s1 * s2 + s0 * c2,
                            c0 * c1,
                        )
                    }
                };
                ([r[0], r[1], r[2]], a)
            }
            other => {
                return Err(Error::item(
                    owner.clone(),
                    "bodyNumbers",
                    format!("object {} is a {}, not a body", body.0, other.type_name()),
                ));
            }
        })
    }

    /// `mbs.CreateSphericalJoint(bodyNumbers=[b0, b1], position=p, constrainedAxes)`: two
    /// BodyPosition markers at the global point `position` and the joint (useGlobalFrame).
    pub fn create_spherical_joint(
        &mut self,
        name: &str,
        bodies: [ObjectIndex; 2],
        position: [f64; 3],
        constrained_axes: [i64; 3],
        visualization: JointVisualization,
    ) -> Result<CreatedJoint> {
        let owner = ItemRef {
            list: "objects",
            index: self.objects.len(),
            type_name: "JointSpherical (CreateSphericalJoint)".into(),
        };
        let mut markers = [crate::items::MarkerIndex(0); 2];
        let pj = Vector3::from(position);
        let poses = [
            self.body_reference_pose(&owner, bodies[0])?,
            self.body_reference_pose(&owner, bodies[1])?,
        ];
        for k in 0..2 {
            let (p, a) = &poses[k];
            let b = a.transpose() * (pj - Vector3::from(*p));
            markers[k] = self.add_marker(Marker::BodyPosition {
                name: format!("Marker{k}:{name}"),
                body: bodies[k],
                local_position: [b[0], b[1], b[2]],
            });
        }
        let mut joint = JointObject::spherical(markers)
            .named(name)
            .with_constrained_axes(&constrained_axes);
        joint.visualization = visualization;
        Ok(CreatedJoint {
            joint: self.add_object(Object::Joint(joint)),
            markers,
        })
    }
}
