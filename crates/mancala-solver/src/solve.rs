//! Solving a position: the exact value, the value of every root move and a principal
//! variation, on any number of threads (Lazy SMP: every thread runs the same exact search
//! over one shared table, helpers in another move order; the first to finish answers).
//! Values are exact, so they are the same for every thread count. The principal variation
//! is one optimal line: at each position the table's move when it keeps the value, else
//! the first legal move that does; with several optimal moves it may depend on what the
//! table holds.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, AtomicUsize, Ordering};
use std::time::Instant;

use mancala_core::{Game, Moves};

use crate::retro::Oracle;
use crate::search::{Bracket, Grid, Searcher, Shared, Start, Techniques};
use crate::tt::{Table, TableError};

/// How to solve.
#[derive(Clone, Debug)]
pub struct Config {
    pub threads: usize,
    pub tt_mb: usize,
    pub techniques: Techniques,
    /// Compute the exact value of every root move (else only the root value and PV).
    pub all_moves: bool,
    /// Longest principal variation to extract.
    pub max_pv: usize,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            threads: 1,
            tt_mb: 64,
            techniques: Techniques::default(),
            all_moves: true,
            max_pv: 400,
        }
    }
}

/// Live figures for a progress display, updated by the search.
#[derive(Debug)]
pub struct Progress {
    pub nodes: AtomicU64,
    /// Current bounds on the value being solved (search units, the view of the player to
    /// move in the position being solved).
    pub lower: AtomicI64,
    pub upper: AtomicI64,
    /// The null-window test under way in the exact search (`value >= testing`, the same
    /// units and view as the bounds); [`Progress::NO_TEST`] when none is.
    pub testing: AtomicI64,
    /// 0 = root value, k = root move k, u64::MAX = principal variation.
    pub phase: AtomicU64,
    /// The depth of the heuristic first-guess search under way; 0 in the exact search.
    pub depth: AtomicU64,
    /// Set by the caller to stop the search.
    pub stop: AtomicBool,
}

impl Progress {
    /// [`Progress::testing`] when no null-window test is under way.
    pub const NO_TEST: i64 = i64::MIN;
}

impl Default for Progress {
    fn default() -> Self {
        Progress {
            nodes: AtomicU64::new(0),
            lower: AtomicI64::new(0),
            upper: AtomicI64::new(0),
            testing: AtomicI64::new(Progress::NO_TEST),
            phase: AtomicU64::new(0),
            depth: AtomicU64::new(0),
            stop: AtomicBool::new(false),
        }
    }
}

/// Why a principal variation stops.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PvEnd {
    /// The game is over.
    GameOver,
    /// A position repeated: the repetition rule ends the game.
    Repetition,
    /// The length limit was reached.
    Limit,
}

/// The result of solving one position.
#[derive(Clone, Debug)]
pub struct Solution<M> {
    /// Exact value for the player to move (search units).
    pub value: i32,
    /// Every legal move with its exact value for the root's player to move, in legal order
    /// (empty unless [`Config::all_moves`]).
    pub moves: Vec<(M, i32)>,
    pub pv: Vec<M>,
    pub pv_end: PvEnd,
    pub nodes: u64,
    pub seconds: f64,
    pub tt_hits: u64,
    /// Retrograde-database look-ups and hits (0 without an oracle).
    pub oracle_probes: u64,
    pub oracle_hits: u64,
    pub tt_permille: u32,
    pub tt_bytes: usize,
    /// Deepest search path (plies from the root).
    pub max_depth: u64,
}

/// What a solve has proven of its root so far: kept so that a checkpoint
/// ([`crate::checkpoint`]) can save it and a resumed solve skip it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Proven {
    /// The root it is about: [`root_fingerprint`].
    pub root: u64,
    /// The root's exact value (search units, its player to move), once proven, relative
    /// to the root's banked margin as the table keeps values (a [`Game::key`] may leave
    /// out what is banked: positions that differ only there share a key and these values).
    pub value: Option<i32>,
    /// The exact value of each root move, in legal order, once proven (relative to the
    /// root's banked margin, as `value`).
    pub moves: Vec<Option<i32>>,
    /// Where the exact search of the root value stood while it was unproven (relative to
    /// the root's banked margin): a resumed solve goes on with the same null-window test.
    pub value_bracket: Option<Bracket>,
    /// The same for each root move's position while its value is unproven (its own view
    /// and relative to its own banked margin).
    pub move_brackets: Vec<Option<Bracket>>,
}

/// Which solve a [`Proven`] belongs to: the root's key, its number of legal moves and,
/// where values depend on history, the keys of the positions before it. Mover keys
/// ([`Game::mover_key`]): a root's twin shares its table key, but its moves are others.
pub fn root_fingerprint<G: Game>(root: &G, history: &[G], moves: usize) -> u64 {
    let mut h = mancala_core::hash::mix64(root.mover_key() ^ moves as u64);
    for g in history {
        h = mancala_core::hash::mix64(h ^ g.mover_key());
    }
    h
}

/// A solver: a table that persists across calls (so related positions share work).
pub struct Solver {
    pub tt: Table,
    pub config: Config,
    pub progress: Progress,
    proven: Mutex<Proven>,
    tt_hits: AtomicU64,
    oracle_probes: AtomicU64,
    oracle_hits: AtomicU64,
    max_depth: AtomicU64,
}

/// Stack of a search thread. The search recurses once per ply, and in games where
/// positions can repeat a capture-free stretch can be thousands of plies deep; the
/// memory is reserved, not committed, until used.
pub const SEARCH_STACK: usize = 1 << 30;

/// Runs `f` on a thread with a search-sized stack (for callers that search directly with
/// a [`Searcher`] or [`crate::minimax`]).
///
/// When the system refuses a new thread, `f` runs on the calling thread instead (with its
/// stack) rather than failing.
pub fn on_search_stack<R: Send>(f: impl FnOnce() -> R + Send) -> R {
    let task = Mutex::new(Some(f));
    let run = || {
        let f = task.lock().ok().and_then(|mut t| t.take());
        f.map(|f| f())
    };
    let spawned = std::thread::scope(|s| {
        let handle = std::thread::Builder::new()
            .stack_size(SEARCH_STACK)
            .spawn_scoped(s, run)
            .ok()?;
        Some(
            handle
                .join()
                .unwrap_or_else(|e| std::panic::resume_unwind(e)),
        )
    });
    match spawned.flatten() {
        Some(r) => r,
        None => run().expect("the task runs once"),
    }
}

impl Solver {
    /// A solver with a table of the configured size.
    ///
    /// # Panics
    /// When that table cannot be had; [`Solver::try_new`] reports it instead.
    pub fn new(config: Config) -> Self {
        Self::try_new(config).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A solver, or why its table cannot be made (a size beyond the machine).
    pub fn try_new(config: Config) -> Result<Self, TableError> {
        Ok(Solver {
            tt: Table::try_new(config.tt_mb)?,
            config,
            progress: Progress::default(),
            proven: Mutex::new(Proven::default()),
            tt_hits: AtomicU64::new(0),
            oracle_probes: AtomicU64::new(0),
            oracle_hits: AtomicU64::new(0),
            max_depth: AtomicU64::new(0),
        })
    }

    /// What the current (or last) solve has proven of its root.
    pub fn proven(&self) -> Proven {
        self.proven.lock().unwrap().clone()
    }

    /// Resumes from what an earlier solve proved: a solve of the same root skips it.
    pub fn resume(&self, proven: Proven) {
        *self.proven.lock().unwrap() = proven;
    }

    /// The exact value of `g` for its player to move, on the configured threads; `None` if
    /// stopped.
    pub fn value<G: Game>(&self, g: &G, guess: i32) -> Option<i32> {
        self.value_after(g, &[], guess, None)
    }

    /// [`Solver::value`] of `g` reached after the positions `history` (oldest first). Only
    /// rules whose values depend on history ([`Game::history_dependent`]) use it; for the
    /// others it is ignored (their values are history-free).
    pub fn value_after<G: Game>(
        &self,
        g: &G,
        history: &[G],
        guess: i32,
        oracle: Option<&dyn Oracle<G>>,
    ) -> Option<i32> {
        self.on_all_threads(g, history, Goal::Exact(Start::Guess(guess)), oracle, None)
    }

    /// Whether the value of `g` (after `history`, as in [`Solver::value_after`]) is at
    /// least `beta`, decided by one null-window test on the configured threads, after the
    /// same first guess as an exact search. The answer is a fail-soft bound `v`: the value
    /// is at least `v` when `v >= beta`, at most `v` otherwise. Far cheaper than the exact
    /// value when only one side of it is asked ("does the first player win?"), and, on a
    /// fresh solver, an independent check of one bound of an exact value. `None` if
    /// stopped.
    ///
    /// The test is kept as the root's bracket ([`Proven::value_bracket`]) while it runs
    /// and narrowed by its answer, so that a checkpoint resumes it and a later exact
    /// search of the same root starts from what it proved. What the solver already knows
    /// of `g` (after [`Solver::resume`] or an earlier call) answers without a search when
    /// it decides `beta`; a test resumed from it skips the first guess.
    pub fn decide_after<G: Game>(
        &self,
        g: &G,
        history: &[G],
        beta: i32,
        oracle: Option<&dyn Oracle<G>>,
    ) -> Option<i32> {
        self.tt.new_search();
        self.progress.phase.store(0, Ordering::Relaxed);
        let played: Vec<G> = history.iter().copied().chain([*g]).collect();
        self.start_proving(&played);
        let banked = g.banked();
        // What the checkpoint this solver resumed (or an earlier test) proved of `g`.
        let saved = self.proven();
        if let Some(v) = saved.value {
            return Some(v + banked);
        }
        let (lo, hi) = g.value_range();
        let known = saved.value_bracket.map(|b| b.shifted(banked));
        let (lower, upper) = known.map_or((lo, hi), |b| (b.lower.max(lo), b.upper.min(hi)));
        if lower >= beta {
            return Some(lower);
        }
        if upper < beta {
            return Some(upper);
        }
        let test = Bracket { lower, upper, beta };
        // Saved before the search, as an exact search's test: a checkpoint taken while it
        // runs resumes this test (and a later exact search keeps the bounds).
        self.proven.lock().unwrap().value_bracket = Some(test.shifted(-banked));
        // An earlier search of `g` left its good moves in the table: no first guess.
        let goal = Goal::AtLeast {
            test,
            guess: known.is_none(),
        };
        let v = self.on_all_threads(g, history, goal, oracle, None)?;
        self.narrow_root(g, test, v);
        Some(v)
    }

    /// Keeps what the test `test` of the root `g` proved with its fail-soft bound `v`: the
    /// narrowed bracket with the test an exact search would run next, or the value once
    /// the bracket closes.
    fn narrow_root<G: Game>(&self, g: &G, test: Bracket, v: i32) {
        let grid = Grid::of(g);
        let (mut lower, mut upper) = (test.lower, test.upper);
        if v >= test.beta {
            lower = lower.max(grid.up(v));
        } else {
            upper = upper.min(grid.down(v));
        }
        let banked = g.banked();
        let mut p = self.proven.lock().unwrap();
        if lower == upper {
            (p.value, p.value_bracket) = (Some(lower - banked), None);
        } else {
            // MTD(f)'s next test, as the exact search would run it after this one.
            let beta = grid.up(v.clamp(lower + 1, upper));
            p.value_bracket = Some(Bracket { lower, upper, beta }.shifted(-banked));
        }
    }

    /// `goal` for `g` on the configured threads (Lazy SMP): the first thread to reach it
    /// answers; `None` if stopped. Thread 0 tells `record` where its exact search stands.
    fn on_all_threads<G: Game>(
        &self,
        g: &G,
        history: &[G],
        goal: Goal,
        oracle: Option<&dyn Oracle<G>>,
        record: Option<&Record<'_>>,
    ) -> Option<i32> {
        let history = self.history_for(history);
        let threads = self.config.threads.max(1);
        let done = AtomicBool::new(false);
        let result = Mutex::new(None);
        std::thread::scope(|s| {
            // Helpers first, then thread 0; a thread the system refuses is left out (the
            // value is exact on any number of threads), and thread 0 then runs here.
            for id in (1..threads).chain([0]) {
                let (result, done) = (&result, &done);
                let work = move || {
                    let record = if id == 0 { record } else { None };
                    let seat = Seat { id, done, record };
                    let v = self.on_this_thread(g, history, goal, oracle, seat);
                    if let Some(v) = v {
                        let mut r = result.lock().unwrap();
                        if r.is_none() {
                            *r = Some(v);
                        }
                        done.store(true, Ordering::Relaxed);
                    }
                };
                let spawned = std::thread::Builder::new()
                    .stack_size(SEARCH_STACK)
                    .spawn_scoped(s, work);
                if spawned.is_err() && id == 0 {
                    work();
                }
            }
        });
        result.into_inner().unwrap()
    }

    /// One thread's search of `g` for `goal` (thread `id` of a Lazy SMP search: helpers
    /// vary the move order near the root), stopped when `done` is set or the user stops;
    /// thread 0 publishes its bounds. Adds its counts to the solver's.
    fn on_this_thread<G: Game>(
        &self,
        g: &G,
        history: &[G],
        goal: Goal,
        oracle: Option<&dyn Oracle<G>>,
        seat: Seat<'_>,
    ) -> Option<i32> {
        let Seat { id, done, record } = seat;
        let shared = Shared {
            tt: &self.tt,
            abort: done,
            nodes: &self.progress.nodes,
            stop: Some(&self.progress.stop),
            depth: Some(&self.progress.depth),
        };
        let mut sr = Searcher::new(&shared, self.config.techniques, id, g);
        sr.set_history(history);
        sr.set_oracle(oracle);
        let stop = &self.progress.stop;
        // The user's stop reaches the threads through the shared abort flag.
        if stop.load(Ordering::Relaxed) {
            done.store(true, Ordering::Relaxed);
        }
        let prog = (id == 0).then_some(&self.progress);
        let v = search_with_progress(&mut sr, g, goal, prog, record, stop, done);
        sr.flush();
        self.tt_hits.fetch_add(sr.tt_hits, Ordering::Relaxed);
        self.oracle_probes
            .fetch_add(sr.oracle_probes, Ordering::Relaxed);
        self.oracle_hits
            .fetch_add(sr.oracle_hits, Ordering::Relaxed);
        self.max_depth
            .fetch_max(sr.max_depth as u64, Ordering::Relaxed);
        v
    }

    /// The exact values of the positions `children` (with where each search starts), one
    /// position per thread at a time over the shared table, in the order given; a thread
    /// left without a position of its own helps (Lazy SMP) with one still being solved.
    /// The first thread on position `i` tells `on_bracket(i, ..)` where it stands.
    /// `None` if stopped.
    fn values_in_parallel<G: Game>(
        &self,
        children: &[(G, Start)],
        history: &[G],
        oracle: Option<&dyn Oracle<G>>,
        on_done: &(dyn Fn(usize, i32) + Sync),
        on_bracket: &(dyn Fn(usize, Bracket) + Sync),
    ) -> Option<Vec<i32>> {
        struct Job {
            done: AtomicBool,
            value: Mutex<Option<i32>>,
            helpers: AtomicUsize,
        }
        let jobs: Vec<Job> = children
            .iter()
            .map(|_| Job {
                done: AtomicBool::new(false),
                value: Mutex::new(None),
                helpers: AtomicUsize::new(0),
            })
            .collect();
        let next = AtomicUsize::new(0);
        let threads = self.config.threads.max(1);
        let stop = &self.progress.stop;
        std::thread::scope(|s| {
            // As in value_after: a refused thread is left out, the last one runs here.
            for id in (1..threads).chain([0]) {
                let (jobs, next) = (&jobs, &next);
                let work = move || {
                    while !stop.load(Ordering::Relaxed) {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        // Its own position, else help with the unfinished one that has
                        // the fewest helpers (the earliest among equals).
                        let (i, id) = if i < jobs.len() {
                            self.progress.phase.store(i as u64 + 1, Ordering::Relaxed);
                            (i, 0)
                        } else {
                            let Some(i) = (0..jobs.len())
                                .filter(|&j| !jobs[j].done.load(Ordering::Relaxed))
                                .min_by_key(|&j| jobs[j].helpers.load(Ordering::Relaxed))
                            else {
                                break;
                            };
                            (i, 1 + jobs[i].helpers.fetch_add(1, Ordering::Relaxed))
                        };
                        let (c, start) = &children[i];
                        let job = &jobs[i];
                        let record = |b: Bracket| on_bracket(i, b);
                        let seat = Seat {
                            id,
                            done: &job.done,
                            record: (id == 0).then_some(&record as &Record<'_>),
                        };
                        let v = self.on_this_thread(c, history, Goal::Exact(*start), oracle, seat);
                        if let Some(v) = v {
                            let mut r = job.value.lock().unwrap();
                            if r.is_none() {
                                *r = Some(v);
                                on_done(i, v);
                            }
                            job.done.store(true, Ordering::Relaxed);
                        }
                    }
                };
                let spawned = std::thread::Builder::new()
                    .stack_size(SEARCH_STACK)
                    .spawn_scoped(s, work);
                if spawned.is_err() && id == 0 {
                    work();
                }
            }
        });
        jobs.into_iter()
            .map(|j| j.value.into_inner().unwrap())
            .collect()
    }

    /// Solves `root`: value, every move's value, principal variation.
    pub fn solve<G: Game>(&self, root: &G) -> Option<Solution<G::Move>> {
        self.solve_with(root, None)
    }

    /// [`Solver::solve`] with exact leaf values from `oracle` (retrograde tables).
    pub fn solve_with<G: Game>(
        &self,
        root: &G,
        oracle: Option<&dyn Oracle<G>>,
    ) -> Option<Solution<G::Move>> {
        self.solve_after(root, &[], oracle)
    }

    /// [`Solver::solve_with`] of `root` reached after the positions `before` (oldest
    /// first, e.g. a record's): where values depend on history
    /// ([`Game::history_dependent`]), a return to one of them ends the game.
    pub fn solve_after<G: Game>(
        &self,
        root: &G,
        before: &[G],
        oracle: Option<&dyn Oracle<G>>,
    ) -> Option<Solution<G::Move>> {
        let played: Vec<G> = before.iter().copied().chain([*root]).collect();
        let t0 = Instant::now();
        self.tt.new_search();
        let n0 = self.progress.nodes.load(Ordering::Relaxed);
        let h0 = self.tt_hits.load(Ordering::Relaxed);
        let p0 = self.oracle_probes.load(Ordering::Relaxed);
        let o0 = self.oracle_hits.load(Ordering::Relaxed);
        self.progress.phase.store(0, Ordering::Relaxed);
        let ms = self.start_proving(&played);
        let banked = root.banked();
        let saved = self.proven();
        let value = match saved.value {
            Some(v) => v + banked,
            None => {
                let start = saved
                    .value_bracket
                    .map_or(Start::Guess(banked), |b| Start::Resume(b.shifted(banked)));
                let record = |b: Bracket| {
                    self.proven.lock().unwrap().value_bracket = Some(b.shifted(-banked))
                };
                let history = self.history_for(before);
                let v =
                    self.on_all_threads(root, history, Goal::Exact(start), oracle, Some(&record))?;
                let mut p = self.proven.lock().unwrap();
                (p.value, p.value_bracket) = (Some(v - banked), None);
                v
            }
        };
        let children: Vec<G> = ms.iter().map(|&m| root.play(m)).collect();
        // The value of root move k from its child's value `v` (and back: a sign at most).
        let from_child = |k: usize, v: i32| {
            let same = children[k].to_move() == root.to_move();
            if same { v } else { -v }
        };
        let record = |k: usize, v: i32| {
            let mut p = self.proven.lock().unwrap();
            (p.moves[k], p.move_brackets[k]) = (Some(from_child(k, v) - banked), None);
        };
        // Where each move's search starts: where a saved search of it stood, else the
        // root's value as the first guess.
        let start = |k: usize| match saved.move_brackets[k] {
            Some(b) => Start::Resume(b.shifted(children[k].banked())),
            None => Start::Guess(from_child(k, value)),
        };
        // A thread still on a move that another thread has just proven records nothing.
        let bracket = |k: usize, b: Bracket| {
            let mut p = self.proven.lock().unwrap();
            if p.moves[k].is_none() {
                p.move_brackets[k] = Some(b.shifted(-children[k].banked()));
            }
        };
        let proven = self.proven();
        let unproven: Vec<usize> = (0..ms.len())
            .filter(|&k| proven.moves[k].is_none())
            .collect();
        if self.config.all_moves && self.config.threads > 1 {
            // One position per thread: Lazy SMP on one position repeats much of its work.
            // The worst moves first: their proofs lie farthest from anything the root's
            // search proved, and take longest (read from the table's bounds).
            let mut order = unproven.clone();
            order.sort_by_key(|&k| self.root_move_bound(root, &children[k]));
            let sorted: Vec<(G, Start)> = order.iter().map(|&k| (children[k], start(k))).collect();
            let history = self.history_for(&played);
            self.values_in_parallel(
                &sorted,
                history,
                oracle,
                &|i, v| record(order[i], v),
                &|i, b| bracket(order[i], b),
            )?;
        } else if self.config.all_moves {
            let history = self.history_for(&played);
            for &k in &unproven {
                self.progress.phase.store(k as u64 + 1, Ordering::Relaxed);
                let goal = Goal::Exact(start(k));
                let on = |b: Bracket| bracket(k, b);
                let v = self.on_all_threads(&children[k], history, goal, oracle, Some(&on))?;
                record(k, v);
            }
        }
        let moves: Vec<(G::Move, i32)> = if self.config.all_moves {
            let proven = self.proven();
            ms.iter()
                .zip(&proven.moves)
                .map(|(&m, v)| (m, v.expect("every root move proven") + banked))
                .collect()
        } else {
            Vec::new()
        };
        self.progress.phase.store(u64::MAX, Ordering::Relaxed);
        let (pv, pv_end) = self.pv(&played, value, &moves, oracle)?;
        Some(Solution {
            value,
            moves,
            pv,
            pv_end,
            nodes: self.progress.nodes.load(Ordering::Relaxed) - n0,
            seconds: t0.elapsed().as_secs_f64(),
            tt_hits: self.tt_hits.load(Ordering::Relaxed) - h0,
            oracle_probes: self.oracle_probes.load(Ordering::Relaxed) - p0,
            oracle_hits: self.oracle_hits.load(Ordering::Relaxed) - o0,
            tt_permille: self.tt.permille_full(),
            tt_bytes: self.tt.bytes(),
            max_depth: self.max_depth.load(Ordering::Relaxed),
        })
    }

    /// Starts (or, after [`Solver::resume`] with the same root, goes on) proving the root,
    /// the last of the positions `played`; its legal moves.
    fn start_proving<G: Game>(&self, played: &[G]) -> Moves<G::Move> {
        let root = played.last().expect("the root");
        let mut ms = Moves::new();
        root.legal_moves(&mut ms);
        let fingerprint = root_fingerprint(root, self.history_for(played), ms.len());
        let mut p = self.proven.lock().unwrap();
        if p.root != fingerprint || p.moves.len() != ms.len() {
            *p = Proven {
                root: fingerprint,
                value: None,
                moves: vec![None; ms.len()],
                value_bracket: None,
                move_brackets: vec![None; ms.len()],
            };
        }
        ms
    }

    /// The upper bound the table holds for the root move to `c`, for the root's player
    /// to move (the largest possible value when it holds none).
    fn root_move_bound<G: Game>(&self, root: &G, c: &G) -> i32 {
        let same = c.to_move() == root.to_move();
        let (lo, hi) = c.value_range();
        let (mut l, mut h) = (lo, hi);
        if let Some(e) = self.tt.probe(c.key()) {
            l = l.max(e.lower as i32 + c.banked());
            h = h.min(e.upper as i32 + c.banked());
        }
        if same { h } else { -l }
    }

    /// A principal variation of value `value` from the last position of `played` (the
    /// positions before it first): at each position a move whose exact value equals the
    /// position's value.
    fn pv<G: Game>(
        &self,
        played: &[G],
        value: i32,
        root_moves: &[(G::Move, i32)],
        oracle: Option<&dyn Oracle<G>>,
    ) -> Option<(Vec<G::Move>, PvEnd)> {
        let mut line = Vec::new();
        let (&root, before) = played.split_last().expect("the root");
        let mut g = root;
        let mut seen: Vec<u64> = self.history_for(before).iter().map(G::mover_key).collect();
        if g.can_repeat() && seen.contains(&g.mover_key()) {
            // The root itself repeats a position before it: the game ended there.
            return Some((line, PvEnd::Repetition));
        }
        seen.push(g.mover_key());
        let mut played = played.to_vec();
        let mut v = value;
        let mut ms = Moves::new();
        loop {
            if g.is_terminal() {
                return Some((line, PvEnd::GameOver));
            }
            if line.len() >= self.config.max_pv {
                return Some((line, PvEnd::Limit));
            }
            g.legal_moves(&mut ms);
            // The table's move first: it is usually the move the proof of the value used,
            // so the first test succeeds and no other move needs refuting.
            let tt_slot = self.tt.probe(g.key()).map(|e| e.mv);
            let mut order: Vec<G::Move> = ms.iter().copied().collect();
            if let Some(slot) = tt_slot
                && let Some(i) = order.iter().position(|&m| g.move_slot(m) as u8 == slot)
            {
                order[..=i].rotate_right(1);
            }
            let mut chosen = None;
            for &m in &order {
                let c = g.play(m);
                let same = c.to_move() == g.to_move();
                let known = if line.is_empty() && !root_moves.is_empty() {
                    root_moves.iter().find(|x| x.0 == m).map(|x| x.1)
                } else {
                    None
                };
                // No move is worth more than the position, so "at least v" means "exactly v".
                let hit = match known {
                    Some(x) => x == v,
                    None => {
                        if same {
                            self.at_least(&c, &played, v, oracle)?
                        } else {
                            !self.at_least(&c, &played, -v + 1, oracle)?
                        }
                    }
                };
                if hit {
                    chosen = Some((m, c, same));
                    break;
                }
            }
            let (m, c, same) = chosen.expect("some move keeps the value of a solved position");
            line.push(m);
            played.push(c);
            g = c;
            if !same {
                v = -v;
            }
            let k = g.mover_key();
            if g.can_repeat() && seen.contains(&k) {
                return Some((line, PvEnd::Repetition));
            }
            seen.push(k);
        }
    }

    /// The history a child search needs: the positions before it when values depend on
    /// history, none otherwise (values are then history-free, and an empty history lets
    /// the table store more).
    fn history_for<'h, G: Game>(&self, played: &'h [G]) -> &'h [G] {
        if played.first().is_some_and(|g| g.history_dependent()) {
            played
        } else {
            &[]
        }
    }

    /// Whether `value(g) >= beta` (after `history`, used as by [`Solver::value_after`]), by
    /// one null-window test; `None` if stopped.
    pub fn at_least<G: Game>(
        &self,
        g: &G,
        history: &[G],
        beta: i32,
        oracle: Option<&dyn Oracle<G>>,
    ) -> Option<bool> {
        let history = self.history_for(history);
        if g.is_terminal() {
            return Some(g.terminal_value() >= beta);
        }
        let done = AtomicBool::new(self.progress.stop.load(Ordering::Relaxed));
        let shared = Shared {
            tt: &self.tt,
            abort: &done,
            nodes: &self.progress.nodes,
            stop: Some(&self.progress.stop),
            depth: Some(&self.progress.depth),
        };
        on_search_stack(|| {
            let mut sr = Searcher::new(&shared, self.config.techniques, 0, g);
            sr.set_history(history);
            sr.set_oracle(oracle);
            let r = sr.at_least(g, beta);
            sr.flush();
            self.max_depth
                .fetch_max(sr.max_depth as u64, Ordering::Relaxed);
            self.tt_hits.fetch_add(sr.tt_hits, Ordering::Relaxed);
            self.oracle_probes
                .fetch_add(sr.oracle_probes, Ordering::Relaxed);
            self.oracle_hits
                .fetch_add(sr.oracle_hits, Ordering::Relaxed);
            r
        })
    }
}

/// Told where an exact search stands ([`Searcher::exact_observed`]).
type Record<'a> = dyn Fn(Bracket) + Sync + 'a;

/// One thread's place in a parallel search: its Lazy SMP index, the flag that ends the
/// search of its position, and (thread 0 only) where to record how its search stands.
#[derive(Copy, Clone)]
struct Seat<'a> {
    id: usize,
    done: &'a AtomicBool,
    record: Option<&'a Record<'a>>,
}

/// What a search of one position is for.
#[derive(Copy, Clone, Debug)]
enum Goal {
    /// The exact value, by MTD(f) from this start.
    Exact(Start),
    /// Whether the value is at least `test.beta`, the value being known to lie in
    /// `[test.lower, test.upper]`: one null-window test, answered by a fail-soft bound,
    /// after the heuristic first guess if `guess`.
    AtLeast { test: Bracket, guess: bool },
}

/// The search of one thread for `goal`, publishing its bounds when asked and watching the
/// user's stop flag.
fn search_with_progress<G: Game>(
    sr: &mut Searcher<'_, G>,
    g: &G,
    goal: Goal,
    progress: Option<&Progress>,
    record: Option<&Record<'_>>,
    stop: &AtomicBool,
    done: &AtomicBool,
) -> Option<i32> {
    let publish = |lo: i32, hi: i32, testing: Option<i32>| {
        if let Some(p) = progress {
            p.lower.store(lo as i64, Ordering::Relaxed);
            p.upper.store(hi as i64, Ordering::Relaxed);
            let t = testing.map_or(Progress::NO_TEST, i64::from);
            p.testing.store(t, Ordering::Relaxed);
        }
    };
    let (b, s) = (g.banked(), g.swing());
    publish(b - s, b + s, None);
    if stop.load(Ordering::Relaxed) {
        done.store(true, Ordering::Relaxed);
        return None;
    }
    match goal {
        Goal::Exact(start) => sr.exact_observed(g, start, &mut |br| {
            let open = br.lower < br.upper;
            // Recorded before it is shown: a test on show is one a checkpoint can resume.
            if let Some(record) = record.filter(|_| open) {
                record(br);
            }
            publish(br.lower, br.upper, open.then_some(br.beta));
            if stop.load(Ordering::Relaxed) {
                done.store(true, Ordering::Relaxed);
            }
        }),
        Goal::AtLeast { test, guess } => {
            publish(test.lower, test.upper, Some(test.beta));
            let v = sr.decide(g, test.beta, guess)?;
            if v >= test.beta {
                publish(v.max(test.lower), test.upper, None);
            } else {
                publish(test.lower, v.min(test.upper), None);
            }
            Some(v)
        }
    }
}
