//! Coordinate-vector joints defined with `joint!` (markers declared `Coordinates`): the
//! compiler's loops against central differences of the generated residual itself (Jacobian,
//! velocity level, second-order terms, reaction forces), their shape checks, and a user's joint
//! simulated from a model file against Exudyn's ObjectConnectorCoordinateVector that computes
//! the same rows (the same bits and Newton counts).

use joint::core::{CoordinateVectorJoint, DynParameter, DynSizeError};
use joint::runtime::model::{read_model, read_model_with};
use joint::runtime::{
    CoordinateVectorObject, DynValue, JointRegistry, Marker, MultibodySystem, Object,
    OutputVariable, SimulationSettings,
};

joint::joint! {
    fn square(q) = q * q;

    /// Everything the form allows: a function of a function, scalar factors, a subtracted
    /// group, an offset.
    pub joint Warped {
        marker m0: Coordinates;
        marker m1: Coordinates;
        param a0: dmatrix;
        param a1: dmatrix;
        param b1: dmatrix;
        param c0: dmatrix;
        param k: scalar;
        param offset: dvector;
        second_order;
        position = a1 * m1.coordinates + k * b1 * sin(square(m1.coordinates))
            - (a0 * m0.coordinates + 0.5 * c0 * cos(m0.coordinates))
            - offset;
    }

    /// A point on a circle of its coordinates: `weights·q² = rhs` (the user's form of the
    /// quadratic term of Exudyn's ObjectConnectorCoordinateVector against a ground node).
    pub joint Circle {
        marker m0: Coordinates;
        marker m1: Coordinates;
        param weights: dmatrix;
        param rhs: dvector;
        position = weights * square(m1.coordinates) - rhs;
    }
}

/// A deterministic pseudo-random sequence in (−1, 1).
fn sequence(seed: u64) -> impl FnMut() -> f64 {
    let mut s = seed;
    move || {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((s >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
    }
}

fn matrix(rows: usize, columns: usize, next: &mut impl FnMut() -> f64) -> DynValue {
    DynValue {
        rows,
        columns,
        values: (0..rows * columns).map(|_| next()).collect(),
    }
}

struct Case {
    parameters: Vec<DynValue>,
    q: [Vec<f64>; 2],
    v: [Vec<f64>; 2],
    lambda: Vec<f64>,
}

const ROWS: usize = 3;
const N: [usize; 2] = [4, 2];

fn case(seed: u64) -> Case {
    let mut next = sequence(seed);
    let parameters = vec![
        matrix(ROWS, N[0], &mut next),
        matrix(ROWS, N[1], &mut next),
        matrix(ROWS, N[1], &mut next),
        matrix(ROWS, N[0], &mut next),
        DynValue::scalar(1.0 + next()),
        DynValue::vector(&[next(), next(), next()]),
    ];
    let mut vec_of = |n: usize| (0..n).map(|_| 2.0 * next()).collect::<Vec<f64>>();
    let q = [vec_of(N[0]), vec_of(N[1])];
    let v = [vec_of(N[0]), vec_of(N[1])];
    let lambda = vec_of(ROWS);
    Case {
        parameters,
        q,
        v,
        lambda,
    }
}

fn views(values: &[DynValue]) -> Vec<DynParameter<'_>> {
    values.iter().map(DynValue::view).collect()
}

/// The generated residual at `q`.
fn residual(c: &Case, q: &[Vec<f64>; 2]) -> Vec<f64> {
    let p = views(&c.parameters);
    let mut out = vec![0.0; ROWS];
    (Warped::DEFINITION.position_residual)(&p, &q[0], &q[1], &c.v[0], &c.v[1], &mut out);
    out
}

/// The generated Jacobian blocks at `q`.
fn jacobian(c: &Case, q: &[Vec<f64>; 2]) -> [Vec<f64>; 2] {
    let p = views(&c.parameters);
    let mut j = [vec![0.0; ROWS * N[0]], vec![0.0; ROWS * N[1]]];
    let [j0, j1] = &mut j;
    (Warped::DEFINITION.jacobian)(&p, &q[0], &q[1], &c.v[0], &c.v[1], j0, j1);
    j
}

/// Central difference of `f` along coordinate `col` of marker `k`.
fn central<T: Fn(&[Vec<f64>; 2]) -> Vec<f64>>(c: &Case, k: usize, col: usize, f: T) -> Vec<f64> {
    let h = 1e-6;
    let mut plus = c.q.clone();
    let mut minus = c.q.clone();
    plus[k][col] += h;
    minus[k][col] -= h;
    f(&plus)
        .iter()
        .zip(f(&minus))
        .map(|(a, b)| (a - b) / (2.0 * h))
        .collect()
}

fn close(a: f64, b: f64, what: &str) {
    assert!(
        (a - b).abs() <= 1e-7 * (1.0 + b.abs()),
        "{what}: generated {a}, differences {b}"
    );
}

/// C = ∂g/∂q of every entry, the derived velocity level C·q̇, C_qᵀλ, and the second-order
/// terms ∂(C_q v)/∂q and ∂(C_qᵀλ)/∂q (diagonal) against central differences.
#[test]
fn generated_derivatives_match_central_differences() {
    let d = Warped::DEFINITION;
    for seed in 1..=5 {
        let c = case(seed);
        let p = views(&c.parameters);
        assert_eq!((d.rows)(&p, N[0], N[1]), Ok(ROWS));
        let j = jacobian(&c, &c.q);
        for k in 0..2 {
            for col in 0..N[k] {
                let fd = central(&c, k, col, |q| residual(&c, q));
                for r in 0..ROWS {
                    close(j[k][r * N[k] + col], fd[r], &format!("C[{k}][{r}][{col}]"));
                }
            }
        }
        // ġ = C·q̇
        let mut g_t = vec![0.0; ROWS];
        (d.velocity_residual)(&p, &c.q[0], &c.q[1], &c.v[0], &c.v[1], &mut g_t);
        for r in 0..ROWS {
            let cv: f64 = (0..2)
                .map(|k| {
                    (0..N[k])
                        .map(|i| j[k][r * N[k] + i] * c.v[k][i])
                        .sum::<f64>()
                })
                .sum();
            close(g_t[r], cv, &format!("ġ[{r}]"));
        }
        // C_qᵀλ
        let mut f = [vec![0.0; N[0]], vec![0.0; N[1]]];
        {
            let [f0, f1] = &mut f;
            (d.reaction_forces)(&p, &c.lambda, &c.q[0], &c.q[1], &c.v[0], &c.v[1], f0, f1);
        }
        for k in 0..2 {
            for i in 0..N[k] {
                let ct: f64 = (0..ROWS).map(|r| j[k][r * N[k] + i] * c.lambda[r]).sum();
                close(f[k][i], ct, &format!("(C_qᵀλ)[{k}][{i}]"));
            }
        }
        // second order
        let so = d.second_order.expect("second_order;");
        let mut b = [vec![0.0; ROWS * N[0]], vec![0.0; ROWS * N[1]]];
        {
            let [b0, b1] = &mut b;
            (so.velocity_residual_q)(&p, &c.q[0], &c.q[1], &c.v[0], &c.v[1], b0, b1);
        }
        let mut diag = [vec![0.0; N[0]], vec![0.0; N[1]]];
        {
            let [d0, d1] = &mut diag;
            (so.reaction_q)(&p, &c.lambda, &c.q[0], &c.q[1], d0, d1);
        }
        let cv = |q: &[Vec<f64>; 2]| -> Vec<f64> {
            let j = jacobian(&c, q);
            (0..ROWS)
                .map(|r| {
                    (0..2)
                        .map(|k| {
                            (0..N[k])
                                .map(|i| j[k][r * N[k] + i] * c.v[k][i])
                                .sum::<f64>()
                        })
                        .sum()
                })
                .collect()
        };
        let ctl = |q: &[Vec<f64>; 2]| -> Vec<f64> {
            let j = jacobian(&c, q);
            let mut out = Vec::new();
            for k in 0..2 {
                for i in 0..N[k] {
                    out.push((0..ROWS).map(|r| j[k][r * N[k] + i] * c.lambda[r]).sum());
                }
            }
            out
        };
        for k in 0..2 {
            for col in 0..N[k] {
                let fd = central(&c, k, col, cv);
                for r in 0..ROWS {
                    close(
                        b[k][r * N[k] + col],
                        fd[r],
                        &format!("∂(C_q v)/∂q[{k}][{r}][{col}]"),
                    );
                }
                // ∂(C_qᵀλ)/∂q: each entry depends on its own coordinate only
                let fd = central(&c, k, col, ctl);
                let at = if k == 0 { col } else { N[0] + col };
                for (i, x) in fd.iter().enumerate() {
                    let expected = if i == at { diag[k][col] } else { 0.0 };
                    close(expected, *x, &format!("∂(C_qᵀλ)/∂q[{i}][{at}]"));
                }
            }
        }
    }
}

/// Every parameter's shape is checked against the markers' coordinates before a kernel runs.
#[test]
fn parameter_shapes_are_checked() {
    let d = Warped::DEFINITION;
    let c = case(7);
    let rows = |parameters: &[DynValue], n0, n1| (d.rows)(&views(parameters), n0, n1);
    // a matrix whose columns are not its marker's coordinates
    let e = rows(&c.parameters, N[0] + 1, N[1]).unwrap_err();
    assert!(
        matches!(
            &e,
            DynSizeError::Shape {
                parameter: "a0",
                found: (3, 4),
                ..
            }
        ),
        "{e:?}"
    );
    assert!(e.to_string().contains("3 × 5"), "{e}");
    // an offset of the wrong length
    let mut p = c.parameters.clone();
    p[5] = DynValue::vector(&[1.0, 2.0]);
    assert!(matches!(
        rows(&p, N[0], N[1]),
        Err(DynSizeError::Shape {
            parameter: "offset",
            ..
        })
    ));
    // a scalar that is not 1 × 1
    let mut p = c.parameters.clone();
    p[4] = DynValue::vector(&[1.0, 2.0, 3.0]);
    assert!(matches!(
        rows(&p, N[0], N[1]),
        Err(DynSizeError::Shape { parameter: "k", .. })
    ));
    // absent matrices and offset are allowed; all absent: no rows
    let mut p = c.parameters.clone();
    p[2] = DynValue::default();
    p[5] = DynValue::default();
    assert_eq!(rows(&p, N[0], N[1]), Ok(ROWS));
    for m in [0, 1, 3] {
        p[m] = DynValue::default();
    }
    assert_eq!(rows(&p, N[0], N[1]), Err(DynSizeError::NoRows));
    assert_eq!(
        rows(&c.parameters[..3], N[0], N[1]),
        Err(DynSizeError::ParameterCount {
            expected: 6,
            found: 3
        })
    );
    // a marker without coordinates (ground) ignores its matrices, as Exudyn
    assert_eq!(rows(&c.parameters, 0, N[1]), Ok(ROWS));
}

fn pendulum_file() -> String {
    std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/reference/own_cases/coordinate_vector_pendulum.json"
    ))
    .expect("the reference case")
}

/// The reference pendulum with Exudyn's circle (the quadratic term against a ground node)
/// replaced by the user's `Circle` with the same numbers: the same bits and the same Newton
/// path, from a model file through a registry.
#[test]
fn a_users_joint_runs_as_exudyns_coordinate_vector_constraint() {
    let text = pendulum_file();
    let exudyn = read_model(&text).unwrap();
    let mut root: serde_json::Value = serde_json::from_str(&text).unwrap();
    let objects = root["objects"].as_array_mut().unwrap();
    let k = objects
        .iter()
        .position(|o| o.get("quadraticTermMarker1").is_some())
        .expect("the circle");
    let markers = objects[k]["markerNumbers"].clone();
    let rhs = objects[k]["offset"].clone();
    objects[k] = serde_json::json!({
        "objectType": "Circle",
        "markerNumbers": markers,
        "weights": [[1.0, 1.0]],
        "rhs": rhs,
    });
    let registry = JointRegistry::exudyn()
        .with_coordinate_vector::<Circle>()
        .unwrap();
    let user = read_model_with(&root.to_string(), &registry).unwrap();
    assert!(matches!(&user.mbs.objects[k], Object::CoordinateVector(c) if c.type_name == "Circle"));
    let run = |m: joint::runtime::model::Model| {
        let mut sim = m.mbs.assemble().unwrap();
        sim.solve_dynamic(&m.settings).unwrap();
        sim
    };
    let (a, b) = (run(exudyn), run(user));
    assert_eq!(a.state().q, b.state().q);
    assert_eq!(a.state().lambda, b.state().lambda);
    assert_eq!(
        a.statistics().newton.iterations,
        b.statistics().newton.iterations
    );
    assert_eq!(
        a.statistics().newton.jacobians,
        b.statistics().newton.jacobians
    );

    // its parameters are required, by name, and checked against its markers
    objects_edit(&mut root, k, |o| {
        o.as_object_mut().unwrap().remove("rhs");
    });
    let e = read_model_with(&root.to_string(), &registry)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("objects[") && e.contains("(Circle)") && e.contains("rhs"),
        "{e}"
    );
    objects_edit(&mut root, k, |o| {
        o["rhs"] = serde_json::json!([0.64]);
        o["weights"] = serde_json::json!([[1.0, 1.0, 1.0]]);
    });
    let m = read_model_with(&root.to_string(), &registry).unwrap();
    let e = m.mbs.assemble().unwrap_err().to_string();
    assert!(
        e.contains("(Circle)") && e.contains("weights") && e.contains("1 × 2"),
        "{e}"
    );
}

fn objects_edit(root: &mut serde_json::Value, k: usize, f: impl FnOnce(&mut serde_json::Value)) {
    f(&mut root["objects"][k]);
}

/// In code: a mass point's coordinates held by a user joint, with outputs; bad markers and bad
/// matrices are errors naming the item and key.
#[test]
fn coordinate_vector_joints_in_code() {
    let mut mbs = MultibodySystem::new();
    let ground = mbs.add_node(joint::runtime::Node::point_ground([0.0; 3]));
    let body = mbs
        .create_mass_point("", [0.0, -1.0, 0.0], [0.0; 3], 2.0, [0.0, -9.81, 0.0])
        .body;
    let node = joint::runtime::NodeIndex(1);
    let mg = mbs.add_marker(Marker::node_coordinates(ground));
    let mb = mbs.add_marker(Marker::object_ode2_coordinates(body));
    let mp = mbs.add_marker(Marker::node_position(node));
    // x and z held at the reference (the matrices pick them), y free: a vertical fall
    let circle = mbs.add_object(Object::CoordinateVector(CoordinateVectorObject::exudyn(
        [mg, mb],
        [
            DynValue::default(),
            DynValue::matrix(&[vec![1.0, 0.0, 0.0], vec![0.0, 0.0, 1.0]]),
        ],
        [DynValue::default(), DynValue::default()],
        DynValue::default(),
        false,
    )));
    mbs.add_load(joint::runtime::Load::ForceVector {
        name: String::new(),
        marker: mp,
        load_vector: [0.3, 0.0, 0.1],
        body_fixed: false,
    });
    let mut settings = SimulationSettings::default();
    settings.time_integration.number_of_steps = 100;
    settings.time_integration.end_time = 0.1;
    let mut sim = mbs.clone().assemble().unwrap();
    sim.solve_dynamic(&settings).unwrap();
    let q = &sim.state().q;
    assert!(q[0].abs() < 1e-12 && q[2].abs() < 1e-12, "{q:?}");
    // free fall in y: −g t²/2 with g = 9.81 (generalized-α is exact for constant acceleration)
    assert!((q[1] + 0.5 * 9.81 * 0.01).abs() < 1e-9, "{q:?}");
    // M·ä + C_qᵀλ = f with C = the picking rows and ä = 0 in x and z: λ is the load there
    let force = sim.object_output(circle, OutputVariable::Force).unwrap();
    assert!(
        (force[0] - 0.3).abs() < 1e-9 && (force[1] - 0.1).abs() < 1e-9,
        "{force:?}"
    );
    let g = sim
        .object_output(circle, OutputVariable::ConstraintEquation)
        .unwrap();
    assert!(g.iter().all(|x| x.abs() < 1e-12), "{g:?}");

    // a position marker where a coordinate-vector marker is needed
    let mut bad = mbs.clone();
    if let Object::CoordinateVector(c) = &mut bad.objects[circle.0] {
        c.markers = [mg, mp];
    }
    let e = bad.assemble().unwrap_err().to_string();
    assert!(
        e.contains("markerNumbers") && e.contains("NodeCoordinates"),
        "{e}"
    );
    // a matrix with the wrong number of columns
    let mut bad = mbs.clone();
    if let Object::CoordinateVector(c) = &mut bad.objects[circle.0] {
        c.parameters[1] = DynValue::matrix(&[vec![1.0, 0.0]]);
    }
    let e = bad.assemble().unwrap_err().to_string();
    assert!(
        e.contains("scalingMarker1") && e.contains("1 × 2, expected 1 × 3"),
        "{e}"
    );
    // values that do not fill the matrix
    let mut bad = mbs;
    if let Object::CoordinateVector(c) = &mut bad.objects[circle.0] {
        c.parameters[4] = DynValue {
            rows: 2,
            columns: 1,
            values: vec![f64::NAN, 0.0],
        };
    }
    let e = bad.assemble().unwrap_err().to_string();
    assert!(e.contains("offset"), "{e}");
}
