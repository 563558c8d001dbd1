//! Move generation and random playouts per game: moves per second on one core.
//! Target (issue 3): at least 20 million Afrika playout moves per second.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use mancala_core::afrika::{Afrika, Rules as AfrikaRules};
use mancala_core::andada::Andada;
use mancala_core::game::SplitMix;
use mancala_core::kalah::Kalah;
use mancala_core::kauri::{Kauri, Rules as KauriRules};
use mancala_core::progressive::{Ending, Progressive};
use mancala_core::{Game, Moves};

/// Plays `games` random games from `start`; returns the moves played.
fn playouts<G: Game>(start: G, games: usize, rng: &mut SplitMix) -> u64 {
    let mut moves = Moves::new();
    let mut n = 0;
    for _ in 0..games {
        let mut g = start;
        for _ in 0..2000 {
            g.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            g = g.play(moves[rng.below(moves.len())]);
            n += 1;
        }
    }
    n
}

fn bench_game<G: Game>(c: &mut Criterion, name: &str, start: G) {
    // Moves per batch, measured once so criterion can report moves per second.
    let games = 100;
    let per_batch = playouts(start, games, &mut SplitMix(1));
    let mut group = c.benchmark_group("playouts");
    group.throughput(Throughput::Elements(per_batch));
    group.bench_function(name, |b| {
        b.iter(|| playouts(start, games, &mut SplitMix(1)))
    });
    group.finish();
}

fn all(c: &mut Criterion) {
    bench_game(
        c,
        "afrika 2x8x8",
        Afrika::start(8, 8, AfrikaRules::default()),
    );
    bench_game(c, "kauri", Kauri::start(KauriRules::Current));
    bench_game(
        c,
        "progressive 1x11",
        Progressive::start(11, 5, Ending::Majority),
    );
    bench_game(c, "andada 2x12", Andada::start(12, Default::default()));
    bench_game(c, "kalah 6x4", Kalah::start(6, 4, Default::default()));
}

criterion_group!(benches, all);
criterion_main!(benches);
