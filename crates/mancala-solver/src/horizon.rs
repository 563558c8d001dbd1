//! What the depth-limited searches of one deepening pass found but could not prove.
//!
//! Inside a null-window test of a game that can repeat, the search deepens (see
//! [`crate::Deepening`]): a pass to depth d scores its horizon as the worst outcome the
//! bounds allow for one side. Seen from the player to move at a node, that makes the pass
//! compute either a *low* value (horizon worst for him: a lower bound on the true value,
//! never above it) or a *high* one (horizon best for him). The transposition table keeps
//! only the proven side (a low value's lower bounds, a high value's upper bounds). The
//! other side ("the low value with r plies left is at most u": no proof of more within r
//! plies) used to be dropped, so every transposition inside a pass searched its subtree
//! again: a tree search where the position graph is a DAG.
//!
//! This memo keeps that other side for the current pass, per thread, with the depth left
//! at which it was found. A node entered again in the same pass with no more depth left
//! fails at once. A low value only grows with the depth left (each horizon leaf it
//! replaces by a search was the worst case), so "at most u with r plies" holds for any
//! r' <= r. Nothing here is a proof: a cut-off from the memo only ever returns the side of
//! a result that the table drops, so every stored bound is still proven by the search.
//!
//! The heuristic searches of an exact search's first guess use the same memo, where a
//! result serves only a node with exactly its depth left ([`HorizonMemo::cut_at`]): a
//! heuristic value need not grow with the depth, and proves nothing either, so what rests
//! on such a cut-off is never stored as a bound.
//!
//! Entries live for one pass (tagged with a pass number). Keeping them across passes was
//! measured too: it cut Afrika's nodes further but doubled Andada's, since a later pass
//! leaves on bounds the earlier passes proved, which make old "no proof" answers stale.

/// Entries per thread (16 bytes each): 16 MB. Measured on `afrika:8x3 --value-only`
/// (one thread): 2^14 entries 11.5 M nodes, 2^18 9.1 M, 2^20 7.0 M, 2^22 17.1 M, 2^24
/// 10.6 M (without the memo 76.3 M). Larger is not always better: an entry can go stale
/// within its pass, when the pass proves bounds that its horizon then uses.
const ENTRIES: usize = 1 << 20;

/// Deepest depth left that an entry records; deeper results are recorded as this depth
/// (claiming less than was searched, which is always sound).
const MAX_DEPTH: u32 = u8::MAX as u32;

/// One entry: the full key, and the pass, the low value's upper bound with its depth
/// and the high value's lower bound with its depth, relative to the banked margin. Packed
/// in a `u128` so that the memo is allocated zeroed (by the system, page by page).
#[derive(Copy, Clone)]
struct Slot {
    key: u64,
    pass: u16,
    low_upper: i16,
    high_lower: i16,
    low_depth: u8,
    high_depth: u8,
}

impl Slot {
    #[inline(always)]
    fn unpack(w: u128) -> Slot {
        let d = (w >> 64) as u64;
        Slot {
            key: w as u64,
            pass: d as u16,
            low_upper: (d >> 16) as u16 as i16,
            high_lower: (d >> 32) as u16 as i16,
            low_depth: (d >> 48) as u8,
            high_depth: (d >> 56) as u8,
        }
    }

    #[inline(always)]
    fn pack(self) -> u128 {
        let d = self.pass as u64
            | (self.low_upper as u16 as u64) << 16
            | (self.high_lower as u16 as u64) << 32
            | (self.low_depth as u64) << 48
            | (self.high_depth as u64) << 56;
        (d as u128) << 64 | self.key as u128
    }
}

/// Which one-sided value a depth-limited pass computes at a node (see the module doc).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Side {
    /// The horizon is the worst for the player to move here: lower bounds are proven.
    Low,
    /// The horizon is the best for him: upper bounds are proven.
    High,
}

/// The per-thread memo of unproven depth-limited results.
pub struct HorizonMemo {
    slots: Vec<u128>,
    pass: u16,
}

impl HorizonMemo {
    /// A memo for a search that deepens; allocated once per thread.
    pub fn new() -> Self {
        HorizonMemo {
            slots: vec![0; ENTRIES],
            pass: 1,
        }
    }

    /// Starts a new pass: every earlier entry is ignored from now on. (The tag wraps
    /// after 65,535 passes; an entry that old reads as current, which costs nothing in
    /// soundness, see the module doc.)
    pub fn next_pass(&mut self) {
        self.pass = self.pass.wrapping_add(1).max(1);
    }

    #[inline(always)]
    fn slot(&self, key: u64) -> usize {
        (key as usize) & (ENTRIES - 1)
    }

    /// A cut-off for a node entered with `depth` plies left and window `(alpha, beta)`
    /// (relative to the banked margin): the unproven side already found in this pass
    /// with at least that much depth, when it falls outside the window.
    #[inline]
    pub fn cut(&self, key: u64, side: Side, depth: u32, alpha: i32, beta: i32) -> Option<i32> {
        let s = Slot::unpack(self.slots[self.slot(key)]);
        if s.key != key || s.pass != self.pass {
            return None;
        }
        match side {
            Side::Low if s.low_depth as u32 >= depth && (s.low_upper as i32) <= alpha => {
                Some(s.low_upper as i32)
            }
            Side::High if s.high_depth as u32 >= depth && (s.high_lower as i32) >= beta => {
                Some(s.high_lower as i32)
            }
            _ => None,
        }
    }

    /// A cut-off in a heuristic search ([`crate::search`]'s first guess), where a value
    /// need not grow or fall with the depth: only a result found with exactly `depth`
    /// plies left serves. There a [`Side::Low`] entry holds an upper bound of the
    /// heuristic value and a [`Side::High`] entry a lower bound (both [`Self::record`]).
    #[inline]
    pub fn cut_at(&self, key: u64, depth: u32, alpha: i32, beta: i32) -> Option<i32> {
        let s = Slot::unpack(self.slots[self.slot(key)]);
        if s.key != key || s.pass != self.pass {
            return None;
        }
        let d = depth.min(MAX_DEPTH);
        if s.low_depth as u32 == d && (s.low_upper as i32) <= alpha {
            Some(s.low_upper as i32)
        } else if s.high_depth as u32 == d && (s.high_lower as i32) >= beta {
            Some(s.high_lower as i32)
        } else {
            None
        }
    }

    /// Records a node's unproven side: for [`Side::Low`] an upper bound, for
    /// [`Side::High`] a lower bound, found with `depth` plies left.
    #[inline]
    pub fn record(&mut self, key: u64, side: Side, depth: u32, bound: i32) {
        let i = self.slot(key);
        let pass = self.pass;
        let mut s = Slot::unpack(self.slots[i]);
        if s.key != key || s.pass != pass {
            s = Slot {
                key,
                pass,
                low_upper: i16::MAX,
                high_lower: i16::MIN,
                low_depth: 0,
                high_depth: 0,
            };
        }
        let d = depth.min(MAX_DEPTH) as u8;
        let b = bound.clamp(i16::MIN as i32 + 1, i16::MAX as i32 - 1) as i16;
        match side {
            Side::Low if d > s.low_depth || (d == s.low_depth && b < s.low_upper) => {
                (s.low_upper, s.low_depth) = (b, d);
            }
            Side::High if d > s.high_depth || (d == s.high_depth && b > s.high_lower) => {
                (s.high_lower, s.high_depth) = (b, d);
            }
            _ => return,
        }
        self.slots[i] = s.pack();
    }
}

impl Default for HorizonMemo {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_result_serves_no_deeper_node_and_no_later_pass() {
        let mut m = HorizonMemo::new();
        m.record(42, Side::Low, 6, -1);
        assert_eq!(m.cut(42, Side::Low, 6, -1, 0), Some(-1));
        assert_eq!(m.cut(42, Side::Low, 4, 0, 1), Some(-1));
        assert_eq!(m.cut(42, Side::Low, 8, -1, 0), None, "deeper");
        assert_eq!(m.cut(42, Side::Low, 4, -2, -1), None, "inside the window");
        assert_eq!(m.cut(42, Side::High, 4, -5, -4), None, "the other side");
        assert_eq!(
            m.cut(42 + ENTRIES as u64, Side::Low, 4, 0, 1),
            None,
            "another key"
        );
        m.next_pass();
        assert_eq!(m.cut(42, Side::Low, 4, 0, 1), None, "a later pass");
    }

    #[test]
    fn a_heuristic_result_serves_only_its_own_depth() {
        let mut m = HorizonMemo::new();
        m.record(9, Side::Low, 6, -1);
        m.record(9, Side::High, 6, -3);
        assert_eq!(m.cut_at(9, 6, -1, 0), Some(-1), "at most -1");
        assert_eq!(m.cut_at(9, 6, -4, -3), Some(-3), "at least -3");
        assert_eq!(m.cut_at(9, 6, -2, -1), None, "inside the window");
        assert_eq!(m.cut_at(9, 5, -1, 0), None, "less depth left");
        assert_eq!(m.cut_at(9, 7, -1, 0), None, "more depth left");
        m.next_pass();
        assert_eq!(m.cut_at(9, 6, -1, 0), None, "a later pass");
    }

    #[test]
    fn the_deeper_or_tighter_result_stays() {
        let mut m = HorizonMemo::new();
        m.record(7, Side::High, 4, 1);
        m.record(7, Side::High, 2, 3);
        assert_eq!(m.cut(7, Side::High, 4, 0, 1), Some(1));
        assert_eq!(
            m.cut(7, Side::High, 2, 2, 3),
            None,
            "the shallower entry was dropped"
        );
        m.record(7, Side::High, 4, 2);
        assert_eq!(m.cut(7, Side::High, 3, 1, 2), Some(2));
        m.record(7, Side::Low, 1000, -3);
        assert_eq!(m.cut(7, Side::Low, 255, -3, -2), Some(-3));
        assert_eq!(
            m.cut(7, Side::Low, 256, -3, -2),
            None,
            "depth recorded as 255"
        );
        assert_eq!(m.cut(7, Side::High, 4, 0, 1), Some(2), "both sides kept");
    }
}
