//! Uniformly random play of Progressive Mancala (reading A, `majority` ending) on 1 x 11 and
//! 1 x 17 from the start, with a fixed seed, and random full positions: the figures quoted
//! in `docs/rules-progressive.md`.
//!
//! `cargo run --release -p mancala-core --example progressive_random`

use std::collections::HashSet;

use mancala_core::game::SplitMix;
use mancala_core::progressive::{Ending, MoveEnd, Progressive};
use mancala_core::{Game, Moves, Player};

fn playouts(n: usize, games: u64, seed: u64) {
    let mut rng = SplitMix(seed);
    let mut moves = Moves::new();
    let (mut total_moves, mut most_moves) = (0u64, 0u64);
    let (mut total_turns, mut longest_turn) = (0u64, 0u64);
    let (mut empties, mut most_laps) = (0u64, 0u32);
    let mut recurring = 0u64;
    for _ in 0..games {
        let mut g = Progressive::start(n, 5, Ending::Majority);
        let (mut plies, mut turns, mut turn_len) = (0u64, 0u64, 0u64);
        // Board, goal, side and moves left, without the bonus count.
        let mut seen: HashSet<(Vec<u8>, u8, Player, u32)> = HashSet::new();
        let mut recurred = false;
        while !g.is_terminal() {
            if !seen.insert((g.holes().to_vec(), g.goal(), g.to_move(), g.moves_left())) {
                recurred = true;
            }
            g.legal_moves(&mut moves);
            let mover = g.to_move();
            let (next, s) = g.play_traced(moves[rng.below(moves.len())]);
            plies += 1;
            turn_len += 1;
            most_laps = most_laps.max(s.laps);
            empties += u64::from(matches!(s.end, MoveEnd::EmptyHole(_)));
            if next.is_terminal() || next.to_move() != mover {
                turns += 1;
                longest_turn = longest_turn.max(turn_len);
                turn_len = 0;
            }
            g = next;
        }
        recurring += u64::from(recurred);
        total_moves += plies;
        most_moves = most_moves.max(plies);
        total_turns += turns;
    }
    println!(
        "1x{n}, {games} games (seed {seed}): {:.1} moves a game on average (at most {most_moves}), \
         {:.1} turns, {:.2} moves a turn (at most {longest_turn}); {:.1} % of moves end in an \
         empty hole; longest move {most_laps} laps; board, goal, side and moves left recur \
         in {recurring} games",
        total_moves as f64 / games as f64,
        total_turns as f64 / games as f64,
        total_moves as f64 / total_turns as f64,
        100.0 * empties as f64 / total_moves as f64,
    );
}

/// Random full positions (all stones in the holes and the goal, either side to move):
/// every move ends, within `drop_bound()`.
fn random_positions(count: u32, seed: u64) {
    let mut rng = SplitMix(seed);
    let mut moves = Moves::new();
    let mut most_laps = [0u32; 2];
    let mut over_bound = 0;
    for round in 0..count {
        let (n, t) = [(11, 55), (17, 85)][round as usize % 2];
        let mut cells = vec![0u8; n + 1];
        for _ in 0..t {
            cells[rng.below(n + 1)] += 1;
        }
        if cells[..n].iter().all(|&x| x == 0) {
            continue;
        }
        let p = Player::from_index(rng.below(2));
        let g = Progressive::from_parts(&cells[..n], cells[n], [0, 0], p, 1, 0, Ending::All)
            .expect("a valid position");
        g.legal_moves(&mut moves);
        for &m in &moves {
            let (_, s) = g.play_traced(m);
            over_bound += u32::from(s.drops > g.drop_bound());
            most_laps[round as usize % 2] = most_laps[round as usize % 2].max(s.laps);
        }
    }
    println!(
        "{count} random full positions (seed {seed}): every move ended; longest {} laps on \
         1x11, {} on 1x17; moves over the drop bound: {over_bound}",
        most_laps[0], most_laps[1]
    );
}

fn main() {
    playouts(11, 100_000, 1);
    playouts(17, 50_000, 2);
    random_positions(400_000, 3);
}
