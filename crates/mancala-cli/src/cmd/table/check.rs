//! `mancala table --rows FILE`: every row of a rows file solved again and compared with
//! the value (and move values) documented for it.

use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Result, anyhow};
use mancala_core::with_game_type;
use mancala_solver::{Config, Solver};
use serde::Serialize;

use super::TableArgs;
use super::rows::{self, Row};
use crate::dispatch::CliGame;
use crate::position::{RuleOptions, build_line, classify};

/// What solving a row showed.
#[derive(Serialize)]
struct Checked {
    id: String,
    position: String,
    rules: Option<String>,
    komi: Option<String>,
    ply: Option<usize>,
    /// The documented value for the side to move.
    documented: f64,
    /// The value found now (None: not solved within --seconds).
    value: Option<f64>,
    /// Moves whose value found now differs from the documented one.
    moves_differing: Vec<MoveCheck>,
    moves_checked: usize,
    status: Status,
    nodes: u64,
    seconds: f64,
}

#[derive(Serialize)]
struct MoveCheck {
    #[serde(rename = "move")]
    mv: String,
    documented: f64,
    value: f64,
}

#[derive(Serialize, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
enum Status {
    /// The value and every listed move value are as documented.
    Agrees,
    Differs,
    /// Not solved within the time budget.
    Open,
}

/// Solves every chosen row of the rows file and reports; exit 1 unless all agree.
pub fn run(a: &TableArgs, file: &std::path::Path) -> Result<ExitCode> {
    let name = file.display().to_string();
    let text = crate::input::read_text(&name)?;
    let rows = rows::read(&name, &text)?;
    let chosen: Vec<&Row> = rows
        .iter()
        .filter(|r| rows::chosen(&r.id, &a.only))
        .collect();
    if let Some(o) = a.only.iter().find(|o| {
        !rows
            .iter()
            .any(|r| rows::chosen(&r.id, std::slice::from_ref(o)))
    }) {
        anyhow::bail!("--only {o}: {name} has no such row");
    }
    let mut out = Vec::new();
    for row in chosen {
        let checked = check_row(row, a).map_err(|e| {
            anyhow!(
                "{}:line {}: row {}: {e}",
                row.place.file,
                row.place.line,
                row.id
            )
        })?;
        if !a.json {
            print_row(&checked);
        }
        out.push(checked);
    }
    let count = |s: Status| out.iter().filter(|c| c.status == s).count();
    let (agree, differ, open) = (
        count(Status::Agrees),
        count(Status::Differs),
        count(Status::Open),
    );
    if a.json {
        outln!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        outln!(
            "{} rows: {agree} as documented, {differ} differ, {open} open",
            out.len()
        );
    }
    Ok(if agree == out.len() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn check_row(row: &Row, a: &TableArgs) -> Result<Checked> {
    let src = classify(&row.position)?;
    let opts = RuleOptions {
        rules: row.rules.clone(),
        komi: row.komi.clone(),
        ply: row.ply,
    };
    with_game_type!(src.game().kind, G => solve_row::<G>(row, &src, &opts, a))
}

fn solve_row<G: CliGame>(
    row: &Row,
    src: &crate::position::Source,
    opts: &RuleOptions,
    a: &TableArgs,
) -> Result<Checked> {
    let (root, before): (G, Vec<G>) = build_line(src, opts)?;
    let documented_moves = row
        .moves
        .iter()
        .map(|m| {
            root.parse_move(&m.text)
                .map(|mv| (mv, m))
                .map_err(|e| anyhow!("column {}: \"{}\": {e}", m.place.column, m.text))
        })
        .collect::<Result<Vec<_>>>()?;
    let solver = Solver::try_new(Config {
        threads: a.threads,
        tt_mb: a.tt_mb,
        all_moves: !row.moves.is_empty(),
        max_pv: 0,
        ..Config::default()
    })?;
    let (oracle, _) = crate::dispatch::oracle_for(&root, None, a.db_dir.as_deref())?;
    let budget = Some(Duration::from_secs_f64(a.seconds));
    let sol = crate::cmd::limit::with_time_limit(&solver, budget, || {
        solver.solve_after(&root, &before, oracle.as_deref())
    })?;
    let mut checked = Checked {
        id: row.id.clone(),
        position: row.position.clone(),
        rules: row.rules.clone(),
        komi: row.komi.clone(),
        ply: row.ply,
        documented: row.value,
        value: None,
        moves_differing: Vec::new(),
        moves_checked: 0,
        status: Status::Open,
        nodes: solver
            .progress
            .nodes
            .load(std::sync::atomic::Ordering::Relaxed),
        seconds: 0.0,
    };
    let Some(sol) = sol else {
        checked.seconds = a.seconds;
        return Ok(checked);
    };
    if !row.moves.is_empty() {
        let missing: Vec<String> = sol
            .moves
            .iter()
            .filter(|(mv, _)| !documented_moves.iter().any(|(d, _)| d == mv))
            .map(|&(mv, _)| root.format_move(mv))
            .collect();
        if !missing.is_empty() {
            anyhow::bail!(
                "moves: the legal moves {} are not listed",
                missing.join(", ")
            );
        }
    }
    for (mv, doc) in &documented_moves {
        let Some(&(_, v)) = sol.moves.iter().find(|(m, _)| m == mv) else {
            anyhow::bail!(
                "column {}: \"{}\" is not a legal move here",
                doc.place.column,
                doc.text
            );
        };
        let value = root.points(v);
        if value != doc.value {
            checked.moves_differing.push(MoveCheck {
                mv: doc.text.clone(),
                documented: doc.value,
                value,
            });
        }
    }
    let value = root.points(sol.value);
    checked.value = Some(value);
    checked.moves_checked = documented_moves.len();
    checked.nodes = sol.nodes;
    checked.seconds = sol.seconds;
    checked.status = if value == row.value && checked.moves_differing.is_empty() {
        Status::Agrees
    } else {
        Status::Differs
    };
    Ok(checked)
}

fn print_row(c: &Checked) {
    let mut what = c.position.clone();
    for (field, v) in [("rules", &c.rules), ("komi", &c.komi)] {
        if let Some(v) = v {
            what.push_str(&format!(" {field}:{v}"));
        }
    }
    if let Some(p) = c.ply {
        what.push_str(&format!(" ply:{p}"));
    }
    let verdict = match (c.status, c.value) {
        (Status::Agrees, _) if c.moves_checked > 0 => {
            format!("as documented ({} move values too)", c.moves_checked)
        }
        (Status::Agrees, _) => "as documented".to_string(),
        (Status::Open, _) => "open: not solved within --seconds".to_string(),
        (Status::Differs, v) => {
            let found = v.map_or("?".to_string(), |v| v.to_string());
            let mut s = format!("DIFFERS: documented {}, found {found}", c.documented);
            for m in &c.moves_differing {
                s.push_str(&format!(
                    "; move {} documented {}, found {}",
                    m.mv, m.documented, m.value
                ));
            }
            s
        }
    };
    let value = c.value.map_or("?".to_string(), |v| v.to_string());
    outln!(
        "{:<8} {:<40} {:>6}  {:<30} {:>14} nodes {:>8.2} s",
        c.id,
        what,
        value,
        verdict,
        c.nodes,
        c.seconds
    );
}
