//! The iteration matrix in compressed sparse column form, with a pattern fixed at construction.

use super::accumulate::MatrixAccumulator;

/// An `n × n` matrix whose non-zero positions are fixed when it is built (compressed columns,
/// row indices sorted within each column). Adding at a position outside the pattern is a bug in
/// the symbolic pass and panics with the position.
///
/// Assembly adds its entries in the same order every time, the order the symbolic pass recorded
/// them in. That order is kept with each entry's storage slot, so an assembly after
/// [`SparseMatrix::clear`] finds its slots by walking the sequence instead of searching the
/// columns; an add that leaves the sequence (a different branch in the physics) switches to the
/// search until the next clear. Either way the same additions reach the same values in the same
/// order.
#[derive(Clone, Debug)]
pub struct SparseMatrix {
    n: usize,
    column_starts: Vec<usize>,
    row_indices: Vec<usize>,
    values: Vec<f64>,
    /// The recorded adds: (row, column, slot in `values`).
    sequence: Vec<(u32, u32, u32)>,
    /// The next add's index in `sequence`, while the adds follow it.
    cursor: Option<usize>,
}

impl SparseMatrix {
    /// The pattern of the given positions (repeats allowed) plus the whole diagonal, all values 0.
    pub fn from_positions(n: usize, positions: &[(usize, usize)]) -> Self {
        // bucket the positions (and the diagonal) by column, then sort and deduplicate each
        // column's rows: linear in the positions, where one sort of all of them was most of
        // the set-up of a 1000-body chain (the assembly records every entry it adds)
        let mut bucket_starts = vec![0usize; n + 1];
        for &(r, c) in positions {
            assert!(
                r < n && c < n,
                "position ({r}, {c}) outside a {n} × {n} matrix"
            );
            bucket_starts[c + 1] += 1;
        }
        for c in 0..n {
            bucket_starts[c + 1] += bucket_starts[c] + 1;
        }
        let mut buckets = vec![0usize; bucket_starts[n]];
        let mut fill = bucket_starts.clone();
        for (r, c) in positions.iter().copied().chain((0..n).map(|i| (i, i))) {
            buckets[fill[c]] = r;
            fill[c] += 1;
        }
        let mut column_starts = vec![0; n + 1];
        let mut row_indices: Vec<usize> = Vec::with_capacity(buckets.len());
        for c in 0..n {
            let rows = &mut buckets[bucket_starts[c]..bucket_starts[c + 1]];
            rows.sort_unstable();
            for (k, &r) in rows.iter().enumerate() {
                if k == 0 || rows[k - 1] != r {
                    row_indices.push(r);
                }
            }
            column_starts[c + 1] = row_indices.len();
        }
        let values = vec![0.0; row_indices.len()];
        let mut m = SparseMatrix {
            n,
            column_starts,
            row_indices,
            values,
            sequence: Vec::new(),
            cursor: None,
        };
        if n <= u32::MAX as usize && m.values.len() <= u32::MAX as usize {
            m.sequence = positions
                .iter()
                .map(|&(r, c)| {
                    let slot = m.position(r, c).expect("recorded position in the pattern");
                    (r as u32, c as u32, slot as u32)
                })
                .collect();
        }
        m
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

    /// The positions the symbolic pass recorded, in its order (repeats included; without the
    /// diagonal this matrix adds to every column). Empty for a matrix too large to record them
    /// (more than `u32::MAX` unknowns or entries).
    pub fn recorded_positions(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.sequence
            .iter()
            .map(|&(r, c, _)| (r as usize, c as usize))
    }

    /// Set every stored value to zero (the pattern stays).
    pub fn clear(&mut self) {
        self.values.fill(0.0);
        self.cursor = Some(0);
    }

    /// The stored value at a position, or 0 outside the pattern.
    #[cfg(test)]
    pub fn get(&self, row: usize, column: usize) -> f64 {
        self.position(row, column).map_or(0.0, |k| self.values[k])
    }

    #[inline]
    fn position(&self, row: usize, column: usize) -> Option<usize> {
        let start = self.column_starts[column];
        let rows = &self.row_indices[start..self.column_starts[column + 1]];
        rows.binary_search(&row).ok().map(|k| start + k)
    }

    /// An add off the recorded sequence: search the column.
    #[cold]
    #[inline(never)]
    fn add_searched(&mut self, row: usize, column: usize, value: f64) {
        self.cursor = None;
        match self.position(row, column) {
            Some(k) => self.values[k] += value,
            None => panic!(
                "iteration matrix entry ({row}, {column}) is not in the pattern computed at the \
                 start of the solve"
            ),
        }
    }
}

impl MatrixAccumulator for SparseMatrix {
    #[inline(always)]
    fn add(&mut self, row: usize, column: usize, value: f64) {
        if let Some(k) = self.cursor
            && let Some(&(r, c, slot)) = self.sequence.get(k)
            && r as usize == row
            && c as usize == column
        {
            self.values[slot as usize] += value;
            self.cursor = Some(k + 1);
            return;
        }
        self.add_searched(row, column, value);
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
    fn adds_off_the_recorded_sequence_still_land_at_their_positions() {
        let recorded = [(2, 0), (0, 2), (1, 1), (2, 0)];
        let mut m = SparseMatrix::from_positions(3, &recorded);
        m.clear();
        for (k, &(r, c)) in recorded.iter().enumerate() {
            m.add(r, c, k as f64 + 1.0);
        }
        assert_eq!(m.cursor, Some(4), "followed the sequence");
        assert_eq!((m.get(2, 0), m.get(0, 2), m.get(1, 1)), (5.0, 2.0, 3.0));
        // a different order: leaves the sequence at the second add, same values
        m.clear();
        for &k in &[0, 3, 1, 2] {
            let (r, c) = recorded[k];
            m.add(r, c, k as f64 + 1.0);
        }
        assert_eq!(m.cursor, None, "left the sequence");
        assert_eq!((m.get(2, 0), m.get(0, 2), m.get(1, 1)), (5.0, 2.0, 3.0));
        // an add past the end of the sequence
        m.clear();
        for (k, &(r, c)) in recorded.iter().enumerate() {
            m.add(r, c, k as f64);
        }
        m.add(1, 1, 10.0);
        assert_eq!(m.get(1, 1), 12.0);
        assert_eq!(m.cursor, None);
    }

    #[test]
    #[should_panic(expected = "(0, 1) is not in the pattern")]
    fn adding_outside_the_pattern_names_the_position() {
        let mut m = SparseMatrix::from_positions(2, &[]);
        m.add(0, 1, 1.0);
    }
}
