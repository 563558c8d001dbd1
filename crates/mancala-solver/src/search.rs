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
use mancala_core::twin::mover_key;
use mancala_core::{Game, MAX_MOVES, MOVE_SLOTS, Moves};

use crate::horizon::{HorizonMemo, Side};
use crate::path::PathSet;
use crate::retro::Oracle;
use crate::tt::{Entry, NO_MOVE, Table};

/// No repetition in the subtree.
pub const NO_REP: u32 = u32::MAX;

/// In a heuristic search ([`Horizon::Estimate`], games without repetition only): the
/// result depends on a heuristic value at the horizon. Any other result of such a search
/// is proven and is stored as a bound, as in the 2000 Kalah solver's "result depth".
const AT_HORIZON: u32 = u32::MAX - 1;

/// Larger than any value of any game.
pub const INF: i32 = 1 << 20;

/// Deepest depth-limited search before a test falls back to an unlimited search.
const MAX_DEEPENING: u32 = 1024;

/// Where an MTD(f) search of a position stands: its value is proven to lie in
/// `lower..=upper`, and the null-window test of `value >= beta` is under way. A checkpoint
/// saves it, so that a resumed search goes on with the same test (whose progress the table
/// holds) instead of making a new first guess, which the table's proven bounds can move
/// elsewhere.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Bracket {
    pub lower: i32,
    pub upper: i32,
    pub beta: i32,
}

impl Bracket {
    /// The same bracket with every value moved by `d` (values relative to a banked margin
    /// and back).
    pub fn shifted(self, d: i32) -> Bracket {
        Bracket {
            lower: self.lower + d,
            upper: self.upper + d,
            beta: self.beta + d,
        }
    }
}

/// The values a position can end with: a grid of `step` ending at the top of its value
/// range ([`Game::value_step`]).
#[derive(Copy, Clone, Debug)]
pub struct Grid {
    pub step: i32,
    top: i32,
}

impl Grid {
    pub fn of<G: Game>(g: &G) -> Grid {
        Grid {
            step: g.value_step(),
            top: g.value_range().1,
        }
    }

    /// The least grid value at least `x` (a lower bound `x` proves this one).
    pub fn up(self, x: i32) -> i32 {
        self.top - (self.top - x).div_euclid(self.step) * self.step
    }

    /// The greatest grid value at most `x`.
    pub fn down(self, x: i32) -> i32 {
        self.top - (self.top - x + self.step - 1).div_euclid(self.step) * self.step
    }
}

/// How an exact search begins.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// From this guess, refined by the heuristic first-guess searches where they are on.
    Guess(i32),
    /// Where an earlier search of the same position stood ([`Bracket`]).
    Resume(Bracket),
}

/// Which techniques the search uses (all on by default; switch off to measure each).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Techniques {
    pub tt: bool,
    pub bounds: bool,
    pub ordering: bool,
    pub killers: bool,
    pub history: bool,
    /// Order moves by what they bank (the mover's margin after the move).
    pub gain: bool,
    /// Start MTD(f) from heuristic searches 3, 6, ... up to this many plies deep (games
    /// without repetition; the others deepen each test instead). Their results that never
    /// reached the horizon are proven and kept in the table. 0 = off.
    pub guess_depth: u32,
    /// Enhanced transposition cut-offs: probe the children in the table before searching
    /// any, at nodes this many plies from the root or closer (0 = off).
    pub etc_plies: u32,
    /// Inside those plies, read the children's table entries only once the first child
    /// has failed to cut the node off, when the table has at least this many MB
    /// (`usize::MAX` = never). At a cut node the first child usually suffices, and each
    /// other child's entry is a random read in a table of gigabytes: waiting for them
    /// made eager peeking cost more time than it saved nodes (docs/solver.md, "The late
    /// peek").
    pub late_peek_min_mb: usize,
    /// Decide each null-window test by iterative deepening first: depth-limited searches
    /// whose horizon counts as a loss for one side can prove one side of the test each,
    /// and find shallow proofs before the search wanders into long non-capturing lines.
    pub deepening: Deepening,
    /// Inside deepening: remember, for the rest of each pass, what a depth-limited search
    /// found but could not prove, so that transpositions do not search it again
    /// ([`HorizonMemo`]); likewise the heuristic values of the first guess's searches.
    pub memo: bool,
}

/// The default of [`Techniques::late_peek_min_mb`]. Measured on Progressive 1 x 11 x 1
/// (docs/solver.md): with a 1 GB table or larger the late peek saves time; with 256 MB
/// a read is cheap enough that peeking at every child first is a little faster, and with
/// 16 MB, whose entries are soon overwritten, ten times faster.
pub const LATE_PEEK_MIN_MB: usize = 1024;

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
    /// What is banked so far: a heuristic value, for move ordering and a first guess
    /// only; nothing it finds is stored as a bound.
    Estimate,
}

impl Techniques {
    /// The names `--without` accepts, one per technique that can be switched off.
    pub const NAMES: &'static [&'static str] = &[
        "tt",
        "bounds",
        "ordering",
        "killers",
        "history",
        "gain",
        "guess",
        "etc",
        "late-peek",
        "deepening",
        "memo",
    ];

    /// Switches off the technique called `name`; false when no technique has that name.
    pub fn switch_off(&mut self, name: &str) -> bool {
        match name {
            "tt" => self.tt = false,
            "bounds" => self.bounds = false,
            "ordering" => self.ordering = false,
            "killers" => self.killers = false,
            "history" => self.history = false,
            "gain" => self.gain = false,
            "guess" => self.guess_depth = 0,
            "etc" => self.etc_plies = 0,
            "late-peek" => self.late_peek_min_mb = usize::MAX,
            "deepening" => self.deepening = Deepening::Never,
            "memo" => self.memo = false,
            _ => return false,
        }
        true
    }
}

impl Default for Techniques {
    fn default() -> Self {
        Techniques {
            tt: true,
            bounds: true,
            ordering: true,
            killers: true,
            history: true,
            gain: true,
            guess_depth: 18,
            etc_plies: u32::MAX,
            late_peek_min_mb: LATE_PEEK_MIN_MB,
            deepening: Deepening::WhenCyclic,
            memo: true,
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
    /// Where the depth of the heuristic first-guess search under way is shown (0 once
    /// the exact search runs), for a progress display.
    pub depth: Option<&'a AtomicU64>,
}

/// What a node is asked: its key, the window and depth, and whether the parent's peek
/// already found that the game is not over and the oracle does not know it.
#[derive(Clone, Copy)]
struct Ask {
    key: u64,
    alpha: i32,
    beta: i32,
    depth: u32,
    peeked: bool,
}

/// What [`Searcher::enter`] found out about a node before its children are played.
struct NodeInfo {
    /// The window, narrowed by the node's own bounds.
    alpha: i32,
    beta: i32,
    /// The node's proven bounds (value range and table), for the player to move.
    lo: i32,
    hi: i32,
    banked: i32,
    ply: usize,
    material: u32,
    use_tt: bool,
    tt_move: u8,
    depth: u32,
    /// When the children's table entries are read.
    table_peek: TablePeek,
}

/// When a node reads its children's table entries (enhanced transposition cut-offs).
#[derive(Copy, Clone, PartialEq, Eq)]
enum TablePeek {
    /// Not at all: the table does not hold proven bounds for every child here (history-
    /// dependent games, proof searches) or the node is beyond `etc_plies`.
    Never,
    /// Before any child is searched.
    First,
    /// Only once the first child has failed to cut off ([`Techniques::late_peek_min_mb`]).
    Late,
}

/// A played move and what peeking proved about its position, for the parent's player.
struct Child<G: Game> {
    mv: G::Move,
    pos: G,
    key: u64,
    /// Whether the same player moves again after it.
    same: bool,
    /// Whether the oracle may know it (else it is not asked).
    known: bool,
    score: i32,
    lower: i32,
    upper: i32,
}

/// Sorts children by `key`, highest first, keeping the order of equal keys: an insertion
/// sort, since there are few children and no allocation may happen here.
fn sort_best_first<G: Game>(children: &mut [Child<G>], key: impl Fn(&Child<G>) -> i32) {
    for i in 1..children.len() {
        let mut j = i;
        while j > 0 && key(&children[j - 1]) < key(&children[j]) {
            children.swap(j - 1, j);
            j -= 1;
        }
    }
}

/// The outcome of searching a node's children.
#[derive(Copy, Clone)]
struct Searched {
    best: i32,
    best_slot: u8,
    rep: u32,
}

/// Per-thread search state.
pub struct Searcher<'a, G: Game> {
    shared: &'a Shared<'a>,
    tech: Techniques,
    /// Thread index: helper threads (> 0) vary the move order near the root.
    id: usize,
    /// The positions from the root (and the history before it): their mover keys
    /// ([`mover_key`]: twins share a table key but are different positions) and material.
    path: Vec<(u64, u32)>,
    /// The mover keys of `path`, for O(1) repetition checks.
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
    /// Whether the late peek applies ([`Techniques::late_peek_min_mb`]).
    late_peek: bool,
    /// Exact values of some positions (retrograde tables), used as leaves.
    oracle: Option<&'a dyn Oracle<G>>,
    /// Oracle look-ups and those that knew the position.
    pub oracle_probes: u64,
    pub oracle_hits: u64,
    /// The player to move at the root of the current depth-limited search.
    root_side: mancala_core::Player,
    /// What the current deepening pass found but could not prove ([`HorizonMemo`]),
    /// or the first guess's heuristic values; with the technique on.
    memo: Option<Box<HorizonMemo>>,
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
            late_peek: shared.tt.bytes() >> 20 >= tech.late_peek_min_mb,
            oracle: None,
            oracle_probes: 0,
            oracle_hits: 0,
            root_side: root.to_move(),
            memo: None,
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
            let k = g.mover_key();
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
        self.exact_observed(g, Start::Guess(guess), &mut |_| {})
    }

    /// [`Searcher::exact`] from `start`, reporting where it stands before every
    /// null-window test and once more when the value is known (`lower == upper`).
    pub fn exact_observed(
        &mut self,
        g: &G,
        start: Start,
        observe: &mut dyn FnMut(Bracket),
    ) -> Option<i32> {
        let (mut lower, mut upper) = g.value_range();
        if g.is_terminal() {
            return Some(g.terminal_value());
        }
        // Every test is of a grid value.
        let grid = Grid::of(g);
        let fits = |b: &Bracket| b.lower.max(lower) <= b.upper.min(upper);
        let mut guess = match start {
            // The saved bounds are proven; the saved test goes on where it stopped, its
            // progress being in the table.
            Start::Resume(b) if fits(&b) => {
                (lower, upper) = (b.lower.max(lower), b.upper.min(upper));
                b.beta
            }
            // A bracket outside the value range belongs to another position: no help.
            Start::Resume(b) => b.beta,
            Start::Guess(guess) if self.guesses() => {
                self.first_guess(g, guess.clamp(lower, upper))?
            }
            Start::Guess(guess) => guess,
        }
        .clamp(lower, upper);
        let mut small_steps = 0;
        while lower < upper {
            let beta = if small_steps >= 3 {
                // Bisection: halve the remaining interval.
                grid.up(lower + (upper - lower + 1) / 2)
            } else {
                grid.up(guess.clamp(lower + 1, upper))
            };
            observe(Bracket { lower, upper, beta });
            let v = self.test(g, beta)?;
            let (ol, ou) = (lower, upper);
            if v >= beta {
                lower = grid.up(v);
            } else {
                upper = grid.down(v);
            }
            if (lower - ol).abs() + (ou - upper).abs() <= grid.step {
                small_steps += 1;
            } else {
                small_steps = 0;
            }
            guess = v;
        }
        observe(Bracket {
            lower,
            upper,
            beta: lower,
        });
        Some(lower)
    }

    /// One null-window test of `value(g) >= beta` after the first guess that
    /// [`Searcher::exact_observed`] makes (its heuristic searches leave good moves in the
    /// table, which the test then tries first): a fail-soft bound as [`Searcher::test`].
    /// `None` when aborted.
    /// A resumed test passes `guess` false: the table already holds good moves.
    pub fn decide(&mut self, g: &G, beta: i32, guess: bool) -> Option<i32> {
        if g.is_terminal() {
            return Some(g.terminal_value());
        }
        if guess && self.guesses() {
            self.first_guess(g, g.banked())?;
        }
        self.test(g, beta)
    }

    /// Whether an exact search starts with a heuristic first guess: not where positions
    /// can repeat or the search deepens (their values depend on the path).
    fn guesses(&self) -> bool {
        self.tech.guess_depth > 0 && !self.can_repeat && !self.deepens()
    }

    /// A first guess for MTD(f) and a table of good moves: heuristic searches 3, 6, 9...
    /// plies deep (what is banked at the horizon), each started from the last one's
    /// value, as the 2000 Kalah solver did.
    fn first_guess(&mut self, g: &G, mut guess: i32) -> Option<i32> {
        let show = |d: u32| {
            if let Some(p) = self.shared.depth {
                p.store(d as u64, Ordering::Relaxed);
            }
        };
        let mut depth = 3;
        while depth <= self.tech.guess_depth {
            show(depth);
            guess = self.estimate(g, depth, guess)?;
            depth += 3;
        }
        show(0);
        Some(guess)
    }

    /// The heuristic value of `g` searched `depth` plies deep, by MTD(f) from `guess`.
    fn estimate(&mut self, g: &G, depth: u32, guess: i32) -> Option<i32> {
        self.horizon = Horizon::Estimate;
        self.next_pass();
        let (mut lower, mut upper) = g.value_range();
        let mut beta = guess.clamp(lower + 1, upper.max(lower + 1));
        while lower < upper {
            let (v, _) = self.ab(g, beta - 1, beta, depth);
            if self.aborted {
                self.horizon = Horizon::None;
                return None;
            }
            if v >= beta {
                lower = v;
                beta = v + 1;
            } else {
                upper = v;
                beta = v;
            }
        }
        self.horizon = Horizon::None;
        Some(lower)
    }

    /// Whether null-window tests go through proof-style iterative deepening.
    fn deepens(&self) -> bool {
        match self.tech.deepening {
            Deepening::Never => false,
            Deepening::WhenCyclic => self.can_repeat,
            Deepening::Always => true,
        }
    }

    /// Starts a new depth-limited pass: the memo forgets the last one's results (made on
    /// demand, so that only searches that deepen pay for it).
    fn next_pass(&mut self) {
        match &mut self.memo {
            Some(m) => m.next_pass(),
            None if self.tech.memo => self.memo = Some(Box::default()),
            None => {}
        }
    }

    /// Which one-sided value the current depth-limited pass computes at `g` (`None` in an
    /// unlimited or heuristic search).
    #[inline]
    fn memo_side(&self, g: &G) -> Option<Side> {
        let pessimistic = match self.horizon {
            Horizon::Pessimistic => true,
            Horizon::Optimistic => false,
            Horizon::None | Horizon::Estimate => return None,
        };
        Some(if (g.to_move() == self.root_side) == pessimistic {
            Side::Low
        } else {
            Side::High
        })
    }

    /// Tests `value(g) >= beta`; `None` when aborted.
    pub fn at_least(&mut self, g: &G, beta: i32) -> Option<bool> {
        Some(self.test(g, beta)? >= beta)
    }

    /// One null-window test of `value(g) >= beta`: a fail-soft value `v`, a lower bound when
    /// `v >= beta` and an upper bound otherwise. `None` when aborted.
    pub fn test(&mut self, g: &G, beta: i32) -> Option<i32> {
        if self.deepens() {
            self.root_side = g.to_move();
            let mut depth = 2;
            while depth <= MAX_DEEPENING {
                self.horizon = Horizon::Pessimistic;
                self.next_pass();
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
                self.next_pass();
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
    pub fn ab(&mut self, g: &G, alpha: i32, beta: i32, depth: u32) -> (i32, u32) {
        self.node(g, g.key(), alpha, beta, depth, false)
    }

    /// [`Searcher::ab`] of `g` whose key is `key`. `peeked`: the parent already found
    /// that the game is not over here and that the oracle does not know the position.
    fn node(
        &mut self,
        g: &G,
        key: u64,
        alpha: i32,
        beta: i32,
        depth: u32,
        peeked: bool,
    ) -> (i32, u32) {
        self.nodes += 1;
        if self.nodes & 0xFFF == 0 {
            self.poll();
        }
        if self.aborted {
            return (0, NO_REP);
        }
        let ask = Ask {
            key,
            alpha,
            beta,
            depth,
            peeked,
        };
        let n = match self.enter(g, &ask) {
            Ok(n) => n,
            Err(done) => return done,
        };
        let mut children = ArrayVec::new();
        if let Some(cut) = self.expand(g, &n, &mut children) {
            return (cut, NO_REP);
        }
        let at = mover_key(key, g.to_move());
        self.path.push((at, n.material));
        if self.can_repeat {
            self.on_path.insert(at, n.ply as u32);
        }
        self.max_depth = self.max_depth.max(self.path.len());
        let start = self.nodes;
        let result = self.search_children(g, &n, &mut children, depth);
        self.pop(at);
        if self.aborted {
            return (0, NO_REP);
        }
        self.remember(g, key, &n, result, start);
        (result.best, result.rep)
    }

    /// Everything decided before the children: game over, the oracle, a repetition, the
    /// value range and the table. `Err` carries the node's result when that settles it.
    fn enter(&mut self, g: &G, ask: &Ask) -> Result<NodeInfo, (i32, u32)> {
        let Ask {
            key,
            alpha,
            beta,
            depth,
            peeked,
        } = *ask;
        if !peeked {
            if g.is_terminal() {
                return Err((g.terminal_value(), NO_REP));
            }
            if let Some(v) = self.probe_oracle(g) {
                return Err((v, NO_REP));
            }
        }
        let ply = self.path.len();
        let material = g.material();
        // Material never increases, so an earlier position of equal material exists iff
        // the parent has equal material.
        let fresh = self.path.last().is_none_or(|&(_, m)| m != material);
        if self.can_repeat
            && !fresh
            && let Some(i) = self.on_path.get(mover_key(key, g.to_move()))
        {
            return Err((g.repetition_value(), i));
        }
        let use_tt = self.tech.tt && (fresh || !self.history_dependent);
        let banked = g.banked();
        let (mut lo, mut hi) = if self.tech.bounds {
            g.value_range()
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
            return Err((lo, NO_REP));
        }
        if hi <= alpha {
            return Err((hi, NO_REP));
        }
        if use_tt
            && depth > 0
            && self.horizon == Horizon::Estimate
            && let Some(m) = &self.memo
            && let Some(v) = m.cut_at(key, depth, alpha - banked, beta - banked)
        {
            // A heuristic value: it proves nothing, so neither does what rests on it.
            return Err(((v + banked).clamp(lo, hi), AT_HORIZON));
        }
        if use_tt
            && depth > 0
            && let Some(side) = self.memo_side(g)
            && let Some(m) = &self.memo
            && let Some(v) = m.cut(key, side, depth, alpha - banked, beta - banked)
        {
            return Err(((v + banked).clamp(lo, hi), NO_REP));
        }
        if depth == 0 {
            // The horizon of a depth-limited search: the worst (or best) the bounds allow
            // for the player to move at the root.
            if self.horizon == Horizon::Estimate {
                return Err((banked.clamp(lo, hi), AT_HORIZON));
            }
            let mine = g.to_move() == self.root_side;
            let pessimistic = self.horizon == Horizon::Pessimistic;
            return Err((if mine == pessimistic { lo } else { hi }, NO_REP));
        }
        Ok(NodeInfo {
            alpha: alpha.max(lo - 1),
            beta: beta.min(hi + 1),
            lo,
            hi,
            banked,
            ply,
            material,
            use_tt,
            tt_move,
            depth,
            table_peek: self.table_peek(use_tt, ply),
        })
    }

    /// Plays every move and peeks at each child without searching it: a child that is
    /// over, known to the oracle, or whose value range or table entry already proves
    /// `>= beta` cuts the node off at once (`Some(value)`); the others are ordered,
    /// best first, into `children`, each with what the peek proved about it.
    fn expand(
        &mut self,
        g: &G,
        n: &NodeInfo,
        children: &mut ArrayVec<Child<G>, MAX_MOVES>,
    ) -> Option<i32> {
        let mut moves = Moves::new();
        g.legal_moves(&mut moves);
        let me = g.to_move();
        let peek_tt = n.table_peek == TablePeek::First;
        for &mv in &moves {
            let pos = g.play(mv);
            let key = pos.key();
            // The oracle settles the positions it knows: prefetch its value instead of
            // the table's bucket.
            let known = self.oracle.is_some_and(|o| o.prefetch(&pos));
            if peek_tt && !known {
                self.shared.tt.prefetch(key);
            }
            children.push(Child {
                mv,
                pos,
                key,
                same: pos.to_move() == me,
                known,
                score: 0,
                lower: -INF,
                upper: INF,
            });
        }
        for c in children.iter_mut() {
            let (l, u) = self.peek(&c.pos, c.key, peek_tt, c.known);
            (c.lower, c.upper) = if c.same { (l, u) } else { (-u, -l) };
            if c.lower >= n.beta {
                return Some(c.lower);
            }
        }
        self.order(g, n, children);
        None
    }

    /// When a node `ply` plies from the root reads its children's table entries: only
    /// where the table holds proven bounds for every child, so not in history-dependent
    /// games nor inside proof searches.
    fn table_peek(&self, use_tt: bool, ply: usize) -> TablePeek {
        if !use_tt
            || self.history_dependent
            || self.tech.etc_plies as usize <= ply
            || !matches!(self.horizon, Horizon::None | Horizon::Estimate)
        {
            TablePeek::Never
        } else if self.late_peek {
            TablePeek::Late
        } else {
            TablePeek::First
        }
    }

    /// The late peek ([`Techniques::late_peek_min_mb`]) at the children not yet searched: their
    /// table entries narrow their bounds; one that proves `>= beta` cuts the node off
    /// (`Some((value, its index in rest))`); the ones that cannot raise `alpha` move
    /// last, the others keep their order.
    fn peek_late(&mut self, rest: &mut [Child<G>], alpha: i32, beta: i32) -> Option<(i32, usize)> {
        for c in rest.iter() {
            if !c.known {
                self.shared.tt.prefetch(c.key);
            }
        }
        for (i, c) in rest.iter_mut().enumerate() {
            if c.lower == c.upper {
                continue;
            }
            let (l, u) = self.peek_table(&c.pos, c.key);
            let (l, u) = if c.same { (l, u) } else { (-u, -l) };
            c.lower = c.lower.max(l);
            c.upper = c.upper.min(u);
            if c.lower >= beta {
                return Some((c.lower, i));
            }
        }
        sort_best_first(rest, |c| (c.upper > alpha) as i32);
        None
    }

    /// What is known of a child without searching it: its exact value when the game is
    /// over or the oracle knows it (asked only when it may: `known`), else its value
    /// range narrowed by the table (when `use_tt`). Values for the child's player to move.
    #[inline]
    fn peek(&mut self, c: &G, key: u64, use_tt: bool, known: bool) -> (i32, i32) {
        if c.is_terminal() {
            let v = c.terminal_value();
            return (v, v);
        }
        if known && let Some(v) = self.probe_oracle(c) {
            return (v, v);
        }
        if !self.tech.bounds {
            return (-INF, INF);
        }
        let (lo, hi) = c.value_range();
        if !use_tt {
            return (lo, hi);
        }
        let (l, u) = self.peek_table(c, key);
        (lo.max(l), hi.min(u))
    }

    /// What the table proves of a child, for its player to move (`(-INF, INF)` when
    /// nothing).
    #[inline]
    fn peek_table(&mut self, c: &G, key: u64) -> (i32, i32) {
        // A child on the path is a repetition: its table entry says nothing of that.
        if self.can_repeat && self.on_path.get(mover_key(key, c.to_move())).is_some() {
            return (-INF, INF);
        }
        match self.shared.tt.probe(key) {
            Some(e) => {
                let b = c.banked();
                (e.lower as i32 + b, e.upper as i32 + b)
            }
            None => (-INF, INF),
        }
    }

    /// The oracle's exact value of `g`, counting probes and hits.
    #[inline]
    fn probe_oracle(&mut self, g: &G) -> Option<i32> {
        let o = self.oracle?;
        self.oracle_probes += 1;
        let v = o.probe(g)?;
        self.oracle_hits += 1;
        Some(v)
    }

    /// Searches the children in order; fail-soft, with the repetition index of the result.
    fn search_children(
        &mut self,
        g: &G,
        n: &NodeInfo,
        children: &mut ArrayVec<Child<G>, MAX_MOVES>,
        depth: u32,
    ) -> Searched {
        let mut alpha = n.alpha;
        let beta = n.beta;
        let mut best = -INF;
        let mut best_slot = NO_MOVE;
        let mut rep = NO_REP;
        for i in 0..children.len() {
            if i == 1
                && n.table_peek == TablePeek::Late
                && let Some((v, j)) = self.peek_late(&mut children[1..], alpha, beta)
            {
                // A child's table entry proves the cut-off: that is the node's result.
                best = v;
                best_slot = g.move_slot(children[1 + j].mv) as u8;
                break;
            }
            let c = &children[i];
            let (v, r) = if c.upper <= alpha {
                // The peek proved the child cannot raise alpha: its bound is its value here.
                (c.upper, NO_REP)
            } else if c.lower == c.upper {
                // The peek knows its value (game over, the oracle, the table).
                (c.lower, NO_REP)
            } else if c.same {
                self.node(&c.pos, c.key, alpha, beta, depth - 1, true)
            } else {
                let (v, r) = self.node(&c.pos, c.key, -beta, -alpha, depth - 1, true);
                (-v, r)
            };
            if self.aborted {
                break;
            }
            rep = rep.min(r);
            if v > best {
                best = v;
                best_slot = g.move_slot(c.mv) as u8;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        self.reward(g, c.mv, n.ply, i);
                        break;
                    }
                }
            }
        }
        Searched {
            best,
            best_slot,
            rep,
        }
    }

    /// Stores what the search of this node proved in the table.
    fn remember(&mut self, g: &G, key: u64, n: &NodeInfo, r: Searched, start: u64) {
        if !n.use_tt {
            return;
        }
        let (lo, hi) = (n.lo, n.hi);
        let (mut l, mut u) = if r.best >= n.beta {
            (r.best, hi)
        } else if r.best <= n.alpha {
            (lo, r.best)
        } else {
            (r.best, r.best)
        };
        if r.rep < AT_HORIZON && r.rep < n.ply as u32 {
            // The result depends on an earlier position recurring. All positions of
            // this stretch have the same material, hence the same repetition value
            // (nothing was captured since). A proof of ">= l" with rv < l uses no
            // repetition at all (every repetition would give rv), so it holds whatever
            // the history; likewise "<= u" with rv > u. Keep only such bounds.
            let rv = g.repetition_value();
            if rv >= l {
                l = lo;
            }
            if rv <= u {
                u = hi;
            }
        }
        // A heuristic value proves nothing: such a result leaves only its best move.
        if self.horizon == Horizon::Estimate {
            if r.rep == AT_HORIZON {
                self.memo_estimate(key, n, r.best);
                (l, u) = (lo, hi);
            }
        }
        // A depth-limited search proves only one side: lower bounds where its horizon
        // was pessimistic for the player to move here, upper bounds where optimistic.
        else if self.horizon != Horizon::None {
            let low = self.memo_side(g) == Some(Side::Low);
            if let Some(m) = &mut self.memo {
                if low && u < hi {
                    m.record(key, Side::Low, n.depth, u - n.banked);
                } else if !low && l > lo {
                    m.record(key, Side::High, n.depth, l - n.banked);
                }
            }
            if low {
                u = hi;
            } else {
                l = lo;
            }
        }
        // Values lie on the game's grid: round the bounds onto it.
        let step = g.value_step();
        if step > 1 && (l > lo || u < hi) {
            let top = g.value_range().1;
            if l > lo {
                l = top - (top - l).div_euclid(step) * step;
            }
            if u < hi {
                u = top - (top - u + step - 1).div_euclid(step) * step;
            }
        }
        let mv = if r.best > n.alpha {
            r.best_slot
        } else {
            NO_MOVE
        };
        if (l, u) == (lo, hi) && mv == NO_MOVE {
            return;
        }
        let rel = |x: i32| (x - n.banked).clamp(i16::MIN as i32, i16::MAX as i32) as i16;
        let work = (64 - (self.nodes - start).leading_zeros()) as u8;
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

    /// Keeps a heuristic result for the rest of the first guess ([`HorizonMemo::cut_at`]):
    /// without it every transposition in these depth-limited searches is searched again,
    /// and where moves commute (Progressive's bonus moves) the tree outgrows the game.
    fn memo_estimate(&mut self, key: u64, n: &NodeInfo, best: i32) {
        let Some(m) = &mut self.memo else { return };
        let v = best - n.banked;
        if best > n.alpha {
            m.record(key, Side::High, n.depth, v);
        }
        if best < n.beta {
            m.record(key, Side::Low, n.depth, v);
        }
    }

    #[inline(always)]
    fn pop(&mut self, at: u64) {
        self.path.pop();
        if self.can_repeat {
            self.on_path.remove(at);
        }
    }

    /// Orders the children, best first: the table's move, then the game's hint (extra
    /// turns), then what the move banks (captures, seeds sown into the store), then
    /// killers and history. Children the peek proved useless (upper bound <= alpha) go
    /// last: they cost nothing but must not shadow a real candidate.
    fn order(&mut self, g: &G, n: &NodeInfo, children: &mut ArrayVec<Child<G>, MAX_MOVES>) {
        let side = g.to_move().index();
        let ply = n.ply;
        let killers = if ply < self.killers.len() {
            self.killers[ply]
        } else {
            [NO_MOVE; 2]
        };
        let margin = if self.tech.gain {
            g.ordering_margin()
        } else {
            0
        };
        for c in children.iter_mut() {
            let mut s = 0i32;
            if c.upper <= n.alpha {
                s = -(1 << 30);
            } else if self.tech.ordering {
                let slot = g.move_slot(c.mv) as u8;
                if slot == n.tt_move && n.tt_move != NO_MOVE {
                    s = 1 << 29;
                } else {
                    s += g.move_order_hint(c.mv).clamp(-1000, 1000) << 18;
                    if self.tech.gain {
                        let after = if c.same {
                            c.pos.ordering_margin()
                        } else {
                            -c.pos.ordering_margin()
                        };
                        s += (after - margin).clamp(-127, 127) << 10;
                    }
                    if self.tech.killers {
                        if slot == killers[0] {
                            s += 1 << 9;
                        } else if slot == killers[1] {
                            s += 1 << 8;
                        }
                    }
                    if self.tech.history {
                        s += (self.history[side][slot as usize] >> 8).min(255) as i32;
                    }
                }
            }
            c.score = s;
        }
        sort_best_first(children, |c| c.score);
        // Helper threads of a parallel search explore in another order near the root.
        let len = children.len();
        if self.id > 0 && ply < 8 && len > 2 {
            let k = (self.id + ply) % (len - 1);
            children[1..].rotate_left(k);
        }
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
