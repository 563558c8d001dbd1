//! Self-play: games between two [`Strategy`]s and the statistics over them.
//!
//! A *ply* is one move decision: every sowing counts, including a Kalah or Progressive
//! extra turn and a forced move with a single option. Kauri passes are not moves in the
//! engine (the mover simply moves again) and so are not plies; that matches the records,
//! which write a player's consecutive moves "d-a-f" as separate half-moves.
//!
//! Game `i` draws its moves from `SplitMix(game_seed(seed, i))`, so results depend on the
//! seed and the game count only, never on thread scheduling; aggregation runs in game
//! order so even floating-point sums are the same for any thread count.

use std::collections::HashSet;

use mancala_core::game::SplitMix;
use mancala_core::{Game, Moves};
use rayon::prelude::*;
use serde::Serialize;

use super::{PlayerState, Strategy};
use crate::retro::Oracle;

/// Default ply cap: far beyond any real game of the supported games, so only games that
/// cycle without the rules stopping them reach it.
pub const DEFAULT_MAX_PLIES: usize = 2000;

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

/// One finished (or capped) game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// Number of legal moves in each position where a move was chosen, in order.
    pub branching: Vec<u8>,
    pub end: End,
    /// Final margin for the first player (the player to move at the start), with komi, in
    /// points; 0 when capped.
    pub margin: f64,
    /// Captured totals of the first and the second player at the end.
    pub score: (u32, u32),
    /// Plies played when a player first held more than half of all stones (the game is
    /// decided; published records often stop there), if that happened. `None` also for
    /// games that do not count material.
    pub decided: Option<usize>,
}

/// Plays one game from `start`, the first of `players` moving first; `oracle` (an
/// endgame database) serves the `perfect` player.
pub fn play_game<G: Game>(
    start: &G,
    players: [Strategy; 2],
    seed: u64,
    max_plies: usize,
    oracle: Option<&dyn Oracle<G>>,
) -> GameRecord {
    let mut rng = SplitMix(seed);
    let p1 = start.to_move();
    let mut states = [PlayerState::default(), PlayerState::default()];
    let mut seen: HashSet<u64> = HashSet::new();
    // The positions before `g`, for a perfect player whose values depend on them.
    let mut played: Vec<G> = Vec::new();
    let mut g = *start;
    let mut moves = Moves::new();
    let mut branching = Vec::new();
    let view = |g: &G, v: i32| {
        let p = g.points(v);
        if g.to_move() == p1 { p } else { -p }
    };
    let score = |g: &G| (g.captured(p1), g.captured(p1.opponent()));
    let total = start.captured(p1) + start.captured(p1.opponent()) + start.material();
    // Games that report no material (Kalah, Progressive) or capture nothing (Andada) are
    // never "decided".
    let counts_material = start.material() > 0;
    let mut decided = None;
    loop {
        if decided.is_none()
            && counts_material
            && 2 * g.captured(p1).max(g.captured(p1.opponent())) > total
        {
            decided = Some(branching.len());
        }
        g.legal_moves(&mut moves);
        // How the game ends here, if it does, with the margin it ends with.
        let end = if g.can_repeat() && !seen.insert(g.key()) {
            Some((End::Repetition, view(&g, g.repetition_value())))
        } else if moves.is_empty() {
            Some((End::Over, view(&g, g.terminal_value())))
        } else if branching.len() >= max_plies {
            Some((End::Capped, 0.0))
        } else {
            None
        };
        if let Some((end, margin)) = end {
            return GameRecord {
                branching,
                end,
                margin,
                score: score(&g),
                decided,
            };
        }
        branching.push(moves.len() as u8);
        let who = if g.to_move() == p1 { 0 } else { 1 };
        let mv = players[who].choose((&g, &played), &mut rng, &mut states[who], oracle);
        played.push(g);
        g = g.play(mv);
    }
}

/// Plays `games` games in parallel (on the current rayon pool); `tick` is called after
/// each game (for a progress bar). The records are in game order.
pub fn play_games<G: Game>(
    start: &G,
    players: [Strategy; 2],
    seed: u64,
    games: usize,
    max_plies: usize,
    oracle: Option<&dyn Oracle<G>>,
    tick: &(dyn Fn() + Sync),
) -> Vec<GameRecord> {
    (0..games)
        .into_par_iter()
        .map(|i| {
            let r = play_game(start, players, game_seed(seed, i as u64), max_plies, oracle);
            tick();
            r
        })
        .collect()
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

/// Aggregates records (in order, so the result does not depend on how they were played).
pub fn summarize(records: &[GameRecord]) -> Stats {
    let games = records.len();
    let done: Vec<&GameRecord> = records.iter().filter(|r| r.end != End::Capped).collect();
    let finished = done.len();
    let first_wins = done.iter().filter(|r| r.margin > 0.0).count();
    let second_wins = done.iter().filter(|r| r.margin < 0.0).count();
    let draws = finished - first_wins - second_wins;
    let (mean_margin, half) = margin_interval(&done);
    let margins = margin_counts(&done);
    let (plies, hist) = lengths(&done);
    let decided = decided_lengths(&done);
    let largest_win = done
        .iter()
        .filter(|r| r.margin != 0.0)
        .max_by(|a, b| a.margin.abs().total_cmp(&b.margin.abs()))
        .map(|r| (r.score.0, r.score.1, r.margin));

    let (count_hist, by_ply) = branching_counts(records);
    let positions: usize = count_hist.iter().sum();
    let total: usize = count_hist.iter().enumerate().map(|(b, c)| b * c).sum();
    let choice_positions: usize = count_hist[2..].iter().sum();
    let choice_total: usize = total - count_hist[1];
    let ratio = |a: usize, b: usize| if b == 0 { 0.0 } else { a as f64 / b as f64 };
    let mean_branching = ratio(total, positions);
    let most_common_branching = (1..count_hist.len())
        .max_by_key(|&b| (count_hist[b], std::cmp::Reverse(b)))
        .unwrap_or(0);
    let max_branching = (0..count_hist.len())
        .rev()
        .find(|&b| count_hist[b] > 0)
        .unwrap_or(0);
    let product_estimate_log10 = product_estimate_log10(&done);
    Stats {
        games,
        finished,
        capped: games - finished,
        repetitions: done.iter().filter(|r| r.end == End::Repetition).count(),
        first_wins,
        draws,
        second_wins,
        first_win_rate: proportion(first_wins, finished),
        draw_rate: proportion(draws, finished),
        second_win_rate: proportion(second_wins, finished),
        mean_margin,
        margin_ci: (mean_margin - half, mean_margin + half),
        margins,
        length_histogram: hist.into_iter().collect(),
        tree_complexity_log10: if mean_branching > 0.0 {
            plies.mean * mean_branching.log10()
        } else {
            0.0
        },
        decided_complexity_log10: decided
            .as_ref()
            .filter(|_| mean_branching > 0.0)
            .map(|d| d.mean * mean_branching.log10()),
        decided,
        plies,
        largest_win,
        mean_branching,
        mean_branching_choices: ratio(choice_total, choice_positions),
        max_branching,
        most_common_branching,
        branching_by_ply: by_ply
            .iter()
            .enumerate()
            .map(|(i, &(n, s))| PlyBranching {
                ply: i + 1,
                positions: n,
                mean: ratio(s, n),
            })
            .collect(),
        product_estimate_log10,
    }
}

/// The mean margin of finished games and the half-width of its 95% confidence interval.
fn margin_interval(done: &[&GameRecord]) -> (f64, f64) {
    let finished = done.len();
    let mean_margin = mean(done.iter().map(|r| r.margin));
    let sd = if finished > 1 {
        (done
            .iter()
            .map(|r| (r.margin - mean_margin).powi(2))
            .sum::<f64>()
            / (finished - 1) as f64)
            .sqrt()
    } else {
        0.0
    };
    let half = if finished > 0 {
        Z95 * sd / (finished as f64).sqrt()
    } else {
        0.0
    };
    (mean_margin, half)
}

/// Every margin that occurred, in increasing order, with its number of games.
fn margin_counts(done: &[&GameRecord]) -> Vec<(f64, usize)> {
    let mut margins: Vec<(f64, usize)> = Vec::new();
    let mut ms: Vec<f64> = done.iter().map(|r| r.margin).collect();
    ms.sort_by(f64::total_cmp);
    for m in ms {
        match margins.last_mut() {
            Some((v, c)) if *v == m => *c += 1,
            _ => margins.push((m, 1)),
        }
    }
    margins
}

/// Game lengths: their summary and (length, games) for every length that occurred.
fn lengths(done: &[&GameRecord]) -> (Plies, Vec<(usize, usize)>) {
    let lens: Vec<usize> = done.iter().map(|r| r.branching.len()).collect();
    let mut hist = std::collections::BTreeMap::new();
    for &l in &lens {
        *hist.entry(l).or_insert(0usize) += 1;
    }
    let plies = Plies {
        min: lens.iter().copied().min().unwrap_or(0),
        mean: mean(lens.iter().map(|&l| l as f64)),
        max: lens.iter().copied().max().unwrap_or(0),
        mean_choices: mean(
            done.iter()
                .map(|r| r.branching.iter().filter(|&&b| b >= 2).count() as f64),
        ),
    };
    (plies, hist.into_iter().collect())
}

/// Plies until a player held more than half of the stones, over the games where one did.
fn decided_lengths(done: &[&GameRecord]) -> Option<Decided> {
    let dec: Vec<usize> = done.iter().filter_map(|r| r.decided).collect();
    (!dec.is_empty()).then(|| Decided {
        games: dec.len(),
        min: dec.iter().copied().min().unwrap_or(0),
        mean: mean(dec.iter().map(|&l| l as f64)),
        max: dec.iter().copied().max().unwrap_or(0),
    })
}

/// Positions by number of legal moves, and (positions, total moves) at each ply.
fn branching_counts(
    records: &[GameRecord],
) -> ([usize; mancala_core::MAX_MOVES + 1], Vec<(usize, usize)>) {
    let mut count_hist = [0usize; mancala_core::MAX_MOVES + 1];
    let mut by_ply: Vec<(usize, usize)> = Vec::new();
    for r in records {
        for (i, &b) in r.branching.iter().enumerate() {
            count_hist[b as usize] += 1;
            if by_ply.len() <= i {
                by_ply.push((0, 0));
            }
            by_ply[i].0 += 1;
            by_ply[i].1 += b as usize;
        }
    }
    (count_hist, by_ply)
}

/// log10 of the mean over games of the product of branching factors, without overflow.
fn product_estimate_log10(done: &[&GameRecord]) -> f64 {
    let logs: Vec<f64> = done
        .iter()
        .map(|r| r.branching.iter().map(|&b| (b as f64).log10()).sum())
        .collect();
    match logs.iter().copied().reduce(f64::max) {
        Some(top) => {
            let s: f64 = logs.iter().map(|&x| 10f64.powf(x - top)).sum();
            top + (s / logs.len() as f64).log10()
        }
        None => 0.0,
    }
}

fn mean(xs: impl Iterator<Item = f64>) -> f64 {
    let (s, n) = xs.fold((0.0, 0usize), |(s, n), x| (s + x, n + 1));
    if n == 0 { 0.0 } else { s / n as f64 }
}
