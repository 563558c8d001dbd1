//! Self-play: games between two [`Strategy`]s and the statistics over them.
//!
//! A *ply* is one move decision: every sowing counts, including a Kalah or Progressive
//! extra turn and a forced move with a single option. Kauri passes are not moves in the
//! engine (the mover simply moves again) and so are not plies; that matches the records,
//! which write a player's consecutive moves "d-a-f" as separate half-moves.
//!
//! Game `i` draws its moves from `SplitMix(game_seed(seed, i))`, so results depend on the
//! seed and the game count only, never on thread scheduling. Games are tallied as they
//! are played (no record per game is kept): chunks of [`CHUNK`] consecutive games each
//! fill a [`Tally`], and the chunks are merged in game order, so even floating-point sums
//! are the same for any thread count, and memory does not grow with the number of games.

use std::collections::BTreeMap;

use mancala_core::game::SplitMix;
use mancala_core::{Game, Moves};
use rayon::prelude::*;
use serde::Serialize;

use super::{PlayerState, Strategy, random_index};
use crate::retro::Oracle;

/// Default ply cap: far beyond any real game of the supported games, so only games that
/// cycle without the rules stopping them reach it.
pub const DEFAULT_MAX_PLIES: usize = 2000;

/// Games per chunk: one worker plays a chunk's games in order into one [`Tally`].
pub const CHUNK: usize = 256;

/// Chunks played in parallel before their tallies are merged (in order): bounds the
/// tallies alive at once.
const BATCH: usize = 256;

/// The RNG seed of game `index` of a run seeded with `seed`.
pub fn game_seed(seed: u64, index: u64) -> u64 {
    mancala_core::hash::mix64(seed ^ mancala_core::hash::mix64(index.wrapping_add(1)))
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum End {
    /// No legal move left: the rules ended it.
    Over,
    /// A position recurred and the game's repetition rule scored it.
    Repetition,
    /// The ply cap was reached: no result.
    Capped,
}

/// How one game finished; its branching factors went into the [`Tally`] ply by ply.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GameEnd {
    pub end: End,
    /// Final margin for the first player (the player to move at the start), with komi, in
    /// points; 0 when capped.
    pub margin: f64,
    /// Captured totals of the first and the second player at the end.
    pub score: (u32, u32),
    /// Plies played.
    pub plies: usize,
    /// Plies played when a player first held more than half of all stones (the game is
    /// decided; published records often stop there), if that happened. `None` also for
    /// games that do not count material.
    pub decided: Option<usize>,
}

/// Plays games from one start between two players, reusing its buffers from game to game
/// (the recent positions for repetition checks, the line for a `perfect` player).
pub struct SelfPlay<'a, G: Game> {
    start: G,
    players: [Strategy; 2],
    max_plies: usize,
    oracle: Option<&'a dyn Oracle<G>>,
    /// [`Game::recurrence_id`]s of the positions since [`Game::material`] last fell:
    /// only they can recur.
    recent: Vec<u128>,
    /// The positions before the current one, kept only for a `perfect` player (whose
    /// values may depend on them).
    played: Vec<G>,
    keep_line: bool,
    /// Both players random: moves drawn by [`Game::random_move`].
    all_random: bool,
}

impl<'a, G: Game> SelfPlay<'a, G> {
    /// Games from `start`, the first of `players` moving first, stopped after
    /// `max_plies`; `oracle` (an endgame database) serves the `perfect` player.
    pub fn new(
        start: &G,
        players: [Strategy; 2],
        max_plies: usize,
        oracle: Option<&'a dyn Oracle<G>>,
    ) -> Self {
        SelfPlay {
            start: *start,
            players,
            max_plies,
            oracle,
            recent: Vec::new(),
            played: Vec::new(),
            keep_line: players.iter().any(|p| matches!(p, Strategy::Perfect(_))),
            all_random: players.iter().all(|p| matches!(p, Strategy::Random)),
        }
    }

    /// Whether `g` repeats a position of this game. Material never increases, so a
    /// position can only recur among those since the material last fell: the list of
    /// keys starts afresh whenever it does.
    fn repeats(&mut self, g: &G, material: &mut u32) -> bool {
        if !g.can_repeat() {
            return false;
        }
        let m = g.material();
        if m != *material {
            *material = m;
            self.recent.clear();
        }
        let k = g.recurrence_id();
        if self.recent.contains(&k) {
            return true;
        }
        self.recent.push(k);
        false
    }

    /// Plays one game with moves drawn from `SplitMix(seed)`, its plies counted into
    /// `tally` as they are played and its end added at the end.
    pub fn play(&mut self, seed: u64, tally: &mut Tally) -> GameEnd {
        let start = self.start;
        let mut rng = SplitMix(seed);
        let p1 = start.to_move();
        let mut states = [PlayerState::default(), PlayerState::default()];
        self.recent.clear();
        self.played.clear();
        let mut material = u32::MAX;
        let mut g = start;
        let mut moves = Moves::new();
        let mut line = Line::default();
        let view = |g: &G, v: i32| {
            let p = g.points(v);
            // `+ 0.0` turns a negated 0 into 0: a draw is one margin, not two.
            (if g.to_move() == p1 { p } else { -p }) + 0.0
        };
        let total = start.captured(p1) + start.captured(p1.opponent()) + start.material();
        // Games that report no material (Kalah, Progressive) or capture nothing (Andada)
        // are never "decided".
        let counts_material = start.material() > 0;
        let mut decided = None;
        loop {
            if decided.is_none()
                && counts_material
                && 2 * g.captured(p1).max(g.captured(p1.opponent())) > total
            {
                decided = Some(line.plies);
            }
            // How the game ends here, if it does, with the margin it ends with; else
            // the move and the number of legal moves it was chosen from. Two random
            // players pick with the game's own `pick_move` (from a bit mask where the
            // game has one: no list) the very move `Strategy::Random` picks from the list.
            let end = if self.repeats(&g, &mut material) {
                Err((End::Repetition, view(&g, g.repetition_value())))
            } else if line.plies >= self.max_plies {
                Err(if g.is_terminal() {
                    (End::Over, view(&g, g.terminal_value()))
                } else {
                    (End::Capped, 0.0)
                })
            } else if self.all_random {
                g.pick_move(&mut moves, |n| random_index(&mut rng, n))
                    .ok_or_else(|| (End::Over, view(&g, g.terminal_value())))
            } else {
                g.legal_moves(&mut moves);
                if moves.is_empty() {
                    Err((End::Over, view(&g, g.terminal_value())))
                } else {
                    let who = if g.to_move() == p1 { 0 } else { 1 };
                    let before = (&g, &self.played[..]);
                    let (player, state) = (self.players[who], &mut states[who]);
                    let mv = player.choose_from(before, &moves, &mut rng, state, self.oracle);
                    Ok((mv, moves.len()))
                }
            };
            let (mv, branching) = match end {
                Ok(chosen) => chosen,
                Err((end, margin)) => {
                    let game = GameEnd {
                        end,
                        margin,
                        score: (g.captured(p1), g.captured(p1.opponent())),
                        plies: line.plies,
                        decided,
                    };
                    tally.end(&line, &game);
                    return game;
                }
            };
            tally.ply(&mut line, branching);
            if self.keep_line {
                self.played.push(g);
            }
            g = g.play(mv);
        }
    }
}

/// Plays one game from `start`, the first of `players` moving first; `oracle` (an
/// endgame database) serves the `perfect` player. Its plies are counted into a tally
/// of its own, which is dropped.
pub fn play_game<G: Game>(
    start: &G,
    players: [Strategy; 2],
    seed: u64,
    max_plies: usize,
    oracle: Option<&dyn Oracle<G>>,
) -> GameEnd {
    SelfPlay::new(start, players, max_plies, oracle).play(seed, &mut Tally::default())
}

/// Plays `games` games in parallel (on the current rayon pool) and tallies them; `tick`
/// is called with the number of games finished after each chunk (for a progress bar).
/// The tally is the same for any number of threads.
pub fn play_games<G: Game>(
    start: &G,
    players: [Strategy; 2],
    seed: u64,
    games: usize,
    max_plies: usize,
    oracle: Option<&dyn Oracle<G>>,
    tick: &(dyn Fn(u64) + Sync),
) -> Tally {
    let chunks = games.div_ceil(CHUNK);
    let mut total = Tally::default();
    for batch in (0..chunks).step_by(BATCH) {
        let parts: Vec<Tally> = (batch..chunks.min(batch + BATCH))
            .into_par_iter()
            .map(|c| {
                let mut play = SelfPlay::new(start, players, max_plies, oracle);
                let mut tally = Tally::default();
                let range = c * CHUNK..games.min((c + 1) * CHUNK);
                let n = range.len() as u64;
                for i in range {
                    play.play(game_seed(seed, i as u64), &mut tally);
                }
                tick(n);
                tally
            })
            .collect();
        for p in parts {
            total.merge(p);
        }
    }
    total
}

/// One game's figures gathered ply by ply.
#[derive(Clone, Copy, Debug)]
pub struct Line {
    plies: usize,
    /// Plies with at least two legal moves.
    choices: usize,
    /// The product of the branching factors so far is `product * 10^log10`: the
    /// product is folded into the logarithm before it could overflow.
    product: f64,
    log10: f64,
}

impl Default for Line {
    fn default() -> Self {
        Line {
            plies: 0,
            choices: 0,
            product: 1.0,
            log10: 0.0,
        }
    }
}

impl Line {
    /// A fresh line, for tallying games played elsewhere.
    pub fn new() -> Self {
        Self::default()
    }

    /// log10 of the product of the branching factors.
    fn log10_product(&self) -> f64 {
        self.log10 + self.product.log10()
    }
}

/// A margin as a map key: ordered by `f64::total_cmp` (margins are never NaN, and a
/// negated 0 is made 0 before it gets here).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Margin(f64);
impl Eq for Margin {}
impl PartialOrd for Margin {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Margin {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&other.0)
    }
}

/// The running sums over games that [`Tally::stats`] turns into [`Stats`]: counts and
/// histograms only, so its size depends on the game lengths and margins that occur, not
/// on the number of games. Outcome figures are over finished games (rules or
/// repetition); capped games count only in `capped` and in the branching figures.
#[derive(Clone, Debug)]
pub struct Tally {
    games: usize,
    capped: usize,
    repetitions: usize,
    first_wins: usize,
    second_wins: usize,
    /// Finished games by margin for the first player.
    margins: BTreeMap<Margin, usize>,
    /// Finished games by length.
    lengths: BTreeMap<usize, usize>,
    /// Plies with a real choice, over finished games.
    choices: usize,
    /// (games, least, sum, most) of the plies until decided, over finished games.
    decided: Option<(usize, usize, usize, usize)>,
    /// The largest win so far: |margin|, scores, margin (the last such game on ties).
    largest_win: Option<(f64, (u32, u32), f64)>,
    /// Positions by number of legal moves (capped games included).
    branching: [usize; mancala_core::MAX_MOVES + 1],
    /// (positions, total moves) at each ply (capped games included).
    by_ply: Vec<(usize, usize)>,
    /// The mean of 10^(log10 product) over finished games, as (top, s): the sum of
    /// 10^(x - top) over the games' x, top being the largest x.
    products: Option<(f64, f64)>,
}

impl Default for Tally {
    fn default() -> Self {
        Tally {
            games: 0,
            capped: 0,
            repetitions: 0,
            first_wins: 0,
            second_wins: 0,
            margins: BTreeMap::new(),
            lengths: BTreeMap::new(),
            choices: 0,
            decided: None,
            largest_win: None,
            branching: [0; mancala_core::MAX_MOVES + 1],
            by_ply: Vec::new(),
            products: None,
        }
    }
}

impl Tally {
    /// Counts a position where `branching` legal moves were open, the next ply of `line`.
    #[inline]
    pub fn ply(&mut self, line: &mut Line, branching: usize) {
        self.branching[branching] += 1;
        match self.by_ply.get_mut(line.plies) {
            Some(p) => *p = (p.0 + 1, p.1 + branching),
            None => self.by_ply.push((1, branching)),
        }
        line.plies += 1;
        line.choices += (branching >= 2) as usize;
        line.product *= branching as f64;
        if line.product > 1e100 {
            line.log10 += line.product.log10();
            line.product = 1.0;
        }
    }

    /// Counts the end of a game whose plies went into `line`.
    pub fn end(&mut self, line: &Line, game: &GameEnd) {
        self.games += 1;
        match game.end {
            End::Capped => {
                self.capped += 1;
                return;
            }
            End::Repetition => self.repetitions += 1,
            End::Over => {}
        }
        let m = game.margin;
        self.first_wins += (m > 0.0) as usize;
        self.second_wins += (m < 0.0) as usize;
        *self.margins.entry(Margin(m)).or_insert(0) += 1;
        *self.lengths.entry(line.plies).or_insert(0) += 1;
        self.choices += line.choices;
        if let Some(d) = game.decided {
            self.decided = Some(match self.decided {
                None => (1, d, d, d),
                Some((n, lo, s, hi)) => (n + 1, lo.min(d), s + d, hi.max(d)),
            });
        }
        if m != 0.0 && self.largest_win.is_none_or(|(a, ..)| m.abs() >= a) {
            self.largest_win = Some((m.abs(), game.score, m));
        }
        let x = line.log10_product();
        self.products = Some(match self.products {
            None => (x, 1.0),
            Some((top, s)) if x <= top => (top, s + 10f64.powf(x - top)),
            Some((top, s)) => (x, s * 10f64.powf(top - x) + 1.0),
        });
    }

    /// Adds the games of `later`, which come after this tally's games.
    pub fn merge(&mut self, later: Tally) {
        self.games += later.games;
        self.capped += later.capped;
        self.repetitions += later.repetitions;
        self.first_wins += later.first_wins;
        self.second_wins += later.second_wins;
        for (m, c) in later.margins {
            *self.margins.entry(m).or_insert(0) += c;
        }
        for (l, c) in later.lengths {
            *self.lengths.entry(l).or_insert(0) += c;
        }
        self.choices += later.choices;
        self.decided = match (self.decided, later.decided) {
            (Some((n, lo, s, hi)), Some((n2, lo2, s2, hi2))) => {
                Some((n + n2, lo.min(lo2), s + s2, hi.max(hi2)))
            }
            (a, b) => a.or(b),
        };
        if let Some(w) = later.largest_win
            && self.largest_win.is_none_or(|(a, ..)| w.0 >= a)
        {
            self.largest_win = Some(w);
        }
        for (b, c) in self.branching.iter_mut().zip(later.branching) {
            *b += c;
        }
        if self.by_ply.len() < later.by_ply.len() {
            self.by_ply.resize(later.by_ply.len(), (0, 0));
        }
        for (p, q) in self.by_ply.iter_mut().zip(later.by_ply) {
            *p = (p.0 + q.0, p.1 + q.1);
        }
        self.products = match (self.products, later.products) {
            (Some((t, s)), Some((t2, s2))) => {
                let top = t.max(t2);
                Some((top, s * 10f64.powf(t - top) + s2 * 10f64.powf(t2 - top)))
            }
            (a, b) => a.or(b),
        };
    }
}
/// A proportion with its 95% Wilson score interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Proportion {
    pub count: usize,
    pub rate: f64,
    pub low: f64,
    pub high: f64,
}

/// 1.96: the two-sided 95% normal quantile.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The Wilson score interval for `k` successes in `n` trials at normal quantile `z`.
/// Unlike the plain normal interval it stays inside [0, 1] and keeps its coverage near 0
/// and 1 (few draws) and for small `n`.
pub fn wilson(k: usize, n: usize, z: f64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let n = n as f64;
    let p = k as f64 / n;
    let z2 = z * z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = z / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

fn proportion(k: usize, n: usize) -> Proportion {
    let (low, high) = wilson(k, n, Z95);
    Proportion {
        count: k,
        rate: if n == 0 { 0.0 } else { k as f64 / n as f64 },
        low,
        high,
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Plies {
    pub min: usize,
    pub mean: f64,
    pub max: usize,
    /// Mean number of plies with at least two legal moves (real choices).
    pub mean_choices: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Decided {
    pub games: usize,
    pub min: usize,
    pub mean: f64,
    pub max: usize,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlyBranching {
    pub ply: usize,
    pub positions: usize,
    pub mean: f64,
}

/// Everything `mancala stats` reports. Outcome figures are over finished games (rules or
/// repetition); capped games count only in `capped` and in the branching figures.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Stats {
    pub games: usize,
    pub finished: usize,
    pub capped: usize,
    pub repetitions: usize,
    pub first_wins: usize,
    pub draws: usize,
    pub second_wins: usize,
    pub first_win_rate: Proportion,
    pub draw_rate: Proportion,
    pub second_win_rate: Proportion,
    /// Mean final margin for the first player, komi included, and its 95% interval.
    pub mean_margin: f64,
    pub margin_ci: (f64, f64),
    /// Sorted list of (margin, games).
    pub margins: Vec<(f64, usize)>,
    pub plies: Plies,
    /// Plies until a player held more than half of all stones, over the finished games
    /// where that happened (`None` if none did): the length of a game "until it is decided".
    pub decided: Option<Decided>,
    /// Allis's estimate with the decided length: log10(b^d'), d' = mean plies until decided.
    pub decided_complexity_log10: Option<f64>,
    /// (length, games) for every length that occurred, over finished games.
    pub length_histogram: Vec<(usize, usize)>,
    /// The largest win of either player: first player's score, second's, and the margin
    /// for the first player.
    pub largest_win: Option<(u32, u32, f64)>,
    /// Mean legal moves over all positions where a move was chosen.
    pub mean_branching: f64,
    /// The same over positions with at least two legal moves.
    pub mean_branching_choices: f64,
    pub max_branching: usize,
    pub most_common_branching: usize,
    pub branching_by_ply: Vec<PlyBranching>,
    /// Allis's estimate: log10(b^d), b = mean branching, d = mean game length.
    pub tree_complexity_log10: f64,
    /// log10 of the mean over games of the product of branching factors along the game.
    /// Unbiased for the number of leaves only when both players are `random`.
    pub product_estimate_log10: f64,
}

impl Tally {
    /// The statistics of the games tallied.
    pub fn stats(&self) -> Stats {
        let games = self.games;
        let finished = games - self.capped;
        let (first_wins, second_wins) = (self.first_wins, self.second_wins);
        let draws = finished - first_wins - second_wins;
        let ratio = |a: usize, b: usize| if b == 0 { 0.0 } else { a as f64 / b as f64 };
        let (mean_margin, half) = self.margin_interval(finished);
        let lengths = || self.lengths.iter().map(|(&l, &c)| (l, c));
        let plies = Plies {
            min: lengths().next().map_or(0, |(l, _)| l),
            mean: ratio(lengths().map(|(l, c)| l * c).sum(), finished),
            max: lengths().next_back().map_or(0, |(l, _)| l),
            mean_choices: ratio(self.choices, finished),
        };
        let decided = self.decided.map(|(n, min, sum, max)| Decided {
            games: n,
            min,
            mean: ratio(sum, n),
            max,
        });
        let hist = &self.branching;
        let positions: usize = hist.iter().sum();
        let total: usize = hist.iter().enumerate().map(|(b, c)| b * c).sum();
        let choice_positions: usize = hist[2..].iter().sum();
        let mean_branching = ratio(total, positions);
        let log_b = (mean_branching > 0.0).then(|| mean_branching.log10());
        Stats {
            games,
            finished,
            capped: self.capped,
            repetitions: self.repetitions,
            first_wins,
            draws,
            second_wins,
            first_win_rate: proportion(first_wins, finished),
            draw_rate: proportion(draws, finished),
            second_win_rate: proportion(second_wins, finished),
            mean_margin,
            margin_ci: (mean_margin - half, mean_margin + half),
            margins: self.margins.iter().map(|(m, &c)| (m.0, c)).collect(),
            length_histogram: lengths().collect(),
            tree_complexity_log10: log_b.map_or(0.0, |b| plies.mean * b),
            decided_complexity_log10: decided.as_ref().and_then(|d| log_b.map(|b| d.mean * b)),
            decided,
            plies,
            largest_win: self.largest_win.map(|(_, (a, b), m)| (a, b, m)),
            mean_branching,
            mean_branching_choices: ratio(total - hist[1], choice_positions),
            max_branching: (0..hist.len()).rev().find(|&b| hist[b] > 0).unwrap_or(0),
            most_common_branching: (1..hist.len())
                .max_by_key(|&b| (hist[b], std::cmp::Reverse(b)))
                .unwrap_or(0),
            branching_by_ply: self
                .by_ply
                .iter()
                .enumerate()
                .map(|(i, &(n, s))| PlyBranching {
                    ply: i + 1,
                    positions: n,
                    mean: ratio(s, n),
                })
                .collect(),
            product_estimate_log10: self
                .products
                .map_or(0.0, |(top, s)| top + (s / finished as f64).log10()),
        }
    }

    /// The mean margin of the `finished` games and the half-width of its 95% confidence
    /// interval.
    fn margin_interval(&self, finished: usize) -> (f64, f64) {
        if finished == 0 {
            return (0.0, 0.0);
        }
        let n = finished as f64;
        let mean = self
            .margins
            .iter()
            .map(|(m, &c)| m.0 * c as f64)
            .sum::<f64>()
            / n;
        if finished == 1 {
            return (mean, 0.0);
        }
        let squares: f64 = self
            .margins
            .iter()
            .map(|(m, &c)| (m.0 - mean).powi(2) * c as f64)
            .sum();
        (mean, Z95 * (squares / (n - 1.0)).sqrt() / n.sqrt())
    }
}
