//! Proof and disproof numbers by position: buckets of eight 8-byte entries, one cache
//! line each, replaced by the work below them. A settled entry (proven or disproven)
//! counts as if [`SETTLED_WORTH`] times its work, since the certificate checks read them
//! back after the search; leaves (finished games, database positions:
//! [`ProofTable::put_leaf`]) are kept only where nothing else needs the slot.
//!
//! Why eight entries of 8 bytes and not four of 16: a search that outgrows its table
//! loses most of its speed at once. `prove kalah:6x5 --rules standard-capture --at-least
//! 12 --db-dir DIR` (the 30-seed database) took 101 M nodes with a table of 512 MB, 112 M
//! with 256 MB, 159 M with 128 MB and 902 M with 64 MB (4 M entries of 16 bytes, fewer
//! than the 9.4 M positions of the certificate it then found); the Kalah 6 x 6 searches
//! run with a table of 268 M such entries past 50 G nodes. The same memory now holds
//! twice the positions, at the price of numbers rounded up to 8 significant bits above
//! 127 and capped at 4,161,536 (they only steer the search: a proof or disproof, 0 and
//! infinity, is exact) and of a shorter check.
//!
//! An entry keeps 36 bits of its key, bits 28-63; the bucket index of a new table of 2^k
//! buckets is bits 0 to k - 1, so in a table of up to 16 GB two positions are told apart
//! by all 36 bits besides the bucket: a lookup meets another position's entry about once
//! in 2^36 / 8 = 8.6 x 10^9 lookups of a full table, and that could mislead the search.
//! It cannot make a wrong answer pass, since the certificate checks play out every
//! position they rely on and take from the table only which move to follow. A table
//! grown from a smaller saved one takes the rest of its index from the checked bits
//! ([`ProofTable::with_low_bits`]), so each doubling costs one bit of that;
//! [`MOST_BORROWED`] bounds it.
//!
//! Tables saved before 2026-12-01 hold four 16-byte entries a bucket (bits 16-63 of the
//! key, the numbers in full); [`ProofTable::take_bucket`] reads both layouts
//! ([`SavedEntries`]).

use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering::Relaxed;

use super::INFINITE;

/// One position's numbers in one word: the check (bits 0-35; 0 marks an empty slot, a
/// real check of 0 is stored as 1), the keep (bits 36-41: bit 5 marks a settled entry,
/// bits 0-4 half the bit length of the nodes searched below it, rounded up, so that
/// replacement goes by orders of magnitude; 0 for a leaf's verdict,
/// [`ProofTable::put_leaf`], which any other entry replaces), the proof number (bits
/// 42-52) and the disproof number (bits 53-63), each as [`pack`] codes it.
#[derive(Copy, Clone, Default, PartialEq, Eq, Debug)]
#[repr(transparent)]
struct Entry(u64);

const CHECK_BITS: u32 = 36;
const CHECK_MASK: u64 = (1 << CHECK_BITS) - 1;
/// The key's bits the check holds start here.
const CHECK_FROM: u32 = 64 - CHECK_BITS;
const KEEP_AT: u32 = 36;
const PN_AT: u32 = 42;
const DN_AT: u32 = 53;
const NUMBER_MASK: u64 = (1 << 11) - 1;
/// A settled entry's keep bit.
const SETTLED: u8 = 1 << 5;

impl Entry {
    fn new(check: u64, keep: u8, pn: u32, dn: u32) -> Self {
        Entry(check | u64::from(keep) << KEEP_AT | pack(pn) << PN_AT | pack(dn) << DN_AT)
    }

    fn check(self) -> u64 {
        self.0 & CHECK_MASK
    }

    fn keep(self) -> u8 {
        (self.0 >> KEEP_AT) as u8 & 63
    }

    fn numbers(self) -> (u32, u32) {
        (
            unpack(self.0 >> PN_AT & NUMBER_MASK),
            unpack(self.0 >> DN_AT & NUMBER_MASK),
        )
    }

    fn is_empty(self) -> bool {
        self.check() == 0
    }
}

/// The keep of an entry whose search took `work` nodes.
fn keep_for(settled: bool, work: u64) -> u8 {
    keep_of(settled, u64::BITS - work.leading_zeros())
}

/// The keep of an entry whose work has `bits` bits (as the wide entries kept it).
fn keep_of(settled: bool, bits: u32) -> u8 {
    let half_bits = bits.div_ceil(2).min(31) as u8;
    if settled {
        SETTLED | half_bits
    } else {
        half_bits
    }
}

/// Proof and disproof numbers in 11 bits: 0 to 127 as they are; above, 8 significant
/// bits and a shift, rounded up (up to 4,161,536 a position never looks cheaper than it
/// was found); [`INFINITE`] (and anything from it on) as the largest code. The largest
/// finite value is 254 x 2^14 = 4,161,536; a larger one is stored as that, lower than it
/// was (a cost in search, never in soundness: the search goes on from the numbers its
/// children return, and reads stored ones only to choose where to go).
fn pack(v: u32) -> u64 {
    const INFINITE_CODE: u64 = NUMBER_MASK;
    if v >= INFINITE {
        return INFINITE_CODE;
    }
    if v < 128 {
        return u64::from(v);
    }
    let mut shift = 32 - v.leading_zeros() - 8;
    let mut top = v.div_ceil(1 << shift);
    if top == 256 {
        top = 128;
        shift += 1;
    }
    (u64::from(shift + 1) << 7 | u64::from(top - 128)).min(INFINITE_CODE - 1)
}

/// The value [`pack`] coded.
fn unpack(code: u64) -> u32 {
    if code == NUMBER_MASK {
        return INFINITE;
    }
    let (shift, low) = ((code >> 7) as u32, code as u32 & 127);
    if shift == 0 {
        low
    } else {
        (128 + low) << (shift - 1)
    }
}

/// How many times its work a settled entry is worth against an unsettled one when they
/// compete for a slot: 2^8, four steps of the keep's half bit lengths
/// ([`SETTLED_STEPS`]). Settled entries had outranked every unsettled one, and a long
/// search filled its table with them: the Kalah 6 x 6 "at least +6" table, saved after
/// 13.4 G nodes in 512 M entries, held 412 M settled entries (310 M of them of at most
/// three nodes' work) and 35 % of its buckets had no unsettled entry, so the entries of
/// the most searched open positions, the root's children among them, were refused or
/// replaced and their numbers started again from scratch. Measured on tables far smaller
/// than their searches (`mancala prove ... --tt-mb M --json`, nodes of the search and of
/// the certificate check's repairs, the same answers; the old rule, then 2^12, 2^8,
/// 2^4):
/// `kalah:6x5 --rules standard-capture --at-least 10 --db-dir DIR` (20-seed database),
/// 4 MB: 1,212.3 M + 15.8 M (308 s user), 111.4 M + 14.2 M (37 s), 60.4 M + 15.0 M
/// (24 s), 39.0 M + 29.3 M (25 s); `kalah:6x4 --at-least 12`, 16 MB: 539.9 M + 93.5 M
/// (146 s), 142.7 M + 89.3 M (82 s), 98.5 M + 106.7 M (79 s), 73.0 M + 140.2 M (93 s);
/// `kalah:6x4 --at-least 10`, 4 MB: 12.4 M + 1.1 M, 6.7 M + 0.4 M, 7.2 M + 0.5 M,
/// 7.1 M + 1.3 M; `kalah:6x4 --rules standard-capture --at-least 8`, 4 MB: 8.4 M +
/// 1.3 M, 8.3 M + 1.6 M, 8.3 M + 1.4 M, 8.4 M + 6.9 M. With no worth at all the checks
/// grew most (`kalah:6x4 --at-least 12`: 58.4 M + 281.6 M).
pub const SETTLED_WORTH: u64 = 1 << (2 * SETTLED_STEPS);

/// [`SETTLED_WORTH`] in the keep's units (each a factor of four in work).
const SETTLED_STEPS: u32 = 4;

/// An entry's rank for replacement: its keep's half bit length of the work, plus
/// [`SETTLED_STEPS`] when it is settled; 0 for a leaf.
#[inline]
fn rank(keep: u8) -> u32 {
    let half_bits = u32::from(keep & (SETTLED - 1));
    if keep & SETTLED != 0 {
        half_bits + SETTLED_STEPS
    } else {
        half_bits
    }
}

/// The slot a new entry takes in a full bucket: an empty one, else the one of least rank
/// (leaves first).
fn least_valuable(bucket: &[Entry; WAYS]) -> usize {
    (0..WAYS)
        .min_by_key(|&i| {
            let e = bucket[i];
            if e.is_empty() { 0 } else { rank(e.keep()) + 1 }
        })
        .expect("a bucket has entries")
}

const WAYS: usize = 8;

/// What [`ProofTable::take_bucket`] did with a saved bucket's entries.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Taken {
    /// Entries that did not fit (or met a more valuable one with the same check).
    pub dropped: u64,
    /// Settled entries of one node read as leaves.
    pub demoted: u64,
}

/// How a saved table's words hold its entries.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SavedEntries {
    /// As this build writes them ([`ProofTable::words`]), from a table whose index took
    /// this many of the key's low bits ([`ProofTable::low_bits`]).
    Compact { low_bits: u32 },
    /// Four 16-byte entries a bucket, as builds before 2026-12-01 wrote them: bits 32-63
    /// of the key, bits 16-31, the keep (bit 15 settled, bits 0-14 the bit length of the
    /// work), then the proof and disproof numbers as 32-bit words. With `demote`, settled
    /// entries of one node become leaves (the first layout of `mancala prove`'s
    /// checkpoints stored leaves so).
    Wide { demote: bool },
}

impl SavedEntries {
    /// How many of the key's low bits, from bit 0, a saved entry of a table of `count`
    /// buckets knows with its bucket index (64: all of them): a table that takes them
    /// into its index can hold it. The checked bits above are known too.
    pub fn known_low_bits(self, count: usize) -> u32 {
        let index_bits = count.trailing_zeros();
        match self {
            // Low bits up to the checked ones: the whole key.
            SavedEntries::Compact { low_bits } if low_bits.min(index_bits) >= CHECK_FROM => 64,
            SavedEntries::Compact { low_bits } => low_bits.min(index_bits),
            // The wide entries kept bits 16-63.
            SavedEntries::Wide { .. } if index_bits >= 16 => 64,
            SavedEntries::Wide { .. } => index_bits,
        }
    }
}

/// 8-byte words per bucket (one cache line).
pub const BUCKET_WORDS: usize = std::mem::size_of::<Bucket>() / 8;

/// One cache line. Its words are atomic so that several searches can share one table
/// ([`super::parallel`]): each word is read and written whole (relaxed: on x86-64 plain
/// loads and stores), so a reader sees every entry as some writer left it; two writers
/// may lose one of their entries, or both store the same position in two slots, which
/// costs the search a little and the answers nothing (the certificate checks read the
/// table only for which move to follow).
#[repr(C, align(64))]
struct Bucket([AtomicU64; WAYS]);

impl Default for Bucket {
    fn default() -> Self {
        Bucket(std::array::from_fn(|_| AtomicU64::new(0)))
    }
}

impl Bucket {
    /// The entries as they are now.
    #[inline]
    fn load(&self) -> [Entry; WAYS] {
        std::array::from_fn(|i| Entry(self.0[i].load(Relaxed)))
    }

    #[inline]
    fn store(&self, i: usize, e: Entry) {
        self.0[i].store(e.0, Relaxed);
    }

    /// Puts `new` in slot `i` if it still holds `old`; false if another thread wrote
    /// the slot meanwhile.
    #[inline]
    fn replace(&self, i: usize, old: Entry, new: Entry) -> bool {
        self.0[i]
            .compare_exchange(old.0, new.0, Relaxed, Relaxed)
            .is_ok()
    }
}

/// The memory for a table was refused, or is more than the system has free.
#[derive(Debug, thiserror::Error)]
#[error("a proof table of {mb} MB does not fit: {available_mb} MB of memory available")]
pub struct TableTooBig {
    pub mb: usize,
    pub available_mb: u64,
}

/// How many bits of its index a table may take from the checked bits
/// ([`ProofTable::with_low_bits`]): a table grown more than 16-fold from the one its
/// entries were saved from would tell positions apart by fewer than 32 bits besides the
/// bucket (a false meeting in about 5 x 10^8 lookups), so growing further is refused
/// (`ProofTable::borrowed_bits`).
pub const MOST_BORROWED: u32 = 4;

/// The table: `2^k` buckets of eight entries, one cache line each.
pub struct ProofTable {
    buckets: Vec<Bucket>,
    /// The bucket index takes the key's bits 0 to `low_bits - 1`, then as many of the
    /// checked bits (28 and up) as the table has buckets beyond 2^`low_bits`: a table made
    /// larger than the one its entries were saved from finds their index in what they
    /// kept ([`ProofTable::take_bucket`]). A new table takes all its index from the low
    /// bits, so that the index and the check tell positions apart by every bit they hold.
    low_bits: u32,
    low_mask: u64,
    high_mask: u64,
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
        buckets.resize_with(count, Bucket::default);
        let bits = count.trailing_zeros();
        Ok(ProofTable {
            buckets,
            low_bits: bits,
            low_mask: (1 << bits) - 1,
            high_mask: 0,
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

    /// The table as 8-byte words, for saving it, between searches: no search may write
    /// it while the words are read.
    pub fn words(&self) -> &[u64] {
        // SAFETY: a bucket is 64 bytes of AtomicU64s, which have the layout of u64
        // (repr(C), no padding), aligned to 64; the searches that write through `&self`
        // have ended when a table is saved (`ask` saves between stretches).
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

    /// The bucket index and the check (bits 28-63, never 0) of `key`. The index's bits
    /// above `low_bits` come from the check as stored, so that an entry moved by its check
    /// ([`ProofTable::take_bucket`]) lands where a lookup looks.
    #[inline(always)]
    fn split(&self, key: u64) -> (usize, u64) {
        let check = (key >> CHECK_FROM).max(1);
        let index = key & self.low_mask | (check & self.high_mask) << self.low_bits;
        (index as usize, check)
    }

    /// How many bits of the bucket index a table of `bytes` bytes made to hold `saved`
    /// entries of a table of `count` buckets takes from the checked bits: 0 but for a
    /// table larger than the one saved, whose entries do not know the key bits between
    /// their index and bit 28 (at most [`MOST_BORROWED`] are allowed).
    pub fn borrowed_bits(saved: SavedEntries, count: usize, bytes: usize) -> u32 {
        let index_bits = (bytes / std::mem::size_of::<Bucket>()).trailing_zeros();
        index_bits.saturating_sub(saved.known_low_bits(count))
    }

    /// How many of the key's low bits the bucket index takes (the rest of it comes from
    /// the checked bits): what a saved table must say of itself to be read back.
    pub fn low_bits(&self) -> u32 {
        self.low_bits
    }

    /// How many bits of the bucket index come from the checked bits (0 in a new table).
    pub fn borrowed(&self) -> u32 {
        self.buckets.len().trailing_zeros() - self.low_bits
    }

    /// This table with its bucket index taking only the key's bits 0 to `bits - 1` (at
    /// most as many as the table has index bits), the rest from the checked bits.
    pub fn with_low_bits(mut self, bits: u32) -> Self {
        let all = self.buckets.len().trailing_zeros();
        self.low_bits = bits.min(all);
        self.low_mask = (1 << self.low_bits) - 1;
        self.high_mask = (1 << (all - self.low_bits)) - 1;
        self
    }

    /// Moves the entries of bucket `index` of a saved table of `count` buckets (its
    /// [`BUCKET_WORDS`] words, as [`ProofTable::words`] or an older build gave them,
    /// `saved` says which) into this table, so that a resumed search can have a table of
    /// another size or layout than the one it saved. This table's index must take no more
    /// of the key's low bits than the saved entries know ([`SavedEntries::known_low_bits`],
    /// [`ProofTable::with_low_bits`]). Into a larger table nothing is lost: a bucket's
    /// entries spread over the buckets their keys' next bits name. Into a smaller one
    /// several buckets meet, and the least valuable entries beyond eight give way (the one
    /// already there on a tie); two entries that the smaller table cannot tell apart (the
    /// same check) become one, the more valuable. A wide entry's numbers are rounded as
    /// [`pack`] rounds them.
    ///
    /// The key is rebuilt from the saved bucket index (its low bits) and the check (the
    /// bits above); the index of the table it goes into takes bits that both know. One
    /// key in 2^48 of a wide table may not be found again: one whose bits 16-63 were all
    /// 0, stored with check 1, read back as a key with bit 16 set.
    pub fn take_bucket(
        &mut self,
        index: usize,
        count: usize,
        words: [u64; BUCKET_WORDS],
        saved: SavedEntries,
    ) -> Taken {
        debug_assert!(count.is_power_of_two() && index < count);
        let known = saved.known_low_bits(count);
        debug_assert!(self.low_bits <= known, "{} > {known}", self.low_bits);
        // The key's bits that the saved index holds as they are.
        let below = match saved {
            SavedEntries::Compact { low_bits } => (1 << low_bits.min(known)) - 1,
            SavedEntries::Wide { .. } => count as u64 - 1,
        };
        let (mut dropped, mut demoted) = (0, 0);
        let mut adopt = |high: u64, keep: u8, pn: u32, dn: u32| {
            let key = high & !below | index as u64 & below;
            let (b, check) = self.split(key);
            let e = Entry::new(check, keep, pn, dn);
            let bucket = self.buckets[b].load();
            let same = bucket.iter().position(|x| x.check() == check);
            let i = same.unwrap_or_else(|| least_valuable(&bucket));
            let there = bucket[i];
            if there.is_empty() {
                self.buckets[b].store(i, e);
            } else {
                dropped += 1;
                if rank(there.keep()) < rank(e.keep()) {
                    self.buckets[b].store(i, e);
                }
            }
        };
        match saved {
            SavedEntries::Compact { .. } => {
                for word in words {
                    let e = Entry(word);
                    if !e.is_empty() {
                        let (pn, dn) = e.numbers();
                        adopt(e.check() << CHECK_FROM, e.keep(), pn, dn);
                    }
                }
            }
            SavedEntries::Wide { demote } => {
                for pair in words.chunks_exact(2) {
                    let check = pair[0] as u32 as u64;
                    let check_low = pair[0] >> 32 & 0xFFFF;
                    if (check, check_low) == (0, 0) {
                        continue;
                    }
                    let wide_keep = (pair[0] >> 48) as u16;
                    let settled = wide_keep & 1 << 15 != 0;
                    let bits = u32::from(wide_keep & 0x7FFF);
                    let keep = if demote && settled && bits == 1 {
                        demoted += 1;
                        0
                    } else {
                        keep_of(settled, bits)
                    };
                    let (pn, dn) = (pair[1] as u32, (pair[1] >> 32) as u32);
                    adopt(check << 32 | check_low << 16, keep, pn, dn);
                }
            }
        }
        Taken { dropped, demoted }
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
            .map(|w| Entry(w.load(Relaxed)))
            .find(|e| e.check() == check)
            .map(|e| e.numbers())
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
    /// --only mover --tt-mb 1024 --db andada-6-12.db` 15,668,449 / 14,055,821 (measured
    /// with 16-byte entries).
    pub fn put_leaf(&self, key: u64, pn: u32, dn: u32) {
        let (b, check) = self.split(key);
        let bucket = self.buckets[b].load();
        let slot = bucket
            .iter()
            .position(|e| e.check() == check)
            .or_else(|| bucket.iter().position(|e| e.is_empty()))
            .or_else(|| bucket.iter().position(|e| e.keep() == 0));
        if let Some(i) = slot {
            self.buckets[b].store(i, Entry::new(check, 0, pn, dn));
        }
    }

    /// Stores `key`'s numbers with the `work` (nodes) they took. Open numbers never
    /// replace the same position's proof or disproof: one search never comes back to a
    /// settled position, but where threads share the table ([`super::parallel`]) one of
    /// them may still be working below a position that another has just settled, from
    /// children it read before, and its open numbers would undo the verdict that the
    /// positions above were settled by. On 2026-12-01 a two-thread "yes" of Kalah 6 x 6
    /// (standard capture, after A C, "at least +4" for South) ended with one of the root's
    /// children open again in the table, and its certificate check failed for want of
    /// proofs that repairs of a million nodes could not find; a check of a small
    /// parallel "yes" repaired one position even where the table lost nothing
    /// (`prove_threads::threads_never_undo_each_others_verdicts` in mancala-cli).
    pub fn put(&self, key: u64, pn: u32, dn: u32, work: u64) {
        let (b, check) = self.split(key);
        let settled = is_settled((pn, dn));
        let new = Entry::new(check, keep_for(settled, work), pn, dn);
        // Compare and swap, not a plain store: between this thread's read of the bucket
        // and its write another thread may settle the same position in the same slot,
        // and a plain store put the open numbers back over that verdict (a CI run of
        // `threads_never_undo_each_others_verdicts` repaired one position so, 2026-12-06).
        loop {
            let bucket = self.buckets[b].load();
            let slot = match bucket.iter().position(|e| e.check() == check) {
                Some(i) if !settled && is_settled(bucket[i].numbers()) => return,
                Some(i) => i,
                None => {
                    let i = least_valuable(&bucket);
                    let victim = bucket[i];
                    if !self.newest && !victim.is_empty() && rank(victim.keep()) > rank(new.keep())
                    {
                        // Everything here is worth more than the new entry.
                        return;
                    }
                    i
                }
            };
            if self.buckets[b].replace(slot, bucket[slot], new) {
                return;
            }
        }
    }
}

/// Whether numbers are a verdict: a proof (proof number 0, disproof number infinite) or
/// a disproof.
fn is_settled((pn, dn): (u32, u32)) -> bool {
    pn == 0 || dn == 0 || pn >= INFINITE || dn >= INFINITE
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

/// A wide entry for the tests: key, keep, proof and disproof numbers.
#[cfg(test)]
pub(crate) type WideEntry = (u64, u16, u32, u32);

/// The words of a table of `count` buckets as builds before 2026-12-01 saved it
/// ([`SavedEntries::Wide`]), holding `entries` (key, keep, proof and disproof numbers;
/// at most four to a bucket), for the tests of reading such files.
#[cfg(test)]
pub(crate) fn wide_words(count: usize, entries: &[WideEntry]) -> Vec<u64> {
    let mut words = vec![0; count * BUCKET_WORDS];
    let mut used = vec![0; count];
    for &(key, keep, pn, dn) in entries {
        let b = key as usize & (count - 1);
        let at = b * BUCKET_WORDS + 2 * used[b];
        used[b] += 1;
        assert!(used[b] <= 4, "four wide entries to a bucket");
        let check = ((key >> 16) & 0xFFFF_FFFF_FFFF).max(1);
        words[at] = (check >> 16) | (check & 0xFFFF) << 32 | u64::from(keep) << 48;
        words[at + 1] = u64::from(pn) | u64::from(dn) << 32;
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A key whose check is `k` (bits 28 and up) in bucket 0.
    fn key(k: u64) -> u64 {
        k << CHECK_FROM
    }

    #[test]
    fn keeps_what_it_stores_and_prefers_settled_entries() {
        let t = ProofTable::with_mb(0);
        assert_eq!(t.get(key(7)), None);
        t.put(key(7), 3, 4, 10);
        assert_eq!(t.get(key(7)), Some((3, 4)));
        t.put(key(7), 0, INFINITE, 12);
        assert_eq!(t.get(key(7)), Some((0, INFINITE)));
        // Eight more positions of 60 times its work compete for the bucket; the settled
        // one stays.
        for k in 8..16 {
            t.put(key(k), 2, 2, 12 * 60);
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
    fn open_numbers_never_undo_the_same_positions_verdict() {
        let t = ProofTable::with_mb(0);
        t.put(key(7), 0, INFINITE, 12);
        t.put(key(7), 3, 4, 1 << 30);
        assert_eq!(t.get(key(7)), Some((0, INFINITE)), "a proof stays");
        t.put(key(8), INFINITE, 0, 1);
        t.put(key(8), 9, 1, 5);
        assert_eq!(t.get(key(8)), Some((INFINITE, 0)), "a disproof stays");
        t.put_leaf(key(9), 0, INFINITE);
        t.put(key(9), 2, 2, 3);
        assert_eq!(t.get(key(9)), Some((0, INFINITE)), "a leaf's verdict stays");
        // Open numbers still replace open numbers, and a verdict replaces them.
        t.put(key(10), 2, 2, 3);
        t.put(key(10), 5, 1, 3);
        assert_eq!(t.get(key(10)), Some((5, 1)));
        t.put(key(10), 0, INFINITE, 9);
        assert_eq!(t.get(key(10)), Some((0, INFINITE)));
    }

    #[test]
    fn an_open_entry_of_far_more_work_than_a_settled_one_takes_its_slot() {
        let t = ProofTable::with_mb(0);
        for k in 1..=8 {
            t.put(key(k), 0, INFINITE, 12);
        }
        // Within SETTLED_WORTH times the work: refused.
        t.put(key(9), 5, 6, 12 * 60);
        assert_eq!(t.get(key(9)), None);
        // Over a thousand times the work: it takes a settled entry's slot, and keeps it
        // against a settled entry of little work.
        const { assert!(12 * 1024 > SETTLED_WORTH * 12 * 2) };
        t.put(key(10), 5, 6, 12 * 1024);
        assert_eq!(t.get(key(10)), Some((5, 6)));
        assert_eq!((1..=8).filter(|&k| t.get(key(k)).is_some()).count(), 7);
        t.put(key(11), INFINITE, 0, 12);
        assert_eq!(t.get(key(10)), Some((5, 6)));
        assert_eq!(
            t.get(key(11)),
            Some((INFINITE, 0)),
            "one of the settled entries of 12 gives way to another"
        );
    }

    #[test]
    fn numbers_are_exact_to_127_and_rounded_up_above_never_past_infinity() {
        for v in 0..128 {
            assert_eq!(unpack(pack(v)), v);
        }
        let mut last = 0;
        for v in (128..=254 << 14)
            .step_by(37)
            .chain([255, 256, 257, 511, 512, 513])
        {
            let back = unpack(pack(v));
            assert!(back >= v && back - v <= v / 128, "{v} -> {back}");
            if v > last {
                assert!(back >= unpack(pack(last)), "monotone at {v}");
                last = v;
            }
        }
        assert_eq!(unpack(pack(INFINITE)), INFINITE);
        assert_eq!(unpack(pack(u32::MAX)), INFINITE);
        let largest = unpack(pack(INFINITE - 1));
        assert_eq!(largest, 254 << 14);
        assert!(unpack(pack(largest - 1)) == largest && largest < INFINITE);
        assert_eq!(
            unpack(pack(largest + 1000)),
            largest,
            "saturated, not infinite"
        );
        // Every code decodes to a value that codes back to it.
        for code in 0..=NUMBER_MASK {
            assert_eq!(pack(unpack(code)), code, "{code}");
        }
    }

    #[test]
    fn a_leaf_takes_a_free_slot_or_a_leafs_and_gives_way_to_any_other_entry() {
        let t = ProofTable::with_mb(0);
        t.put_leaf(key(1), 0, INFINITE);
        t.put(key(2), 5, 5, 2);
        for k in 3..9 {
            t.put_leaf(key(k), INFINITE, 0);
        }
        assert_eq!(t.get(key(1)), Some((0, INFINITE)));
        assert_eq!(t.get(key(3)), Some((INFINITE, 0)));
        // The bucket is full: a ninth leaf replaces a leaf, an unsettled entry of the
        // least work replaces a leaf too.
        t.put_leaf(key(9), 0, INFINITE);
        assert_eq!(t.get(key(9)), Some((0, INFINITE)));
        assert_eq!(t.get(key(2)), Some((5, 5)));
        for k in 10..17 {
            t.put(key(k), 7, 7, 1);
        }
        for k in [2].into_iter().chain(10..17) {
            assert!(t.get(key(k)).is_some(), "{k}");
        }
        // No leaf replaces an entry of searched work.
        t.put_leaf(key(20), 0, INFINITE);
        assert_eq!(t.get(key(20)), None);
    }

    /// Moves every bucket of `from` into `to` (its index made to take no more low bits
    /// than `from` knows) as a resumed search does.
    fn move_all(from: &ProofTable, to: ProofTable) -> (ProofTable, Taken) {
        let count = from.buckets.len();
        let saved = SavedEntries::Compact {
            low_bits: from.low_bits(),
        };
        let mut to = to.with_low_bits(saved.known_low_bits(count));
        let mut all = Taken::default();
        for (index, words) in from.words().chunks(BUCKET_WORDS).enumerate() {
            let words = words.try_into().unwrap();
            let t = to.take_bucket(index, count, words, saved);
            all.dropped += t.dropped;
        }
        (to, all)
    }

    #[test]
    fn moving_into_a_smaller_table_keeps_one_entry_of_a_check_and_the_searched_work() {
        let two = || {
            ProofTable::with_words(2 * BUCKET_WORDS as u64)
                .unwrap()
                .unwrap()
        };
        // Two buckets whose keys differ in bit 0 only meet in a table of one bucket, where
        // the check alone tells entries apart: one entry, the more valuable.
        let t = two();
        t.put(key(7), 1, 2, 1);
        t.put(key(7) | 1, 3, 4, 1 << 5);
        let (one, taken) = move_all(&t, ProofTable::with_mb(0));
        assert_eq!(taken.dropped, 1);
        assert_eq!(one.get(key(7)), Some((3, 4)));
        one.put(key(7), 5, 5, 1);
        for k in 8..15 {
            one.put(key(k), 9, 9, 1 << 10);
        }
        assert_eq!(one.get(key(7)), Some((5, 5)), "no older copy left behind");
        // A table moves whole into one of its own size.
        let (same, taken) = move_all(&t, two());
        assert_eq!(taken.dropped, 0);
        assert_eq!(same.words(), t.words());
    }

    #[test]
    fn a_larger_table_takes_the_rest_of_its_index_from_the_checked_bits() {
        // 2^16 buckets; keys spread over all 64 bits.
        let keys: Vec<u64> = (1..=300_000u64)
            .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .collect();
        let t = ProofTable::with_mb(4);
        for (i, &k) in keys.iter().enumerate() {
            t.put(k, i as u32 % 100 + 1, 1, 1 << 10);
        }
        let held: Vec<_> = keys.iter().filter_map(|&k| Some((k, t.get(k)?))).collect();
        assert!(held.len() > 250_000, "{}", held.len());
        // Twice, then four times the buckets: nothing lost; the index takes the key's
        // first 16 bits, then bits 28 and up.
        let (big, taken) = move_all(&t, ProofTable::with_mb(8));
        assert_eq!((taken.dropped, big.low_bits()), (0, 16));
        let (bigger, taken) = move_all(&big, ProofTable::with_mb(16));
        assert_eq!((taken.dropped, bigger.low_bits()), (0, 16));
        for &(k, numbers) in &held {
            assert_eq!(big.get(k), Some(numbers), "{k:x}");
            assert_eq!(bigger.get(k), Some(numbers), "{k:x}");
        }
        // And back into the table's own size, the same entries.
        let (back, _) = move_all(&bigger, ProofTable::with_mb(4));
        assert_eq!(back.low_bits(), 16);
        assert!(held.iter().all(|&(k, n)| back.get(k) == Some(n)));
        assert_eq!(
            (big.borrowed(), bigger.borrowed(), back.borrowed()),
            (1, 2, 0)
        );
        // A new table takes its whole index from the low bits.
        assert_eq!(ProofTable::with_mb(16).low_bits(), 18);
        // Saved from a table whose low bits reach the checked ones, an entry knows its
        // whole key.
        let huge = SavedEntries::Compact { low_bits: 29 };
        assert_eq!(huge.known_low_bits(1 << 29), 64);
        assert_eq!(
            SavedEntries::Compact { low_bits: 20 }.known_low_bits(1 << 29),
            20
        );
    }

    #[test]
    fn a_key_whose_checked_bits_are_all_0_is_found_after_any_move() {
        // Bits 28-63 zero: stored with check 1, and indexed by that check wherever the
        // index borrows checked bits.
        let keys = [0x0ABC_DEF0_u64, 0x0123_4567];
        let t = ProofTable::with_words(2 * BUCKET_WORDS as u64)
            .unwrap()
            .unwrap();
        for (i, &k) in keys.iter().enumerate() {
            t.put(k, i as u32 + 1, 9, 1 << 8);
        }
        let (grown, _) = move_all(
            &t,
            ProofTable::with_words(16 * BUCKET_WORDS as u64)
                .unwrap()
                .unwrap(),
        );
        assert_eq!(grown.borrowed(), 3);
        let (back, _) = move_all(
            &grown,
            ProofTable::with_words(4 * BUCKET_WORDS as u64)
                .unwrap()
                .unwrap(),
        );
        for (i, &k) in keys.iter().enumerate() {
            assert_eq!(t.get(k), Some((i as u32 + 1, 9)));
            assert_eq!(grown.get(k), Some((i as u32 + 1, 9)), "{k:x}");
            assert_eq!(back.get(k), Some((i as u32 + 1, 9)), "{k:x}");
        }
    }

    /// A bucket as builds before 2026-12-01 saved it.
    fn wide_bucket(entries: &[WideEntry]) -> [u64; BUCKET_WORDS] {
        wide_words(1, entries).try_into().unwrap()
    }

    #[test]
    fn a_wide_table_moves_into_this_layout_of_any_size_its_leaves_demoted_if_asked() {
        // A wide table of 2^16 buckets (bucket index: key bits 0-15) kept bits 16-63, so
        // its entries can go into a table of 2^17 buckets, where bit 16 picks the bucket.
        let count = 1 << 16;
        let keys = [0x5_0000_1234_u64, 0x6_0001_1234, 0xABCD_0000_1234];
        let settled_one = 1 << 15 | 1;
        let bucket = wide_bucket(&[
            (keys[0], 3, 1000, 7),
            (keys[1], settled_one, 0, INFINITE),
            (keys[2], 0, INFINITE, 0),
        ]);
        let wide = SavedEntries::Wide { demote: true };
        assert_eq!(wide.known_low_bits(count), 64, "all of the key");
        assert_eq!(wide.known_low_bits(count / 2), 15, "the index's bits only");
        let mut big = ProofTable::with_mb(8).with_low_bits(64);
        assert_eq!((big.buckets.len(), big.low_bits()), (1 << 17, 17));
        let taken = big.take_bucket(0x1234, count, bucket, wide);
        assert_eq!(
            taken,
            Taken {
                dropped: 0,
                demoted: 1
            }
        );
        assert_eq!(big.get(keys[0]), Some((unpack(pack(1000)), 7)));
        assert_eq!(big.get(keys[1]), Some((0, INFINITE)));
        assert_eq!(big.get(keys[2]), Some((INFINITE, 0)));
        // The demoted entry is a leaf now: any searched work takes its slot.
        let b = big.split(keys[1]).0;
        let keeps: Vec<u8> = big.buckets[b].load().iter().map(|e| e.keep()).collect();
        assert!(
            keeps.contains(&0) && !keeps.contains(&(SETTLED | 1)),
            "{keeps:?}"
        );
        // Without demotion it stays a settled entry of one node.
        let mut kept = ProofTable::with_mb(8);
        kept.take_bucket(0x1234, count, bucket, SavedEntries::Wide { demote: false });
        let b = kept.split(keys[1]).0;
        assert!(
            kept.buckets[b]
                .load()
                .iter()
                .any(|e| e.keep() == SETTLED | 1)
        );
        // Into a table of one bucket all three meet, told apart by their checks.
        let mut one = ProofTable::with_mb(0);
        one.take_bucket(0x1234, count, bucket, wide);
        for k in keys {
            assert!(one.get(k).is_some(), "{k:x}");
        }
    }

    #[test]
    fn a_table_that_prefers_the_newest_entries_never_refuses_one() {
        let mut t = ProofTable::with_mb(0);
        for k in 1..9 {
            t.put(key(k), 0, INFINITE, 1 << 30);
        }
        // Eight settled entries of much work fill the bucket: a small one is refused...
        t.put(key(9), 0, INFINITE, 1);
        assert_eq!(t.get(key(9)), None);
        // ...unless the table prefers its newest entries.
        t.prefer_newest();
        t.put(key(9), 0, INFINITE, 1);
        assert_eq!(t.get(key(9)), Some((0, INFINITE)));
        assert_eq!((1..9).filter(|&k| t.get(key(k)).is_some()).count(), 7);
    }
}
