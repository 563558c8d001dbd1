//! `mancala analyse`: a published line checked move by move against exact values.

use mancala_core::with_game_type;
use std::process::ExitCode;

use anyhow::{Result, bail};
use clap::Args;
use mancala_core::record::{self, start_position};
use mancala_solver::{Config, Solver};
use serde::Serialize;

use crate::dispatch::CliGame;
use crate::position::{RuleArgs, Source, classify};

/// Check a record or solution line move by move: the exact value of every move played
/// against the best value in its position ("optimal", or how much it gives away).
///
/// The line is replayed as `mancala verify` corrects it (a wrong letter in the record does
/// not stop the analysis; the corrections are listed first).
#[derive(Args, Debug)]
pub struct AnalyseArgs {
    /// A record file with a known start ([Start] tag or a standard start).
    record: String,
    #[command(flatten)]
    rule_args: RuleArgs,
    /// A retrograde database to use as an exact oracle.
    #[arg(long, value_name = "FILE")]
    db: Option<std::path::PathBuf>,
    /// Search threads.
    #[arg(long, short = 't', default_value_t = crate::cmd::solve::default_threads())]
    threads: usize,
    /// Transposition table size in MB (default: a sixteenth of the free memory, a power
    /// of two from 64 MB to 1 GB; a size beyond the free memory is refused).
    #[arg(long, default_value_t = mancala_solver::tt::default_mb())]
    tt_mb: usize,
    /// Also compute the exact value of every legal move at every ply (can be slow: a move
    /// that gives the game away may need a long proof of how much).
    #[arg(long)]
    all_moves: bool,
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
    start_value: f64,
    start_player: String,
    plies: Vec<Ply>,
    optimal_plies: usize,
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
    let mut tags = file.tags.clone();
    if let Some(r) = &a.rule_args.rules {
        tags.0.insert("Rules".into(), r.clone());
    }
    if let Some(k) = &a.rule_args.komi {
        tags.0.insert("Komi".into(), k.clone());
    }
    let start: G = start_position(&tags).map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
    let report = record::verify(file, start);
    let corrections: Vec<String> = report
        .issues
        .iter()
        .map(|i| format!("ply {}: {} ({})", i.ply, i.correction, i.recorded))
        .collect();
    let oracle = G::oracle(&start, a.db.as_deref())?;
    let solver = Solver::try_new(Config {
        threads: a.threads,
        tt_mb: a.tt_mb,
        max_pv: 0,
        all_moves: a.all_moves,
        ..Config::default()
    })?;
    let seat = |g: &G| G::seat_names()[g.to_move().index()].to_string();
    let mut g = start;
    let mut plies = Vec::new();
    let mut start_value = None;
    let stopped = || anyhow::anyhow!("the search was stopped");
    for (i, &mv) in report.played.iter().enumerate() {
        if g.is_terminal() {
            break;
        }
        let c = g.play(mv);
        let same = c.to_move() == g.to_move();
        let (best, played, best_moves) = if a.all_moves {
            let sol = solver
                .solve_with(&g, oracle.as_deref())
                .ok_or_else(stopped)?;
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
            let v = solver
                .value_after(&g, &[], g.banked(), oracle.as_deref())
                .ok_or_else(stopped)?;
            let keeps = if same {
                solver
                    .at_least(&c, &[], v, oracle.as_deref())
                    .ok_or_else(stopped)?
            } else {
                !solver
                    .at_least(&c, &[], -v + 1, oracle.as_deref())
                    .ok_or_else(stopped)?
            };
            (v, keeps.then_some(v), Vec::new())
        };
        start_value.get_or_insert(g.points(best));
        plies.push(Ply {
            ply: i + 1,
            player: seat(&g),
            mv: g.format_move(mv),
            value: played.map(|p| g.points(p)),
            best: g.points(best),
            best_moves,
            optimal: played == Some(best),
        });
        g = c;
    }
    let out = Output {
        file: name.clone(),
        corrections,
        start_value: start_value.unwrap_or(0.0),
        start_player: seat(&start),
        optimal_plies: plies.iter().filter(|p| p.optimal).count(),
        plies,
        final_position: g.to_text(),
    };
    if a.json {
        println!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(ExitCode::SUCCESS);
    }
    println!(
        "{}: value at the start {:+} for {}",
        out.file, out.start_value, out.start_player
    );
    for c in &out.corrections {
        println!("  corrected: {c}");
    }
    println!("  ply  player  move  value   best  best moves");
    for p in &out.plies {
        let v = match p.value {
            Some(v) => format!("{v:+}"),
            None => "<".to_string(),
        };
        println!(
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
    println!(
        "  {} of {} moves optimal; final position: {}",
        out.optimal_plies,
        out.plies.len(),
        out.final_position
    );
    Ok(ExitCode::SUCCESS)
}
