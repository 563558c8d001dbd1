//! What a process holds: its share of every finished class and of the bounds of the class
//! being solved; and who holds the rest. Every class, finished or not, is cut the same
//! way: worker w of the N workers owns `share(n, w, N)`, so process p (workers pW to
//! pW + W - 1) holds `share(n, p, P)`, the union of its workers' shares.

use std::ops::Range;
use std::sync::Arc;
use std::sync::atomic::{AtomicI16, Ordering};

use super::super::layer::{NEG, POS};

/// The contiguous range of `0..n` that part `k` of `parts` owns.
pub(super) fn share(n: usize, k: usize, parts: usize) -> Range<usize> {
    n * k / parts..n * (k + 1) / parts
}

/// The part of `parts` whose [`share`] of `0..n` holds `j < n`: the last part starting
/// at or before `j` (`n·p / parts <= j` exactly when `p < (j + 1)·parts / n`).
pub(super) fn owner(j: u64, n: u64, parts: usize) -> u32 {
    (((j as u128 + 1) * parts as u128 - 1) / n as u128) as u32
}

/// This process's part of a finished class: final values, read by every move that leaves
/// a later class for it.
pub(super) struct Slice {
    pub start: usize,
    pub values: Vec<i8>,
}

impl Slice {
    /// The value of index `j` of the class, if this process holds it.
    #[inline]
    pub fn get(&self, j: u64) -> Option<i8> {
        let i = (j as usize).checked_sub(self.start)?;
        self.values.get(i).copied()
    }
}

/// The lower and upper bounds of this process's range of the class being solved (4 bytes
/// a position). Only the owning worker writes a position's bounds; every worker of the
/// process and the answers to other processes read them.
pub(super) struct Bounds {
    start: usize,
    lower: Vec<AtomicI16>,
    upper: Vec<AtomicI16>,
}

impl Bounds {
    /// Nothing known yet about the positions of `range`.
    pub fn new(range: Range<usize>) -> Self {
        Bounds {
            start: range.start,
            lower: range.clone().map(|_| AtomicI16::new(NEG)).collect(),
            upper: range.map(|_| AtomicI16::new(POS)).collect(),
        }
    }

    /// Whether this process holds index `j`.
    #[inline]
    pub fn holds(&self, j: u64) -> bool {
        (j as usize)
            .checked_sub(self.start)
            .is_some_and(|i| i < self.lower.len())
    }

    /// The bounds of index `j` (held here).
    #[inline]
    pub fn get(&self, j: u64) -> (i16, i16) {
        let i = j as usize - self.start;
        (
            self.lower[i].load(Ordering::Relaxed),
            self.upper[i].load(Ordering::Relaxed),
        )
    }

    /// New bounds of index `j` (held here, by its owner only).
    #[inline]
    pub fn set(&self, j: u64, (l, u): (i16, i16)) {
        let i = j as usize - self.start;
        self.lower[i].store(l, Ordering::Relaxed);
        self.upper[i].store(u, Ordering::Relaxed);
    }
}

/// Everything a process holds while class `current` is solved, shared by its workers and
/// read to answer other processes.
pub(super) struct Held {
    /// This process's slices of the finished classes, in build order.
    pub finished: Vec<Arc<Slice>>,
    /// The number of the class being solved in the build order.
    pub current: u32,
    pub bounds: Bounds,
}

impl Held {
    /// The entry of index `j` of class number `class`, as bounds (a finished class's value
    /// twice): what another process asked for. `None` if this process does not hold it.
    pub fn entry(&self, class: u32, j: u64) -> Option<(i16, i16)> {
        if class == self.current {
            return self.bounds.holds(j).then(|| self.bounds.get(j));
        }
        let v = self.finished.get(class as usize)?.get(j)? as i16;
        Some((v, v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_owner_of_an_index_is_the_part_whose_share_holds_it() {
        for n in 1..40usize {
            for parts in 1..7 {
                for j in 0..n {
                    let p = owner(j as u64, n as u64, parts) as usize;
                    assert!(share(n, p, parts).contains(&j), "n {n} parts {parts} j {j}");
                }
                // A process's share is the union of its workers' shares.
                for threads in 1..4 {
                    for p in 0..parts {
                        let first = share(n, p * threads, parts * threads);
                        let last = share(n, p * threads + threads - 1, parts * threads);
                        assert_eq!(first.start..last.end, share(n, p, parts));
                    }
                }
            }
        }
    }
}
