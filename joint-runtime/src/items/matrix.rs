//! Exudyn's MatrixContainer: a dense matrix, sparse triplets, or empty ("absent").

use nalgebra::DMatrix;

#[derive(Clone, Debug, PartialEq, Default)]
pub enum MatrixContainer {
    /// 0 × 0: the matrix is absent.
    #[default]
    Empty,
    Dense(DMatrix<f64>),
    /// `(row, column, value)` triplets; duplicates add up.
    Sparse {
        rows: usize,
        columns: usize,
        triplets: Vec<(usize, usize, f64)>,
    },
}

impl MatrixContainer {
    pub fn shape(&self) -> (usize, usize) {
        match self {
            MatrixContainer::Empty => (0, 0),
            MatrixContainer::Dense(m) => (m.nrows(), m.ncols()),
            MatrixContainer::Sparse { rows, columns, .. } => (*rows, *columns),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.shape() == (0, 0)
    }

    pub fn is_sparse(&self) -> bool {
        matches!(self, MatrixContainer::Sparse { .. })
    }

    /// The dense matrix (triplets summed), or `None` if a triplet lies outside the shape.
    pub fn to_dense(&self) -> Option<DMatrix<f64>> {
        match self {
            MatrixContainer::Empty => Some(DMatrix::zeros(0, 0)),
            MatrixContainer::Dense(m) => Some(m.clone()),
            MatrixContainer::Sparse {
                rows,
                columns,
                triplets,
            } => {
                let mut m = DMatrix::zeros(*rows, *columns);
                for &(r, c, v) in triplets {
                    if r >= *rows || c >= *columns {
                        return None;
                    }
                    m[(r, c)] += v;
                }
                Some(m)
            }
        }
    }
}
