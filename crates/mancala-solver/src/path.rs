//! The current search path as a set: which positions are on it and at which index, in
//! O(1), so repetition checks cost nothing even when a capture-free stretch is thousands
//! of plies deep.

/// Keys of the positions on the path, with their path indices. Open addressing with
/// linear probing; removal by backward shift (entries leave in LIFO order).
pub struct PathSet {
    slots: Vec<(u64, u32)>,
    mask: usize,
    len: usize,
}

const EMPTY: u32 = u32::MAX;

impl Default for PathSet {
    fn default() -> Self {
        Self::with_capacity(1024)
    }
}

impl PathSet {
    pub fn with_capacity(n: usize) -> Self {
        let cap = (n * 2).next_power_of_two().max(16);
        PathSet {
            slots: vec![(0, EMPTY); cap],
            mask: cap - 1,
            len: 0,
        }
    }

    #[inline(always)]
    fn home(&self, key: u64) -> usize {
        (key >> 7) as usize & self.mask
    }

    /// The path index of `key`, if it is on the path.
    #[inline]
    pub fn get(&self, key: u64) -> Option<u32> {
        let mut i = self.home(key);
        loop {
            let (k, idx) = self.slots[i];
            if idx == EMPTY {
                return None;
            }
            if k == key {
                return Some(idx);
            }
            i = (i + 1) & self.mask;
        }
    }

    /// Adds `key` at path index `idx` (the key must not be present).
    #[inline]
    pub fn insert(&mut self, key: u64, idx: u32) {
        if 2 * (self.len + 1) > self.slots.len() {
            self.grow();
        }
        let mut i = self.home(key);
        while self.slots[i].1 != EMPTY {
            i = (i + 1) & self.mask;
        }
        self.slots[i] = (key, idx);
        self.len += 1;
    }

    /// Removes `key` (which must be present).
    #[inline]
    pub fn remove(&mut self, key: u64) {
        let mut i = self.home(key);
        while self.slots[i].0 != key || self.slots[i].1 == EMPTY {
            i = (i + 1) & self.mask;
        }
        // Backward-shift deletion keeps every probe sequence unbroken.
        let mut hole = i;
        let mut j = i;
        loop {
            j = (j + 1) & self.mask;
            let (k, idx) = self.slots[j];
            if idx == EMPTY {
                break;
            }
            let h = self.home(k);
            // Move j into the hole if its home is not cyclically in (hole, j].
            let in_range = if hole <= j {
                hole < h && h <= j
            } else {
                hole < h || h <= j
            };
            if !in_range {
                self.slots[hole] = (k, idx);
                hole = j;
            }
        }
        self.slots[hole] = (0, EMPTY);
        self.len -= 1;
    }

    pub fn clear(&mut self) {
        self.slots.fill((0, EMPTY));
        self.len = 0;
    }

    fn grow(&mut self) {
        let old = std::mem::take(&mut self.slots);
        let cap = old.len() * 2;
        self.slots = vec![(0, EMPTY); cap];
        self.mask = cap - 1;
        self.len = 0;
        for (k, idx) in old {
            if idx != EMPTY {
                self.insert(k, idx);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mancala_core::game::SplitMix;

    #[test]
    fn behaves_like_a_map_under_lifo_use() {
        let mut rng = SplitMix(5);
        let mut set = PathSet::with_capacity(4);
        let mut stack: Vec<u64> = Vec::new();
        for step in 0..20_000 {
            if stack.is_empty() || rng.below(3) > 0 {
                // Few distinct high bits: many keys share a home slot.
                let k = (rng.next_u64() & 0xFFFF_F000_0000_0F80) | step as u64 & 0x7F;
                if set.get(k).is_none() {
                    set.insert(k, stack.len() as u32);
                    stack.push(k);
                }
            } else {
                let k = stack.pop().unwrap();
                set.remove(k);
            }
            for (i, &k) in stack.iter().enumerate().rev().take(5) {
                assert_eq!(set.get(k), Some(i as u32));
            }
        }
        for k in stack.drain(..).rev() {
            set.remove(k);
        }
        assert_eq!(set.len, 0);
    }
}
