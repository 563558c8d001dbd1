//! Kalah, the field's benchmark: the published sizes solved on one thread, each search
//! technique on and off side by side in one run (the ratios of `docs/solver.md`), and
//! Kalah(5,4) on one and two threads (Kalah(6,4) with MANCALA_BENCH_6X4 set). Node counts
//! are printed once per case (they do not vary between runs on one thread). With
//! MANCALA_BENCH_DB_DIR naming a directory that holds a Kalah database (`mancala retro
//! kalah:6 --max-seeds 24 --db-dir DIR`), Kalah(6,4) with it: the root value on one thread
//! and every opening move on two (issue 12's target, under 10 s).

use criterion::{Criterion, criterion_group, criterion_main};
use mancala_core::kalah::{Capture, Kalah, Rules};
use mancala_solver::retro::{Oracle, store};
use mancala_solver::{Config, Solver, Techniques};
use std::path::Path;

fn solve(g: &Kalah, threads: usize, tt_mb: usize, techniques: Techniques) -> (i32, u64) {
    solve_with(g, threads, tt_mb, techniques, false, None)
}

fn solve_with(
    g: &Kalah,
    threads: usize,
    tt_mb: usize,
    techniques: Techniques,
    all_moves: bool,
    oracle: Option<&dyn Oracle<Kalah>>,
) -> (i32, u64) {
    let s = Solver::new(Config {
        threads,
        tt_mb,
        techniques,
        all_moves,
        max_pv: 0,
    });
    let sol = s.solve_with(g, oracle).expect("not stopped");
    (sol.value, sol.nodes)
}

fn off(name: &str) -> Techniques {
    let mut t = Techniques::default();
    if name != "none" {
        assert!(t.switch_off(name), "{name}");
    }
    t
}

/// Kalah(5,4) and Kalah(6,3) with all techniques, then without each of the main ones.
fn techniques(c: &mut Criterion) {
    let mut grp = c.benchmark_group("kalah techniques");
    grp.sample_size(10);
    for (m, n) in [(6, 3), (5, 4)] {
        let g = Kalah::start(m, n, Rules::default());
        for name in ["none", "etc", "gain", "guess", "bounds", "killers"] {
            let (v, nodes) = solve(&g, 1, 256, off(name));
            eprintln!("kalah {m}x{n} without {name}: value {v}, {nodes} nodes");
            grp.bench_function(format!("{m}x{n} without {name}"), |b| {
                b.iter(|| solve(&g, 1, 256, off(name)))
            });
        }
    }
    grp.finish();
}

/// The standard-capture variant of Kalah(6,3), and Kalah(5,4) (or 6,4) on one and two
/// threads.
fn sizes(c: &mut Criterion) {
    let mut grp = c.benchmark_group("kalah sizes");
    grp.sample_size(10);
    let standard = Kalah::start(
        6,
        3,
        Rules {
            capture: Capture::Standard,
        },
    );
    let (v, nodes) = solve(&standard, 1, 256, Techniques::default());
    eprintln!("kalah 6x3 standard capture: value {v}, {nodes} nodes");
    grp.bench_function("6x3 standard capture", |b| {
        b.iter(|| solve(&standard, 1, 256, Techniques::default()))
    });
    // Kalah(6,4) is a minute per solve, ten samples each: only on request.
    let six_four = std::env::var_os("MANCALA_BENCH_6X4").is_some();
    let (m, n) = if six_four { (6, 4) } else { (5, 4) };
    if !six_four {
        eprintln!("kalah 6x4 skipped: set MANCALA_BENCH_6X4=1 (about 25 minutes)");
    }
    let g = Kalah::start(m, n, Rules::default());
    for threads in [1, 2] {
        let (v, nodes) = solve(&g, threads, 1024, Techniques::default());
        eprintln!("kalah {m}x{n} on {threads} thread(s): value {v}, {nodes} nodes");
        grp.bench_function(format!("{m}x{n} threads={threads}"), |b| {
            b.iter(|| solve(&g, threads, 1024, Techniques::default()))
        });
    }
    grp.finish();
}

/// Kalah(6,4) with the largest database of MANCALA_BENCH_DB_DIR: the root value on one
/// thread, then the value and every opening move on two.
fn with_database(c: &mut Criterion) {
    let Some(dir) = std::env::var_os("MANCALA_BENCH_DB_DIR") else {
        eprintln!("kalah 6x4 with a database skipped: set MANCALA_BENCH_DB_DIR");
        return;
    };
    let g = Kalah::start(6, 4, Rules::default());
    let Some(found) = store::find(Path::new(&dir), &g).0 else {
        panic!("no Kalah 2x6 database in {}", Path::new(&dir).display());
    };
    let oracle = Some(&found.db as &dyn Oracle<Kalah>);
    let mut grp = c.benchmark_group("kalah 6x4 database");
    grp.sample_size(10);
    for (threads, all) in [(1, false), (2, true)] {
        let what = if all { "every move" } else { "value" };
        let run = || solve_with(&g, threads, 256, Techniques::default(), all, oracle);
        let (v, nodes) = run();
        eprintln!(
            "kalah 6x4 {what}, {threads} thread(s), {} seeds: value {v}, {nodes} nodes",
            found.max_seeds
        );
        grp.bench_function(format!("{what} threads={threads}"), |b| b.iter(run));
    }
    grp.finish();
}

criterion_group!(benches, techniques, sizes, with_database);
criterion_main!(benches);
