//! Lists of fixed-size rows and of matrices, with their sizes in the messages.

use crate::error::Result;
use crate::model::fields::{Dict, describe};

/// A list of fixed-size numeric arrays (`[[…], …]`), e.g. Exudyn's Vector3DList.
pub(super) fn list_of<const N: usize>(d: &mut Dict, key: &'static str) -> Result<Vec<[f64; N]>> {
    let Some(v) = d.get(key) else {
        return Ok(Vec::new());
    };
    let a = v.as_array().ok_or_else(|| {
        d.err(
            key,
            format!("expected a list of {N}-vectors, found {}", describe(v)),
        )
    })?;
    let mut out = Vec::with_capacity(a.len());
    for (i, e) in a.iter().enumerate() {
        let row = e.as_array().filter(|r| r.len() == N).ok_or_else(|| {
            d.err(
                key,
                format!("entry {i}: expected {N} numbers, found {}", describe(e)),
            )
        })?;
        let mut x = [0.0; N];
        for (k, n) in row.iter().enumerate() {
            x[k] = n.as_f64().filter(|f| f.is_finite()).ok_or_else(|| {
                d.err(
                    key,
                    format!(
                        "entry {i}, element {k}: expected a finite number, found {}",
                        describe(n)
                    ),
                )
            })?;
        }
        out.push(x);
    }
    Ok(out)
}

/// A list of R × C matrices (Exudyn's Matrix3DList, or a list of 4 × 4 HTs).
pub(super) fn matrices_of<const R: usize, const C: usize>(
    d: &mut Dict,
    key: &'static str,
) -> Result<Vec<[[f64; C]; R]>> {
    let Some(v) = d.get(key) else {
        return Ok(Vec::new());
    };
    let a = v.as_array().ok_or_else(|| {
        d.err(
            key,
            format!("expected a list of {R}×{C} matrices, found {}", describe(v)),
        )
    })?;
    let mut out = Vec::with_capacity(a.len());
    for (i, m) in a.iter().enumerate() {
        let rows = m.as_array().filter(|r| r.len() == R).ok_or_else(|| {
            d.err(
                key,
                format!(
                    "entry {i}: expected a {R}×{C} matrix, found {}",
                    describe(m)
                ),
            )
        })?;
        let mut x = [[0.0; C]; R];
        for (r, row) in rows.iter().enumerate() {
            let cols = row.as_array().filter(|c| c.len() == C).ok_or_else(|| {
                d.err(
                    key,
                    format!(
                        "entry {i}, row {r}: expected {C} numbers, found {}",
                        describe(row)
                    ),
                )
            })?;
            for (c, n) in cols.iter().enumerate() {
                x[r][c] = n.as_f64().filter(|f| f.is_finite()).ok_or_else(|| {
                    d.err(
                        key,
                        format!(
                            "entry {i}, row {r}: expected a finite number, found {}",
                            describe(n)
                        ),
                    )
                })?;
            }
        }
        out.push(x);
    }
    Ok(out)
}
