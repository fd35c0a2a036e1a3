//! Block elimination of a sparse iteration matrix along the graph of its bodies and joints
//! (the fast path's factorization of sparse systems).
//!
//! The iteration matrix of a multibody system is a sparse matrix of small dense blocks: a body's
//! coordinates with its own algebraic equations (an Euler-parameter body's normalization), a
//! joint's multipliers, coupled where a joint's markers sit on the body. Eliminating it block by
//! block — each block's diagonal inverted, the Schur complement pushed onto the blocks it couples
//! to — is Baraff's linear-time elimination ("Linear-time dynamics using Lagrange multipliers",
//! SIGGRAPH 1996) in the general form of a block LU on the quotient graph:
//!
//! - **Symbolic, once** ([`BlockLu::new`]): the unknowns with the same neighbours (of A + Aᵀ) form
//!   supervariables; a supervariable whose neighbours all neighbour a larger one is merged into
//!   it, and supervariables with the same neighbours that do not touch each other are merged,
//!   up to [`MAX_MERGED_BLOCK`](super::block_order::MAX_MERGED_BLOCK) unknowns: a body's position, rotation and normalization
//!   multiplier become one block, a joint's multipliers another (each of its rows reaches other
//!   coordinates of the same two bodies), and a body and the multipliers of a joint that ties it
//!   to ground alone one. The blocks are ordered by minimum degree among those whose diagonal block is
//!   structurally non-singular as assembled, or whose neighbours have all been eliminated: a
//!   joint's multipliers (a zero diagonal block) wait for the bodies they act on, so a chain is
//!   eliminated body by body, then the joints' multipliers along it (a block-tridiagonal
//!   system of the joints). Every dense block the elimination reads or
//!   writes gets its place in one flat array; the order of all block operations is fixed.
//! - **Numeric, at each Jacobian** ([`BlockLu::factorize`]): the matrix's entries are scattered
//!   into their blocks, each diagonal block inverted (Gauss–Jordan, partial pivoting within the
//!   block), and the couplings and Schur complements formed by small dense products.
//! - **Solve** ([`BlockLu::solve_in_place`]): forward and back substitution by block products,
//!   the back substitution by columns (a block's unknowns, once known, subtracted from the
//!   earlier blocks'). Every block row of a product is independent of the others, where a scalar
//!   sparse LU's substitution is one chain of dependent operations (docs/performance.md,
//!   "Supernodal triangular solves").
//!
//! Every product of one block's elimination step, in the factorization and in both
//! substitutions, has that block's size as its inner dimension, so each step is written once,
//! generic over the size as a constant, and dispatched once per block
//! ([`small_dense::with_block_size!`](super::small_dense)).
//!
//! Pivoting is confined to the diagonal blocks, so a diagonal block that turns out singular is
//! reported ([`SingularColumn`]) and the caller falls back to the general sparse LU. A pattern
//! whose block elimination would fill more than [`MAX_STORAGE_PER_ENTRY`](super::block_order::MAX_STORAGE_PER_ENTRY) times its entries is
//! not taken ([`BlockLu::new`] returns `None`).

use super::block_order::{Blocks, Elimination, elimination_order, merged_blocks};
use super::dense_lu::SingularColumn;
use super::small_dense::{mat_mul, mat_vec, with_block_size};
use super::sparse_matrix::SparseMatrix;

/// A coupling of the block being eliminated (k) to a later block (i).
#[derive(Clone, Copy, Debug)]
struct Coupling {
    /// The later block: its position in the elimination order, its first position among the
    /// unknowns and its size.
    block: u32,
    start: u32,
    len: u32,
    /// Offset of A_ik (s_i × s_k, row-major), which the factorization turns into L_ik = A_ik·D_k⁻¹.
    lower: usize,
    /// Offset of A_ki (s_k × s_i), U's block.
    upper: usize,
}

/// An upper coupling seen from its later block j: U_kj of an earlier block k, which the back
/// substitution subtracts from block k's unknowns once block j's are known.
#[derive(Clone, Copy, Debug)]
struct EarlierCoupling {
    /// Block k's first position among the unknowns and its size.
    start: u32,
    len: u32,
    /// Offset of U_kj (s_k × s_j, row-major).
    upper: usize,
}

/// A Schur-complement update of the elimination of block k: A_ij −= L_ik · U_kj.
#[derive(Clone, Copy, Debug)]
struct Update {
    lower: usize,
    upper: usize,
    target: usize,
    /// s_i and s_j (s_k is the eliminated block's size).
    rows: u32,
    columns: u32,
}

/// The block LU factors of a [`SparseMatrix`] whose pattern is fixed.
#[derive(Debug)]
pub struct BlockLu {
    n: usize,
    /// Position in the elimination order → the unknown there.
    columns: Vec<usize>,
    /// Block k (in elimination order) holds positions `block_starts[k]..block_starts[k + 1]`.
    block_starts: Vec<usize>,
    /// Offset of block k's diagonal block (row-major; its inverse after the factorization).
    diagonal: Vec<usize>,
    /// Block k's couplings to later blocks: `couplings[coupling_starts[k]..coupling_starts[k + 1]]`.
    coupling_starts: Vec<usize>,
    couplings: Vec<Coupling>,
    /// Block j's upper couplings from earlier blocks:
    /// `earlier[earlier_starts[j]..earlier_starts[j + 1]]`.
    earlier_starts: Vec<usize>,
    earlier: Vec<EarlierCoupling>,
    /// Block k's Schur updates: `updates[update_starts[k]..update_starts[k + 1]]`.
    update_starts: Vec<usize>,
    updates: Vec<Update>,
    /// Where each stored entry of the sparse matrix (in its storage order) goes in `values`.
    scatter: Vec<usize>,
    values: Vec<f64>,
    /// Workspace: one block's pivots, a copy of one coupling block; the permuted right-hand side.
    pivots: Vec<usize>,
    scratch: Vec<f64>,
    work: Vec<f64>,
    factorized: bool,
}

impl BlockLu {
    /// The symbolic part for `pattern` (the sparse matrix's positions, with `recorded`, the
    /// positions the assembly writes: the diagonal the matrix adds to every column may be
    /// structurally zero). `None` where the block elimination does not apply: no order keeps every
    /// diagonal block structurally non-singular, or its fill would exceed
    /// [`MAX_STORAGE_PER_ENTRY`](super::block_order::MAX_STORAGE_PER_ENTRY).
    pub fn new(pattern: &SparseMatrix, recorded: &[(usize, usize)]) -> Option<Self> {
        let n = pattern.size();
        if n == 0 || n > u32::MAX as usize {
            return None;
        }
        let (starts, rows) = (pattern.column_starts(), pattern.row_indices());
        let blocks = merged_blocks(n, starts, rows);
        let order = elimination_order(n, &blocks, starts, rows, recorded, pattern.nnz())?;
        Some(Self::laid_out(n, &blocks, &order, starts, rows))
    }

    /// Place every block the elimination touches, in elimination order, and list its operations.
    fn laid_out(
        n: usize,
        blocks: &Blocks,
        order: &Elimination,
        starts: &[usize],
        rows: &[usize],
    ) -> Self {
        let nb = order.sequence.len();
        let size = |b: u32| blocks.members[b as usize].len();
        // position of each block in the order, and of each unknown
        let mut rank = vec![0u32; nb];
        for (k, &b) in order.sequence.iter().enumerate() {
            rank[b as usize] = k as u32;
        }
        let mut columns = Vec::with_capacity(n);
        let mut block_starts = Vec::with_capacity(nb + 1);
        for &b in &order.sequence {
            block_starts.push(columns.len());
            columns.extend_from_slice(&blocks.members[b as usize]);
        }
        block_starts.push(n);
        let mut local = vec![0usize; n];
        for &b in &order.sequence {
            for (l, &c) in blocks.members[b as usize].iter().enumerate() {
                local[c] = l;
            }
        }
        // storage: diagonal blocks, then per eliminated block its lower and upper couplings
        let mut offset = 0usize;
        let mut diagonal = vec![0usize; nb];
        for (k, &b) in order.sequence.iter().enumerate() {
            diagonal[k] = offset;
            offset += size(b) * size(b);
        }
        let mut place = Places(vec![Vec::new(); nb]);
        let mut coupling_starts = Vec::with_capacity(nb + 1);
        let mut couplings = Vec::new();
        for (k, &b) in order.sequence.iter().enumerate() {
            coupling_starts.push(couplings.len());
            let mut later: Vec<u32> = order.later_neighbours[k].clone();
            later.sort_unstable_by_key(|&i| rank[i as usize]);
            for i in later {
                let (si, sk) = (size(i), size(b));
                let lower = offset;
                let upper = offset + si * sk;
                offset += 2 * si * sk;
                place.insert(i, b, lower);
                place.insert(b, i, upper);
                couplings.push(Coupling {
                    block: rank[i as usize],
                    start: 0,
                    len: si as u32,
                    lower,
                    upper,
                });
            }
        }
        coupling_starts.push(couplings.len());
        for c in &mut couplings {
            c.start = block_starts[c.block as usize] as u32;
        }
        let mut earlier_of: Vec<Vec<EarlierCoupling>> = vec![Vec::new(); nb];
        for k in 0..nb {
            for c in &couplings[coupling_starts[k]..coupling_starts[k + 1]] {
                earlier_of[c.block as usize].push(EarlierCoupling {
                    start: block_starts[k] as u32,
                    len: (block_starts[k + 1] - block_starts[k]) as u32,
                    upper: c.upper,
                });
            }
        }
        let mut earlier_starts = Vec::with_capacity(nb + 1);
        let mut earlier = Vec::with_capacity(couplings.len());
        for list in earlier_of {
            earlier_starts.push(earlier.len());
            earlier.extend(list);
        }
        earlier_starts.push(earlier.len());
        let mut update_starts = Vec::with_capacity(nb + 1);
        let mut updates = Vec::new();
        for k in 0..nb {
            update_starts.push(updates.len());
            let ks = &couplings[coupling_starts[k]..coupling_starts[k + 1]];
            for ci in ks {
                let i = order.sequence[ci.block as usize];
                for cj in ks {
                    let j = order.sequence[cj.block as usize];
                    let target = if i == j {
                        diagonal[ci.block as usize]
                    } else {
                        place.get(i, j)
                    };
                    updates.push(Update {
                        lower: ci.lower,
                        upper: cj.upper,
                        target,
                        rows: size(i) as u32,
                        columns: size(j) as u32,
                    });
                }
            }
        }
        update_starts.push(updates.len());
        // each stored entry of the sparse matrix into its block
        let mut scatter = Vec::with_capacity(rows.len());
        for c in 0..n {
            let bc = blocks.block_of[c];
            for &r in &rows[starts[c]..starts[c + 1]] {
                let br = blocks.block_of[r];
                let at = if br == bc {
                    diagonal[rank[br as usize] as usize] + local[r] * size(br) + local[c]
                } else {
                    place.get(br, bc) + local[r] * size(bc) + local[c]
                };
                scatter.push(at);
            }
        }
        let largest = blocks.members.iter().map(Vec::len).max().unwrap_or(0);
        BlockLu {
            n,
            columns,
            block_starts,
            diagonal,
            coupling_starts,
            couplings,
            earlier_starts,
            earlier,
            update_starts,
            updates,
            scatter,
            values: vec![0.0; offset],
            pivots: vec![0; largest],
            scratch: vec![0.0; largest * largest],
            work: vec![0.0; n],
            factorized: false,
        }
    }

    /// Number of blocks.
    #[cfg(test)]
    pub fn blocks(&self) -> usize {
        self.diagonal.len()
    }

    /// Values stored for the factors (the diagonal blocks' inverses and the couplings).
    pub fn stored_values(&self) -> usize {
        self.values.len()
    }

    /// The numeric part: factorize `matrix` (the pattern of [`BlockLu::new`]).
    ///
    /// A diagonal block that is singular (as far as pivoting within it can tell) is reported with
    /// the unknown whose pivot failed.
    pub fn factorize(&mut self, matrix: &SparseMatrix) -> Result<(), SingularColumn> {
        assert_eq!(matrix.nnz(), self.scatter.len(), "matrix pattern");
        self.factorized = false;
        self.values.fill(0.0);
        for (&at, &v) in self.scatter.iter().zip(matrix.values()) {
            self.values[at] = v;
        }
        for k in 0..self.diagonal.len() {
            let sk = self.block_starts[k + 1] - self.block_starts[k];
            let step = EliminationStep {
                diagonal: self.diagonal[k],
                size: sk,
                couplings: &self.couplings[self.coupling_starts[k]..self.coupling_starts[k + 1]],
                updates: &self.updates[self.update_starts[k]..self.update_starts[k + 1]],
            };
            let (values, scratch, pivots) = (&mut self.values, &mut self.scratch, &mut self.pivots);
            with_block_size!(sk, eliminate(step, values, scratch, pivots))
                .map_err(|l| SingularColumn(self.columns[self.block_starts[k] + l]))?;
        }
        self.factorized = true;
        Ok(())
    }

    /// Solve `A x = b` in place (`x` holds b on entry).
    pub fn solve_in_place(&mut self, x: &mut [f64]) {
        assert!(self.factorized, "solve before a successful factorization");
        assert_eq!(x.len(), self.n, "right-hand side size");
        for (w, &c) in self.work.iter_mut().zip(&self.columns) {
            *w = x[c];
        }
        let nb = self.diagonal.len();
        let (values, work) = (&self.values, &mut self.work);
        // forward: w_i −= L_ik · w_k for the later blocks i
        for k in 0..nb {
            let (k0, k1) = (self.block_starts[k], self.block_starts[k + 1]);
            let couplings = &self.couplings[self.coupling_starts[k]..self.coupling_starts[k + 1]];
            with_block_size!(k1 - k0, forward(values, couplings, k0, k1, work));
        }
        // backward, by columns: w_j = D_j⁻¹ w_j, then w_k −= U_kj · w_j for the earlier blocks k
        for j in (0..nb).rev() {
            let (j0, j1) = (self.block_starts[j], self.block_starts[j + 1]);
            let earlier = &self.earlier[self.earlier_starts[j]..self.earlier_starts[j + 1]];
            let (d, scratch) = (self.diagonal[j], &mut self.scratch);
            with_block_size!(j1 - j0, backward(values, d, earlier, j0, j1, work, scratch));
        }
        for (&w, &c) in self.work.iter().zip(&self.columns) {
            x[c] = w;
        }
    }
}

/// Where each off-diagonal block (i, j) is stored: per block row i, its (j, offset) pairs. A
/// block couples to a few others, so a scan beats hashing (the scatter looks up every entry of
/// the sparse pattern).
struct Places(Vec<Vec<(u32, usize)>>);

impl Places {
    fn insert(&mut self, i: u32, j: u32, offset: usize) {
        self.0[i as usize].push((j, offset));
    }

    fn get(&self, i: u32, j: u32) -> usize {
        let row = &self.0[i as usize];
        row.iter()
            .find(|&&(c, _)| c == j)
            .map(|&(_, offset)| offset)
            .expect("every coupled pair of blocks has its place")
    }
}

/// What the factorization does when it eliminates one block.
#[derive(Clone, Copy)]
struct EliminationStep<'a> {
    diagonal: usize,
    size: usize,
    couplings: &'a [Coupling],
    updates: &'a [Update],
}

/// Eliminate one block of `K` unknowns (`K = 0`: `step.size`, known at run time): invert its
/// diagonal block, form L_ik = A_ik · D_k⁻¹ and the Schur updates A_ij −= L_ik · U_kj. Every
/// product has the block's size as inner dimension. The error is the local column whose pivot
/// failed.
#[inline(always)]
fn eliminate<const K: usize>(
    step: EliminationStep,
    values: &mut [f64],
    scratch: &mut [f64],
    pivots: &mut [usize],
) -> Result<(), usize> {
    let (d, sk) = (step.diagonal, step.size);
    invert_in_place(&mut values[d..d + sk * sk], sk, pivots)?;
    for c in step.couplings {
        let a = &mut scratch[..c.len as usize * sk];
        a.copy_from_slice(&values[c.lower..c.lower + a.len()]);
        let (head, tail) = values.split_at_mut(c.lower);
        mat_mul::<K, false>(&mut tail[..a.len()], a, &head[d..d + sk * sk], sk, sk);
    }
    for u in step.updates {
        let (m, q) = (u.rows as usize, u.columns as usize);
        let (target, lower, upper) = disjoint(
            values,
            (u.target, m * q),
            (u.lower, m * sk),
            (u.upper, sk * q),
        );
        mat_mul::<K, true>(target, lower, upper, sk, q);
    }
    Ok(())
}

/// Forward substitution of the block at positions `k0..k1` (`K` unknowns, or 0: run time):
/// w_i −= L_ik · w_k for its later blocks i.
#[inline(always)]
fn forward<const K: usize>(
    values: &[f64],
    couplings: &[Coupling],
    k0: usize,
    k1: usize,
    work: &mut [f64],
) {
    let sk = k1 - k0;
    let (head, tail) = work.split_at_mut(k1);
    let wk = &head[k0..];
    for c in couplings {
        let (i0, si) = (c.start as usize - k1, c.len as usize);
        mat_vec::<K, true>(
            &values[c.lower..c.lower + si * sk],
            wk,
            &mut tail[i0..i0 + si],
        );
    }
}

/// Back substitution of the block at positions `j0..j1` (`K` unknowns, or 0: run time), whose
/// later blocks are done: w_j = D_j⁻¹ w_j, then w_k −= U_kj · w_j for its earlier blocks k.
#[inline(always)]
fn backward<const K: usize>(
    values: &[f64],
    diagonal: usize,
    earlier: &[EarlierCoupling],
    j0: usize,
    j1: usize,
    work: &mut [f64],
    scratch: &mut [f64],
) {
    let sj = j1 - j0;
    // the earlier blocks lie before j0
    let (before, rest) = work.split_at_mut(j0);
    let wj = &mut rest[..sj];
    let rhs = &mut scratch[..sj];
    rhs.copy_from_slice(wj);
    mat_vec::<K, false>(&values[diagonal..diagonal + sj * sj], rhs, wj);
    let wj = &*wj;
    for c in earlier {
        let (k0, sk) = (c.start as usize, c.len as usize);
        mat_vec::<K, true>(
            &values[c.upper..c.upper + sk * sj],
            wj,
            &mut before[k0..k0 + sk],
        );
    }
}

/// The writable block at `a` and the readable blocks at `b` and `c` of `values` (three disjoint
/// ranges given as offset and length).
fn disjoint(
    values: &mut [f64],
    a: (usize, usize),
    b: (usize, usize),
    c: (usize, usize),
) -> (&mut [f64], &[f64], &[f64]) {
    let (ptr, len) = (values.as_mut_ptr(), values.len());
    for (o, l) in [a, b, c] {
        assert!(o + l <= len, "block outside the factor storage");
    }
    assert!(
        (a.0 + a.1 <= b.0 || b.0 + b.1 <= a.0) && (a.0 + a.1 <= c.0 || c.0 + c.1 <= a.0),
        "written block overlaps a read one"
    );
    // SAFETY: all three ranges lie within `values` (checked above) and the written one overlaps
    // neither read one (checked above); the two read ranges may alias each other, which shared
    // references allow.
    unsafe {
        (
            std::slice::from_raw_parts_mut(ptr.add(a.0), a.1),
            std::slice::from_raw_parts(ptr.add(b.0), b.1),
            std::slice::from_raw_parts(ptr.add(c.0), c.1),
        )
    }
}

/// Invert the row-major `s × s` block `a` in place: Gauss–Jordan elimination with partial
/// pivoting, each column of the inverse stored where the eliminated column was, then the row
/// interchanges undone as column interchanges in reverse order ((P·A)⁻¹·P = A⁻¹). The error is
/// the elimination step (local column) whose best pivot was not finite or at most 1e-14 of the
/// block's largest entry (singular within the block).
fn invert_in_place(a: &mut [f64], s: usize, pivots: &mut [usize]) -> Result<(), usize> {
    let largest = a.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    for k in 0..s {
        let mut p = k;
        let mut best = a[k * s + k].abs();
        for i in k + 1..s {
            let v = a[i * s + k].abs();
            if v > best {
                best = v;
                p = i;
            }
        }
        // a pivot at round-off of the block's largest entry: singular within the block
        if !(best > largest * 1e-14) || !best.is_finite() {
            return Err(k);
        }
        pivots[k] = p;
        if p != k {
            for j in 0..s {
                a.swap(k * s + j, p * s + j);
            }
        }
        let inverse = 1.0 / a[k * s + k];
        a[k * s + k] = 1.0;
        for v in &mut a[k * s..(k + 1) * s] {
            *v *= inverse;
        }
        let (before, rest) = a.split_at_mut(k * s);
        let (pivot_row, after) = rest.split_at_mut(s);
        for r in before.chunks_exact_mut(s).chain(after.chunks_exact_mut(s)) {
            let f = r[k];
            if f != 0.0 {
                r[k] = 0.0;
                for (v, &pv) in r.iter_mut().zip(pivot_row.iter()) {
                    *v -= f * pv;
                }
            }
        }
    }
    for k in (0..s).rev() {
        let p = pivots[k];
        if p != k {
            for r in a.chunks_exact_mut(s) {
                r.swap(k, p);
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::linear::MatrixAccumulator;
    use crate::linear::dense_lu::DenseLu;

    struct Numbers(u64);
    impl Numbers {
        /// Uniform in [−1, 1).
        fn next(&mut self) -> f64 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((self.0 >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
        }
    }

    /// A sparse matrix from (row, column, value) entries (repeats add), and the same densely.
    fn matrices(n: usize, entries: &[(usize, usize, f64)]) -> (SparseMatrix, Vec<f64>) {
        let positions: Vec<_> = entries.iter().map(|&(r, c, _)| (r, c)).collect();
        let mut sparse = SparseMatrix::from_positions(n, &positions);
        let mut dense = vec![0.0; n * n];
        for &(r, c, v) in entries {
            sparse.add(r, c, v);
            dense[r * n + c] += v;
        }
        (sparse, dense)
    }

    /// The saddle-point matrix of a chain of `bodies` bodies (4 coordinates each, a symmetric
    /// positive definite block) joined by joints of 2 multipliers, the first body jointed to
    /// ground: the coordinates first, then the multipliers, as the solvers number them.
    /// `blind_row`: the joints' first row does not depend on the first body's coordinates
    /// (zero values at assembled positions).
    fn chain(bodies: usize, blind_row: bool, seed: u64) -> (usize, Vec<(usize, usize, f64)>) {
        let (sb, sj) = (4, 2);
        let n = bodies * (sb + sj);
        let mut rng = Numbers(seed);
        let mut entries = Vec::new();
        for b in 0..bodies {
            // M = RᵀR + 4·I
            let r: Vec<f64> = (0..sb * sb).map(|_| rng.next()).collect();
            for i in 0..sb {
                for j in 0..sb {
                    let mut m: f64 = (0..sb).map(|k| r[k * sb + i] * r[k * sb + j]).sum();
                    if i == j {
                        m += 4.0;
                    }
                    entries.push((b * sb + i, b * sb + j, m));
                }
            }
        }
        for joint in 0..bodies {
            let row0 = bodies * sb + joint * sj;
            let on: Vec<usize> = if joint == 0 {
                vec![0]
            } else {
                vec![joint - 1, joint]
            };
            for (side, &b) in on.iter().enumerate() {
                for i in 0..sj {
                    for j in 0..sb {
                        let blind = blind_row && i == 0 && side == 0 && on.len() == 2;
                        let v = if blind { 0.0 } else { rng.next() };
                        entries.push((row0 + i, b * sb + j, v));
                        entries.push((b * sb + j, row0 + i, v));
                    }
                }
            }
        }
        (n, entries)
    }

    fn solve_both(n: usize, entries: &[(usize, usize, f64)], seed: u64) -> (Vec<f64>, Vec<f64>) {
        let (sparse, dense) = matrices(n, entries);
        let recorded: Vec<_> = sparse.recorded_positions().collect();
        let mut blocks = BlockLu::new(&sparse, &recorded).expect("block elimination taken");
        blocks
            .factorize(&sparse)
            .expect("non-singular diagonal blocks");
        let mut rng = Numbers(seed);
        let b: Vec<f64> = (0..n).map(|_| rng.next()).collect();
        let mut x = b.clone();
        blocks.solve_in_place(&mut x);
        let mut lu = DenseLu::new(n);
        lu.factorize(&dense).unwrap();
        let mut want = b;
        let mut scratch = vec![0.0; n];
        lu.solve_in_place(&mut want, &mut scratch);
        (x, want)
    }

    fn assert_close(x: &[f64], want: &[f64]) {
        let scale = want.iter().fold(1.0f64, |m, v| m.max(v.abs()));
        for (i, (a, b)) in x.iter().zip(want).enumerate() {
            assert!((a - b).abs() < 1e-12 * scale, "x[{i}] = {a}, dense LU {b}");
        }
    }

    #[test]
    fn inverts_blocks_that_need_row_interchanges() {
        // a saddle point [[M, Cᵀ], [C, 0]]: the zero diagonal needs the interchanges
        let a = [
            2.0, 0.5, 1.0, 0.0, //
            0.5, 3.0, 0.0, 1.0, //
            1.0, 0.0, 0.0, 0.0, //
            0.0, 1.0, 0.0, 0.0,
        ];
        let mut inverse = a;
        let mut pivots = [0; 4];
        invert_in_place(&mut inverse, 4, &mut pivots).unwrap();
        for i in 0..4 {
            for j in 0..4 {
                let p: f64 = (0..4).map(|k| a[i * 4 + k] * inverse[k * 4 + j]).sum();
                let id = if i == j { 1.0 } else { 0.0 };
                assert!((p - id).abs() < 1e-15, "(A·A⁻¹)[{i}][{j}] = {p}");
            }
        }
        let mut singular = [1.0, 2.0, 2.0, 4.0];
        assert_eq!(invert_in_place(&mut singular, 2, &mut pivots), Err(1));
    }

    #[test]
    fn a_chain_is_eliminated_by_bodies_then_joints_and_solves_as_the_dense_lu() {
        let (n, entries) = chain(30, false, 7);
        let (sparse, _) = matrices(n, &entries);
        let recorded: Vec<_> = sparse.recorded_positions().collect();
        let blocks = BlockLu::new(&sparse, &recorded).unwrap();
        // 30 bodies and 29 joints; the ground joint merged into its body
        assert_eq!(blocks.blocks(), 59);
        // every block couples to at most two later ones: no fill beyond the joints' chain
        let most = (0..blocks.blocks())
            .map(|k| blocks.coupling_starts[k + 1] - blocks.coupling_starts[k])
            .max();
        assert_eq!(most, Some(2));
        let (x, want) = solve_both(n, &entries, 11);
        assert_close(&x, &want);
    }

    /// perf3DRigidBodies' revolute joints have rows that one of their two bodies' coordinates
    /// do not move at a configuration: eliminated right after that body alone, such a joint's
    /// diagonal block was singular and the whole solve fell back to the sparse LU.
    #[test]
    fn a_joint_row_one_body_does_not_move_waits_for_the_other_body() {
        let (n, entries) = chain(12, true, 3);
        let (x, want) = solve_both(n, &entries, 5);
        assert_close(&x, &want);
    }

    #[test]
    fn a_singular_diagonal_block_is_reported_with_its_unknown() {
        // a body of two coordinates whose block is singular, beside a regular one
        let entries = [
            (0, 0, 1.0),
            (0, 1, 1.0),
            (1, 0, 1.0),
            (1, 1, 1.0),
            (2, 2, 3.0),
        ];
        let (sparse, _) = matrices(3, &entries);
        let recorded: Vec<_> = sparse.recorded_positions().collect();
        let mut blocks = BlockLu::new(&sparse, &recorded).unwrap();
        assert_eq!(blocks.factorize(&sparse), Err(SingularColumn(1)));
    }
}
