//! The one generic search: fail-soft negamax alpha-beta over any [`Game`], with a shared
//! transposition table, move ordering (table move, game hint such as captures, killers,
//! history) and exact handling of repeated positions.
//!
//! Repetition and the table (graph-history interaction): a position that recurs on the
//! current path ends the game with the game's [`Game::repetition_value`]. Every result
//! carries the lowest path index of a position its subtree found repeated. A node stores
//! its bounds as they are when that index is at or below itself (the value depended on no
//! position above it); otherwise it keeps only the bounds whose proof cannot have used a
//! repetition (see `ab`). Stored bounds therefore hold for the position searched as a
//! root (history-free), which under a repetition rule that only stops further gain
//! (Afrika's shared stones, Kauri, Andada's draw) are bounds on its true value; see the
//! README. For rules whose value depends on history ([`Game::history_dependent`])
//! the table is used only where no earlier position of equal material is on the path.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use arrayvec::ArrayVec;
use mancala_core::{Game, MAX_MOVES, MOVE_SLOTS, Moves};

use crate::path::PathSet;
use crate::retro::Oracle;
use crate::tt::{Entry, NO_MOVE, Table};

/// No repetition in the subtree.
pub const NO_REP: u32 = u32::MAX;

/// Larger than any value of any game.
pub const INF: i32 = 1 << 20;

/// Deepest depth-limited search before a test falls back to an unlimited search.
const MAX_DEEPENING: u32 = 1024;

/// Which techniques the search uses (all on by default; switch off to measure each).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Techniques {
    pub tt: bool,
    pub bounds: bool,
    pub ordering: bool,
    pub killers: bool,
    pub history: bool,
    /// Enhanced transposition cut-offs: probe the children in the table before searching
    /// any, at nodes this many plies from the root or closer (0 = off).
    pub etc_plies: u32,
    /// Decide each null-window test by iterative deepening first: depth-limited searches
    /// whose horizon counts as a loss for one side can prove one side of the test each,
    /// and find shallow proofs before the search wanders into long non-capturing lines.
    pub deepening: Deepening,
}

/// When to use iterative deepening (see [`Techniques::deepening`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Deepening {
    Never,
    /// Only in games where positions can repeat (long non-capturing lines exist).
    WhenCyclic,
    Always,
}

/// How a depth-limited search scores a position at its horizon.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Horizon {
    /// No horizon: the search runs to the end of the game.
    None,
    /// As badly as possible for the player to move at the root: proves lower bounds.
    Pessimistic,
    /// As well as possible for him: proves upper bounds.
    Optimistic,
}

impl Default for Techniques {
    fn default() -> Self {
        Techniques {
            tt: true,
            bounds: true,
            ordering: true,
            killers: true,
            history: true,
            etc_plies: 0,
            deepening: Deepening::WhenCyclic,
        }
    }
}

/// What the search threads share.
pub struct Shared<'a> {
    pub tt: &'a Table,
    /// Set to stop every thread (user interrupt, or another thread finished).
    pub abort: &'a AtomicBool,
    /// Nodes of all threads, flushed every few thousand nodes.
    pub nodes: &'a AtomicU64,
    /// The user's stop request (a time budget, Ctrl-C), polled with `abort` so that one
    /// long null-window search cannot outlive it.
    pub stop: Option<&'a AtomicBool>,
}

/// Per-thread search state.
pub struct Searcher<'a, G: Game> {
    shared: &'a Shared<'a>,
    tech: Techniques,
    /// Thread index: helper threads (> 0) vary the move order near the root.
    id: usize,
    path: Vec<(u64, u32)>,
    /// The keys of `path`, for O(1) repetition checks.
    on_path: PathSet,
    history: Box<[[u32; MOVE_SLOTS]; 2]>,
    killers: Vec<[u8; 2]>,
    pub nodes: u64,
    flushed: u64,
    pub tt_hits: u64,
    /// Deepest path seen.
    pub max_depth: usize,
    aborted: bool,
    can_repeat: bool,
    history_dependent: bool,
    horizon: Horizon,
    /// Exact values of some positions (retrograde tables), used as leaves.
    oracle: Option<&'a dyn Oracle<G>>,
    pub oracle_hits: u64,
    /// The player to move at the root of the current depth-limited search.
    root_side: mancala_core::Player,
    _g: std::marker::PhantomData<G>,
}

impl<'a, G: Game> Searcher<'a, G> {
    pub fn new(shared: &'a Shared<'a>, tech: Techniques, id: usize, root: &G) -> Self {
        Searcher {
            shared,
            tech,
            id,
            path: Vec::with_capacity(256),
            on_path: PathSet::default(),
            history: Box::new([[0; MOVE_SLOTS]; 2]),
            killers: vec![[NO_MOVE; 2]; 64],
            nodes: 0,
            flushed: 0,
            tt_hits: 0,
            max_depth: 0,
            aborted: false,
            can_repeat: root.can_repeat(),
            history_dependent: root.history_dependent(),
            horizon: Horizon::None,
            oracle: None,
            oracle_hits: 0,
            root_side: root.to_move(),
            _g: std::marker::PhantomData,
        }
    }

    /// Uses `oracle` for exact values of the positions it knows.
    pub fn set_oracle(&mut self, oracle: Option<&'a dyn Oracle<G>>) {
        self.oracle = oracle;
    }

    /// Sets the positions played before the one to be searched (oldest first): a
    /// position of this history recurring ends the game by the repetition rule.
    pub fn set_history<'h>(&mut self, history: impl IntoIterator<Item = &'h G>) {
        self.path.clear();
        self.on_path.clear();
        for g in history {
            let k = g.key();
            if self.on_path.get(k).is_none() {
                self.on_path.insert(k, self.path.len() as u32);
            }
            self.path.push((k, g.material()));
        }
    }

    pub fn aborted(&self) -> bool {
        self.aborted
    }

    /// Adds the nodes not yet counted to the shared counter.
    pub fn flush(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.nodes - self.flushed, Ordering::Relaxed);
        self.flushed = self.nodes;
    }

    #[cold]
    fn poll(&mut self) {
        self.flush();
        if self.shared.abort.load(Ordering::Relaxed)
            || self.shared.stop.is_some_and(|s| s.load(Ordering::Relaxed))
        {
            self.aborted = true;
        }
    }

    /// The exact value of `g` for its player to move, converging with null-window searches
    /// (MTD(f) from `guess`, switching to bisection when steps stay small). `None` when
    /// aborted.
    pub fn exact(&mut self, g: &G, guess: i32) -> Option<i32> {
        self.exact_observed(g, guess, &mut |_, _| {})
    }

    /// [`Searcher::exact`], reporting the bounds after every null-window search.
    pub fn exact_observed(
        &mut self,
        g: &G,
        guess: i32,
        observe: &mut dyn FnMut(i32, i32),
    ) -> Option<i32> {
        let banked = g.banked();
        let sw = g.swing();
        let (mut lower, mut upper) = (banked - sw, banked + sw);
        if g.is_terminal() {
            return Some(g.terminal_value());
        }
        let mut guess = guess.clamp(lower, upper);
        let mut small_steps = 0;
        while lower < upper {
            let beta = if small_steps >= 3 {
                // Bisection: halve the remaining interval.
                lower + (upper - lower + 1) / 2
            } else {
                guess.clamp(lower + 1, upper)
            };
            let v = self.test(g, beta)?;
            let (ol, ou) = (lower, upper);
            if v >= beta {
                lower = v;
            } else {
                upper = v;
            }
            observe(lower, upper);
            if (lower - ol).abs() + (ou - upper).abs() <= 1 {
                small_steps += 1;
            } else {
                small_steps = 0;
            }
            guess = v;
        }
        Some(lower)
    }

    /// Tests `value(g) >= beta`; `None` when aborted.
    pub fn at_least(&mut self, g: &G, beta: i32) -> Option<bool> {
        Some(self.test(g, beta)? >= beta)
    }

    /// One null-window test of `value(g) >= beta`: a fail-soft value `v`, a lower bound when
    /// `v >= beta` and an upper bound otherwise. `None` when aborted.
    pub fn test(&mut self, g: &G, beta: i32) -> Option<i32> {
        let deepen = match self.tech.deepening {
            Deepening::Never => false,
            Deepening::WhenCyclic => self.can_repeat,
            Deepening::Always => true,
        };
        if deepen {
            self.root_side = g.to_move();
            let mut depth = 2;
            while depth <= MAX_DEEPENING {
                self.horizon = Horizon::Pessimistic;
                let (v, _) = self.ab(g, beta - 1, beta, depth);
                if self.aborted {
                    self.horizon = Horizon::None;
                    return None;
                }
                if v >= beta {
                    self.horizon = Horizon::None;
                    return Some(v);
                }
                self.horizon = Horizon::Optimistic;
                let (v, _) = self.ab(g, beta - 1, beta, depth);
                if self.aborted {
                    self.horizon = Horizon::None;
                    return None;
                }
                if v < beta {
                    self.horizon = Horizon::None;
                    return Some(v);
                }
                depth = if depth < 32 { depth + 2 } else { depth * 2 };
            }
            self.horizon = Horizon::None;
        }
        let (v, _) = self.ab(g, beta - 1, beta, u32::MAX);
        (!self.aborted).then_some(v)
    }

    /// Fail-soft alpha-beta. Returns the value bound for the player to move and the lowest
    /// path index of a repeated position the result depends on ([`NO_REP`] if none).
    pub fn ab(&mut self, g: &G, mut alpha: i32, mut beta: i32, depth: u32) -> (i32, u32) {
        self.nodes += 1;
        if self.nodes & 0xFFF == 0 {
            self.poll();
        }
        if self.aborted {
            return (0, NO_REP);
        }
        if g.is_terminal() {
            return (g.terminal_value(), NO_REP);
        }
        if let Some(o) = self.oracle
            && let Some(v) = o.probe(g)
        {
            self.oracle_hits += 1;
            return (v, NO_REP);
        }
        let ply = self.path.len();
        let key = g.key();
        let material = g.material();
        // Material never increases, so an earlier position of equal material exists iff
        // the parent has equal material.
        let fresh = self.path.last().is_none_or(|&(_, m)| m != material);
        if self.can_repeat
            && !fresh
            && let Some(i) = self.on_path.get(key)
        {
            return (g.repetition_value(), i);
        }
        let use_tt = self.tech.tt && (fresh || !self.history_dependent);
        let banked = g.banked();
        let (mut lo, mut hi) = if self.tech.bounds {
            let sw = g.swing();
            (banked - sw, banked + sw)
        } else {
            (-INF, INF)
        };
        let mut tt_move = NO_MOVE;
        if use_tt && let Some(e) = self.shared.tt.probe(key) {
            self.tt_hits += 1;
            lo = lo.max(e.lower as i32 + banked);
            hi = hi.min(e.upper as i32 + banked);
            tt_move = e.mv;
        }
        if lo >= beta || lo == hi {
            return (lo, NO_REP);
        }
        if hi <= alpha {
            return (hi, NO_REP);
        }
        if depth == 0 {
            // The horizon of a depth-limited search: the worst (or best) the bounds allow
            // for the player to move at the root.
            let mine = g.to_move() == self.root_side;
            let pessimistic = self.horizon == Horizon::Pessimistic;
            return (if mine == pessimistic { lo } else { hi }, NO_REP);
        }
        alpha = alpha.max(lo - 1);
        beta = beta.min(hi + 1);
        let alpha0 = alpha;

        let mut moves = Moves::new();
        g.legal_moves(&mut moves);
        let me = g.to_move();
        let ordered = self.order(g, &moves, tt_move, ply);

        if use_tt
            && !self.history_dependent
            && self.tech.etc_plies > 0
            && (ply as u32) < self.tech.etc_plies
        {
            for &(_, mv) in &ordered {
                let c = g.play(mv);
                if c.is_terminal() {
                    continue;
                }
                if let Some(e) = self.shared.tt.probe(c.key()) {
                    let cb = c.banked();
                    let v = if c.to_move() == me {
                        e.lower as i32 + cb
                    } else {
                        -(e.upper as i32 + cb)
                    };
                    if v >= beta {
                        return (v, NO_REP);
                    }
                }
            }
        }

        self.path.push((key, material));
        if self.can_repeat {
            self.on_path.insert(key, ply as u32);
        }
        self.max_depth = self.max_depth.max(self.path.len());
        let start = self.nodes;
        let mut best = -INF;
        let mut best_slot = NO_MOVE;
        let mut rep = NO_REP;
        for (i, &(_, mv)) in ordered.iter().enumerate() {
            let child = g.play(mv);
            let (v, r) = if child.to_move() == me {
                self.ab(&child, alpha, beta, depth - 1)
            } else {
                let (v, r) = self.ab(&child, -beta, -alpha, depth - 1);
                (-v, r)
            };
            if self.aborted {
                self.pop(key);
                return (0, NO_REP);
            }
            rep = rep.min(r);
            if v > best {
                best = v;
                best_slot = g.move_slot(mv) as u8;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        self.reward(g, mv, ply, i);
                        break;
                    }
                }
            }
        }
        self.pop(key);
        if use_tt {
            let (mut l, mut u) = if best >= beta {
                (best, hi)
            } else if best <= alpha0 {
                (lo, best)
            } else {
                (best, best)
            };
            if rep < ply as u32 {
                // The result depends on an earlier position recurring. All positions of
                // this stretch have the same material, hence the same repetition value r
                // (nothing was captured since). A proof of ">= l" with r < l uses no
                // repetition at all (every repetition would give r), so it holds whatever
                // the history; likewise "<= u" with r > u. Keep only such bounds.
                let r = g.repetition_value();
                if r >= l {
                    l = lo;
                }
                if r <= u {
                    u = hi;
                }
            }
            // A depth-limited search proves only one side: lower bounds where its horizon
            // was pessimistic for the player to move here, upper bounds where optimistic.
            if self.horizon != Horizon::None {
                let mine = g.to_move() == self.root_side;
                if mine == (self.horizon == Horizon::Pessimistic) {
                    u = hi;
                } else {
                    l = lo;
                }
            }
            if (l, u) != (lo, hi) {
                let rel = |x: i32| (x - banked).clamp(i16::MIN as i32, i16::MAX as i32) as i16;
                let work = (64 - (self.nodes - start).leading_zeros()) as u8;
                let mv = if best > alpha0 { best_slot } else { NO_MOVE };
                self.shared.tt.store(
                    key,
                    Entry {
                        lower: rel(l),
                        upper: rel(u),
                        mv,
                        work,
                    },
                );
            }
        }
        (best, rep)
    }

    #[inline(always)]
    fn pop(&mut self, key: u64) {
        self.path.pop();
        if self.can_repeat {
            self.on_path.remove(key);
        }
    }

    /// Orders moves: table move, then the game's hint (captures), killers, history.
    fn order(
        &mut self,
        g: &G,
        moves: &Moves<G::Move>,
        tt_move: u8,
        ply: usize,
    ) -> ArrayVec<(i32, G::Move), MAX_MOVES> {
        let mut v: ArrayVec<(i32, G::Move), MAX_MOVES> = ArrayVec::new();
        let side = g.to_move().index();
        let killers = if ply < self.killers.len() {
            self.killers[ply]
        } else {
            [NO_MOVE; 2]
        };
        for &mv in moves {
            let mut s = 0i32;
            if self.tech.ordering {
                let slot = g.move_slot(mv) as u8;
                if slot == tt_move && tt_move != NO_MOVE {
                    s = 1 << 30;
                } else {
                    s += g.move_order_hint(mv).clamp(-1000, 1000) << 16;
                    if self.tech.killers {
                        if slot == killers[0] {
                            s += 1 << 15;
                        } else if slot == killers[1] {
                            s += 1 << 14;
                        }
                    }
                    if self.tech.history {
                        s += (self.history[side][slot as usize] >> 4).min((1 << 14) - 1) as i32;
                    }
                }
            }
            v.push((s, mv));
        }
        // Stable insertion sort, best first.
        for i in 1..v.len() {
            let mut j = i;
            while j > 0 && v[j - 1].0 < v[j].0 {
                v.swap(j - 1, j);
                j -= 1;
            }
        }
        // Helper threads of a parallel search explore in another order near the root.
        if self.id > 0 && ply < 8 && v.len() > 2 {
            let k = (self.id + ply) % (v.len() - 1);
            v[1..].rotate_left(k);
        }
        v
    }

    fn reward(&mut self, g: &G, mv: G::Move, ply: usize, tried: usize) {
        let slot = g.move_slot(mv);
        if self.tech.killers && ply < self.killers.len() && self.killers[ply][0] != slot as u8 {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = slot as u8;
        }
        if self.tech.history && tried > 0 {
            let h = &mut self.history[g.to_move().index()][slot];
            *h += 1 + tried as u32;
            if *h > 1 << 24 {
                for row in self.history.iter_mut() {
                    for x in row.iter_mut() {
                        *x >>= 1;
                    }
                }
            }
        }
    }
}
