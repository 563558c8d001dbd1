//! Random playouts from the start, for timing one process at a time (for example with
//! `perf stat -e task-clock`, which counts CPU time on a shared machine):
//!
//! `cargo run --release -p mancala-core --example playouts -- VERSION GAMES`
//!
//! VERSION is kalah, kalah-standard, afrika (the engine), or the same with `-scalar`
//! (the scalar reference). Kalah 6x4 and Afrika 2x8x8, SplitMix64 seed 1, the choice of
//! `SplitMix::below`: the games `benches/peers/cmancala_playouts.c` plays with the C
//! peer's board code. Prints the moves played and the wall-clock rate.

use mancala_core::afrika::{Afrika, Rules as AfrikaRules};
use mancala_core::game::{SplitMix, playouts};
use mancala_core::kalah::{Capture, Kalah, Rules as KalahRules};
use mancala_core::{Game, Moves};

fn run<G: Game>(
    start: G,
    games: usize,
    legal: impl Fn(&G, &mut Moves<G::Move>),
    play: impl Fn(&G, G::Move) -> G,
) -> u64 {
    playouts(start, games, &mut SplitMix(1), legal, play)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: playouts kalah|kalah-standard|afrika[-scalar] GAMES";
    let (Some(version), Some(games)) = (args.get(1), args.get(2)) else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let Ok(games) = games.parse::<usize>() else {
        eprintln!("GAMES: \"{games}\" is not a number; {usage}");
        std::process::exit(2);
    };
    let (name, scalar) = match version.strip_suffix("-scalar") {
        Some(name) => (name, true),
        None => (version.as_str(), false),
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
            if scalar {
                run(g, games, Kalah::legal_moves_scalar, Kalah::play_scalar)
            } else {
                run(g, games, Kalah::legal_moves, |g: &Kalah, mv| g.play(mv))
            }
        }
        "afrika" => {
            let g = Afrika::start(8, 8, AfrikaRules::default());
            if scalar {
                run(g, games, Afrika::legal_moves_scalar, Afrika::play_scalar)
            } else {
                run(g, games, Afrika::legal_moves, |g: &Afrika, mv| g.play(mv))
            }
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
