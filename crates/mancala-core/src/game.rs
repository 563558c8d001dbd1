//! The one trait every game implements, and the notation traits beside it.

use std::fmt::Debug;
use std::hash::Hash;

use arrayvec::ArrayVec;

use crate::error::ParseError;
use crate::player::Player;

/// Upper bound on the number of legal moves in any position of any supported game
/// (Andada on 2 x 24 holes has at most 24; Progressive Mancala on 1 x 17 at most 17).
pub const MAX_MOVES: usize = 32;

/// A move list on the stack: no allocation in the search's hot path.
pub type Moves<M> = ArrayVec<M, MAX_MOVES>;

/// A two-player game of perfect information, as the generic search sees it.
///
/// Values are integers in the game's *search units*, always from the point of view of the
/// player to move: the final score margin for score games (captured by the mover minus
/// captured by the opponent; komi is added only when a value is shown, see
/// [`Game::points`]), or +1/0/-1 for win/draw/loss games.
///
/// The side to move need not alternate: a move may leave the same player to move (Kauri
/// passes, Progressive Mancala bonus moves, the Andada pie decision). The search compares
/// [`Game::to_move`] of parent and child to decide whether to negate.
pub trait Game: Copy + Eq + Hash + Debug + Send + Sync + 'static {
    type Move: Copy + Eq + Hash + Debug + Send + Sync + 'static;

    /// The player whose decision this position is.
    fn to_move(&self) -> Player;

    /// Clears `moves` and fills it with the legal moves, in a fixed order. Empty exactly
    /// when [`Game::is_terminal`] holds.
    fn legal_moves(&self, moves: &mut Moves<Self::Move>);

    /// The position after `mv` (copy-make). `mv` must be legal here.
    fn play(&self, mv: Self::Move) -> Self;

    /// Calls `visit` with each legal move and the position after it, in the order of
    /// [`Game::legal_moves`]. By default each move is played; a game whose test of a
    /// move's legality already plays it (an Andada sowing is legal only if it ends) does
    /// that work once here. The searches that expand every child use this.
    #[inline]
    fn for_each_child(&self, visit: impl FnMut(Self::Move, Self)) {
        play_each(self, visit);
    }

    /// A legal move picked by its index, with the number of legal moves: `pick(n)` (below
    /// `n`, the number of legal moves) picks `moves[pick(n)]` of the list `legal_moves`
    /// writes, or `None`, calling nothing, when the game is over. `moves` is scratch
    /// space that a game picking from a bit mask of its legal moves leaves alone: the
    /// hot path of random playouts and self-play.
    #[inline(always)]
    fn pick_move(
        &self,
        moves: &mut Moves<Self::Move>,
        pick: impl FnOnce(usize) -> usize,
    ) -> Option<(Self::Move, usize)> {
        pick_from_list(self, moves, Self::legal_moves, pick)
    }

    /// [`Game::pick_move`] drawn uniformly by `rng` (`rng.below(n)`), as the playouts
    /// draw.
    #[inline(always)]
    fn random_move(
        &self,
        rng: &mut SplitMix,
        moves: &mut Moves<Self::Move>,
    ) -> Option<(Self::Move, usize)> {
        self.pick_move(moves, |n| rng.below(n))
    }

    /// Whether the game is over (no legal move remains).
    fn is_terminal(&self) -> bool;

    /// The final value for the player to move; only meaningful when terminal.
    fn terminal_value(&self) -> i32;

    /// The part of the final value that is already certain for the player to move (the
    /// captured margin so far, 0 in win/loss games). Lets a transposition table share
    /// values between positions that differ only in what was captured before.
    fn banked(&self) -> i32;

    /// Largest change the rest of the game can still make to the value: the final value
    /// lies in `banked() - swing() ..= banked() + swing()`.
    fn swing(&self) -> i32;

    /// The final value's range for the player to move, as tight as the rules allow
    /// cheaply: `banked() - swing() ..= banked() + swing()` unless a game knows better
    /// (in Kalah the mover always wins at least one more seed). The search prunes with
    /// it before looking at the table, so a tighter range is a smaller tree.
    fn value_range(&self) -> (i32, i32) {
        let (b, s) = (self.banked(), self.swing());
        (b - s, b + s)
    }

    /// Every final value lies on the grid `value_range().1 - k * value_step()`: 2 where
    /// the margin's parity is fixed (Kalah: every seed still in play goes to one side),
    /// else 1. The search's null-window tests then skip values that cannot occur.
    fn value_step(&self) -> i32 {
        1
    }

    /// A 64-bit key of everything that matters for the rest of the game. Captured totals
    /// are left out where the rules never look at them again.
    fn key(&self) -> u64;

    /// Whether play can ever return to an earlier position.
    fn can_repeat(&self) -> bool;

    /// The key with the player to move folded in ([`crate::twin::mover_key`]): what a
    /// repetition check compares, since twins share a key but do not repeat each other.
    #[inline]
    fn mover_key(&self) -> u64 {
        crate::twin::mover_key(self.key(), self.to_move())
    }

    /// What a repetition check compares between two positions of one game with equal
    /// [`Game::material`] (the only ones that can be the same): equal when the rest of
    /// the game is the same from both, as [`Game::key`]s are. [`Game::mover_key`] by
    /// default; a game may give a cheaper one that is exact (no collisions),
    /// since self-play asks for it every ply.
    #[inline]
    fn recurrence_id(&self) -> u128 {
        self.mover_key() as u128
    }

    /// The value, for the player to move, of ending the game here because this position
    /// recurs (the game's documented repetition rule).
    fn repetition_value(&self) -> i32;

    /// Total score of `player` so far (captured stones or seeds; 0 where nothing is
    /// counted).
    fn captured(&self, player: Player) -> u32;

    /// A value in search units seen by the player to move, as points a user reads (komi
    /// and any scaling applied). Required: a default would silently drop a komi.
    fn points(&self, value: i32) -> f64;

    /// Whether values only say win (+1), draw (0) or loss (-1), with no margin.
    /// Required: a default would silently misreport every value of a game that forgot it.
    fn win_loss(&self) -> bool;

    /// A count that never increases during play (stones on the board): a position can
    /// only recur among positions with equal material, so repetition checks stop at the
    /// first ancestor with more, and the `perfect` player knows when a position is small
    /// enough to solve. Required: a default would silently change both.
    fn material(&self) -> u32;

    /// Whether the repetition rule makes a position's value depend on the positions that
    /// came before it (a rule that scores the repeated position itself, rather than
    /// ending play with nothing more gained). The search then shares transposition-table
    /// entries only where no earlier position can recur. Required: a default of `false`
    /// would silently share entries that differ.
    fn history_dependent(&self) -> bool;

    /// A small number naming a move for history and killer tables (below
    /// [`MOVE_SLOTS`]); moves that do the same thing in similar positions share it.
    fn move_slot(&self, _mv: Self::Move) -> usize {
        0
    }

    /// How many moves the player to move has, or a cheap estimate of it: proof-number
    /// search starts a new position's numbers from it (more moves for the side that
    /// needs only one of them to work: harder to refute). The count by default.
    fn mobility(&self) -> u32 {
        let mut moves = Moves::new();
        self.legal_moves(&mut moves);
        moves.len() as u32
    }

    /// Proof-number search's epsilon as its inverse: a child is searched until its number
    /// passes the second-best sibling's times 1 + 1 / this (the 1 + epsilon trick,
    /// Pawlewicz and Lew 2007). A larger epsilon stays longer in one subtree. Measured
    /// with `mancala prove` (docs/solver.md, "Proof-number search"): 1/2 against 1/4
    /// took 8-24 % fewer nodes on 11 of 12 Kalah, Progressive and Give-away Afrika
    /// questions, among them Kalah 6 x 6 "at least 40" and "at least 32" (15 % and 8 %),
    /// and 4 % more on one; Andada keeps 1/4.
    const PROOF_EPSILON_INVERSE: u32 = 2;

    /// The margin the search orders moves by (what a move gains in it): by default what
    /// is banked.
    fn ordering_margin(&self) -> i32 {
        self.banked()
    }

    /// A cheap static guess of a move's merit for move ordering (higher first): for
    /// example the stones a capture takes.
    fn move_order_hint(&self, _mv: Self::Move) -> i32 {
        0
    }
}

/// Number of distinct [`Game::move_slot`] values a search must provide for.
pub const MOVE_SLOTS: usize = 64;

/// The published move notation of a game.
pub trait Notation: Game {
    /// `mv` as the published records write it, when played from `self`.
    fn format_move(&self, mv: Self::Move) -> String;

    /// Reads a move name (annotations such as capture amounts already stripped) in the
    /// context of this position. Errors name what was wrong; the caller adds where.
    fn parse_move(&self, text: &str) -> Result<Self::Move, ParseError>;
}

/// The one-line, human-readable position format of a game (see the README).
pub trait PositionText: Game + Sized {
    fn to_text(&self) -> String;
    fn from_text(text: &str) -> Result<Self, ParseError>;
}

/// A tiny, seedable generator (SplitMix64) for reproducible playouts without dependencies.
#[derive(Clone, Debug)]
pub struct SplitMix(pub u64);

impl SplitMix {
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        crate::hash::mix64(self.0)
    }

    /// Uniform in `0..n` (n > 0), by Lemire's multiply-shift.
    #[inline]
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }
}

/// [`Game::for_each_child`] by [`Game::legal_moves`] and [`Game::play`]: its default,
/// and what an override falls back on where it has nothing to save.
#[inline]
pub fn play_each<G: Game>(g: &G, mut visit: impl FnMut(G::Move, G)) {
    let mut moves = Moves::new();
    g.legal_moves(&mut moves);
    for &mv in moves.iter() {
        visit(mv, g.play(mv));
    }
}

/// Every position of a random playout from `start`, the start included: at most
/// `max_plies` moves, each drawn uniformly by `rng` (for tests and examples).
pub fn random_line<G: Game>(start: G, rng: &mut SplitMix, max_plies: usize) -> Vec<G> {
    let mut g = start;
    let mut line = vec![g];
    let mut moves = Moves::new();
    for _ in 0..max_plies {
        g.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        g = g.play(moves[rng.below(moves.len())]);
        line.push(g);
    }
    line
}

/// [`Game::pick_move`] from the list `legal` writes: the default, and the way the
/// scalar references are driven.
#[inline(always)]
pub fn pick_from_list<G: Game>(
    g: &G,
    moves: &mut Moves<G::Move>,
    legal: impl Fn(&G, &mut Moves<G::Move>),
    pick: impl FnOnce(usize) -> usize,
) -> Option<(G::Move, usize)> {
    legal(g, moves);
    if moves.is_empty() {
        None
    } else {
        Some((moves[pick(moves.len())], moves.len()))
    }
}

/// A move drawn and the number of legal moves it was drawn from.
pub type Drawn<M> = Option<(M, usize)>;

/// A `choose` for [`playouts`] that draws uniformly from the list `legal` writes: how the
/// scalar references are driven (the very draw [`Game::random_move`] makes by default).
pub fn random_from_list<G: Game>(
    legal: impl Fn(&G, &mut Moves<G::Move>) + Copy,
) -> impl Fn(&G, &mut SplitMix, &mut Moves<G::Move>) -> Drawn<G::Move> + Copy {
    move |g, rng, moves| pick_from_list(g, moves, legal, |n| rng.below(n))
}

/// The most plies of one playout.
pub const PLAYOUT_PLIES: u32 = 2000;

/// Plays `games` random games from `start`, at most [`PLAYOUT_PLIES`] plies each, one
/// after the other, drawing moves with `choose` (a game's [`Game::random_move`], or
/// [`pick_from_list`] with a reference version to compare with) and playing them with
/// `play`; returns the moves played. The loop the playout benchmarks time.
#[inline(always)]
pub fn playouts<G: Game>(
    start: G,
    games: usize,
    rng: &mut SplitMix,
    choose: impl Fn(&G, &mut SplitMix, &mut Moves<G::Move>) -> Option<(G::Move, usize)>,
    play: impl Fn(&G, G::Move) -> G,
) -> u64 {
    let mut moves = Moves::new();
    let mut n = 0;
    for _ in 0..games {
        let mut g = start;
        for _ in 0..PLAYOUT_PLIES {
            let Some((mv, _)) = choose(&g, rng, &mut moves) else {
                break;
            };
            g = play(&g, mv);
            n += 1;
        }
    }
    n
}

/// [`playouts`] with `K` games in lock step: each step advances every game by one move,
/// so the processor overlaps their independent chains of dependent instructions (one
/// game's move waits on its last; `K` games' moves do not wait on each other). A game
/// that ends is replaced by the next one until `games` have been started; the last games
/// are then finished one at a time. Game slot `i` draws from its own generator, seeded by
/// `rng`: the same kind of games as [`playouts`], not the same games. The game's own
/// [`Game::random_move`] and [`Game::play`] are called directly rather than through
/// closures: a closure called from the `K` places of the unrolled step is not always
/// inlined, and a call per move costs the gain (Kalah 6x4 with `K` = 3: 35 M moves per
/// CPU-second through closures, 61 M called directly).
#[inline(always)]
pub fn playouts_interleaved<G: Game, const K: usize>(
    start: G,
    games: usize,
    rng: &mut SplitMix,
) -> u64 {
    let mut rngs: [SplitMix; K] = std::array::from_fn(|_| SplitMix(rng.next_u64()));
    let mut g = [start; K];
    let mut plies = [0u32; K];
    let mut moves = Moves::new();
    let mut n = 0;
    // One move of slot `i`'s game; false when it is over. A macro rather than a
    // closure: a closure used in two places is called, not inlined (Afrika 8x8 with
    // `K` = 3: 73.8 M moves per CPU-second through a closure).
    macro_rules! step {
        ($i:expr) => {{
            let i = $i;
            let chosen = if plies[i] < PLAYOUT_PLIES {
                g[i].random_move(&mut rngs[i], &mut moves)
            } else {
                None
            };
            if let Some((mv, _)) = chosen {
                g[i] = g[i].play(mv);
                plies[i] += 1;
                n += 1;
            }
            chosen.is_some()
        }};
    }
    let mut started = K.min(games);
    let mut unfinished = [true; K];
    if games >= K {
        'lock_step: loop {
            for i in 0..K {
                if !step!(i) {
                    if started == games {
                        unfinished[i] = false;
                        break 'lock_step;
                    }
                    (g[i], plies[i], started) = (start, 0, started + 1);
                }
            }
        }
    }
    for (i, &unfinished) in unfinished.iter().enumerate().take(games) {
        while unfinished && step!(i) {}
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kalah::{Kalah, Rules};

    /// The moves of one slot's games: `games` games one after the other from the slot's
    /// generator.
    fn one_slot(start: Kalah, games: usize, seed: u64) -> u64 {
        let pick = |g: &Kalah, rng: &mut SplitMix, moves: &mut Moves<_>| g.random_move(rng, moves);
        playouts(start, games, &mut SplitMix(seed), pick, |g: &Kalah, mv| {
            g.play(mv)
        })
    }

    /// Every game is played to its end exactly once: with one slot, the games of
    /// [`playouts`] from the slot's generator; with three slots and at most three
    /// games, one game from each slot's generator.
    #[test]
    fn interleaved_playouts_play_every_game_once() {
        let start = Kalah::start(4, 3, Rules::default());
        let seeds: Vec<u64> = {
            let mut rng = SplitMix(1);
            (0..3).map(|_| rng.next_u64()).collect()
        };
        for games in [0, 1, 2, 5, 50] {
            let n = playouts_interleaved::<_, 1>(start, games, &mut SplitMix(1));
            assert_eq!(n, one_slot(start, games, seeds[0]), "{games} games");
        }
        for games in 0..=3 {
            let n = playouts_interleaved::<_, 3>(start, games, &mut SplitMix(1));
            let each: u64 = seeds[..games].iter().map(|&s| one_slot(start, 1, s)).sum();
            assert_eq!(n, each, "{games} games");
        }
        let many = playouts_interleaved::<_, 3>(start, 50, &mut SplitMix(1));
        assert!(many > playouts_interleaved::<_, 3>(start, 3, &mut SplitMix(1)));
    }
}
