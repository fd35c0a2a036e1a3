//! # joint: define a joint, get its kernels, simulate it
//!
//! `joint` is one dependency for users: the constraint compiler ([`joint!`]), the types its
//! output shares with runtimes ([`core`], the `joint_core` crate) and an Exudyn-compatible
//! multibody runtime ([`runtime`]).
//!
//! You write a joint as its residual at position level — markers, the capability each needs,
//! run-time parameters, residual rows. While your crate compiles, the compiler derives the
//! velocity level (its time derivative along the markers' motion), the Jacobians and, if asked,
//! the second-order terms, symbolically, and emits straight-line Rust: by default as functions of
//! the two markers' quantities, which the runtime composes with any marker's kinematics, and for
//! the pairs of marker kinds you list, unrolled per pair. The runtime assembles, solves, reports
//! and draws your joint exactly as its own (Exudyn's joints are defined the same way).
//!
//! 1. [Define a joint](#1-define-a-joint)
//! 2. [Simulate it with the runtime](#2-simulate-it-with-the-runtime)
//! 3. [Run it from a model file with your own jointsim](#3-run-it-from-a-model-file-with-your-own-jointsim)
//! 4. [Read its generated code](#4-read-its-generated-code)
//! 5. [Embed its kernels in another simulator](#5-embed-its-kernels-in-another-simulator)
//! 6. [The language](#6-the-language)
//!
//! ## 1. Define a joint
//!
//! A point of one body stays on a plane of another: one residual row, the plane's normal a
//! run-time parameter given in marker 0's frame.
//!
//! ```
//! joint::joint! {
//!     /// A point `m1` on the plane through `m0` with normal `normal` (in `m0`'s frame).
//!     pub joint OnPlane {
//!         marker m0: Rigid;
//!         marker m1: Position;
//!         param normal: vector;
//!         axes [n];
//!         let n = m0.rotation * normal;
//!         position = [dot(n, m1.position - m0.position)];
//!         /// The point's distance from the plane's origin.
//!         output distance = norm(m1.position - m0.position);
//!     }
//! }
//!
//! use joint::core::Joint;
//! let definition = OnPlane::DEFINITION;
//! assert_eq!(definition.rows(), 1);
//! // the velocity level was derived: d/dt(n·Δp) = ṅ·Δp + n·Δv with ṅ = A·(ω̄ × normal)
//! assert_eq!(definition.velocity_text, None);
//! // its default form: kernels of the markers' quantities, for every kind of marker
//! assert!(definition.pairings.is_empty());
//! ```
//!
//! `pub joint OnPlane` makes a type `OnPlane` that implements [`core::Joint`] and a module
//! `on_plane` with its kernels: its [`Parameters`](core::JointParameters), its
//! [`DEFINITION`](core::JointDefinition) (what a runtime reads) and its `marker_level` kernels.
//! A mistake in the definition is one compile error at its tokens, and the joint's items still
//! exist, so that it is the only error.
//!
//! **Its default form works for every marker.** The kernels are functions of the two markers'
//! quantities (position, velocity, rotation, angular velocity) and their derivatives by them
//! ([`core::MarkerLevel`]); the runtime composes them with each marker's own kinematics — a
//! point of a rigid body with Euler parameters, a node, ground, a superelement or a
//! kinematic-tree marker alike. Their code does not grow with the number of marker kinds: a
//! joint of RevoluteZ's size adds about 0.2 s to a release build.
//!
//! **Unrolled pairings, where speed matters.** List the kinds a marker will be
//! (`marker m0: Rigid(GroundPoint, RigidEpPoint);`, `Rigid(..)` for every kind with the
//! capability) and the compiler also emits, for every pair of the two lists, straight-line
//! kernels composed with both kinds' kinematics: typed functions on fixed-size arrays (for
//! embedding), and a [`Pairing`](core::Pairing) the runtime calls instead of the marker level.
//! They are faster per call and cost compile time per pair:
//!
//! ```
//! joint::joint! {
//!     pub joint OnPlaneUnrolled {
//!         marker m0: Rigid(GroundPoint);
//!         marker m1: Position(MassPointBody, RigidEpPoint);
//!         param normal: vector;
//!         axes [n];
//!         position = [dot(m0.rotation * normal, m1.position - m0.position)];
//!     }
//! }
//! use joint::core::MarkerKind;
//! assert_eq!(on_plane_unrolled::PAIRINGS.len(), 2);
//! assert!(on_plane_unrolled::pairing(MarkerKind::GroundPoint, MarkerKind::MassPointBody).is_some());
//! ```
//!
//! The measured costs of each form are in the table of [the language](#6-the-language): a
//! joint's default form adds about 0.2 s to a release build, all 48 pairings of the rigid kinds
//! together about 6 s.
//!
//! ## 2. Simulate it with the runtime
//!
//! Add it to a [`MultibodySystem`](runtime::MultibodySystem) with its markers and parameters as
//! you add Exudyn's joints; the solvers (generalized-α at index 3 or 2, Newmark, static, dense
//! or sparse LU), sensors, outputs and scenes take it as they are. A 2 kg point on a plane tilted
//! by 0.3 rad slides down it with the tangential part of gravity:
//!
//! ```
//! # joint::joint! {
//! #     pub joint OnPlane {
//! #         marker m0: Rigid;
//! #         marker m1: Position;
//! #         param normal: vector;
//! #         axes [n];
//! #         position = [dot(m0.rotation * normal, m1.position - m0.position)];
//! #         output distance = norm(m1.position - m0.position);
//! #     }
//! # }
//! use joint::runtime::{
//!     Load, Marker, MultibodySystem, Node, Object, OutputVariable, SimulationSettings,
//! };
//!
//! let mut mbs = MultibodySystem::new();
//! let (s, c) = 0.3f64.sin_cos();
//! let plane = mbs.add_object(Object::Ground {
//!     name: "plane".into(),
//!     reference_position: [0.0; 3],
//!     reference_rotation: [[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]],
//! });
//! // a 2 kg mass point with its node and its gravity (Exudyn's CreateMassPoint)
//! let point = mbs.create_mass_point("point", [0.0; 3], [0.0; 3], 2.0, [0.0, 0.0, -9.81]);
//! let m0 = mbs.add_marker(Marker::body_rigid(plane, [0.0; 3]));
//! let m1 = mbs.add_marker(Marker::body_position(point.body, [0.0; 3]));
//! let joint = mbs.add_object(Object::joint::<OnPlane>(
//!     [m0, m1],
//!     on_plane::Parameters { normal: [0.0, 0.0, 1.0] },
//! ));
//!
//! let mut sim = mbs.assemble()?;
//! let mut settings = SimulationSettings::default();
//! settings.time_integration.end_time = 1.0;
//! settings.time_integration.number_of_steps = 100;
//! sim.solve_dynamic(&settings)?;
//!
//! // x(1 s) = ½ g sin α cos α: exact, the acceleration is constant
//! let p = sim.node_output(point.node, OutputVariable::Position)?;
//! assert!((p[0] - 0.5 * 9.81 * s * c).abs() < 1e-10);
//! // outputs: λ per row (Exudyn's sign: the joint acts with −C_qᵀλ, so the support that pushes
//! // the point out of the plane along n has λ = −m·g·cos α), the residuals, the joint's own
//! let lambda = sim.object_output(joint, OutputVariable::Force)?;
//! assert!((lambda[on_plane::axis::N] + 2.0 * 9.81 * c).abs() < 1e-8);
//! let distance = sim.object_output(joint, on_plane::outputs::DISTANCE)?[0];
//! assert!((distance - p[0].hypot(p[2])).abs() < 1e-12);
//! # Ok::<(), joint::runtime::Error>(())
//! ```
//!
//! Initial coordinates and velocities are taken as given, as in Exudyn: start on the joint's
//! position level and with velocities its velocity level allows, or the first step jerks the
//! bodies onto it (a large λ, a burst of Newton iterations).
//!
//! [`Object::joint`](runtime::Object::joint) is the short form; a
//! [`JointObject`](runtime::JointObject) also takes a name, `constrainedAxes` and
//! `activeConnector`: `Object::Joint(JointObject::new::<OnPlane>(markers,
//! parameters).named("onPlane").with_constrained_axes(&[1]).with_active(true))`. The joint's
//! outputs are `Force` (λ per row, in the order of `AXES`, indexed by the generated
//! `on_plane::axis::N`), `Displacement` and `Velocity` (its position and velocity residual per
//! row) and its named outputs, each a generated constant (`on_plane::outputs::DISTANCE`, so
//! that a misspelt name does not compile); Exudyn's own joint items report Exudyn's output
//! variables instead (`ForceLocal`, `DisplacementLocal`, … for JointGeneric). A result file
//! names a joint's rows by its axes (`"components": ["n"]`), and so does `jointsim plot`.
//!
//! ## 3. Run it from a model file with your own jointsim
//!
//! A [`JointRegistry`](runtime::JointRegistry) maps model files' `objectType` names to joint
//! types, with Exudyn's pre-registered; register yours and read model files with
//! [`read_model_with`](runtime::model::read_model_with), or run the whole `jointsim` program
//! (`run`, `check`, `sweep`, `plot`, `scene`, `view`) with it: a `main.rs` of a few lines with
//! the feature `cli` (`joint = { …, features = ["cli"] }`, which brings the program's own
//! dependencies; `examples/custom_jointsim.rs`).
//!
//! Several joints and force elements register in a chain:
//! `JointRegistry::exudyn().with::<A>().and_then(|r| r.with::<B>()).and_then(|r| r.with_force::<F>())`.
//!
//! ```no_run
//! # joint::joint! {
//! #     pub joint OnPlane {
//! #         marker m0: Rigid;
//! #         marker m1: Position;
//! #         param normal: vector;
//! #         axes [n];
//! #         position = [dot(m0.rotation * normal, m1.position - m0.position)];
//! #     }
//! # }
//! # #[cfg(feature = "cli")]
//! fn main() -> std::process::ExitCode {
//!     match joint::runtime::JointRegistry::exudyn().with::<OnPlane>() {
//!         Ok(registry) => joint::cli::main(registry),
//!         Err(e) => {
//!             eprintln!("{e}");
//!             std::process::ExitCode::FAILURE
//!         }
//!     }
//! }
//! # #[cfg(not(feature = "cli"))]
//! # fn main() {}
//! ```
//!
//! In a model file the joint is an object like Exudyn's, read as strictly (an unknown key, a
//! missing parameter or a value of the wrong shape is an error naming the item and the key):
//!
//! ```json
//! {"objectType": "OnPlane", "markerNumbers": [1, 2], "normal": [0, 0, 1],
//!  "constrainedAxes": [1], "activeConnector": true, "name": "onPlane"}
//! ```
//!
//! Each parameter goes by its name (a number, 3 numbers, or 3 rows of 3 numbers);
//! `constrainedAxes` (one 0 or 1 per row, defaulting to the definition's `axes`) frees rows;
//! sensors read `Force`, `Displacement`, `Velocity` and the joint's named outputs
//! (`"outputVariableType": "distance"`); as in Exudyn, a sensor keeps its rows in the result
//! file only with `"storeInternal": true`, one row every `solutionSettings.sensorsWritePeriod`
//! (0.01 s by default; in Rust `settings.solution.sensors_write_period`, the rows read with
//! [`Simulation::sensor_rows`](runtime::Simulation::sensor_rows)). The other items are Exudyn's
//! own dictionaries;
//! `tests/models/point_on_incline.json` is a whole model file with a custom joint.
//!
//! ## 4. Read its generated code
//!
//! The expansion is deterministic and meant to be read: `cargo expand`, or a snapshot in your
//! crate's tests. Each pairing module documents the argument order of its kernels and the
//! operations each emits; `OPERATION_COUNTS` compares them with the expressions before common
//! subexpressions were shared. joint-macros snapshots the built-in joints' pairings
//! (`joint-macros/src/snapshots/`): the spherical joint between a ground point and a point of
//! an Euler-parameter body, for one, is 78 operations for the residual and 139 for its
//! Jacobian.
//!
//! ## 5. Embed its kernels in another simulator
//!
//! The kernels need nothing from the runtime. The `marker_level` module takes the markers'
//! quantities ([`core::MarkerQuantities`]) from your simulator's own kinematics; an unrolled
//! pairing's module has typed functions on fixed-size arrays of the two kinds' coordinates
//! (inlined, no allocation, no dispatch) and, beside those a runtime calls, a `_slices` form
//! behind the uniform [`Pairing`](core::Pairing) interface that checks lengths and writes nothing
//! on a mismatch:
//!
//! ```
//! joint::joint! {
//!     pub joint OnPlane {
//!         marker m0: Rigid(GroundPoint);
//!         marker m1: Position(NodePoint);
//!         param normal: vector;
//!         axes [n];
//!         position = [dot(m0.rotation * normal, m1.position - m0.position)];
//!     }
//! }
//! use on_plane::ground_point_to_node_point as kernel;
//! let joint = on_plane::Parameters { normal: [0.0, 0.0, 1.0] };
//! // m0 (GroundPoint): its point (ground position + rotation · local position), the rotation
//! // row-major
//! let ground = [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0];
//! // m1 (NodePoint): the node's coordinates x, y, z
//! let q = [0.3, -0.2, 0.5];
//! let (residual, jacobian) = kernel::position_residual_and_jacobian(&joint, &ground, &q);
//! assert_eq!(residual, [0.5]);
//! assert_eq!(jacobian, [[0.0, 0.0, 1.0]]);
//!
//! // the same through the type-erased interface a runtime stores
//! use joint::core::{JointParameters, MarkerArgs, MarkerQuantities};
//! let p = &kernel::PAIRING;
//! let mut out = [0.0];
//! let m0 = MarkerArgs { parameters: &ground, ..Default::default() };
//! let m1 = MarkerArgs { coordinates: &q, ..Default::default() };
//! (p.position_residual)(&joint.to_values(), m0, m1, &mut out).unwrap();
//! assert_eq!(out, [0.5]);
//!
//! // and at marker level, from the markers' quantities
//! let identity = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
//! let plane = MarkerQuantities { rotation: identity, ..Default::default() };
//! let point = MarkerQuantities { position: q, rotation: identity, ..Default::default() };
//! assert_eq!(on_plane::marker_level::position_residual(&joint, &plane, &point), [0.5]);
//! ```
//!
//! For markers of built-in kinds without an unrolled pairing, [`runtime::composed`] composes a
//! joint's marker-level kernels with the kinds' generated kinematics at run time — the same
//! Jacobians, reaction forces and second-order terms, for any pair of kinds.
//! `examples/point_on_plane.rs` drives typed kernels in an integrator of its own.
//!
//! The typed functions of a pairing, of the marker level and of a force element, and
//! `Parameters`, are generic over the number type ([`core::Scalar`]; `f64` where nothing else says so): the same `OnPlane` in `f32`,
//! its parameters mapped to the scalar,
//!
//! ```
//! # joint::joint! {
//! #     pub joint OnPlane {
//! #         marker m0: Rigid(GroundPoint);
//! #         marker m1: Position(NodePoint);
//! #         param normal: vector;
//! #         axes [n];
//! #         position = [dot(m0.rotation * normal, m1.position - m0.position)];
//! #     }
//! # }
//! use on_plane::ground_point_to_node_point as kernel;
//! let joint = on_plane::Parameters { normal: [0.0, 0.0, 1.0] }.map(|x| x as f32);
//! let ground = [0.0f32, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0];
//! let residual = kernel::position_residual(&joint, &ground, &[0.3f32, -0.2, 0.5]);
//! assert_eq!(residual, [0.5f32]);
//! ```
//!
//! and with joint-core's features, `num_dual::Dual64` (derivatives by any input: `num-dual`)
//! and the SIMD lanes `wide::f64x4`, `wide::f32x8` (several joints per call: `wide`). joint-core
//! builds without std (its default feature `std` off: `libm`'s float functions), and so does
//! the code `joint!` generates. Each target has its runnable example in the repository: the
//! crate `embedding/` (its documentation: `f32`, dual numbers, SIMD lanes, with their tests and
//! benchmarks), `tests/no_std_joint` (a `#![no_std]` crate evaluating joints), and `avian/` (a
//! `joint!` joint solved inside the Avian physics engine as an XPBD constraint, in `f32`).
//!
//! **Derivatives by parameters.** `parameter_derivatives;` adds ∂g/∂p of the position level:
//! per pairing, `parameter_jacobian` (by the joint's parameters, one column per value of their
//! flat layout — definition order, matrices row-major, then the states' last values) and
//! `marker_parameter_jacobian` (by the markers' own parameters: a body-fixed point, a ground
//! marker's point and frame — the block alone where one marker has parameters, a tuple of both
//! where both have), and
//! `marker_level::parameter_jacobian` — what fitting a model's dimensions to measurements, or
//! sensitivities by parameters, need. They are typed functions only (generic, so nothing is
//! compiled for them until called), emitted after every other kernel, whose code they leave as
//! it was:
//!
//! ```
//! joint::joint! {
//!     pub joint AbovePlane {
//!         marker m0: Rigid(GroundPoint);
//!         marker m1: Position(NodePoint);
//!         param normal: vector;
//!         param height: scalar;
//!         axes [n];
//!         parameter_derivatives;
//!         position = [dot(m0.rotation * normal, m1.position - m0.position) - height];
//!     }
//! }
//! use above_plane::ground_point_to_node_point as kernel;
//! let joint = above_plane::Parameters { normal: [0.0, 0.0, 1.0], height: 0.1 };
//! let ground = [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0];
//! let q = [0.3, -0.2, 0.5];
//! // columns: normal[0], normal[1], normal[2], height
//! assert_eq!(kernel::parameter_jacobian(&joint, &ground, &q), [[0.3, -0.2, 0.5, -1.0]]);
//! // by the ground marker's point (the first three of its 12 parameters): −normal; m1 (a node
//! // point) has no parameters, so this is m0's block alone
//! let by_ground: [[f64; 12]; 1] = kernel::marker_parameter_jacobian(&joint, &ground, &q);
//! assert_eq!(by_ground[0][..3], [-0.0, -0.0, -1.0]);
//! ```
//!
//! ## 6. The language
//!
//! ```text
//! joint! {
//!     fn NAME(ARG, …) = EXPR;                  // functions shared by the joints below (any number)
//!
//!     /// documentation
//!     pub joint NAME {
//!         marker m0: Position | Rigid | Coordinate [(KIND, …) | (..)];  // kinds: unrolled pairings
//!         marker m1: Position | Rigid | Coordinate [(KIND, …) | (..)];
//!         param NAME: scalar | vector | matrix;      // any number
//!         axes [NAME [= 1 | 0], …];                  // the residual rows; default mask
//!         second_order;                              // optional
//!         parameter_derivatives;                     // optional: ∂g/∂p (§5)
//!         fn NAME(ARG, …) = EXPR;                    // the joint's own functions
//!         let NAME = EXPR;                           // bindings, in order
//!         state NAME = EXPR | angle(Y, X);           // a binding remembered between steps
//!         position = EXPR;                           // or leave it out: rows at velocity level
//!         velocity = EXPR;                           // optional: derived when left out
//!         output NAME = EXPR;                        // named outputs (scalar or 3-vector)
//!     }
//!     … more joints
//!
//!     /// documentation
//!     pub force NAME {                               // a force element (below)
//!         marker m0: Position | Rigid | Coordinate;  // two points, or two coordinates
//!         marker m1: Position | Rigid | Coordinate;
//!         param …; fn …; let …; state …;             // as in a joint
//!         force = EXPR;                              // the force on m0: global 3-vector, or scalar
//!         torque = EXPR;                             // optional, two Rigid markers: torque on m0
//!         output NAME = EXPR;                        // named outputs
//!     }
//!
//!     /// documentation
//!     pub joint NAME {                               // on whole coordinate vectors (below)
//!         marker m0: Coordinates;
//!         marker m1: Coordinates;
//!         param NAME: scalar | dvector | dmatrix;    // run-time sized
//!         second_order;                              // optional
//!         position = TERM ± TERM …;                  // or velocity = …; alone
//!     }
//! }
//! ```
//!
//! **Markers.** A `Position` marker has `position` and `velocity`; a `Rigid` one also
//! `rotation` (local to global, 3×3), `angular_velocity` (global) and `angular_velocity_local`.
//! `angular_velocity` is Exudyn's: its value is A·ω̄ (what Exudyn's markers report) and the
//! Jacobian's rotational columns are G (Exudyn's rotation Jacobian); the two agree wherever A is
//! orthonormal (for Euler parameters on |θ| = 1).
//! A `Coordinate` marker (MarkerNodeCoordinate) has instead one scalar, `coordinate` (the
//! node coordinate's displacement, without its reference value, as Exudyn's coordinate markers
//! read it; 0 on a NodePointGround), and `coordinate_velocity`: Exudyn's ConnectorCoordinate is
//! `position = [factor1 * m1.coordinate - m0.coordinate - offset];`.
//! Without a list of kinds a joint has its marker-level kernels only, which serve every marker;
//! with lists on both markers (`Rigid(GroundPoint, RigidEpPoint)`, `Rigid(..)` for every kind with
//! the capability) it also has an unrolled pairing for every pair of the two lists, which the
//! runtime calls for those kinds (other kinds still meet the marker level). A list on one marker
//! alone is an error, as is a list on a force element's marker (force elements are always
//! evaluated at marker level). What each form costs, for a Rigid–Rigid joint of RevoluteZ's size
//! (5 rows, two matrix parameters, position level only) in a release build with cargo's default
//! profiles on a 2-core machine (`tools/measure_macro_compile_time.py`), and the spherical joint
//! between two Euler-parameter bodies per call (`cargo bench -p joint-runtime --bench
//! spherical_kernel`):
//!
//! | form | markers | build time added | residual + Jacobian | the fast path's residual + C_qᵀλ |
//! |---|---|---:|---:|---:|
//! | default (marker level) | `Rigid` | about 0.2 s (0.3 s with `second_order;`) | 76 ns | 32 ns |
//! | unrolled, two pairings | `Rigid(GroundPoint, RigidEpPoint)`, `Rigid(RigidEpPoint)` | about 0.5 s | 27 ns | 16 ns |
//! | unrolled, every pairing (48 together) | `Rigid(..)` | about 6 s | 27 ns | 16 ns |
//!
//! A crate with three default-form joints rebuilds in about 0.4 s after one is edited. Unroll
//! the pairings your models use when a joint's evaluation dominates a run. The kinds
//! ([`core::MarkerKind`]; from Rust, BodyPosition / BodyRigid are `Marker::body_position` /
//! `Marker::body_rigid` on an object, NodePosition / NodeRigid `Marker::node_position` /
//! `Marker::node_rigid` on a node, and `create_mass_point`'s node is a NodePoint;
//! `Simulation::joint_kernels` lists which kernel each joint runs):
//!
//! | kind | Exudyn markers | coordinates | parameters |
//! |---|---|---|---|
//! | `GroundPoint` | BodyPosition / BodyRigid on ObjectGround | — | the marker's point (ground position + rotation · local position), the ground's rotation |
//! | `MassPointBody` | BodyPosition on ObjectMassPoint | x, y, z | local position |
//! | `RigidEpPoint` | BodyPosition / BodyRigid on a rigid body with NodeRigidBodyEP | x, y, z, θ0…θ3 | local position |
//! | `RigidRxyzPoint` | the same with NodeRigidBodyRxyz | x, y, z, ψ0…ψ2 | local position |
//! | `NodePoint` | NodePosition on NodePoint | x, y, z | — |
//! | `NodeEp` | NodePosition / NodeRigid on NodeRigidBodyEP | x, y, z, θ0…θ3 | — |
//! | `NodeRxyz` | NodePosition / NodeRigid on NodeRigidBodyRxyz | x, y, z, ψ0…ψ2 | — |
//! | `MassPoint2DBody` | BodyPosition on ObjectMassPoint2D | x, y | local position |
//! | `NodePoint2D` | NodePosition on NodePoint2D | x, y | — |
//! | `Rigid2DPoint` | BodyPosition / BodyRigid on ObjectRigidBody2D | x, y, ψ | local position |
//! | `NodeRigid2D` | NodePosition / NodeRigid on NodeRigidBody2D | x, y, ψ | — |
//! | `NodeCoordinate` (Coordinate) | NodeCoordinate on a node with coordinates | c | c_ref |
//! | `GroundCoordinate` (Coordinate) | NodeCoordinate on NodePointGround | — | — |
//!
//! Markers without a kind meet every joint through its marker-level kernel: superelement and
//! kinematic-tree markers, markers on a NodeRigidBodyRotVecLG (a Lie-group node: its Jacobians
//! are taken with respect to its velocity coordinates [u̇, ω̄], ν being updated by composition,
//! so they are not derivatives by its coordinates), and MarkerNodeRotationCoordinate, a
//! `Coordinate` marker whose value is a Tait–Bryan angle of its node and whose Jacobian is, as
//! Exudyn's, the angular velocity's row of the rotation Jacobian.
//!
//! **Expressions** are Rust expression syntax over marker quantities (`m0.position`),
//! parameters, bindings and function parameters: literals, `+ − * /`, unary `−`, parentheses,
//! indexing (`v[i]` a component, `M[i]` a row, `rows[i]`; the index a constant), `[a, b, …]`
//! (a list of scalar rows), the built-in functions `dot(a, b)`, `cross(a, b)`, `transpose(M)`,
//! `col(M, k)`, `norm(v)`, `sqrt(x)`, `sin(x)`, `cos(x)`, `atan2(y, x)` (the angle of the point
//! (x, y), as Rust's `y.atan2(x)`, in (−π, π]: it jumps by 2π where (x, y) crosses the negative
//! x axis, so a relative angle that may pass ±π wants a state, `state NAME = angle(y, x);`,
//! below), `unwrap_angle(a, reference)` (a + 2πk nearest to `reference`), `last(STATE)`, and
//! calls of the definition's functions
//! (expanded where they are called; an argument may be a marker: `fn frame(m) = m.rotation;`),
//! and `if a > b { x } else { y }` (`<`, `>`, `<=`, `>=` between scalars; `else if` chains): a
//! piecewise value of the branches' common type, differentiated branch by branch (a one-sided
//! contact, a regularization near a singularity; no `==`, whose switch has no derivative).
//! Values are scalars, 3-vectors, 3×3 matrices (row-major) or lists of rows; `*` is scalar ·
//! anything, matrix · vector or matrix · matrix. A list of three rows beside a scalar, vector
//! or matrix is the 3-vector it writes (`K * [a, b, c] - offset`).
//!
//! **Residuals.** `position` is a scalar, a 3-vector or a list, with one row per axis. It may
//! not read velocity quantities. `velocity`, when left out, is its time derivative along the
//! markers' motion with the marker kinds' own kinematics, ṗ = v and Ȧ = A·skew(ω̄), so the
//! Jacobian ∂(velocity residual)/∂q̇ is Exudyn's constraint Jacobian. A hand-written `velocity`
//! is checked against the derived one at random states while the macro expands, and a row that
//! differs is a compile error at that row. `second_order;` adds the second-order terms at marker
//! level: the rate of the Jacobian rows along the markers' rates and the derivatives of the
//! reaction by the markers' positions and rotation matrices, which the runtime composes with the
//! markers' kinematics into the convective term −(∂(C_q v)/∂q)·v of the initial accelerations
//! and the geometric stiffness ∂(C_qᵀλ)/∂q of exact Newton ([`runtime::composed`] does the same
//! for an embedder); without it, or on markers without generated kinematics, the runtime takes
//! finite differences of the first-order kernels there.
//!
//! **Rows at velocity level only.** A joint with `velocity` and no `position` constrains
//! velocities, `g(q, q̇) = C(q)·q̇ + b(q) = 0` (non-holonomic constraints such as rolling without
//! slip, or a prescribed relative velocity); the rows must be linear in the velocities (a
//! compile error names the marker quantity they are not linear in). [`core::JointDefinition::level`] is
//! then [`core::ResidualLevel::Velocity`], the pairings' position-level kernels return `None`,
//! and `second_order` is an error. The runtime treats them as Exudyn treats its velocity-level
//! constraints: the residual is the velocity level in index 3 as in index 2, λ acts through
//! Cᵀ, the Newton matrix has γ'·C in their rows, and the initial accelerations take C·q̈ = 0.
//! Exudyn's ObjectJointRollingDisc is one (`joint_runtime::kernels`):
//!
//! ```text
//! let slip = m1.velocity + cross(m1.angular_velocity, disc_radius * w3)
//!     - (m0.velocity + cross(m0.angular_velocity, contact - m0.position));
//! velocity = [dot(slip, lateral), dot(slip, forward), dot(slip, n0)];
//! ```
//!
//! **States: joints that remember.** `state NAME = EXPR;` is a binding (scalar, declared before
//! the rows) whose value the runtime keeps between steps: in EXPR and after it, `last(NAME)` is
//! the value stored at the last converged step (its parameters' initial value at the start),
//! constant within a Newton solve, so it has no derivative. After every converged solve the
//! runtime evaluates EXPR at the solution and stores it (Exudyn's PostNewton, on the item's data
//! coordinates); if that changed the item's equations by more than
//! `discontinuous.iteration_tolerance` (a joint's rows at the solved level, a force element's
//! force and torque), the step is solved again from its start with the new value, up to
//! `discontinuous.max_iterations` times (Exudyn's discontinuous iteration; the count is in
//! [`SolverStatistics::discontinuous_iterations`](runtime::SolverStatistics)). The common case
//! is a continuous angle: `state turn = angle(y, x);` is
//! `state turn = unwrap_angle(atan2(y, x), last(turn));`, the angle of (x, y) taken within π of
//! its last converged value, hence continuous over any number of turns as long as a step turns
//! less than half a turn; its derivatives are those of `atan2`. A switch that must not chatter
//! within a step reads `last`: a latch that engages once its point goes below z = 0,
//! `state engaged = if m1.position[2] < 0.0 { 1.0 } else { last(engaged) };` with
//! `force = [0.0, 0.0, stiffness * last(engaged) * m1.position[2]];`. A state is also a named
//! output (`outputs::NAME`) and a field of `Parameters`, which holds its initial value; in model
//! files it is a key of the same name (optional, default 0), and sensors and result files read
//! it as an output. Joints on coordinate vectors have no states. A screw along marker 0's z axis
//! (`examples/joints_with_memory.rs` has it beside a gear pair and a rack and pinion, each
//! against its analytic motion over more than ten turns):
//!
//! ```
//! joint::joint! {
//!     /// A screw along marker 0's z axis, `lead` along it per radian turned.
//!     pub joint Screw {
//!         marker m0: Rigid;
//!         marker m1: Rigid;
//!         param lead: scalar;
//!         axes [x, y, tilt_x, tilt_y, advance];
//!         let d = m1.position - m0.position;
//!         let x0 = col(m0.rotation, 0);
//!         let y0 = col(m0.rotation, 1);
//!         let z0 = col(m0.rotation, 2);
//!         let x1 = col(m1.rotation, 0);
//!         state turn = angle(dot(y0, x1), dot(x0, x1));
//!         position = [dot(x0, d), dot(y0, d), dot(z0, x1), dot(z0, col(m1.rotation, 1)),
//!                     dot(z0, d) - lead * turn];
//!     }
//! }
//! // the turn's initial value, and its name among the outputs
//! let params = screw::Parameters { lead: 0.1, turn: 0.0 };
//! assert_eq!(screw::outputs::TURN.0, "turn");
//! assert_eq!(screw::DEFINITION.states[0].name, "turn");
//! # let _ = params;
//! ```
//!
//! **Force elements.** `pub force Name { … }` defines a force between two markers instead of
//! constraint rows: `force` is the global force on marker 0, as a function of both markers'
//! quantities (positions, velocities and, for `Rigid` markers, rotations and angular
//! velocities); marker 1 receives its negative. The compiler derives ∂f/∂p, ∂f/∂δπ (a small
//! global rotation of a frame, δA = skew(δπ)·A), ∂f/∂v and ∂f/∂ω of both markers
//! ([`core::ForceJacobian`]); the runtime composes them with the markers' Jacobians into the
//! element's stiffness and damping matrices, adds the term of the Jacobians' own derivative, and
//! holds the markers' velocities where their positions move, as Exudyn does for its connectors.
//! Between two `Coordinate` markers the force is a scalar on marker 0's coordinate (−f on
//! marker 1's), a function of `coordinate` and `coordinate_velocity`. Between two `Rigid`
//! markers an element may also have a `torque`, the global torque on marker 0 (−τ on marker
//! 1), which acts through the markers' rotation Jacobians and is differentiated as the force
//! is ([`core::TorqueDefinition`]; the runtime adds ∂(J_rotᵀ)/∂q·τ from the marker kinds'
//! generated kernels). Exudyn's ConnectorSpringDamper, ConnectorCartesianSpringDamper,
//! ConnectorCoordinateSpringDamper, ConnectorLinearSpringDamper, ConnectorGravity (its
//! regularization an `if`) and ConnectorRigidBodySpringDamper (default formulation: force and
//! torque from the joint frames' relative displacement and Tait–Bryan angles) are defined so
//! (`joint_runtime::kernels`). `Name` implements [`core::Force`]; the module `name` has
//! `Parameters`, `DEFINITION` ([`core::ForceDefinition`]) and `marker_level` with `force`,
//! `jacobian`, `torque` and `torque_jacobian` if it has one, and `output_NAME` (each with its
//! `_slices` form). Add one with
//! [`Object::force`](runtime::Object::force) (or a [`ForceObject`](runtime::ForceObject)); in
//! model files register it with [`JointRegistry::with_force`](runtime::JointRegistry::with_force),
//! its keys are its parameters' names (all required), `markerNumbers`, `activeConnector`,
//! `name`, `Vshow`; sensors read `Force` (f), `Displacement`, `Velocity`, `Distance` (between
//! points) and its named outputs.
//!
//! ```
//! joint::joint! {
//!     /// A spring of rest length `rest_length` with a damper, along the markers' line.
//!     pub force LineSpring {
//!         marker m0: Position;
//!         marker m1: Position;
//!         param stiffness: scalar;
//!         param damping: scalar;
//!         param rest_length: scalar;
//!         let delta = m1.position - m0.position;
//!         let e = delta / norm(delta);
//!         force = (stiffness * (norm(delta) - rest_length)
//!             + damping * dot(m1.velocity - m0.velocity, e)) * e;
//!     }
//! }
//! use joint::runtime::{Marker, MultibodySystem, Node, Object, OutputVariable, SimulationSettings};
//!
//! let mut mbs = MultibodySystem::new();
//! let ground = mbs.add_object(Object::ground());
//! let node = mbs.add_node(Node::point([0.0, 0.0, -1.0]));
//! let mass = mbs.add_object(Object::MassPoint { name: String::new(), mass: 2.0, node });
//! let m0 = mbs.add_marker(Marker::body_position(ground, [0.0; 3]));
//! let m1 = mbs.add_marker(Marker::body_position(mass, [0.0; 3]));
//! let params = line_spring::Parameters { stiffness: 800.0, damping: 40.0, rest_length: 0.5 };
//! let spring = mbs.add_object(Object::force::<LineSpring>([m0, m1], params));
//!
//! let mut sim = mbs.assemble()?;
//! let mut settings = SimulationSettings::default();
//! settings.time_integration.end_time = 2.0;
//! settings.time_integration.number_of_steps = 400;
//! sim.solve_dynamic(&settings)?;
//! // damped, it settles at its rest length: z = −0.5
//! let z = sim.node_output(node, OutputVariable::Position)?[2];
//! assert!((z + 0.5).abs() < 1e-3, "{z}");
//! let f = sim.object_output(spring, OutputVariable::Force)?;
//! assert!(f[2].abs() < 1.0);
//! # Ok::<(), joint::runtime::Error>(())
//! ```
//!
//! **Joints on coordinate vectors.** A joint whose markers are `Coordinates` constrains two
//! markers' whole coordinate vectors q0, q1 (MarkerNodeCoordinates: a node's ODE2 coordinates,
//! MarkerObjectODE2Coordinates: a body's, reference values included; none on a ground node),
//! whose lengths — and the row count — are known only at run time. Its parameters are `scalar`,
//! `dvector` (one value per row) and `dmatrix` (rows × the coordinates of the marker it
//! multiplies; an empty one is absent). Its residual is a signed sum of terms `M * φ(m.coordinates)`
//! (scalar factors allowed), `dvector`s and parenthesized groups, where φ is applied to each
//! coordinate: `m.coordinates` itself or a function of it, the definition's own (`square(q)`)
//! or a built-in (`sin`). The compiler differentiates φ twice symbolically; the Jacobian is
//! `M·diag(φ'(q))`, the derived velocity level `M·diag(φ'(q))·q̇`, the second-order terms
//! `M·diag(φ''(q)·v)` and `diag(φ''(q)·Mᵀλ)`, emitted as loops over rows and coordinates.
//! The row count is the matrices' rows; the generated `rows` checks every parameter's shape
//! against the markers. A sum is accumulated in the order written (a term `M * m.coordinates`
//! as one Σ_j M_ij·q_j), so a definition in Exudyn's order rounds as Exudyn: its
//! ObjectConnectorCoordinateVector is one (`joint_runtime::kernels`):
//!
//! ```text
//! position = -(scaling_marker0 * m0.coordinates + quadratic_term_marker0 * square(m0.coordinates))
//!     + scaling_marker1 * m1.coordinates + quadratic_term_marker1 * square(m1.coordinates)
//!     - offset;
//! ```
//!
//! `Name` implements [`core::CoordinateVectorJoint`]; the module `name` has `DEFINITION`
//! ([`core::CoordinateVectorDefinition`]) and the kernels `rows`, `position_residual`,
//! `velocity_residual`, `jacobian`, `reaction_forces` and, with `second_order`,
//! `velocity_residual_q` and `reaction_q`, all on [`core::DynParameter`] slices. Add one with
//! [`Object::coordinate_vector`](runtime::Object::coordinate_vector); in model files register it
//! with [`JointRegistry::with_coordinate_vector`](runtime::JointRegistry::with_coordinate_vector)
//! (its keys are its parameters' names, all required: a number, a list, a list of rows);
//! sensors read `Displacement` (q1 − q0), `Velocity`, `ConstraintEquation` and `Force` (λ).
//!
//! ```
//! joint::joint! {
//!     fn square(q) = q * q;
//!
//!     /// A point on a circle of its coordinates: `weights·q² = rhs`.
//!     pub joint Circle {
//!         marker m0: Coordinates;
//!         marker m1: Coordinates;
//!         param weights: dmatrix;
//!         param rhs: dvector;
//!         position = weights * square(m1.coordinates) - rhs;
//!     }
//! }
//! use joint::runtime::{DynValue, Marker, MultibodySystem, Node, Object, OutputVariable};
//! use joint::runtime::{Load, SimulationSettings};
//!
//! // a pendulum of length 0.8 in coordinates: x² + y² = 0.64
//! let mut mbs = MultibodySystem::new();
//! let ground = mbs.add_node(Node::point_ground([0.0; 3]));
//! let node = mbs.add_node(Node::point([0.8, 0.0, 0.0]));
//! mbs.add_object(Object::MassPoint { name: String::new(), mass: 1.0, node });
//! let m0 = mbs.add_marker(Marker::node_coordinates(ground));
//! let m1 = mbs.add_marker(Marker::node_coordinates(node));
//! let weights = DynValue::matrix(&[vec![1.0, 1.0, 0.0]]);
//! let circle = mbs.add_object(Object::coordinate_vector::<Circle>(
//!     [m0, m1],
//!     vec![weights, DynValue::vector(&[0.64])],
//! ));
//! let p = mbs.add_marker(Marker::node_position(node));
//! mbs.add_load(Load::force(p, [0.0, -9.81, 0.0]));
//!
//! let mut sim = mbs.assemble()?;
//! let mut settings = SimulationSettings::default();
//! settings.time_integration.end_time = 0.5;
//! settings.time_integration.number_of_steps = 500;
//! sim.solve_dynamic(&settings)?;
//! let q = sim.node_output(node, OutputVariable::Position)?;
//! assert!((q[0] * q[0] + q[1] * q[1] - 0.64).abs() < 1e-9, "{q:?}");
//! let g = sim.object_output(circle, OutputVariable::ConstraintEquation)?;
//! assert!(g[0].abs() < 1e-9);
//! # Ok::<(), joint::runtime::Error>(())
//! ```
//!
//! **Generated items** of `pub joint Name` (module `name`, snake case): `Name` implementing
//! [`core::Joint`]; in `name`: `ROWS`, `AXES`, `DEFAULT_CONSTRAINED_AXES`, `Parameters`
//! ([`core::JointParameters`]), `DEFINITION` ([`core::JointDefinition`]), `PAIRINGS`,
//! `pairing(k0, k1)`, `OPERATION_COUNTS`, `marker_level` (the joint on
//! [`core::MarkerQuantities`]: `position_residual`, `velocity_residual`, `jacobian` by the
//! markers' velocities and angular velocities, `position_jacobian` by their positions and
//! rotation matrices, `reaction_forces` (a force and a torque per marker) and
//! `position_residual_and_reaction_forces`, with `second_order` also `velocity_residual_rate`
//! and `reaction_forces_q`, `output_NAME` per output, each with its `_slices` form, and
//! `KERNELS`, the [`core::MarkerLevel`]), and per unrolled pairing `kind0_to_kind1`
//! (`COORDINATES`, `PARAMETERS`, `PAIRING`, `position_residual`, `velocity_residual`,
//! `jacobian`, `position_residual_and_jacobian`, `position_jacobian` (the position-level ones
//! only for a joint with `position`), `reaction_forces` (C_qᵀλ per marker, by a reverse sweep
//! over the rows, without forming C_q), `position_residual_and_reaction_forces`; each but the
//! fused ones with its `_slices` form).

pub use joint_core as core;
pub use joint_core::joint;
pub use joint_macros::marker_kinematics;
pub use joint_runtime as runtime;
/// The nalgebra the runtime's API takes (the same version, re-exported): `joint::nalgebra::Matrix3`.
pub use joint_runtime::nalgebra;
/// The jointsim program as a library entry point (feature `cli`): `joint::cli::main(registry)`.
#[cfg(feature = "cli")]
pub use jointsim as cli;

/// The user guide (`docs/guide/`): each chapter's Rust examples compile and run as this crate's
/// doctests.
pub mod guide {
    #[doc = include_str!("../docs/guide/custom_joints.md")]
    pub mod custom_joints {}
    #[doc = include_str!("../docs/guide/jointsim.md")]
    pub mod jointsim {}
    #[doc = include_str!("../docs/guide/exudyn_users.md")]
    pub mod exudyn_users {}
    #[doc = include_str!("../docs/guide/development.md")]
    pub mod development {}
}

/// The README's Rust examples, compiled and run as doctests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
