//! Checkpoints: a solve saved and loaded into another solver (of another table size)
//! resumes with the same values and little work, a solve stopped inside its exact search
//! resumes with the null-window test it had under way; a damaged file or one of another
//! solve is refused.

mod common;

use mancala_core::kalah::{Kalah, Rules as KalahRules};
use mancala_core::{Game, PositionText};
use std::sync::atomic::Ordering;

use mancala_solver::checkpoint::{self, CheckpointError};
use mancala_solver::{Bracket, Config, Progress, Proven, Solver};

fn solver(tt_mb: usize, threads: usize) -> Solver {
    Solver::new(Config {
        threads,
        tt_mb,
        ..Config::default()
    })
}

/// A checkpoint file in a temporary directory of its own, removed when the guard is
/// dropped.
fn temp(name: &str) -> common::TempPath {
    common::temp_path(&format!("ckpt-{name}"), "checkpoint")
}

fn start() -> Kalah {
    Kalah::from_text(
        "kalah south:3,3,3,3,3 north:3,3,3,3,3 south-store:0 north-store:0 to-move:south",
    )
    .unwrap()
}

#[test]
fn a_saved_solve_resumes_in_another_solver_with_the_same_values() {
    let root = start();
    let first = solver(64, 1);
    let full = first.solve(&root).unwrap();
    let path = temp("resume");
    checkpoint::save(&first, &path, "5x3", full.nodes, full.seconds).unwrap();
    for (tt_mb, threads) in [(16, 1), (128, 2)] {
        let again = solver(tt_mb, threads);
        let saved = checkpoint::load(&again, &path, "5x3").unwrap();
        assert_eq!(saved.nodes, full.nodes);
        assert_eq!(saved.proven.value, Some(full.value));
        assert!(saved.proven.moves.iter().all(Option::is_some));
        let resumed = again.solve(&root).unwrap();
        assert_eq!((resumed.value, &resumed.moves), (full.value, &full.moves));
        assert!(
            resumed.nodes * 10 < full.nodes,
            "{} vs {}",
            resumed.nodes,
            full.nodes
        );
    }
}

#[test]
fn a_table_alone_resumes_a_root_not_yet_proven() {
    // Only the table of a solve of the root's value: the solve of every move reuses it.
    let root = start();
    let first = Solver::new(Config {
        all_moves: false,
        ..Config::default()
    });
    let value_only = first.solve(&root).unwrap();
    let path = temp("table");
    checkpoint::save(&first, &path, "t", 0, 0.0).unwrap();
    let again = solver(64, 1);
    checkpoint::load(&again, &path, "t").unwrap();
    let resumed = again.solve(&root).unwrap();
    let fresh = solver(64, 1).solve(&root).unwrap();
    assert_eq!(resumed.value, value_only.value);
    assert_eq!(resumed.moves, fresh.moves);
    assert!(
        resumed.nodes < fresh.nodes,
        "{} vs {}",
        resumed.nodes,
        fresh.nodes
    );
    // A different root does not take the proven values of another.
    let mut ms = mancala_core::Moves::new();
    root.legal_moves(&mut ms);
    let other = root.play(ms[0]);
    let o = again.solve(&other).unwrap();
    assert_eq!(o.value, solver(64, 1).solve(&other).unwrap().value);
}

#[test]
fn damaged_and_foreign_checkpoints_are_refused() {
    let root = start();
    let s = solver(16, 1);
    s.solve(&root).unwrap();
    let path = temp("damaged");
    checkpoint::save(&s, &path, "mine", 1, 1.0).unwrap();
    let fresh = solver(16, 1);
    let e = checkpoint::load(&fresh, &path, "yours").unwrap_err();
    assert!(matches!(e, CheckpointError::OtherSolve { .. }), "{e}");
    let mut bytes = std::fs::read(&path).unwrap();
    let n = bytes.len();
    bytes[n / 2] ^= 0x10;
    std::fs::write(&path, &bytes).unwrap();
    let e = checkpoint::load(&fresh, &path, "mine").unwrap_err();
    assert!(matches!(e, CheckpointError::Damaged { .. }), "{e}");
    assert_eq!(
        fresh.tt.stored_entries().count(),
        0,
        "a damaged file leaves no entry"
    );
    std::fs::write(&path, &bytes[..n - 20]).unwrap();
    assert!(checkpoint::load(&fresh, &path, "mine").is_err());
    std::fs::write(&path, b"not a checkpoint at all").unwrap();
    let e = checkpoint::load(&fresh, &path, "mine").unwrap_err();
    assert!(matches!(e, CheckpointError::NotACheckpoint { .. }), "{e}");
}

#[test]
fn roots_that_differ_only_in_their_stores_are_solved_each_with_its_own_margin() {
    // Kalah's key leaves the stores out: what a solver has proven of one root must be
    // shifted by the banked margin, not copied, for the other.
    let s = solver(16, 2);
    let text = |stores: (u8, u8)| {
        format!(
            "kalah south:1,0,2 north:0,1,1 south-store:{} north-store:{} to-move:north",
            stores.0, stores.1
        )
    };
    for stores in [(1, 3), (7, 0), (0, 9)] {
        let root = Kalah::from_text(&text(stores)).unwrap();
        let fresh = solver(16, 1).solve(&root).unwrap();
        let reused = s.solve(&root).unwrap();
        assert_eq!(
            (reused.value, &reused.moves),
            (fresh.value, &fresh.moves),
            "{stores:?}"
        );
    }
}

#[test]
fn a_solve_resumed_inside_its_exact_search_goes_on_with_the_saved_test() {
    // Brackets as a stopped search leaves them: proven bounds around the value and a test
    // under way anywhere inside them. The resumed solve keeps the bounds, starts with that
    // test, and ends with the fresh values.
    let root = start();
    let fresh = solver(64, 1).solve(&root).unwrap();
    let v = fresh.value;
    let (lo, hi) = root.value_range();
    let mut ms = mancala_core::Moves::new();
    root.legal_moves(&mut ms);
    for (lower, upper, beta) in [
        (lo, hi, hi),
        (lo, hi, lo + 1),
        (v - 3, v + 5, v + 1),
        (v, v + 2, v + 1),
    ] {
        let b = Bracket {
            lower: lower.max(lo),
            upper: upper.min(hi),
            beta,
        };
        let s = solver(32, 2);
        s.resume(Proven {
            root: mancala_solver::root_fingerprint(&root, &[], ms.len()),
            value: None,
            moves: vec![None; ms.len()],
            value_bracket: Some(b.shifted(-root.banked())),
            move_brackets: vec![None; ms.len()],
        });
        let resumed = s.solve(&root).unwrap();
        assert_eq!((resumed.value, &resumed.moves), (v, &fresh.moves), "{b:?}");
        let proven = s.proven();
        assert_eq!(
            proven.value_bracket, None,
            "a proven value leaves no bracket"
        );
        assert!(proven.move_brackets.iter().all(Option::is_none));
    }
    // The same for the searches of the root moves, the root value being proven.
    for threads in [1, 2] {
        let s = solver(32, threads);
        let move_brackets = ms
            .iter()
            .zip(&fresh.moves)
            .map(|(&m, &(_, mv))| {
                let c = root.play(m);
                let v = if c.to_move() == root.to_move() {
                    mv
                } else {
                    -mv
                };
                let (lo, hi) = c.value_range();
                let b = Bracket {
                    lower: lo.max(v - 4),
                    upper: hi,
                    beta: hi.min(v + 2),
                };
                Some(b.shifted(-c.banked()))
            })
            .collect();
        s.resume(Proven {
            root: mancala_solver::root_fingerprint(&root, &[], ms.len()),
            value: Some(v - root.banked()),
            moves: vec![None; ms.len()],
            value_bracket: None,
            move_brackets,
        });
        let resumed = s.solve(&root).unwrap();
        assert_eq!(
            (resumed.value, &resumed.moves),
            (v, &fresh.moves),
            "{threads} threads"
        );
        assert!(s.proven().move_brackets.iter().all(Option::is_none));
    }
}

#[test]
fn a_stopped_solve_saves_the_test_under_way_and_resumes_it() {
    // Kalah(6,4) runs far longer than the test waits: it is stopped during its first
    // null-window test, whose bracket the checkpoint keeps.
    let root = Kalah::start(6, 4, KalahRules::default());
    let s = solver(16, 2);
    let stopped = std::thread::scope(|scope| {
        let run = scope.spawn(|| s.solve(&root));
        while s.progress.testing.load(Ordering::Relaxed) == Progress::NO_TEST {
            std::thread::yield_now();
        }
        s.progress.stop.store(true, Ordering::Relaxed);
        run.join().unwrap()
    });
    assert!(stopped.is_none(), "Kalah(6,4) solved before it was stopped");
    let proven = s.proven();
    assert_eq!(proven.value, None);
    let b = proven
        .value_bracket
        .expect("the test under way is recorded");
    assert!(b.lower < b.beta && b.beta <= b.upper, "{b:?}");
    let path = temp("bracket");
    checkpoint::save(&s, &path, "6x4", 1, 1.0).unwrap();
    let again = solver(16, 1);
    let saved = checkpoint::load(&again, &path, "6x4").unwrap();
    assert_eq!(saved.proven, proven);
    assert_eq!(again.proven(), proven);
}
