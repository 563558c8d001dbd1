//! The check of a proof: a finite winning strategy played out from the root. The table
//! suggests the attacker's move; where the position below it turns out not to be won
//! (the table's entry was another position's, through a key collision, or a repair
//! found no win), the check goes back to that move and tries the attacker's next one.
//! It fails only when no move of some position on every line is left.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::AtomicBool;

use arrayvec::ArrayVec;
use mancala_core::Game;
use mancala_core::game::MAX_MOVES;

use super::{
    CheckError, Checked, Context, Gap, Proof, Repair, children, move_to, seen_key, table_key,
};
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
    let mut check = StrategyCheck {
        cx: Context::new(goal.into(), table, oracle, repair, report, stop),
        done: HashSet::new(),
        on_line: HashSet::new(),
        failed: HashMap::new(),
    };
    let chosen = check.run(root);
    let chosen = check.cx.conclude(chosen)?;
    let first_move = chosen.and_then(|c| move_to(root, &c));
    Ok(Proof {
        checked: check.cx.tally.checked,
        first_move,
    })
}

/// A position on the line being checked.
struct Frame<G> {
    seen: u128,
    /// The positions below it still to check: at the attacker's move the one his
    /// strategy plays, at the defender's every reply.
    below: Vec<G>,
    /// At the attacker's move: the moves in the order they are tried, and how far.
    choice: Option<Choice<G>>,
    /// The attacker's move being checked.
    chosen: Option<G>,
    /// Whether a failure below depended on the line (a repetition of a position on it),
    /// so that it may hold from another line and is not remembered.
    line_bound: bool,
}

/// The attacker's moves in the order a check tries them: first those the tables say are
/// proven (in move order), then the others nearest to a proof, each searched again
/// ([`repaired`]) when its turn comes.
struct Choice<G> {
    order: ArrayVec<G, MAX_MOVES>,
    /// How many of `order` the tables said were proven when the position was opened.
    settled: usize,
    /// The next one to try.
    next: usize,
}

/// Why a position is not won on this line.
struct Failure {
    gap: Gap,
    line_bound: bool,
}

/// The check's state: its context and what it has found so far.
struct StrategyCheck<'a, 't, 'r, G: Game> {
    cx: Context<'a, 't, 'r, G>,
    /// Positions whose whole strategy has been checked.
    done: HashSet<u128>,
    /// Positions on the current line: coming back to one is endless play.
    on_line: HashSet<u128>,
    /// Positions found not won from any line, with why.
    failed: HashMap<u128, Gap>,
}

impl<G: Game> StrategyCheck<'_, '_, '_, G> {
    /// Plays the strategy out from `root`; returns the move chosen at the root (the
    /// position after it), if the attacker is to move there.
    fn run(&mut self, root: &G) -> Result<Option<G>, CheckError> {
        let mut stack = match self.open(root) {
            Ok(Some(frame)) => vec![frame],
            Ok(None) => return Ok(None),
            Err(f) => return Err(f.gap.into()),
        };
        while let Some(top) = stack.last_mut() {
            if self.cx.stopped() {
                return Err(CheckError::Stopped);
            }
            match top.below.pop() {
                Some(c) => match self.open(&c) {
                    Ok(Some(frame)) => stack.push(frame),
                    Ok(None) => {}
                    Err(failure) => self.back_up(&mut stack, failure)?,
                },
                None => {
                    let frame = stack.pop().expect("the loop holds a frame");
                    self.on_line.remove(&frame.seen);
                    self.done.insert(frame.seen);
                    self.cx.tally.looked_at(self.done.len());
                    if stack.is_empty() {
                        return Ok(frame.chosen);
                    }
                }
            }
        }
        unreachable!("the root's frame returns when it is checked")
    }

    /// Starts the check of `g`: `None` when nothing is left to check there (a win, or
    /// checked before), else its frame with the positions below it.
    fn open(&mut self, g: &G) -> Result<Option<Frame<G>>, Failure> {
        let key = proof_key(g);
        match self.cx.verdict(g) {
            Some(true) => return Ok(None),
            Some(false) => {
                return Err(Failure {
                    gap: Gap::NotAWin(key),
                    line_bound: false,
                });
            }
            None => {}
        }
        let seen = seen_key(g);
        if self.done.contains(&seen) {
            return Ok(None);
        }
        if let Some(&gap) = self.failed.get(&seen) {
            return Err(Failure {
                gap,
                line_bound: false,
            });
        }
        if !self.on_line.insert(seen) {
            return Err(Failure {
                gap: Gap::Cycle(key),
                line_bound: true,
            });
        }
        let mut frame = Frame {
            seen,
            below: Vec::new(),
            choice: None,
            chosen: None,
            line_bound: false,
        };
        let next = children(g);
        if g.to_move() != self.cx.goal.attacker {
            frame.below = next;
        } else if let Some(win) = next.iter().find(|c| self.cx.verdict(c) == Some(true)) {
            frame.chosen = Some(*win);
            frame.below = vec![*win];
        } else {
            frame.choice = Some(self.choices(&next));
            if let Err(failure) = self.choose(&mut frame) {
                self.on_line.remove(&seen);
                return Err(failure);
            }
        }
        Ok(Some(frame))
    }

    /// The attacker's moves from a position with children `next`, in the order to try.
    fn choices(&self, next: &[G]) -> Choice<G> {
        // A final position that is no win is never a candidate, whatever a table says.
        let proven = |c: &&G| self.cx.verdict(c).is_none() && self.cx.settled(c, true);
        let mut order: ArrayVec<G, MAX_MOVES> = next.iter().filter(proven).copied().collect();
        let settled = order.len();
        let mut rest: ArrayVec<G, MAX_MOVES> = next
            .iter()
            .filter(|c| !proven(c) && self.cx.verdict(c).is_none())
            .copied()
            .collect();
        self.cx.repair_order(&mut rest, |c| *c, true);
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
            let i = choice.next;
            choice.next += 1;
            let c = choice.order[i];
            let seen = seen_key(&c);
            if self.failed.contains_key(&seen) {
                continue;
            }
            if self.on_line.contains(&seen) {
                frame.line_bound = true;
                continue;
            }
            let found = if i < choice.settled {
                None
            } else {
                self.cx.repaired(&c)
            };
            if i < choice.settled || self.cx.settled(&c, true) || found == Some(Verdict::Proven) {
                frame.chosen = Some(c);
                frame.below = vec![c];
                return Ok(());
            }
        }
        let gap = Gap::NoProvenMove(table_key(frame.seen));
        if !frame.line_bound {
            self.failed.insert(frame.seen, gap);
        }
        Err(Failure {
            gap,
            line_bound: frame.line_bound,
        })
    }

    /// A position below the top frame is not won: the nearest attacker's move above it
    /// with another move left tries that one; every frame below it fails. Fails the
    /// whole check when the root's frame fails.
    fn back_up(&mut self, stack: &mut Vec<Frame<G>>, mut failure: Failure) -> Result<(), Gap> {
        while let Some(top) = stack.last_mut() {
            top.line_bound |= failure.line_bound;
            if top.choice.is_some() {
                match self.choose(top) {
                    Ok(()) => {
                        self.cx.tally.retried();
                        return Ok(());
                    }
                    Err(f) => failure = f,
                }
            } else {
                failure.line_bound = top.line_bound;
                if !top.line_bound {
                    self.failed.insert(top.seen, failure.gap);
                }
            }
            let frame = stack.pop().expect("the loop holds a frame");
            self.on_line.remove(&frame.seen);
        }
        Err(failure.gap)
    }
}
