//! Products of small dense row-major blocks, specialized by their inner dimension.
//!
//! The block elimination ([`super::block_lu`]) multiplies blocks of 1–16 rows and columns, and
//! every product of one elimination step has the same inner dimension: the size of the block
//! being eliminated. The step is therefore written once, generic over that size as a constant
//! `K`, and dispatched once per block ([`with_block_size!`]); `K = 0` stands for a size known
//! only at run time (above [`UNROLLED`]). With the inner dimension a constant, each row's dot
//! product is unrolled into four independent partial sums and the rows are independent of one
//! another, so the processor overlaps them; a loop over a run-time length spends more on its
//! control (and on dividing lengths into rows) than on the products.

/// Block sizes up to this one have an unrolled form.
pub const UNROLLED: usize = 16;

/// Run `$f::<K>(args)` with `K` the block size `$s` as a constant, or `K = 0` (run-time size)
/// above [`UNROLLED`].
macro_rules! with_block_size {
    ($s:expr, $f:ident ( $($arg:expr),* )) => {
        match $s {
            1 => $f::<1>($($arg),*),
            2 => $f::<2>($($arg),*),
            3 => $f::<3>($($arg),*),
            4 => $f::<4>($($arg),*),
            5 => $f::<5>($($arg),*),
            6 => $f::<6>($($arg),*),
            7 => $f::<7>($($arg),*),
            8 => $f::<8>($($arg),*),
            9 => $f::<9>($($arg),*),
            10 => $f::<10>($($arg),*),
            11 => $f::<11>($($arg),*),
            12 => $f::<12>($($arg),*),
            13 => $f::<13>($($arg),*),
            14 => $f::<14>($($arg),*),
            15 => $f::<15>($($arg),*),
            16 => $f::<16>($($arg),*),
            _ => {
                debug_assert!($s > $crate::linear::small_dense::UNROLLED);
                $f::<0>($($arg),*)
            }
        }
    };
}
pub(crate) use with_block_size;

/// Σ p(k) over k < `len`, as four interleaved partial sums ((s₀ + s₁) + (s₂ + s₃), sᵢ the
/// sum of p(k) with k ≡ i mod 4). Each partial sum starts from its first product, not from
/// 0.0, and only the partial sums that exist are combined: adding 0.0 is not an identity the
/// compiler may drop (−0.0 + 0.0 = +0.0), so the textbook form spent an addition per partial
/// sum on it, a third of a dot product of length 3. The same bits but for the sign of a zero
/// (`partial_sums_start_from_their_first_product`).
#[inline(always)]
fn interleaved_sum(len: usize, p: impl Fn(usize) -> f64) -> f64 {
    let lanes = len.min(4);
    let mut s = [0.0f64; 4];
    #[allow(clippy::needless_range_loop)] // k is also the term's index
    for k in 0..lanes {
        s[k] = p(k);
    }
    for k in lanes..len {
        s[k % 4] += p(k);
    }
    match lanes {
        0 => 0.0,
        1 => s[0],
        2 => s[0] + s[1],
        3 => (s[0] + s[1]) + s[2],
        _ => (s[0] + s[1]) + (s[2] + s[3]),
    }
}

/// Σ a[k]·x[k] over a constant length.
#[inline(always)]
fn dot<const K: usize>(a: &[f64; K], x: &[f64; K]) -> f64 {
    interleaved_sum(K, |k| a[k] * x[k])
}

#[inline(always)]
fn dot_dyn(a: &[f64], x: &[f64]) -> f64 {
    let len = a.len().min(x.len());
    let (a, x) = (&a[..len], &x[..len]);
    interleaved_sum(len, |k| a[k] * x[k])
}

/// y −= A·x (`SUBTRACT`) or y = A·x, A row-major with `y.len()` rows and `x.len()` columns;
/// `K` is `x.len()` as a constant, or 0.
#[inline(always)]
pub fn mat_vec<const K: usize, const SUBTRACT: bool>(a: &[f64], x: &[f64], y: &mut [f64]) {
    let store = |y: &mut f64, product: f64| {
        if SUBTRACT {
            *y -= product;
        } else {
            *y = product;
        }
    };
    if K == 0 {
        let k = x.len();
        for (r, y) in y.iter_mut().enumerate() {
            store(y, dot_dyn(&a[r * k..r * k + k], x));
        }
    } else {
        let x: &[f64; K] = x[..K].try_into().expect("vector of the inner dimension");
        let a = &a[..y.len() * K];
        for (r, y) in y.iter_mut().enumerate() {
            let row: &[f64; K] = a[r * K..r * K + K].try_into().expect("row");
            store(y, dot(row, x));
        }
    }
}

/// T −= L·U (`SUBTRACT`) or T = L·U: T is m × q, L m × p, U p × q, all row-major (m from T's
/// length); `P` is p as a constant, or 0.
#[inline(always)]
pub fn mat_mul<const P: usize, const SUBTRACT: bool>(
    t: &mut [f64],
    l: &[f64],
    u: &[f64],
    p: usize,
    q: usize,
) {
    debug_assert!(P == 0 || P == p);
    let p = if P == 0 { p } else { P };
    let m = t.len() / q.max(1);
    let (l, u) = (&l[..m * p], &u[..p * q]);
    for r in 0..m {
        let lr = &l[r * p..r * p + p];
        let tr = &mut t[r * q..r * q + q];
        for (c, t) in tr.iter_mut().enumerate() {
            let product = interleaved_sum(p, |k| lr[k] * u[k * q + c]);
            if SUBTRACT {
                *t -= product;
            } else {
                *t = product;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn numbers(n: usize, seed: u64) -> Vec<f64> {
        let mut state = seed;
        (0..n)
            .map(|_| {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                ((state >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
            })
            .collect()
    }

    /// The four products at inner dimension `K` (0: run time) against the textbook sums.
    fn check<const K: usize>(k: usize) {
        for m in [1, 3, 8] {
            let a = numbers(m * k, k as u64);
            let x = numbers(k, 100 + k as u64);
            let want: Vec<f64> = (0..m)
                .map(|r| (0..k).map(|j| a[r * k + j] * x[j]).sum::<f64>())
                .collect();
            let mut y = vec![0.0; m];
            mat_vec::<K, false>(&a, &x, &mut y);
            let mut z = vec![1.0; m];
            mat_vec::<K, true>(&a, &x, &mut z);
            for r in 0..m {
                assert!((y[r] - want[r]).abs() < 1e-14, "k = {k}");
                assert!((z[r] - (1.0 - want[r])).abs() < 1e-14, "k = {k}");
            }
            let q = 5;
            let u = numbers(k * q, 200 + k as u64);
            let mut t = vec![2.0; m * q];
            mat_mul::<K, true>(&mut t, &a, &u, k, q);
            let mut product = vec![2.0; m * q];
            mat_mul::<K, false>(&mut product, &a, &u, k, q);
            for r in 0..m {
                for c in 0..q {
                    let s: f64 = (0..k).map(|j| a[r * k + j] * u[j * q + c]).sum();
                    assert!((t[r * q + c] - (2.0 - s)).abs() < 1e-14, "k = {k}");
                    assert!((product[r * q + c] - s).abs() < 1e-14, "k = {k}");
                }
            }
        }
    }

    /// The partial sums of a product start from their first term instead of 0.0 and only the
    /// ones that exist are added: the same bits as the form with four sums from 0.0 (up to the
    /// sign of a zero), at every length.
    #[test]
    fn partial_sums_start_from_their_first_product() {
        for len in 0..=UNROLLED + 3 {
            let a = numbers(len, 7 + len as u64);
            let x = numbers(len, 300 + len as u64);
            let mut s = [0.0f64; 4];
            for k in 0..len {
                s[k % 4] += a[k] * x[k];
            }
            let textbook = (s[0] + s[1]) + (s[2] + s[3]);
            let sum = interleaved_sum(len, |k| a[k] * x[k]);
            assert_eq!(sum.to_bits(), textbook.to_bits(), "length {len}");
            assert_eq!(
                dot_dyn(&a, &x).to_bits(),
                textbook.to_bits(),
                "length {len}"
            );
        }
    }

    #[test]
    fn every_inner_dimension_computes_the_textbook_products() {
        for k in 1..=UNROLLED + 3 {
            with_block_size!(k, check(k));
            // the run-time form at every size too
            check::<0>(k);
        }
    }
}
