//! Numeric refactorization along a recorded elimination (KLU's "refactor" idea, made exact).
//!
//! faer's simplicial LU is Gilbert–Peierls left-looking elimination with partial pivoting: for
//! each column it finds, by a depth-first search over L, the rows its sparse triangular solve
//! reaches, in topological order, applies the updates in that order, and picks as pivot the first
//! candidate of largest magnitude. Between Newton's Jacobian updates only the *values* of the
//! iteration matrix change, so the searches, the L/U patterns and most of the pivot sequence come
//! out the same. [`PivotReplay`] records all of that from one faer factorization and afterwards
//! redoes only the arithmetic, in the same order, into the same places.
//!
//! **Exactness.** In every column the replay checks that partial pivoting would have chosen the
//! recorded pivot: strictly larger in magnitude than the candidates before it in the search
//! order and at least as large as those after it (the first maximum wins, as in faer). While that
//! holds, the search order and hence every floating-point operation are faer's. At the first
//! column where it fails, the elimination goes on from that column with the search and the pivot
//! choice done afresh — faer's algorithm — and the new elimination is recorded. So the factors
//! and the solves are bit for bit those of a fresh faer factorization (pinned by
//! `sparse_lu::tests::replayed_factors_are_faers_bit_for_bit`). On the 1000-body chain of the
//! benchmark a pivot changes in 86 of 525 factorizations, always in the last 6 % of the columns
//! (at 100 bodies: 86 of 142, in the last 32 %), so the redone part is short.

use faer::sparse::SparseColMatRef;

use super::sparse_matrix::SparseMatrix;

/// The elimination of one factorization, in elimination-step ("step") indices, with the factor
/// values of the latest (re)factorization.
#[derive(Clone, Debug, Default)]
pub(crate) struct PivotReplay {
    n: usize,
    /// Step j's entries of A: `a_value[k]` indexes the matrix values, `a_row[k]` is the step of
    /// the entry's row; in A's stored order (the order the search starts from).
    a_start: Vec<usize>,
    a_value: Vec<u32>,
    a_row: Vec<u32>,
    /// A's values in step order, gathered at the start of each refactorization.
    a_gathered: Vec<f64>,
    /// Unit lower factor by columns: the diagonal first, then the rows in search order.
    l_start: Vec<usize>,
    l_row: Vec<u32>,
    l_val: Vec<f64>,
    /// Upper factor by columns: the rows in search order, the pivot last.
    u_start: Vec<usize>,
    u_row: Vec<u32>,
    u_val: Vec<f64>,
    /// 1 / pivot of each step (the solve multiplies by it, as faer's does).
    u_diag_inv: Vec<f64>,
    /// How many of step j's other candidates came before its pivot in search order.
    pivot_rank: Vec<u32>,
    /// step → original row, and original column → step.
    row_of_step: Vec<u32>,
    step_of_column: Vec<u32>,
    /// Dense work vector (all zero between uses) and solve scratch.
    x: Vec<f64>,
    y: Vec<f64>,
    /// The depth-first search's marks, stack/order and cursors, and the new steps of rows while
    /// an elimination is redone.
    marked: Vec<u32>,
    order: Vec<u32>,
    cursor: Vec<u32>,
    new_step: Vec<u32>,
}

/// When a refactorization keeps a recorded pivot.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum PivotRule {
    /// Only if partial pivoting would choose it (the first candidate of largest magnitude):
    /// faer's factors bit for bit.
    Partial,
    /// While no other candidate is larger than it by more than 1/τ (threshold partial
    /// pivoting, τ in (0, 1]; UMFPACK's default is 0.1). The factors are then not faer's, but
    /// their growth stays bounded by (1 + 1/τ) per step, and the elimination is redone only
    /// when a pivot has really become small — not each time two candidates of similar size
    /// swap rank, as the rotated revolute joints of perf3DRigidBodies make them do.
    Threshold(f64),
}

/// Why a recording was refused (the caller then keeps using faer's factorization).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NotReplayable {
    /// More rows or entries than `u32` indices address.
    TooLarge,
    /// The recomputed search order does not reproduce faer's factors (a changed faer algorithm).
    OrderMismatch,
}

/// How a refactorization went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Refactorization {
    /// Every recorded pivot was partial pivoting's choice.
    Replayed,
    /// A pivot changed at step `from`; the elimination was redone from there and recorded.
    Repivoted { from: usize },
}

/// The permutations and factors of a successful faer factorization.
pub(crate) struct Factorization<'a> {
    pub column_order: &'a [usize],
    pub column_order_inverse: &'a [usize],
    pub row_perm: &'a [usize],
    pub row_perm_inverse: &'a [usize],
    pub l: SparseColMatRef<'a, usize, f64>,
    pub u: SparseColMatRef<'a, usize, f64>,
}

fn to_u32(values: &[usize], out: &mut Vec<u32>) {
    out.clear();
    out.extend(values.iter().map(|&v| v as u32));
}

/// faer's depth-first search from row `b` through the columns of L: `column_of(row)` is the L
/// column of a row already eliminated. Finished rows are pushed to the tail of `order` (whose
/// head is the search stack); returns where the tail starts.
#[allow(clippy::too_many_arguments)]
fn search(
    l_start: &[usize],
    l_row: &[u32],
    column_of: impl Fn(usize) -> Option<usize>,
    b: u32,
    mark: u32,
    marked: &mut [u32],
    order: &mut [u32],
    cursor: &mut [u32],
) -> usize {
    let mut tail = order.len();
    let mut head = 1usize;
    order[0] = b;
    'search: while head > 0 {
        let b = order[head - 1] as usize;
        let (begin, end) = match column_of(b) {
            Some(c) => (l_start[c], l_start[c + 1]),
            None => (0, 0),
        };
        if marked[b] < mark {
            marked[b] = mark;
            cursor[head - 1] = begin as u32;
        }
        let first = cursor[head - 1] as usize;
        for (ptr, &i) in l_row[first..end].iter().enumerate() {
            let ptr = first + ptr;
            if marked[i as usize] == mark {
                continue;
            }
            cursor[head - 1] = ptr as u32;
            order[head] = i;
            head += 1;
            continue 'search;
        }
        head -= 1;
        tail -= 1;
        order[tail] = b as u32;
    }
    tail
}

impl PivotReplay {
    /// Record the elimination of `f`, a factorization of `a`. Buffers keep their capacity, so
    /// recording again for the same pattern does not allocate.
    pub fn record(&mut self, a: &SparseMatrix, f: &Factorization<'_>) -> Result<(), NotReplayable> {
        let n = a.size();
        let (l, u) = (f.l, f.u);
        let limit = u32::MAX as usize;
        if n >= limit || a.nnz() >= limit {
            return Err(NotReplayable::TooLarge);
        }
        self.n = n;
        // faer's index and value vectors may run past the last column's end.
        let (l_nnz, u_nnz) = (l.symbolic().col_ptr()[n], u.symbolic().col_ptr()[n]);
        self.l_start.clear();
        self.l_start.extend_from_slice(l.symbolic().col_ptr());
        to_u32(&l.symbolic().row_idx()[..l_nnz], &mut self.l_row);
        self.l_val.clear();
        self.l_val.extend_from_slice(&l.val()[..l_nnz]);
        self.u_start.clear();
        self.u_start.extend_from_slice(u.symbolic().col_ptr());
        to_u32(&u.symbolic().row_idx()[..u_nnz], &mut self.u_row);
        self.u_val.clear();
        self.u_val.extend_from_slice(&u.val()[..u_nnz]);
        // Room for the fill of other pivot sequences, so that redoing an elimination does not
        // allocate (it still may if the fill grows by more than half).
        let (l_spare, u_spare) = (l_nnz / 2 + n, u_nnz / 2 + n);
        self.l_row.reserve(l_spare);
        self.l_val.reserve(l_spare);
        self.u_row.reserve(u_spare);
        self.u_val.reserve(u_spare);
        to_u32(f.row_perm, &mut self.row_of_step);
        to_u32(f.column_order_inverse, &mut self.step_of_column);
        self.u_diag_inv.clear();
        self.u_diag_inv
            .extend((0..n).map(|j| 1.0 / self.u_val[self.u_start[j + 1] - 1]));

        let starts = a.column_starts();
        let rows = a.row_indices();
        self.a_start.clear();
        self.a_value.clear();
        self.a_row.clear();
        self.a_start.push(0);
        for &column in f.column_order {
            for (k, &row) in rows
                .iter()
                .enumerate()
                .take(starts[column + 1])
                .skip(starts[column])
            {
                self.a_value.push(k as u32);
                self.a_row.push(f.row_perm_inverse[row] as u32);
            }
            self.a_start.push(self.a_value.len());
        }

        // The replay and the solves index their work vectors (length n) by these unchecked.
        let in_range = |rows: &[u32]| rows.iter().all(|&r| (r as usize) < n);
        if !(in_range(&self.l_row) && in_range(&self.u_row) && in_range(&self.a_row)) {
            return Err(NotReplayable::OrderMismatch);
        }
        self.a_gathered.clear();
        self.a_gathered.reserve(self.a_value.len());
        self.x.clear();
        self.x.resize(n, 0.0);
        self.y.clear();
        self.y.resize(n, 0.0);
        self.pivot_rank.clear();
        self.pivot_rank.resize(n, 0);
        for v in [
            &mut self.marked,
            &mut self.order,
            &mut self.cursor,
            &mut self.new_step,
        ] {
            v.clear();
            v.resize(n, 0);
        }
        self.record_search_orders()
    }

    /// Redo faer's depth-first searches in step indices to find each pivot's rank among its
    /// column's candidates, and check that the orders reproduce faer's stored factors.
    fn record_search_orders(&mut self) -> Result<(), NotReplayable> {
        let n = self.n;
        self.marked.fill(0);
        for j in 0..n {
            let mark = j as u32 + 1;
            let mut tail = n;
            for k in self.a_start[j]..self.a_start[j + 1] {
                let b = self.a_row[k];
                if self.marked[b as usize] < mark {
                    tail = search(
                        &self.l_start,
                        &self.l_row,
                        |row| (row < j).then_some(row),
                        b,
                        mark,
                        &mut self.marked,
                        &mut self.order[..tail],
                        &mut self.cursor,
                    );
                }
            }
            // The reached rows in topological order: rows eliminated before step j are U's
            // entries, in U's stored order; the others are L's (pivot first, then the rest).
            let (u_begin, u_end) = (self.u_start[j], self.u_start[j + 1]);
            let (l_begin, l_end) = (self.l_start[j], self.l_start[j + 1]);
            if u_end == u_begin
                || self.u_row[u_end - 1] as usize != j
                || l_end == l_begin
                || self.l_row[l_begin] as usize != j
            {
                return Err(NotReplayable::OrderMismatch);
            }
            let (mut next_u, mut next_l) = (u_begin, l_begin + 1);
            let mut rank = None;
            for &s in &self.order[tail..] {
                let s = s as usize;
                if s < j {
                    if next_u >= u_end - 1 || self.u_row[next_u] as usize != s {
                        return Err(NotReplayable::OrderMismatch);
                    }
                    next_u += 1;
                } else if s == j {
                    rank = Some(next_l - (l_begin + 1));
                } else {
                    if next_l >= l_end || self.l_row[next_l] as usize != s {
                        return Err(NotReplayable::OrderMismatch);
                    }
                    next_l += 1;
                }
            }
            match rank {
                Some(rank) if next_u == u_end - 1 && next_l == l_end => {
                    self.pivot_rank[j] = rank as u32;
                }
                _ => return Err(NotReplayable::OrderMismatch),
            }
        }
        Ok(())
    }

    /// Factorize `values` (the recorded pattern's): replay the recorded elimination while its
    /// pivots stay partial pivoting's choice, and redo it from the first column where one does
    /// not. `Err(step)`: a zero, non-finite or missing pivot at that elimination step, as faer
    /// would find it; the recording is then unusable.
    pub fn refactorize(
        &mut self,
        values: &[f64],
        rule: PivotRule,
    ) -> Result<Refactorization, usize> {
        assert_eq!(
            self.x.len(),
            self.n,
            "refactorize before a successful record"
        );
        // One pass of independent loads brings A's values into step order (the columns are
        // visited in the fill-reducing order, so reading them inside the elimination would
        // miss the cache once per column on the critical path).
        self.a_gathered.clear();
        self.a_gathered
            .extend(self.a_value.iter().map(|&k| values[k as usize]));
        let x = &mut self.x[..];
        for j in 0..self.n {
            for k in self.a_start[j]..self.a_start[j + 1] {
                x[self.a_row[k] as usize] += self.a_gathered[k];
            }
            let (u_begin, u_end) = (self.u_start[j], self.u_start[j + 1] - 1);
            for &s in &self.u_row[u_begin..u_end] {
                let s = s as usize;
                let xs = x[s];
                let (l_begin, l_end) = (self.l_start[s] + 1, self.l_start[s + 1]);
                for (&i, &l) in self.l_row[l_begin..l_end]
                    .iter()
                    .zip(&self.l_val[l_begin..l_end])
                {
                    // SAFETY: rows are < n = x.len(): checked by `record`, and `eliminate_from`
                    // writes only reached rows.
                    unsafe { *x.get_unchecked_mut(i as usize) -= l * xs };
                }
            }
            let pivot = x[j];
            let magnitude = pivot.abs();
            let (l_begin, l_end) = (self.l_start[j] + 1, self.l_start[j + 1]);
            let rank = self.pivot_rank[j] as usize;
            let mut same_pivot = magnitude > 0.0 && magnitude.is_finite();
            match rule {
                PivotRule::Partial => {
                    for (t, &i) in self.l_row[l_begin..l_end].iter().enumerate() {
                        let v = x[i as usize].abs();
                        same_pivot &= if t < rank {
                            v < magnitude
                        } else {
                            v <= magnitude
                        };
                    }
                }
                PivotRule::Threshold(threshold) => {
                    let limit = magnitude / threshold;
                    for &i in &self.l_row[l_begin..l_end] {
                        same_pivot &= x[i as usize].abs() <= limit;
                    }
                }
            }
            if !same_pivot {
                x.fill(0.0);
                self.eliminate_from(j, values)?;
                return Ok(Refactorization::Repivoted { from: j });
            }
            let inverse = 1.0 / pivot;
            for (&i, l) in self.l_row[l_begin..l_end]
                .iter()
                .zip(&mut self.l_val[l_begin..l_end])
            {
                *l = x[i as usize] * inverse;
                x[i as usize] = 0.0;
            }
            self.l_val[l_begin - 1] = 1.0;
            for (&s, u) in self.u_row[u_begin..u_end]
                .iter()
                .zip(&mut self.u_val[u_begin..u_end])
            {
                *u = x[s as usize];
                x[s as usize] = 0.0;
            }
            self.u_val[u_end] = pivot;
            self.u_diag_inv[j] = inverse;
            x[j] = 0.0;
        }
        Ok(Refactorization::Replayed)
    }

    /// faer's elimination of steps `j0..n` with searches and pivot choice, on top of the
    /// replayed steps before `j0`, recorded in place. Rows keep their old step numbers as labels
    /// until the end, when they are renumbered by their new steps.
    fn eliminate_from(&mut self, j0: usize, values: &[f64]) -> Result<(), usize> {
        let n = self.n;
        let unassigned = n as u32;
        for (label, step) in self.new_step.iter_mut().enumerate() {
            *step = if label < j0 { label as u32 } else { unassigned };
        }
        self.l_row.truncate(self.l_start[j0]);
        self.l_val.truncate(self.l_start[j0]);
        self.l_start.truncate(j0 + 1);
        self.u_row.truncate(self.u_start[j0]);
        self.u_val.truncate(self.u_start[j0]);
        self.u_start.truncate(j0 + 1);
        self.marked.fill(0);
        let x = &mut self.x[..];
        for j in j0..n {
            let mark = j as u32 + 1;
            let mut tail = n;
            for k in self.a_start[j]..self.a_start[j + 1] {
                let b = self.a_row[k];
                if self.marked[b as usize] < mark {
                    let new_step = &self.new_step;
                    tail = search(
                        &self.l_start,
                        &self.l_row,
                        |row| {
                            let s = new_step[row] as usize;
                            (s < j).then_some(s)
                        },
                        b,
                        mark,
                        &mut self.marked,
                        &mut self.order[..tail],
                        &mut self.cursor,
                    );
                }
            }
            let reached = &self.order[tail..];
            for k in self.a_start[j]..self.a_start[j + 1] {
                x[self.a_row[k] as usize] += values[self.a_value[k] as usize];
            }
            for &i in reached {
                let s = self.new_step[i as usize] as usize;
                if s < j {
                    let xi = x[i as usize];
                    let (l_begin, l_end) = (self.l_start[s] + 1, self.l_start[s + 1]);
                    for (&r, &l) in self.l_row[l_begin..l_end]
                        .iter()
                        .zip(&self.l_val[l_begin..l_end])
                    {
                        x[r as usize] -= l * xi;
                    }
                }
            }
            // faer's pivot choice: the first candidate of largest magnitude (NaN wins).
            let mut pivot_row = None;
            let mut pivot_magnitude = -1.0f64;
            let mut candidates = 0u32;
            for &i in reached {
                let step = self.new_step[i as usize];
                if step == unassigned {
                    let v = x[i as usize].abs();
                    if matches!(
                        v.partial_cmp(&pivot_magnitude),
                        None | Some(std::cmp::Ordering::Greater)
                    ) {
                        pivot_row = Some(i);
                        pivot_magnitude = v;
                        self.pivot_rank[j] = candidates;
                    }
                    candidates += 1;
                } else {
                    self.u_row.push(step);
                    self.u_val.push(x[i as usize]);
                }
            }
            let pivot_row = match pivot_row {
                Some(p) if x[p as usize] != 0.0 && x[p as usize].is_finite() => p,
                _ => {
                    x.fill(0.0);
                    return Err(j);
                }
            };
            let pivot = x[pivot_row as usize];
            let inverse = 1.0 / pivot;
            self.new_step[pivot_row as usize] = j as u32;
            self.u_row.push(j as u32);
            self.u_val.push(pivot);
            self.u_start.push(self.u_row.len());
            self.u_diag_inv[j] = inverse;
            self.l_row.push(pivot_row);
            self.l_val.push(1.0);
            for &i in reached {
                if self.new_step[i as usize] == unassigned {
                    self.l_row.push(i);
                    self.l_val.push(x[i as usize] * inverse);
                }
                x[i as usize] = 0.0;
            }
            self.l_start.push(self.l_row.len());
        }
        // Renumber rows by their new steps.
        for r in self.l_row.iter_mut().chain(self.a_row.iter_mut()) {
            *r = self.new_step[*r as usize];
        }
        for (label, &step) in self.new_step.iter().enumerate() {
            self.cursor[step as usize] = self.row_of_step[label];
        }
        std::mem::swap(&mut self.cursor, &mut self.row_of_step);
        Ok(())
    }

    /// Solve `A x = b` in place with the current factors: faer's permutations and triangular
    /// solves, operation for operation. Only after a successful `record` (which sized `y`).
    pub fn solve_in_place(&mut self, b: &mut [f64]) {
        let n = self.n;
        assert_eq!(self.y.len(), n, "solve before a successful record");
        let y = &mut self.y[..];
        for (y, &row) in y.iter_mut().zip(&self.row_of_step) {
            *y = b[row as usize];
        }
        for j in 0..n {
            let yj = y[j];
            let (begin, end) = (self.l_start[j] + 1, self.l_start[j + 1]);
            for (&i, &l) in self.l_row[begin..end].iter().zip(&self.l_val[begin..end]) {
                // SAFETY: rows are < n = y.len() (checked when recorded)
                unsafe { *y.get_unchecked_mut(i as usize) -= l * yj };
            }
        }
        for j in (0..n).rev() {
            let yj = y[j] * self.u_diag_inv[j];
            y[j] = yj;
            let (begin, end) = (self.u_start[j], self.u_start[j + 1] - 1);
            for (&i, &u) in self.u_row[begin..end]
                .iter()
                .zip(&self.u_val[begin..end])
                .rev()
            {
                // SAFETY: rows are < n = y.len() (checked when recorded)
                unsafe { *y.get_unchecked_mut(i as usize) -= u * yj };
            }
        }
        for (b, &step) in b[..n].iter_mut().zip(&self.step_of_column) {
            *b = y[step as usize];
        }
    }

    /// Stored entries of L and U.
    pub fn factor_nonzeros(&self) -> usize {
        self.l_row.len() + self.u_row.len()
    }
}
