//! Random playouts from the start, for timing one process at a time (for example with
//! `perf stat -e task-clock`, which counts CPU time on a shared machine):
//!
//! `cargo run --release -p mancala-core --example playouts -- VERSION GAMES`
//!
//! VERSION is kalah, kalah-standard, afrika (the engine, one game at a time), the same
//! with `-scalar` (the scalar reference) or with `-x2`, `-x3`, `-x4` (the engine with 2-4
//! games in lock step, `playouts_interleaved`: other games, the same kind). Kalah 6x4 and Afrika 2x8x8, SplitMix64 seed 1, the choice of
//! `SplitMix::below`: the games `benches/peers/cmancala_playouts.c` plays with the C
//! peer's board code. Prints the moves played and the wall-clock rate.

use mancala_core::afrika::{Afrika, Rules as AfrikaRules};
use mancala_core::game::{SplitMix, playouts, playouts_interleaved, random_from_list};
use mancala_core::kalah::{Capture, Kalah, Rules as KalahRules};
use mancala_core::{Game, Moves};

/// How the games are played.
#[derive(Clone, Copy, PartialEq)]
enum Version {
    /// The scalar reference, moves drawn from its list.
    Scalar,
    /// The engine, one game at a time.
    Engine,
    /// The engine, this many games in lock step.
    Interleaved(usize),
}

/// The game's own methods, or `legal` and `play` (the scalar reference).
fn run<G: Game>(
    start: G,
    games: usize,
    version: Version,
    legal: impl Fn(&G, &mut Moves<G::Move>) + Copy,
    play: impl Fn(&G, G::Move) -> G,
) -> u64 {
    let rng = &mut SplitMix(1);
    let own = |g: &G, mv| g.play(mv);
    match version {
        Version::Scalar => playouts(start, games, rng, random_from_list(legal), play),
        Version::Engine => playouts(start, games, rng, G::random_move, own),
        Version::Interleaved(2) => playouts_interleaved::<G, 2>(start, games, rng),
        Version::Interleaved(3) => playouts_interleaved::<G, 3>(start, games, rng),
        Version::Interleaved(_) => playouts_interleaved::<G, 4>(start, games, rng),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: playouts kalah|kalah-standard|afrika[-scalar|-x2|-x3|-x4] GAMES";
    let (Some(version), Some(games)) = (args.get(1), args.get(2)) else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let Ok(games) = games.parse::<usize>() else {
        eprintln!("GAMES: \"{games}\" is not a number; {usage}");
        std::process::exit(2);
    };
    let (name, how) = if let Some(name) = version.strip_suffix("-scalar") {
        (name, Version::Scalar)
    } else if let Some((name, k)) = version.rsplit_once("-x")
        && let Ok(k @ 2..=4) = k.parse()
    {
        (name, Version::Interleaved(k))
    } else {
        (version.as_str(), Version::Engine)
    };
    let t = std::time::Instant::now();
    let moves = match name {
        "kalah" | "kalah-standard" => {
            let capture = if name == "kalah" {
                Capture::Empty
            } else {
                Capture::Standard
            };
            let g = Kalah::start(6, 4, KalahRules { capture });
            run(g, games, how, Kalah::legal_moves_scalar, Kalah::play_scalar)
        }
        "afrika" => {
            let g = Afrika::start(8, 8, AfrikaRules::default());
            run(
                g,
                games,
                how,
                Afrika::legal_moves_scalar,
                Afrika::play_scalar,
            )
        }
        _ => {
            eprintln!("unknown version \"{version}\"; {usage}");
            std::process::exit(2);
        }
    };
    let s = t.elapsed().as_secs_f64();
    println!(
        "{version}: {moves} moves in {games} games, {:.1} M moves/s (wall)",
        moves as f64 / s / 1e6
    );
}
