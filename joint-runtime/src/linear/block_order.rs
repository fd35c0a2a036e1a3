//! The symbolic part of the block elimination ([`super::block_lu`]): the unknowns grouped into
//! blocks (supervariables, merged) and the order the blocks are eliminated in (minimum degree
//! among those whose diagonal block is structurally non-singular).

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

/// Supervariables are merged into blocks of at most this many unknowns (an Euler-parameter body
/// with a 6-multiplier joint to ground holds 14).
pub const MAX_MERGED_BLOCK: usize = 16;

/// The block elimination is taken when its stored blocks hold at most this many values per entry
/// of the sparse pattern (plus a constant): beyond that the fill of the block order is the wrong
/// trade against a general sparse LU's ordering.
pub const MAX_STORAGE_PER_ENTRY: usize = 8;

/// The unknowns grouped into blocks.
pub(super) struct Blocks {
    /// Block → its unknowns, ascending; blocks numbered by their first unknown.
    pub(super) members: Vec<Vec<usize>>,
    pub(super) block_of: Vec<u32>,
}

/// Supervariables of A + Aᵀ (unknowns with the same neighbours, themselves included), merged
/// into a neighbour whenever all their other neighbours are the neighbour's too and the
/// neighbour is at least as large ([`MAX_MERGED_BLOCK`] at most).
pub(super) fn merged_blocks(n: usize, starts: &[usize], rows: &[usize]) -> Blocks {
    // each unknown's neighbours in A + Aᵀ and itself, sorted, in one flat array (one small
    // vector per unknown, grown by pushes, was a third of a 1000-body chain's symbolic part)
    let mut degree = vec![1usize; n];
    for c in 0..n {
        for &r in &rows[starts[c]..starts[c + 1]] {
            if r != c {
                degree[c] += 1;
                degree[r] += 1;
            }
        }
    }
    let mut bucket_starts = vec![0usize; n + 1];
    for c in 0..n {
        bucket_starts[c + 1] = bucket_starts[c] + degree[c];
    }
    let mut buckets = vec![0u32; bucket_starts[n]];
    let mut fill = bucket_starts[..n].to_vec();
    let mut put = |at: usize, x: usize| {
        buckets[fill[at]] = x as u32;
        fill[at] += 1;
    };
    for c in 0..n {
        put(c, c);
        for &r in &rows[starts[c]..starts[c + 1]] {
            if r != c {
                put(c, r);
                put(r, c);
            }
        }
    }
    let mut adjacency_starts = vec![0usize; n + 1];
    let mut adjacency_flat: Vec<u32> = Vec::with_capacity(buckets.len());
    for c in 0..n {
        let bucket = &mut buckets[bucket_starts[c]..bucket_starts[c + 1]];
        bucket.sort_unstable();
        for (k, &x) in bucket.iter().enumerate() {
            if k == 0 || bucket[k - 1] != x {
                adjacency_flat.push(x);
            }
        }
        adjacency_starts[c + 1] = adjacency_flat.len();
    }
    let adjacency = |c: usize| &adjacency_flat[adjacency_starts[c]..adjacency_starts[c + 1]];
    // supervariables, numbered by their first unknown
    let mut by_neighbours: HashMap<&[u32], u32> = HashMap::new();
    let mut group = vec![0u32; n];
    let mut members: Vec<Vec<usize>> = Vec::new();
    for (c, group) in group.iter_mut().enumerate() {
        let next = members.len() as u32;
        let g = *by_neighbours.entry(adjacency(c)).or_insert(next);
        if g == next {
            members.push(Vec::new());
        }
        members[g as usize].push(c);
        *group = g;
    }
    let count = members.len();
    let mut neighbours: Vec<Vec<u32>> = vec![Vec::new(); count];
    for c in 0..n {
        let g = group[c];
        for &r in adjacency(c) {
            let h = group[r as usize];
            if h != g {
                neighbours[g as usize].push(h);
            }
        }
    }
    for a in &mut neighbours {
        a.sort_unstable();
        a.dedup();
    }
    // merge, smallest first, until nothing merges
    let mut alive = vec![true; count];
    loop {
        let mut candidates: Vec<u32> = (0..count as u32).filter(|&g| alive[g as usize]).collect();
        candidates.sort_by_key(|&g| (members[g as usize].len(), g));
        let mut merged = false;
        for a in candidates {
            let a = a as usize;
            let sa = members[a].len();
            let into = neighbours[a]
                .iter()
                .map(|&b| b as usize)
                .filter(|&b| {
                    let sb = members[b].len();
                    sb >= sa
                        && sa + sb <= MAX_MERGED_BLOCK
                        && neighbours[a]
                            .iter()
                            .all(|&x| x as usize == b || neighbours[b].binary_search(&x).is_ok())
                })
                .max_by_key(|&b| (members[b].len(), Reverse(b)));
            let Some(b) = into else { continue };
            absorb(a, b, &mut members, &mut neighbours);
            alive[a] = false;
            merged = true;
        }
        // blocks with the same neighbours that do not touch each other (a joint's multipliers,
        // each row of which reaches other coordinates of the same two bodies) merge too
        let mut by_neighbours: HashMap<Vec<u32>, usize> = HashMap::new();
        for a in 0..count {
            if !alive[a] || neighbours[a].is_empty() {
                continue;
            }
            let key = neighbours[a].clone();
            let Some(&b) = by_neighbours.get(&key) else {
                by_neighbours.insert(key, a);
                continue;
            };
            if members[a].len() + members[b].len() > MAX_MERGED_BLOCK {
                by_neighbours.insert(key, a);
                continue;
            }
            absorb(a, b, &mut members, &mut neighbours);
            alive[a] = false;
            merged = true;
        }
        if !merged {
            break;
        }
    }
    let mut blocks: Vec<Vec<usize>> = members.into_iter().filter(|m| !m.is_empty()).collect();
    blocks.sort_unstable_by_key(|m| m[0]);
    let mut block_of = vec![0u32; n];
    for (b, m) in blocks.iter().enumerate() {
        for &c in m {
            block_of[c] = b as u32;
        }
    }
    Blocks {
        members: blocks,
        block_of,
    }
}

/// Merge supervariable `a` into `b`, whose neighbours include all of `a`'s (but `b`).
fn absorb(a: usize, b: usize, members: &mut [Vec<usize>], neighbours: &mut [Vec<u32>]) {
    let moved = std::mem::take(&mut members[a]);
    members[b].extend(moved);
    members[b].sort_unstable();
    for x in std::mem::take(&mut neighbours[a]) {
        let list = &mut neighbours[x as usize];
        if let Ok(at) = list.binary_search(&(a as u32)) {
            list.remove(at);
        }
    }
}

/// The blocks in elimination order, with the blocks each one couples to when it is eliminated.
pub(super) struct Elimination {
    pub(super) sequence: Vec<u32>,
    /// Per position in `sequence`: the blocks not yet eliminated it is coupled to (with fill).
    pub(super) later_neighbours: Vec<Vec<u32>>,
}

/// Minimum degree (the neighbours' unknowns) over the block graph, among the blocks whose
/// diagonal block is structurally non-singular as assembled or all of whose neighbours have been
/// eliminated; ties to the lowest block. `None` if the blocks run out of such candidates or the
/// fill grows past [`MAX_STORAGE_PER_ENTRY`].
pub(super) fn elimination_order(
    n: usize,
    blocks: &Blocks,
    starts: &[usize],
    rows: &[usize],
    recorded: &[(usize, usize)],
    entries: usize,
) -> Option<Elimination> {
    let nb = blocks.members.len();
    let size = |b: u32| blocks.members[b as usize].len();
    let mut neighbours: Vec<Vec<u32>> = vec![Vec::new(); nb];
    for c in 0..n {
        let bc = blocks.block_of[c];
        for &r in &rows[starts[c]..starts[c + 1]] {
            let br = blocks.block_of[r];
            if br != bc {
                neighbours[bc as usize].push(br);
                neighbours[br as usize].push(bc);
            }
        }
    }
    for a in &mut neighbours {
        a.sort_unstable();
        a.dedup();
    }
    let ready = structurally_nonsingular_diagonals(n, blocks, recorded);
    // a block whose diagonal is zero as assembled (a joint's multipliers) waits for all the
    // blocks it couples to (the bodies its joint acts on): its Schur complement then holds
    // C·D⁻¹·Cᵀ of the whole joint, where the part of one body alone can be singular (a
    // revolute joint's rows that only the other body's coordinates move)
    let mut waiting: Vec<usize> = (0..nb)
        .map(|b| if ready[b] { 0 } else { neighbours[b].len() })
        .collect();
    let original = neighbours.clone();
    let degree = |nbrs: &[u32]| nbrs.iter().map(|&b| size(b)).sum::<usize>();
    let mut heap = BinaryHeap::new();
    let mut current = vec![0usize; nb];
    for b in 0..nb {
        current[b] = degree(&neighbours[b]);
        if waiting[b] == 0 {
            heap.push(Reverse((current[b], b as u32)));
        }
    }
    let budget = MAX_STORAGE_PER_ENTRY * entries + 4096;
    let mut stored = 0usize;
    let mut eliminated = vec![false; nb];
    let mut sequence = Vec::with_capacity(nb);
    let mut later_neighbours = Vec::with_capacity(nb);
    while let Some(Reverse((d, b))) = heap.pop() {
        let bu = b as usize;
        if eliminated[bu] || d != current[bu] {
            continue;
        }
        eliminated[bu] = true;
        let around = std::mem::take(&mut neighbours[bu]);
        stored += size(b) * size(b) + 2 * size(b) * degree(&around);
        if stored > budget {
            return None;
        }
        for &i in &original[bu] {
            if waiting[i as usize] > 0 {
                waiting[i as usize] -= 1;
            }
        }
        for &i in &around {
            let list = &mut neighbours[i as usize];
            list.retain(|&x| x != b);
            list.extend(around.iter().copied().filter(|&x| x != i));
            list.sort_unstable();
            list.dedup();
            current[i as usize] = degree(list);
            if waiting[i as usize] == 0 {
                heap.push(Reverse((current[i as usize], i)));
            }
        }
        sequence.push(b);
        later_neighbours.push(around);
    }
    (sequence.len() == nb).then_some(Elimination {
        sequence,
        later_neighbours,
    })
}

/// Per block: whether the assembled entries within its diagonal block can be non-singular (a
/// perfect matching of its rows to its columns).
fn structurally_nonsingular_diagonals(
    n: usize,
    blocks: &Blocks,
    recorded: &[(usize, usize)],
) -> Vec<bool> {
    let mut local = vec![0usize; n];
    for m in &blocks.members {
        for (l, &c) in m.iter().enumerate() {
            local[c] = l;
        }
    }
    let mut inside: Vec<Vec<(usize, usize)>> = vec![Vec::new(); blocks.members.len()];
    for &(r, c) in recorded {
        if r < n && c < n && blocks.block_of[r] == blocks.block_of[c] {
            inside[blocks.block_of[r] as usize].push((local[r], local[c]));
        }
    }
    inside
        .iter_mut()
        .zip(&blocks.members)
        .map(|(entries, m)| {
            entries.sort_unstable();
            entries.dedup();
            perfect_matching(m.len(), entries)
        })
        .collect()
}

/// Whether the bipartite graph of `entries` (row, column), both sides `0..s`, matches every row
/// (Kuhn's augmenting paths).
fn perfect_matching(s: usize, entries: &[(usize, usize)]) -> bool {
    let mut row_start = vec![0usize; s + 1];
    for &(r, _) in entries {
        row_start[r + 1] += 1;
    }
    for r in 0..s {
        row_start[r + 1] += row_start[r];
    }
    // entries are sorted by row
    let column_of = |k: usize| entries[k].1;
    let mut matched_row = vec![usize::MAX; s];
    fn augment(
        r: usize,
        row_start: &[usize],
        column_of: &dyn Fn(usize) -> usize,
        seen: &mut [bool],
        matched_row: &mut [usize],
    ) -> bool {
        for k in row_start[r]..row_start[r + 1] {
            let c = column_of(k);
            if !seen[c] {
                seen[c] = true;
                if matched_row[c] == usize::MAX
                    || augment(matched_row[c], row_start, column_of, seen, matched_row)
                {
                    matched_row[c] = r;
                    return true;
                }
            }
        }
        false
    }
    let mut seen = vec![false; s];
    (0..s).all(|r| {
        seen.fill(false);
        augment(r, &row_start, &column_of, &mut seen, &mut matched_row)
    })
}
