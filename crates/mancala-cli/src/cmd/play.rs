//! `mancala play`: a record move by move, with the board after each move.

use mancala_core::with_game_type;
use std::process::ExitCode;

use anyhow::{Result, bail};
use clap::Args;
use serde::Serialize;

use crate::dispatch::CliGame;
use crate::position::{RecordArgs, RuleOptions, Source, build, classify_as};

/// Step through a record move by move, with the board after each move.
#[derive(Args, Debug)]
pub struct PlayArgs {
    /// A record file (with [Game] and [Start] tags, or a bare move list with --game), "-"
    /// for standard input, or any position `solve` takes (shown with no move to play).
    record: String,
    /// The game of a bare move list without tags.
    #[arg(long)]
    game: Option<String>,
    #[command(flatten)]
    record_args: RecordArgs,
    /// Print JSON: one entry per move with the position after it.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct Step {
    ply: usize,
    #[serde(rename = "move")]
    mv: String,
    player: String,
    captured: [u32; 2],
    position: String,
}

pub fn play(a: PlayArgs) -> Result<ExitCode> {
    let src = classify_as(&a.record, a.game.as_deref())?;
    let opts = a.record_args.rule_args.with_ply(None);
    with_game_type!(src.game().kind, G => play_game::<G>(&src, &opts, &a))
}

fn play_game<G: CliGame>(src: &Source, opts: &RuleOptions, a: &PlayArgs) -> Result<ExitCode> {
    // A record is played from its start; any other position (a named start, a position
    // line, a file holding one) is shown as it is, with no move to play.
    let (start, record): (G, _) = match src {
        Source::File {
            name,
            file,
            position_line: None,
            ..
        } => {
            let start = build(
                &Source::File {
                    game: src.game(),
                    name: name.clone(),
                    file: strip_moves(file),
                    position_line: None,
                },
                opts,
            )?;
            (start, Some((name, file)))
        }
        _ => (build(src, opts)?, None),
    };
    if a.record_args.ply.is_some() && record.is_none() {
        bail!("--ply applies to record files only");
    }
    let n = a.record_args.ply.unwrap_or(usize::MAX);
    if let (Some(p), Some((name, file))) = (a.record_args.ply, &record) {
        let len = file.moves().count();
        if p > len {
            bail!("{name}: --ply {p}, but the record has only {len} moves");
        }
    }
    let mut steps: Vec<Step> = Vec::new();
    if !a.json {
        outln!("start:");
        out!("{}", start.layout().to_text());
    }
    let Some((name, file)) = record else {
        if a.json {
            outln!("{}", serde_json::to_string_pretty(&steps)?);
        }
        return Ok(ExitCode::SUCCESS);
    };
    crate::position::warn_if_inconsistent(name, file, start);
    mancala_core::record::replay(name, file, start, n, |step| {
        let g = step.after;
        let player = G::seat_names()[step.before.to_move().index()].to_string();
        let name = step.before.format_move(step.mv);
        if a.json {
            steps.push(Step {
                ply: step.ply,
                mv: name,
                player,
                captured: [
                    g.captured(mancala_core::Player::First),
                    g.captured(mancala_core::Player::Second),
                ],
                position: g.to_text(),
            });
        } else {
            outln!("\nply {}: {player} plays {name}", step.ply);
            out!("{}", g.layout().to_text());
        }
    })?;
    if a.json {
        outln!("{}", serde_json::to_string_pretty(&steps)?);
    }
    Ok(ExitCode::SUCCESS)
}

fn strip_moves(file: &mancala_core::record::RecordFile) -> mancala_core::record::RecordFile {
    let mut f = file.clone();
    f.body.groups.clear();
    f
}
