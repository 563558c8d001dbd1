//! The disproof check of a real "no", Kalah 6 x 3 "does South end with at least +4?"
//! (its value is +2), after a search in a table small enough that the check must repair
//! gaps: run at once, and in stretches each written to a file and read back into a new
//! check, it looks at the same positions and runs the same repairs; stopped by its stop
//! flag, saved and resumed, it still checks. The proof check of the "yes" to "at least
//! +2" likewise.

mod common;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use mancala_core::Player;
use mancala_core::kalah::{Kalah, Rules};
use mancala_solver::on_search_stack;
use mancala_solver::proof::{
    CheckError, CheckInputs, Checked, DisproofCheck, DisproofState, Goal, Limits, ProofCheck,
    ProofSearch, ProofTable, Repair, Step, StretchedCheck, Verdict, check_disproof, check_proof,
    load_disproof_check, load_proof_check,
};

const GOAL: Goal = Goal {
    attacker: Player::First,
    at_least: 4,
};

fn root() -> Kalah {
    Kalah::start(6, 3, Rules::default())
}

/// The search's table after its answer to `goal`: a table of 512 KB (65,536 entries),
/// which keeps little of it.
fn searched_for(goal: Goal, answer: Verdict) -> ProofTable {
    let table = ProofTable::with_words(1 << 16).unwrap().unwrap();
    let out = ProofSearch::new(&table, goal, Limits::default()).run(&root());
    assert_eq!(out.verdict, answer);
    table
}

/// The search's table after its "no".
fn searched() -> ProofTable {
    searched_for(GOAL, Verdict::Disproven)
}

fn repair(side: &mut ProofTable) -> Option<Repair<'_>> {
    Some(Repair {
        nodes: 20_000,
        table: side,
    })
}

/// A file in a temporary directory of its own, removed when the guard is dropped.
fn temp_file(tag: &str) -> common::TempPath {
    common::temp_path(tag, "check")
}

/// Runs a check in stretches (`pause` after each start gives its end), writing it to
/// `path` and reading it back after each stretch that did not end it; the result and the
/// number of saves.
fn stretched(
    table: &ProofTable,
    stop: Option<&'static AtomicBool>,
    report: &mut dyn FnMut(&Checked),
    pause: impl Fn() -> Option<Instant>,
    path: &std::path::Path,
    split: Option<u32>,
) -> (Result<Checked, CheckError>, u32) {
    let mut side = ProofTable::with_mb(1);
    let mut state: Option<DisproofState<Kalah>> = None;
    let mut saves = 0;
    loop {
        let inputs = CheckInputs {
            goal: GOAL,
            table,
            oracle: None,
            repair: repair(&mut side),
            report,
            stop,
            split,
            helpers: Vec::new(),
        };
        let check = DisproofCheck::new(&root(), inputs);
        let mut check = match state.take() {
            None => check,
            Some(s) => check.resumed(s),
        }
        .pause_every(1024);
        match check.run(pause()) {
            Step::Done(Err(CheckError::Stopped)) => stop.unwrap().store(false, Ordering::SeqCst),
            Step::Done(found) => return (found, saves),
            Step::Paused => {}
        }
        check.save(path, "kalah 6x3 +4").unwrap();
        saves += 1;
        let saved = load_disproof_check(path, "kalah 6x3 +4", &root()).unwrap();
        assert_eq!(saved.checked, check.checked());
        drop(check);
        side = saved.repair_table.unwrap();
        state = Some(saved.state);
    }
}

/// The check (its set in parts below `split`) paused at every chance, saved and read back
/// more than 10 times: it ends as `once`, the same check run at once.
fn paused_at_every_chance_as(
    table: &ProofTable,
    path: &std::path::Path,
    split: Option<u32>,
    once: Checked,
) {
    let now = || Some(Instant::now());
    let (found, saves) = stretched(table, None, &mut |_| {}, now, path, split);
    assert_eq!(found, Ok(once));
    assert!(saves > 10, "{saves}");
}

#[test]
fn a_check_in_saved_stretches_looks_at_what_one_run_does() {
    on_search_stack(|| {
        let table = searched();
        let mut side = ProofTable::with_mb(1);
        let once = check_disproof(
            &root(),
            GOAL,
            &table,
            None,
            repair(&mut side),
            &mut |_| {},
            None,
        )
        .unwrap();
        // Gaps are repaired, so the repairs' table is part of what is saved.
        assert!(once.repairs > 100 && once.positions > 10_000, "{once:?}");
        let path = temp_file("check-resume");
        paused_at_every_chance_as(&table, &path, None, once);
        // Another question's file, and a damaged one, are refused.
        assert!(load_disproof_check(&path, "another", &root()).is_err());
        let mut bytes = std::fs::read(&path).unwrap();
        let mid = bytes.len() / 2;
        bytes[mid] ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        assert!(load_disproof_check(&path, "kalah 6x3 +4", &root()).is_err());
        bytes.truncate(mid);
        std::fs::write(&path, &bytes).unwrap();
        assert!(load_disproof_check(&path, "kalah 6x3 +4", &root()).is_err());
    });
}

/// The inputs of a check of the search's "no" with `table`, its set in parts below
/// `plies`, repairs into `side`, and `helpers` for the other threads.
fn in_parts<'a, 't>(
    table: &'a ProofTable,
    side: &'t mut ProofTable,
    plies: u32,
    helpers: Vec<Repair<'t>>,
) -> CheckInputs<'a, 't, 'static, Kalah> {
    CheckInputs {
        goal: GOAL,
        table,
        oracle: None,
        repair: repair(side),
        report: Box::leak(Box::new(|_: &Checked| {})),
        stop: None,
        split: Some(plies),
        helpers,
    }
}

/// The set built in parts below 6 plies: it holds, holds less than half of the
/// positions at once, and in saved stretches looks at what one run does.
#[test]
fn a_check_in_parts_holds_less_and_resumes_as_one_run() {
    on_search_stack(|| {
        let table = searched();
        let mut side = ProofTable::with_mb(1);
        let inputs = in_parts(&table, &mut side, 6, Vec::new());
        let Step::Done(once) = DisproofCheck::new(&root(), inputs).run(None) else {
            unreachable!("a check without a pause runs to its end")
        };
        let once = once.unwrap();
        assert!(once.held * 2 < once.positions, "{once:?}");
        let path = temp_file("check-parts");
        paused_at_every_chance_as(&table, &path, Some(6), once);
    });
}

/// The parts built on two threads at once (the second with a repairs' table of its
/// own), paused after every round of parts, saved and read back each time: it holds,
/// and looks at about as many positions as on one thread (the parts end in another
/// order, so the repairs' tables and the escapes they suggest may differ).
#[test]
fn a_check_in_parts_on_two_threads_holds_in_saved_rounds() {
    on_search_stack(|| {
        let table = searched();
        let path = temp_file("check-threads");
        let (mut side, mut helper) = (ProofTable::with_mb(1), ProofTable::with_mb(1));
        let mut state: Option<DisproofState<Kalah>> = None;
        let mut saves = 0;
        let found = loop {
            let helpers = repair(&mut helper).into_iter().collect();
            let inputs = in_parts(&table, &mut side, 4, helpers);
            let check = DisproofCheck::new(&root(), inputs);
            let mut check = match state.take() {
                None => check,
                Some(s) => check.resumed(s),
            };
            match check.run(Some(Instant::now())) {
                Step::Done(found) => break found,
                Step::Paused => {}
            }
            check.save(&path, "kalah 6x3 +4").unwrap();
            saves += 1;
            let live = check.checked();
            drop(check);
            let saved = load_disproof_check(&path, "kalah 6x3 +4", &root()).unwrap();
            assert_eq!(saved.checked, live);
            side = saved.repair_table.unwrap();
            state = Some(saved.state);
        };
        let found = found.unwrap();
        assert!(saves > 10 && found.parts > 10, "{saves} {found:?}");
        assert_eq!(found.parts_done, found.parts, "{found:?}");
    });
}

static STOP: AtomicBool = AtomicBool::new(false);

/// The stop flag, raised after every 50th repair (so that it ends the stretch either
/// between two positions, where that repair found the escape, or in the middle of the
/// search for one, where the next repair is cut short and the position goes back to
/// wait), ends the stretch with the check's state whole: saved and resumed, the check
/// still holds.
#[test]
fn a_check_stopped_after_a_repair_resumes_and_holds() {
    on_search_stack(|| {
        let table = searched();
        let path = temp_file("check-stop");
        let mut raise = |c: &Checked| {
            if c.repairs.is_multiple_of(50) {
                STOP.store(true, Ordering::SeqCst);
            }
        };
        let (found, saves) = stretched(&table, Some(&STOP), &mut raise, || None, &path, None);
        assert!(found.is_ok(), "{found:?}");
        assert!(saves >= 10, "{saves}");
    });
}

/// The proof check of "at least +2" ("yes", by the move E), run at once and in stretches
/// each written to a file and read back: the same strategy, the same tally.
#[test]
fn a_proof_check_in_saved_stretches_looks_at_what_one_run_does() {
    on_search_stack(|| {
        let goal = Goal {
            at_least: 2,
            ..GOAL
        };
        let table = searched_for(goal, Verdict::Proven);
        let mut side = ProofTable::with_mb(1);
        let once = check_proof(
            &root(),
            goal,
            &table,
            None,
            repair(&mut side),
            &mut |_| {},
            None,
        )
        .unwrap();
        assert!(
            once.checked.repairs > 100 && once.first_move.is_some(),
            "{once:?}"
        );
        let path = temp_file("proof-check-resume");
        let mut side = ProofTable::with_mb(1);
        let mut state = None;
        let mut saves = 0;
        let found = loop {
            let mut report = |_: &_| {};
            let inputs = CheckInputs {
                goal,
                table: &table,
                oracle: None,
                repair: repair(&mut side),
                report: &mut report,
                stop: None,
                split: None,
                helpers: Vec::new(),
            };
            let check = ProofCheck::new(&root(), inputs);
            let mut check = match state.take() {
                None => check,
                Some(s) => check.resumed(s),
            }
            .pause_every(256);
            if let Step::Done(found) = check.run(Some(Instant::now())) {
                break found;
            }
            check.save(&path, "+2").unwrap();
            saves += 1;
            let saved = load_proof_check(&path, "+2", &root()).unwrap();
            assert_eq!(saved.checked, check.checked());
            drop(check);
            side = saved.repair_table.unwrap();
            state = Some(saved.state);
        };
        assert_eq!(found, Ok(once));
        assert!(saves > 10, "{saves}");
        // A disproof check's file is not a proof check's.
        assert!(load_disproof_check(&path, "+2", &root()).is_err());
    });
}
