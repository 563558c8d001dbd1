//! Alpha-beta (serial and parallel, with and without the table) against plain minimax
//! on random small Afrika positions, every rule variant.

mod common;

use common::{Wants, serial, solver};
use mancala_core::afrika::{Afrika, Ending, Repetition, Rules};
use mancala_core::game::SplitMix;
use mancala_core::{Game, Moves, Player};
use mancala_solver::minimax::{minimax, minimax_after};
use mancala_solver::on_search_stack;
use mancala_solver::search::Techniques;
use mancala_solver::tt::Table;

fn random_position(rng: &mut SplitMix) -> Afrika {
    let m = 1 + rng.below(3);
    let stones = 1 + rng.below(2 * m + 3);
    let mut holes = vec![0u8; 2 * m];
    for _ in 0..stones {
        let i = rng.below(2 * m);
        holes[i] += 1;
    }
    let stores = [rng.below(4) as u8, rng.below(4) as u8];
    let to_move = if rng.below(2) == 0 {
        Player::First
    } else {
        Player::Second
    };
    let rules = Rules {
        ending: [Ending::Empty, Ending::Majority, Ending::GiveAway][rng.below(3)],
        repetition: [Repetition::Shared, Repetition::OwnSide][rng.below(2)],
        komi_half: 0,
    };
    Afrika::from_parts(&holes, stores, to_move, rules).unwrap()
}

/// Draws random positions (seeded by `seed`) until `count` of them are small enough for
/// minimax within `limit` nodes, and calls `check` with each of those, its minimax value
/// and how many were checked before it. Returns how many positions were drawn.
fn check_solvable_positions(
    seed: u64,
    count: usize,
    limit: u64,
    mut check: impl FnMut(Afrika, i32, usize),
) -> usize {
    let mut rng = SplitMix(seed);
    let (mut checked, mut tried) = (0, 0);
    while checked < count {
        tried += 1;
        let g = random_position(&mut rng);
        let Some(truth) = minimax(&g, limit) else {
            continue;
        };
        check(g, truth, checked);
        checked += 1;
    }
    tried
}

#[test]
fn alphabeta_equals_minimax_on_random_small_positions() {
    on_search_stack(random_small_positions);
}

fn random_small_positions() {
    let no_tt = Techniques {
        tt: false,
        ..Techniques::default()
    };
    let etc = Techniques {
        etc_plies: 6,
        ..Techniques::default()
    };
    // The test table is small: force the late peek on.
    let late = Techniques {
        late_peek_min_mb: 0,
        ..Techniques::default()
    };
    let tt = Table::new(4);
    let checked = 1500;
    let tried = check_solvable_positions(2024, checked, 200_000, |g, truth, before| {
        assert_eq!(serial(&g, no_tt, &tt), truth, "no table: {g:?}");
        // A shared, warm table must never change a value.
        assert_eq!(
            serial(&g, Techniques::default(), &tt),
            truth,
            "table: {g:?}"
        );
        assert_eq!(serial(&g, etc, &tt), truth, "etc: {g:?}");
        assert_eq!(serial(&g, late, &tt), truth, "late peek: {g:?}");
        if before < 1000 {
            // Every technique switched off in turn gives the same value.
            for &off in Techniques::NAMES {
                // The late peek on (the test tables are small), unless it is the one off.
                let mut t = late;
                assert!(t.switch_off(off));
                assert_eq!(serial(&g, t, &tt), truth, "without {off}: {g:?}");
            }
        }
    });
    assert!(
        tried < 3 * checked,
        "most random positions should be small enough"
    );
}

#[test]
fn parallel_solver_and_root_moves_agree_with_minimax() {
    on_search_stack(parallel_and_root_moves);
}

fn parallel_and_root_moves() {
    let solver = solver(2, 4, Wants::Everything);
    check_solvable_positions(77, 300, 100_000, |g, truth, _| {
        let s = solver.solve(&g).unwrap();
        assert_eq!(s.value, truth, "{g:?}");
        // Every root move's value agrees with a search of the child, and the best of them
        // is the root value.
        let mut ms = Moves::new();
        g.legal_moves(&mut ms);
        assert_eq!(s.moves.len(), ms.len());
        for &(m, v) in &s.moves {
            let c = g.play(m);
            // Under a history-dependent repetition rule the root is part of the child's past.
            let cv = if g.history_dependent() {
                minimax_after(&c, &[g], 1_000_000)
            } else {
                minimax(&c, 1_000_000)
            }
            .unwrap();
            assert_eq!(
                v,
                if c.to_move() == g.to_move() { cv } else { -cv },
                "{g:?} {m:?}"
            );
        }
        if !ms.is_empty() {
            assert_eq!(s.moves.iter().map(|x| x.1).max().unwrap(), s.value);
        }
        // The principal variation replays to the value.
        let mut p = g;
        for &m in &s.pv {
            p.legal_moves(&mut ms);
            assert!(ms.contains(&m));
            p = p.play(m);
        }
    });
}

#[test]
fn a_position_reached_after_a_line_is_solved_with_its_history() {
    on_search_stack(solved_with_history);
}

/// Under the own-side repetition rule a position's value depends on the positions before
/// it: `solve_after` (what `solve --ply` and `analyse` use on records) must agree with
/// minimax over the same history, root and root moves alike, and the test must meet
/// positions whose value the history changes.
fn solved_with_history() {
    let serial_pv = solver(1, 4, Wants::Pv);
    let solver = solver(2, 4, Wants::Everything);
    let mut rng = SplitMix(4242);
    let (mut checked, mut changed) = (0, 0);
    while checked < 300 {
        let start = random_position(&mut rng).with_rules(Rules {
            repetition: Repetition::OwnSide,
            ..Rules::default()
        });
        let mut before = vec![start];
        let mut g = start;
        let mut ms = Moves::new();
        for _ in 0..1 + rng.below(6) {
            g.legal_moves(&mut ms);
            if ms.is_empty() {
                break;
            }
            g = g.play(ms[rng.below(ms.len())]);
            before.push(g);
        }
        let root = before.pop().expect("the start at least");
        let Some(truth) = minimax_after(&root, &before, 100_000) else {
            continue;
        };
        if minimax(&root, 100_000) != Some(truth) {
            changed += 1;
        }
        let v = solver.value_after(&root, &before, 0, None).unwrap();
        assert_eq!(v, truth, "value: {root:?} after {before:?}");
        // Serial with a principal variation, then parallel with every root move.
        let s = serial_pv.solve_after(&root, &before, None).unwrap();
        assert_eq!(s.value, truth, "serial: {root:?} after {before:?}");
        let s = solver.solve_after(&root, &before, None).unwrap();
        assert_eq!(s.value, truth, "{root:?} after {before:?}");
        let after: Vec<Afrika> = before.iter().copied().chain([root]).collect();
        for &(m, v) in &s.moves {
            let c = root.play(m);
            let cv = minimax_after(&c, &after, 1_000_000).unwrap();
            let cv = if c.to_move() == root.to_move() {
                cv
            } else {
                -cv
            };
            assert_eq!(v, cv, "{root:?} {m:?} after {before:?}");
        }
        checked += 1;
    }
    assert!(changed > 0, "no position's value depended on its history");
    eprintln!("{changed} of {checked} values depended on the history");
}
