//! Kalah solved with (or without) an endgame database: nodes, database probes and hits,
//! for the tables of `docs/solver.md`.
//!
//! `cargo run --release -p mancala-solver --example kalah_db -- M N [DB_DIR] [--all]
//! [--tt-mb MB] [--threads T] [--etc PLIES] [--guess PLIES] [--off LIST]`: Kalah(M, N) (empty capture) on
//! one thread (unless `--threads`), the largest
//! database of `DB_DIR` (none if absent or `-`), the root value only unless `--all` (then
//! every opening move's value too). `--off` switches techniques off (`etc+guess`).

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use mancala_core::kalah::{Kalah, Rules};
use mancala_solver::retro::Oracle;
use mancala_solver::retro::store;
use mancala_solver::{Config, Solver, Techniques};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let m: usize = args[0].parse().expect("M");
    let n: u8 = args[1].parse().expect("N");
    let mut dir = None;
    let mut all = false;
    let mut tt_mb = 1024;
    let mut threads = 1;
    let mut tech = Techniques::default();
    let mut i = 2;
    while i < args.len() {
        match args[i].as_str() {
            "--all" => all = true,
            "--tt-mb" => {
                tt_mb = args[i + 1].parse().expect("MB");
                i += 1;
            }
            "--threads" => {
                threads = args[i + 1].parse().expect("threads");
                i += 1;
            }
            "--guess" => {
                tech.guess_depth = args[i + 1].parse().expect("plies");
                i += 1;
            }
            "--etc" => {
                tech.etc_plies = args[i + 1].parse().expect("plies");
                i += 1;
            }
            "--off" => {
                for name in args[i + 1].split('+') {
                    assert!(tech.switch_off(name), "unknown technique {name}");
                }
                i += 1;
            }
            "-" => {}
            d => dir = Some(d.to_string()),
        }
        i += 1;
    }
    let root = Kalah::start(m, n, Rules::default());
    let found = dir.and_then(|d| store::find(Path::new(&d), &root).0);
    if let Some(f) = &found {
        println!("database {} ({} seeds)", f.path.display(), f.max_seeds);
    }
    let oracle = found.as_ref().map(|f| &f.db as &dyn Oracle<Kalah>);
    let solver = Solver::new(Config {
        threads,
        tt_mb,
        techniques: tech,
        all_moves: all,
        max_pv: 400,
    });
    let t0 = Instant::now();
    let done = AtomicBool::new(false);
    let sol = std::thread::scope(|s| {
        // Nodes at each change of phase (root value, move k, principal variation).
        s.spawn(|| {
            let mut phase = 0;
            let mut last = 0;
            while !done.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(5));
                let p = solver.progress.phase.load(Ordering::Relaxed);
                if p != phase {
                    let nodes = solver.progress.nodes.load(Ordering::Relaxed);
                    println!("  phase {phase}: {} nodes", nodes - last);
                    (phase, last) = (p, nodes);
                }
            }
        });
        let sol = solver.solve_with(&root, oracle);
        done.store(true, Ordering::Relaxed);
        sol.expect("not stopped")
    });
    let moves: Vec<String> = sol
        .moves
        .iter()
        .map(|&(mv, v)| format!("{} {v:+}", (b'A' + mv.0) as char))
        .collect();
    println!(
        "kalah {m}x{n}: value {:+}  moves [{}]  nodes {}  probes {} hits {}  {:.2} s",
        sol.value,
        moves.join(", "),
        sol.nodes,
        sol.oracle_probes,
        sol.oracle_hits,
        t0.elapsed().as_secs_f64()
    );
}
