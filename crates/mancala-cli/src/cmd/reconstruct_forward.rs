//! `mancala reconstruct --forward`: the lazy-hole forward reconstruction (issue 16): the
//! positions left for every pair of trusted prefixes, the frontier, the candidates on
//! which the exact solver confirms the problem's claims, and what each line then needs.

use std::collections::BTreeSet;
use std::io::IsTerminal;
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::time::Instant;

use anyhow::{Result, anyhow, bail};
use mancala_analysis::reconstruct::claims::{self, Departure};
use mancala_analysis::reconstruct::forward::{self, Pair, Problem, Table};
use mancala_analysis::reconstruct::mend::{self, Mended};
use mancala_analysis::reconstruct::{Line, fit_line, intersect, replay};
use mancala_core::afrika::Afrika;
use mancala_core::diagram::Diagram;
use mancala_core::{Game, Notation, PositionText};
use mancala_solver::{Config, Solver};
use serde::Serialize;

/// The forward mode's settings (from `mancala reconstruct`'s arguments).
pub struct Settings {
    pub below: usize,
    pub max_positions: u64,
    pub tt_mb: usize,
    pub mend_budget: usize,
    pub compare_backward: Option<usize>,
    pub json: bool,
    /// Positions of the frontier pairs shown when they fail the claims.
    pub limit: usize,
    /// Prefix pairs to check instead of the lowered frontier.
    pub at: Vec<Pair>,
    /// Most lazy starts expanded by the prefix search.
    pub node_limit: u64,
    /// Whether the claims are checked with the solver.
    pub solve: bool,
}

#[derive(Serialize)]
struct FrontierOut {
    plies: Pair,
    /// Last published entry of each prefix (0: none).
    entries: Pair,
    positions: u64,
}

#[derive(Serialize)]
struct LineOut {
    legal_plies: usize,
    /// First ply (1-based) not a best move, its value and the best value.
    first_not_best: Option<(usize, i32, i32)>,
    corrections: Option<Vec<String>>,
    corrected_line: Option<String>,
    /// The corrected line replayed by the rules engine: final score South:North.
    replayed: Option<String>,
    mend_nodes: u64,
}

#[derive(Serialize)]
struct CandidateOut {
    position: String,
    diagram: String,
    legal_plies: Vec<usize>,
    move_values: Vec<(String, i32)>,
    lines: Vec<LineOut>,
}

#[derive(Serialize)]
struct BackwardOut {
    position: String,
    corrections: usize,
    legal_plies: Vec<usize>,
}

#[derive(Serialize)]
struct Out {
    totals: Vec<String>,
    on_board: u8,
    start_stores: [u8; 2],
    plies: Vec<usize>,
    count: Vec<Vec<u64>>,
    frontier: Vec<FrontierOut>,
    search_nodes: u64,
    /// Lazy starts at each ply of line 1.
    search_nodes_at: Vec<u64>,
    /// False when --node-limit stopped the prefix search (counts are lower bounds).
    search_complete: bool,
    search_seconds: f64,
    checked_pairs: Vec<Pair>,
    /// Positions of the checked pairs, summed over the pairs (they may overlap).
    positions_left: u64,
    positions_checked: u64,
    solver_nodes: u64,
    solve_seconds: f64,
    /// The positions of the frontier pairs (up to --limit).
    frontier_positions: Vec<String>,
    /// Every start on which the claims hold, with the plies of each line legal from it.
    all_confirmed: Vec<(String, Vec<usize>)>,
    /// The confirmed starts from which the lines are legal longest (up to --limit).
    confirmed: Vec<CandidateOut>,
    /// Positions of the frontier pairs themselves (up to --limit) that fail the claims.
    frontier_unconfirmed: Vec<CandidateOut>,
    backward: Vec<BackwardOut>,
}

/// A spinner on stderr (only on a terminal).
fn spinner(what: &str) -> Option<indicatif::ProgressBar> {
    std::io::stderr().is_terminal().then(|| {
        let b = indicatif::ProgressBar::new_spinner();
        if let Ok(s) =
            indicatif::ProgressStyle::with_template("{spinner} [{elapsed_precise}] {msg}")
        {
            b.set_style(s);
        }
        b.set_message(what.to_string());
        b
    })
}

pub fn run(lines: &[Line], s: &Settings) -> Result<ExitCode> {
    let problem = Problem::new(lines).map_err(|e| anyhow!(e))?;
    let entry =
        |line: usize, p: usize| p.checked_sub(1).map_or(0, |i| problem.lines[line][i].entry);
    let t0 = Instant::now();
    let bar = spinner("prefix pairs");
    let (table, _) = forward::search(&problem, &[], s.node_limit, |n| {
        if let Some(b) = &bar {
            b.set_message(format!("prefix pairs: {n} lazy starts"));
        }
    });
    let search_seconds = t0.elapsed().as_secs_f64();
    let frontier = table.frontier();
    let lines_len: Vec<usize> = problem.lines.iter().map(Vec::len).collect();
    if let Some(&(a, b)) =
        s.at.iter()
            .find(|&&(a, b)| a > lines_len[0] || b > lines_len.get(1).copied().unwrap_or(0))
    {
        bail!("--at {a},{b}: the lines have {lines_len:?} plies");
    }
    let pairs: BTreeSet<Pair> = if s.at.is_empty() {
        frontier
            .iter()
            .map(|&(a, b)| (a.saturating_sub(s.below), b.saturating_sub(s.below)))
            .collect()
    } else {
        s.at.iter().copied().collect()
    };
    let pairs: Vec<Pair> = pairs.into_iter().collect();
    let wanted: Vec<Pair> = pairs.iter().chain(&frontier).copied().collect();
    let (_, kept) = forward::search(&problem, &wanted, s.node_limit, |_| {});
    let positions_left = kept
        .iter()
        .filter(|(p, _)| pairs.contains(p))
        .map(|(_, st)| st.count())
        .sum::<u64>();
    let mut positions = BTreeSet::new();
    let mut on_frontier = BTreeSet::new();
    for (p, st) in &kept {
        let (set, limit) = if pairs.contains(p) {
            (&mut positions, s.max_positions)
        } else {
            (&mut on_frontier, s.limit as u64)
        };
        st.for_each(limit, &mut |h| {
            if (set.len() as u64) < limit {
                set.insert(h.to_vec());
            }
        });
    }
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    let solver = Solver::try_new(Config {
        tt_mb: s.tt_mb,
        ..Config::default()
    })
    .map_err(|e| anyhow!("cannot make the solver's table: {e}"))?;
    let margins: Vec<i32> = lines
        .iter()
        .map(|l| claims::margin(l.score, problem.to_move))
        .collect();
    let t1 = Instant::now();
    let bar = std::io::stderr().is_terminal().then(|| {
        let b = indicatif::ProgressBar::new(positions.len() as u64);
        if let Ok(st) = indicatif::ProgressStyle::with_template(
            "[{elapsed_precise}] {bar:40} {pos}/{len} positions checked ({eta} left)",
        ) {
            b.set_style(st);
        }
        b
    });
    let mut confirmed = Vec::new();
    let mut frontier_shown = Vec::new();
    for h in positions.iter().filter(|_| s.solve) {
        let g = problem.totals.position(h, problem.to_move);
        let v = claims::check(&solver, &g, &problem.lines, &margins);
        if v.confirmed {
            confirmed.push((g, v));
        } else if on_frontier.contains(h) {
            frontier_shown.push(g);
        }
        if let Some(b) = &bar {
            b.inc(1);
        }
    }
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    let solve_seconds = t1.elapsed().as_secs_f64();
    let solver_nodes = solver.progress.nodes.load(Ordering::Relaxed);
    // Every confirmed start with how far each line is legal as printed from it; the
    // longest of these pairs are the confirmed frontier, shown in full.
    let legal = |g: &Afrika| -> Vec<usize> {
        problem
            .lines
            .iter()
            .map(|l| forward::legal_prefix(g, l))
            .collect()
    };
    let all_confirmed: Vec<(String, Vec<usize>)> = confirmed
        .iter()
        .map(|(g, _)| (g.to_text(), legal(g)))
        .collect();
    let dominated = |a: &[usize]| {
        all_confirmed
            .iter()
            .any(|(_, b)| b != a && b.iter().zip(a).all(|(x, y)| x >= y))
    };
    let confirmed = confirmed
        .iter()
        .filter(|(g, _)| !dominated(&legal(g)))
        .take(s.limit)
        .map(|(g, v)| candidate(&solver, g, &v.move_values, &problem, lines, s))
        .collect();
    // The unconfirmed positions of the frontier itself, with every move's value.
    let frontier_shown = frontier_shown
        .iter()
        .map(|g| {
            let values = claims::all_values(&solver, g);
            candidate(&solver, g, &values, &problem, lines, s)
        })
        .collect();
    let backward = match s.compare_backward {
        Some(k) => backward(lines, &problem, k),
        None => Vec::new(),
    };
    let out = Out {
        totals: problem.totals.notes.clone(),
        on_board: problem.totals.on_board,
        start_stores: problem.totals.stores,
        plies: problem.lines.iter().map(Vec::len).collect(),
        count: table.count.clone(),
        frontier: frontier
            .iter()
            .map(|&(a, b)| FrontierOut {
                plies: (a, b),
                entries: (entry(0, a), if lines.len() > 1 { entry(1, b) } else { 0 }),
                positions: table.count[a][b],
            })
            .collect(),
        search_nodes: table.nodes,
        search_nodes_at: table.nodes_at.clone(),
        search_complete: table.complete,
        search_seconds,
        checked_pairs: pairs,
        positions_left,
        positions_checked: if s.solve { positions.len() as u64 } else { 0 },
        solver_nodes,
        solve_seconds,
        frontier_positions: on_frontier
            .iter()
            .map(|h| problem.totals.position(h, problem.to_move).to_text())
            .collect(),
        all_confirmed,
        confirmed,
        frontier_unconfirmed: frontier_shown,
        backward,
    };
    if s.json {
        outln!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        print_text(&out, &table);
    }
    Ok(ExitCode::SUCCESS)
}

/// A confirmed start: its diagram, values, and what each printed line needs.
fn candidate(
    solver: &Solver,
    g: &Afrika,
    values: &[(mancala_core::afrika::AfrikaMove, i32)],
    problem: &Problem,
    lines: &[Line],
    s: &Settings,
) -> CandidateOut {
    let mut out = CandidateOut {
        position: g.to_text(),
        diagram: g.layout().to_text(),
        legal_plies: problem
            .lines
            .iter()
            .map(|l| forward::legal_prefix(g, l))
            .collect(),
        move_values: values.iter().map(|&(m, v)| (g.format_move(m), v)).collect(),
        lines: Vec::new(),
    };
    for (plies, line) in problem.lines.iter().zip(lines) {
        // A line after the first shows a mistake at its first move: best play is looked
        // for from its second ply on.
        let from = usize::from(!std::ptr::eq(plies, &problem.lines[0]));
        let Departure { legal, not_best } = claims::departure(solver, g, plies, from);
        let (mended, mend_nodes) = mend::mend(g, plies, line.score, s.mend_budget, 20_000_000);
        let (corrections, corrected_line, replayed) = match mended {
            Some(Mended { moves, mends }) => {
                let text = line_text(g, &moves);
                let end = replay(g, &moves).ok().map(|e| {
                    let sc = |r| e.captured(<Afrika as mancala_core::rows::Seated>::owner(r));
                    use mancala_core::rows::Row;
                    format!("{}:{}", sc(Row::South), sc(Row::North))
                });
                (
                    Some(mends.into_iter().map(|m| m.text).collect()),
                    Some(text),
                    end,
                )
            }
            None => (None, None, None),
        };
        out.lines.push(LineOut {
            legal_plies: legal,
            first_not_best: not_best.map(|(i, v, b)| (i + 1, v, b)),
            corrections,
            corrected_line,
            replayed,
            mend_nodes,
        });
    }
    out
}

fn line_text(start: &Afrika, moves: &[(mancala_core::afrika::AfrikaMove, u8)]) -> String {
    let mut g = *start;
    let mut out = Vec::new();
    for &(mv, _) in moves {
        out.push(mend::describe(&g, mv));
        g = g.play(mv);
    }
    out.join("; ")
}

/// The backward method's candidates with `k` corrections per line, and how far each
/// line is legal as printed from them (the forward method's view of them).
fn backward(lines: &[Line], problem: &Problem, k: usize) -> Vec<BackwardOut> {
    let per: Vec<_> = lines.iter().map(|l| fit_line(l, k, 50_000_000).0).collect();
    intersect(&per)
        .iter()
        .map(|c| BackwardOut {
            position: c.start.to_text(),
            corrections: c.cost(),
            legal_plies: problem
                .lines
                .iter()
                .map(|l| forward::legal_prefix(&c.start, l))
                .collect(),
        })
        .collect()
}

fn print_text(o: &Out, table: &Table) {
    for n in &o.totals {
        outln!("{n}");
    }
    outln!(
        "start: {} stones on the board, stores South {} North {}; plies per line {:?}",
        o.on_board,
        o.start_stores[0],
        o.start_stores[1],
        o.plies
    );
    outln!(
        "prefix search: {} lazy starts{}, {:.2} s; per ply of line 1: {:?}",
        o.search_nodes,
        if o.search_complete {
            ""
        } else {
            " (NODE LIMIT REACHED: the counts are lower bounds)"
        },
        o.search_seconds,
        o.search_nodes_at
    );
    outln!(
        "positions left (rows: plies of line 1 from 0; columns: plies of line 2 from 0; rows of zeros left out):"
    );
    let rows = table.count.iter().take_while(|r| r.iter().any(|&c| c > 0));
    for (p1, row) in rows.enumerate() {
        let cells: Vec<String> = row.iter().map(|c| c.to_string()).collect();
        outln!("  {p1:>2}: {}", cells.join(" "));
    }
    outln!("frontier (longest prefix pairs with a position left):");
    for f in &o.frontier {
        outln!(
            "  plies {:?} (up to entries {:?}): {} position(s)",
            f.plies,
            f.entries,
            f.positions
        );
    }
    for f in &o.frontier_positions {
        outln!("  frontier position: {f}");
    }
    outln!(
        "claims checked on the positions of prefix pairs {:?}: {} position(s) (summed over the pairs), {} distinct checked, {} confirmed ({} solver nodes, {:.1} s)",
        o.checked_pairs,
        o.positions_left,
        o.positions_checked,
        o.all_confirmed.len(),
        o.solver_nodes,
        o.solve_seconds
    );
    let mut by_pair = std::collections::BTreeMap::new();
    for (_, l) in &o.all_confirmed {
        *by_pair.entry(l.clone()).or_insert(0u64) += 1;
    }
    for (l, n) in by_pair.iter().rev() {
        outln!("  confirmed starts from which the lines are legal for {l:?} plies: {n}");
    }
    let shown = o
        .confirmed
        .iter()
        .map(|c| ("confirmed candidate on the confirmed frontier", c));
    let failed = o
        .frontier_unconfirmed
        .iter()
        .map(|c| ("frontier position failing the claims", c));
    for (i, (what, c)) in shown.chain(failed).enumerate() {
        outln!("\n{what} ({}): {}", i + 1, c.position);
        outln!("{}", c.diagram);
        super::reconstruct::print_move_values(&c.move_values);
        for (k, l) in c.lines.iter().enumerate() {
            outln!(
                "  line {}: legal as printed for {} plies; first move not best: {}",
                k + 1,
                l.legal_plies,
                l.first_not_best
                    .map(|(p, v, b)| format!("ply {p} (worth {v:+}, best {b:+})"))
                    .unwrap_or_else(|| "none".into())
            );
            match (&l.corrections, &l.corrected_line) {
                (Some(cs), Some(t)) => {
                    outln!(
                        "    fewest corrections ({}, {} nodes): {}",
                        cs.len(),
                        l.mend_nodes,
                        cs.join("; ")
                    );
                    outln!("    corrected line: {t}");
                    outln!(
                        "    replayed: {}",
                        l.replayed.as_deref().unwrap_or("NOT CONSISTENT")
                    );
                }
                _ => outln!(
                    "    no correction within the budget ({} nodes)",
                    l.mend_nodes
                ),
            }
        }
    }
    for b in &o.backward {
        outln!(
            "backward candidate ({} corrections): {}; legal plies as printed {:?}",
            b.corrections,
            b.position,
            b.legal_plies
        );
    }
}
