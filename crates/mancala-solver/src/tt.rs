//! A fixed-size, lock-free transposition table shared by all search threads.
//!
//! Each entry is two `AtomicU64`s: the packed data and the key XOR the data (Hyatt's
//! lockless hashing). A reader accepts an entry only when `stored ^ data == key`, so a
//! torn write from another thread reads as a miss, never as a wrong value. Entries hold
//! a lower and an upper bound (relative to the position's banked margin, see
//! [`mancala_core::Game::banked`]), so the table can only narrow a search window and
//! never change a value. Buckets of two entries share a 32-byte half cache line;
//! replacement keeps the entry from the current search with the larger subtree.

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

/// Bounds on a position's value, relative to its banked margin.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub lower: i16,
    pub upper: i16,
    /// The best or refuting move's slot ([`mancala_core::Game::move_slot`]), or
    /// [`NO_MOVE`].
    pub mv: u8,
    /// log2 of the nodes searched below the entry: the replacement priority.
    pub work: u8,
}

pub const NO_MOVE: u8 = u8::MAX;

impl Entry {
    #[inline(always)]
    fn pack(self, generation: u8) -> u64 {
        (self.lower as u16 as u64)
            | (self.upper as u16 as u64) << 16
            | (self.mv as u64) << 32
            | (self.work as u64) << 40
            | (generation as u64) << 48
            | 1 << 56
    }

    #[inline(always)]
    fn unpack(d: u64) -> (Entry, u8) {
        (
            Entry {
                lower: d as u16 as i16,
                upper: (d >> 16) as u16 as i16,
                mv: (d >> 32) as u8,
                work: (d >> 40) as u8,
            },
            (d >> 48) as u8,
        )
    }
}

#[derive(Default)]
#[repr(C)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// The table. `Sync`: share it by reference between threads.
pub struct Table {
    slots: Slots,
    buckets: u64,
    generation: AtomicU8,
}

const WAYS: usize = 2;

/// The table's memory: 2 MB aligned and, on Linux, backed by transparent huge pages, so a
/// probe costs one cache miss rather than a TLB miss and a page walk as well (measured:
/// see the README, "Transposition table").
struct Slots {
    ptr: *mut Slot,
    len: usize,
    /// Bytes mapped (Linux) or the allocation's layout (elsewhere).
    bytes: usize,
}

// The slots are atomics; the pointer is owned and freed once.
unsafe impl Send for Slots {}
unsafe impl Sync for Slots {}

#[cfg(target_os = "linux")]
const HUGE_PAGE: usize = 2 << 20;

/// Why a table could not be made.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum TableError {
    #[error("a transposition table of {mb} MB is more than this machine can address")]
    TooBig { mb: u64 },
    #[error(
        "a transposition table of {mb} MB does not fit in the {available_mb} MB of memory available (choose a smaller --tt-mb)"
    )]
    NoMemory { mb: u64, available_mb: u64 },
    #[error("the system refused {bytes} bytes for the transposition table")]
    MapFailed { bytes: usize },
}

/// Memory the system can still give without swapping (MemAvailable), in bytes; `None`
/// where it cannot be read.
pub fn available_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kb.checked_mul(1024)
}

/// The default table size: a sixteenth of the available memory, a power of two between
/// 64 MB and 1 GB. A bigger table pays only on solves of minutes and costs its prefault
/// on every small one (measured: 0.12 s for 256 MB, 1.24 s for 2 GB on two cores);
/// `--tt-mb` goes further.
pub fn default_mb() -> usize {
    let avail_mb = available_memory().map_or(1024, |b| b / (1024 * 1024)) as usize;
    let mb = (avail_mb / 16).clamp(64, 1024);
    1 << (usize::BITS - 1 - mb.leading_zeros())
}

impl Slots {
    fn new(len: usize) -> Result<Self, TableError> {
        let want = len
            .checked_mul(std::mem::size_of::<Slot>())
            .ok_or(TableError::TooBig { mb: u64::MAX })?
            .max(1);
        let (ptr, bytes) = Self::map(want)?;
        let s = Slots { ptr, len, bytes };
        s.prefault();
        Ok(s)
    }

    /// Zeroed memory (all-zero atomics are empty slots). On Linux an anonymous mapping,
    /// aligned to 2 MB and advised to use huge pages *before* any page is touched.
    #[cfg(target_os = "linux")]
    fn map(want: usize) -> Result<(*mut Slot, usize), TableError> {
        let too_big = TableError::MapFailed { bytes: want };
        let bytes = want.checked_next_multiple_of(HUGE_PAGE).ok_or(too_big)?;
        let len = bytes
            .checked_add(HUGE_PAGE)
            .ok_or(TableError::MapFailed { bytes: want })?;
        unsafe {
            let p = libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            );
            if p == libc::MAP_FAILED {
                return Err(TableError::MapFailed { bytes: len });
            }
            // Trim to a 2 MB-aligned window of `bytes`.
            let start = p as usize;
            let aligned = start.next_multiple_of(HUGE_PAGE);
            if aligned > start {
                libc::munmap(p, aligned - start);
            }
            let tail = start + len - (aligned + bytes);
            if tail > 0 {
                libc::munmap((aligned + bytes) as *mut libc::c_void, tail);
            }
            // A hint; failure only means ordinary pages.
            libc::madvise(aligned as *mut libc::c_void, bytes, libc::MADV_HUGEPAGE);
            Ok((aligned as *mut Slot, bytes))
        }
    }

    #[cfg(not(target_os = "linux"))]
    fn map(want: usize) -> Result<(*mut Slot, usize), TableError> {
        let layout = std::alloc::Layout::from_size_align(want, 64)
            .map_err(|_| TableError::MapFailed { bytes: want })?;
        let p = unsafe { std::alloc::alloc_zeroed(layout) } as *mut Slot;
        if p.is_null() {
            return Err(TableError::MapFailed { bytes: want });
        }
        Ok((p, want))
    }

    /// Touches every page now (in parallel) instead of faulting during the search.
    fn prefault(&self) {
        use rayon::prelude::*;
        let page = 4096 / std::mem::size_of::<Slot>();
        self.as_slice()
            .par_chunks(page.max(1))
            .for_each(|c| c[0].data.store(0, Ordering::Relaxed));
    }

    #[inline(always)]
    fn as_slice(&self) -> &[Slot] {
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }
}

impl Drop for Slots {
    fn drop(&mut self) {
        #[cfg(target_os = "linux")]
        unsafe {
            libc::munmap(self.ptr as *mut libc::c_void, self.bytes);
        }
        #[cfg(not(target_os = "linux"))]
        unsafe {
            std::alloc::dealloc(
                self.ptr as *mut u8,
                std::alloc::Layout::from_size_align(self.bytes, 64).unwrap(),
            )
        }
    }
}

impl std::ops::Deref for Slots {
    type Target = [Slot];
    fn deref(&self) -> &[Slot] {
        self.as_slice()
    }
}

impl Table {
    /// A table of about `mb` megabytes (at least one bucket), for sizes known to fit
    /// (tests, small fixed tables).
    ///
    /// # Panics
    /// When the memory cannot be had; use [`Table::try_new`] for a size a user chose.
    pub fn new(mb: usize) -> Self {
        Self::try_new(mb).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A table of about `mb` megabytes, refused before anything is allocated when the
    /// size overflows or exceeds the memory available.
    pub fn try_new(mb: usize) -> Result<Self, TableError> {
        let mb64 = mb.max(1) as u64;
        let bytes = mb64
            .checked_mul(1024 * 1024)
            .and_then(|b| usize::try_from(b).ok())
            .ok_or(TableError::TooBig { mb: mb64 })?;
        if let Some(avail) = available_memory()
            && bytes as u64 > avail
        {
            return Err(TableError::NoMemory {
                mb: mb64,
                available_mb: avail / (1024 * 1024),
            });
        }
        let buckets = (bytes / (WAYS * std::mem::size_of::<Slot>())).max(1);
        Ok(Table {
            slots: Slots::new(buckets * WAYS)?,
            buckets: buckets as u64,
            generation: AtomicU8::new(0),
        })
    }

    /// Size in bytes.
    pub fn bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<Slot>()
    }

    pub fn entries(&self) -> usize {
        self.slots.len()
    }

    /// Starts a new search: older entries become the first to be replaced.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    /// Empties the table.
    pub fn clear(&self) {
        for s in self.slots.iter() {
            s.check.store(0, Ordering::Relaxed);
            s.data.store(0, Ordering::Relaxed);
        }
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> usize {
        (((key as u128) * (self.buckets as u128)) >> 64) as usize * WAYS
    }

    /// Prefetches the bucket of `key` (a hint; no effect on results).
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        unsafe {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let p = self.slots.as_ptr().add(self.bucket(key)) as *const i8;
            _mm_prefetch(p, _MM_HINT_T0);
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let b = self.bucket(key);
        for s in &self.slots[b..b + WAYS] {
            let d = s.data.load(Ordering::Relaxed);
            let c = s.check.load(Ordering::Relaxed);
            if d != 0 && c ^ d == key {
                return Some(Entry::unpack(d).0);
            }
        }
        None
    }

    /// Stores bounds for `key`, intersecting them with what is already known of it.
    #[inline]
    pub fn store(&self, key: u64, mut e: Entry) {
        let gen_now = self.generation.load(Ordering::Relaxed);
        let b = self.bucket(key);
        let bucket = &self.slots[b..b + WAYS];
        let mut victim = 0;
        let mut victim_score = i32::MAX;
        for (i, s) in bucket.iter().enumerate() {
            let d = s.data.load(Ordering::Relaxed);
            let c = s.check.load(Ordering::Relaxed);
            if d != 0 && c ^ d == key {
                // Same position: both are valid bounds of one value.
                let (old, _) = Entry::unpack(d);
                e.lower = e.lower.max(old.lower);
                e.upper = e.upper.min(old.upper);
                if e.lower > e.upper {
                    // Only possible after a key collision or a torn read: keep the new.
                    e = Entry {
                        lower: e.lower.min(old.upper),
                        upper: e.upper.max(old.lower),
                        ..e
                    };
                }
                if e.mv == NO_MOVE {
                    e.mv = old.mv;
                }
                e.work = e.work.max(old.work);
                victim = i;
                break;
            }
            let score = if d == 0 {
                -1_000_000
            } else {
                let (old, g) = Entry::unpack(d);
                // Entries of older searches go first, then those with less work.
                let stale = if g == gen_now { 0 } else { -1000 };
                stale + old.work as i32
            };
            if score < victim_score {
                victim_score = score;
                victim = i;
            }
        }
        let d = e.pack(gen_now);
        let s = &bucket[victim];
        s.data.store(d, Ordering::Relaxed);
        s.check.store(key ^ d, Ordering::Relaxed);
    }

    /// Every stored entry as its key and packed data (for saving the table); an entry
    /// torn by a concurrent write reads with a wrong key, as it would for a probe.
    pub fn stored_entries(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        self.slots.iter().filter_map(|s| {
            let d = s.data.load(Ordering::Relaxed);
            let c = s.check.load(Ordering::Relaxed);
            (d != 0).then_some((c ^ d, d))
        })
    }

    /// Stores an entry saved by [`Table::stored_entries`] (from a table of any size).
    pub fn restore(&self, key: u64, data: u64) {
        self.store(key, Entry::unpack(data).0);
    }

    /// Share of entries written by the current search, sampled over the first buckets
    /// (a per-mille figure like chess engines' "hashfull").
    pub fn permille_full(&self) -> u32 {
        let gen_now = self.generation.load(Ordering::Relaxed);
        let n = self.slots.len().min(2000);
        let used = self.slots[..n]
            .iter()
            .filter(|s| {
                let d = s.data.load(Ordering::Relaxed);
                d != 0 && Entry::unpack(d).1 == gen_now
            })
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn impossible_sizes_are_refused_before_allocating() {
        assert!(matches!(
            Table::try_new(usize::MAX),
            Err(TableError::TooBig { .. })
        ));
        assert!(matches!(
            Table::try_new(1 << 44),
            Err(TableError::NoMemory { .. } | TableError::TooBig { .. })
        ));
        let mb = default_mb();
        assert!((64..=1024).contains(&mb) && mb.is_power_of_two(), "{mb}");
    }

    #[test]
    fn pack_round_trips() {
        for e in [
            Entry {
                lower: -300,
                upper: 300,
                mv: 7,
                work: 30,
            },
            Entry {
                lower: i16::MIN,
                upper: i16::MAX,
                mv: NO_MOVE,
                work: 0,
            },
        ] {
            let (f, g) = Entry::unpack(e.pack(9));
            assert_eq!((f, g), (e, 9));
        }
    }

    #[test]
    fn store_probe_and_intersect() {
        let t = Table::new(1);
        assert_eq!(t.probe(42), None);
        t.store(
            42,
            Entry {
                lower: -5,
                upper: 10,
                mv: 3,
                work: 4,
            },
        );
        t.store(
            42,
            Entry {
                lower: 2,
                upper: 20,
                mv: NO_MOVE,
                work: 1,
            },
        );
        assert_eq!(
            t.probe(42),
            Some(Entry {
                lower: 2,
                upper: 10,
                mv: 3,
                work: 4
            })
        );
        assert_eq!(t.probe(43), None);
    }

    #[test]
    fn replacement_keeps_the_bigger_subtree_of_the_current_search() {
        let t = Table::new(1);
        // Find three keys of one bucket.
        let b0 = t.bucket(1);
        let keys: Vec<u64> = (1..).filter(|&k| t.bucket(k) == b0).take(3).collect();
        // An exact entry of value `v` whose subtree took `work`.
        let exact = |v, work| Entry {
            lower: v,
            upper: v,
            mv: 0,
            work,
        };
        t.store(keys[0], exact(0, 9));
        t.store(keys[1], exact(1, 2));
        t.store(keys[2], exact(2, 5));
        assert!(t.probe(keys[0]).is_some());
        assert!(t.probe(keys[1]).is_none());
        assert!(t.probe(keys[2]).is_some());
        // A new search makes old entries replaceable first.
        t.new_search();
        t.store(keys[1], exact(1, 0));
        assert!(t.probe(keys[1]).is_some());
    }
}
