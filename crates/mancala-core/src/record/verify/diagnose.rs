//! Diagnosis: the best correction at a failure and the issue it becomes, and the issues
//! of the result statement and of unreadable entries.

use super::*;

pub(super) fn actual_text<G: RecordGame>(toks: &[Tok], f: &Failure<G>) -> String {
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

/// After a failure: the issue to report, and whether the replay goes on from a corrected
/// record (`Some`: the moves from the failure to `.1`, edited) or stops there.
type Diagnosis = (Issue, Option<(Vec<Tok>, usize)>);

/// What the record says at a failure: (text, move number, place, ply as written).
pub(super) fn recorded_at<G>(toks: &[Tok], f: &Failure<G>) -> (String, Option<u32>, Pos, usize) {
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
pub(super) fn diagnose<G: RecordGame>(
    toks: &[Tok],
    f: &Failure<G>,
    stmt: &Option<Statement>,
) -> Diagnosis {
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
pub(super) fn statement_issue<G: RecordGame>(
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
        Ok(s) => statement_holds(s, end)
            .err()
            .map(|e| issue(e, "the result statement does not follow from the moves")),
    }
}

/// Text the lexer could not read, as issues at their places (`ply`: the move after it).
pub(super) fn unreadable_issues(rec: &RecordFile, toks: &[Tok]) -> Vec<Issue> {
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
