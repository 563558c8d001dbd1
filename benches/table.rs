//! The transposition table against a growable concurrent map (dashmap), the structure the
//! project keeps for caches that must grow: store and probe throughput on 1 and 2 threads.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use dashmap::DashMap;
use mancala_core::game::SplitMix;
use mancala_solver::tt::{Entry, Table};

const OPS: u64 = 1 << 20;

/// Half stores, half probes of random keys on `threads` threads; the probes that hit
/// are kept from being optimised away.
fn work(threads: u64, store: impl Fn(u64) + Sync, probe: impl Fn(u64) -> bool + Sync) {
    let (store, probe) = (&store, &probe);
    std::thread::scope(|s| {
        for id in 0..threads {
            s.spawn(move || {
                let mut rng = SplitMix(id + 1);
                let mut hits = 0u64;
                for i in 0..OPS / threads {
                    let k = rng.next_u64() & 0xFFFF_FFFF;
                    if i % 2 == 0 {
                        store(k);
                    } else if probe(k) {
                        hits += 1;
                    }
                }
                std::hint::black_box(hits);
            });
        }
    });
}

fn work_table(t: &Table, threads: u64) {
    let entry = Entry {
        lower: 1,
        upper: 2,
        mv: 3,
        work: 4,
    };
    work(threads, |k| t.store(k, entry), |k| t.probe(k).is_some());
}

fn work_dashmap(m: &DashMap<u64, u64>, threads: u64) {
    let store = |k| {
        m.insert(k, 0x0403_0002_0001);
    };
    work(threads, store, |k| m.get(&k).is_some());
}

fn table_vs_dashmap(c: &mut Criterion) {
    let mut g = c.benchmark_group("store+probe");
    g.throughput(Throughput::Elements(OPS));
    g.sample_size(10);
    for threads in [1u64, 2] {
        let t = Table::new(64);
        g.bench_function(format!("tt threads={threads}"), |b| {
            b.iter(|| work_table(&t, threads))
        });
        let m: DashMap<u64, u64> = DashMap::with_capacity(1 << 20);
        g.bench_function(format!("dashmap threads={threads}"), |b| {
            b.iter(|| work_dashmap(&m, threads))
        });
    }
    g.finish();
}

criterion_group!(benches, table_vs_dashmap);
criterion_main!(benches);
