//! Move generation and random playouts per game: moves per second on one core. For
//! Afrika and Kalah three loops side by side: the vector board one game at a time, the
//! same with 3 games in lock step (`... x3`, [`playouts_interleaved`]: overlapping their
//! chains of dependent instructions) and the scalar reference (`... scalar`). Targets
//! (issue 18): Kalah 6x4 at least 50 M moves/s (2x the C peer CMancala), Afrika 8x8 at
//! least 75 M; met by the interleaved loops only. `docs/playouts.md` has the
//! measurements (CPU time, median of 3, before and after).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use mancala_core::afrika::{Afrika, Rules as AfrikaRules};
use mancala_core::andada::Andada;
use mancala_core::game::{SplitMix, playouts, playouts_interleaved, random_from_list};
use mancala_core::kalah::{Capture, Kalah, Rules as KalahRules};
use mancala_core::kauri::{Kauri, Rules as KauriRules};
use mancala_core::progressive::{Ending, Progressive};
use mancala_core::{Game, Moves};

/// Random playouts from `start` by `run` (`games` games from a generator), as moves per
/// second.
fn bench<G: Game>(
    c: &mut Criterion,
    name: &str,
    start: G,
    run: impl Fn(G, usize, &mut SplitMix) -> u64,
) {
    // Every batch plays new games: replaying the same few thousand moves lets the branch
    // predictor learn them, which flatters branchy code. Criterion reports moves per
    // second from the mean moves per batch, measured once over 100 batches.
    let games = 100;
    let per_batch = run(start, 100 * games, &mut SplitMix(2)) / 100;
    let mut group = c.benchmark_group("playouts");
    group.throughput(Throughput::Elements(per_batch));
    let mut rng = SplitMix(1);
    group.bench_function(name, |b| b.iter(|| run(start, games, &mut rng)));
    group.finish();
}

/// The game's own methods, one game at a time; with `interleaved`, also 3 games in
/// lock step ([`playouts_interleaved`]).
fn own<G: Game>(c: &mut Criterion, name: &str, start: G, interleaved: bool) {
    let play = |g: &G, mv| g.play(mv);
    let single =
        |start, games, rng: &mut SplitMix| playouts(start, games, rng, G::random_move, play);
    bench(c, name, start, single);
    if interleaved {
        bench(
            c,
            &format!("{name} x3"),
            start,
            playouts_interleaved::<G, 3>,
        );
    }
}

/// The scalar reference `legal` and `play`, moves drawn from its list.
fn scalar<G: Game>(
    c: &mut Criterion,
    name: &str,
    start: G,
    legal: impl Fn(&G, &mut Moves<G::Move>) + Copy,
    play: impl Fn(&G, G::Move) -> G + Copy,
) {
    let run = move |start, games, rng: &mut SplitMix| {
        playouts(start, games, rng, random_from_list(legal), play)
    };
    bench(c, name, start, run);
}

fn all(c: &mut Criterion) {
    let afrika = Afrika::start(8, 8, AfrikaRules::default());
    own(c, "afrika 2x8x8", afrika, true);
    let (legal, play) = (Afrika::legal_moves_scalar, Afrika::play_scalar);
    scalar(c, "afrika 2x8x8 scalar", afrika, legal, play);
    for (name, capture) in [
        ("kalah 6x4", Capture::Empty),
        ("kalah 6x4 standard-capture", Capture::Standard),
    ] {
        let kalah = Kalah::start(6, 4, KalahRules { capture });
        own(c, name, kalah, true);
        let (legal, play) = (Kalah::legal_moves_scalar, Kalah::play_scalar);
        scalar(c, &format!("{name} scalar"), kalah, legal, play);
    }
    own(c, "kauri", Kauri::start(KauriRules::Current), false);
    let progressive = Progressive::start(11, 5, Ending::Majority);
    own(c, "progressive 1x11", progressive, false);
    let andada = Andada::start(12, Default::default());
    own(c, "andada 2x12", andada, false);
}

criterion_group!(benches, all);
criterion_main!(benches);
