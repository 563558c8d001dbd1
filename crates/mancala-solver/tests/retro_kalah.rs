//! Kalah endgame databases against independent forward search: every entry of whole
//! classes, both capture rules, both solving methods; the oracle inside the solver; a
//! damaged file refused.

mod common;

use std::collections::HashMap;

use mancala_core::index::Indexed;
use mancala_core::kalah::index::SeedsInPlay;
use mancala_core::kalah::{Capture, Kalah, Rules};
use mancala_core::{Game, Moves, Player, PositionText};
use mancala_solver::minimax::minimax;
use mancala_solver::retro::db::Quiet;
use mancala_solver::retro::{Database, DbError, Method};
use mancala_solver::{Config, Solver};

fn classes(m: u8, k: u8, capture: Capture) -> Vec<SeedsInPlay> {
    (2..=k)
        .map(|seeds| SeedsInPlay { m, seeds, capture })
        .collect()
}

/// The file `name` in a temporary directory of its own, removed (with the build's
/// `.partial` directory beside the file) when the guard is dropped.
fn temp(name: &str) -> common::TempPath {
    common::temp_path(&format!("kalah-test-{name}"), name)
}

/// Plain negamax over the game tree, memoised on (holes, side to move): the value still
/// to be won, relative to the stores, found without any index or retrograde step.
fn forward(g: &Kalah, memo: &mut HashMap<u128, i32>) -> i32 {
    if g.is_terminal() {
        return g.terminal_value() - g.banked();
    }
    // Holes a byte each (2 x 6 at most here), then the side to move.
    let key = g
        .holes()
        .iter()
        .fold(g.to_move().index() as u128, |k, &x| k << 8 | x as u128);
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let mut moves = Moves::new();
    g.legal_moves(&mut moves);
    let mut best = i32::MIN;
    for &mv in &moves {
        let c = g.play(mv);
        let v = c.banked() + forward(&c, memo);
        best = best.max(if c.to_move() == g.to_move() { v } else { -v });
    }
    let rel = best - g.banked();
    memo.insert(key, rel);
    rel
}

/// North to move, with stores: the twin of a representative, numbered alike.
fn twin(g: &Kalah, stores: [u8; 2]) -> Kalah {
    let m = g.holes_per_row();
    let h = g.holes();
    let swapped: Vec<u8> = h[m..].iter().chain(&h[..m]).copied().collect();
    Kalah::from_parts(&swapped, stores, Player::Second, g.rules()).unwrap()
}

#[test]
fn every_entry_equals_forward_search_up_to_10_seeds() {
    // Kalah(6,·)'s 10-seed class under the published rule; Kalah(4,·) under both.
    for (m, capture) in [
        (4u8, Capture::Empty),
        (4, Capture::Standard),
        (6, Capture::Empty),
    ] {
        let k = 10u8;
        let mut db = Database::<Kalah>::empty("kalah", "test");
        let stats = db.solve(&classes(m, k, capture), &Quiet);
        assert!(
            stats.iter().all(|s| s.sweeps == 1),
            "acyclic: one pass each"
        );
        let mut memo = HashMap::new();
        let mut checked = 0;
        for c in classes(m, k, capture) {
            for i in 0..Kalah::class_size(&c) {
                let g = Kalah::from_index(&c, i);
                let truth = forward(&g, &mut memo);
                assert_eq!(db.value(&g), Some(truth), "{}", g.to_text());
                // The twin with North to move and seeds in the stores.
                let t = twin(&g, [3, 1]);
                assert_eq!(db.value(&t), Some(t.banked() + truth), "{}", t.to_text());
                checked += 1;
            }
        }
        assert_eq!(
            checked,
            (2..=k)
                .map(|s| Kalah::class_size(&SeedsInPlay {
                    m,
                    seeds: s,
                    capture
                }))
                .sum::<u64>()
        );
    }
}

#[test]
fn single_pass_and_sweeps_give_the_same_tables() {
    for capture in [Capture::Empty, Capture::Standard] {
        let all = classes(3, 9, capture);
        let mut a = Database::<Kalah>::empty("kalah", "test");
        a.method = Method::SinglePass;
        let sa = a.solve(&all, &Quiet);
        let mut b = Database::<Kalah>::empty("kalah", "test");
        b.method = Method::Sweeps;
        let sb = b.solve(&all, &Quiet);
        assert!(sb.iter().any(|s| s.sweeps > 2), "sweeps were used");
        assert!(sa.iter().all(|s| s.sweeps == 1));
        for c in &all {
            for i in 0..Kalah::class_size(c) {
                let g = Kalah::from_index(c, i);
                assert_eq!(a.value(&g), b.value(&g), "{}", g.to_text());
            }
        }
    }
}

#[test]
fn entries_equal_plain_minimax_and_the_solver_on_kalah_6() {
    let (m, k) = (6u8, 8u8);
    for capture in [Capture::Empty, Capture::Standard] {
        let mut db = Database::<Kalah>::empty("kalah", "test");
        db.solve(&classes(m, k, capture), &Quiet);
        let c = SeedsInPlay {
            m,
            seeds: k,
            capture,
        };
        let n = Kalah::class_size(&c);
        let solver = Solver::new(Config {
            threads: 1,
            tt_mb: 8,
            all_moves: false,
            ..Config::default()
        });
        let mut checked = 0;
        for i in (0..n).step_by((n / 150) as usize) {
            let g = Kalah::from_index(&c, i);
            let t = twin(&g, [7, 2]);
            let want = db.value(&t).unwrap();
            if let Some(v) = minimax(&t, 200_000) {
                assert_eq!(v, want, "{}", t.to_text());
                checked += 1;
            }
            assert_eq!(solver.solve(&t).unwrap().value, want, "{}", t.to_text());
        }
        assert!(
            checked > 50,
            "only {checked} positions small enough for minimax"
        );
        // With the database as its oracle the solver finds the start's value of a small
        // board all the same.
        let start = Kalah::start(3, 3, Rules { capture });
        let mut small = Database::<Kalah>::empty("kalah", "test");
        small.solve(&classes(3, 12, capture), &Quiet);
        let plain = solver.solve(&start).unwrap().value;
        let with = solver.solve_with(&start, Some(&small)).unwrap().value;
        assert_eq!(with, plain);
    }
}

/// A database extended from a smaller file holds nothing in its own memory once built:
/// the classes it shares with the smaller file and those it solved are all read from the
/// file it wrote, which is byte for byte the file a build from nothing writes.
#[test]
fn an_extended_database_is_its_file_mapped() {
    let (small_path, path, fresh_path) = (temp("ext-6.db"), temp("ext-8.db"), temp("fresh-8.db"));
    let all = classes(4, 8, Capture::Empty);
    Database::<Kalah>::build(&small_path, "kalah", "standard", "test", &all[..5], &Quiet).unwrap();
    let small = Database::<Kalah>::load(&small_path, "kalah", "standard", &all[..5]).unwrap();
    let (grown, solved) = Database::<Kalah>::extend(&path, &small, "test", &all, &Quiet).unwrap();
    assert_eq!(solved.len(), 2, "only the 7- and 8-seed classes are solved");
    assert_eq!(grown.owned_bytes(), 0);
    let (fresh, _) =
        Database::<Kalah>::build(&fresh_path, "kalah", "standard", "test", &all, &Quiet).unwrap();
    assert_eq!(
        std::fs::read(&path).unwrap(),
        std::fs::read(&fresh_path).unwrap()
    );
    for c in &all {
        for i in (0..Kalah::class_size(c)).step_by(7) {
            let g = Kalah::from_index(c, i);
            assert_eq!(grown.value(&g), fresh.value(&g), "{c:?} {i}");
        }
    }
    let mut in_memory = Database::<Kalah>::empty("kalah", "standard");
    in_memory.solve(&all, &Quiet);
    assert!(in_memory.owned_bytes() == in_memory.positions() && in_memory.positions() > 0);
}

#[test]
fn a_flipped_byte_is_detected_and_the_file_refused() {
    let all = classes(4, 8, Capture::Empty);
    let path = temp("flip.db");
    let (built, _) =
        Database::<Kalah>::build(&path, "kalah", "standard", "test", &all, &Quiet).unwrap();
    let good = Database::<Kalah>::load(&path, "kalah", "standard", &all).unwrap();
    assert_eq!(good.positions(), built.positions());
    let g = Kalah::from_index(&all[6], 17);
    assert_eq!(good.value(&g), built.value(&g));
    let bytes = std::fs::read(&path).unwrap();
    // Flip one byte in the values of a middle class, and one in the metadata.
    let at = bytes.len() - (Kalah::class_size(&all[6]) / 2) as usize;
    let mut bad = bytes.clone();
    bad[at] ^= 0x01;
    std::fs::write(&path, &bad).unwrap();
    match Database::<Kalah>::load(&path, "kalah", "standard", &all) {
        Err(DbError::Checksum { class, .. }) => assert!(class.contains("seeds in play")),
        other => panic!("a damaged value was not detected: {:?}", other.err()),
    }
    let mut bad = bytes.clone();
    let brace = bytes.iter().position(|&b| b == b'{').unwrap();
    bad[brace + 3] ^= 0x20;
    std::fs::write(&path, &bad).unwrap();
    assert!(Database::<Kalah>::load(&path, "kalah", "standard", &all).is_err());
    let mut cut = bytes.clone();
    cut.pop();
    std::fs::write(&path, &cut).unwrap();
    assert!(matches!(
        Database::<Kalah>::load(&path, "kalah", "standard", &all),
        Err(DbError::Format { .. })
    ));
}
