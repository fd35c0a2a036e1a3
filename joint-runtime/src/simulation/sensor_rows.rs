//! The simulation's storage of sensor rows.

use std::ops::Index;

/// One sensor's stored rows `[t, values…]`, kept flat with a fixed row width (so that rows are
/// appended into reserved storage, without an allocation per row).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SensorRows {
    /// Entries per row: the time and the sensor's values.
    pub(crate) width: usize,
    pub(crate) data: Vec<f64>,
}

impl SensorRows {
    /// No rows yet; each row will hold the time and `values` values.
    pub fn new(values: usize) -> Self {
        SensorRows {
            width: values + 1,
            data: Vec::new(),
        }
    }

    /// Entries per row (the time and the values).
    pub fn width(&self) -> usize {
        self.width
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        self.data.len().checked_div(self.width).unwrap_or(0)
    }

    /// Whether there are no rows.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// Row `k`, if there is one.
    pub fn get(&self, k: usize) -> Option<&[f64]> {
        let w = self.width;
        self.data.get(k * w..(k + 1) * w)
    }

    /// The first row.
    pub fn first(&self) -> Option<&[f64]> {
        self.get(0)
    }

    /// The last row.
    pub fn last(&self) -> Option<&[f64]> {
        self.len().checked_sub(1).and_then(|k| self.get(k))
    }

    /// The rows in order.
    pub fn iter(&self) -> std::slice::ChunksExact<'_, f64> {
        self.data.chunks_exact(self.width.max(1))
    }

    /// All rows, one after the other.
    pub fn as_flat(&self) -> &[f64] {
        &self.data
    }

    /// The rows as separate vectors (the result file's `values`).
    pub fn to_vecs(&self) -> Vec<Vec<f64>> {
        self.iter().map(<[f64]>::to_vec).collect()
    }

    /// Append a row (`row.len()` must be the width).
    pub fn push(&mut self, row: &[f64]) {
        assert_eq!(row.len(), self.width, "sensor row width");
        self.data.extend_from_slice(row);
    }

    /// Drop every row.
    pub fn clear(&mut self) {
        self.data.clear();
    }

    /// Room for `rows` more rows.
    pub fn reserve(&mut self, rows: usize) {
        self.data.reserve(rows.saturating_mul(self.width));
    }
}

impl Index<usize> for SensorRows {
    type Output = [f64];
    fn index(&self, k: usize) -> &[f64] {
        let w = self.width;
        &self.data[k * w..(k + 1) * w]
    }
}

impl<'a> IntoIterator for &'a SensorRows {
    type Item = &'a [f64];
    type IntoIter = std::slice::ChunksExact<'a, f64>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}
