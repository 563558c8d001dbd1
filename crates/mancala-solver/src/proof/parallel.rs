//! Several df-pn searches of one question over one shared table (`prove --threads`).
//!
//! Each thread runs the whole search from the root ([`super::ProofSearch`]) and reads
//! and writes the same [`super::ProofTable`], so each one's proofs and disproofs are the
//! others' as soon as they are stored, and stay: a thread that comes back from below a
//! position another has settled meanwhile cannot store its open numbers over the verdict
//! ([`super::ProofTable::put`]). Alone, they would all follow the same most-proving
//! path; so a thread marks the positions on its path as busy, and a thread choosing
//! among children counts a busy child's number a quarter higher (a virtual cost, after
//! Kaneko's parallel df-pn, 2010), which sends it to a close second-best child instead,
//! where the table's numbers allow. The answers stay those of one search: every proof and
//! disproof is still checked by the certificate checks, which never trust the table.
//!
//! Why: the search waits for memory most of its time once its table outgrows the caches
//! (docs/solver.md, "Where a big table's time goes"), and one thread has about one table
//! miss at a time outstanding; several threads overlap their misses.

use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU64, Ordering::Relaxed};

use super::dfpn::{Outcome, Verdict};

/// Busy marks: this many counters, indexed by bits of the position's key.
const BUSY_SLOTS: usize = 1 << 16;

/// What the threads of one search share besides the table.
pub struct Shared {
    /// How many threads have each position (by its slot) on their path (16 bits: more
    /// than the most threads `prove` takes).
    busy: Box<[AtomicU16]>,
    /// Raised by the first thread whose root is proven or disproven: the others stop.
    done: AtomicBool,
    /// Nodes of all the threads, for the progress line (each thread adds its count
    /// every few thousand nodes).
    nodes: AtomicU64,
}

impl Default for Shared {
    fn default() -> Self {
        Shared {
            busy: (0..BUSY_SLOTS).map(|_| AtomicU16::new(0)).collect(),
            done: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
        }
    }
}

impl Shared {
    #[inline]
    fn slot(&self, key: u64) -> &AtomicU16 {
        // The table's bucket index uses the key's low bits; these are other ones.
        &self.busy[(key >> 40) as usize & (BUSY_SLOTS - 1)]
    }

    /// A thread's path goes through `key`.
    #[inline]
    pub(super) fn enter(&self, key: u64) {
        self.slot(key).fetch_add(1, Relaxed);
    }

    /// ... and leaves it.
    #[inline]
    pub(super) fn leave(&self, key: u64) {
        self.slot(key).fetch_sub(1, Relaxed);
    }

    /// Whether some thread (perhaps this one, or another position of the same slot) is
    /// below `key`.
    #[inline]
    pub(super) fn is_busy(&self, key: u64) -> bool {
        self.slot(key).load(Relaxed) != 0
    }

    pub(super) fn finish(&self) {
        self.done.store(true, Relaxed);
    }

    pub(super) fn is_done(&self) -> bool {
        self.done.load(Relaxed)
    }

    pub(super) fn add_nodes(&self, n: u64) {
        self.nodes.fetch_add(n, Relaxed);
    }

    /// The nodes the threads have reported so far.
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Relaxed)
    }
}

/// A busy child's number as a thread choosing among children sees it: a quarter more,
/// and one. Measured against twice the number, four times and one more, one more alone
/// and an eighth more and one (docs/solver.md, "Threads"): twice and four times sent
/// the threads too far from the best child, one more alone not far enough.
#[inline]
pub(super) fn virtual_cost(n: u32) -> u32 {
    n.saturating_add(n / 4).saturating_add(1)
}

/// Runs `first` on the calling thread (the one that may report progress) and `helper(i)`
/// for `i` in `1..threads` on threads of `stack` bytes, and puts their outcomes together:
/// the verdict of a thread that reached one (the root's numbers from it), the nodes and
/// path disproofs of all, the deepest path of any, the time of the slowest.
pub fn run_threads(
    threads: usize,
    stack: usize,
    first: impl FnOnce() -> Outcome,
    helper: impl Fn(usize) -> Outcome + Sync,
) -> Outcome {
    let search = &helper;
    let mut outs = std::thread::scope(|s| {
        // A thread the system refuses is one helper fewer, not a failure.
        let helpers: Vec<_> = (1..threads)
            .filter_map(|i| {
                std::thread::Builder::new()
                    .stack_size(stack)
                    .spawn_scoped(s, move || search(i))
                    .ok()
            })
            .collect();
        let mut outs = vec![first()];
        for h in helpers {
            outs.push(h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)));
        }
        outs
    });
    let seconds = outs.iter().map(|o| o.seconds).fold(0.0, f64::max);
    let settled = outs.iter().position(|o| o.verdict != Verdict::Open);
    let mut out = outs.swap_remove(settled.unwrap_or(0));
    out.seconds = seconds;
    for o in &outs {
        out.nodes += o.nodes;
        out.path_disproofs += o.path_disproofs;
        out.max_depth = out.max_depth.max(o.max_depth);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proof::{Goal, Limits, ProofSearch, ProofTable};
    use mancala_core::Player;
    use mancala_core::kalah::Kalah;

    /// Four threads over one small table (entries replaced all the time, the threads'
    /// paths crossing) reach the verdicts of one thread (Kalah(4,3) is worth +8, Kalah(6,3)
    /// less than +4), and mark nothing busy at the end.
    #[test]
    fn four_threads_reach_the_verdict_of_one() {
        for (holes, at_least, verdict) in [
            (4, 8, Verdict::Proven),
            (4, 10, Verdict::Disproven),
            (6, 4, Verdict::Disproven),
        ] {
            let g = Kalah::start(holes, 3, Default::default());
            let goal = Goal {
                attacker: Player::First,
                at_least,
            };
            let serial = {
                let table = ProofTable::with_mb(1);
                ProofSearch::new(&table, goal, Limits::default()).run(&g)
            };
            assert_eq!(serial.verdict, verdict, "at least {at_least}");
            let table = ProofTable::with_mb(1);
            let shared = Shared::default();
            let search = || {
                ProofSearch::new(&table, goal, Limits::default())
                    .with_shared(&shared)
                    .run(&g)
            };
            let out = run_threads(4, 1 << 24, search, |_| search());
            assert_eq!(out.verdict, verdict, "at least {at_least}");
            assert!(shared.is_done());
            assert!(out.nodes >= out.max_depth as u64);
            assert!(
                shared.busy.iter().all(|b| b.load(Relaxed) == 0),
                "every path left"
            );
            // The progress count holds every thread's nodes.
            assert_eq!(shared.nodes(), out.nodes, "at least {at_least}");
        }
    }

    /// The progress reports of a parallel search count every thread's nodes, and say when
    /// the root's numbers were set in the same count.
    #[test]
    fn reports_count_all_the_threads_nodes() {
        let g = Kalah::start(6, 4, Default::default());
        let goal = Goal {
            attacker: Player::First,
            at_least: 12,
        };
        let limits = Limits {
            nodes: Some(1 << 21),
            ..Limits::default()
        };
        let table = ProofTable::with_mb(16);
        let shared = Shared::default();
        let mut reports = Vec::new();
        let mut keep = |r: crate::proof::Report| reports.push(r);
        let out = run_threads(
            2,
            1 << 24,
            || {
                ProofSearch::new(&table, goal, limits)
                    .with_shared(&shared)
                    .with_progress(&mut keep)
                    .run(&g)
            },
            |_| {
                ProofSearch::new(&table, goal, limits)
                    .with_shared(&shared)
                    .run(&g)
            },
        );
        assert_eq!(out.verdict, Verdict::Open);
        assert_eq!(out.nodes, 2 << 21);
        assert_eq!(reports.len(), 2, "one report a million nodes of thread 0");
        for r in &reports {
            assert!(r.updated_at <= r.nodes, "{r:?}");
            assert!(r.nodes >= 1 << 20, "{r:?}");
        }
    }

    /// A busy child looks a quarter more expensive, and one; a position is busy while
    /// some path is through it.
    #[test]
    fn a_busy_childs_number_counts_a_quarter_more() {
        assert_eq!(virtual_cost(0), 1);
        assert_eq!(virtual_cost(1), 2);
        assert_eq!(virtual_cost(300), 376);
        assert_eq!(virtual_cost(u32::MAX), u32::MAX);
        let s = Shared::default();
        let key = 0x1234_5678_9abc_def0;
        assert!(!s.is_busy(key));
        s.enter(key);
        s.enter(key);
        s.leave(key);
        assert!(s.is_busy(key));
        s.leave(key);
        assert!(!s.is_busy(key));
    }
}
