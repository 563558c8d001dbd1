//! `mancala verify`: replay published records and check them.

use mancala_core::with_game_type;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::Args;
use mancala_core::record::{self, RecordGame, Report, parse_file_lenient, start_position};
use serde::Serialize;

use crate::input::{display_name, read_text};

/// Replay records and check every move, capture amount and result statement.
///
/// A record file holds `[Tag "value"]` lines ([Game], [Start], [Rules], [Komi], player
/// names) and the record as published. A bare move list (no tags) is read with --game and
/// replayed from the standard start. Every problem is reported with its line and column,
/// text that cannot be read included, and checking goes on to the end of the record; a
/// file that cannot be checked at all is reported and the other files are still checked.
/// Exit status: 0 when every record was checked (even if inconsistent; see --strict), 1
/// with --strict when a record is inconsistent, 2 when a file could not be checked.
#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// Record files, or "-" for standard input.
    #[arg(required = true)]
    files: Vec<String>,
    /// The game of a bare move list (afrika, kauri, progressive, andada, kalah);
    /// overrides nothing in a file that has a [Game] tag but must agree with it.
    #[arg(long)]
    game: Option<String>,
    /// Print JSON: one object per file (an array when several files are given); a file
    /// that could not be checked is an object with its `file` and the `error`.
    #[arg(long)]
    json: bool,
    /// Exit with status 1 when a record is inconsistent.
    #[arg(long)]
    strict: bool,
}

#[derive(Serialize)]
struct FileReport {
    file: String,
    game: String,
    #[serde(flatten)]
    report: Report<()>,
}

pub fn run(a: VerifyArgs) -> Result<ExitCode> {
    let stdin = a.files.iter().filter(|f| f.as_str() == "-").count();
    if stdin > 1 {
        bail!("\"-\" (standard input) is given {stdin} times; it can be read once");
    }
    let mut out = Vec::new();
    let mut json = Vec::new();
    let mut failed = 0;
    for f in &a.files {
        match verify_path(f, a.game.as_deref()) {
            Ok(r) => {
                json.push(serde_json::to_value(&r)?);
                out.push(r);
            }
            Err(e) => {
                errln!("error: {e:#}");
                let file = display_name(f);
                json.push(serde_json::json!({ "file": file, "error": format!("{e:#}") }));
                failed += 1;
            }
        }
    }
    if a.json {
        let v = if json.len() == 1 {
            json.swap_remove(0)
        } else {
            serde_json::Value::Array(json)
        };
        outln!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        for r in &out {
            print_human(r);
        }
    }
    let all_ok = out.iter().all(|r| r.report.consistent);
    if failed > 0 {
        if a.files.len() > 1 {
            errln!("{failed} of {} file(s) could not be checked", a.files.len());
        }
        return Ok(ExitCode::from(2));
    }
    Ok(if a.strict && !all_ok {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn verify_path(path: &str, game: Option<&str>) -> Result<FileReport> {
    let name = display_name(path);
    let text = read_text(path)?;
    let rec = parse_file_lenient(name, &text).map_err(anyhow::Error::new)?;
    // A position file ([Start] and no moves) is checked as a position; a file with
    // neither a position nor moves holds nothing to check.
    let body = &rec.body;
    let empty = body.groups.is_empty() && body.result.is_none() && body.errors.is_empty();
    if empty && rec.tags.get("Start").is_none() {
        bail!(
            "{name}: no moves, no result statement and no [Start] position: there is \
             nothing to check"
        );
    }
    let game = match (rec.tags.get("Game"), game) {
        (Some(t), Some(g)) if !t.eq_ignore_ascii_case(g) => {
            bail!("{name}: the file says [Game \"{t}\"] but --game {g} was given")
        }
        (Some(t), _) => t.to_string(),
        (None, Some(g)) => g.to_string(),
        (None, None) => {
            bail!(
                "{name}: no [Game] tag; give the game with --game (afrika, kauri, progressive, \
                 andada, kalah)"
            )
        }
    };
    let game = mancala_core::registry::find(&game)?;
    let report = with_game_type!(game.kind, G => check::<G>(name, &rec))?;
    Ok(FileReport {
        file: name.to_string(),
        game: game.name.to_string(),
        report,
    })
}

fn check<G: RecordGame>(name: &str, rec: &record::RecordFile) -> Result<Report<()>> {
    let start: G = start_position(&rec.tags)
        .with_context(|| format!("{name}: cannot set up the start position"))?;
    Ok(record::verify(rec, start).untyped())
}

fn print_human(r: &FileReport) {
    let rep = &r.report;
    outln!(
        "{}: {} record, {} {}: {}",
        r.file,
        r.game,
        rep.plies,
        if rep.plies == 1 { "ply" } else { "plies" },
        if rep.consistent {
            "consistent".to_string()
        } else {
            format!("{} issue(s)", rep.issues.len())
        }
    );
    for i in &rep.issues {
        let at = if i.ply == 0 {
            format!("line {}, column {}, result", i.pos.line, i.pos.column)
        } else {
            format!(
                "line {}, column {}, ply {}",
                i.pos.line, i.pos.column, i.ply
            )
        };
        let num = i
            .move_number
            .map(|n| format!(" (move {n})"))
            .unwrap_or_default();
        outln!(
            "  {at}{num}: recorded \"{}\"; rules give: {}; correction: {}",
            i.recorded,
            i.actual,
            i.correction
        );
    }
    let after = match rep.stopped_at {
        Some(p) => format!(", after ply {} (the replay stopped at ply {p})", p - 1),
        None => String::new(),
    };
    outln!(
        "  final score {}:{} (first player first){after}{}{}",
        rep.final_score[0],
        rep.final_score[1],
        if rep.game_over {
            ", game over"
        } else if rep.decided {
            ", decided"
        } else {
            ", game not over"
        },
        rep.result
            .as_ref()
            .map(|s| format!(", result \"{s}\""))
            .unwrap_or_default()
    );
    outln!("  final position: {}", rep.final_position);
    if !rep.captures_checked && rep.plies > 0 {
        outln!(
            "  captures not checked: the record annotates none (a plain move list); moves, \
             turns and the result were checked"
        );
    }
}
