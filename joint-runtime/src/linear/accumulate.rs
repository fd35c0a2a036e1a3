//! Where assembly code writes: `add(row, column, value)` into a dense matrix, a sparse matrix, or
//! a recorder of the positions it touches.

/// A matrix that assembly code adds entries into.
///
/// The physics code is generic over it, so the same code computes the sparsity pattern (with a
/// [`PatternRecorder`]), fills a dense matrix and fills a sparse one.
pub trait MatrixAccumulator {
    /// `A[row, column] += value`.
    fn add(&mut self, row: usize, column: usize, value: f64);
}

/// A dense, row-major `n × n` matrix.
#[derive(Clone, Debug)]
pub struct DenseMatrix {
    n: usize,
    values: Vec<f64>,
}

impl DenseMatrix {
    pub fn zeros(n: usize) -> Self {
        DenseMatrix {
            n,
            values: vec![0.0; n * n],
        }
    }

    /// The entries, row by row.
    pub fn values(&self) -> &[f64] {
        &self.values
    }

    pub fn clear(&mut self) {
        self.values.fill(0.0);
    }
}

impl MatrixAccumulator for DenseMatrix {
    #[inline]
    fn add(&mut self, row: usize, column: usize, value: f64) {
        self.values[row * self.n + column] += value;
    }
}

/// Records which positions assembly touches (the values are ignored): the symbolic pass.
#[derive(Clone, Debug, Default)]
pub struct PatternRecorder {
    entries: Vec<(usize, usize)>,
}

impl PatternRecorder {
    pub fn new() -> Self {
        Self::default()
    }

    /// The recorded `(row, column)` positions, in the order they were touched, with repeats.
    pub fn entries(&self) -> &[(usize, usize)] {
        &self.entries
    }
}

impl MatrixAccumulator for PatternRecorder {
    #[inline]
    fn add(&mut self, row: usize, column: usize, _value: f64) {
        self.entries.push((row, column));
    }
}
