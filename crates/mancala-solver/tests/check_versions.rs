//! Disproof checks saved by earlier builds, read and finished by this one. Each file in
//! `tests/data` is the first save of the check of `mancala prove kalah:4x4 --at-least 4
//! --tt-mb 1 --repair-mb 1 --checkpoint FILE --checkpoint-minutes 0.00001` (Kalah(4,4)
//! is worth +2, so the answer is "no"), gzipped:
//!
//! - `check-v1-…`: the release build of 87494a1, layout version 1 (a set built whole);
//! - `check-v2-…`: the release build of 98e1a15 with `--check-split 3`, version 2 (a set
//!   in parts, without the number of parts, which version 3 added).
//!
//! - `proof-v2-…`: the search's checkpoint of `mancala prove kalah:3x3 --at-least 2
//!   --tt-mb 1 --checkpoint FILE` ("yes"), the release build of a5152e3: version 2, the
//!   table's four 16-byte entries a bucket.
//!
//! Kept as they were written (2026-12-01), so that a change of the layout that forgets
//! the older versions fails here rather than in a user's week-long run.

mod common;

use std::io::Read;
use std::path::Path;

use mancala_core::kalah::{Kalah, Rules};
use mancala_core::{Player, PositionText};
use mancala_solver::on_search_stack;
use mancala_solver::proof::{
    CheckInputs, Checked, DisproofCheck, Goal, INFINITE, Limits, ProofSearch, ProofTable, Repair,
    Step, StretchedCheck, Verdict, load_disproof_check, load_proof, proof_key,
};

const GOAL: Goal = Goal {
    attacker: Player::First,
    at_least: 4,
};

fn root() -> Kalah {
    Kalah::start(4, 4, Rules::default())
}

/// The question as the command line names it in the file.
fn label() -> String {
    format!("{} [does South end with at least +4?]", root().to_text())
}

/// The fixture `name`, unpacked into a directory of its own (removed when the guard is
/// dropped).
fn unpacked(name: &str) -> common::TempPath {
    let packed = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name);
    let mut bytes = Vec::new();
    flate2::read::GzDecoder::new(std::fs::File::open(&packed).unwrap())
        .read_to_end(&mut bytes)
        .unwrap();
    let path = common::temp_path(name, "check");
    std::fs::write(&path, bytes).unwrap();
    path
}

/// Reads the fixture `name`, checks what was saved against `saved_as`, then finishes the
/// check from it (with this build's search table for the same question and the file's
/// repairs' table, the set in parts below `split` plies as the command had it) and
/// returns what it had looked at when saved and at the end.
fn finished(name: &str, split: Option<u32>, saved_as: impl Fn(&Checked)) -> (Checked, Checked) {
    let path = unpacked(name);
    let saved = load_disproof_check(&path, &label(), &root()).unwrap();
    saved_as(&saved.checked);
    // Another question's label is refused, whatever the version.
    assert!(load_disproof_check(&path, "another", &root()).is_err());
    let table = ProofTable::with_mb(1);
    let out = ProofSearch::new(&table, GOAL, Limits::default()).run(&root());
    assert_eq!(out.verdict, Verdict::Disproven);
    let mut side = saved.repair_table.expect("the command checks with repairs");
    let inputs = CheckInputs {
        goal: GOAL,
        table: &table,
        oracle: None,
        repair: Some(Repair {
            nodes: 1_000_000,
            table: &mut side,
        }),
        report: &mut |_| {},
        stop: None,
        split,
        helpers: Vec::new(),
    };
    let mut check = DisproofCheck::new(&root(), inputs).resumed(saved.state);
    let Step::Done(found) = check.run(None) else {
        unreachable!("a check without a pause runs to its end")
    };
    (
        saved.checked,
        found.expect("the saved check finishes and holds"),
    )
}

/// Version 1: the set whole, every position looked at still held, no parts.
#[test]
fn a_check_saved_by_version_1_is_read_and_finished() {
    on_search_stack(|| {
        let (saved, end) = finished("check-v1-kalah-4x4-at-least-4.gz", None, |c| {
            assert!(c.positions >= 1024, "saved after a clock reading: {c:?}");
            assert_eq!((c.held, c.parts), (c.positions, 0), "{c:?}");
        });
        assert!(end.positions > saved.positions, "{saved:?} {end:?}");
        assert_eq!((end.held, end.parts), (end.positions, 0), "{end:?}");
    });
}

/// Version 2: a set in parts below 3 plies; the number of parts, which the file did not
/// keep, is taken from the parts left. Finished, every part is done and the set held
/// less than it looked at.
#[test]
fn a_check_saved_by_version_2_is_read_and_finished() {
    on_search_stack(|| {
        let (saved, end) = finished("check-v2-kalah-4x4-at-least-4.gz", Some(3), |c| {
            assert!(c.positions >= 1024, "saved after a clock reading: {c:?}");
            assert!(c.parts > 0 && c.parts_done < c.parts, "{c:?}");
            assert!(c.held <= c.positions, "{c:?}");
        });
        assert!(end.positions > saved.positions, "{saved:?} {end:?}");
        assert!(
            end.parts >= saved.parts && end.parts_done == end.parts,
            "{end:?}"
        );
        assert!(end.held < end.positions, "{end:?}");
    });
}

/// The search's checkpoint of version 2: its 16-byte entries read into this build's
/// table, at its size and in a larger and a smaller one; the root's entry, a proof, is
/// found (a misread key or number would lose or change it), and the search run again from
/// that table answers at once.
#[test]
fn a_search_checkpoint_of_version_2_is_read_with_its_root_proven() {
    on_search_stack(|| {
        let root = Kalah::start(3, 3, Rules::default());
        let label = format!("{} [does South end with at least +2?]", root.to_text());
        let path = unpacked("proof-v2-kalah-3x3-at-least-2.gz");
        for mb in [None, Some(4), Some(0)] {
            let saved = load_proof(&path, &label, mb).unwrap();
            assert!(saved.wide && saved.nodes > 0, "{mb:?}");
            assert_eq!(
                saved.table.get(proof_key(&root)),
                Some((0, INFINITE)),
                "{mb:?}"
            );
            let table = saved.table;
            let goal = Goal {
                attacker: Player::First,
                at_least: 2,
            };
            let out = ProofSearch::new(&table, goal, Limits::default()).run(&root);
            assert_eq!((out.verdict, out.nodes), (Verdict::Proven, 0), "{mb:?}");
        }
    });
}
