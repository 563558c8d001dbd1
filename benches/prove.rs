//! Proof-number search speed: nodes per second of `ProofSearch` (df-pn, one thread, a
//! fresh 64 MB table each run) on three fixed questions, one per kind of game the
//! search meets: an Andada 2 x 6 position of 14 seeds (positions repeat, sowing with
//! relays), Kalah(6,3) "does South win?" (a margin goal, no repetition) and Give-away
//! Afrika 2 x 8 x 2 (both questions). The node counts are fixed by the position, so a
//! change of the time is a change of the speed per node; docs/solver.md
//! ("Proof-number search") gives the measured before/after figures.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use mancala_core::afrika::{Afrika, Ending, Repetition, Rules as AfrikaRules};
use mancala_core::andada::Andada;
use mancala_core::kalah::Kalah;
use mancala_core::{Game, Player, PositionText};
use mancala_solver::on_search_stack;
use mancala_solver::proof::{Limits, ProofSearch, ProofTable};

/// Runs the search for `attacker` from `g` and returns its nodes.
fn nodes<G: Game>(g: &G, attacker: Player) -> u64 {
    let table = ProofTable::with_mb(64);
    ProofSearch::new(&table, attacker, Limits::default())
        .run(g)
        .nodes
}

fn bench<G: Game>(c: &mut Criterion, name: &str, g: G, attackers: &[Player]) {
    let total: u64 = on_search_stack(|| attackers.iter().map(|&a| nodes(&g, a)).sum());
    let mut group = c.benchmark_group("prove");
    group.sample_size(10);
    group.throughput(Throughput::Elements(total));
    group.bench_function(name, |b| {
        b.iter(|| on_search_stack(|| attackers.iter().map(|&a| nodes(&g, a)).sum::<u64>()))
    });
    group.finish();
}

fn prove(c: &mut Criterion) {
    // A position of `examples/andada_growth` (2 x 6, at most 14 seeds): -1.
    let andada =
        Andada::from_text("andada south:0,2,1,0,0,1 north:5,2,1,0,0,2 to-move:north phase:play")
            .expect("a position");
    bench(
        c,
        "andada 2x6 14 seeds",
        andada,
        &[Player::Second, Player::First],
    );
    let kalah = Kalah::start(6, 3, Default::default());
    bench(c, "kalah 6x3 does South win", kalah, &[Player::First]);
    let giveaway = AfrikaRules {
        ending: Ending::GiveAway,
        repetition: Repetition::Shared,
        komi_half: 0,
    };
    let afrika = Afrika::start(8, 2, giveaway);
    bench(
        c,
        "giveaway afrika 2x8x2",
        afrika,
        &[Player::First, Player::Second],
    );
}

criterion_group!(benches, prove);
criterion_main!(benches);
