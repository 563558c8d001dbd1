//! `mancala stats`: self-play statistics (first-move advantage, game length, branching
//! factor, game-tree complexity) between two players.

use mancala_core::with_game_type;
use std::io::IsTerminal;
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result, anyhow, bail};
use clap::Args;
use mancala_solver::strategies::Strategy;
use mancala_solver::strategies::selfplay::{DEFAULT_MAX_PLIES, Stats, play_games};
use serde::Serialize;

use crate::dispatch::CliGame;
use crate::position::{RuleArgs, build, classify};

/// Play many games between two players and report who wins, how long games last, and the
/// branching factor and game-tree complexity.
///
/// GAME is a named start (afrika:8x8, kauri, kalah:6x4, andada:12, progressive:11), a
/// position line or a position file. Players: random, greedy (best captured margin after
/// the move), ab:D (alpha-beta to depth D on the captured margin), perfect[:T] (the exact
/// solver once at most T stones are on the board, default 10, or once a database of the
/// data directory holds the position, the solver then using it; ab:4 before). Ties are
/// broken at random; game i is seeded from --seed and i, so runs are reproducible for any
/// thread count.
///
/// A ply is one move decision (every sowing, extra turns included). The game-tree
/// complexity is given as Allis's b^d (mean branching to the mean length) and as the
/// mean over games of the product of the branching factors along each game; the latter
/// estimates the number of leaves without bias only when both players are random.
#[derive(Args, Debug)]
pub struct StatsArgs {
    /// The start: a named start, a position line or a file.
    game: String,
    /// Number of games, 1 to 1,000,000,000 (tallied as they are played: memory does not grow
    /// with the number).
    #[arg(long, default_value_t = 1000, value_parser = crate::args::games)]
    games: usize,
    /// The first player (the player to move at the start).
    #[arg(long, default_value = "random")]
    first: String,
    /// The second player.
    #[arg(long, default_value = "random")]
    second: String,
    /// Seed of the run.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    rule_args: RuleArgs,
    /// Games longer than this many plies are stopped and counted as capped.
    #[arg(long, default_value_t = DEFAULT_MAX_PLIES, value_parser = crate::args::plies)]
    max_plies: usize,
    /// Worker threads, 1 to 1024 (default: one per core). Results do not depend on it.
    #[arg(long, short = 't', value_parser = crate::args::threads, default_value_t = crate::cmd::solve::default_threads())]
    threads: usize,
    #[command(flatten)]
    db: crate::dispatch::DbArgs,
    /// Print JSON.
    #[arg(long)]
    json: bool,
    /// Write SVG charts (length.svg, branching.svg, margin.svg) to this directory (charts
    /// already there only with --force).
    #[arg(long, value_name = "DIR")]
    plot: Option<std::path::PathBuf>,
    /// Replace existing charts in the --plot directory.
    #[arg(long, requires = "plot")]
    force: bool,
}

/// The files `--plot` writes.
const CHARTS: [&str; 3] = ["length.svg", "branching.svg", "margin.svg"];

#[derive(Serialize)]
struct Output<'a> {
    game: String,
    position: String,
    first: String,
    second: String,
    seed: u64,
    max_plies: usize,
    seconds: f64,
    /// The database files the `perfect` player used.
    databases: Vec<String>,
    #[serde(flatten)]
    stats: &'a Stats,
}

pub fn run(a: StatsArgs) -> Result<ExitCode> {
    let first: Strategy = a
        .first
        .parse()
        .map_err(|e: String| anyhow!("--first: {e}"))?;
    let second: Strategy = a
        .second
        .parse()
        .map_err(|e: String| anyhow!("--second: {e}"))?;
    if a.games == 0 {
        bail!("--games must be at least 1");
    }
    if let Some(dir) = &a.plot {
        if dir.exists() && !dir.is_dir() {
            bail!(
                "--plot {}: not a folder (the charts are written into one)",
                dir.display()
            );
        }
        for chart in CHARTS {
            crate::files::may_write(&dir.join(chart), a.force)?;
        }
    }
    let src = classify(&a.game)?;
    let opts = a.rule_args.with_ply(None);
    with_game_type!(src.game().kind, G => {
        let root: G = build(&src, &opts)?;
        stats::<G>(&root, first, second, &a)
    })
}

fn stats<G: CliGame>(
    root: &G,
    first: Strategy,
    second: Strategy,
    a: &StatsArgs,
) -> Result<ExitCode> {
    if root.is_terminal() {
        bail!("the game is already over in this position");
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(a.threads)
        .build()
        // The build error displays its cause already: no second copy from `context`.
        .map_err(|e| anyhow!("cannot start the worker threads: {e}"))?;
    let bar = std::io::stderr().is_terminal().then(|| {
        let b = indicatif::ProgressBar::new(a.games as u64);
        if let Ok(s) = indicatif::ProgressStyle::with_template(
            "[{elapsed_precise}] {bar:40} {pos}/{len} games ({eta} left)",
        ) {
            b.set_style(s);
        }
        b
    });
    let tick = |games: u64| {
        if let Some(b) = &bar {
            b.inc(games);
        }
    };
    // Only the perfect player reads databases: no other run loads or reports one.
    let perfect = |s: Strategy| matches!(s, Strategy::Perfect(_));
    let (oracle, databases) = if perfect(first) || perfect(second) {
        a.db.oracle(root)?
    } else if a.db.db.is_some() || a.db.db_dir.is_some() {
        bail!("--db/--db-dir: only a perfect player reads databases, and neither player is one");
    } else {
        (None, Vec::new())
    };
    let oracle = oracle.as_deref();
    let t0 = Instant::now();
    let (players, plies) = ([first, second], a.max_plies);
    let tally = pool.install(|| play_games(root, players, a.seed, a.games, plies, oracle, &tick));
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    let seconds = t0.elapsed().as_secs_f64();
    let s = tally.stats();
    if let Some(dir) = &a.plot {
        plots(dir, &s).with_context(|| format!("{}: cannot write the charts", dir.display()))?;
    }
    let out = Output {
        game: G::NAME.to_string(),
        position: root.to_text(),
        first: first.to_string(),
        second: second.to_string(),
        seed: a.seed,
        max_plies: a.max_plies,
        seconds,
        databases,
        stats: &s,
    };
    if a.json {
        outln!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        print_text(&out);
    }
    Ok(ExitCode::SUCCESS)
}

fn pct(p: &mancala_solver::strategies::selfplay::Proportion) -> String {
    format!(
        "{:5} ({:.1}%, 95% CI {:.1}-{:.1}%)",
        p.count,
        100.0 * p.rate,
        100.0 * p.low,
        100.0 * p.high
    )
}

fn print_text(o: &Output) {
    let s = o.stats;
    outln!("game:      {} ({})", o.game, o.position);
    outln!(
        "players:   {} (first) vs {} (second), seed {}",
        o.first,
        o.second,
        o.seed
    );
    outln!(
        "games:     {} ({} finished, {} by repetition, {} capped at {} plies) in {:.1} s",
        s.games,
        s.finished,
        s.repetitions,
        s.capped,
        o.max_plies,
        o.seconds
    );
    if !o.databases.is_empty() {
        outln!("databases: {}", o.databases.join(", "));
    }
    outln!("first wins:  {}", pct(&s.first_win_rate));
    outln!("draws:       {}", pct(&s.draw_rate));
    outln!("second wins: {}", pct(&s.second_win_rate));
    outln!(
        "mean margin (first player, komi included): {:+.3} (95% CI {:+.3} to {:+.3})",
        s.mean_margin,
        s.margin_ci.0,
        s.margin_ci.1
    );
    if let Some((a, b, m)) = s.largest_win {
        outln!("largest win: {a}:{b} (margin {m:+} for the first player)");
    }
    outln!(
        "plies:     min {} / mean {:.2} / max {} (mean plies with a real choice: {:.2})",
        s.plies.min,
        s.plies.mean,
        s.plies.max,
        s.plies.mean_choices
    );
    if let Some(d) = &s.decided {
        outln!(
            "decided:   min {} / mean {:.2} / max {} plies until a player held more than half of the stones ({} games)",
            d.min,
            d.mean,
            d.max,
            d.games
        );
    }
    print_branching(o);
}

/// The branching factors and the game-tree complexity estimates.
fn print_branching(o: &Output) {
    let s = o.stats;
    outln!(
        "branching: mean {:.3} over all positions, {:.3} over positions with >= 2 moves; largest {}, most common {}",
        s.mean_branching,
        s.mean_branching_choices,
        s.max_branching,
        s.most_common_branching
    );
    outln!(
        "game-tree complexity: b^d = {:.3}^{:.2} = 10^{:.2} (Allis); mean product of branching factors = 10^{:.2}{}",
        s.mean_branching,
        s.plies.mean,
        s.tree_complexity_log10,
        s.product_estimate_log10,
        if o.first == "random" && o.second == "random" {
            " (unbiased: random players)"
        } else {
            " (biased: unbiased only for random players)"
        }
    );
    if let (Some(d), Some(c)) = (&s.decided, s.decided_complexity_log10) {
        outln!(
            "game-tree complexity until decided: b^d = {:.3}^{:.2} = 10^{:.2}",
            s.mean_branching,
            d.mean,
            c
        );
    }
    outln!("length histogram (plies: games):");
    let max = s
        .length_histogram
        .iter()
        .map(|&(_, c)| c)
        .max()
        .unwrap_or(1);
    // Buckets of 10 plies keep the table short.
    let mut buckets = std::collections::BTreeMap::new();
    for &(l, c) in &s.length_histogram {
        *buckets.entry(l / 10 * 10).or_insert(0usize) += c;
    }
    let bmax = buckets.values().copied().max().unwrap_or(max).max(1);
    for (b, c) in buckets {
        outln!(
            "  {:4}-{:<4} {:6} {}",
            b,
            b + 9,
            c,
            "#".repeat((c * 50).div_ceil(bmax))
        );
    }
    outln!("branching by ply (ply: mean moves, positions):");
    for p in s.branching_by_ply.iter().filter(|p| p.ply % 10 == 1) {
        outln!("  {:4}: {:6.2} {:8}", p.ply, p.mean, p.positions);
    }
}

/// Three SVG charts: game lengths, branching factor by ply, final margins.
fn plots(dir: &Path, s: &Stats) -> Result<()> {
    std::fs::create_dir_all(dir)?;
    let lengths = s
        .length_histogram
        .iter()
        .map(|&(l, c)| (l as f64, c as f64));
    let margins = s.margins.iter().map(|&(m, c)| (m, c as f64));
    let branching = s.branching_by_ply.iter().map(|p| (p.ply as f64, p.mean));
    let charts: [(_, _, _, _, Vec<(f64, f64)>); 3] = [
        (
            "length.svg",
            "Game length",
            "plies",
            Kind::Bars,
            lengths.collect(),
        ),
        (
            "margin.svg",
            "Final margin (first player)",
            "points",
            Kind::Bars,
            margins.collect(),
        ),
        (
            "branching.svg",
            "Mean legal moves by ply",
            "ply",
            Kind::Line,
            branching.collect(),
        ),
    ];
    for (file, title, x_label, kind, points) in charts {
        chart(&dir.join(file), title, x_label, kind, &points)?;
    }
    Ok(())
}

fn range(xs: impl Iterator<Item = f64> + Clone) -> (f64, f64) {
    let lo = xs.clone().fold(f64::INFINITY, f64::min);
    let hi = xs.fold(f64::NEG_INFINITY, f64::max);
    if lo.is_finite() && hi.is_finite() && hi > lo {
        (lo, hi)
    } else if lo.is_finite() {
        (lo - 1.0, lo + 1.0)
    } else {
        (0.0, 1.0)
    }
}

/// How a chart draws its data.
#[derive(Copy, Clone, PartialEq)]
enum Kind {
    /// A histogram of games: one bar per x.
    Bars,
    /// A curve of legal moves by ply.
    Line,
}

fn chart(path: &Path, title: &str, xlabel: &str, kind: Kind, data: &[(f64, f64)]) -> Result<()> {
    use plotters::prelude::*;
    let err = |e: &dyn std::fmt::Display| anyhow!("{}: {e}", path.display());
    let root = SVGBackend::new(path, (800, 500)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let (x0, x1) = range(data.iter().map(|d| d.0));
    // Bars get half a unit of room on each side.
    let pad = if kind == Kind::Bars { 1.0 } else { 0.0 };
    let ymax = data.iter().map(|d| d.1).fold(1.0, f64::max);
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 24))
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(x0 - pad..x1 + pad, 0.0..ymax * 1.05)
        .map_err(|e| err(&e))?;
    chart
        .configure_mesh()
        .x_desc(xlabel)
        .y_desc(if kind == Kind::Bars {
            "games"
        } else {
            "legal moves"
        })
        .draw()
        .map_err(|e| err(&e))?;
    match kind {
        Kind::Bars => {
            chart.draw_series(data.iter().map(|&(x, y)| {
                Rectangle::new([(x - 0.4, 0.0), (x + 0.4, y)], BLUE.mix(0.7).filled())
            }))
        }
        Kind::Line => chart.draw_series(LineSeries::new(data.iter().copied(), &BLUE)),
    }
    .map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))?;
    Ok(())
}
