//! Properties of Progressive Mancala over random playouts on 1x11, 1x17 and small boards,
//! and the termination bound of relay sowing over random positions.

use std::collections::HashSet;

use mancala_core::game::{SplitMix, random_line};
use mancala_core::progressive::rules::MAX_TURN_MOVES;
use mancala_core::progressive::{Ending, Progressive, ProgressiveMove};
use mancala_core::{Game, Moves, Notation, Player, PositionText};
use proptest::prelude::*;
use proptest::test_runner::Config;

/// Longest playout allowed; random games are far shorter (at most 431 moves on 1x17 in
/// 50,000 games: `cargo run --release -p mancala-core --example progressive_random`).
const MAX_PLIES: usize = 20_000;

mod common;

fn config(cases: u32) -> Config {
    common::config(cases, 0x9A06)
}

/// A start position: the published boards most often, every odd size sometimes.
fn start() -> impl Strategy<Value = Progressive> {
    let n = prop_oneof![
        3 => Just(11usize),
        2 => Just(17usize),
        3 => (1usize..=8).prop_map(|h| 2 * h + 1),
    ];
    let ending = prop_oneof![3 => Just(Ending::Majority), 1 => Just(Ending::All)];
    (n, 1u8..=7, ending).prop_map(|(n, k, e)| {
        let k = k.min((255 / n) as u8);
        Progressive::start(n, k, e)
    })
}

/// Every state of a random playout from `g`, the start included.
fn playout(g: Progressive, seed: u64) -> Vec<Progressive> {
    random_line(g, &mut SplitMix(seed), MAX_PLIES)
}

fn conserved(g: &Progressive) -> u32 {
    g.holes().iter().map(|&x| x as u32).sum::<u32>()
        + g.goal() as u32
        + g.captured(Player::First)
        + g.captured(Player::Second)
}

proptest! {
    #![proptest_config(config(200))]

    #[test]
    fn playouts_keep_every_invariant(g0 in start(), seed in any::<u64>()) {
        let states = playout(g0, seed);
        let last = states.last().unwrap();
        prop_assert!(last.is_terminal(), "no end after {} plies", states.len());
        let total = g0.total();
        let mut seen = HashSet::new();
        let mut moves = Moves::new();
        for (ply, g) in states.iter().enumerate() {
            // Conservation.
            prop_assert_eq!(conserved(g), total, "ply {}", ply);
            prop_assert_eq!(g.total(), total);
            // No legal move exactly when the game is over.
            g.legal_moves(&mut moves);
            prop_assert_eq!(moves.is_empty(), g.is_terminal(), "ply {}", ply);
            // Mobility counts them without the list (proof-number search's start).
            prop_assert_eq!(g.mobility() as usize, moves.len(), "ply {}", ply);
            // The value lies within banked +- swing.
            prop_assert!(g.swing() >= 0);
            if g.is_terminal() {
                let v = g.terminal_value();
                prop_assert!((v - g.banked()).abs() <= g.swing());
                prop_assert!(
                    g.on_board() == 0
                        || (g.ending() == Ending::Majority
                            && (g.over_half(Player::First) || g.over_half(Player::Second)))
                );
            }
            // Turn counters.
            prop_assert!(g.moves_left() >= 1 && g.moves_left() <= MAX_TURN_MOVES);
            // Text round trip, equal states have equal keys.
            let back = Progressive::from_text(&g.to_text());
            prop_assert_eq!(back.as_ref(), Ok(g), "ply {}: {}", ply, g.to_text());
            prop_assert_eq!(back.unwrap().key(), g.key());
            // Notation round trip and determinism for every legal move.
            for &m in &moves {
                prop_assert_eq!(g.parse_move(&g.format_move(m)), Ok(m));
                prop_assert_eq!(g.why_illegal(m), None);
                let (a, s) = g.play_traced(m);
                let b = g.play(m);
                prop_assert_eq!(a, b);
                prop_assert_eq!(a.key(), b.key());
                prop_assert!(s.drops <= g.drop_bound());
            }
            // No full state repeats within a playout.
            prop_assert!(seen.insert(*g), "ply {}: state repeated: {}", ply, g.to_text());
        }
    }

    #[test]
    fn random_positions_sow_within_the_bound(
        n in (1usize..=8).prop_map(|h| 2 * h + 1),
        cells in proptest::collection::vec(0u8..=40, 18),
        stores in (0u8..=30, 0u8..=30),
        west in any::<bool>(),
        ending in prop_oneof![Just(Ending::Majority), Just(Ending::All)],
    ) {
        // Any distribution of up to 255 stones over the holes and the goal.
        let mut holes = cells[..n].to_vec();
        let mut goal = cells[n];
        let mut budget = 255u32 - stores.0 as u32 - stores.1 as u32;
        for x in holes.iter_mut().chain(std::iter::once(&mut goal)) {
            *x = (*x as u32).min(budget) as u8;
            budget -= *x as u32;
        }
        if holes.iter().all(|&x| x == 0) {
            holes[0] = 1.min(budget) as u8;
            if holes[0] == 0 {
                goal = 0;
            }
        }
        let p = if west { Player::Second } else { Player::First };
        let g = Progressive::from_parts(&holes, goal, [stores.0, stores.1], p, 1, 0, ending)
            .unwrap();
        let mut moves = Moves::new();
        g.legal_moves(&mut moves);
        for &m in &moves {
            let (next, s) = g.play_traced(m);
            prop_assert!(s.drops <= g.drop_bound(), "{} {:?}", g.to_text(), m);
            prop_assert_eq!(conserved(&next), g.total());
        }
    }

    #[test]
    fn bad_moves_are_errors_not_panics(g0 in start(), seed in any::<u64>(), text in "\\PC{0,3}") {
        let states = playout(g0, seed);
        let g = states[states.len() / 2];
        if let Ok(m) = g.parse_move(&text) {
            prop_assert_eq!(g.format_move(m), text.trim());
            if g.holes()[m.0 as usize] == 0 {
                prop_assert!(g.why_illegal(m).is_some());
            }
        }
        prop_assert!(g.why_illegal(ProgressiveMove(g.holes_per_row() as u8)).is_some());
        let _ = Progressive::from_text(&text);
    }
}

/// A random position of `t` stones on 1 x `n` (each stone in a hole or the goal, the
/// player to move at random), or `None` when every hole is empty.
fn dense_position(rng: &mut SplitMix, n: usize, t: u32) -> Option<Progressive> {
    let mut cells = vec![0u8; n + 1];
    for _ in 0..t {
        cells[rng.below(n + 1)] += 1;
    }
    if cells[..n].iter().all(|&x| x == 0) {
        return None;
    }
    let p = Player::from_index(rng.below(2));
    Some(Progressive::from_parts(&cells[..n], cells[n], [0, 0], p, 1, 0, Ending::All).unwrap())
}

/// Many random positions on the published boards, densely filled: every move ends within
/// (n + 1)(T - goal + 1) drops, and the longest relay chains stay far below it.
#[test]
fn every_move_of_many_random_positions_terminates_within_the_bound() {
    let mut rng = SplitMix(2004);
    let mut most = [0u32; 2];
    for round in 0..20_000 {
        let (n, t) = [(11, 55), (17, 85)][round % 2];
        let Some(g) = dense_position(&mut rng, n, t) else {
            continue;
        };
        let mut moves = Moves::new();
        g.legal_moves(&mut moves);
        for &m in &moves {
            let (next, s) = g.play_traced(m);
            assert!(s.drops <= g.drop_bound(), "{} {m:?}", g.to_text());
            assert_eq!(conserved(&next), t);
            most[round % 2] = most[round % 2].max(s.laps);
        }
    }
    assert!(most[0] < 200 && most[1] < 300, "{most:?}");
}

#[test]
fn playouts_never_repeat_a_full_state_on_the_published_boards() {
    for (n, seeds) in [(11, 300u64), (17, 100)] {
        for seed in 0..seeds {
            for ending in [Ending::Majority, Ending::All] {
                let states = playout(Progressive::start(n, 5, ending), seed);
                assert!(states.last().unwrap().is_terminal());
                let set: HashSet<Progressive> = states.iter().copied().collect();
                assert_eq!(set.len(), states.len(), "1x{n} seed {seed}");
                if ending == Ending::Majority {
                    // (Under `all` keys leave the stores out on purpose.)
                    let keys: HashSet<u64> = states.iter().map(|g| g.key()).collect();
                    assert_eq!(keys.len(), states.len(), "1x{n} seed {seed}: key collision");
                }
            }
        }
    }
}

/// Every position reachable from the start, by depth-first search: (positions, whether a
/// move leads back to a position on the current path).
fn explore(start: Progressive) -> (usize, bool) {
    use std::collections::HashMap;
    // 1 = on the current path, 2 = finished.
    let mut state: HashMap<Progressive, u8> = HashMap::new();
    let mut stack: Vec<(Progressive, Moves<ProgressiveMove>, usize)> = Vec::new();
    let open = |g: Progressive| {
        let mut ms = Moves::new();
        if !g.is_terminal() {
            g.legal_moves(&mut ms);
        }
        (g, ms, 0)
    };
    state.insert(start, 1);
    stack.push(open(start));
    while let Some((g, ms, i)) = stack.last_mut() {
        if *i == ms.len() {
            state.insert(*g, 2);
            stack.pop();
            continue;
        }
        let next = g.play(ms[*i]);
        *i += 1;
        match state.get(&next) {
            Some(1) => return (state.len(), true),
            Some(_) => {}
            None => {
                state.insert(next, 1);
                stack.push(open(next));
            }
        }
    }
    (state.len(), false)
}

/// The full game graph (holes, goal, stores, side, moves left, bonus moves earned) has no
/// cycle on small boards, under both endings. Larger boards (up to 1x7 with 2 stones a
/// hole): `cargo run --release -p mancala-core --example progressive_graph`.
#[test]
fn the_full_game_graph_is_acyclic_on_small_boards() {
    let mut sizes = Vec::new();
    for (n, k) in [(3, 1), (3, 2), (3, 3), (5, 1)] {
        for ending in [Ending::Majority, Ending::All] {
            let (positions, cycle) = explore(Progressive::start(n, k, ending));
            assert!(!cycle, "1x{n}, {k} a hole, {ending:?}");
            sizes.push(positions);
        }
    }
    assert_eq!(sizes, vec![39, 45, 153, 203, 259, 598, 5939, 7089]);
}

/// The figures of the termination argument in `docs/rules-progressive.md`.
#[test]
fn the_documented_bounds() {
    assert_eq!(Progressive::standard().drop_bound(), 672);
    assert_eq!(
        Progressive::start(17, 5, Ending::Majority).drop_bound(),
        1548
    );
    // T + (T + 1)(n - 1)T with T = 255, n = 17: about 1.04 million.
    assert_eq!(MAX_TURN_MOVES as u64, 255 + 256 * 16 * 255);
}
