//! Checkpoints: a solve saved and loaded into another solver (of another table size)
//! resumes with the same values and little work; a damaged file or one of another solve
//! is refused.

use mancala_core::kalah::Kalah;
use mancala_core::{Game, PositionText};
use mancala_solver::checkpoint::{self, CheckpointError};
use mancala_solver::{Config, Solver};

fn solver(tt_mb: usize, threads: usize) -> Solver {
    Solver::new(Config {
        threads,
        tt_mb,
        ..Config::default()
    })
}

fn temp(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("mancala-ckpt-{name}-{}", std::process::id()))
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
    std::fs::remove_file(&path).unwrap();
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
    std::fs::remove_file(&path).unwrap();
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
    std::fs::remove_file(&path).unwrap();
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
