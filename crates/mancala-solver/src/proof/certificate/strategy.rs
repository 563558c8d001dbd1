//! The check of a proof: a finite winning strategy played out from the root. The table
//! suggests the attacker's move; where the position below it turns out not to be won
//! (the table's entry was another position's, through a key collision, or a repair
//! found no win), the check goes back to that move and tries the attacker's next one.
//! It fails only when no move of some position on every line is left.

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use arrayvec::ArrayVec;
use mancala_core::Game;
use mancala_core::game::MAX_MOVES;

use super::saved::strategy::{ProofState, load_proof_check};
use super::saved::{SavedCheck, StretchedCheck, to_the_end};
use super::{
    CLOCK_EVERY, CheckError, CheckInputs, Checked, Context, Gap, Proof, Repair, Step, children,
    inputs, move_to, pause_due, place, seen_key, table_key,
};
use crate::proof::checkpoint::ProofCheckpointError;
use crate::proof::dfpn::Verdict;
use crate::proof::table::ProofTable;
use crate::proof::{Goal, proof_key};
use crate::retro::Oracle;

/// Checks that `attacker` wins from `root` by the strategy the table's proven entries
/// give (with gaps filled as `repair` allows; `None`: no repairs). Positions `oracle`
/// knows are leaves with its value: the certificate then rests on that database. Raising
/// `stop` ends the check early with [`CheckError::Stopped`].
pub fn check_proof<G: Game>(
    root: &G,
    goal: impl Into<Goal>,
    table: &ProofTable,
    oracle: Option<&dyn Oracle<G>>,
    repair: Option<Repair>,
    report: &mut dyn FnMut(&Checked),
    stop: Option<&'static AtomicBool>,
) -> Result<Proof<G::Move>, CheckError> {
    let inputs = inputs(goal, table, oracle, repair, report, stop);
    to_the_end(ProofCheck::new(root, inputs))
}

/// A proof check that can run in stretches, be saved between them
/// ([`ProofCheck::save`]) and resumed in another process ([`ProofCheck::resumed`]), as
/// [`super::DisproofCheck`] can. Between two stretches its state is the positions whose
/// strategy is checked, those found not won, and the line being checked: each position
/// on it with the moves below it still to check (as places among its moves, played again
/// from the root when a saved check is read).
pub struct ProofCheck<'a, 't, 'r, G: Game> {
    pub(super) cx: Context<'a, 't, 'r, G>,
    pub(super) root: G,
    /// Positions whose whole strategy has been checked.
    pub(super) done: HashSet<u128>,
    /// Positions on the current line: coming back to one is endless play.
    pub(super) on_line: HashSet<u128>,
    /// Positions found not won from any line, with why.
    pub(super) failed: HashMap<u128, Gap>,
    /// The line being checked, from the root (empty: not started, or to start again).
    pub(super) stack: Vec<Frame<G>>,
    /// Positions between two looks at the clock ([`ProofCheck::pause_every`]).
    clock_every: u32,
}

/// A position on the line being checked.
pub(super) struct Frame<G> {
    pub(super) seen: u128,
    /// Its moves' positions ([`children`]).
    pub(super) kids: Vec<G>,
    /// Its place among the moves of the position above it on the line (0 at the root).
    pub(super) via: u8,
    /// The moves below it still to check (places in `kids`): at the attacker's move the
    /// one his strategy plays, at the defender's every reply.
    pub(super) below: Vec<u8>,
    /// At the attacker's move: the moves in the order they are tried, and how far.
    pub(super) choice: Option<Choice>,
    /// The attacker's move being checked (a place in `kids`).
    pub(super) chosen: Option<u8>,
    /// Whether a failure below depended on the line (a repetition of a position on it),
    /// so that it may hold from another line and is not remembered.
    pub(super) line_bound: bool,
    /// The attacker's move checked here failed, and a stop came before another was
    /// chosen: the next stretch chooses again first.
    pub(super) choosing: bool,
}

/// The attacker's moves in the order a check tries them: first those the tables say are
/// proven (in move order), then the others nearest to a proof, each searched again
/// ([`Context::repaired`]) when its turn comes.
pub(super) struct Choice {
    /// Places in the frame's `kids`.
    pub(super) order: ArrayVec<u8, MAX_MOVES>,
    /// How many of `order` the tables said were proven when the position was opened.
    pub(super) settled: usize,
    /// The next one to try.
    pub(super) next: usize,
}

/// Why a position is not won on this line.
struct NotWon {
    gap: Gap,
    line_bound: bool,
}

/// A position is not won, or a stop came first.
enum Failure {
    NotWon(NotWon),
    /// The stop flag cut a repair short before a move was found: nothing is concluded,
    /// and the move is tried again when the check goes on.
    Stopped,
}

/// How far a stretch got.
enum Played<G> {
    /// The root's strategy is checked: the attacker's move there (the position after
    /// it), if he is to move.
    Checked(Option<G>),
    /// The stop flag, or the pause; the state is whole.
    Stopped,
    Paused,
}

impl<'a, 't, 'r, G: Game> StretchedCheck<'a, 't, 'r, G> for ProofCheck<'a, 't, 'r, G> {
    type Found = Proof<G::Move>;
    type State = ProofState<G>;

    fn new(root: &G, inputs: CheckInputs<'a, 't, 'r, G>) -> Self {
        ProofCheck {
            cx: Context::new(inputs),
            root: *root,
            done: HashSet::new(),
            on_line: HashSet::new(),
            failed: HashMap::new(),
            stack: Vec::new(),
            clock_every: CLOCK_EVERY,
        }
    }

    fn resumed(self, state: ProofState<G>) -> Self {
        self.resume_from(state)
    }

    fn load(
        path: &Path,
        label: &str,
        root: &G,
    ) -> Result<SavedCheck<ProofState<G>>, ProofCheckpointError> {
        load_proof_check(path, label, root)
    }

    /// Plays the strategy out until the root's is checked, a gap ends the check, the stop
    /// flag is raised, or `pause` has passed (looked at between two positions).
    fn run(&mut self, pause: Option<Instant>) -> Step<Proof<G::Move>> {
        let mut stack = std::mem::take(&mut self.stack);
        let played = self.play(&mut stack, pause);
        self.stack = stack;
        let found = match played {
            Ok(Played::Checked(chosen)) => Ok(chosen.and_then(|c| move_to(&self.root, &c))),
            Ok(Played::Stopped) => Err(CheckError::Stopped),
            Ok(Played::Paused) => return Step::Paused,
            Err(gap) => {
                let found = self.cx.conclude(Err(gap.into()));
                if found == Err(CheckError::Stopped) {
                    // A gap met under a stop: a saved check starts the line again (and
                    // meets the gap again, from what it remembers).
                    self.stack.clear();
                    self.on_line.clear();
                }
                found
            }
        };
        Step::Done(found.map(|first_move| Proof {
            checked: self.cx.tally.checked,
            first_move,
        }))
    }

    fn save(&self, path: &Path, label: &str) -> Result<(), ProofCheckpointError> {
        self.save_to(path, label)
    }
}

impl<'a, 't, 'r, G: Game> ProofCheck<'a, 't, 'r, G> {
    /// Looks at the clock (for [`ProofCheck::run`]'s pause) every `positions` positions
    /// (at least 1), so that a test can pause after each.
    pub fn pause_every(mut self, positions: u32) -> Self {
        self.clock_every = positions.max(1);
        self
    }

    /// What the check has looked at so far.
    pub fn checked(&self) -> Checked {
        self.cx.tally.checked
    }

    /// Plays on along `stack` (the check's line, taken out of it while it runs).
    fn play(
        &mut self,
        stack: &mut Vec<Frame<G>>,
        pause: Option<Instant>,
    ) -> Result<Played<G>, Gap> {
        if stack.is_empty() {
            let root = self.root;
            match self.open(&root, 0) {
                Ok(Some(frame)) => stack.push(frame),
                Ok(None) => return Ok(Played::Checked(None)),
                Err(Failure::NotWon(f)) => return Err(f.gap),
                Err(Failure::Stopped) => return Ok(Played::Stopped),
            }
        }
        // Each run looks at one position at least before it pauses.
        let mut looked = 0u32;
        while let Some(top) = stack.last_mut() {
            if self.cx.stopped() {
                return Ok(Played::Stopped);
            }
            if pause_due(looked, self.clock_every, pause) {
                return Ok(Played::Paused);
            }
            looked = looked.wrapping_add(1);
            if top.choosing {
                match self.back_up(stack, None) {
                    Ok(()) => continue,
                    Err(Failure::Stopped) => return Ok(Played::Stopped),
                    Err(Failure::NotWon(f)) => return Err(f.gap),
                }
            }
            match top.below.pop() {
                Some(i) => {
                    let c = top.kids[usize::from(i)];
                    match self.open(&c, i) {
                        Ok(Some(frame)) => stack.push(frame),
                        Ok(None) => {}
                        Err(Failure::Stopped) => {
                            top.below.push(i);
                            return Ok(Played::Stopped);
                        }
                        Err(Failure::NotWon(f)) => match self.back_up(stack, Some(f)) {
                            Ok(()) => {}
                            Err(Failure::Stopped) => return Ok(Played::Stopped),
                            Err(Failure::NotWon(f)) => return Err(f.gap),
                        },
                    }
                }
                None => {
                    let frame = stack.pop().expect("the loop holds a frame");
                    self.on_line.remove(&frame.seen);
                    self.done.insert(frame.seen);
                    self.cx.tally.looked_at(self.done.len(), self.done.len());
                    if stack.is_empty() {
                        let chosen = frame.chosen.map(|i| frame.kids[usize::from(i)]);
                        return Ok(Played::Checked(chosen));
                    }
                }
            }
        }
        unreachable!("the root's frame returns when it is checked")
    }

    /// Starts the check of `g`, the move `via` of the position above it: `None` when
    /// nothing is left to check there (a win, or checked before), else its frame with the
    /// positions below it.
    fn open(&mut self, g: &G, via: u8) -> Result<Option<Frame<G>>, Failure> {
        let key = proof_key(g);
        let not_won = |gap, line_bound| Err(Failure::NotWon(NotWon { gap, line_bound }));
        match self.cx.verdict(g) {
            Some(true) => return Ok(None),
            Some(false) => return not_won(Gap::NotAWin(key), false),
            None => {}
        }
        let seen = seen_key(g);
        if self.done.contains(&seen) {
            return Ok(None);
        }
        if let Some(&gap) = self.failed.get(&seen) {
            return not_won(gap, false);
        }
        if !self.on_line.insert(seen) {
            return not_won(Gap::Cycle(key), true);
        }
        let mut frame = Frame {
            seen,
            kids: children(g),
            via,
            below: Vec::new(),
            choice: None,
            chosen: None,
            line_bound: false,
            choosing: false,
        };
        if g.to_move() != self.cx.goal.attacker {
            frame.below = (0..frame.kids.len()).map(place).collect();
        } else if let Some(win) = frame
            .kids
            .iter()
            .position(|c| self.cx.verdict(c) == Some(true))
        {
            frame.chosen = Some(place(win));
            frame.below = vec![place(win)];
        } else {
            frame.choice = Some(self.choices(&frame.kids));
            if let Err(failure) = self.choose(&mut frame) {
                self.on_line.remove(&seen);
                return Err(failure);
            }
        }
        Ok(Some(frame))
    }

    /// The attacker's moves from a position with children `next`, in the order to try.
    fn choices(&self, next: &[G]) -> Choice {
        // A final position that is no win is never a candidate, whatever a table says.
        let proven = |c: &G| self.cx.verdict(c).is_none() && self.cx.settled(c, true);
        let mut order: ArrayVec<u8, MAX_MOVES> = (0..next.len())
            .filter(|&i| proven(&next[i]))
            .map(place)
            .collect();
        let settled = order.len();
        let mut rest: ArrayVec<u8, MAX_MOVES> = (0..next.len())
            .filter(|&i| !proven(&next[i]) && self.cx.verdict(&next[i]).is_none())
            .map(place)
            .collect();
        self.cx
            .repair_order(&mut rest, |&i| next[usize::from(i)], true);
        order.extend(rest);
        Choice {
            order,
            settled,
            next: 0,
        }
    }

    /// Sets the frame's next move to check; fails (and remembers it, where the line had
    /// no part in it) when none is left.
    fn choose(&mut self, frame: &mut Frame<G>) -> Result<(), Failure> {
        let choice = frame.choice.as_mut().expect("an attacker's frame");
        while choice.next < choice.order.len() {
            let at = choice.next;
            choice.next += 1;
            let i = choice.order[at];
            let c = frame.kids[usize::from(i)];
            let seen = seen_key(&c);
            if self.failed.contains_key(&seen) {
                continue;
            }
            if self.on_line.contains(&seen) {
                frame.line_bound = true;
                continue;
            }
            let found = if at < choice.settled {
                None
            } else {
                self.cx.repaired(&c)
            };
            if at < choice.settled || self.cx.settled(&c, true) || found == Some(Verdict::Proven) {
                frame.chosen = Some(i);
                frame.below = vec![i];
                return Ok(());
            }
            if self.cx.stopped() {
                // The repair may have been cut short: the move is tried again.
                choice.next = at;
                return Err(Failure::Stopped);
            }
        }
        let gap = Gap::NoProvenMove(table_key(frame.seen));
        if !frame.line_bound {
            self.failed.insert(frame.seen, gap);
        }
        Err(Failure::NotWon(NotWon {
            gap,
            line_bound: frame.line_bound,
        }))
    }

    /// A position below the top frame is not won (`failure`; `None`: the top frame, whose
    /// move failed before a stop, chooses again): the nearest attacker's move above it
    /// with another move left tries that one; every frame below it fails. Fails the
    /// whole check when the root's frame fails; a stop while choosing leaves the top frame
    /// to choose again.
    fn back_up(
        &mut self,
        stack: &mut Vec<Frame<G>>,
        mut failure: Option<NotWon>,
    ) -> Result<(), Failure> {
        while let Some(top) = stack.last_mut() {
            if let Some(f) = &failure {
                top.line_bound |= f.line_bound;
            }
            if top.choice.is_some() {
                match self.choose(top) {
                    Ok(()) => {
                        top.choosing = false;
                        self.cx.tally.retried();
                        return Ok(());
                    }
                    Err(Failure::Stopped) => {
                        top.choosing = true;
                        return Err(Failure::Stopped);
                    }
                    Err(Failure::NotWon(f)) => failure = Some(f),
                }
            } else {
                let f = failure
                    .as_mut()
                    .expect("a defender's position fails only from below");
                f.line_bound = top.line_bound;
                if !top.line_bound {
                    self.failed.insert(top.seen, f.gap);
                }
            }
            let frame = stack.pop().expect("the loop holds a frame");
            self.on_line.remove(&frame.seen);
        }
        Err(Failure::NotWon(failure.expect("the root's frame failed")))
    }
}
