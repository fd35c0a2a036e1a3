//! Exudyn's MatrixContainer: a dense matrix, sparse triplets, or empty ("absent").

use nalgebra::DMatrix;

#[derive(Clone, Debug, PartialEq, Default)]
/// Exudyn's MatrixContainer: a matrix given densely, as sparse triplets, or absent.
pub enum MatrixContainer {
    /// 0 × 0: the matrix is absent.
    #[default]
    Empty,
    /// A dense matrix.
    Dense(DMatrix<f64>),
    /// `(row, column, value)` triplets; duplicates add up.
    Sparse {
        /// Number of rows.
        rows: usize,
        /// Number of columns.
        columns: usize,
        /// `(row, column, value)` entries.
        triplets: Vec<(usize, usize, f64)>,
    },
}

impl MatrixContainer {
    /// (rows, columns); (0, 0) when absent.
    pub fn shape(&self) -> (usize, usize) {
        match self {
            MatrixContainer::Empty => (0, 0),
            MatrixContainer::Dense(m) => (m.nrows(), m.ncols()),
            MatrixContainer::Sparse { rows, columns, .. } => (*rows, *columns),
        }
    }

    /// Whether the matrix is absent or has no entries.
    pub fn is_empty(&self) -> bool {
        self.shape() == (0, 0)
    }

    /// Whether it is given as triplets.
    pub fn is_sparse(&self) -> bool {
        matches!(self, MatrixContainer::Sparse { .. })
    }

    /// The dense matrix (triplets summed); an error if a triplet lies outside the shape, or if
    /// the dense matrix would take more than the default storage limit (a sparse matrix may
    /// declare any shape).
    pub fn to_dense(&self) -> Result<DMatrix<f64>, String> {
        match self {
            MatrixContainer::Empty => Ok(DMatrix::zeros(0, 0)),
            MatrixContainer::Dense(m) => Ok(m.clone()),
            MatrixContainer::Sparse {
                rows,
                columns,
                triplets,
            } => {
                check_dense_size(*rows, *columns, 1)?;
                let mut m = DMatrix::zeros(*rows, *columns);
                for &(r, c, v) in triplets {
                    if r >= *rows || c >= *columns {
                        return Err(format!(
                            "a triplet ({r}, {c}) lies outside the {rows} × {columns} matrix"
                        ));
                    }
                    m[(r, c)] += v;
                }
                Ok(m)
            }
        }
    }
}

/// `count` dense `rows × columns` matrices fit in the default storage limit: refuse, with the
/// sizes, what would otherwise abort the process for memory.
pub fn check_dense_size(rows: usize, columns: usize, count: usize) -> Result<(), String> {
    let bytes = rows as f64 * columns as f64 * count as f64 * 8.0;
    let limit = crate::storage::default_storage_limit();
    if bytes > limit as f64 {
        return Err(format!(
            "{count} dense {rows} × {columns} matrix(es) would take {}, more than the memory limit of {}",
            crate::storage::human_bytes(bytes),
            crate::storage::human_bytes(limit as f64)
        ));
    }
    Ok(())
}
