//! Measures the two ways of solving a class on the Kalah endgame classes: sweeps to a
//! fixed point against one children-first pass (`Method`), in memory, on the threads of
//! rayon's pool (set RAYON_NUM_THREADS=1 for one thread).
//!
//! cargo run --release -p mancala-solver --example kalah_retro_methods -- 6 12 [sweeps|single]

use mancala_core::kalah::Capture;
use mancala_core::kalah::Kalah;
use mancala_core::kalah::index::SeedsInPlay;
use mancala_solver::retro::db::Quiet;
use mancala_solver::retro::{Database, Method};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let m: u8 = args.first().and_then(|a| a.parse().ok()).unwrap_or(6);
    let k: u8 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(12);
    let method = match args.get(2).map(String::as_str) {
        Some("sweeps") => Method::Sweeps,
        _ => Method::SinglePass,
    };
    let classes: Vec<SeedsInPlay> = (2..=k)
        .map(|seeds| SeedsInPlay {
            m,
            seeds,
            capture: Capture::Empty,
        })
        .collect();
    let mut db = Database::<Kalah>::empty("kalah", "empty-capture");
    db.method = method;
    let t0 = std::time::Instant::now();
    let stats = db.solve(&classes, &Quiet);
    let secs = t0.elapsed().as_secs_f64();
    for (c, s) in classes.iter().zip(&stats) {
        println!(
            "{:>2} seeds: {:>11} positions, {:>3} sweeps, {:>11} evaluations, {:7.2} s",
            c.seeds, s.positions, s.sweeps, s.evaluations, s.seconds
        );
    }
    println!(
        "Kalah 2x{m} up to {k} seeds, {method:?}, {} threads: {} positions in {secs:.2} s ({:.2} M positions/s)",
        rayon::current_num_threads(),
        db.positions(),
        db.positions() as f64 / secs / 1e6
    );
}
