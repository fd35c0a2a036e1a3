//! Coordinate-vector joints defined with `joint!` (markers declared `Coordinates`): constraint
//! rows on two markers' whole coordinate vectors, whose lengths and row count are known only at
//! run time. Their residuals are sums of run-time matrices times elementwise functions of one
//! marker's coordinates (`X·q + Y·q²` in Exudyn's ObjectConnectorCoordinateVector); the
//! compiler derives the functions' derivatives and emits the kernels as loops.

use crate::ResidualLevel;

/// The most parameters a coordinate-vector joint may have: a runtime passes the kernels their
/// views from the stack, without allocating. `joint!` refuses a definition with more.
pub const MAX_DYN_PARAMETERS: usize = 16;

/// A run-time-sized parameter value as the kernels take it: `rows × columns` values, row-major.
/// A matrix with no rows or no columns is *absent*: the terms it multiplies are zero (Exudyn's
/// empty `Matrix[]`). A `dvector` is one column; a `scalar` is 1 × 1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DynParameter<'a> {
    /// Number of rows.
    pub rows: usize,
    /// Number of columns.
    pub columns: usize,
    /// The values, row-major (`rows · columns` of them).
    pub values: &'a [f64],
}

impl<'a> DynParameter<'a> {
    /// `values` as `rows × columns` (row-major); `None` if the lengths disagree.
    pub fn new(rows: usize, columns: usize, values: &'a [f64]) -> Option<Self> {
        (rows.checked_mul(columns)? == values.len()).then_some(DynParameter {
            rows,
            columns,
            values,
        })
    }

    /// Whether it is absent (no rows or no columns).
    pub fn is_empty(&self) -> bool {
        self.rows == 0 || self.columns == 0
    }

    /// Entry (`row`, `column`).
    #[inline]
    pub fn at(&self, row: usize, column: usize) -> f64 {
        self.values[row * self.columns + column]
    }
}

/// The shape of a parameter of a coordinate-vector joint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DynShape {
    /// `param k: scalar;`: one value.
    Scalar,
    /// `param offset: dvector;`: one value per row (or none: absent).
    Vector,
    /// `param x: dmatrix;`: rows × the coordinates of the marker it multiplies (or empty:
    /// absent).
    Matrix,
}

/// One run-time parameter of a coordinate-vector joint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DynParameterInfo {
    /// The name as the definition writes it.
    pub name: &'static str,
    /// Its shape.
    pub shape: DynShape,
    /// For a matrix: the marker (0 or 1) whose coordinates it multiplies.
    pub marker: Option<usize>,
}

/// Why a coordinate-vector joint's parameters do not fit its markers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DynSizeError {
    /// The parameter list has the wrong length.
    ParameterCount {
        /// Parameters the definition declares.
        expected: usize,
        /// Parameters given.
        found: usize,
    },
    /// A parameter's shape is not what its use needs.
    Shape {
        /// The parameter.
        parameter: &'static str,
        /// What was expected (`"1 × 1"`, `"3 rows (or empty)"`, …).
        expected: alloc::string::String,
        /// Its rows and columns.
        found: (usize, usize),
    },
    /// Every matrix is empty: the joint has no rows.
    NoRows,
}

impl core::fmt::Display for DynSizeError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            DynSizeError::ParameterCount { expected, found } => {
                write!(f, "{found} parameters given, the definition has {expected}")
            }
            DynSizeError::Shape {
                parameter,
                expected,
                found,
            } => write!(
                f,
                "`{parameter}` is {} × {}, expected {expected}",
                found.0, found.1
            ),
            DynSizeError::NoRows => write!(
                f,
                "every matrix is empty, so there is no constraint row (give at least one matrix with rows)"
            ),
        }
    }
}

impl core::error::Error for DynSizeError {}

/// `(parameters, n0, n1) → rows`: the number of rows, after checking every parameter's shape
/// against the markers' coordinate counts.
pub type DynRowsFn = fn(&[DynParameter], usize, usize) -> Result<usize, DynSizeError>;
/// A residual: `(parameters, q0, q1, v0, v1, out)`, `out` one entry per row. `q_i` are marker
/// i's coordinates, `v_i` their velocities.
pub type DynResidualFn = fn(&[DynParameter], &[f64], &[f64], &[f64], &[f64], &mut [f64]);
/// The Jacobian blocks: `(parameters, q0, q1, v0, v1, j0, j1)`, `j_i` rows × n_i, row-major.
pub type DynJacobianFn =
    fn(&[DynParameter], &[f64], &[f64], &[f64], &[f64], &mut [f64], &mut [f64]);
/// C_qᵀλ per marker: `(parameters, λ, q0, q1, v0, v1, f0, f1)`, `f_i` n_i entries (set).
pub type DynReactionFn =
    fn(&[DynParameter], &[f64], &[f64], &[f64], &[f64], &[f64], &mut [f64], &mut [f64]);
/// ∂(C_qᵀλ)/∂q, diagonal per marker (each term depends on one coordinate): `(parameters, λ,
/// q0, q1, d0, d1)`, `d_i` n_i entries (set).
pub type DynReactionQFn = fn(&[DynParameter], &[f64], &[f64], &[f64], &mut [f64], &mut [f64]);

/// The second-order terms of a coordinate-vector joint written at position level.
#[derive(Clone, Copy, Debug)]
pub struct DynSecondOrder {
    /// ∂(C_q v)/∂q per marker (rows × n_i): `(parameters, q0, q1, v0, v1, b0, b1)`.
    pub velocity_residual_q: DynJacobianFn,
    /// ∂(C_qᵀλ)/∂q (diagonal per marker).
    pub reaction_q: DynReactionQFn,
}

/// A coordinate-vector joint defined with `joint!`.
#[derive(Debug)]
pub struct CoordinateVectorDefinition {
    /// `CoordinateVectorConstraint`
    pub name: &'static str,
    /// `coordinate_vector_constraint`: the generated module.
    pub module: &'static str,
    /// The definition's doc comment.
    pub doc: &'static str,
    /// `m0` and `m1`.
    pub markers: [&'static str; 2],
    /// The run-time parameters, in declaration order (the kernels' parameter slice).
    pub parameters: &'static [DynParameterInfo],
    /// The level the rows are written at.
    pub level: ResidualLevel,
    /// The residual as written.
    pub residual_text: &'static str,
    /// Row count and shape checks.
    pub rows: DynRowsFn,
    /// The position-level residual (rows written at velocity level: the velocity residual).
    pub position_residual: DynResidualFn,
    /// The velocity-level residual: derived, C·q̇, or as written.
    pub velocity_residual: DynResidualFn,
    /// C: ∂g/∂q (∂g/∂q̇ for rows written at velocity level).
    pub jacobian: DynJacobianFn,
    /// C_qᵀλ.
    pub reaction_forces: DynReactionFn,
    /// With `second_order;`.
    pub second_order: Option<DynSecondOrder>,
}

impl CoordinateVectorDefinition {
    /// Parameter `name` and its index in the parameter slice.
    pub fn parameter(&self, name: &str) -> Option<(usize, DynParameterInfo)> {
        self.parameters
            .iter()
            .enumerate()
            .find(|(_, p)| p.name == name)
            .map(|(i, p)| (i, *p))
    }
}

/// A coordinate-vector joint defined with `joint!`: `pub joint CoordinateVectorConstraint { … }`
/// with `Coordinates` markers makes the type implement it, with the module
/// `coordinate_vector_constraint` holding the kernels.
pub trait CoordinateVectorJoint: 'static {
    /// The compiler's definition.
    const DEFINITION: &'static CoordinateVectorDefinition;
}
