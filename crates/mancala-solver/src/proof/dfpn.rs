//! Depth-first proof-number search (df-pn, Nagai 2002) for one question: does the
//! attacker reach his [`Goal`] from the root (win, or in a margin game end with at least
//! so much)? "Win" below means "reach the goal".
//!
//! Numbers are the attacker's: a node's proof number is the least number of leaves that
//! must still be shown wins to prove it, its disproof number the same for showing it is
//! no win. At the attacker's move the proof number is the least of the children's and the
//! disproof number their sum; at the defender's the other way round. Each call works
//! below a node until its numbers pass the thresholds it was given, so the search
//! behaves like best-first proof-number search without keeping a tree in memory.
//!
//! A child already on the path is a repetition, a draw, so no win: disproven for this
//! path. Each disproof carries the lowest path index of a repetition it rests on; one
//! resting on a position above its node goes to the parent but not into the table, where
//! another path could meet it (the graph-history interaction). See the module
//! documentation of [`super`] for why every proof is sound and every disproof still a
//! claim for [`super::certificate`] to check.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use arrayvec::ArrayVec;
use mancala_core::Game;
use mancala_core::game::MAX_MOVES;

use super::parallel::{Shared, virtual_cost};
use super::table::ProofTable;
use super::{Goal, INFINITE, known_verdict, proof_key};
use crate::path::PathSet;
use crate::retro::Oracle;

/// The answer the search reached.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Verdict {
    /// The attacker wins (proof number 0).
    Proven,
    /// The search found no win for the attacker (disproof number 0); to be checked.
    Disproven,
    /// A limit stopped the search first.
    Open,
}

/// When to stop.
#[derive(Copy, Clone, Debug, Default)]
pub struct Limits {
    /// Stop after this many nodes (`None`: no limit).
    pub nodes: Option<u64>,
    /// Stop after this many seconds.
    pub seconds: Option<f64>,
    /// Stop when this flag is raised (a signal handler's).
    pub stop: Option<&'static AtomicBool>,
}

/// A progress report: the nodes searched so far and the root's numbers. The search sets
/// those only when it comes back to the root, and below a big subtree that can take many
/// minutes, so the report says when they were set: numbers that have not moved for a
/// while describe the tree as it was then, not a proof or disproof about to finish.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Report {
    pub nodes: u64,
    pub pn: u32,
    pub dn: u32,
    /// The node count when `pn` and `dn` were set.
    pub updated_at: u64,
    /// The root's child the search is below (its index in [`Game::for_each_child`]
    /// order), once it has gone down: in a long search, which first move is being proven
    /// or refuted.
    pub below: Option<usize>,
}

/// What one search found, with its effort.
#[derive(Copy, Clone, Debug)]
pub struct Outcome {
    pub verdict: Verdict,
    /// The root's numbers at the end.
    pub pn: u32,
    pub dn: u32,
    pub nodes: u64,
    pub seconds: f64,
    /// Deepest path searched.
    pub max_depth: usize,
    /// Disproofs that rested on a repetition of a position above their node, so were
    /// not stored: each one that another visit needs is searched again. How much that
    /// costs is measured in docs/solver.md ("Proof-number search").
    pub path_disproofs: u64,
}

/// The search state: the table, the path and the counters.
pub struct ProofSearch<'t, G: Game> {
    table: &'t ProofTable,
    /// A table read where `table` has no entry, never written ([`ProofSearch::with_base`]).
    base: Option<&'t ProofTable>,
    goal: Goal,
    path: PathSet,
    depth: usize,
    max_depth: usize,
    nodes: u64,
    limits: Limits,
    stopped: bool,
    progress: Option<&'t mut dyn FnMut(Report)>,
    root_numbers: (u32, u32),
    /// The node count when `root_numbers` were last set.
    root_updated: u64,
    /// The root's child the search went down into last ([`Report::below`]).
    root_child: Option<usize>,
    started: Instant,
    /// Start new positions' numbers from their mobility ([`ProofSearch::initial`]).
    by_mobility: bool,
    /// Weight new positions' numbers by the banked margin ([`ProofSearch::initial`]).
    by_margin: bool,
    /// Ask for every child's table bucket and database entry before the first lookup
    /// ([`ProofSearch::children`]).
    by_prefetch: bool,
    /// Exact values of the positions an endgame database holds: leaves, like finished
    /// games.
    oracle: Option<&'t dyn Oracle<G>>,
    /// Disproofs found that rested on a repetition above their node (not stored).
    path_disproofs: u64,
    /// The other threads of a parallel search ([`super::parallel`]).
    shared: Option<&'t Shared>,
}

/// Progress is reported every this many nodes.
const REPORT_EVERY: u64 = 1 << 20;

/// The clock and the stop flag are read every this many nodes.
const CLOCK_EVERY: u64 = 1 << 12;

/// A child as its parent's loop sees it: the position, its repetition key and its
/// numbers. A final child or one on the path is settled, so it is never searched again.
struct Child<G> {
    g: G,
    key: u64,
    pn: u32,
    dn: u32,
    /// When disproven: the lowest path index of a repeated position the disproof rests
    /// on ([`NO_REP`] if none).
    rep: u32,
}

/// No repetition: a disproof that holds whatever the path.
const NO_REP: u32 = u32::MAX;

/// The threshold a child gets from the second-best sibling's number `second`: the 1 +
/// epsilon trick (epsilon [`Game::PROOF_EPSILON_INVERSE`]'s inverse) lets the search stay
/// in one subtree a while longer instead of switching back and forth between two close
/// ones.
#[inline]
fn widened<G: Game>(second: u32) -> u32 {
    if second >= INFINITE {
        INFINITE
    } else {
        second
            .saturating_add((second / G::PROOF_EPSILON_INVERSE).max(1))
            .min(INFINITE)
    }
}

#[inline]
fn add(a: u32, b: u32) -> u32 {
    a.saturating_add(b).min(INFINITE)
}

impl<'t, G: Game> ProofSearch<'t, G> {
    /// A search for `goal`: a [`Goal`] or, for "does he win?", the attacker alone.
    pub fn new(table: &'t ProofTable, goal: impl Into<Goal>, limits: Limits) -> Self {
        ProofSearch {
            table,
            base: None,
            goal: goal.into(),
            path: PathSet::default(),
            depth: 0,
            max_depth: 0,
            nodes: 0,
            limits,
            stopped: false,
            progress: None,
            root_numbers: (1, 1),
            root_updated: 0,
            root_child: None,
            started: Instant::now(),
            by_mobility: true,
            by_margin: true,
            by_prefetch: true,
            oracle: None,
            path_disproofs: 0,
            shared: None,
        }
    }

    /// Searches beside other threads over the same table: marks its path busy, steers
    /// away from the others' paths, stops when one of them has the answer
    /// ([`super::parallel`]).
    pub fn with_shared(mut self, shared: &'t Shared) -> Self {
        self.shared = Some(shared);
        self
    }

    /// Starts new positions' numbers from 1 and 1 instead of their mobility (to measure
    /// the df-pn+ initialisation by [`Game::mobility`]).
    pub fn without_mobility(mut self) -> Self {
        self.by_mobility = false;
        self
    }

    /// Leaves the banked margin out of new positions' numbers (to measure the margin
    /// initialisation of `ProofSearch::initial`).
    pub fn without_margin(mut self) -> Self {
        self.by_margin = false;
        self
    }

    /// Looks up each child without first asking the processor for its bucket and
    /// database entry (to measure the prefetch; the search and its answers are the same,
    /// node for node).
    pub fn without_prefetch(mut self) -> Self {
        self.by_prefetch = false;
        self
    }

    /// Settles the positions `oracle` knows by their exact values instead of searching
    /// them.
    pub fn with_oracle(mut self, oracle: Option<&'t dyn Oracle<G>>) -> Self {
        self.oracle = oracle;
        self
    }

    /// Reads `base` where the search's own table has no entry, and never writes it: the
    /// certificate check's repairs start from what the search found without replacing
    /// the entries the rest of the check reads.
    pub fn with_base(mut self, base: &'t ProofTable) -> Self {
        self.base = Some(base);
        self
    }

    /// The numbers stored for `key`: in the search's table, else in the base table.
    #[inline]
    fn stored(&self, key: u64) -> Option<(u32, u32)> {
        self.table
            .get(key)
            .or_else(|| self.base.and_then(|b| b.get(key)))
    }

    /// Calls `report` now and then while searching.
    pub fn with_progress(mut self, report: &'t mut dyn FnMut(Report)) -> Self {
        self.progress = Some(report);
        self
    }

    /// Searches `root` until it is proven or disproven or a limit is reached. A table
    /// kept from an earlier call goes on from there.
    pub fn run(&mut self, root: &G) -> Outcome {
        let start = Instant::now();
        self.started = start;
        let key = proof_key(root);
        let (pn, dn) = match known_verdict(root, self.goal, self.oracle) {
            Some(win) => settled(win),
            None => {
                let mut numbers = self.stored(key).unwrap_or((1, 1));
                while numbers.0 != 0 && numbers.1 != 0 && !self.stopped {
                    let (pn, dn, _) = self.mid(root, key, INFINITE, INFINITE);
                    numbers = (pn, dn);
                }
                numbers
            }
        };
        let verdict = match (pn, dn) {
            (0, _) => Verdict::Proven,
            (_, 0) => Verdict::Disproven,
            _ => Verdict::Open,
        };
        if let Some(s) = self.shared {
            s.add_nodes(self.nodes % CLOCK_EVERY);
            if verdict != Verdict::Open {
                s.finish();
            }
        }
        Outcome {
            verdict,
            pn,
            dn,
            nodes: self.nodes,
            seconds: start.elapsed().as_secs_f64(),
            max_depth: self.max_depth,
            path_disproofs: self.path_disproofs,
        }
    }

    fn count_node(&mut self) {
        self.nodes += 1;
        if self.nodes.is_multiple_of(CLOCK_EVERY)
            && let Some(s) = self.shared
        {
            s.add_nodes(CLOCK_EVERY);
            self.stopped |= s.is_done();
        }
        if self.nodes.is_multiple_of(REPORT_EVERY) {
            let (pn, dn) = self.root_numbers;
            let updated_at = self.root_updated;
            let below = self.root_child;
            if let Some(report) = self.progress.as_mut() {
                report(Report {
                    nodes: self.shared.map_or(self.nodes, |s| s.nodes()),
                    pn,
                    dn,
                    updated_at,
                    below,
                });
            }
        }
        if self.limits.nodes.is_some_and(|n| self.nodes >= n) {
            self.stopped = true;
        }
        if self.nodes.is_multiple_of(CLOCK_EVERY) {
            let late = |s: f64| self.started.elapsed().as_secs_f64() >= s;
            let asked = |f: &AtomicBool| f.load(Ordering::Relaxed);
            if self.limits.seconds.is_some_and(late) || self.limits.stop.is_some_and(asked) {
                self.stopped = true;
            }
        }
    }

    /// The children of `g`, each with its numbers from the table, its final verdict or
    /// its repetition.
    /// (Filled in place: returned by value, the list of up to [`MAX_MOVES`] children was
    /// copied at every node.)
    fn children(&mut self, g: &G, children: &mut ArrayVec<Child<G>, MAX_MOVES>) {
        // First every child and its key, with its table bucket requested, then the
        // lookups: the misses of a big table overlap instead of following one another.
        // The search waits for memory most of its time once the table outgrows the
        // caches (docs/solver.md, "Where a big table's time goes").
        g.for_each_child(|_, c| {
            let key = proof_key(&c);
            if self.by_prefetch {
                self.table.prefetch(key);
                if let Some(o) = self.oracle {
                    o.prefetch(&c);
                }
            }
            children.push(Child {
                g: c,
                key,
                pn: 1,
                dn: 1,
                rep: NO_REP,
            });
        });
        for c in children.iter_mut() {
            (c.pn, c.dn) = if let Some(at) = self.path.get(c.key) {
                // A repetition: a draw, no win for the attacker on this path.
                c.rep = at;
                settled(false)
            } else if let Some(numbers) = self.stored(c.key) {
                numbers
            } else if let Some(win) = known_verdict(&c.g, self.goal, self.oracle) {
                // Stored where there is room, so that the next expansion of this parent
                // finds it in the table instead of testing for the end of the game (in
                // Andada that test sows every hole) or reading the database again; never
                // in the place of searched work (`ProofTable::put_leaf`).
                let numbers = settled(win);
                self.table.put_leaf(c.key, numbers.0, numbers.1);
                numbers
            } else {
                self.initial(&c.g)
            };
        }
    }

    /// The numbers of a position not yet searched: the number of moves for the side that
    /// needs one good move (proof number at the defender's turn is the attacker's work
    /// against every reply), 1 for the other (df-pn+ initialisation by mobility); then
    /// the number of the side that is behind on the banked margin multiplied by 1 plus
    /// how far behind it is, at most [`MARGIN_WEIGHT_CAP`] ([`margin_weight`]).
    fn initial(&self, g: &G) -> (u32, u32) {
        let (mut pn, mut dn) = match (self.by_mobility, g.to_move() == self.goal.attacker) {
            (false, _) => (1, 1),
            (true, true) => (1, g.mobility().max(1)),
            (true, false) => (g.mobility().max(1), 1),
        };
        if self.by_margin {
            let (ahead, weight) = margin_weight(g, self.goal);
            if ahead {
                dn *= weight;
            } else {
                pn *= weight;
            }
        }
        (pn, dn)
    }

    /// The multiple-iterative-deepening step: works below `g` until its numbers reach
    /// `th_pn` or `th_dn` (or it is settled, or a limit stops the search), stores them
    /// and returns them.
    fn mid(&mut self, g: &G, key: u64, th_pn: u32, th_dn: u32) -> (u32, u32, u32) {
        self.count_node();
        let start = self.nodes;
        let mut children = ArrayVec::new();
        self.children(g, &mut children);
        let attacking = g.to_move() == self.goal.attacker;
        let at = self.depth as u32;
        self.path.insert(key, at);
        if let Some(s) = self.shared {
            s.enter(key);
        }
        self.depth += 1;
        self.max_depth = self.max_depth.max(self.depth);
        let (pn, dn, rep) = loop {
            let (pn, dn, best, second) = Self::combine(&children, attacking);
            if at == 0 {
                self.root_numbers = (pn, dn);
                // In the units of the reports: all the threads' nodes.
                self.root_updated = self.shared.map_or(self.nodes, |s| s.nodes());
            }
            if pn >= th_pn || dn >= th_dn || pn == 0 || dn == 0 || self.stopped {
                break (pn, dn, Self::disproof_rep(&children, attacking, dn));
            }
            let (best, second) = self
                .shared
                .and_then(|s| Self::steer(&children, attacking, s, (th_pn, th_dn)))
                .unwrap_or((best, second));
            let c = &children[best];
            let (c_pn, c_dn) = if attacking {
                (th_pn.min(widened::<G>(second)), add(th_dn - dn, c.dn))
            } else {
                (add(th_pn - pn, c.pn), th_dn.min(widened::<G>(second)))
            };
            let (cg, ck) = (c.g, c.key);
            if at == 0 {
                self.root_child = Some(best);
            }
            let (npn, ndn, nrep) = self.mid(&cg, ck, c_pn, c_dn);
            let c = &mut children[best];
            (c.pn, c.dn, c.rep) = (npn, ndn, nrep);
        };
        self.depth -= 1;
        self.path.remove(key);
        if let Some(s) = self.shared {
            s.leave(key);
        }
        // A disproof resting on a repetition of a position above this one holds on this
        // path only: the parent uses it, the table does not keep it (where another path
        // reaches this position, that repetition may not be there). A repetition of this
        // position itself is endless play from here, whatever the path.
        if dn != 0 || rep >= at {
            self.table.put(key, pn, dn, self.nodes - start + 1);
        } else {
            self.path_disproofs += 1;
        }
        (pn, dn, rep)
    }

    /// The lowest path index of a repetition that the node's disproof rests on (`dn` 0),
    /// else [`NO_REP`]. At the attacker's move every child is disproven and each one's
    /// repetitions count; at the defender's one disproven child is enough, the one
    /// resting on the highest index.
    fn disproof_rep(children: &[Child<G>], attacking: bool, dn: u32) -> u32 {
        if dn != 0 {
            return NO_REP;
        }
        let disproven = children.iter().filter(|c| c.dn == 0).map(|c| c.rep);
        if attacking {
            disproven.min().unwrap_or(NO_REP)
        } else {
            disproven.max().unwrap_or(NO_REP)
        }
    }

    /// The child to search next and its sibling's number for the threshold when busy
    /// children (other threads' paths) count [`virtual_cost`]: `None` when no child is
    /// busy, or when the child so chosen is already past the threshold its parent may
    /// give it (`th`: the parent's own thresholds), where the search must take the true
    /// best child to make progress.
    fn steer(
        children: &[Child<G>],
        attacking: bool,
        shared: &Shared,
        th: (u32, u32),
    ) -> Option<(usize, u32)> {
        let mut any = false;
        let mut pick = Pick::default();
        for (i, c) in children.iter().enumerate() {
            let mut mine = if attacking { c.pn } else { c.dn };
            if mine != 0 && mine < INFINITE && shared.is_busy(c.key) {
                any = true;
                mine = virtual_cost(mine);
            }
            pick.offer(i, mine);
        }
        let Pick { best, second, .. } = pick;
        let c = &children[best];
        let (own, th) = if attacking {
            (c.pn, th.0)
        } else {
            (c.dn, th.1)
        };
        (any && own < th.min(widened::<G>(second))).then_some((best, second))
    }

    /// The node's numbers from its children's, the child to search next and the number
    /// of the second best (for its threshold). At the attacker's move the best child has
    /// the least proof number; at the defender's, the least disproof number.
    fn combine(children: &[Child<G>], attacking: bool) -> (u32, u32, usize, u32) {
        let mut sum = 0u32;
        let mut pick = Pick::default();
        for (i, c) in children.iter().enumerate() {
            let (mine, other) = if attacking {
                (c.pn, c.dn)
            } else {
                (c.dn, c.pn)
            };
            sum = add(sum, other);
            pick.offer(i, mine);
        }
        let Pick {
            best,
            least,
            second,
        } = pick;
        let least = least.min(INFINITE);
        if attacking {
            (least, sum, best, second)
        } else {
            (sum, least, best, second)
        }
    }
}

/// The child of least number among those offered, its number and the next least (from
/// which the chosen child's threshold comes).
struct Pick {
    best: usize,
    least: u32,
    second: u32,
}

impl Default for Pick {
    fn default() -> Self {
        Pick {
            best: 0,
            least: INFINITE + 1,
            second: INFINITE,
        }
    }
}

impl Pick {
    /// Child `i` has number `n`; the first of equal numbers stays the best.
    #[inline]
    fn offer(&mut self, i: usize, n: u32) {
        if n < self.least {
            self.second = self.least.min(INFINITE);
            self.least = n;
            self.best = i;
        } else if n < self.second {
            self.second = n;
        }
    }
}

/// Margin initialisation: a margin already banked is evidence for the goal, so the side
/// it favours looks cheaper to finish. The attacker's banked margin is compared with what
/// the goal needs (at least `at_least`, so `at_least - 1` is the edge); returned are
/// whether he is ahead of that edge and 1 + the distance, capped at
/// [`MARGIN_WEIGHT_CAP`]. Win/draw/loss games bank nothing and ask for 1, so their weight
/// is 1 and their search is unchanged.
///
/// Measured (prove --tt-mb 512, one thread, nodes without -> with, the same answers):
/// Progressive 1 x 9 x 2 "does East win?" 447,676 -> 342,557; 1 x 11 x 1 1,429,801 ->
/// 851,352; 1 x 9 x 3 182,266 -> 130,437; 1 x 9 x 3 "at least +3" 192,473 -> 108,050;
/// 1 x 13 x 1 "at least +1" (--tt-mb 2048) 94,162,814 -> 69,779,583; Kalah(6,3) "does
/// South win?" 596,714 -> 416,868, "at least +4" 1,023,427 -> 648,273; Kalah(5,4)
/// "at least +2" 46,892 -> 29,602. A cap of 9 did better on three of these and worse on
/// five, one of 17 or 65 better on two and worse on six; the half distance (cap 9) did
/// worse than the whole on all eight.
#[inline]
fn margin_weight<G: Game>(g: &G, goal: Goal) -> (bool, u32) {
    let ahead_by = goal.attackers(g.to_move(), g.banked()) - (goal.at_least - 1);
    (
        ahead_by > 0,
        1 + ahead_by.unsigned_abs().min(MARGIN_WEIGHT_CAP - 1),
    )
}

/// The largest factor [`margin_weight`] gives.
const MARGIN_WEIGHT_CAP: u32 = 5;

/// The numbers of a settled position: a win is proven, anything else disproven.
fn settled(win: bool) -> (u32, u32) {
    if win { (0, INFINITE) } else { (INFINITE, 0) }
}
