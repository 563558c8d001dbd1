//! A Kalah 2 x 6 database file against forward search on random positions of its largest
//! classes: the tests compare every entry of whole classes of up to 10 seeds
//! (`tests/retro_kalah.rs`); a file of 25 or 28 seeds in play is too big for that, so its
//! top classes are sampled here before a proof rests on them.
//!
//! `cargo run --release -p mancala-solver --example kalah_db_sample -- DB_DIR RULES
//! MIN_SEEDS MAX_SEEDS COUNT [SEED] [--one-ply]`: RULES `empty-capture` or
//! `standard-capture`; COUNT positions with MIN..=MAX seeds in play, each seed dropped
//! into one of the 12 holes at random (both rows kept non-empty), the rest of the 72
//! seeds of Kalah(6,6) split at random between the stores, either side to move. Each is
//! solved by the solver without a database (one thread, a fresh 256 MB table each) and
//! compared with the value the largest database of DB_DIR gives. One line per position;
//! exit status 1 if any differs.
//!
//! With `--one-ply` anywhere among the arguments, each position is checked one move deep
//! instead: its value must be the best of its moves' values, each the database's value
//! of the position the move leads to (or the final value where the game ends there).
//! Kalah positions never repeat, so a table that agrees with itself this way at every
//! position holds the exact values; sampling millions of positions a minute tests the
//! retrograde build where search can sample dozens. One line at the end; a line for
//! each position that disagrees.

use std::path::Path;
use std::time::Instant;

use mancala_core::game::SplitMix;
use mancala_core::kalah::{Kalah, Rules};
use mancala_core::{Game, Player, PositionText};
use mancala_solver::retro::{Oracle, store};
use mancala_solver::{Config, Solver};

const HOLES: usize = 12;
const SEEDS: usize = 72;

/// A random position with `seeds` seeds in play, both rows non-empty.
fn deal(rng: &mut SplitMix, seeds: usize, rules: Rules) -> Kalah {
    loop {
        let mut holes = [0u8; HOLES];
        for _ in 0..seeds {
            holes[rng.below(HOLES)] += 1;
        }
        let row = |r: usize| holes[r * 6..r * 6 + 6].iter().any(|&h| h > 0);
        if !(row(0) && row(1)) {
            continue;
        }
        let south = rng.below(SEEDS - seeds + 1);
        let stores = [south as u8, (SEEDS - seeds - south) as u8];
        let mover = [Player::First, Player::Second][rng.below(2)];
        return Kalah::from_parts(&holes, stores, mover, rules).expect("a legal position");
    }
}

/// The best of `g`'s moves' values for its player to move, each read from `oracle` (or
/// the final value); `None` when a position after a move is not in the database.
fn one_ply(g: &Kalah, oracle: &dyn Oracle<Kalah>) -> Option<i32> {
    let mut best = None::<i32>;
    let mut missing = false;
    g.for_each_child(|_, c| {
        let theirs = if c.is_terminal() {
            Some(c.terminal_value())
        } else {
            oracle.probe(&c)
        };
        match theirs {
            Some(v) => {
                let mine = if c.to_move() == g.to_move() { v } else { -v };
                best = Some(best.map_or(mine, |b| b.max(mine)));
            }
            None => missing = true,
        }
    });
    if missing { None } else { best }
}

fn main() {
    let all: Vec<String> = std::env::args().skip(1).collect();
    let by_one_ply = all.iter().any(|a| a == "--one-ply");
    let args: Vec<String> = all.into_iter().filter(|a| a != "--one-ply").collect();
    if args.len() < 5 {
        eprintln!(
            "usage: kalah_db_sample DB_DIR RULES MIN_SEEDS MAX_SEEDS COUNT [SEED] [--one-ply]"
        );
        std::process::exit(2);
    }
    let rules = Rules::parse_variant(&args[1]).expect("RULES");
    let low: usize = args[2].parse().expect("MIN_SEEDS");
    let high: usize = args[3].parse().expect("MAX_SEEDS");
    let count: usize = args[4].parse().expect("COUNT");
    let mut rng = SplitMix(args.get(5).map_or(1, |s| s.parse().expect("SEED")));
    assert!(
        2 <= low && low <= high && high <= SEEDS,
        "2 <= MIN <= MAX <= 72"
    );
    let root = Kalah::start(6, 6, rules);
    let (found, _) = store::find(Path::new(&args[0]), &root);
    let found = found.expect("a Kalah 2 x 6 database of these rules in DB_DIR");
    println!(
        "database {} ({} seeds)",
        found.path.display(),
        found.max_seeds
    );
    assert!(
        high <= found.max_seeds as usize,
        "MAX_SEEDS within the database"
    );
    let start = Instant::now();
    let mut differ = 0;
    for _ in 0..count {
        let seeds = low + rng.below(high - low + 1);
        let g = deal(&mut rng, seeds, rules);
        let stored = found
            .db
            .probe(&g)
            .expect("a position of the database's classes");
        let same = if by_one_ply {
            agrees_one_ply(seeds, &g, stored, &found.db)
        } else {
            agrees_with_search(seeds, &g, stored)
        };
        differ += usize::from(!same);
    }
    let how = if by_one_ply {
        "checked one move deep"
    } else {
        "searched"
    };
    println!(
        "{count} positions, {differ} different ({how}, {low}-{high} seeds, {:.1} s)",
        start.elapsed().as_secs_f64()
    );
    std::process::exit(i32::from(differ > 0));
}

/// Whether `g`'s stored value is the best of its moves' (a line when it is not).
fn agrees_one_ply(seeds: usize, g: &Kalah, stored: i32, oracle: &dyn Oracle<Kalah>) -> bool {
    let best = one_ply(g, oracle);
    let same = best == Some(stored);
    if !same {
        println!(
            "{seeds} {}  database {stored:+}  its moves {best:?}  DIFFERENT",
            g.to_text()
        );
    }
    same
}

/// Whether a search without a database finds `g`'s stored value (a line either way).
fn agrees_with_search(seeds: usize, g: &Kalah, stored: i32) -> bool {
    let t0 = Instant::now();
    // A fresh solver each time: no table entry carries over from another sample.
    let solver = Solver::new(Config {
        threads: 1,
        tt_mb: 256,
        all_moves: false,
        ..Config::default()
    });
    let searched = solver.solve_with(g, None).expect("not stopped");
    let same = stored == searched.value;
    println!(
        "{seeds} {}  database {stored:+}  search {:+} ({} nodes, {:.2} s)  {}",
        g.to_text(),
        searched.value,
        searched.nodes,
        t0.elapsed().as_secs_f64(),
        if same { "same" } else { "DIFFERENT" }
    );
    same
}
