//! Alpha-beta (serial and parallel, with and without the table) against plain minimax
//! on random small Afrika positions, every rule variant.

mod common;

use common::serial;
use mancala_core::afrika::{Afrika, Ending, Repetition, Rules};
use mancala_core::game::SplitMix;
use mancala_core::{Game, Moves, Player};
use mancala_solver::minimax::{minimax, minimax_after};
use mancala_solver::search::Techniques;
use mancala_solver::tt::Table;
use mancala_solver::{Config, Solver, on_search_stack};

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

#[test]
fn alphabeta_equals_minimax_on_random_small_positions() {
    on_search_stack(random_small_positions);
}

fn random_small_positions() {
    let mut rng = SplitMix(2024);
    let mut checked = 0;
    let no_tt = Techniques {
        tt: false,
        ..Techniques::default()
    };
    let tt = Table::new(4);
    let mut tried = 0;
    while checked < 1500 {
        tried += 1;
        let g = random_position(&mut rng);
        let Some(truth) = minimax(&g, 200_000) else {
            continue;
        };
        assert_eq!(serial(&g, no_tt, &tt), truth, "no table: {g:?}");
        // A shared, warm table must never change a value.
        assert_eq!(
            serial(&g, Techniques::default(), &tt),
            truth,
            "table: {g:?}"
        );
        let etc = Techniques {
            etc_plies: 6,
            ..Techniques::default()
        };
        assert_eq!(serial(&g, etc, &tt), truth, "etc: {g:?}");
        if checked < 1000 {
            // Every technique switched off in turn gives the same value.
            for &off in Techniques::NAMES {
                let mut t = Techniques::default();
                assert!(t.switch_off(off));
                assert_eq!(serial(&g, t, &tt), truth, "without {off}: {g:?}");
            }
        }
        checked += 1;
    }
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
    let mut rng = SplitMix(77);
    let mut checked = 0;
    let solver = Solver::new(Config {
        threads: 2,
        tt_mb: 4,
        ..Config::default()
    });
    while checked < 300 {
        let g = random_position(&mut rng);
        let Some(truth) = minimax(&g, 100_000) else {
            continue;
        };
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
        checked += 1;
    }
}
