//! A joint as assembly resolved it: its markers, its AE rows and which kernel rows they are, its
//! parameters as the kernels take them, and the evaluation of its residual rows through the
//! generated kernels.

use joint_core::{JointDefinition, Pairing, ResidualLevel};

use crate::markers::MarkerState;

/// Which level the constraints are evaluated at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConstraintLevel {
    /// The position-level residual `g(q)` (index 3).
    Position,
    /// The velocity-level residual `ġ(q, q̇)` (index 2, and a joint's Velocity output).
    Velocity,
}

/// How a joint's equations are evaluated.
#[derive(Clone, Copy, Debug)]
pub enum JointKernel {
    /// The generated kernels of the two markers' kinds.
    Pairing(&'static Pairing),
    /// The joint's marker-level kernels, composed with the markers' own Jacobians (superelement
    /// and kinematic-tree markers, whose Jacobians have run-time size).
    MarkerLevel,
}

/// A constraint (a joint of any type) with its generated kernels.
#[derive(Clone, Debug)]
pub struct JointTopology {
    /// Index of the joint's object in the system's objects.
    pub object: usize,
    /// Indices of its two markers in the system's (and the topology's) markers.
    pub markers: [usize; 2],
    /// The joint as the compiler defined it.
    pub definition: &'static JointDefinition,
    /// Which kernels evaluate it.
    pub kernel: JointKernel,
    /// The definition's parameters, as the kernels take them (markers' local rotations folded
    /// into the frame parameters of Exudyn's rigid joints).
    pub parameters: Vec<f64>,
    /// First AE coordinate; the joint owns `rows()` of them.
    pub ae: usize,
    /// Per AE row: the kernel row that is its equation, or `None` for a free row (`g = λ`).
    pub equations: Vec<Option<usize>>,
    /// `activeConnector`: an inactive joint's rows are `λ = 0`.
    pub active: bool,
    /// AE row k is kernel row k for every row, and there are no other kernel rows (no free
    /// axis): the kernel's multipliers are the joint's λ and its rows are the joint's `g`, with
    /// no gather or scatter (`equations_are_kernel_rows`, computed with `equations`).
    pub rows_are_kernel_rows: bool,
}

impl JointTopology {
    /// Whether `equations` maps AE row k to kernel row k for all of a definition's
    /// `kernel_rows` rows ([`JointTopology::rows_are_kernel_rows`]).
    pub fn equations_are_kernel_rows(equations: &[Option<usize>], kernel_rows: usize) -> bool {
        equations.len() == kernel_rows && equations.iter().enumerate().all(|(k, e)| *e == Some(k))
    }

    /// Number of AE rows (algebraic equations and free λ rows).
    pub fn rows(&self) -> usize {
        self.equations.len()
    }

    /// Number of rows the joint's kernels evaluate (≥ its AE rows).
    pub fn kernel_rows(&self) -> usize {
        self.definition.rows()
    }

    /// Whether the joint's rows are written at velocity level (non-holonomic): they are its
    /// residual at every level, and their Jacobian C = ∂g/∂q̇ enters a Newton matrix as
    /// ∂g/∂q̇·∂q̇/∂q.
    pub fn velocity_level(&self) -> bool {
        self.definition.level == ResidualLevel::Velocity
    }

    /// The kernel row of AE row `k`, `None` if the row is free.
    pub fn row_kernel(&self, k: usize) -> Option<usize> {
        self.equations[k]
    }

    /// The multipliers per kernel row into `out[..kernel_rows()]`, from the AE multipliers
    /// `lambda` (all equations); kernel rows no equation uses get 0.
    pub fn kernel_row_multipliers(&self, lambda: &[f64], out: &mut [f64]) {
        out[..self.kernel_rows()].fill(0.0);
        for k in 0..self.rows() {
            if let Some(r) = self.row_kernel(k) {
                out[r] = lambda[self.ae + k];
            }
        }
    }

    /// The joint's rows of `g` (all AE equations) from its kernel rows: the kernel's row where
    /// an axis is constrained, `λ` on a free axis.
    pub fn scatter_rows(&self, kernel_rows: &[f64], lambda: &[f64], g: &mut [f64]) {
        for k in 0..self.rows() {
            g[self.ae + k] = match self.row_kernel(k) {
                Some(r) => kernel_rows[r],
                None => lambda[self.ae + k],
            };
        }
    }

    /// Whether row `k` is an equation of the joint (`false`: `g = λ`).
    pub fn row_constrained(&self, k: usize) -> bool {
        self.active && self.equations[k].is_some()
    }

    /// The kernel's name, as the summary prints it (`revolute_z::ground_point_to_rigid_ep_point`).
    pub fn kernel_name(&self) -> String {
        match self.kernel {
            JointKernel::Pairing(p) => p.path(),
            JointKernel::MarkerLevel => format!("{}::marker_level", self.definition.module),
        }
    }
}

/// Why a kernel call cannot fail on sizes.
pub(crate) const SIZES_CHECKED: &str = "kernel sizes checked at assemble";

/// A joint's residual rows at `level` into `out` (the kernel's `kernel_rows()` entries), through
/// its generated kernel. A joint written at velocity level has only those rows: they are its
/// residual at both levels (Exudyn's velocity-level constraints, in index 3 as in index 2).
pub(crate) fn joint_kernel_rows(
    j: &JointTopology,
    level: ConstraintLevel,
    m0: &MarkerState,
    m1: &MarkerState,
    out: &mut [f64],
) {
    use ConstraintLevel::{Position, Velocity};
    let level = if j.velocity_level() { Velocity } else { level };
    match j.kernel {
        JointKernel::Pairing(p) => {
            let f = match level {
                Position => p.position_residual,
                Velocity => p.velocity_residual,
            };
            f(&j.parameters, m0.kernel_args(), m1.kernel_args(), out).expect(SIZES_CHECKED);
        }
        JointKernel::MarkerLevel => {
            let (q0, q1) = (m0.quantities(), m1.quantities());
            let ml = &j.definition.marker_level;
            let f = match level {
                Position => ml.position_residual,
                Velocity => ml.velocity_residual,
            };
            f(&j.parameters, &q0, &q1, out).expect(SIZES_CHECKED);
        }
    }
}
