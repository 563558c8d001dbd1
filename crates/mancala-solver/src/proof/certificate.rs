//! The checks of what [`super::dfpn`] found, apart from the search: the table only
//! suggests which move to follow, and every position the certificate needs is played out
//! and looked at again. A position whose exact value an endgame database given to the
//! check knows counts like a final position: such a certificate rests on that database.
//!
//! - A proof is a finite winning strategy: at the attacker's move one move to a proven
//!   position, at the defender's every move, down to final positions the attacker wins,
//!   and no position twice on one line (a cycle would be endless play, a draw).
//! - A disproof is a set S of positions holding the root in which the attacker never
//!   wins: no final position in S is his win, each of the attacker's moves from S stays in
//!   S, and from each defender's position in S some move stays in S or ends the game
//!   without a win for the attacker. The defender then keeps every game in S: it ends
//!   without the attacker winning, or never ends, a draw. Cycles inside S are allowed.

use std::collections::HashSet;

use arrayvec::ArrayVec;
use mancala_core::Game;
use mancala_core::game::MAX_MOVES;

use super::dfpn::{Limits, ProofSearch, Verdict};
use super::table::ProofTable;
use super::{Goal, known_verdict, proof_key};
use crate::retro::Oracle;

/// Why a certificate does not hold, with the repetition key of the position where it
/// failed.
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Gap {
    #[error("position {0:016x}: no move to a proven position at the attacker's turn")]
    NoProvenMove(u64),
    #[error("position {0:016x}: the proof comes back to it on one line (endless play is a draw)")]
    Cycle(u64),
    #[error("position {0:016x}: the game ends there without a win for the attacker")]
    NotAWin(u64),
    #[error("position {0:016x}: the attacker wins there, inside the set claimed safe")]
    AttackerWins(u64),
    #[error("position {0:016x}: the defender has no move known to keep the attacker from winning")]
    NoEscape(u64),
    #[error(
        "position {0:016x}: its repetition reaches the attacker's goal under these rules (in a win/draw/loss game: is no draw), so endless play there is no safe escape"
    )]
    RepetitionNotDraw(u64),
}

/// Each legal move of `g` with the position it leads to.
fn successors<G: Game>(g: &G) -> impl Iterator<Item = (G::Move, G)> {
    let mut all = ArrayVec::<_, MAX_MOVES>::new();
    g.for_each_child(|m, c| all.push((m, c)));
    all.into_iter()
}

fn children<G: Game>(g: &G) -> Vec<G> {
    successors(g).map(|(_, c)| c).collect()
}

/// The legal move of `g` that leads to `child` (the first, where two lead there).
fn move_to<G: Game>(g: &G, child: &G) -> Option<G::Move> {
    successors(g).find(|(_, c)| c == child).map(|(m, _)| m)
}

/// How a check fills a gap: where the table holds no settled entry for a move the
/// certificate needs (it was overwritten, or the search never settled it), a fresh
/// search of that position of at most this many nodes, into the same table. The check
/// stays independent of the search: whatever the table then says is played out again.
#[derive(Copy, Clone, Debug, Default)]
pub struct Repair {
    pub nodes: Option<u64>,
}

/// Fills `c`'s entry by a search when the table has no settled one and `repair` allows,
/// and says what that search found (`None`: no search ran). The caller takes the verdict
/// from here as well as from the table: in a small table full of settled entries the
/// repair's own answer may find no slot, and reading it back would lose it. Either way
/// the check then plays out the position below, so nothing is taken on trust.
fn repaired<G: Game>(
    c: &G,
    goal: Goal,
    table: &mut ProofTable,
    oracle: Option<&dyn Oracle<G>>,
    repair: Repair,
    tally: &mut Tally,
) -> Option<Verdict> {
    let nodes = repair.nodes?;
    if table
        .get(proof_key(c))
        .is_some_and(|(pn, dn)| pn == 0 || dn == 0)
    {
        return None;
    }
    let out = ProofSearch::new(
        table,
        goal,
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        },
    )
    .with_oracle(oracle)
    .run(c);
    tally.repaired(out.nodes);
    Some(out.verdict)
}

/// A check reports what it has looked at so far (to its `report`, which may ignore it) every
/// this many positions and after each repair: a check of tens of millions of positions
/// takes minutes, and a long silence after the search's last progress line looks like a hang.
const REPORT_EVERY: usize = 1 << 12;

/// What a certificate check looked at.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Checked {
    /// Distinct positions in the certificate (while the check runs: those looked at so far).
    pub positions: usize,
    /// Searches run to fill gaps, and their nodes.
    pub repairs: u64,
    pub repair_nodes: u64,
}

/// What a running check has looked at, told to its `report` as it grows.
struct Tally<'r> {
    checked: Checked,
    report: &'r mut dyn FnMut(&Checked),
}

impl<'r> Tally<'r> {
    fn new(report: &'r mut dyn FnMut(&Checked)) -> Self {
        Tally {
            checked: Checked::default(),
            report,
        }
    }

    /// The certificate now holds `positions` distinct positions.
    fn looked_at(&mut self, positions: usize) {
        self.checked.positions = positions;
        if positions.is_multiple_of(REPORT_EVERY) {
            (self.report)(&self.checked);
        }
    }

    /// A repair search of `nodes` nodes ran.
    fn repaired(&mut self, nodes: u64) {
        self.checked.repairs += 1;
        self.checked.repair_nodes += nodes;
        (self.report)(&self.checked);
    }
}

/// A checked proof: what the check looked at, and the strategy's first move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Proof<M> {
    pub checked: Checked,
    /// The move the checked strategy plays at the root when the attacker is to move
    /// there (`None` at the defender's turn, or when the root is already won): a move
    /// that wins, so a "yes" names how to win, not only that one can.
    pub first_move: Option<M>,
}

/// Nothing checked, no move (derived `Default` would ask it of the move type too).
impl<M> Default for Proof<M> {
    fn default() -> Self {
        Proof {
            checked: Checked::default(),
            first_move: None,
        }
    }
}

/// Checks that `attacker` wins from `root` by the strategy the table's proven entries
/// give (with gaps filled as `repair` allows). Positions `oracle` knows are leaves with
/// its value: the certificate then rests on that database.
pub fn check_proof<G: Game>(
    root: &G,
    goal: impl Into<Goal>,
    table: &mut ProofTable,
    oracle: Option<&dyn Oracle<G>>,
    repair: Repair,
    report: &mut dyn FnMut(&Checked),
) -> Result<Proof<G::Move>, Gap> {
    let goal = goal.into();
    let attacker = goal.attacker;
    let verdict = |g: &G| known_verdict(g, goal, oracle);
    let mut tally = Tally::new(report);
    let mut done: HashSet<u64> = HashSet::new();
    let mut on_line: HashSet<u64> = HashSet::new();
    // Each frame: a position on the line and the positions below it still to check.
    let mut stack: Vec<(u64, Vec<G>)> = Vec::new();
    let mut open = |g: &G,
                    on_line: &mut HashSet<u64>,
                    done: &HashSet<u64>,
                    tally: &mut Tally|
     -> Result<Option<(u64, Vec<G>)>, Gap> {
        let key = proof_key(g);
        match verdict(g) {
            Some(true) => return Ok(None),
            Some(false) => return Err(Gap::NotAWin(key)),
            None => {}
        }
        if done.contains(&key) {
            return Ok(None);
        }
        if !on_line.insert(key) {
            return Err(Gap::Cycle(key));
        }
        let next = children(g);
        let below = if g.to_move() == attacker {
            let proven = |c: &G, table: &ProofTable| {
                let k = proof_key(c);
                !on_line.contains(&k) && table.get(k).is_some_and(|(pn, _)| pn == 0)
            };
            if let Some(win) = next.iter().find(|c| verdict(c) == Some(true)) {
                vec![*win]
            } else if let Some(c) = next.iter().find(|c| proven(c, table)) {
                vec![*c]
            } else {
                let mut pick = None;
                for c in next.iter().filter(|c| verdict(c).is_none()) {
                    let found = repaired(c, goal, table, oracle, repair, tally);
                    let fresh = !on_line.contains(&proof_key(c));
                    if proven(c, table) || (fresh && found == Some(Verdict::Proven)) {
                        pick = Some(*c);
                        break;
                    }
                }
                vec![pick.ok_or(Gap::NoProvenMove(key))?]
            }
        } else {
            next
        };
        Ok(Some((key, below)))
    };
    let mut first_move = None;
    if let Some(frame) = open(root, &mut on_line, &done, &mut tally)? {
        if root.to_move() == attacker {
            // The attacker's frame holds the one child the strategy chose.
            first_move = frame.1.first().and_then(|c| move_to(root, c));
        }
        stack.push(frame);
    }
    while let Some((key, below)) = stack.last_mut() {
        match below.pop() {
            Some(c) => {
                if let Some(frame) = open(&c, &mut on_line, &done, &mut tally)? {
                    stack.push(frame);
                }
            }
            None => {
                let key = *key;
                on_line.remove(&key);
                done.insert(key);
                stack.pop();
                tally.looked_at(done.len());
            }
        }
    }
    Ok(Proof {
        checked: tally.checked,
        first_move,
    })
}

/// Checks that `attacker` does not win from `root`: builds the set S of the module
/// documentation from the table's disproven entries (with gaps filled as `repair`
/// allows). Positions `oracle` knows count with its value, like finished games.
pub fn check_disproof<G: Game>(
    root: &G,
    goal: impl Into<Goal>,
    table: &mut ProofTable,
    oracle: Option<&dyn Oracle<G>>,
    repair: Repair,
    report: &mut dyn FnMut(&Checked),
) -> Result<Checked, Gap> {
    let goal = goal.into();
    let attacker = goal.attacker;
    let verdict = |g: &G| known_verdict(g, goal, oracle);
    let mut tally = Tally::new(report);
    let mut safe: HashSet<u64> = HashSet::new();
    let mut todo: Vec<G> = vec![*root];
    while let Some(g) = todo.pop() {
        let key = proof_key(&g);
        if !safe.insert(key) {
            continue;
        }
        tally.looked_at(safe.len());
        // Play may cycle inside the set: a repetition must fall short of the goal
        // wherever it happens (in a win/draw/loss game: be a draw).
        if g.can_repeat() && goal.reached_by(g.to_move(), g.repetition_value()) {
            return Err(Gap::RepetitionNotDraw(key));
        }
        match verdict(&g) {
            Some(true) => return Err(Gap::AttackerWins(key)),
            Some(false) => continue,
            None => {}
        }
        let next = children(&g);
        if g.to_move() == attacker {
            for c in next {
                if !safe.contains(&proof_key(&c)) {
                    todo.push(c);
                }
            }
            continue;
        }
        let ends_safely = |c: &G| verdict(c) == Some(false);
        if next
            .iter()
            .any(|c| ends_safely(c) || safe.contains(&proof_key(c)))
        {
            continue;
        }
        let disproven =
            |c: &G, table: &ProofTable| table.get(proof_key(c)).is_some_and(|(_, dn)| dn == 0);
        let mut escape = next.iter().find(|c| disproven(c, table)).copied();
        if escape.is_none() {
            for c in &next {
                let found = repaired(c, goal, table, oracle, repair, &mut tally);
                if disproven(c, table) || found == Some(Verdict::Disproven) {
                    escape = Some(*c);
                    break;
                }
            }
        }
        todo.push(escape.ok_or(Gap::NoEscape(key))?);
    }
    Ok(tally.checked)
}
