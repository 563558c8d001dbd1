//! Solving a fixed position per game (nodes and time), and the parallel speedup: the same
//! solve on 1 and 2 threads side by side (target: at least 1.6x on a solve of seconds).

use criterion::{Criterion, criterion_group, criterion_main};
use mancala_core::afrika::{Afrika, Rules as AfrikaRules};
use mancala_core::andada::Andada;
use mancala_core::kalah::Kalah;
use mancala_core::kauri::Kauri;
use mancala_core::progressive::{Ending, Progressive};
use mancala_core::{Game, PositionText};
use mancala_solver::{Config, Solver};

fn solve<G: Game>(g: &G, threads: usize) -> (i32, u64) {
    let s = Solver::new(Config {
        threads,
        tt_mb: 256,
        all_moves: false,
        max_pv: 0,
        ..Config::default()
    });
    let sol = s.solve(g).expect("not stopped");
    (sol.value, sol.nodes)
}

fn bench<G: Game>(c: &mut Criterion, group: &str, name: &str, g: G, threads: &[usize]) {
    let mut grp = c.benchmark_group(group);
    grp.sample_size(10);
    for &t in threads {
        let (v, nodes) = solve(&g, t);
        eprintln!("{group}/{name}: value {v}, {nodes} nodes on {t} thread(s)");
        grp.bench_function(format!("{name} threads={t}"), |b| b.iter(|| solve(&g, t)));
    }
    grp.finish();
}

fn positions(c: &mut Criterion) {
    bench(
        c,
        "solve",
        "afrika 2x4x2",
        Afrika::start(4, 2, AfrikaRules::default()),
        &[1],
    );
    bench(
        c,
        "solve",
        "kauri move 35 (current rules)",
        Kauri::from_text("kauri south:0+1,0+0,0+2,0+1,0+1,5+7 north:7+0,0+0,0+0,0+0,0+0,0+0 south-store:18 north-store:30 to-move:south").unwrap(),
        &[1],
    );
    bench(
        c,
        "solve",
        "progressive 1x5x2",
        Progressive::start(5, 2, Ending::Majority),
        &[1],
    );
    bench(
        c,
        "solve",
        "andada 2x3",
        Andada::start(3, Default::default()),
        &[1],
    );
    bench(
        c,
        "solve",
        "kalah 4x3",
        Kalah::start(4, 3, Default::default()),
        &[1],
    );
}

fn speedup(c: &mut Criterion) {
    // Solves of a few seconds each, on 1 and 2 threads in one run.
    bench(
        c,
        "speedup",
        "afrika 2x4x3",
        Afrika::start(4, 3, AfrikaRules::default()),
        &[1, 2],
    );
    bench(
        c,
        "speedup",
        "kalah 5x3",
        Kalah::start(5, 3, Default::default()),
        &[1, 2],
    );
}

criterion_group!(benches, positions, speedup);
criterion_main!(benches);
