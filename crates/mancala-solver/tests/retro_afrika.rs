//! Retrograde tables against minimax and alpha-beta, the database file's safety (checksums,
//! resumable builds ending byte-identical) and the oracle.

mod common;

use mancala_core::PositionText;
use mancala_core::afrika::Afrika;
use mancala_core::afrika::index::StonesOnBoard;
use mancala_core::index::Indexed;
use mancala_solver::minimax::minimax;
use mancala_solver::retro::db::{BuildObserver, Quiet, partial_dir};
use mancala_solver::retro::{Database, DbError, LayerStats};
use mancala_solver::{Config, Solver, on_search_stack};

fn classes(m: u8, k: u8) -> Vec<StonesOnBoard> {
    (0..=k).map(|stones| StonesOnBoard { m, stones }).collect()
}

/// The file `name` in a temporary directory of its own, removed (with the build's
/// `.partial` directory beside the file) when the guard is dropped.
fn temp(name: &str) -> common::TempPath {
    common::temp_path(&format!("retro-test-{name}"), name)
}

#[test]
fn tables_equal_minimax_on_every_small_position() {
    on_search_stack(|| {
        for (m, k) in [(1u8, 8u8), (2, 6), (3, 5)] {
            let mut db = Database::<Afrika>::empty("afrika", "standard");
            db.solve(&classes(m, k), &Quiet);
            let (mut checked, mut total) = (0, 0);
            for c in classes(m, k) {
                for i in 0..Afrika::class_size(&c) {
                    total += 1;
                    let g = Afrika::from_index(&c, i);
                    let Some(truth) = minimax(&g, 50_000) else {
                        continue;
                    };
                    assert_eq!(db.value(&g), Some(truth), "{}", g.to_text());
                    checked += 1;
                }
            }
            assert!(
                2 * checked > total,
                "2x{m}: only {checked} of {total} positions small enough"
            );
        }
    });
}

#[test]
fn tables_equal_the_alpha_beta_solver_and_serve_as_its_oracle() {
    let m = 3;
    let k = 7;
    let mut db = Database::<Afrika>::empty("afrika", "standard");
    db.solve(&classes(m, k), &Quiet);
    let solver = Solver::new(Config {
        threads: 2,
        tt_mb: 16,
        all_moves: false,
        ..Config::default()
    });
    let c = StonesOnBoard { m, stones: k };
    let n = Afrika::class_size(&c);
    for i in (0..n).step_by((n / 300).max(1) as usize) {
        let g = Afrika::from_index(&c, i);
        let plain = solver.solve(&g).unwrap().value;
        assert_eq!(db.value(&g), Some(plain), "{}", g.to_text());
        let with = solver.solve_with(&g, Some(&db)).unwrap().value;
        assert_eq!(with, plain, "{}", g.to_text());
    }
}

#[test]
fn database_files_round_trip_resume_and_detect_damage() {
    let (m, k) = (2u8, 6u8);
    let all = classes(m, k);
    // A fresh build.
    let a = temp("a.db");
    let (db, stats) =
        Database::<Afrika>::build(&a, "afrika", "standard", "test", &all, &Quiet).unwrap();
    assert_eq!(stats.len(), all.len());
    assert!(!partial_dir(&a).exists());
    let loaded = Database::<Afrika>::load(&a, "afrika", "standard", &all).unwrap();
    assert_eq!(loaded.header, db.header);
    // An interrupted build: killed (here: a panic) right after its fourth class was saved,
    // with a fifth class file cut short.
    struct KillAfter(usize);
    impl BuildObserver for KillAfter {
        fn done(&self, k: usize, _name: &str, solved: Option<&LayerStats>) {
            if solved.is_some() && k + 1 == self.0 {
                panic!("killed");
            }
        }
    }
    let b = temp("b.db");
    let killed = std::panic::catch_unwind(|| {
        Database::<Afrika>::build(&b, "afrika", "standard", "test", &all, &KillAfter(4)).map(|_| ())
    });
    assert!(killed.is_err());
    assert!(!b.exists());
    std::fs::write(partial_dir(&b).join("class-004.bin"), b"cut short").unwrap();
    let (_, resumed) =
        Database::<Afrika>::build(&b, "afrika", "standard", "test", &all, &Quiet).unwrap();
    assert_eq!(
        resumed.len(),
        all.len() - 4,
        "only the unfinished classes are solved again"
    );
    assert_eq!(
        std::fs::read(&a).unwrap(),
        std::fs::read(&b).unwrap(),
        "byte-identical after resuming"
    );
    // Damage is detected on load.
    let mut bytes = std::fs::read(&a).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    let d = temp("d.db");
    std::fs::write(&d, &bytes).unwrap();
    match Database::<Afrika>::load(&d, "afrika", "standard", &all) {
        Err(DbError::Checksum { .. }) => {}
        Err(e) => panic!("wrong error: {e}"),
        Ok(_) => panic!("damage not detected"),
    }
    // A wrong game or scope is refused with a clear error.
    let e = Database::<Afrika>::load(&a, "kauri", "standard", &all)
        .err()
        .unwrap();
    assert!(e.to_string().contains("not kauri"), "{e}");
    let e = Database::<Afrika>::load(&a, "afrika", "standard", &all[..3])
        .err()
        .unwrap();
    assert!(e.to_string().contains("expected"), "{e}");
}
