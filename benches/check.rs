//! The certificate check of a "no" whole, in parts (`--check-split`) and in parts on two
//! threads (`--check-threads 2`), side by side on one question: Kalah(6,3), "does South
//! end with at least +4?" (its value is +2), searched once into a 1 MB table, which keeps
//! so little that the checks repair gaps, each into fresh repairs' tables of 1 MB. The
//! parts cost time (a position that several parts reach is checked in each) and save
//! memory; the positions each check looks at and holds at once are printed before the
//! timings.

use criterion::{Criterion, criterion_group, criterion_main};
use mancala_core::Player;
use mancala_core::kalah::Kalah;
use mancala_solver::on_search_stack;
use mancala_solver::proof::{
    CheckInputs, Checked, DisproofCheck, Goal, Limits, ProofSearch, ProofTable, Repair, Step,
    StretchedCheck, Verdict,
};

const GOAL: Goal = Goal {
    attacker: Player::First,
    at_least: 4,
};

fn root() -> Kalah {
    Kalah::start(6, 3, Default::default())
}

/// The check of the search's "no" in `table`, in parts below `split` on `threads`.
fn check(table: &ProofTable, split: Option<u32>, threads: usize) -> Checked {
    let mut tables: Vec<ProofTable> = (0..threads).map(|_| ProofTable::with_mb(1)).collect();
    let mut repairs = tables.iter_mut().map(|table| Repair {
        nodes: 20_000,
        table,
    });
    let inputs = CheckInputs {
        goal: GOAL,
        table,
        oracle: None,
        repair: repairs.next(),
        report: &mut |_| {},
        stop: None,
        split,
        helpers: repairs.collect(),
    };
    match DisproofCheck::new(&root(), inputs).run(None) {
        Step::Done(found) => found.expect("the search's own table certifies its no"),
        Step::Paused => unreachable!("a check without a pause runs to its end"),
    }
}

fn checks(c: &mut Criterion) {
    let table = on_search_stack(|| {
        let table = ProofTable::with_mb(1);
        let out = ProofSearch::new(&table, GOAL, Limits::default()).run(&root());
        assert_eq!(out.verdict, Verdict::Disproven);
        table
    });
    let kinds = [
        ("whole", None, 1),
        ("split 8", Some(8), 1),
        ("split 8 on 2 threads", Some(8), 2),
    ];
    let mut group = c.benchmark_group("check kalah 6x3 +4");
    group.sample_size(10);
    for (name, split, threads) in kinds {
        let once = on_search_stack(|| check(&table, split, threads));
        eprintln!(
            "{name}: {} positions, at most {} held",
            once.positions, once.held
        );
        group.bench_function(name, |b| {
            b.iter(|| on_search_stack(|| check(&table, split, threads)))
        });
    }
    group.finish();
}

criterion_group!(benches, checks);
criterion_main!(benches);
