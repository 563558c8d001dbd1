//! The table of `docs/solver.md`: each search technique switched off in turn, on fixed
//! positions of every game, with the value (which must not change), nodes and seconds.
//!
//! `cargo run --release -p mancala-solver --example techniques -- [FILTER] [--off LIST]`
//! FILTER keeps the positions whose name contains it; `--off none,etc,ordering` picks the
//! columns (default: every technique). One thread, 256 MB table, a fresh table per solve;
//! a solve is stopped after LIMIT_SECONDS (environment, default 60).

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use mancala_core::afrika::{Afrika, Rules as AfrikaRules};
use mancala_core::andada::Andada;
use mancala_core::kalah::{Capture, Kalah, Rules as KalahRules};
use mancala_core::kauri::Kauri;
use mancala_core::progressive::{Ending, Progressive};
use mancala_core::{Game, PositionText};
use mancala_solver::limit::with_time_limit;
use mancala_solver::{Config, Solver, Techniques};

fn techniques(off: &str) -> Techniques {
    let mut t = Techniques::default();
    for name in off.split('+') {
        if let Some(d) = name.strip_prefix("guess=") {
            t.guess_depth = d.parse().expect("guess=DEPTH");
        } else if name == "always-deepen" {
            t.deepening = mancala_solver::Deepening::Always;
        } else if name != "none" && !t.switch_off(name) {
            panic!("unknown technique {name}");
        }
    }
    t
}

fn run<G: Game>(name: &str, g: G, offs: &[String], filter: &str) {
    let limit = Duration::from_secs(
        std::env::var("LIMIT_SECONDS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(60),
    );
    if !name.contains(filter) {
        return;
    }
    for off in offs {
        let s = Solver::new(Config {
            threads: 1,
            tt_mb: 256,
            all_moves: false,
            max_pv: 0,
            techniques: techniques(off),
        });
        let t0 = Instant::now();
        let sol = with_time_limit(&s, Some(limit), || s.solve(&g)).expect("a watcher thread");
        let secs = t0.elapsed().as_secs_f64();
        let Some(sol) = sol else {
            let nodes = s.progress.nodes.load(Ordering::Relaxed);
            println!("{name:<28} {off:<14} stopped after {secs:.0} s, {nodes} nodes");
            continue;
        };
        println!(
            "{name:<28} {off:<14} value {:>4}  nodes {:>12}  {:>8.2} s  {:>5.2} Mn/s",
            sol.value,
            sol.nodes,
            secs,
            sol.nodes as f64 / secs / 1e6
        );
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut filter = String::new();
    let mut offs: Vec<String> = std::iter::once("none".to_string())
        .chain(Techniques::NAMES.iter().map(|s| s.to_string()))
        .collect();
    let mut i = 0;
    while i < args.len() {
        if args[i] == "--off" {
            offs = args[i + 1].split(',').map(String::from).collect();
            i += 2;
        } else {
            filter = args[i].clone();
            i += 1;
        }
    }
    let standard = KalahRules {
        capture: Capture::Standard,
    };
    let kalah = |m, n| Kalah::start(m, n, KalahRules::default());
    run("kalah 4x4", kalah(4, 4), &offs, &filter);
    run("kalah 5x3", kalah(5, 3), &offs, &filter);
    run("kalah 6x2", kalah(6, 2), &offs, &filter);
    run("kalah 6x3", kalah(6, 3), &offs, &filter);
    run("kalah 5x4", kalah(5, 4), &offs, &filter);
    if filter.contains("6x4") {
        run("kalah 6x4", kalah(6, 4), &offs, &filter);
    }
    run(
        "kalah 6x3 standard",
        Kalah::start(6, 3, standard),
        &offs,
        &filter,
    );
    run(
        "afrika 2x4x3",
        Afrika::start(4, 3, AfrikaRules::default()),
        &offs,
        &filter,
    );
    run(
        "afrika 2x5x3",
        Afrika::start(5, 3, AfrikaRules::default()),
        &offs,
        &filter,
    );
    run(
        "afrika 2x6x2",
        Afrika::start(6, 2, AfrikaRules::default()),
        &offs,
        &filter,
    );
    run(
        "kauri move 35",
        Kauri::from_text("kauri south:0+1,0+0,0+2,0+1,0+1,5+7 north:7+0,0+0,0+0,0+0,0+0,0+0 south-store:18 north-store:30 to-move:south").unwrap(),
        &offs,
        &filter,
    );
    run(
        "progressive 1x7x2",
        Progressive::start(7, 2, Ending::Majority),
        &offs,
        &filter,
    );
    run(
        "progressive 1x9x2",
        Progressive::start(9, 2, Ending::Majority),
        &offs,
        &filter,
    );
    run(
        "andada 2x3",
        Andada::start(3, Default::default()),
        &offs,
        &filter,
    );
    run(
        "andada 2x6",
        Andada::start(6, Default::default()),
        &offs,
        &filter,
    );
}
