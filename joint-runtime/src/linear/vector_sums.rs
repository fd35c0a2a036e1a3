//! Sums over long vectors (all unknowns of a system) that the solvers take at every Newton
//! iteration.

/// Σ a_i·b_i (over the shorter length) in four interleaved partial sums: a sum in one
/// accumulator waits for each addition, a chain as long as the vector (700–7000 entries on
/// the chains); four let the additions overlap and the compiler pair them in vector
/// registers. Another rounding than the sum in order: for norms and coefficients that only
/// weigh or test increments (Anderson's mixing, the divergence test).
pub(crate) fn dot(a: &[f64], b: &[f64]) -> f64 {
    let len = a.len().min(b.len());
    let (a, b) = (a[..len].chunks_exact(4), b[..len].chunks_exact(4));
    let tail: f64 = (a.remainder().iter().zip(b.remainder()))
        .map(|(x, y)| x * y)
        .sum();
    let mut s = [0.0f64; 4];
    for (x, y) in a.zip(b) {
        for k in 0..4 {
            s[k] += x[k] * y[k];
        }
    }
    ((s[0] + s[1]) + (s[2] + s[3])) + tail
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The partial sums cover every entry, the tail after the last group of four included:
    /// on integers every order of summation is exact.
    #[test]
    fn dot_sums_every_entry_at_every_length() {
        for len in 0..13 {
            let a: Vec<f64> = (0..len).map(|i| f64::from(i + 1)).collect();
            let b: Vec<f64> = (0..len).map(|i| f64::from(2 * i - 3)).collect();
            let expected: i32 = (0..len).map(|i| (i + 1) * (2 * i - 3)).sum();
            assert_eq!(dot(&a, &b), f64::from(expected), "length {len}");
        }
        // the shorter operand's length
        assert_eq!(dot(&[1.0, 2.0, 3.0], &[1.0, 1.0]), 3.0);
    }
}
