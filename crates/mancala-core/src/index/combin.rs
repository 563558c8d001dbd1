//! Perfect indices of stone distributions: the combinatorial number system.
//!
//! A distribution of `s` stones over `h` holes is a multiset; written as stars and bars it
//! is a choice of `h - 1` bar positions among `s + h - 1` slots, and the colex rank of that
//! choice numbers all C(s + h - 1, h - 1) distributions densely from 0.

use crate::player::Player;

/// Binomial coefficients up to `MAX_N` choose `MAX_N`.
pub struct Binomials {
    table: Vec<Vec<u64>>,
}

const MAX_N: usize = 320;

impl Default for Binomials {
    fn default() -> Self {
        let mut table = vec![vec![0u64; MAX_N + 1]; MAX_N + 1];
        for n in 0..=MAX_N {
            table[n][0] = 1;
            for k in 1..=n {
                table[n][k] = table[n - 1][k - 1].saturating_add(table[n - 1][k]);
            }
        }
        Binomials { table }
    }
}

impl Binomials {
    /// C(n, k), saturating at u64::MAX; 0 when k > n.
    #[inline(always)]
    pub fn c(&self, n: usize, k: usize) -> u64 {
        if k > n { 0 } else { self.table[n][k] }
    }

    /// Number of distributions of `s` stones over `h` holes.
    pub fn distributions(&self, s: usize, h: usize) -> u64 {
        if h == 0 {
            return (s == 0) as u64;
        }
        self.c(s + h - 1, h - 1)
    }

    /// Positions that are a distribution of `s` stones over `h` holes with either player
    /// to move (the classes of Afrika and Andada).
    pub fn with_either_mover(&self, s: usize, h: usize) -> u64 {
        self.distributions(s, h).saturating_mul(2)
    }

    /// The number of `counts` with `to_move` among [`Binomials::with_either_mover`].
    #[inline]
    pub fn rank_with_mover(&self, counts: &[u8], to_move: Player) -> u64 {
        2 * self.rank(counts) + to_move.index() as u64
    }

    /// The inverse of [`Binomials::rank_with_mover`]: fills `out` with the distribution
    /// of `s` stones numbered `i` and returns the player to move.
    pub fn unrank_with_mover(&self, s: usize, i: u64, out: &mut [u8]) -> Player {
        self.unrank(s, i / 2, out);
        Player::from_index((i % 2) as usize)
    }

    /// The rank of `counts` among distributions of its total over `counts.len()` holes.
    #[inline]
    pub fn rank(&self, counts: &[u8]) -> u64 {
        // Bar j (0-based) stands after the stones of holes 0..=j: at slot
        // (stones in holes 0..=j) + j. Colex rank = sum of C(slot_j, j + 1).
        let mut r = 0;
        let mut stones = 0usize;
        for (j, &c) in counts[..counts.len().saturating_sub(1)].iter().enumerate() {
            stones += c as usize;
            r += self.c(stones + j, j + 1);
        }
        r
    }

    /// The distribution of `s` stones over `out.len()` holes with rank `r`.
    #[inline]
    pub fn unrank(&self, s: usize, mut r: u64, out: &mut [u8]) {
        let h = out.len();
        if h == 0 {
            return;
        }
        // Find the bars from the last: bar j's slot is the largest x with C(x, j+1) <= r.
        let mut hi = s + h - 1; // exclusive bound on the slot of bar h-2
        let mut slots = [0usize; 64];
        for j in (0..h - 1).rev() {
            let mut x = hi - 1;
            while self.c(x, j + 1) > r {
                x -= 1;
            }
            r -= self.c(x, j + 1);
            slots[j] = x;
            hi = x;
        }
        let mut prev_end = 0usize; // first slot after the previous bar
        for j in 0..h - 1 {
            out[j] = (slots[j] - prev_end) as u8;
            prev_end = slots[j] + 1;
        }
        out[h - 1] = (s + h - 1 - prev_end) as u8;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_and_unrank_enumerate_every_distribution_once() {
        let b = Binomials::default();
        for h in 1..=5 {
            for s in 0..=6 {
                let n = b.distributions(s, h);
                let mut seen = std::collections::HashSet::new();
                let mut out = vec![0u8; h];
                for r in 0..n {
                    b.unrank(s, r, &mut out);
                    assert_eq!(out.iter().map(|&x| x as usize).sum::<usize>(), s);
                    assert_eq!(b.rank(&out), r, "{out:?}");
                    assert!(seen.insert(out.clone()));
                }
                assert_eq!(seen.len() as u64, n);
            }
        }
        assert_eq!(b.distributions(128, 16), b.c(143, 15));
    }
}
