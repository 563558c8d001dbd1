//! The checking replay: plays the tokens from a cursor, each move read, legal and its
//! claims matched, and stops at the first thing that does not fit.

use super::*;

/// The cursor's group before the record's first move.
pub(super) const NO_GROUP: usize = usize::MAX;

/// Where a replay stands: the position and what the current group started from.
#[derive(Clone, Copy, Debug)]
pub(super) struct Cursor<G> {
    pub(super) state: G,
    pub(super) group: usize,
    pub(super) group_player: Player,
    pub(super) group_start: [u32; 2],
}

#[derive(Clone, Debug, PartialEq)]
pub(super) enum Fail {
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

pub(super) struct Failure<G> {
    pub(super) at: usize,
    pub(super) cursor: Cursor<G>,
    pub(super) fail: Fail,
}

pub(super) fn gained_lost<G: Game>(before: [u32; 2], after: &G, mover: Player) -> Claim {
    let d = |p: Player| after.captured(p) - before[p.index()];
    Claim {
        gained: d(mover),
        lost: d(mover.opponent()),
    }
}

pub(super) fn totals<G: Game>(g: &G) -> [u32; 2] {
    [g.captured(Player::First), g.captured(Player::Second)]
}

pub(super) fn claim_matches(ann: &Option<Annotation>, actual: &Claim) -> bool {
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
    /// Moves into `group`: where groups are turns, a new group must start a new turn;
    /// within a group, its player must still be to move. Whether a group came before is
    /// the cursor's to say, not the token's index: a correction's look-ahead window
    /// starts at index 0 in the middle of a record, and judged as the record's first
    /// token its turn went unchecked, so a correction that left the turn short passed
    /// the window and failed the record, and the next one undid it (`verify` of
    /// Progressive `g c a`, 5 stones: "read d for a", "read a for d", ... 10,000 times).
    pub(super) fn enter_group(&mut self, group: usize) -> Result<(), Fail> {
        if group != self.group {
            if G::group_is_turn()
                && self.group != NO_GROUP
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

pub(super) fn run<G: RecordGame>(
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
        if let Err(f) = cur.enter_group(t.group) {
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
        if t.claims && !covered_by_group && !claim_matches(&t.annotation, &actual) {
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
    // The last group must also be a complete turn, unless the game ended (or the record
    // has no move). Asked of the cursor, not of the tokens left: a correction that
    // deletes the record's last move replays nothing, and must still leave whole turns.
    if ends_record
        && G::group_is_turn()
        && cur.group != NO_GROUP
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

pub(super) fn group_has_annotation(toks: &[Tok], i: usize) -> bool {
    let g = toks[i].group;
    toks[i..]
        .iter()
        .take_while(|t| t.group == g)
        .any(|t| t.group_annotation.is_some())
}

pub(super) fn why_illegal<G: RecordGame>(g: &G, mv: G::Move) -> String {
    let mut moves = Moves::new();
    g.legal_moves(&mut moves);
    let legal: Vec<String> = moves.iter().map(|&m| g.format_move(m)).collect();
    format!(
        "{} is not legal here (legal: {})",
        g.format_move(mv),
        legal.join(" ")
    )
}

/// Checks a result statement against the record's last position: by the totals and the
/// komi, or, in a game whose rules name only a winner ([`Game::win_loss`]), by who that
/// is.
pub(super) fn statement_holds<G: RecordGame>(st: &Statement, end: &G) -> Result<(), String> {
    if end.win_loss() {
        result::check_winner(st, rules_winner(end), totals(end), G::seat_names())
    } else {
        result::check(st, totals(end), end.komi(), G::seat_names())
    }
}

/// Who the rules make the winner of `g` (`Some(None)`: a draw), `None` while the game
/// is not over.
fn rules_winner<G: Game>(g: &G) -> Option<Option<Player>> {
    if !g.is_terminal() {
        return None;
    }
    let mover = g.to_move();
    Some(match g.terminal_value().signum() {
        1 => Some(mover),
        -1 => Some(mover.opponent()),
        _ => None,
    })
}
