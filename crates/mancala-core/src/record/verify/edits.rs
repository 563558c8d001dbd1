//! Candidate corrections at a failure: each an edited token list, scored by how far the
//! rest of the record then replays.

use super::*;

/// How many moves after a failure a candidate correction is replayed to be judged. A
/// bound keeps the cost of a correction independent of the record's length; records
/// with errors closer together than this are judged on everything after the failure.
pub(super) const LOOKAHEAD: usize = 500;

/// A candidate edit of a look-ahead window of the token list, starting at the failure.
pub(super) struct Candidate {
    pub(super) toks: Vec<Tok>,
    pub(super) correction: String,
}

/// How far the edited record replays from the failure: (reaches the end with a
/// matching result statement, furthest original move covered).
pub(super) fn score<G: RecordGame>(
    c: &Candidate,
    at: usize,
    cur: Cursor<G>,
    stmt: &Option<Statement>,
    ends_record: bool,
) -> (bool, usize) {
    match run(&c.toks, at, cur, ends_record) {
        Ok(end) => {
            let ok = ends_record
                && stmt
                    .as_ref()
                    .is_none_or(|s| statement_holds(s, &end.state).is_ok());
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
pub(super) fn edited(
    toks: &[Tok],
    edit: impl FnOnce(&mut Vec<Tok>),
    correction: String,
) -> Candidate {
    let mut v = toks.to_vec();
    edit(&mut v);
    Candidate {
        toks: v,
        correction,
    }
}

/// Every edit tried at a failure, in order of preference (the first of equally good
/// ones wins): amounts or the grouping into turns first, then the move itself, a swap,
/// an insertion, a deletion.
/// `toks` is the look-ahead window (the failure at `f.at`); `base` is where the window
/// starts in the record.
pub(super) fn candidates<G: RecordGame>(
    toks: &[Tok],
    f: &Failure<G>,
    base: usize,
) -> Vec<Candidate> {
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
        Fail::TurnTooShort => out.push(joined_turn_edit(toks, f)),
        Fail::TurnEndedEarly => out.push(split_turn_edit(toks, f, base)),
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
pub(super) fn move_claim_edits<G: RecordGame>(
    toks: &[Tok],
    f: &Failure<G>,
    actual: &Claim,
) -> Vec<Candidate> {
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
pub(super) fn misplaced_amount_edit<G: RecordGame>(
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

/// The group of the move at the failure joined to the turn before it: a turn written as
/// two (`g c a` for `g c-a`, West's bonus move split off).
pub(super) fn joined_turn_edit<G: RecordGame>(toks: &[Tok], f: &Failure<G>) -> Candidate {
    let i = f.at;
    let (from, to) = (toks[i].group, f.cursor.group);
    let seat = G::seat_names()[f.cursor.group_player.index()];
    edited(
        toks,
        |v| regroup(&mut v[i..], from, to),
        format!(
            "a turn written as two: {} is still {seat}'s turn (join it to the move before \
             with a hyphen)",
            toks[i].name
        ),
    )
}

/// The move at the failure and the rest of its group made a turn of their own: two
/// turns written as one (`c-a` for `c a`).
pub(super) fn split_turn_edit<G: RecordGame>(
    toks: &[Tok],
    f: &Failure<G>,
    base: usize,
) -> Candidate {
    let i = f.at;
    let seat = G::seat_names()[f.cursor.state.to_move().index()];
    let from = toks[i].group;
    edited(
        toks,
        |v| regroup(&mut v[i..], from, SPLIT_GROUPS + base + i),
        format!(
            "two turns written as one: {} starts {seat}'s turn (no hyphen before it)",
            toks[i].name
        ),
    )
}

/// Group numbers of turns a correction split off: above the record's own groups, below
/// those of inserted moves.
const SPLIT_GROUPS: usize = usize::MAX / 2;

/// Moves the leading moves of group `from` into group `to`.
fn regroup(toks: &mut [Tok], from: usize, to: usize) {
    let n = toks.iter().take_while(|t| t.group == from).count();
    for t in &mut toks[..n] {
        t.group = to;
        t.group_len = t.group_len.max(2);
    }
}

/// Another legal move in place of the one written (a wrong letter, a wrong case, or a
/// move for an empty entry).
pub(super) fn wrong_move_edits<G: RecordGame>(toks: &[Tok], f: &Failure<G>) -> Vec<Candidate> {
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
pub(super) fn swapped_moves_edit(toks: &[Tok], i: usize) -> Candidate {
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
pub(super) fn missing_move_edits<G: RecordGame>(
    toks: &[Tok],
    f: &Failure<G>,
    base: usize,
) -> Vec<Candidate> {
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
                // Not NO_GROUP (`usize::MAX`) for a move inserted before the first.
                ins.group = usize::MAX - 1 - (base + i);
                ins.group_len = 1;
                v.insert(i, ins);
            },
            what,
        ));
    }
    out
}
