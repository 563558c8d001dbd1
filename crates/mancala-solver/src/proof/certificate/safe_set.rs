//! The check of a disproof: the set S of positions the defender can keep the game in
//! (the module documentation of [`super`]), built from the root by the table's
//! disproven entries. Where a defender's escape leads to a position that turns out
//! unsafe (the attacker wins there, or some defender's position below has no escape
//! left), that position and the attacker's positions above it that lead there by force
//! are marked unsafe and the set is built again without them, so that the defender
//! chooses another escape. The set is accepted only as a whole, built without a
//! failure.

use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use hashbrown::HashTable;
use hashbrown::hash_table::Entry;
use mancala_core::Game;

use super::saved::set::{DisproofState, load_disproof_check};
use super::saved::{SavedCheck, StretchedCheck, to_the_end};
use super::{
    CLOCK_EVERY, CheckError, CheckInputs, Checked, Context, Gap, Repair, Step, children, inputs,
    pause_due, place, seen_key,
};
use crate::proof::checkpoint::ProofCheckpointError;
use crate::proof::dfpn::Verdict;
use crate::proof::table::ProofTable;
use crate::proof::{Goal, proof_key};
use crate::retro::Oracle;

/// The most times a disproof check builds its set again. Each rebuild has found at least
/// one position more to be unsafe; a search's table sends a check the wrong way only
/// where an entry was another position's (a key collision), which is rare, so a few
/// rebuilds are all a sound disproof needs.
const MAX_REBUILDS: u64 = 64;

/// Checks that `attacker` does not win from `root`: builds the set S of the module
/// documentation from the table's disproven entries (with gaps filled as `repair`
/// allows; `None`: no repairs). Positions `oracle` knows count with its value, like
/// finished games. Raising `stop` ends the check early with [`CheckError::Stopped`].
pub fn check_disproof<G: Game>(
    root: &G,
    goal: impl Into<Goal>,
    table: &ProofTable,
    oracle: Option<&dyn Oracle<G>>,
    repair: Option<Repair>,
    report: &mut dyn FnMut(&Checked),
    stop: Option<&'static AtomicBool>,
) -> Result<Checked, CheckError> {
    let inputs = inputs(goal, table, oracle, repair, report, stop);
    to_the_end(DisproofCheck::new(root, inputs))
}

/// A disproof check that can run in stretches, be saved between them
/// ([`DisproofCheck::save`]) and resumed in another process ([`DisproofCheck::resume`]):
/// the check of a big "no" (the Kalah 6 x 6 "+12" check held 340 M positions after more
/// than two hours) outlasts a working session. Between two stretches its state is the
/// set built so far and the positions still to add; every member's obligations (all of
/// the attacker's moves, one escape of the defender's) are either members or waiting, so
/// the check goes on soundly whatever the tables hold when it resumes.
pub struct DisproofCheck<'a, 't, 'r, G: Game> {
    pub(super) check: SetCheck<'a, 't, 'r, G>,
    pub(super) root: G,
    pub(super) safe: Members,
    pub(super) todo: Vec<Pending<G>>,
    pub(super) split: Split,
    /// The other threads' repairs ([`CheckInputs::helpers`]).
    pub(super) helpers: Vec<Repair<'t>>,
    /// Positions between two looks at the clock ([`DisproofCheck::pause_every`]).
    clock_every: u32,
}

/// A set built in parts ([`CheckInputs::split`]): first the top, the members less than
/// `horizon` plies below the root, whose members at the horizon are not followed but kept
/// as parts; then each part's set from its member, on top of the top's members, let go
/// once the part is whole. Every member's obligations are then met in the top or in the
/// set of the part it belongs to, so the union of the sets is a set S of the module
/// documentation; the memory is the top's and the largest part's, not the whole set's,
/// and a position that more than one part reaches is checked once in each.
#[derive(Clone, Debug, Default)]
pub(super) struct Split {
    /// The ply at which the top ends (`None`: the set is built whole).
    pub(super) horizon: Option<u32>,
    /// The parts still to build: their members' places in the list.
    pub(super) parts: Vec<u32>,
    /// Once the top is whole: its length; the members after it are the part's being
    /// built.
    pub(super) top: Option<u32>,
    /// The members of the parts built and let go.
    pub(super) released: usize,
    /// The parts the top left.
    pub(super) found: usize,
}

impl Split {
    /// Whether a position `depth` plies below the root is a part's, not followed now.
    fn cuts(&self, depth: u32) -> bool {
        self.top.is_none() && self.horizon.is_some_and(|h| depth >= h)
    }
}

/// A position waiting to join the set: the member it comes from, and which of that
/// member's moves (its place in [`children`]) leads to it, so that a saved check can play
/// it again from the root.
#[derive(Copy, Clone)]
pub(super) struct Pending<G> {
    pub(super) g: G,
    pub(super) parent: u32,
    pub(super) via: u8,
    /// Plies below the root (counted only in the top of a split set).
    pub(super) depth: u32,
}

impl<'a, 't, 'r, G: Game> StretchedCheck<'a, 't, 'r, G> for DisproofCheck<'a, 't, 'r, G> {
    type Found = Checked;
    type State = DisproofState<G>;

    fn new(root: &G, mut inputs: CheckInputs<'a, 't, 'r, G>) -> Self {
        let split = Split {
            horizon: inputs.split,
            ..Split::default()
        };
        let helpers = std::mem::take(&mut inputs.helpers);
        DisproofCheck {
            check: SetCheck {
                cx: Context::new(inputs),
                unsafe_: HashMap::new(),
            },
            root: *root,
            safe: Members::default(),
            todo: Vec::new(),
            split,
            helpers,
            clock_every: CLOCK_EVERY,
        }
        .restarted()
    }

    fn resumed(self, state: DisproofState<G>) -> Self {
        self.resume_from(state)
    }

    fn load(
        path: &Path,
        label: &str,
        root: &G,
    ) -> Result<SavedCheck<DisproofState<G>>, ProofCheckpointError> {
        load_disproof_check(path, label, root)
    }

    /// Builds on until the set is whole, a gap ends the check, the stop flag is raised,
    /// or `pause` has passed (looked at between two positions).
    fn run(&mut self, pause: Option<Instant>) -> Step<Checked> {
        loop {
            let failure = match self.build(pause) {
                Ok(Some(step)) => return step,
                Ok(None) => return Step::Done(Ok(self.checked())),
                Err(failure) => failure,
            };
            let (gap, found) = failure;
            if found.is_empty() || self.check.cx.tally.checked.retries >= MAX_REBUILDS {
                let concluded = self.check.cx.conclude(Err(gap.into()));
                if concluded == Err(CheckError::Stopped) {
                    // The set holds the failed member without its obligations: a saved
                    // check starts the set again (and meets the same failure).
                    self.restart();
                }
                return Step::Done(concluded);
            }
            self.check
                .unsafe_
                .extend(found.into_iter().map(|seen| (seen, gap)));
            self.check.cx.tally.retried();
            self.restart();
        }
    }

    fn save(&self, path: &Path, label: &str) -> Result<(), ProofCheckpointError> {
        self.save_to(path, label)
    }
}

impl<'a, 't, 'r, G: Game> DisproofCheck<'a, 't, 'r, G> {
    /// Looks at the clock (for [`DisproofCheck::run`]'s pause) every `positions`
    /// positions (at least 1), so that a test can pause after each.
    pub fn pause_every(mut self, positions: u32) -> Self {
        self.clock_every = positions.max(1);
        self
    }

    /// What the check has looked at so far.
    pub fn checked(&self) -> Checked {
        self.check.cx.tally.checked
    }

    /// The check with its set empty, started again from the root.
    fn restarted(mut self) -> Self {
        self.restart();
        self
    }

    /// Empties the set and starts it again from the root.
    fn restart(&mut self) {
        self.safe = Members::default();
        self.todo = vec![Pending {
            g: self.root,
            parent: NO_PARENT,
            via: 0,
            depth: 0,
        }];
        self.split = Split {
            horizon: self.split.horizon,
            ..Split::default()
        };
        // The tally counts the set being built (repairs and retries go on counting).
        let checked = &mut self.check.cx.tally.checked;
        (checked.positions, checked.parts, checked.parts_done) = (0, 0, 0);
    }

    /// The positions looked at so far: the set's and those of the parts let go.
    pub(super) fn positions(&self) -> usize {
        self.split.released + self.safe.len()
    }

    /// The top's length, the top closed (its parts counted) if it was still being built.
    pub(super) fn close_top(&mut self) -> usize {
        if self.split.top.is_none() {
            self.split.top = Some(self.safe.len() as u32);
            self.split.found = self.split.parts.len();
        }
        self.split.top.unwrap_or_default() as usize
    }

    /// Lets the members after the top's `top` go (a whole part's), counting them.
    pub(super) fn release_part(&mut self, top: usize) {
        if self.safe.len() > top {
            self.split.released += self.safe.len() - top;
            self.safe.truncate(top);
        }
    }

    /// With the waiting positions all added: starts the next part of a split set (lets
    /// the part before go) and gives its member and position, to be followed as if it
    /// had just joined; `None` when no part is left.
    fn next_part(&mut self) -> Option<(G, u32)> {
        self.split.horizon?;
        let top = self.close_top();
        let tally = &mut self.check.cx.tally;
        tally.part(self.split.found - self.split.parts.len(), self.split.found);
        let at = self.split.parts.pop()?;
        self.release_part(top);
        let g = replay(&self.root, &self.safe.list, &self.safe.list[at as usize])
            .expect("a part's member is played again from the root as it was reached");
        Some((g, at))
    }

    /// Adds the waiting positions to the set, avoiding the positions known unsafe.
    /// `Ok(None)`: the set is whole; `Ok(Some(step))`: stopped or paused with the state
    /// whole; `Err`: a failure, with the positions it shows unsafe.
    pub(super) fn build(&mut self, pause: Option<Instant>) -> Built {
        let (goal, attacker) = (self.check.cx.goal, self.check.cx.goal.attacker);
        // Each run adds at least one position before it pauses.
        let mut looked = 0u32;
        loop {
            let Some(&next) = self.todo.last() else {
                if !self.helpers.is_empty() && self.split.horizon.is_some() {
                    return self.build_parts_together(pause);
                }
                let Some((g, at)) = self.next_part() else {
                    return Ok(None);
                };
                match self.follow(&g, at, u32::MAX) {
                    Followed::Met => continue,
                    Followed::Failed(gap) => return Err((gap, forced_above(&self.safe.list, at))),
                    // Cut short by a stop: the part waits again.
                    Followed::Stopped => {
                        self.split.parts.push(at);
                        return Ok(Some(Step::Done(Err(CheckError::Stopped))));
                    }
                }
            };
            if self.check.cx.stopped() {
                return Ok(Some(Step::Done(Err(CheckError::Stopped))));
            }
            if pause_due(looked, self.clock_every, pause) {
                return Ok(Some(Step::Paused));
            }
            looked = looked.wrapping_add(1);
            self.todo.pop();
            let Pending { g, parent, .. } = next;
            let key = proof_key(&g);
            let seen = seen_key(&g);
            if let Some(&gap) = self.check.unsafe_.get(&seen) {
                // Reached from an attacker's position (escapes avoid unsafe ones): that
                // position is unsafe too.
                return Err((gap, forced_above(&self.safe.list, parent)));
            }
            let Some(at) = self
                .safe
                .insert(seen, parent, next.via, g.to_move() == attacker)
            else {
                continue;
            };
            self.check
                .cx
                .tally
                .looked_at(self.positions(), self.safe.len());
            let fail = |gap, safe: &Members| Err((gap, forced_above(&safe.list, at)));
            // Play may cycle inside the set: a repetition must fall short of the goal
            // wherever it happens (in a win/draw/loss game: be a draw).
            if g.can_repeat() && goal.reached_by(g.to_move(), g.repetition_value()) {
                return fail(Gap::RepetitionNotDraw(key), &self.safe);
            }
            match self.check.cx.verdict(&g) {
                Some(true) => return fail(Gap::AttackerWins(key), &self.safe),
                Some(false) => continue,
                None => {}
            }
            if self.split.cuts(next.depth) {
                self.split.parts.push(at);
                continue;
            }
            match self.follow(&g, at, next.depth) {
                Followed::Met => {}
                Followed::Failed(gap) => return fail(gap, &self.safe),
                // A repair the stop flag cut short finds no escape: the position goes
                // back to wait, so that a saved check loses nothing and adds no false
                // failure.
                Followed::Stopped => {
                    self.safe.remove_last();
                    self.check.cx.tally.checked.positions = self.positions();
                    self.todo.push(next);
                    return Ok(Some(Step::Done(Err(CheckError::Stopped))));
                }
            }
        }
    }

    /// Puts the obligations of the member `at`, position `g` (`depth` plies below the
    /// root), to wait: all of the attacker's moves, or one escape of the defender's.
    fn follow(&mut self, g: &G, at: u32, depth: u32) -> Followed {
        let attacker = self.check.cx.goal.attacker;
        let depth = depth.saturating_add(1);
        let next_positions = children(g);
        if g.to_move() == attacker {
            for (i, c) in next_positions.iter().enumerate() {
                if !self.safe.contains(seen_key(c)) {
                    self.todo.push(Pending {
                        g: *c,
                        parent: at,
                        via: place(i),
                        depth,
                    });
                }
            }
            return Followed::Met;
        }
        let ends_safely = |c: &G| self.check.cx.verdict(c) == Some(false);
        if next_positions
            .iter()
            .any(|c| ends_safely(c) || self.safe.contains(seen_key(c)))
        {
            return Followed::Met;
        }
        match self.check.escape(&next_positions) {
            Some(i) => {
                self.todo.push(Pending {
                    g: next_positions[i],
                    parent: at,
                    via: place(i),
                    depth,
                });
                Followed::Met
            }
            None if self.check.cx.stopped() => Followed::Stopped,
            None => Followed::Failed(Gap::NoEscape(proof_key(g))),
        }
    }
}

/// How a member's obligations were met ([`DisproofCheck::follow`]).
enum Followed {
    /// Waiting or in the set.
    Met,
    /// A defender's position without an escape.
    Failed(Gap),
    /// A repair the stop flag cut short found no escape.
    Stopped,
}

/// The position of `member`: the moves that led to it played from `root` (`None` when a
/// move is not there or leads elsewhere: a check of another position).
pub(super) fn replay<G: Game>(root: &G, members: &[Member], member: &Member) -> Option<G> {
    let mut line = Vec::new();
    let mut cur = member;
    while cur.parent != NO_PARENT {
        line.push(cur.via);
        cur = &members[cur.parent as usize];
    }
    let mut g = *root;
    for &via in line.iter().rev() {
        g = *children(&g).get(usize::from(via))?;
    }
    (seen_key(&g) == member.seen()).then_some(g)
}

/// What [`DisproofCheck::build`] ends with: `Ok(None)`, the set is whole;
/// `Ok(Some(step))`, stopped or paused with the state whole; `Err`, a failure, with the
/// positions it shows unsafe.
pub(super) type Built = Result<Option<Step<Checked>>, (Gap, Vec<u128>)>;

/// A member of the set as it is built: the member that first led to it, by which move,
/// and who moves. The check keeps one per position of the set, so it is kept small: 24
/// bytes, where a `u128` key and an `Option<usize>` parent took 48 with their alignment
/// (the Kalah 6 x 6 "+12" check held 340 M of them).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) struct Member {
    pub(super) seen: [u64; 2],
    /// The index of the member that first led here, [`NO_PARENT`] at the root.
    pub(super) parent: u32,
    /// The parent's move that led here (its place in [`children`]).
    pub(super) via: u8,
    pub(super) attacker_to_move: bool,
}

/// The root's [`Member::parent`].
pub(super) const NO_PARENT: u32 = u32::MAX;

impl Member {
    pub(super) fn seen(&self) -> u128 {
        u128::from(self.seen[0]) << 64 | u128::from(self.seen[1])
    }

    fn parent(&self) -> Option<usize> {
        (self.parent != NO_PARENT).then_some(self.parent as usize)
    }
}

/// The set S as it is built: its members in the order they joined, and a hash index of
/// them that holds only their 4-byte places in that list. A set of the keys beside the
/// list held each key twice: with a hash set of `u128` a member took 24 bytes in the
/// list and 17 to 34 in the set; here 5 to 10 in the index.
#[derive(Default)]
pub(super) struct Members {
    pub(super) list: Vec<Member>,
    index: HashTable<u32>,
}

/// A [`seen_key`]'s place in the index: its lower half is already a hash of the whole
/// position (SipHash), so it is used as it is.
fn bucket(seen: u128) -> u64 {
    seen as u64
}

impl Members {
    pub(super) fn len(&self) -> usize {
        self.list.len()
    }

    /// The set of the members of `list` (a saved check's, all distinct).
    pub(super) fn from_list(list: Vec<Member>) -> Self {
        let mut index = HashTable::with_capacity(list.len());
        for (i, m) in list.iter().enumerate() {
            index.insert_unique(bucket(m.seen()), i as u32, |&j| {
                bucket(list[j as usize].seen())
            });
        }
        Members { list, index }
    }

    fn contains(&self, seen: u128) -> bool {
        let list = &self.list;
        self.index
            .find(bucket(seen), |&i| list[i as usize].seen() == seen)
            .is_some()
    }

    /// Adds `seen` with its parent, the parent's move and the side to move; returns its
    /// place in the list, or `None` when it is a member already.
    fn insert(&mut self, seen: u128, parent: u32, via: u8, attacker_to_move: bool) -> Option<u32> {
        let list = &self.list;
        let entry = self.index.entry(
            bucket(seen),
            |&i| list[i as usize].seen() == seen,
            |&i| bucket(list[i as usize].seen()),
        );
        let Entry::Vacant(slot) = entry else {
            return None;
        };
        // 2^32 members would take over 100 GB of memory: the set never gets there.
        let at = u32::try_from(self.list.len()).expect("fewer than 2^32 members");
        slot.insert(at);
        self.list.push(Member {
            seen: [(seen >> 64) as u64, seen as u64],
            parent,
            via,
            attacker_to_move,
        });
        Some(at)
    }

    /// Keeps the first `len` members only: the others leave the index one by one (in
    /// time the part's size, not the top's) and the list.
    pub(super) fn truncate(&mut self, len: usize) {
        for at in len..self.list.len() {
            let seen = self.list[at].seen();
            if let Ok(found) = self.index.find_entry(bucket(seen), |&i| i as usize == at) {
                found.remove();
            }
        }
        self.list.truncate(len);
    }

    /// Takes the newest member out again.
    fn remove_last(&mut self) {
        let Some(last) = self.list.pop() else {
            return;
        };
        let at = self.list.len() as u32;
        if let Ok(found) = self.index.find_entry(bucket(last.seen()), |&i| i == at) {
            found.remove();
        }
    }
}

/// The check's context and the positions it has found unsafe (with why).
pub(super) struct SetCheck<'a, 't, 'r, G: Game> {
    pub(super) cx: Context<'a, 't, 'r, G>,
    pub(super) unsafe_: HashMap<u128, Gap>,
}

impl<G: Game> SetCheck<'_, '_, '_, G> {
    /// A defender's move (its place in `next`) to a position the tables (or a repair)
    /// say is disproven and that is not known unsafe.
    fn escape(&mut self, next: &[G]) -> Option<usize> {
        // A final position the attacker wins is never an escape, whatever a table says.
        let usable = |c: &G, check: &Self| {
            check.cx.verdict(c) != Some(true) && !check.unsafe_.contains_key(&seen_key(c))
        };
        let disproven = |c: &G, check: &Self| check.cx.settled(c, false);
        if let Some(i) = next
            .iter()
            .position(|c| usable(c, self) && disproven(c, self))
        {
            return Some(i);
        }
        let mut order: Vec<usize> = (0..next.len())
            .filter(|&i| usable(&next[i], self))
            .collect();
        self.cx.repair_order(&mut order, |&i| next[i], false);
        order.into_iter().find(|&i| {
            let c = &next[i];
            let found = self.cx.repaired(c);
            disproven(c, self) || found == Some(Verdict::Disproven)
        })
    }
}

/// The member `at` (a position shown unsafe) and the attacker's positions above it by
/// which it was reached: the attacker chooses his move, so a position of his with an
/// unsafe move is unsafe. The first defender's position above ends the chain: it may
/// choose another escape when the set is built again.
fn forced_above(members: &[Member], at: u32) -> Vec<u128> {
    let mut found = Vec::new();
    let mut cur = (at != NO_PARENT).then_some(at as usize);
    while let Some(i) = cur {
        found.push(members[i].seen());
        cur = members[i].parent().filter(|&p| members[p].attacker_to_move);
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Keys that share their lower half (their place in the index) stay apart, a key
    /// joins once, and the chain above a member stops at the first defender's position.
    #[test]
    fn members_join_once_and_chain_to_their_parents() {
        let mut set = Members::default();
        let (a, b, c) = (1u128 << 64 | 7, 2u128 << 64 | 7, 3u128 << 64 | 9);
        assert_eq!(set.insert(a, NO_PARENT, 0, false), Some(0));
        assert_eq!(set.insert(b, 0, 1, true), Some(1));
        assert_eq!(set.insert(c, 1, 2, true), Some(2));
        assert_eq!(set.insert(b, 2, 0, false), None, "a member joins once");
        assert_eq!(set.len(), 3);
        assert!(set.contains(a) && set.contains(b) && set.contains(c));
        assert!(!set.contains(4u128 << 64 | 7));
        // c and b are the attacker's; a, the defender's, ends the chain.
        assert_eq!(forced_above(&set.list, 2), vec![c, b]);
        assert_eq!(forced_above(&set.list, NO_PARENT), Vec::<u128>::new());
    }
}
