//! Andada mid-game positions, solved one by one: a measure of the search on a game whose
//! positions repeat, where the start itself is out of reach (2x6 needs a 19-seed
//! database). The positions are the first with at most MAXS seeds on the board in random
//! games from the start of 2 x N, drawn with a fixed seed, so every run sees the same ones.
//!
//! `cargo run --release -p mancala-solver --example andada_positions`
//! Environment: N (row length, default 6), COUNT (positions, 12), MAXS (seeds, 16), LIMIT
//! (seconds per solve, 8), WITHOUT (techniques to switch off, comma-separated). One thread,
//! 256 MB table, a fresh table per solve; prints each position's value and nodes, then the
//! totals.

use std::sync::atomic::Ordering;
use std::time::Duration;

use mancala_core::andada::Andada;
use mancala_core::game::{SplitMix, random_line};
use mancala_core::{Game, PositionText};
use mancala_solver::limit::with_time_limit;
use mancala_solver::{Config, Solver, Techniques};

fn env<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() {
    let n: usize = env("N", 6);
    let count: usize = env("COUNT", 12);
    let max_seeds: u32 = env("MAXS", 16);
    let limit = Duration::from_secs(env("LIMIT", 8));
    let mut techniques = Techniques::default();
    for name in env("WITHOUT", String::new())
        .split(',')
        .filter(|s| !s.is_empty())
    {
        assert!(techniques.switch_off(name), "unknown technique {name}");
    }
    let mut rng = SplitMix(7);
    let (mut total, mut solved, mut found) = (0u64, 0, 0);
    while found < count {
        let line = random_line(Andada::start(n, Default::default()), &mut rng, 400);
        let Some(&g) = line
            .iter()
            .find(|g| g.material() <= max_seeds && !g.is_terminal())
        else {
            continue;
        };
        found += 1;
        let s = Solver::new(Config {
            threads: 1,
            tt_mb: 256,
            all_moves: false,
            max_pv: 0,
            techniques,
        });
        let sol = with_time_limit(&s, Some(limit), || s.solve(&g)).expect("a watcher thread");
        let seeds = g.material();
        let text = g.to_text();
        match sol {
            Some(sol) => {
                solved += 1;
                total += sol.nodes;
                println!(
                    "{found:>3} {seeds:>2} seeds  value {:>2}  nodes {:>10}  {text}",
                    sol.value, sol.nodes
                );
            }
            None => {
                let nodes = s.progress.nodes.load(Ordering::Relaxed);
                total += nodes;
                println!("{found:>3} {seeds:>2} seeds  stopped    nodes {nodes:>10}  {text}");
            }
        }
    }
    println!(
        "{solved} of {count} solved within {} s each, {total} nodes in all",
        limit.as_secs()
    );
}
