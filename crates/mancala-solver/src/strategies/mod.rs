//! Move-choosing players for self-play statistics, generic over [`Game`].
//!
//! Every player draws its randomness (tie-breaks, random moves) from the caller's
//! [`SplitMix`], so a game is reproducible from its seed alone.
//!
//! * `random`: a uniformly random legal move.
//! * `greedy`: the move with the best captured margin (mover minus opponent, by
//!   [`Game::captured`]) right after it; ties broken at random.
//! * `ab:D`: alpha-beta (negamax, fail-soft) to depth `D` plies with the evaluation
//!   [`evaluate`]; all moves of equal best value are found (each root move is searched
//!   with a window just below the best so far) and one is chosen at random.
//! * `perfect` / `perfect:T`: the exact solver once at most `T` stones are on the board
//!   ([`Game::material`]; default [`PERFECT_STONES`]) or the endgame database given to
//!   the game holds the position, `ab:4` before that. The solver uses the database too.
//!
//! The side to move need not alternate: like the solver, the search negates a child's
//! value only when the child's [`Game::to_move`] differs from the parent's.

use std::fmt;
use std::str::FromStr;

use mancala_core::game::SplitMix;
use mancala_core::{Game, Moves};

use crate::retro::Oracle;
use crate::{Config, Solver};

/// Default stone threshold of the `perfect` player: small enough that one solve takes
/// milliseconds on the largest boards.
pub const PERFECT_STONES: u32 = 10;

/// Depth of the alpha-beta search the `perfect` player uses before the solver is
/// feasible.
pub const PERFECT_FALLBACK_DEPTH: u32 = 4;

/// Weight of a win in win/loss games (Andada) against the captured-margin evaluation.
const WIN: i32 = 10_000;

/// Beyond any evaluation; negating it never overflows.
const INF: i32 = 1_000_000_000;

/// A player strength, as named on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    Random,
    Greedy,
    AlphaBeta(u32),
    Perfect(u32),
}

impl FromStr for Strategy {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let s = s.trim().to_lowercase();
        let bad = || format!("unknown player \"{s}\" (players: random, greedy, ab:D, perfect[:T])");
        let (name, arg) = s.split_once(':').unwrap_or((&s, ""));
        let num = |d: u32| -> Result<u32, String> {
            if arg.is_empty() {
                Ok(d)
            } else {
                arg.parse().map_err(|_| bad())
            }
        };
        match name {
            "random" if arg.is_empty() => Ok(Strategy::Random),
            "greedy" if arg.is_empty() => Ok(Strategy::Greedy),
            "ab" | "alphabeta" => {
                let d = num(0)?;
                if d == 0 || d > 30 {
                    return Err(format!("{s}: the depth must be between 1 and 30"));
                }
                Ok(Strategy::AlphaBeta(d))
            }
            "perfect" => Ok(Strategy::Perfect(num(PERFECT_STONES)?)),
            _ => Err(bad()),
        }
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Strategy::Random => write!(f, "random"),
            Strategy::Greedy => write!(f, "greedy"),
            Strategy::AlphaBeta(d) => write!(f, "ab:{d}"),
            Strategy::Perfect(t) => write!(f, "perfect:{t}"),
        }
    }
}

/// The static evaluation of `g` for its player to move: exact when the game is over;
/// otherwise the captured margin so far ([`Game::banked`]; in win/loss games, where
/// nothing is banked, the difference of [`Game::captured`]). Stones still on the board
/// are not counted: who gets them differs between the games' endings.
pub fn evaluate<G: Game>(g: &G) -> i32 {
    if g.is_terminal() {
        return if g.win_loss() {
            g.terminal_value() * WIN
        } else {
            g.terminal_value()
        };
    }
    if g.win_loss() {
        captured_margin(g)
    } else {
        g.banked()
    }
}

/// Captured by the player to move minus captured by the opponent.
fn captured_margin<G: Game>(g: &G) -> i32 {
    let me = g.to_move();
    g.captured(me) as i32 - g.captured(me.opponent()) as i32
}

/// Per-game state of a player: the solver of `perfect`, made on first use.
#[derive(Default)]
pub struct PlayerState {
    solver: Option<Solver>,
}

/// The index of the move a random player picks among `n` (at least 1): drawn by `rng`,
/// except that a forced move draws nothing (so a game's draws do not depend on how
/// often it had no choice).
#[inline(always)]
pub fn random_index(rng: &mut SplitMix, n: usize) -> usize {
    if n == 1 { 0 } else { rng.below(n) }
}

impl Strategy {
    /// Chooses a move in `g`, which must not be terminal and was reached after the
    /// positions `before` (the `perfect` player's values may depend on them); `oracle` (an
    /// endgame database) serves the `perfect` player.
    pub fn choose<G: Game>(
        &self,
        (g, before): (&G, &[G]),
        rng: &mut SplitMix,
        state: &mut PlayerState,
        oracle: Option<&dyn Oracle<G>>,
    ) -> G::Move {
        let mut moves = Moves::new();
        g.legal_moves(&mut moves);
        self.choose_from((g, before), &moves, rng, state, oracle)
    }

    /// [`Strategy::choose`] when the legal moves of `g` are at hand already (self-play
    /// lists them once a ply, to count them).
    pub fn choose_from<G: Game>(
        &self,
        (g, before): (&G, &[G]),
        moves: &Moves<G::Move>,
        rng: &mut SplitMix,
        state: &mut PlayerState,
        oracle: Option<&dyn Oracle<G>>,
    ) -> G::Move {
        assert!(!moves.is_empty(), "choose() on a finished game");
        if moves.len() == 1 {
            return moves[0];
        }
        match *self {
            Strategy::Random => moves[random_index(rng, moves.len())],
            Strategy::Greedy => {
                let me = g.to_move();
                let gain = |m: G::Move| {
                    let c = g.play(m);
                    c.captured(me) as i32 - c.captured(me.opponent()) as i32
                };
                pick_best(moves, gain, rng)
            }
            Strategy::AlphaBeta(d) => alpha_beta_choice(g, moves, d, rng),
            Strategy::Perfect(t) => {
                let stones = g.material();
                let known = oracle.is_some_and(|o| o.probe(g).is_some());
                if !known && (stones == 0 || stones > t) {
                    return alpha_beta_choice(g, moves, PERFECT_FALLBACK_DEPTH, rng);
                }
                let solver = state.solver.get_or_insert_with(|| {
                    Solver::new(Config {
                        threads: 1,
                        tt_mb: 16,
                        all_moves: true,
                        max_pv: 0,
                        ..Config::default()
                    })
                });
                match solver.solve_after(g, before, oracle) {
                    Some(sol) if !sol.moves.is_empty() => {
                        let best = sol.moves.iter().map(|&(_, v)| v).max().unwrap_or(0);
                        let ties: Vec<G::Move> = sol
                            .moves
                            .iter()
                            .filter(|&&(_, v)| v == best)
                            .map(|&(m, _)| m)
                            .collect();
                        ties[rng.below(ties.len())]
                    }
                    _ => alpha_beta_choice(g, moves, PERFECT_FALLBACK_DEPTH, rng),
                }
            }
        }
    }
}

/// The best moves seen so far (highest value), to pick one of at random.
struct Ties<M> {
    best: i32,
    moves: Moves<M>,
}

impl<M: Copy> Ties<M> {
    fn new() -> Self {
        Ties {
            best: i32::MIN,
            moves: Moves::new(),
        }
    }

    fn offer(&mut self, m: M, v: i32) {
        if v > self.best {
            self.best = v;
            self.moves.clear();
        }
        if v == self.best {
            self.moves.push(m);
        }
    }

    fn pick(&self, rng: &mut SplitMix) -> M {
        self.moves[rng.below(self.moves.len())]
    }
}

/// The move with the highest `score`, ties broken uniformly at random.
fn pick_best<M: Copy>(moves: &[M], score: impl Fn(M) -> i32, rng: &mut SplitMix) -> M {
    let mut ties = Ties::new();
    for &m in moves {
        ties.offer(m, score(m));
    }
    ties.pick(rng)
}

/// Root of the depth-limited search: every move whose value equals the best, then one at
/// random. Each move is searched with the window (best - 1, +inf), so a fail-low value is
/// below the best and a tie is exact.
fn alpha_beta_choice<G: Game>(g: &G, moves: &[G::Move], depth: u32, rng: &mut SplitMix) -> G::Move {
    let me = g.to_move();
    let mut ties = Ties::new();
    for &m in moves {
        let c = g.play(m);
        let alpha = ties.best.max(-INF) - 1;
        let v = if c.to_move() == me {
            negamax(&c, depth - 1, alpha, INF)
        } else {
            -negamax(&c, depth - 1, -INF, -alpha)
        };
        ties.offer(m, v);
    }
    ties.pick(rng)
}

/// Fail-soft negamax to `depth` plies with [`evaluate`] at the leaves.
pub fn negamax<G: Game>(g: &G, depth: u32, mut alpha: i32, beta: i32) -> i32 {
    if depth == 0 || g.is_terminal() {
        return evaluate(g);
    }
    let mut moves = Moves::new();
    g.legal_moves(&mut moves);
    let me = g.to_move();
    let mut best = -INF;
    for &m in &moves {
        let c = g.play(m);
        let v = if c.to_move() == me {
            negamax(&c, depth - 1, alpha, beta)
        } else {
            -negamax(&c, depth - 1, -beta, -alpha)
        };
        if v > best {
            best = v;
            if v > alpha {
                alpha = v;
                if alpha >= beta {
                    break;
                }
            }
        }
    }
    best
}

pub mod selfplay;
