//! The check of a disproof: the set S of positions the defender can keep the game in
//! (the module documentation of [`super`]), built from the root by the table's
//! disproven entries. Where a defender's escape leads to a position that turns out
//! unsafe (the attacker wins there, or some defender's position below has no escape
//! left), that position and the attacker's positions above it that lead there by force
//! are marked unsafe and the set is built again without them, so that the defender
//! chooses another escape. The set is accepted only as a whole, built without a
//! failure.

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;

use hashbrown::HashTable;
use hashbrown::hash_table::Entry;
use mancala_core::Game;

use super::{CheckError, Checked, Context, Gap, Repair, children, seen_key};
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
    let mut check = SetCheck {
        cx: Context::new(goal.into(), table, oracle, repair, report, stop),
        unsafe_: HashMap::new(),
    };
    loop {
        match check.build(root) {
            Ok(()) => return Ok(check.cx.tally.checked),
            Err(None) => return Err(CheckError::Stopped),
            Err(Some((gap, found))) => {
                if found.is_empty() || check.cx.tally.checked.retries >= MAX_REBUILDS {
                    return check.cx.conclude(Err(gap.into()));
                }
                check
                    .unsafe_
                    .extend(found.into_iter().map(|seen| (seen, gap)));
                check.cx.tally.retried();
            }
        }
    }
}

/// A member of the set as it is built: the member that first led to it, and who moves.
/// The check keeps one per position of the set, so it is kept small: 24 bytes, where a
/// `u128` key and an `Option<usize>` parent took 48 with their alignment (the Kalah 6 x 6
/// "+12" check held 340 M of them).
struct Member {
    seen: [u64; 2],
    /// The index of the member that first led here, [`NO_PARENT`] at the root.
    parent: u32,
    attacker_to_move: bool,
}

/// The root's [`Member::parent`].
const NO_PARENT: u32 = u32::MAX;

impl Member {
    fn seen(&self) -> u128 {
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
struct Members {
    list: Vec<Member>,
    index: HashTable<u32>,
}

/// A [`seen_key`]'s place in the index: its lower half is already a hash of the whole
/// position (SipHash), so it is used as it is.
fn bucket(seen: u128) -> u64 {
    seen as u64
}

impl Members {
    fn len(&self) -> usize {
        self.list.len()
    }

    fn contains(&self, seen: u128) -> bool {
        let list = &self.list;
        self.index
            .find(bucket(seen), |&i| list[i as usize].seen() == seen)
            .is_some()
    }

    /// Adds `seen` with its parent and side to move; returns its place in the list, or
    /// `None` when it is a member already.
    fn insert(&mut self, seen: u128, parent: u32, attacker_to_move: bool) -> Option<u32> {
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
            attacker_to_move,
        });
        Some(at)
    }
}

/// The check's context and the positions it has found unsafe (with why).
struct SetCheck<'a, 't, 'r, G: Game> {
    cx: Context<'a, 't, 'r, G>,
    unsafe_: HashMap<u128, Gap>,
}

/// Why a build ended without a set: a failure (why, and the positions it shows unsafe),
/// or `None` when the stop flag ended it.
type Failure = Option<(Gap, Vec<u128>)>;

impl<G: Game> SetCheck<'_, '_, '_, G> {
    /// Builds S from `root`, avoiding the positions known unsafe.
    fn build(&mut self, root: &G) -> Result<(), Failure> {
        let (goal, attacker) = (self.cx.goal, self.cx.goal.attacker);
        let mut safe = Members::default();
        let mut todo: Vec<(G, u32)> = vec![(*root, NO_PARENT)];
        while let Some((g, parent)) = todo.pop() {
            if self.cx.stopped() {
                return Err(None);
            }
            let key = proof_key(&g);
            let seen = seen_key(&g);
            if let Some(&gap) = self.unsafe_.get(&seen) {
                // Reached from an attacker's position (escapes avoid unsafe ones): that
                // position is unsafe too.
                return Err(Some((gap, forced_above(&safe.list, parent))));
            }
            let Some(at) = safe.insert(seen, parent, g.to_move() == attacker) else {
                continue;
            };
            self.cx.tally.looked_at(safe.len());
            let fail = |gap| Err(Some((gap, forced_above(&safe.list, at))));
            // Play may cycle inside the set: a repetition must fall short of the goal
            // wherever it happens (in a win/draw/loss game: be a draw).
            if g.can_repeat() && goal.reached_by(g.to_move(), g.repetition_value()) {
                return fail(Gap::RepetitionNotDraw(key));
            }
            match self.cx.verdict(&g) {
                Some(true) => return fail(Gap::AttackerWins(key)),
                Some(false) => continue,
                None => {}
            }
            let next = children(&g);
            if g.to_move() == attacker {
                for c in next {
                    if !safe.contains(seen_key(&c)) {
                        todo.push((c, at));
                    }
                }
                continue;
            }
            let ends_safely = |c: &G| self.cx.verdict(c) == Some(false);
            if next
                .iter()
                .any(|c| ends_safely(c) || safe.contains(seen_key(c)))
            {
                continue;
            }
            match self.escape(&next) {
                Some(c) => todo.push((c, at)),
                None => return fail(Gap::NoEscape(key)),
            }
        }
        Ok(())
    }

    /// A defender's move to a position the tables (or a repair) say is disproven and
    /// that is not known unsafe.
    fn escape(&mut self, next: &[G]) -> Option<G> {
        // A final position the attacker wins is never an escape, whatever a table says.
        let usable = |c: &G, check: &Self| {
            check.cx.verdict(c) != Some(true) && !check.unsafe_.contains_key(&seen_key(c))
        };
        let disproven = |c: &G, check: &Self| check.cx.settled(c, false);
        if let Some(c) = next.iter().find(|c| usable(c, self) && disproven(c, self)) {
            return Some(*c);
        }
        let mut order = next.to_vec();
        order.retain(|c| usable(c, self));
        self.cx.repair_order(&mut order, false);
        order.into_iter().find(|c| {
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
        assert_eq!(set.insert(a, NO_PARENT, false), Some(0));
        assert_eq!(set.insert(b, 0, true), Some(1));
        assert_eq!(set.insert(c, 1, true), Some(2));
        assert_eq!(set.insert(b, 2, false), None, "a member joins once");
        assert_eq!(set.len(), 3);
        assert!(set.contains(a) && set.contains(b) && set.contains(c));
        assert!(!set.contains(4u128 << 64 | 7));
        // c and b are the attacker's; a, the defender's, ends the chain.
        assert_eq!(forced_above(&set.list, 2), vec![c, b]);
        assert_eq!(forced_above(&set.list, NO_PARENT), Vec::<u128>::new());
    }
}
