//! The iteration matrix in compressed sparse column form, with a pattern fixed at construction.

use super::accumulate::MatrixAccumulator;

/// An `n × n` matrix whose non-zero positions are fixed when it is built (compressed columns,
/// row indices sorted within each column). Adding at a position outside the pattern is a bug in
/// the symbolic pass and panics with the position.
#[derive(Clone, Debug)]
pub struct SparseMatrix {
    n: usize,
    column_starts: Vec<usize>,
    row_indices: Vec<usize>,
    values: Vec<f64>,
}

impl SparseMatrix {
    /// The pattern of the given positions (repeats allowed) plus the whole diagonal, all values 0.
    pub fn from_positions(n: usize, positions: &[(usize, usize)]) -> Self {
        let mut by_column: Vec<(usize, usize)> = positions
            .iter()
            .map(|&(r, c)| {
                assert!(
                    r < n && c < n,
                    "position ({r}, {c}) outside a {n} × {n} matrix"
                );
                (c, r)
            })
            .chain((0..n).map(|i| (i, i)))
            .collect();
        by_column.sort_unstable();
        by_column.dedup();
        let mut column_starts = vec![0; n + 1];
        for &(c, _) in &by_column {
            column_starts[c + 1] += 1;
        }
        for c in 0..n {
            column_starts[c + 1] += column_starts[c];
        }
        let row_indices: Vec<usize> = by_column.iter().map(|&(_, r)| r).collect();
        let values = vec![0.0; row_indices.len()];
        SparseMatrix {
            n,
            column_starts,
            row_indices,
            values,
        }
    }

    pub fn size(&self) -> usize {
        self.n
    }

    /// Number of stored entries.
    pub fn nnz(&self) -> usize {
        self.values.len()
    }

    pub fn column_starts(&self) -> &[usize] {
        &self.column_starts
    }

    pub fn row_indices(&self) -> &[usize] {
        &self.row_indices
    }

    pub fn values(&self) -> &[f64] {
        &self.values
    }

    /// Set every stored value to zero (the pattern stays).
    pub fn clear(&mut self) {
        self.values.fill(0.0);
    }

    /// The stored value at a position, or 0 outside the pattern.
    pub fn get(&self, row: usize, column: usize) -> f64 {
        self.position(row, column).map_or(0.0, |k| self.values[k])
    }

    #[inline]
    fn position(&self, row: usize, column: usize) -> Option<usize> {
        let start = self.column_starts[column];
        let rows = &self.row_indices[start..self.column_starts[column + 1]];
        rows.binary_search(&row).ok().map(|k| start + k)
    }
}

impl MatrixAccumulator for SparseMatrix {
    #[inline]
    fn add(&mut self, row: usize, column: usize, value: f64) {
        match self.position(row, column) {
            Some(k) => self.values[k] += value,
            None => panic!(
                "iteration matrix entry ({row}, {column}) is not in the pattern computed at the \
                 start of the solve"
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pattern_holds_the_positions_and_the_diagonal_sorted_by_column() {
        let m = SparseMatrix::from_positions(3, &[(2, 0), (0, 2), (2, 0), (1, 0)]);
        assert_eq!(m.column_starts(), &[0, 3, 4, 6]);
        assert_eq!(m.row_indices(), &[0, 1, 2, 1, 0, 2]);
    }

    #[test]
    fn added_values_land_at_their_positions() {
        let mut m = SparseMatrix::from_positions(3, &[(2, 0), (0, 2)]);
        m.add(2, 0, 1.5);
        m.add(2, 0, 0.25);
        m.add(1, 1, -3.0);
        assert_eq!(m.get(2, 0), 1.75);
        assert_eq!(m.get(1, 1), -3.0);
        assert_eq!(m.get(0, 1), 0.0);
        m.clear();
        assert_eq!(m.get(2, 0), 0.0);
    }

    #[test]
    #[should_panic(expected = "(0, 1) is not in the pattern")]
    fn adding_outside_the_pattern_names_the_position() {
        let mut m = SparseMatrix::from_positions(2, &[]);
        m.add(0, 1, 1.0);
    }
}
