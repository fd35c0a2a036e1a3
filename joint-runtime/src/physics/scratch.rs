//! Scratch space for one evaluation of the equations, sized from the topology once, so that
//! the solvers' hot paths allocate nothing.

use crate::assemble::Topology;

/// Scratch space for one evaluation (sized for the topology at construction; no allocation
/// afterwards).
#[derive(Clone, Debug)]
pub struct Scratch {
    pub jac_a: Vec<f64>,
    pub jac_b: Vec<f64>,
    pub jac_c: Vec<f64>,
    pub jac_d: Vec<f64>,
    pub block: Vec<f64>,
    pub lhs: Vec<f64>,
    pub lhs2: Vec<f64>,
    pub load: Vec<f64>,
    pub load2: Vec<f64>,
    pub columns: Vec<usize>,
    /// Forward differences of a kinematic tree's or FFRF object's LHS: perturbed coordinates
    /// and velocities, the LHS at the state and perturbed, the object's columns.
    pub fd_q: Vec<f64>,
    pub fd_v: Vec<f64>,
    pub fd_base: Vec<f64>,
    pub fd_out: Vec<f64>,
    pub fd_columns: Vec<usize>,
    /// The velocities, perturbed one at a time (a connector's numerical D).
    pub fd_velocities: Vec<f64>,
    /// The displacements of a forward difference (coordinate markers read them, as Exudyn's).
    pub fd_displacements: Vec<f64>,
    /// A joint's kernel rows (residuals, λ per kernel row, a perturbed residual).
    pub rows: Vec<f64>,
    pub rows2: Vec<f64>,
    pub rows3: Vec<f64>,
    /// A marker-level Jacobian: ∂r/∂v_0, ∂r/∂ω_0, ∂r/∂v_1, ∂r/∂ω_1, each rows × 3.
    pub marker_level: Vec<f64>,
    /// A coordinate-vector joint's markers' coordinates and velocities: q0, q1, v0, v1.
    pub coordinates: [Vec<f64>; 4],
    /// A marker-level joint composed with its markers' kinematics (`physics::marker_level`).
    pub composition: Composition,
}

/// Buffers of a marker-level joint's composition with its markers' kinematics: per marker its
/// J_pos and J_rot (3 × n), ∂p/∂q (3 × n) and ∂A/∂q (9 × n); a kernel's output; products.
#[derive(Clone, Debug)]
pub struct Composition {
    pub jp: [Vec<f64>; 2],
    pub jr: [Vec<f64>; 2],
    pub pq: [Vec<f64>; 2],
    pub aq: [Vec<f64>; 2],
    /// A marker-level ∂g/∂(p, A): 24 × rows.
    pub kernel: Vec<f64>,
    /// rows × n or n × n.
    pub block: Vec<f64>,
    /// 3 × n products.
    pub d: Vec<f64>,
    pub t: Vec<f64>,
    /// n generalized forces.
    pub f: Vec<f64>,
}

impl Composition {
    /// For markers of up to `n` columns and joints of up to `rows` kernel rows.
    fn with_size(n: usize, rows: usize) -> Self {
        let per_marker = |k: usize| [vec![0.0; k * n], vec![0.0; k * n]];
        Composition {
            jp: per_marker(3),
            jr: per_marker(3),
            pq: per_marker(3),
            aq: per_marker(9),
            kernel: vec![0.0; 24 * rows],
            block: vec![0.0; rows.max(n) * n],
            d: vec![0.0; 3 * n],
            t: vec![0.0; 3 * n],
            f: vec![0.0; n],
        }
    }
}

impl Scratch {
    /// Buffers for markers and bodies with at most `n` columns.
    /// Room for blocks over `n` columns and joints of up to `rows` kernel rows.
    pub fn with_size(n: usize, rows: usize) -> Self {
        let n = n.max(7);
        let rows = rows.max(3);
        Scratch {
            jac_a: vec![0.0; rows * n],
            jac_b: vec![0.0; rows * n],
            jac_c: vec![0.0; 3 * n],
            jac_d: vec![0.0; 3 * n],
            block: vec![0.0; n * n],
            lhs: vec![0.0; n],
            lhs2: vec![0.0; n],
            load: vec![0.0; n],
            load2: vec![0.0; n],
            columns: Vec::with_capacity(n),
            fd_q: vec![0.0; n],
            fd_v: vec![0.0; n],
            fd_base: vec![0.0; n],
            fd_out: vec![0.0; n],
            fd_columns: Vec::with_capacity(n),
            fd_velocities: Vec::new(),
            fd_displacements: Vec::new(),
            rows: vec![0.0; rows],
            rows2: vec![0.0; rows],
            rows3: vec![0.0; rows],
            marker_level: vec![0.0; 12 * rows],
            coordinates: std::array::from_fn(|_| vec![0.0; n]),
            composition: Composition::with_size(n, rows),
        }
    }

    /// Sized for the topology: a joint's blocks span both of its markers' columns.
    pub fn for_topology(t: &Topology) -> Self {
        Self::with_size(2 * t.max_columns, t.max_kernel_rows)
    }

    pub fn new() -> Self {
        Self::with_size(7, 3)
    }
}

impl Default for Scratch {
    fn default() -> Self {
        Self::new()
    }
}
