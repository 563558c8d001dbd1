//! Proof and disproof numbers by position: buckets of four 16-byte entries, one cache
//! line each, replaced by the work below them. Settled entries (proven or disproven) are
//! kept before unsettled ones, since the certificate checks read them back after the
//! search; leaves (finished games, database positions: [`ProofTable::put_leaf`]) are the
//! exception, kept only where nothing else needs the slot.
//!
//! An entry keeps 48 bits of its key, bits 16-63; the bucket index is bits 0 to k - 1
//! of a table of 2^k buckets, so two positions are told apart by min(48, 64 - k) bits
//! besides the bucket (37 in a table of 8 GB): a clash is possible, about once in 10^10
//! lookups of a full 8 GB table, and it could mislead the search. It cannot make a wrong
//! answer pass, since the certificate checks play out every position they rely on and
//! take from the table only which move to follow.

use super::INFINITE;

/// One position's numbers. A check of 0 marks an empty slot (a real check of 0 is
/// stored as 1).
#[derive(Copy, Clone, Default)]
#[repr(C)]
struct Entry {
    /// Bits 32-63 of the key.
    check: u32,
    /// Bits 16-31 of the key.
    check_low: u16,
    /// The high bit marks a settled entry; the rest is the bit length of the nodes
    /// searched below it (replacement goes by orders of magnitude). 0 for a leaf's
    /// verdict ([`ProofTable::put_leaf`]), which any other entry replaces.
    keep: u16,
    pn: u32,
    dn: u32,
}

impl Entry {
    fn is_empty(&self) -> bool {
        (self.check, self.check_low) == (0, 0)
    }

    /// Gives a settled entry of one node the rank of a leaf, as tables saved before
    /// leaves had their own rank stored leaves so; returns whether it did.
    fn demote_if_one_node_settled(&mut self) -> bool {
        let demote = self.keep == SETTLED | 1;
        if demote {
            self.keep = 0;
        }
        demote
    }
}

/// The slot a new entry takes in a full bucket: an empty one, else the one of least work
/// (leaves first).
fn least_valuable(bucket: &[Entry; WAYS]) -> usize {
    (0..WAYS)
        .min_by_key(|&i| {
            let e = &bucket[i];
            if e.is_empty() { 0 } else { e.keep as u32 + 1 }
        })
        .expect("a bucket has entries")
}

const WAYS: usize = 4;

/// What [`ProofTable::take_bucket`] did with a saved bucket's entries.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Taken {
    /// Entries that did not fit (or met a more valuable one with the same check).
    pub dropped: u64,
    /// Settled entries of one node read as leaves.
    pub demoted: u64,
}

/// 8-byte words per bucket (one cache line).
pub const BUCKET_WORDS: usize = std::mem::size_of::<Bucket>() / 8;

/// One cache line.
#[derive(Copy, Clone, Default)]
#[repr(C, align(64))]
struct Bucket([Entry; WAYS]);

const SETTLED: u16 = 1 << 15;

/// The memory for a table was refused, or is more than the system has free.
#[derive(Debug, thiserror::Error)]
#[error("a proof table of {mb} MB does not fit: {available_mb} MB of memory available")]
pub struct TableTooBig {
    pub mb: usize,
    pub available_mb: u64,
}

/// The table: `2^k` buckets of four entries, one cache line each.
pub struct ProofTable {
    buckets: Vec<Bucket>,
    mask: usize,
    /// A new entry always finds a slot ([`ProofTable::prefer_newest`]).
    newest: bool,
}

impl ProofTable {
    /// A table of at most `mb` megabytes (a power of two of buckets, at least one).
    ///
    /// # Panics
    /// When the memory cannot be had; [`ProofTable::try_with_mb`] returns an error instead.
    pub fn with_mb(mb: usize) -> Self {
        Self::try_with_mb(mb).expect("memory for the proof table")
    }

    /// [`ProofTable::with_mb`], or an error when the system refuses the memory.
    pub fn try_with_mb(mb: usize) -> Result<Self, TableTooBig> {
        Self::with_buckets(Self::buckets_for_mb(mb), mb)
    }

    /// The size in bytes of the table [`ProofTable::try_with_mb`] makes for `mb`, so that
    /// a size asked for can be compared with a saved table's without allocating.
    pub fn bytes_for_mb(mb: usize) -> usize {
        Self::buckets_for_mb(mb) * std::mem::size_of::<Bucket>()
    }

    /// The largest power of two of buckets within `mb` megabytes, at least one.
    fn buckets_for_mb(mb: usize) -> usize {
        let want = mb.saturating_mul(1 << 20) / std::mem::size_of::<Bucket>();
        1 << want.max(1).ilog2()
    }

    /// A table of `count` buckets (a power of two), `mb` being what was asked for.
    fn with_buckets(count: usize, mb: usize) -> Result<Self, TableTooBig> {
        let available = crate::tt::available_memory().unwrap_or(u64::MAX);
        let refused = TableTooBig {
            mb,
            available_mb: available >> 20,
        };
        if (count * std::mem::size_of::<Bucket>()) as u64 > available {
            return Err(refused);
        }
        let mut buckets = Vec::new();
        buckets.try_reserve_exact(count).map_err(|_| refused)?;
        advise_huge_pages(&buckets);
        buckets.resize(count, Bucket::default());
        Ok(ProofTable {
            buckets,
            mask: count - 1,
            newest: false,
        })
    }

    /// A table of `words` 8-byte words (as [`ProofTable::words`] gives them), empty;
    /// `None` when no table has that many.
    pub fn with_words(words: u64) -> Option<Result<Self, TableTooBig>> {
        let count = Self::buckets_in_words(words)?;
        let mb = (count * std::mem::size_of::<Bucket>()) >> 20;
        Some(Self::with_buckets(count, mb))
    }

    /// The buckets of a table of `words` 8-byte words; `None` when no table has that many.
    pub fn buckets_in_words(words: u64) -> Option<usize> {
        let per_bucket = BUCKET_WORDS as u64;
        let count = words / per_bucket;
        if count == 0 || !count.is_power_of_two() || count * per_bucket != words {
            return None;
        }
        usize::try_from(count).ok()
    }

    /// The table as 8-byte words, for saving it.
    pub fn words(&self) -> &[u64] {
        // SAFETY: a bucket is 64 bytes of plain u32s (repr(C), no padding), aligned to 64.
        unsafe {
            std::slice::from_raw_parts(
                self.buckets.as_ptr() as *const u64,
                self.buckets.len() * std::mem::size_of::<Bucket>() / 8,
            )
        }
    }

    /// The table as 8-byte words, for loading it. Any words make a valid table.
    pub fn words_mut(&mut self) -> &mut [u64] {
        // SAFETY: as in `words`; every bit pattern is a valid entry.
        unsafe {
            std::slice::from_raw_parts_mut(
                self.buckets.as_mut_ptr() as *mut u64,
                self.buckets.len() * std::mem::size_of::<Bucket>() / 8,
            )
        }
    }

    /// From now on a new entry always finds a slot: the least valuable entry of its
    /// bucket makes room, where otherwise a bucket of more valuable entries refuses it.
    /// Leaves ([`ProofTable::put_leaf`]) still take only free slots or other leaves':
    /// read again from the rules or the database, they are cheaper than any search.
    /// For the certificate check's repairs, whose newest entries are the ones the check
    /// reads next: in a table full of older settled entries, refused entries had to be
    /// repaired again (`prove kalah:6x4 --at-least 12 --tt-mb 128 --repair-mb 32`: 51,160
    /// repairs, 22.3 M nodes; newest first 20,735 repairs, 13.2 M nodes; with 16 MB not
    /// ended in 100 s, newest first 25.6 s in all).
    pub fn prefer_newest(&mut self) {
        self.newest = true;
    }

    /// Bytes held.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>()
    }

    /// The bucket index (low bits) and the check (bits 16-63, never 0) of `key`.
    #[inline(always)]
    fn split(&self, key: u64) -> (usize, (u32, u16)) {
        let check = ((key >> 16) & 0xFFFF_FFFF_FFFF).max(1);
        (
            key as usize & self.mask,
            ((check >> 16) as u32, check as u16),
        )
    }

    /// Whether the entries of a saved table of `count` buckets can be moved into the table
    /// [`ProofTable::try_with_mb`] makes for `mb` (asked before that table is made): always
    /// into a smaller table, and into a larger one when the saved table had at least 2^16
    /// buckets (4 MB), since an entry keeps only bits 16-63 of its key and a smaller
    /// table's bucket index leaves some of bits 0-15 unknown.
    pub fn can_move(count: usize, mb: usize) -> bool {
        count.is_power_of_two() && (Self::buckets_for_mb(mb) <= count || count >= 1 << 16)
    }

    /// Moves the entries of bucket `index` of a saved table of `count` buckets (its
    /// [`BUCKET_WORDS`] words, as [`ProofTable::words`] gave them) into this table, so a
    /// resumed search can have a table of another size than the one it saved
    /// ([`ProofTable::can_move`] must hold). Into a larger table nothing is lost: a
    /// bucket's entries spread over the buckets its keys' next bits name. Into a smaller one
    /// several buckets meet, and the least valuable entries beyond four give way (the one
    /// already there on a tie); two entries that the smaller table cannot tell apart (the
    /// same check) become one, the more valuable. With `demote`, settled entries of one
    /// node become leaves before they compete (a version-1 table's leaves,
    /// [`ProofTable::demote_one_node_settled`]).
    ///
    /// The key is rebuilt from the saved bucket index (its low bits) and the check (bits
    /// 16 and up). One key in 2^48 is not found again in a larger table: one whose bits
    /// 16-63 are all 0, stored with check 1 (`ProofTable::split`), moved from a table of
    /// exactly 2^16 buckets.
    pub fn take_bucket(
        &mut self,
        index: usize,
        count: usize,
        words: [u64; BUCKET_WORDS],
        demote: bool,
    ) -> Taken {
        debug_assert!(count.is_power_of_two() && index < count);
        debug_assert!(self.buckets.len() <= count || count >= 1 << 16);
        // SAFETY: a bucket is 64 bytes of plain integers (repr(C), no padding); every bit
        // pattern is a valid bucket.
        let saved: Bucket = unsafe { std::mem::transmute(words) };
        let below = count as u64 - 1;
        let mut taken = Taken::default();
        for mut e in saved.0 {
            if e.is_empty() {
                continue;
            }
            if demote && e.demote_if_one_node_settled() {
                taken.demoted += 1;
            }
            let high = (e.check as u64) << 32 | (e.check_low as u64) << 16;
            let key = high & !below | index as u64 & below;
            let bucket = &mut self.buckets[key as usize & self.mask].0;
            let same = bucket
                .iter()
                .position(|x| (x.check, x.check_low) == (e.check, e.check_low));
            let i = same.unwrap_or_else(|| least_valuable(bucket));
            let there = bucket[i];
            if there.is_empty() {
                bucket[i] = e;
            } else {
                taken.dropped += 1;
                if there.keep < e.keep {
                    bucket[i] = e;
                }
            }
        }
        taken
    }

    /// Asks the processor to fetch `key`'s bucket (a hint; no effect on results).
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the index is masked into the table; a prefetch never faults.
        unsafe {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let p = self.buckets.as_ptr().add(self.split(key).0) as *const i8;
            _mm_prefetch(p, _MM_HINT_T0);
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The numbers stored for `key`, if any.
    #[inline]
    pub fn get(&self, key: u64) -> Option<(u32, u32)> {
        let (b, check) = self.split(key);
        self.buckets[b]
            .0
            .iter()
            .find(|e| (e.check, e.check_low) == check)
            .map(|e| (e.pn, e.dn))
    }

    /// Stores the numbers of a leaf (a finished game, or a position the database holds),
    /// only where a slot is free or holds another leaf: the search can find a leaf's
    /// verdict again without searching, while every other entry holds searched work.
    /// Stored as settled entries of one node, leaves had filled 60 % of the Kalah 6 x 6
    /// "at least +8" table (160 M of its 268 M entries were settled entries of one node)
    /// and outranked every unsettled entry. Nodes before / after, `mancala prove
    /// kalah:6x4 --at-least 12` ("no"): `--tt-mb 1024` 39,517,920 / 39,046,277, 64 MB
    /// 76,150,479 / 53,678,371, 32 MB 878,092,522 / 344,440,897; `prove kalah:6x5 --rules
    /// standard-capture --at-least 12 --db-dir kdb --tt-mb 256` (28-seed database; leaves
    /// not stored at all) no answer in 900 s / 243,140,959 nodes in 149 s; `prove andada:6
    /// --only mover --tt-mb 1024 --db andada-6-12.db` 15,668,449 / 14,055,821.
    pub fn put_leaf(&mut self, key: u64, pn: u32, dn: u32) {
        let (b, check) = self.split(key);
        let bucket = &mut self.buckets[b].0;
        let slot = bucket
            .iter()
            .position(|e| (e.check, e.check_low) == check)
            .or_else(|| bucket.iter().position(Entry::is_empty))
            .or_else(|| bucket.iter().position(|e| e.keep == 0));
        if let Some(i) = slot {
            bucket[i] = Entry {
                check: check.0,
                check_low: check.1,
                keep: 0,
                pn,
                dn,
            };
        }
    }

    /// Gives settled entries of one node the rank of leaves ([`ProofTable::put_leaf`]):
    /// tables saved before leaves had their own rank stored them so. Returns how many.
    pub fn demote_one_node_settled(&mut self) -> u64 {
        let entries = self.buckets.iter_mut().flat_map(|b| b.0.iter_mut());
        entries.map(|e| e.demote_if_one_node_settled() as u64).sum()
    }

    /// Stores `key`'s numbers with the `work` (nodes) they took.
    pub fn put(&mut self, key: u64, pn: u32, dn: u32, work: u64) {
        let (b, check) = self.split(key);
        let settled = if pn >= INFINITE || dn >= INFINITE || pn == 0 || dn == 0 {
            SETTLED
        } else {
            0
        };
        let keep = settled | (u64::BITS - work.leading_zeros()) as u16;
        let bucket = &mut self.buckets[b].0;
        let slot = match bucket.iter().position(|e| (e.check, e.check_low) == check) {
            Some(i) => i,
            None => {
                let i = least_valuable(bucket);
                let victim = bucket[i];
                if !self.newest && !victim.is_empty() && victim.keep > keep {
                    // Everything here is worth more than the new entry.
                    return;
                }
                i
            }
        };
        bucket[slot] = Entry {
            check: check.0,
            check_low: check.1,
            keep,
            pn,
            dn,
        };
    }
}

/// Asks for huge pages under the reserved, still untouched memory of `slots`: a big table
/// is probed at random, and with 4 KB pages nearly every probe is a TLB miss. A hint;
/// refused, the table runs on ordinary pages.
fn advise_huge_pages(slots: &Vec<Bucket>) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let start = slots.as_ptr() as usize;
        let end = start + slots.capacity() * std::mem::size_of::<Bucket>();
        let aligned = start.next_multiple_of(HUGE);
        if end > aligned + HUGE {
            let len = (end - aligned) / HUGE * HUGE;
            // SAFETY: the range lies inside the allocation `slots` owns; madvise only
            // changes how the kernel backs it.
            unsafe {
                libc::madvise(aligned as *mut libc::c_void, len, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = slots;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_what_it_stores_and_prefers_settled_entries() {
        // One bucket; the checks are the keys' bits 16-63.
        let key = |k: u64| k << 16;
        let mut t = ProofTable::with_mb(0);
        assert_eq!(t.get(key(7)), None);
        t.put(key(7), 3, 4, 10);
        assert_eq!(t.get(key(7)), Some((3, 4)));
        t.put(key(7), 0, INFINITE, 12);
        assert_eq!(t.get(key(7)), Some((0, INFINITE)));
        // Four more positions compete for the bucket; the settled one stays.
        for k in 8..12 {
            t.put(key(k), 2, 2, 1_000_000);
        }
        assert_eq!(t.get(key(7)), Some((0, INFINITE)));
        assert_eq!(t.get(key(3)), None);
        t.put(key(0), 5, 5, 1 << 40);
        assert_eq!(
            t.get(key(0)),
            Some((5, 5)),
            "a key whose check is 0 is stored too"
        );
        assert_eq!(
            std::mem::size_of::<Bucket>(),
            64,
            "a bucket is one cache line"
        );
    }
    #[test]
    fn a_leaf_takes_a_free_slot_or_a_leafs_and_gives_way_to_any_other_entry() {
        let key = |k: u64| k << 16;
        let mut t = ProofTable::with_mb(0);
        t.put_leaf(key(1), 0, INFINITE);
        t.put(key(2), 5, 5, 2);
        t.put_leaf(key(3), INFINITE, 0);
        t.put_leaf(key(4), 0, INFINITE);
        assert_eq!(t.get(key(1)), Some((0, INFINITE)));
        assert_eq!(t.get(key(3)), Some((INFINITE, 0)));
        // The bucket is full: a fifth leaf replaces a leaf, an unsettled entry of the
        // least work replaces a leaf too.
        t.put_leaf(key(5), 0, INFINITE);
        assert_eq!(t.get(key(5)), Some((0, INFINITE)));
        assert_eq!(t.get(key(2)), Some((5, 5)));
        t.put(key(6), 7, 7, 1);
        t.put(key(7), 8, 8, 1);
        t.put(key(8), 9, 9, 1);
        for k in [2, 6, 7, 8] {
            assert!(t.get(key(k)).is_some(), "{k}");
        }
        // No leaf replaces an entry of searched work.
        t.put_leaf(key(9), 0, INFINITE);
        assert_eq!(t.get(key(9)), None);
        // Settled entries of one node, as older tables stored leaves, can be demoted.
        let mut old = ProofTable::with_mb(0);
        for k in 1..5 {
            old.put(key(k), 0, INFINITE, 1);
        }
        old.put(key(5), 3, 3, 1 << 20);
        assert_eq!(old.get(key(5)), None, "settled entries outrank it");
        assert_eq!(old.demote_one_node_settled(), 4);
        old.put(key(5), 3, 3, 1 << 20);
        assert_eq!(old.get(key(5)), Some((3, 3)));
    }

    /// Moves every bucket of `from` into `to` as a resumed search does.
    fn move_all(from: &ProofTable, to: &mut ProofTable, demote: bool) -> Taken {
        let count = from.buckets.len();
        let mut all = Taken::default();
        for (index, words) in from.words().chunks(BUCKET_WORDS).enumerate() {
            let t = to.take_bucket(index, count, words.try_into().unwrap(), demote);
            all.dropped += t.dropped;
            all.demoted += t.demoted;
        }
        all
    }

    #[test]
    fn moving_into_a_smaller_table_keeps_one_entry_of_a_check_and_the_searched_work() {
        let key = |k: u64| k << 16;
        let two = || {
            ProofTable::with_words(2 * BUCKET_WORDS as u64)
                .unwrap()
                .unwrap()
        };
        // Two buckets whose keys differ in bit 0 only meet in a table of one bucket, where
        // the check alone tells entries apart: one entry, the more valuable.
        let mut t = two();
        t.put(key(7), 1, 2, 1);
        t.put(key(7) | 1, 3, 4, 1 << 5);
        let mut one = ProofTable::with_mb(0);
        assert_eq!(move_all(&t, &mut one, false).dropped, 1);
        assert_eq!(one.get(key(7)), Some((3, 4)));
        one.put(key(7), 5, 5, 1);
        for k in 1..4 {
            one.put(key(k), 9, 9, 1 << 10);
        }
        assert_eq!(one.get(key(7)), Some((5, 5)), "no older copy left behind");

        // A version-1 table's leaves (settled entries of one node) are demoted before
        // they compete: searched work keeps the slots.
        let mut t = two();
        for k in 1..5 {
            t.put(key(k), 0, INFINITE, 1);
            t.put(key(k) | 1, 3, 3, 1 << 20);
        }
        let mut one = ProofTable::with_mb(0);
        let taken = move_all(&t, &mut one, true);
        assert_eq!((taken.dropped, taken.demoted), (4, 4));
        for k in 1..5 {
            assert_eq!(one.get(key(k)), Some((3, 3)), "{k}");
        }
    }

    #[test]
    fn moving_into_a_larger_table_rebuilds_the_low_bits_from_the_bucket_index() {
        // 2^17 buckets: bit 16 of a key is in its bucket index; a key whose bits 16-63
        // are 0 is stored with check 1 and must still be found after the move.
        let mut t = ProofTable::with_mb(8);
        let keys = [0x1234, 0x1_1234, 0xABCD_0000_5678];
        for (i, &k) in keys.iter().enumerate() {
            t.put(k, i as u32 + 1, 1, 1 << 10);
        }
        let mut big = ProofTable::with_mb(16);
        assert_eq!(move_all(&t, &mut big, false).dropped, 0);
        for (i, &k) in keys.iter().enumerate() {
            assert_eq!(big.get(k), Some((i as u32 + 1, 1)), "{k:x}");
        }
    }

    #[test]
    fn a_table_that_prefers_the_newest_entries_never_refuses_one() {
        let key = |k: u64| k << 16;
        let mut t = ProofTable::with_mb(0);
        for k in 1..5 {
            t.put(key(k), 0, INFINITE, 1 << 30);
        }
        // Four settled entries of much work fill the bucket: a small one is refused...
        t.put(key(9), 0, INFINITE, 1);
        assert_eq!(t.get(key(9)), None);
        // ...unless the table prefers its newest entries.
        t.prefer_newest();
        t.put(key(9), 0, INFINITE, 1);
        assert_eq!(t.get(key(9)), Some((0, INFINITE)));
        assert_eq!((1..5).filter(|&k| t.get(key(k)).is_some()).count(), 3);
    }
}
