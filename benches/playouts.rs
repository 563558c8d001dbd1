//! Move generation and random playouts per game: moves per second on one core, with the
//! scalar reference beside the word-wise board ([`mancala_core::lanes`]) for Afrika and
//! Kalah. Targets (issue 18): Kalah 6x4 at least 50 M moves/s (2x the C peer CMancala),
//! Afrika 8x8 at least 75 M.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use mancala_core::afrika::{Afrika, Rules as AfrikaRules};
use mancala_core::andada::Andada;
use mancala_core::game::SplitMix;
use mancala_core::kalah::{Capture, Kalah, Rules as KalahRules};
use mancala_core::kauri::{Kauri, Rules as KauriRules};
use mancala_core::progressive::{Ending, Progressive};
use mancala_core::{Game, Moves};

/// How a playout lists moves and plays one: the game's own [`Game`] methods, or its
/// scalar reference. Closures, so each version is compiled inline into its loop.
trait Engine<G: Game>: Copy {
    fn legal(&self, g: &G, moves: &mut Moves<G::Move>);
    fn play(&self, g: &G, mv: G::Move) -> G;
}

/// The game's own methods.
#[derive(Clone, Copy)]
struct Own;

impl<G: Game> Engine<G> for Own {
    #[inline(always)]
    fn legal(&self, g: &G, moves: &mut Moves<G::Move>) {
        g.legal_moves(moves)
    }
    #[inline(always)]
    fn play(&self, g: &G, mv: G::Move) -> G {
        g.play(mv)
    }
}

impl<G: Game, L: Fn(&G, &mut Moves<G::Move>) + Copy, P: Fn(&G, G::Move) -> G + Copy> Engine<G>
    for (L, P)
{
    #[inline(always)]
    fn legal(&self, g: &G, moves: &mut Moves<G::Move>) {
        (self.0)(g, moves)
    }
    #[inline(always)]
    fn play(&self, g: &G, mv: G::Move) -> G {
        (self.1)(g, mv)
    }
}

/// Plays `games` random games from `start`; returns the moves played.
fn playouts<G: Game>(start: G, games: usize, rng: &mut SplitMix, e: impl Engine<G>) -> u64 {
    let mut moves = Moves::new();
    let mut n = 0;
    for _ in 0..games {
        let mut g = start;
        for _ in 0..2000 {
            e.legal(&g, &mut moves);
            if moves.is_empty() {
                break;
            }
            g = e.play(&g, moves[rng.below(moves.len())]);
            n += 1;
        }
    }
    n
}

fn bench<G: Game>(c: &mut Criterion, name: &str, start: G, e: impl Engine<G>) {
    // Moves per batch, measured once so criterion can report moves per second.
    let games = 100;
    let per_batch = playouts(start, games, &mut SplitMix(1), e);
    let mut group = c.benchmark_group("playouts");
    group.throughput(Throughput::Elements(per_batch));
    group.bench_function(name, |b| {
        b.iter(|| playouts(start, games, &mut SplitMix(1), e))
    });
    group.finish();
}

fn all(c: &mut Criterion) {
    let afrika = Afrika::start(8, 8, AfrikaRules::default());
    bench(c, "afrika 2x8x8", afrika, Own);
    let reference = (
        |g: &Afrika, m: &mut _| g.legal_moves_scalar(m),
        |g: &Afrika, mv| g.play_scalar(mv),
    );
    bench(c, "afrika 2x8x8 scalar", afrika, reference);
    for (name, rules) in [
        ("kalah 6x4", KalahRules::default()),
        (
            "kalah 6x4 standard-capture",
            KalahRules {
                capture: Capture::Standard,
            },
        ),
    ] {
        let kalah = Kalah::start(6, 4, rules);
        bench(c, name, kalah, Own);
        let reference = (
            |g: &Kalah, m: &mut _| g.legal_moves_scalar(m),
            |g: &Kalah, mv| g.play_scalar(mv),
        );
        bench(c, &format!("{name} scalar"), kalah, reference);
    }
    bench(c, "kauri", Kauri::start(KauriRules::Current), Own);
    let progressive = Progressive::start(11, 5, Ending::Majority);
    bench(c, "progressive 1x11", progressive, Own);
    let andada = Andada::start(12, Default::default());
    bench(c, "andada 2x12", andada, Own);
}

criterion_group!(benches, all);
criterion_main!(benches);
