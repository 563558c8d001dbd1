//! Replays a record and checks every move, every capture annotation, the turn structure
//! and the result statement. Where something does not fit, it finds the smallest
//! correction (a wrong amount, two swapped amounts, a wrong letter or letter case, a
//! missing or extra move, two swapped moves) that lets the *rest* of the record replay.

mod check;
mod diagnose;
mod edits;
mod tokens;

use serde::Serialize;

use crate::game::{Game, Moves};
use crate::player::Player;

use super::lexer::{Annotation, Claim, Pos};
use super::result::{self, Statement};
use super::{RecordFile, RecordGame};
use check::*;
use diagnose::*;
use edits::*;
use tokens::*;

/// One problem found in a record.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Issue {
    /// 1-based index of the move in the record as written (0 for the result statement).
    pub ply: usize,
    /// The move number printed in the record, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub move_number: Option<u32>,
    /// What the record says.
    pub recorded: String,
    /// What the rules give.
    pub actual: String,
    /// The smallest correction that lets the rest of the record replay, or "none found".
    pub correction: String,
    /// Where the record says it (`line`, `column` of the file).
    #[serde(flatten)]
    pub pos: Pos,
}

/// The verdict on a record; `M` is the game's move type.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report<M> {
    pub consistent: bool,
    /// Moves in the record as written.
    pub plies: usize,
    /// Captured totals after the (corrected) replay, first player first.
    pub final_score: [u32; 2],
    /// Whether the moves' captures were checked: false for a record that annotates no
    /// capture at all (a plain move list) where something was captured; its moves, turns
    /// and result statement are still checked.
    pub captures_checked: bool,
    pub issues: Vec<Issue>,
    /// The ply (as written) where the replay stopped because no correction let it go on
    /// (or after [`MAX_ISSUES`] issues): the plies after it and the result statement were
    /// not checked, and the final position is the one before it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped_at: Option<usize>,
    /// Whether the game is over after the last move.
    pub game_over: bool,
    /// Whether a player holds more than half of what can be scored.
    pub decided: bool,
    /// The result statement as written, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
    /// The final position in the game's position format.
    pub final_position: String,
    /// The names of the moves as replayed, with the corrections applied (the record's own
    /// names where they were right), for printing.
    pub moves: Vec<String>,
    /// The same moves as moves, for callers that play them again (`analyse`).
    #[serde(skip)]
    pub played: Vec<M>,
}

impl<M> Report<M> {
    /// The report without its typed moves, for callers that handle every game alike.
    pub fn untyped(self) -> Report<()> {
        Report {
            consistent: self.consistent,
            plies: self.plies,
            final_score: self.final_score,
            captures_checked: self.captures_checked,
            issues: self.issues,
            stopped_at: self.stopped_at,
            game_over: self.game_over,
            decided: self.decided,
            result: self.result,
            final_position: self.final_position,
            moves: self.moves,
            played: vec![(); self.played.len()],
        }
    }
}

/// The most issues reported for one record; the replay stops after them.
pub const MAX_ISSUES: usize = 10_000;

/// Verifies a record from `start`: replays it, and at each failure reports the issue and
/// goes on from the smallest correction (at most [`MAX_ISSUES`] issues). Text of the
/// body that could not be read (`rec.body.errors`) is reported too, in file order.
pub fn verify<G: RecordGame>(rec: &RecordFile, start: G) -> Report<G::Move> {
    let mut toks = flatten(rec);
    let plies = toks.len();
    // Record-wide (`annotates_captures`), so any token says it; corrections copy it.
    let claims = toks.first().is_none_or(|t| t.claims);
    let mut issues = unreadable_issues(rec, &toks);
    let stmt_text = rec.body.result.as_ref().map(|r| r.0.clone());
    let stmt_read = stmt_text.as_ref().map(|t| result::parse::<G>(&rec.tags, t));
    let stmt = stmt_read.clone().and_then(Result::ok);
    let mut cur = Cursor {
        state: start,
        group: NO_GROUP,
        group_player: start.to_move(),
        group_start: totals(&start),
    };
    let mut from = 0;
    let (end, stopped_at) = loop {
        let f = match run(&toks, from, cur, true) {
            Ok(end) => break (end, None),
            Err(f) if issues.len() >= MAX_ISSUES => break (f.cursor, stop_ply(&toks, f.at)),
            Err(f) => f,
        };
        let (mut issue, corrected) = diagnose(&toks, &f, &stmt);
        match corrected {
            Some((window, end)) => {
                issues.push(issue);
                toks.splice(f.at..end, window);
                (from, cur) = (f.at, f.cursor);
            }
            None => {
                let stopped_at = stop_ply(&toks, f.at);
                if let Some(p) = stopped_at {
                    issue.correction.push_str(&unchecked_text(p, plies));
                }
                issues.push(issue);
                break (f.cursor, stopped_at);
            }
        }
    };
    let final_score = totals(&end.state);
    // Totals only grow: where nothing was captured, a plain move list's claims of "no
    // capture" all held, so its captures were as good as checked (Andada, a short line).
    let captures_checked = claims || final_score == totals(&start);
    let (moves, played) = replayed_moves(&toks, start);
    if stopped_at.is_none() {
        issues.extend(statement_issue(rec, &stmt_read, &end.state));
    }
    issues.sort_by_key(|i| (i.pos.line, i.pos.column));
    Report {
        consistent: issues.is_empty(),
        plies,
        final_score,
        captures_checked,
        issues,
        stopped_at,
        game_over: end.state.is_terminal(),
        decided: end.state.decided(),
        result: stmt_text,
        final_position: end.state.to_text(),
        moves,
        played,
    }
}

/// The corrected move list, up to the first move that still does not replay (where the
/// verifier found no correction).
fn replayed_moves<G: RecordGame>(toks: &[Tok], start: G) -> (Vec<String>, Vec<G::Move>) {
    let mut g = start;
    let (mut out, mut played) = (Vec::new(), Vec::new());
    for t in toks {
        let Ok(mv) = g.parse_move(&t.name) else { break };
        let mut ms = crate::game::Moves::new();
        g.legal_moves(&mut ms);
        if !ms.contains(&mv) {
            break;
        }
        out.push(g.format_move(mv));
        played.push(mv);
        g = g.play(mv);
    }
    (out, played)
}

/// What a stop at ply `at` (as written) leaves unchecked, for the issue's correction.
fn unchecked_text(at: usize, plies: usize) -> String {
    let rest = if at < plies {
        format!("plies {}-{plies}", at + 1)
    } else {
        "no later ply".to_string()
    };
    format!("; the replay stops here: {rest} and the result statement are not checked")
}

/// The ply (as written) of the move at `at` where the replay stops, or of the first move
/// as written after it when a correction inserted that one; `None` when it stops at the
/// end of the record (a turn left unfinished).
fn stop_ply(toks: &[Tok], at: usize) -> Option<usize> {
    toks.get(at..)?.iter().map(|t| t.orig).find(|&o| o > 0)
}
