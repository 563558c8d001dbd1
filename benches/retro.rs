//! Retrograde analysis throughput: positions solved per second when building the Afrika
//! 2 x 8 database of every position with up to 8 stones on the board (1,470,942
//! positions, one byte each), on 1 and 2 threads side by side.
//!
//! The Awari solution (Romein and Bal, 2003) solved 889 billion positions on 144
//! processors in 51 hours: about 34,000 positions per processor-second.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use mancala_core::afrika::Afrika;
use mancala_core::afrika::index::StonesOnBoard;
use mancala_core::index::Indexed;
use mancala_solver::retro::Database;
use mancala_solver::retro::db::Quiet;

fn build(threads: usize, classes: &[StonesOnBoard]) -> u64 {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool");
    pool.install(|| {
        let mut db = Database::<Afrika>::empty("afrika", "standard");
        db.solve(classes, &Quiet);
        db.positions()
    })
}

fn retro(c: &mut Criterion) {
    let classes: Vec<StonesOnBoard> = (0..=8)
        .map(|stones| StonesOnBoard { m: 8, stones })
        .collect();
    let positions: u64 = classes.iter().map(Afrika::class_size).sum();
    let mut group = c.benchmark_group("retro afrika 2x8 up to 8 stones");
    group.sample_size(10);
    group.throughput(Throughput::Elements(positions));
    for threads in [1, 2] {
        group.bench_function(format!("threads={threads}"), |b| {
            b.iter(|| build(threads, &classes))
        });
    }
    group.finish();
}

criterion_group!(benches, retro);
criterion_main!(benches);
