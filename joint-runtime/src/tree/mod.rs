//! ObjectKinematicTree: minimal-coordinate chains and trees of links (spec
//! superelements-and-kinematic-trees.md §6–7).

pub mod dynamics;

#[cfg(test)]
mod tests;

pub use dynamics::KinematicTreeData;

use std::cell::RefCell;
use std::thread::LocalKey;

/// Run `f` on a workspace taken from the thread's `pool` and put it back afterwards, so that
/// buffers sized on first use are reused by every later call (no allocation per call once the
/// pool holds a workspace per nesting depth). The tree's functions are called from places
/// without scratch space (marker kinematics, outputs); this keeps them allocation-free.
pub(crate) fn with_reused<T: Default + 'static, R>(
    pool: &'static LocalKey<RefCell<Vec<T>>>,
    f: impl FnOnce(&mut T) -> R,
) -> R {
    let mut workspace = pool.with_borrow_mut(Vec::pop).unwrap_or_default();
    let result = f(&mut workspace);
    pool.with_borrow_mut(|p| p.push(workspace));
    result
}

/// `buffer` resized to `n` (within its capacity after the first call of that size).
pub(crate) fn sized<T: Clone + Default>(buffer: &mut Vec<T>, n: usize) -> &mut [T] {
    buffer.clear();
    buffer.resize(n, T::default());
    buffer
}
