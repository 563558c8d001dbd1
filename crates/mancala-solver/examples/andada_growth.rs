//! How the work of proof-number search on Andada grows with the seeds on the board: the
//! measure behind the estimate of what the start of 2 x 9 (36 seeds) would take, checked
//! on 2 x 6, whose start (24 seeds) is solved.
//!
//! For each seed count S, COUNT positions: the first position with at most S seeds of a
//! random game from the start of 2 x N (regular phase, not over), drawn from a generator
//! seeded by N and S, so every run sees the same ones. Each is solved the way `mancala
//! prove` does it, without a database: "does the player to move win?", then, unless
//! that is proven, "does his opponent?", each in a fresh table, at most LIMIT nodes per
//! question. Printed: every position's value (or "open") and nodes, then per S the
//! median of the nodes (an open position counts as more than any decided one, so the
//! median is exact while fewer than half are open). The answers' certificates are not
//! checked here: the nodes are the measure (`mancala prove` checks them).
//!
//! `cargo run --release -p mancala-solver --example andada_growth`
//! Environment: N (row length, default 6), SEEDS (comma-separated, default
//! 8,10,12,14,16,18), COUNT (positions per seed count, 9), LIMIT (nodes per question,
//! 20000000), TT_MB (table per question, 512).

use mancala_core::andada::{Andada, Phase};
use mancala_core::game::{SplitMix, random_line};
use mancala_core::{Game, PositionText};
use mancala_solver::on_search_stack;
use mancala_solver::proof::{Limits, ProofSearch, ProofTable, Verdict};

fn env<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The first position with at most `seeds` seeds of random games from the start.
fn draw(n: usize, seeds: u32, rng: &mut SplitMix) -> Andada {
    loop {
        let line = random_line(Andada::start(n, Default::default()), rng, 2000);
        if let Some(&g) = line
            .iter()
            .find(|g| g.material() <= seeds && g.phase() == Phase::Play && !g.is_terminal())
        {
            return g;
        }
    }
}

/// The value for the player to move and the nodes spent, or `None` and the nodes when a
/// question hit the limit.
fn value(g: &Andada, limit: u64, tt_mb: usize) -> (Option<i32>, u64) {
    let mut nodes = 0;
    for (attacker, yes) in [(g.to_move(), 1), (g.to_move().opponent(), -1)] {
        let table = ProofTable::with_mb(tt_mb);
        let limits = Limits {
            nodes: Some(limit),
            ..Limits::default()
        };
        let out = ProofSearch::new(&table, attacker, limits).run(g);
        nodes += out.nodes;
        match out.verdict {
            Verdict::Proven => return (Some(yes), nodes),
            Verdict::Open => return (None, nodes),
            Verdict::Disproven => {}
        }
    }
    (Some(0), nodes)
}

fn main() {
    let n: usize = env("N", 6);
    let count: usize = env("COUNT", 9);
    let limit: u64 = env("LIMIT", 20_000_000);
    let tt_mb: usize = env("TT_MB", 512);
    let seeds: Vec<u32> = env("SEEDS", "8,10,12,14,16,18".to_string())
        .split(',')
        .map(|s| s.trim().parse().expect("SEEDS: whole numbers"))
        .collect();
    on_search_stack(|| {
        for &s in &seeds {
            let mut rng = SplitMix(0xA9D0 ^ ((n as u64) << 8) ^ s as u64);
            // Open positions sort last: more than any decided one.
            let mut efforts: Vec<(bool, u64)> = Vec::new();
            for i in 0..count {
                let g = draw(n, s, &mut rng);
                let (v, nodes) = value(&g, limit, tt_mb);
                let shown = v.map_or("open".to_string(), |v| format!("{v:+}"));
                println!(
                    "2x{n} S {s:>2} #{i} {:>2} seeds value {shown:>4} nodes {nodes:>11}  {}",
                    g.material(),
                    g.to_text()
                );
                efforts.push((v.is_none(), nodes));
            }
            efforts.sort();
            let (open, median) = efforts[count / 2];
            let opens = efforts.iter().filter(|e| e.0).count();
            println!(
                "2x{n} S {s:>2}: median {}{median} nodes, {opens} of {count} open at {limit}",
                if open { ">" } else { "" }
            );
        }
    });
}
