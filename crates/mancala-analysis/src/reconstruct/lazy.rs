//! Lazy holes (issue 16): a start position known only as a range of counts per hole and
//! the number of stones on the board, and a board played forward from it whose holes are
//! "the start count plus k" until a move empties them.
//!
//! Why ranges: a move rarely needs a hole's exact count. Sowing only adds to the holes it
//! passes (the offset k grows); the compulsory capture needs to know whether a hole is
//! empty, or whether a capturable hole holds at least the captured amount; only the sown
//! hole and the captured hole need an exact count. So a line is played on ranges, and a
//! range is split only as far as a move needs: every split is into disjoint ranges, so the
//! complete positions of the resulting starts never overlap and their counts add up.

use mancala_core::rows::MAX_ROW;

const N: usize = 2 * MAX_ROW;

/// The complete positions still possible: start hole `i` holds `lo[i]..=hi[i]` stones and
/// the holes together hold `total`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Start {
    holes: u8,
    total: u8,
    lo: [u8; N],
    hi: [u8; N],
}

impl Start {
    /// Nothing known but the stones on the board.
    pub fn unknown(holes: usize, total: u8) -> Start {
        let mut hi = [0u8; N];
        hi[..holes].fill(total);
        Start {
            holes: holes as u8,
            total,
            lo: [0; N],
            hi,
        }
    }

    /// Every hole known (for tests and to test membership).
    pub fn exact(holes: &[u8]) -> Start {
        let total: u32 = holes.iter().map(|&h| h as u32).sum();
        let mut s = Start::unknown(holes.len(), total as u8);
        s.lo[..holes.len()].copy_from_slice(holes);
        s.hi[..holes.len()].copy_from_slice(holes);
        s
    }

    pub fn holes(&self) -> usize {
        self.holes as usize
    }

    pub fn total(&self) -> u8 {
        self.total
    }

    /// The range of start hole `h`.
    pub fn range(&self, h: usize) -> (u8, u8) {
        (self.lo[h], self.hi[h])
    }

    /// Start hole `h` restricted to `lo..=hi`, the other ranges tightened by the total;
    /// `None` when no complete position is left.
    pub fn restrict(mut self, h: usize, lo: u8, hi: u8) -> Option<Start> {
        self.lo[h] = self.lo[h].max(lo);
        self.hi[h] = self.hi[h].min(hi);
        self.tighten()
    }

    /// Each range narrowed to what the total allows of it given the others.
    fn tighten(mut self) -> Option<Start> {
        let n = self.holes();
        let t = self.total as u32;
        let sum_lo: u32 = self.lo[..n].iter().map(|&x| x as u32).sum();
        let sum_hi: u32 = self.hi[..n].iter().map(|&x| x as u32).sum();
        if sum_lo > t || sum_hi < t || (0..n).any(|i| self.lo[i] > self.hi[i]) {
            return None;
        }
        for i in 0..n {
            let (lo, hi) = (self.lo[i] as u32, self.hi[i] as u32);
            self.hi[i] = hi.min(t - (sum_lo - lo)) as u8;
            self.lo[i] = lo.max(t.saturating_sub(sum_hi - hi)) as u8;
        }
        Some(self)
    }

    /// How many complete positions are left (ranges summing to the total), counted by
    /// dynamic programming over the holes with running sums (O(holes x total)).
    pub fn count(&self) -> u64 {
        let t = self.total as usize;
        let mut ways = vec![0u64; t + 1];
        ways[0] = 1;
        let mut prefix = vec![0u64; t + 2];
        for i in 0..self.holes() {
            let (lo, hi) = (self.lo[i] as usize, self.hi[i] as usize);
            for s in 0..=t {
                prefix[s + 1] = prefix[s].saturating_add(ways[s]);
            }
            // ways'[s] = sum of ways[s - v] for v in lo..=hi.
            for (s, w) in ways.iter_mut().enumerate() {
                *w = if s < lo {
                    0
                } else {
                    prefix[s - lo + 1] - prefix[s.saturating_sub(hi)]
                };
            }
        }
        ways[t]
    }

    /// Whether the complete position `holes` is one of this start's.
    pub fn contains(&self, holes: &[u8]) -> bool {
        holes.len() == self.holes()
            && holes.iter().map(|&x| x as u32).sum::<u32>() == self.total as u32
            && holes
                .iter()
                .enumerate()
                .all(|(i, &x)| (self.lo[i]..=self.hi[i]).contains(&x))
    }

    /// Calls `f` on every complete position, up to `limit` of them; returns how many.
    pub fn for_each(&self, limit: u64, f: &mut impl FnMut(&[u8])) -> u64 {
        let mut holes = vec![0u8; self.holes()];
        let mut done = 0;
        self.fill(0, self.total, &mut holes, limit, &mut done, f);
        done
    }

    fn fill(
        &self,
        i: usize,
        left: u8,
        holes: &mut [u8],
        limit: u64,
        done: &mut u64,
        f: &mut impl FnMut(&[u8]),
    ) {
        if *done >= limit {
            return;
        }
        if i == holes.len() {
            if left == 0 {
                *done += 1;
                f(holes);
            }
            return;
        }
        let rest = i + 1..holes.len();
        let rest_hi: u32 = self.hi[rest.clone()].iter().map(|&x| x as u32).sum();
        let rest_lo: u32 = self.lo[rest].iter().map(|&x| x as u32).sum();
        for v in self.lo[i]..=self.hi[i].min(left) {
            if (rest_lo..=rest_hi).contains(&((left - v) as u32)) {
                holes[i] = v;
                self.fill(i + 1, left - v, holes, limit, done, f);
            }
        }
    }
}

/// A hole of a board played forward from a [`Start`]: `add` stones on top of the start
/// count while `fresh` (never emptied since the start), else exactly `add`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Cell {
    pub fresh: bool,
    pub add: u8,
}

/// A board played forward from a [`Start`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cells {
    pub holes: u8,
    pub cell: [Cell; N],
}

impl Cells {
    /// The start itself: every hole fresh.
    pub fn start(holes: usize) -> Cells {
        Cells {
            holes: holes as u8,
            cell: [Cell {
                fresh: true,
                add: 0,
            }; N],
        }
    }

    /// The range of counts hole `h` holds under `s`.
    pub fn range(&self, s: &Start, h: usize) -> (u8, u8) {
        let c = self.cell[h];
        if c.fresh {
            let (lo, hi) = s.range(h);
            (lo + c.add, hi + c.add)
        } else {
            (c.add, c.add)
        }
    }

    /// `s` restricted to the starts under which hole `h` holds `lo..=hi` now.
    pub fn require(&self, s: Start, h: usize, lo: u8, hi: u8) -> Option<Start> {
        let c = self.cell[h];
        if c.fresh {
            if hi < c.add {
                return None;
            }
            s.restrict(h, lo.saturating_sub(c.add), hi - c.add)
        } else {
            (lo..=hi).contains(&c.add).then_some(s)
        }
    }

    /// `s` split into one start per count hole `h` can hold now (ascending).
    pub fn split_exact(&self, s: Start, h: usize) -> Vec<(Start, u8)> {
        let (lo, hi) = self.range(&s, h);
        (lo..=hi)
            .filter_map(|v| self.require(s, h, v, v).map(|s| (s, v)))
            .collect()
    }

    /// Hole `h` emptied (sown or captured).
    pub fn empty(&mut self, h: usize) {
        self.cell[h] = Cell::default();
    }

    /// Sows `stones` from hole `h` counterclockwise, skipping `h` on every lap: the
    /// Afrika sowing of [`mancala_core::afrika::Afrika`]'s `play`, on offsets.
    pub fn sow(&mut self, h: usize, stones: u8) {
        let n = self.holes as usize;
        self.empty(h);
        let rounds = stones as usize / (n - 1);
        let rest = stones as usize % (n - 1);
        for (i, c) in self.cell[..n].iter_mut().enumerate() {
            if i != h {
                c.add += rounds as u8;
            }
        }
        let mut i = h;
        for _ in 0..rest {
            i = (i + 1) % n;
            self.cell[i].add += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_compositions_within_ranges() {
        // 3 stones in 3 holes: C(5,2) = 10 compositions.
        assert_eq!(Start::unknown(3, 3).count(), 10);
        // Hole 0 holds at least 2: (2,1,0), (2,0,1), (3,0,0).
        let s = Start::unknown(3, 3).restrict(0, 2, 3).unwrap();
        assert_eq!(s.count(), 3);
        let mut seen = 0;
        assert_eq!(s.for_each(u64::MAX, &mut |h| seen += h[0] as u64), 3);
        assert_eq!(seen, 2 + 2 + 3);
        assert!(Start::unknown(3, 3).restrict(0, 4, 9).is_none());
    }

    #[test]
    fn tightening_follows_the_total() {
        let s = Start::unknown(2, 5).restrict(0, 0, 1).unwrap();
        assert_eq!(s.range(1), (4, 5));
    }

    #[test]
    fn sowing_adds_to_fresh_holes() {
        let mut c = Cells::start(4);
        c.sow(1, 5);
        // Holes 2, 3, 0 (skipping 1), 2, 3.
        assert_eq!(c.cell[2].add, 2);
        assert_eq!(c.cell[3].add, 2);
        assert_eq!(c.cell[0].add, 1);
        assert!(!c.cell[1].fresh && c.cell[1].add == 0);
        let s = Start::unknown(4, 5).restrict(1, 5, 5).unwrap();
        assert_eq!(c.range(&s, 2), (2, 2));
        assert!(c.require(s, 1, 1, 9).is_none());
    }
}
