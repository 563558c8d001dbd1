//! Replays a record and checks every move, every capture annotation, the turn structure
//! and the result statement. Where something does not fit, it finds the smallest
//! correction (a wrong amount, two swapped amounts, a wrong letter or letter case, a
//! missing or extra move, two swapped moves) that lets the *rest* of the record replay.

use serde::Serialize;

use crate::game::{Game, Moves};
use crate::player::Player;

use super::lexer::{Annotation, Claim, Pos};
use super::result::{self, Statement};
use super::{RecordFile, RecordGame};

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
    pub issues: Vec<Issue>,
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
            issues: self.issues,
            game_over: self.game_over,
            decided: self.decided,
            result: self.result,
            final_position: self.final_position,
            moves: self.moves,
            played: vec![(); self.played.len()],
        }
    }
}

/// One move of the record, flattened out of its group.
#[derive(Clone, Debug)]
struct Tok {
    /// 1-based index in the record as written; 0 for a move a correction inserted.
    orig: usize,
    number: Option<u32>,
    name: String,
    marks: String,
    annotation: Option<Annotation>,
    /// Annotation covering the whole group, held by the group's last move.
    group_annotation: Option<Annotation>,
    group: usize,
    group_len: usize,
    pos: Pos,
}

impl Tok {
    fn written(&self) -> String {
        let mut s = if self.name.is_empty() {
            "(empty entry)".to_string()
        } else {
            self.name.clone()
        };
        s += &self.marks;
        if let Some(a) = &self.annotation {
            s += " ";
            s += &ann_text(a);
        }
        s
    }
}

fn ann_text(a: &Annotation) -> String {
    match a {
        Annotation::Claim(c) if c.gained == 0 && c.lost == 0 => "(+0)".into(),
        Annotation::Claim(c) => c.format(),
        Annotation::Unreadable(s) => s.clone(),
    }
}

fn claim_text(c: &Claim) -> String {
    if c.gained == 0 && c.lost == 0 {
        "no capture".into()
    } else {
        c.format()
    }
}

/// Where a replay stands: the position and what the current group started from.
#[derive(Clone, Copy, Debug)]
struct Cursor<G> {
    state: G,
    group: usize,
    group_player: Player,
    group_start: [u32; 2],
}

#[derive(Clone, Debug, PartialEq)]
enum Fail {
    Unreadable(String),
    Illegal(String),
    AfterEnd,
    /// The move's own claim (or its absence) does not match; `.0` is what happened.
    MoveClaim(Claim),
    /// The group's claim does not match the group's total.
    GroupClaim(Claim),
    /// The group holds a move by the other player.
    TurnEndedEarly,
    /// The player of the previous group still had a move to make.
    TurnTooShort,
}

struct Failure<G> {
    at: usize,
    cursor: Cursor<G>,
    fail: Fail,
}

fn gained_lost<G: Game>(before: [u32; 2], after: &G, mover: Player) -> Claim {
    let d = |p: Player| after.captured(p) - before[p.index()];
    Claim {
        gained: d(mover),
        lost: d(mover.opponent()),
    }
}

fn totals<G: Game>(g: &G) -> [u32; 2] {
    [g.captured(Player::First), g.captured(Player::Second)]
}

fn claim_matches(ann: &Option<Annotation>, actual: &Claim) -> bool {
    match ann {
        None => actual.gained == 0 && actual.lost == 0,
        Some(Annotation::Claim(c)) => c == actual,
        Some(Annotation::Unreadable(_)) => false,
    }
}

/// Replays `toks[from..]` from `cur`; returns the end cursor or the first failure.
/// `ends_record` says whether `toks` runs to the end of the record (and not only to the
/// end of a look-ahead window), where the last turn must be complete.
impl<G: RecordGame> Cursor<G> {
    /// Moves into `group` (that of the token at `i`): where groups are turns, a new group
    /// must start a new turn; within a group, its player must still be to move.
    fn enter_group(&mut self, group: usize, i: usize) -> Result<(), Fail> {
        if group != self.group {
            if G::group_is_turn()
                && i > 0
                && !self.state.is_terminal()
                && self.state.to_move() == self.group_player
            {
                return Err(Fail::TurnTooShort);
            }
            self.group = group;
            self.group_player = self.state.to_move();
            self.group_start = totals(&self.state);
        } else if self.state.to_move() != self.group_player && !self.state.is_terminal() {
            return Err(Fail::TurnEndedEarly);
        }
        Ok(())
    }
}

fn run<G: RecordGame>(
    toks: &[Tok],
    from: usize,
    mut cur: Cursor<G>,
    ends_record: bool,
) -> Result<Cursor<G>, Failure<G>> {
    let mut moves = Moves::new();
    for (i, t) in toks.iter().enumerate().skip(from) {
        let fail = |cursor: Cursor<G>, fail| {
            Err(Failure {
                at: i,
                cursor,
                fail,
            })
        };
        if let Err(f) = cur.enter_group(t.group, i) {
            return fail(cur, f);
        }
        if cur.state.is_terminal() {
            return fail(cur, Fail::AfterEnd);
        }
        let mv = match cur.state.parse_move(&t.name) {
            Ok(mv) => mv,
            Err(e) => {
                let msg = if t.name.is_empty() {
                    "the record has an empty entry here".to_string()
                } else {
                    e.0
                };
                return fail(cur, Fail::Unreadable(msg));
            }
        };
        cur.state.legal_moves(&mut moves);
        if !moves.contains(&mv) {
            return fail(cur, Fail::Illegal(why_illegal(&cur.state, mv)));
        }
        let before = totals(&cur.state);
        let mover = cur.state.to_move();
        let next = cur.state.play(mv);
        let actual = gained_lost(before, &next, mover);
        let covered_by_group =
            t.annotation.is_none() && toks[i].group_len > 1 && group_has_annotation(toks, i);
        if !covered_by_group && !claim_matches(&t.annotation, &actual) {
            return fail(cur, Fail::MoveClaim(actual));
        }
        let last_in_group = toks.get(i + 1).is_none_or(|n| n.group != t.group);
        if last_in_group && t.group_annotation.is_some() {
            let total = gained_lost(cur.group_start, &next, cur.group_player);
            if !claim_matches(&t.group_annotation, &total) {
                return fail(cur, Fail::GroupClaim(total));
            }
        }
        cur.state = next;
    }
    // The last group must also be a complete turn, unless the game ended.
    if ends_record
        && G::group_is_turn()
        && toks.len() > from
        && !cur.state.is_terminal()
        && cur.state.to_move() == cur.group_player
        && !cur.state.decided()
    {
        return Err(Failure {
            at: toks.len(),
            cursor: cur,
            fail: Fail::TurnTooShort,
        });
    }
    Ok(cur)
}

fn group_has_annotation(toks: &[Tok], i: usize) -> bool {
    let g = toks[i].group;
    toks[i..]
        .iter()
        .take_while(|t| t.group == g)
        .any(|t| t.group_annotation.is_some())
}

fn why_illegal<G: RecordGame>(g: &G, mv: G::Move) -> String {
    let mut moves = Moves::new();
    g.legal_moves(&mut moves);
    let legal: Vec<String> = moves.iter().map(|&m| g.format_move(m)).collect();
    format!(
        "{} is not legal here (legal: {})",
        g.format_move(mv),
        legal.join(" ")
    )
}

/// How many moves after a failure a candidate correction is replayed to be judged. A
/// bound keeps the cost of a correction independent of the record's length; records
/// with errors closer together than this are judged on everything after the failure.
const LOOKAHEAD: usize = 500;

/// A candidate edit of a look-ahead window of the token list, starting at the failure.
struct Candidate {
    toks: Vec<Tok>,
    correction: String,
}

/// How far the edited record replays from the failure: (reaches the end with a
/// matching result statement, furthest original move covered).
fn score<G: RecordGame>(
    c: &Candidate,
    at: usize,
    cur: Cursor<G>,
    stmt: &Option<Statement>,
    ends_record: bool,
) -> (bool, usize) {
    match run(&c.toks, at, cur, ends_record) {
        Ok(end) => {
            let ok = ends_record
                && stmt.as_ref().is_none_or(|s| {
                    result::check(s, totals(&end.state), end.state.komi(), G::seat_names()).is_ok()
                });
            (ok, usize::MAX)
        }
        Err(f) => {
            let covered = c.toks[..f.at].iter().map(|t| t.orig).max().unwrap_or(0);
            // A deleted move counts as covered.
            let covered = covered.max(if f.at > at { c.toks[f.at - 1].orig } else { 0 });
            (false, covered)
        }
    }
}

/// The record with one edit applied, and the correction it stands for.
fn edited(toks: &[Tok], edit: impl FnOnce(&mut Vec<Tok>), correction: String) -> Candidate {
    let mut v = toks.to_vec();
    edit(&mut v);
    Candidate {
        toks: v,
        correction,
    }
}

/// Every edit tried at a failure, in order of preference (the first of equally good
/// ones wins): amounts first, then the move itself, a swap, an insertion, a deletion.
/// `toks` is the look-ahead window (the failure at `f.at`); `base` is where the window
/// starts in the record.
fn candidates<G: RecordGame>(toks: &[Tok], f: &Failure<G>, base: usize) -> Vec<Candidate> {
    let i = f.at;
    let mut out = Vec::new();
    match &f.fail {
        Fail::MoveClaim(actual) => out.extend(move_claim_edits(toks, f, actual)),
        Fail::GroupClaim(actual) => {
            let written = toks[i].group_annotation.as_ref().map(ann_text);
            let a = Annotation::Claim(actual.clone());
            out.push(edited(
                toks,
                |v| v[i].group_annotation = Some(a),
                format!(
                    "capture amount of the turn: read {} for {}",
                    claim_text(actual),
                    written.unwrap_or_default()
                ),
            ));
        }
        _ => {}
    }
    out.extend(wrong_move_edits(toks, f));
    if i + 1 < toks.len() && toks[i + 1].name != toks[i].name {
        out.push(swapped_moves_edit(toks, i));
    }
    out.extend(missing_move_edits(toks, f, base));
    let what = format!("extra move: delete {}", toks[i].written());
    out.push(edited(toks, |v| drop(v.remove(i)), what));
    out
}

/// Edits of a move's capture amount: the amount the rules give, the amount belonging to
/// the next move, the amount swapped with the next annotated move.
fn move_claim_edits<G: RecordGame>(toks: &[Tok], f: &Failure<G>, actual: &Claim) -> Vec<Candidate> {
    let i = f.at;
    let t = &toks[i];
    let written = t
        .annotation
        .as_ref()
        .map(ann_text)
        .unwrap_or_else(|| "no annotation".into());
    let a = Annotation::Claim(actual.clone());
    let none = actual.gained == 0 && actual.lost == 0;
    let mut out = vec![edited(
        toks,
        |v| v[i].annotation = if none { None } else { Some(a) },
        format!(
            "capture amount: read {} for {}",
            claim_text(actual),
            written
        ),
    )];
    out.extend(misplaced_amount_edit(toks, f, actual, &written));
    if let Some(j) = (i + 1..toks.len()).find(|&j| toks[j].annotation.is_some()) {
        let theirs = toks[j]
            .annotation
            .as_ref()
            .map(ann_text)
            .unwrap_or_default();
        out.push(edited(
            toks,
            |v| {
                let tmp = v[i].annotation.clone();
                v[i].annotation = v[j].annotation.clone();
                v[j].annotation = tmp;
            },
            format!(
                "swapped amounts: {} belongs to ply {} and {} to ply {}",
                written, toks[j].orig, theirs, t.orig
            ),
        ));
    }
    out
}

/// The amount written one move early: it belongs to the next move, seen by that move's
/// player (the opponent's (+1) is the next mover's (-1)).
fn misplaced_amount_edit<G: RecordGame>(
    toks: &[Tok],
    f: &Failure<G>,
    actual: &Claim,
    written: &str,
) -> Option<Candidate> {
    let (i, g) = (f.at, &f.cursor.state);
    let Some(Annotation::Claim(c)) = &toks[i].annotation else {
        return None;
    };
    let next = toks.get(i + 1)?;
    let mv = g.parse_move(&toks[i].name).ok()?;
    let moved = if g.play(mv).to_move() == g.to_move() {
        c.clone()
    } else {
        Claim {
            gained: c.lost,
            lost: c.gained,
        }
    };
    let there = match &next.annotation {
        Some(Annotation::Claim(n)) => Claim {
            gained: n.gained + moved.gained,
            lost: n.lost + moved.lost,
        },
        _ => moved,
    };
    let here = (actual.gained + actual.lost > 0).then(|| Annotation::Claim(actual.clone()));
    let correction = format!(
        "misplaced amount: {} belongs to ply {} (there {})",
        written,
        next.orig,
        claim_text(&there)
    );
    let there_ann = Annotation::Claim(there);
    Some(edited(
        toks,
        |v| {
            v[i].annotation = here;
            v[i + 1].annotation = Some(there_ann);
        },
        correction,
    ))
}

/// Another legal move in place of the one written (a wrong letter, a wrong case, or a
/// move for an empty entry).
fn wrong_move_edits<G: RecordGame>(toks: &[Tok], f: &Failure<G>) -> Vec<Candidate> {
    let (i, g) = (f.at, &f.cursor.state);
    let t = &toks[i];
    let mut moves = Moves::new();
    g.legal_moves(&mut moves);
    let mut out = Vec::new();
    for &m in &moves {
        let name = g.format_move(m);
        if name == t.name {
            continue;
        }
        let claim = gained_lost(totals(g), &g.play(m), g.to_move());
        let what = if t.name.is_empty() {
            format!("fill the empty entry with {name}")
        } else if name.eq_ignore_ascii_case(&t.name) {
            format!("wrong letter case: read {name} for {}", t.name)
        } else {
            format!("wrong move: read {name} for {}", t.name)
        };
        let refill = !claim_matches(&t.annotation, &claim)
            && matches!(f.fail, Fail::Unreadable(_) | Fail::Illegal(_))
            && t.name.is_empty();
        out.push(edited(
            toks,
            |v| {
                v[i].name = name;
                if refill {
                    v[i].annotation =
                        (claim.gained + claim.lost > 0).then_some(Annotation::Claim(claim));
                }
            },
            what,
        ));
    }
    out
}

/// The move and the next one written in the wrong order.
fn swapped_moves_edit(toks: &[Tok], i: usize) -> Candidate {
    let (t, next) = (&toks[i], &toks[i + 1]);
    edited(
        toks,
        |v| {
            let (a, b) = (v[i].clone(), v[i + 1].clone());
            v[i].name = b.name;
            v[i].annotation = b.annotation;
            v[i + 1].name = a.name;
            v[i + 1].annotation = a.annotation;
        },
        format!(
            "swapped moves: plies {} and {} are {} and {}",
            t.orig, next.orig, next.name, t.name
        ),
    )
}

/// A lost move inserted before the failing one, each legal move in turn.
fn missing_move_edits<G: RecordGame>(toks: &[Tok], f: &Failure<G>, base: usize) -> Vec<Candidate> {
    let (i, g) = (f.at, &f.cursor.state);
    let mut moves = Moves::new();
    g.legal_moves(&mut moves);
    let mut out = Vec::new();
    for &m in &moves {
        let name = g.format_move(m);
        let claim = gained_lost(totals(g), &g.play(m), g.to_move());
        let shown = if claim.gained > 0 {
            format!(" {}", claim.format())
        } else {
            String::new()
        };
        let what = format!("missing move: {name}{shown} before ply {}", toks[i].orig);
        out.push(edited(
            toks,
            |v| {
                let mut ins = v[i].clone();
                ins.orig = 0;
                ins.name = name;
                ins.marks.clear();
                ins.annotation =
                    (claim.gained + claim.lost > 0).then_some(Annotation::Claim(claim));
                ins.group_annotation = None;
                // An inserted move is a group of its own (it may be the other player's).
                ins.group = usize::MAX - (base + i);
                ins.group_len = 1;
                v.insert(i, ins);
            },
            what,
        ));
    }
    out
}

fn actual_text<G: RecordGame>(toks: &[Tok], f: &Failure<G>) -> String {
    match &f.fail {
        Fail::Unreadable(e) => e.clone(),
        Fail::Illegal(e) => e.clone(),
        Fail::AfterEnd => "the game is already over".into(),
        Fail::MoveClaim(c) => format!("{} {}", toks[f.at].name, claim_text(c)),
        Fail::GroupClaim(c) => format!("the turn captures {}", claim_text(c)),
        Fail::TurnEndedEarly => format!(
            "{} has no move left in this turn; {} is to move",
            G::seat_names()[f.cursor.group_player.index()],
            G::seat_names()[f.cursor.state.to_move().index()]
        ),
        Fail::TurnTooShort => format!(
            "{} still has a move to make in this turn",
            G::seat_names()[f.cursor.state.to_move().index()]
        ),
    }
}

fn flatten(rec: &RecordFile) -> Vec<Tok> {
    let mut toks = Vec::new();
    let mut orig = 0;
    for (gi, g) in rec.body.groups.iter().enumerate() {
        for (mi, m) in g.moves.iter().enumerate() {
            orig += 1;
            toks.push(Tok {
                orig,
                number: g.number,
                name: m.name.clone(),
                marks: m.marks.clone(),
                annotation: m.annotation.clone(),
                group_annotation: if mi + 1 == g.moves.len() {
                    g.annotation.clone()
                } else {
                    None
                },
                group: gi,
                group_len: g.moves.len(),
                pos: m.pos,
            });
        }
    }
    toks
}

/// After a failure: the issue to report, and whether the replay goes on from a corrected
/// record (`Some`: the moves from the failure to `.1`, edited) or stops there.
type Diagnosis = (Issue, Option<(Vec<Tok>, usize)>);

/// What the record says at a failure: (text, move number, place, ply as written).
fn recorded_at<G>(toks: &[Tok], f: &Failure<G>) -> (String, Option<u32>, Pos, usize) {
    if f.at < toks.len() {
        let t = &toks[f.at];
        return (t.written(), t.number, t.pos, t.orig);
    }
    let last = toks.last();
    let name = last.map(|t| t.name.clone()).unwrap_or_default();
    (
        format!("end of turn after {name}"),
        None,
        last.map(|t| t.pos).unwrap_or_default(),
        last.map(|t| t.orig).unwrap_or(0),
    )
}

/// The issue at a failure and the smallest correction that lets the rest replay.
fn diagnose<G: RecordGame>(toks: &[Tok], f: &Failure<G>, stmt: &Option<Statement>) -> Diagnosis {
    let (recorded, move_number, pos, ply) = recorded_at(toks, f);
    let actual = actual_text(toks, f);
    let issue = |correction: String| Issue {
        ply,
        move_number,
        recorded: recorded.clone(),
        actual: actual.clone(),
        correction,
        pos,
    };
    if f.at >= toks.len() {
        return (issue("none (the record stops mid-turn)".into()), None);
    }
    if f.fail == Fail::AfterEnd {
        let n = toks.len() - f.at;
        let what = format!("delete the {n} move(s) after the end of the game");
        return (issue(what), Some((Vec::new(), toks.len())));
    }
    let end = toks.len().min(f.at + LOOKAHEAD);
    let ends_record = end == toks.len();
    let local = Failure {
        at: 0,
        cursor: f.cursor,
        fail: f.fail.clone(),
    };
    let cands = candidates(&toks[f.at..end], &local, f.at);
    let best = cands
        .iter()
        .enumerate()
        .map(|(k, c)| {
            (
                score(c, 0, f.cursor, stmt, ends_record),
                std::cmp::Reverse(k),
            )
        })
        .max();
    let ply_covered = toks[f.at].orig;
    match best {
        Some((s, std::cmp::Reverse(k))) if s.0 || s.1 > ply_covered => {
            let c = &cands[k];
            (issue(c.correction.clone()), Some((c.toks.clone(), end)))
        }
        _ => (issue("none found".into()), None),
    }
}

/// The issue with the record's result statement, if it is unreadable or does not follow
/// from the final score.
fn statement_issue<G: RecordGame>(
    rec: &RecordFile,
    stmt: &Option<Result<Statement, String>>,
    end: &G,
) -> Option<Issue> {
    let (text, at) = rec.body.result.as_ref()?;
    let issue = |actual: String, correction: &str| Issue {
        ply: 0,
        move_number: None,
        recorded: text.clone(),
        actual,
        correction: correction.into(),
        pos: *at,
    };
    match stmt.as_ref()? {
        Err(e) => Some(issue(e.clone(), "none")),
        Ok(s) => result::check(s, totals(end), end.komi(), G::seat_names())
            .err()
            .map(|e| issue(e, "the result statement does not follow from the moves")),
    }
}

/// The most issues reported for one record; the replay stops after them.
pub const MAX_ISSUES: usize = 10_000;

/// Text the lexer could not read, as issues at their places (`ply`: the move after it).
fn unreadable_issues(rec: &RecordFile, toks: &[Tok]) -> Vec<Issue> {
    rec.body
        .errors
        .iter()
        .map(|e| {
            let before =
                toks.partition_point(|t| (t.pos.line, t.pos.column) < (e.pos.line, e.pos.column));
            Issue {
                ply: before + 1,
                move_number: None,
                recorded: e.token.clone(),
                actual: format!("unreadable: expected {}", e.expected),
                correction: "none (the text was skipped)".into(),
                pos: e.pos,
            }
        })
        .collect()
}

/// Verifies a record from `start`: replays it, and at each failure reports the issue and
/// goes on from the smallest correction (at most [`MAX_ISSUES`] issues). Text of the
/// body that could not be read (`rec.body.errors`) is reported too, in file order.
pub fn verify<G: RecordGame>(rec: &RecordFile, start: G) -> Report<G::Move> {
    let mut toks = flatten(rec);
    let plies = toks.len();
    let mut issues = unreadable_issues(rec, &toks);
    let stmt_text = rec.body.result.as_ref().map(|r| r.0.clone());
    let stmt_read = stmt_text.as_ref().map(|t| result::parse::<G>(&rec.tags, t));
    let stmt = stmt_read.clone().and_then(Result::ok);
    let mut cur = Cursor {
        state: start,
        group: usize::MAX,
        group_player: start.to_move(),
        group_start: totals(&start),
    };
    let mut from = 0;
    let end = loop {
        let f = match run(&toks, from, cur, true) {
            Ok(end) => break end,
            Err(f) if issues.len() >= MAX_ISSUES => break f.cursor,
            Err(f) => f,
        };
        let (issue, corrected) = diagnose(&toks, &f, &stmt);
        issues.push(issue);
        match corrected {
            Some((window, end)) => {
                toks.splice(f.at..end, window);
                (from, cur) = (f.at, f.cursor);
            }
            None => break f.cursor,
        }
    };
    let final_score = totals(&end.state);
    let (moves, played) = replayed_moves(&toks, start);
    issues.extend(statement_issue(rec, &stmt_read, &end.state));
    issues.sort_by_key(|i| (i.pos.line, i.pos.column));
    Report {
        consistent: issues.is_empty(),
        plies,
        final_score,
        issues,
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
