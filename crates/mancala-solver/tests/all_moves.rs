//! The value of every root move: on one thread (each move after the root's value, one
//! at a time) and on several (one move per thread, idle threads helping), against each
//! move's position solved on its own with a fresh table, with and without a Kalah
//! endgame database.

use mancala_core::Game;
use mancala_core::kalah::index::SeedsInPlay;
use mancala_core::kalah::{Capture, Kalah, Rules};
use mancala_core::{Moves, PositionText};
use mancala_solver::retro::db::Quiet;
use mancala_solver::retro::{Database, Oracle};
use mancala_solver::{Config, Solver, on_search_stack};

fn solver(threads: usize, all_moves: bool) -> Solver {
    Solver::new(Config {
        threads,
        tt_mb: 16,
        all_moves,
        ..Config::default()
    })
}

/// Each move's value for the root's player, every child solved alone.
fn one_by_one(root: &Kalah, oracle: Option<&dyn Oracle<Kalah>>) -> Vec<i32> {
    let mut ms = Moves::new();
    root.legal_moves(&mut ms);
    ms.iter()
        .map(|&m| {
            let c = root.play(m);
            let v = on_search_stack(|| {
                solver(1, false)
                    .value_after(&c, &[], c.banked(), oracle)
                    .unwrap()
            });
            if c.to_move() == root.to_move() { v } else { -v }
        })
        .collect()
}

fn check(root: &Kalah, oracle: Option<&dyn Oracle<Kalah>>) {
    let want = one_by_one(root, oracle);
    for threads in [1, 2, 3] {
        let s = solver(threads, true).solve_with(root, oracle).unwrap();
        let got: Vec<i32> = s.moves.iter().map(|m| m.1).collect();
        assert_eq!(got, want, "{threads} threads: {}", root.to_text());
        assert_eq!(s.value, *want.iter().max().unwrap(), "{}", root.to_text());
    }
}

#[test]
fn every_move_value_equals_its_position_solved_alone() {
    for (m, n) in [(4, 3), (5, 3), (3, 4)] {
        let start = Kalah::start(m, n, Rules::default());
        check(&start, None);
        // A position after a few moves, where some moves give an extra turn.
        let mut g = start;
        let mut ms = Moves::new();
        for k in 0..4 {
            if g.is_terminal() {
                break;
            }
            g.legal_moves(&mut ms);
            g = g.play(ms[k % ms.len()]);
        }
        if !g.is_terminal() {
            check(&g, None);
        }
    }
}

#[test]
fn every_move_value_with_a_database() {
    let rules = Rules {
        capture: Capture::Empty,
    };
    let classes: Vec<SeedsInPlay> = (2..=8)
        .map(|seeds| SeedsInPlay {
            m: 4,
            seeds,
            capture: rules.capture,
        })
        .collect();
    let mut db = Database::<Kalah>::empty("kalah", "empty-capture");
    db.solve(&classes, &Quiet);
    check(&Kalah::start(4, 3, rules), Some(&db));
    check(&Kalah::start(4, 4, rules), Some(&db));
}
