//! Move generation and random playouts per game: moves per second on one core, with the
//! scalar reference beside the word-wise board ([`mancala_core::lanes`]) for Afrika and
//! Kalah. Targets (issue 18): Kalah 6x4 at least 50 M moves/s (2x the C peer CMancala),
//! Afrika 8x8 at least 75 M; `docs/playouts.md` has the measurements.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use mancala_core::afrika::{Afrika, Rules as AfrikaRules};
use mancala_core::andada::Andada;
use mancala_core::game::{SplitMix, playouts};
use mancala_core::kalah::{Capture, Kalah, Rules as KalahRules};
use mancala_core::kauri::{Kauri, Rules as KauriRules};
use mancala_core::progressive::{Ending, Progressive};
use mancala_core::{Game, Moves};

/// Random playouts from `start` with `legal` and `play`, as moves per second.
fn bench<G: Game>(
    c: &mut Criterion,
    name: &str,
    start: G,
    legal: impl Fn(&G, &mut Moves<G::Move>) + Copy,
    play: impl Fn(&G, G::Move) -> G + Copy,
) {
    // Every batch plays new games: replaying the same few thousand moves lets the branch
    // predictor learn them, which flatters branchy code. Criterion reports moves per
    // second from the mean moves per batch, measured once over 100 batches.
    let games = 100;
    let per_batch = playouts(start, 100 * games, &mut SplitMix(2), legal, play) / 100;
    let mut group = c.benchmark_group("playouts");
    group.throughput(Throughput::Elements(per_batch));
    let mut rng = SplitMix(1);
    group.bench_function(name, |b| {
        b.iter(|| playouts(start, games, &mut rng, legal, play))
    });
    group.finish();
}

/// The game's own methods.
fn own<G: Game>(c: &mut Criterion, name: &str, start: G) {
    bench(c, name, start, G::legal_moves, |g: &G, mv| g.play(mv));
}

fn all(c: &mut Criterion) {
    let afrika = Afrika::start(8, 8, AfrikaRules::default());
    own(c, "afrika 2x8x8", afrika);
    let (legal, play) = (Afrika::legal_moves_scalar, Afrika::play_scalar);
    bench(c, "afrika 2x8x8 scalar", afrika, legal, play);
    for (name, capture) in [
        ("kalah 6x4", Capture::Empty),
        ("kalah 6x4 standard-capture", Capture::Standard),
    ] {
        let kalah = Kalah::start(6, 4, KalahRules { capture });
        own(c, name, kalah);
        let (legal, play) = (Kalah::legal_moves_scalar, Kalah::play_scalar);
        bench(c, &format!("{name} scalar"), kalah, legal, play);
    }
    own(c, "kauri", Kauri::start(KauriRules::Current));
    own(
        c,
        "progressive 1x11",
        Progressive::start(11, 5, Ending::Majority),
    );
    own(c, "andada 2x12", Andada::start(12, Default::default()));
}

criterion_group!(benches, all);
criterion_main!(benches);
