//! `mancala analyse`: a published line checked move by move against exact values.

use mancala_core::with_game_type;
use std::process::ExitCode;

use anyhow::{Result, bail};
use clap::Args;
use mancala_core::record;
use mancala_solver::{Config, Solver};
use serde::Serialize;

use crate::dispatch::CliGame;
use crate::position::{RuleArgs, Source, classify};

/// Check a record or solution line move by move: the exact value of every move played
/// against the best value in its position ("optimal", or how much it gives away).
///
/// The line is replayed as `mancala verify` corrects it (a wrong letter in the record does
/// not stop the analysis; the corrections are listed first). A record that verify cannot
/// replay to its end (a move with no correction found) is refused, naming the ply.
#[derive(Args, Debug)]
pub struct AnalyseArgs {
    /// A record file with a known start ([Start] tag or a standard start).
    record: String,
    #[command(flatten)]
    rule_args: RuleArgs,
    #[command(flatten)]
    db: crate::dispatch::DbArgs,
    /// Search threads, 1 to 1024 (default: one per core).
    #[arg(long, short = 't', value_parser = crate::args::threads, default_value_t = crate::cmd::solve::default_threads())]
    threads: usize,
    /// Transposition table size in MB (default: a sixteenth of the free memory, a power
    /// of two from 64 MB to 1 GB; a size beyond the free memory is refused).
    #[arg(long, default_value_t = mancala_solver::tt::default_mb(), value_parser = crate::args::tt_mb)]
    tt_mb: usize,
    /// Also compute the exact value of every legal move at every ply (can be slow: a move
    /// that gives the game away may need a long proof of how much).
    #[arg(long)]
    all_moves: bool,
    /// Stop after this many seconds in all and report the plies analysed so far.
    #[arg(long, value_parser = crate::args::seconds)]
    seconds: Option<f64>,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct Ply {
    ply: usize,
    player: String,
    #[serde(rename = "move")]
    mv: String,
    /// Value of the move played, for the player who made it (exact when optimal or with
    /// --all-moves; otherwise absent).
    value: Option<f64>,
    /// Best value in the position, for the same player.
    best: f64,
    /// The moves that keep the best value (with --all-moves).
    best_moves: Vec<String>,
    optimal: bool,
}

#[derive(Serialize)]
struct Output {
    file: String,
    corrections: Vec<String>,
    /// The value at the start for the player to move; absent when no move was analysed.
    start_value: Option<f64>,
    start_player: String,
    plies: Vec<Ply>,
    optimal_plies: usize,
    /// Moves of the (corrected) line, and whether every one was analysed (false when the
    /// time limit stopped the analysis).
    line_plies: usize,
    complete: bool,
    final_position: String,
}

pub fn run(a: AnalyseArgs) -> Result<ExitCode> {
    let src = classify(&a.record)?;
    with_game_type!(src.game().kind, G => analyse::<G>(&src, &a))
}

fn analyse<G: CliGame>(src: &Source, a: &AnalyseArgs) -> Result<ExitCode> {
    let Source::File { name, file, .. } = src else {
        bail!("analyse needs a record file")
    };
    let opts = a.rule_args.with_ply(None);
    let start: G = crate::position::record_start(name, file, &opts)?;
    let report = record::verify(file, start);
    if let Some(p) = report.stopped_at {
        let why = report.issues.iter().find(|i| i.ply == p);
        let why = why.map(|i| format!(" (recorded \"{}\"; {})", i.recorded, i.actual));
        bail!(
            "{name}: the record cannot be replayed past ply {p}{}, so its line cannot be \
             analysed; `mancala verify {name}` reports it",
            why.unwrap_or_default()
        );
    }
    let corrections: Vec<String> = report
        .issues
        .iter()
        .map(|i| format!("ply {}: {} ({})", i.ply, i.correction, i.recorded))
        .collect();
    let (oracle, databases) = a.db.oracle(&start)?;
    if !databases.is_empty() && !a.json {
        errln!("databases: {}", databases.join(", "));
    }
    let solver = Solver::try_new(Config {
        threads: a.threads,
        tt_mb: a.tt_mb,
        max_pv: 0,
        all_moves: a.all_moves,
        ..Config::default()
    })?;
    let seat = |g: &G| G::seat_names()[g.to_move().index()].to_string();
    let budget = a.seconds.map(std::time::Duration::from_secs_f64);
    let bar = progress_bar(report.played.len());
    let (plies, end, complete) = crate::cmd::limit::with_time_limit(&solver, budget, || {
        analyse_line(
            &solver,
            start,
            &report.played,
            a.all_moves,
            oracle.as_deref(),
            &bar,
        )
    })?;
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    let out = Output {
        file: name.clone(),
        corrections,
        start_value: plies.first().map(|p| p.best),
        start_player: seat(&start),
        optimal_plies: plies.iter().filter(|p| p.optimal).count(),
        plies,
        line_plies: report.played.len(),
        complete,
        final_position: end.to_text(),
    };
    print(&out, a.json)
}

/// A bar over the plies of the line, on a terminal only.
fn progress_bar(plies: usize) -> Option<indicatif::ProgressBar> {
    use std::io::IsTerminal;
    std::io::stderr().is_terminal().then(|| {
        let b = indicatif::ProgressBar::new(plies as u64);
        if let Ok(s) =
            indicatif::ProgressStyle::with_template("[{elapsed_precise}] {bar:40} ply {pos}/{len}")
        {
            b.set_style(s);
        }
        b
    })
}

/// The plies analysed, the position after them, and whether the whole line was analysed
/// (false when the search was stopped).
fn analyse_line<G: CliGame>(
    solver: &Solver,
    start: G,
    line: &[G::Move],
    all_moves: bool,
    oracle: Option<&dyn mancala_solver::retro::Oracle<G>>,
    bar: &Option<indicatif::ProgressBar>,
) -> (Vec<Ply>, G, bool) {
    let seat = |g: &G| G::seat_names()[g.to_move().index()].to_string();
    let mut g = start;
    let mut before = Vec::new();
    let mut plies = Vec::new();
    for (i, &mv) in line.iter().enumerate() {
        if g.is_terminal() {
            break;
        }
        let at = Position {
            g: &g,
            before: &before,
            ply: i + 1,
        };
        let Some(ply) = analyse_ply(solver, at, mv, all_moves, oracle) else {
            return (plies, g, false);
        };
        plies.push(Ply {
            player: seat(&g),
            ..ply
        });
        if let Some(b) = bar {
            b.inc(1);
        }
        before.push(g);
        g = g.play(mv);
    }
    (plies, g, true)
}

/// A position of the line: `g`, reached at ply `ply` after the positions `before`.
#[derive(Clone, Copy)]
struct Position<'a, G> {
    g: &'a G,
    before: &'a [G],
    ply: usize,
}

/// The value of the move `mv` played at `at` against the best there; `None` when the
/// search was stopped. Values may depend on the positions before (`at.before`).
fn analyse_ply<G: CliGame>(
    solver: &Solver,
    at: Position<G>,
    mv: G::Move,
    all_moves: bool,
    oracle: Option<&dyn mancala_solver::retro::Oracle<G>>,
) -> Option<Ply> {
    let Position { g, before, ply } = at;
    let after: Vec<G> = before.iter().copied().chain([*g]).collect();
    let c = g.play(mv);
    let same = c.to_move() == g.to_move();
    let (best, played, best_moves) = if all_moves {
        let sol = solver.solve_after(g, before, oracle)?;
        let played = sol
            .moves
            .iter()
            .find(|x| x.0 == mv)
            .map(|x| x.1)
            .expect("the replayed move is legal");
        let best_moves = sol
            .moves
            .iter()
            .filter(|x| x.1 == sol.value)
            .map(|x| g.format_move(x.0))
            .collect();
        (sol.value, Some(played), best_moves)
    } else {
        // The position's value, then one test: does the move played keep it?
        let v = solver.value_after(g, before, g.banked(), oracle)?;
        let keeps = if same {
            solver.at_least(&c, &after, v, oracle)?
        } else {
            !solver.at_least(&c, &after, -v + 1, oracle)?
        };
        (v, keeps.then_some(v), Vec::new())
    };
    Some(Ply {
        ply,
        player: String::new(),
        mv: g.format_move(mv),
        value: played.map(|p| g.points(p)),
        best: g.points(best),
        best_moves,
        optimal: played == Some(best),
    })
}

fn print(out: &Output, json: bool) -> Result<ExitCode> {
    if json {
        outln!("{}", serde_json::to_string_pretty(out)?);
        return Ok(ExitCode::SUCCESS);
    }
    match out.start_value {
        Some(v) => outln!(
            "{}: value at the start {v:+} for {}",
            out.file,
            out.start_player
        ),
        None => outln!(
            "{}: value at the start unknown (no move analysed)",
            out.file
        ),
    }
    for c in &out.corrections {
        outln!("  corrected: {c}");
    }
    outln!("  ply  player  move  value   best  best moves");
    for p in &out.plies {
        let v = match p.value {
            Some(v) => format!("{v:+}"),
            None => "<".to_string(),
        };
        outln!(
            "  {:>3}  {:<6}  {:<4}  {:>5}  {:>5}  {}{}",
            p.ply,
            p.player,
            p.mv,
            v,
            format!("{:+}", p.best),
            p.best_moves.join(" "),
            if p.optimal { "" } else { "   <- not optimal" }
        );
    }
    outln!(
        "  {} of {} moves optimal; final position: {}",
        out.optimal_plies,
        out.plies.len(),
        out.final_position
    );
    if !out.complete {
        outln!(
            "  stopped by the time limit after {} of {} plies",
            out.plies.len(),
            out.line_plies
        );
    }
    Ok(ExitCode::SUCCESS)
}
