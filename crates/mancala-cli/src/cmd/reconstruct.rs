//! `mancala reconstruct`: find the start positions consistent with published Afrika lines
//! whose diagram is lost (issue 4), with the corrections each line needs, and the exact
//! solver's verdict on the published claims.

use mancala_core::rows::Seated;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Result, anyhow, bail};
use clap::Args;
use mancala_analysis::reconstruct::{Candidate, Line, fit_line, intersect};
use mancala_core::afrika::Afrika;
use mancala_core::record::{RecordGame, parse_file_keeping_annotations};
use mancala_core::rows::Row;
use mancala_core::{Game, Notation, PositionText};
use mancala_solver::{Config, Solver};
use serde::Serialize;

use crate::input::{display_name, read_text};

/// Reconstruct a lost Afrika start position from published lines.
///
/// Every FILE is a record of one line from the same unknown start ([Start "unknown"],
/// [ToMove], [Board], and a result statement such as "South wins with 65:63 points." or
/// "Draw."). Each line is unwound backwards from the empty board; up to K corrections
/// (wrong amount, wrong letter, wrong case, extra move, lost move) are allowed. Prints the
/// candidate count for every budget 0..=K, then the cheapest candidates with their
/// corrections, the corrected lines and the exact solver's value of every first move.
///
/// With --forward (one or two lines): the lines are played forwards from a start whose
/// holes are all unknown, fixing a hole only when a move needs it, without corrections.
/// Prints the positions left for every pair of trusted prefixes, the frontier (longest
/// pairs with a position left), the positions of the frontier pairs lowered by --below
/// plies on which the exact solver confirms the claims (line 1's first move is the only
/// winning move and worth its final margin; line 2's first move is worth its margin),
/// and for each, where each line leaves legal and best play and its fewest corrections.
#[derive(Args, Debug)]
pub struct ReconstructArgs {
    #[arg(required = true)]
    files: Vec<String>,
    /// Most corrections in each line (the candidates are ranked by the total) [default: 1].
    #[arg(long, value_parser = crate::args::count)]
    max_corrections: Option<usize>,
    /// Candidates shown.
    #[arg(long, default_value_t = 5, value_parser = crate::args::count)]
    limit: usize,
    /// Print JSON.
    #[arg(long)]
    json: bool,
    /// Skip the solver's verdicts (with --forward: the claims are not checked).
    #[arg(long)]
    no_solve: bool,
    /// Search nodes per line and budget before giving up [default: 50000000]; with
    /// --forward, lazy starts expanded by the prefix search [default: 200000000].
    #[arg(long, value_parser = crate::args::nodes)]
    node_limit: Option<u64>,
    /// The forward method with lazy holes and trusted prefixes (issue 16).
    #[arg(long)]
    forward: bool,
    /// --forward: the claims are checked on the positions of the frontier pairs, each
    /// prefix shortened by this many plies [default: 1].
    #[arg(long, value_parser = crate::args::count)]
    below: Option<usize>,
    /// --forward: check the claims on the positions of this prefix pair (plies of line 1,
    /// plies of line 2, e.g. 9,0) instead of the lowered frontier; repeatable.
    #[arg(long, value_parser = pair)]
    at: Vec<(usize, usize)>,
    /// --forward: most positions checked against the claims [default: 100000].
    #[arg(long, value_parser = crate::args::nodes)]
    max_positions: Option<u64>,
    /// --forward: the solver's table in MB [default: 256].
    #[arg(long, value_parser = crate::args::tt_mb)]
    tt_mb: Option<usize>,
    /// --forward: most corrections tried per line on a confirmed start [default: 3].
    #[arg(long, value_parser = crate::args::count)]
    mend_budget: Option<usize>,
    /// --forward: also fit the lines backwards with this many corrections per line and
    /// say how far each line is legal as printed from each backward candidate.
    #[arg(long, value_parser = crate::args::count)]
    compare_backward: Option<usize>,
}

#[derive(Serialize)]
struct Budget {
    corrections: usize,
    candidates: usize,
    per_line: Vec<usize>,
    nodes: Vec<u64>,
    complete: bool,
    seconds: f64,
}

#[derive(Serialize)]
struct LineOut {
    file: String,
    corrections: Vec<String>,
    corrected_line: String,
    first_move: String,
    first_move_value: Option<i32>,
    claimed_margin: i32,
    line_margin: i32,
}

#[derive(Serialize)]
struct CandOut {
    position: String,
    corrections: usize,
    lines: Vec<LineOut>,
    value: Option<i32>,
    move_values: Vec<(String, i32)>,
    best_moves: Vec<String>,
    solve_seconds: Option<f64>,
}

#[derive(Serialize)]
struct Out {
    files: Vec<String>,
    score_notes: Vec<String>,
    budgets: Vec<Budget>,
    shown: Vec<CandOut>,
}

pub fn run(a: ReconstructArgs) -> Result<ExitCode> {
    let lines = read_lines(&a.files)?;
    if a.forward {
        if !a.at.is_empty() && a.below.is_some() {
            bail!("--at names the prefix pairs to check; --below cannot lower them as well");
        }
        if a.max_corrections.is_some() {
            bail!("--max-corrections belongs to the backward method, not --forward");
        }
        let s = super::reconstruct_forward::Settings {
            below: a.below.unwrap_or(1),
            max_positions: a.max_positions.unwrap_or(100_000),
            tt_mb: a.tt_mb.unwrap_or(256),
            mend_budget: a.mend_budget.unwrap_or(3),
            compare_backward: a.compare_backward,
            json: a.json,
            limit: a.limit,
            at: a.at.clone(),
            node_limit: a.node_limit.unwrap_or(200_000_000),
            solve: !a.no_solve,
        };
        return super::reconstruct_forward::run(&lines, &s);
    }
    if a.below.is_some()
        || a.max_positions.is_some()
        || a.tt_mb.is_some()
        || a.mend_budget.is_some()
        || a.compare_backward.is_some()
        || !a.at.is_empty()
    {
        bail!(
            "--below, --at, --max-positions, --tt-mb, --mend-budget and --compare-backward need --forward"
        );
    }
    let (budgets, cands) = fit_with_budgets(&lines, &a);
    let shown = cands
        .iter()
        .take(a.limit)
        .map(|c| describe(c, &lines, !a.no_solve))
        .collect();
    let out = Out {
        files: a.files.clone(),
        score_notes: lines
            .iter()
            .map(|l| format!("{}: {}", l.name, l.score_note))
            .collect(),
        budgets,
        shown,
    };
    if a.json {
        outln!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        for n in &out.score_notes {
            outln!("{n}");
        }
        outln!(
            "{} candidate(s) with at most {} correction(s); showing {}",
            cands.len(),
            a.max_corrections.unwrap_or(1),
            out.shown.len()
        );
        for (i, c) in out.shown.iter().enumerate() {
            print_candidate(i, c);
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// A prefix pair "P1,P2" (plies of line 1 and line 2).
fn pair(s: &str) -> Result<(usize, usize), String> {
    let (a, b) = s
        .split_once(',')
        .ok_or_else(|| format!("\"{s}\": expected two ply counts such as 9,0"))?;
    Ok((crate::args::count(a)?, crate::args::count(b)?))
}

/// The solution lines of the record files, which must be Afrika records sharing a start.
fn read_lines(files: &[String]) -> Result<Vec<Line>> {
    let mut lines = Vec::new();
    for f in files {
        let name = display_name(f);
        let text = read_text(f)?;
        let rec = parse_file_keeping_annotations(name, &text).map_err(anyhow::Error::new)?;
        match rec.tags.get("Game") {
            Some(g) if g.eq_ignore_ascii_case(Afrika::NAME) => {}
            Some(g) => bail!("{name}: reconstruct handles Afrika records, not {g}"),
            None => bail!(
                "{name}: no [Game \"{}\"] tag; reconstruct handles Afrika records",
                Afrika::NAME
            ),
        }
        lines.push(Line::from_record(name, &rec).map_err(|e| anyhow!(e))?);
    }
    if lines
        .windows(2)
        .any(|w| w[0].to_move != w[1].to_move || w[0].m != w[1].m)
    {
        bail!("the lines disagree on [ToMove] or [Board]; they cannot share a start");
    }
    Ok(lines)
}

/// The candidates fitting every line with 0, 1, ... --max-corrections corrections per
/// line (each budget printed as it ends unless --json), and those of the largest budget.
fn fit_with_budgets(lines: &[Line], a: &ReconstructArgs) -> (Vec<Budget>, Vec<Candidate>) {
    let mut budgets = Vec::new();
    let mut cands: Vec<Candidate> = Vec::new();
    for k in 0..=a.max_corrections.unwrap_or(1) {
        let t0 = Instant::now();
        let mut per = Vec::new();
        let mut nodes = Vec::new();
        let mut complete = true;
        for l in lines {
            let (fits, n, cut) = fit_line(l, k, a.node_limit.unwrap_or(50_000_000));
            nodes.push(n);
            complete &= !cut;
            per.push(fits);
        }
        cands = intersect(&per);
        let b = Budget {
            corrections: k,
            candidates: cands.len(),
            per_line: per.iter().map(Vec::len).collect(),
            nodes,
            complete,
            seconds: t0.elapsed().as_secs_f64(),
        };
        if !a.json {
            outln!(
                "budget {k} per line: {} candidate(s) (per line {:?}; nodes {:?}{}; {:.2}s)",
                b.candidates,
                b.per_line,
                b.nodes,
                if b.complete {
                    ""
                } else {
                    "; NODE LIMIT REACHED"
                },
                b.seconds
            );
        }
        budgets.push(b);
    }
    (budgets, cands)
}

/// One shown candidate as text: its position, the solver's values, each line corrected.
fn print_candidate(i: usize, c: &CandOut) {
    outln!(
        "\ncandidate {} ({} correction(s)): {}",
        i + 1,
        c.corrections,
        c.position
    );
    if let Some(v) = c.value {
        outln!(
            "  solver: value {v:+} for the side to move ({:.2}s); best move(s): {}",
            c.solve_seconds.unwrap_or(0.0),
            c.best_moves.join(", ")
        );
        print_move_values(&c.move_values);
    }
    for l in &c.lines {
        outln!("  {}:", l.file);
        for k in &l.corrections {
            outln!("    correction: {k}");
        }
        outln!("    corrected line: {}", l.corrected_line);
        outln!(
            "    first move {}: claimed margin {:+}, line margin {:+}{}",
            l.first_move,
            l.claimed_margin,
            l.line_margin,
            l.first_move_value
                .map(|v| format!(", solver value {v:+}"))
                .unwrap_or_default()
        );
    }
}

fn side(g: &Afrika) -> Row {
    Afrika::row(g.to_move())
}

fn describe(c: &Candidate, lines: &[Line], solve: bool) -> CandOut {
    let g = c.start;
    let mut out = CandOut {
        position: g.to_text(),
        corrections: c.cost(),
        lines: Vec::new(),
        value: None,
        move_values: Vec::new(),
        best_moves: Vec::new(),
        solve_seconds: None,
    };
    // The solved move values as moves, looked up by move below.
    let mut move_values = Vec::new();
    if solve {
        let solver = Solver::new(Config {
            tt_mb: 64,
            ..Config::default()
        });
        if let Some(s) = solver.solve(&g) {
            out.value = Some(s.value);
            out.solve_seconds = Some(s.seconds);
            for &(m, v) in &s.moves {
                out.move_values.push((g.format_move(m), v));
                if v == s.value {
                    out.best_moves.push(g.format_move(m));
                }
            }
            move_values = s.moves;
        }
    }
    let me = side(&g);
    for (f, l) in c.fits.iter().zip(lines) {
        let [s, n] = l.score;
        let claimed = if me == Row::South {
            s as i32 - n as i32
        } else {
            n as i32 - s as i32
        };
        let end = mancala_analysis::reconstruct::replay(&f.start, &f.moves).ok();
        let line_margin = end
            .map(|e| e.captured(g.to_move()) as i32 - e.captured(g.to_move().opponent()) as i32)
            .unwrap_or(i32::MIN);
        let first = f
            .moves
            .first()
            .map(|&(m, _)| g.format_move(m))
            .unwrap_or_default();
        let fv = f
            .moves
            .first()
            .and_then(|&(m, _)| move_values.iter().find(|x| x.0 == m).map(|x| x.1));
        out.lines.push(LineOut {
            file: l.name.clone(),
            corrections: f
                .corrections
                .iter()
                .map(|c| format!("{}{}", c.text, if c.cost == 0 { " (free)" } else { "" }))
                .collect(),
            corrected_line: f.line_text(),
            first_move: first,
            first_move_value: fv,
            claimed_margin: claimed,
            line_margin,
        });
    }
    out
}

/// The "  move values: a +2, b -4, ..." line of a candidate.
pub fn print_move_values(values: &[(String, i32)]) {
    let mv: Vec<String> = values.iter().map(|(m, v)| format!("{m} {v:+}")).collect();
    outln!("  move values: {}", mv.join(", "));
}
