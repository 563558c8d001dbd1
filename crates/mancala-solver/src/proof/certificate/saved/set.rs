//! A disproof check in a file: the set built so far (its members in the order they
//! joined, each with the member and move that led to it), the positions still waiting to
//! join (as that member and move, played again from the root on reading), besides what
//! [`super`] keeps for both kinds.

use std::collections::HashMap;
use std::path::Path;

use mancala_core::Game;

use super::{In, Layout, SavedCheck, another_position, put_gaps, write_check};

use crate::proof::certificate::safe_set::{
    DisproofCheck, Member, Members, NO_PARENT, Pending, Split, replay,
};
use crate::proof::certificate::{Checked, Gap, children};
use crate::proof::checkpoint::ProofCheckpointError;

/// A disproof check's file; version 2 added the parts of a split set ([`Split`]),
/// version 3 the number of parts, version 4 the repairs' table of 8-byte entries. All
/// four are read: a file of version 1 holds a set built whole.
const LAYOUT: Layout = Layout {
    magic: b"MNCLCHCK",
    version: 4,
    oldest: 1,
    compact_since: 4,
};

/// The state of a saved disproof check, for [`DisproofCheck::resumed`].
pub struct DisproofState<G> {
    root: G,
    members: Vec<Member>,
    todo: Vec<Pending<G>>,
    split: Split,
    unsafe_: HashMap<u128, Gap>,
    checked: Checked,
}

/// [`Split::horizon`] and [`Split::top`] in a file: `None` is this word.
const NONE: u64 = u64::MAX;

impl<'a, 't, 'r, G: Game> DisproofCheck<'a, 't, 'r, G> {
    /// Writes the check's state to `path` for the question `label`.
    pub(in crate::proof::certificate) fn save_to(
        &self,
        path: &Path,
        label: &str,
    ) -> Result<(), ProofCheckpointError> {
        let repair = self.check.cx.tables.repair.as_ref();
        write_check(path, &LAYOUT, label, self.checked(), repair, |w| {
            w.put(self.safe.list.len() as u64)?;
            for m in &self.safe.list {
                w.put(m.seen[0])?;
                w.put(m.seen[1])?;
                w.put(
                    u64::from(m.parent)
                        | u64::from(m.via) << 32
                        | u64::from(m.attacker_to_move) << 40,
                )?;
            }
            w.put(self.todo.len() as u64)?;
            for p in &self.todo {
                w.put(u64::from(p.parent) | u64::from(p.via) << 32)?;
            }
            let split = &self.split;
            w.put(split.horizon.map_or(NONE, u64::from))?;
            w.put(split.top.map_or(NONE, u64::from))?;
            w.put(split.released as u64)?;
            w.put(split.found as u64)?;
            w.put(split.parts.len() as u64)?;
            for &at in &split.parts {
                w.put(u64::from(at))?;
            }
            w.put(self.checked().held as u64)?;
            put_gaps(w, &self.check.unsafe_)?;
            Ok(())
        })
    }

    /// This check (made by [`DisproofCheck::new`] for the same question, its `repair`
    /// normally over the file's own repairs' table) going on from a check read by
    /// [`load_disproof_check`].
    pub(in crate::proof::certificate) fn resume_from(mut self, state: DisproofState<G>) -> Self {
        self.check.cx.tally.checked = state.checked;
        self.check.unsafe_ = state.unsafe_;
        self.root = state.root;
        self.safe = Members::from_list(state.members);
        self.todo = state.todo;
        self.split = state.split;
        self
    }
}

/// Reads the disproof check saved at `path` for the question `label` from `root`.
pub fn load_disproof_check<G: Game>(
    path: &Path,
    label: &str,
    root: &G,
) -> Result<SavedCheck<DisproofState<G>>, ProofCheckpointError> {
    let (mut f, mut checked) = In::open(path, &LAYOUT, label)?;
    let n = f.count(u64::from(u32::MAX))?;
    let mut members = Vec::with_capacity(n);
    for i in 0..n {
        let (hi, lo, rest) = (f.get()?, f.get()?, f.get()?);
        let parent = rest as u32;
        // A member joins after the member that led to it.
        if (parent == NO_PARENT) != (i == 0) || (parent != NO_PARENT && parent as usize >= i) {
            return Err(f.damaged());
        }
        members.push(Member {
            seen: [hi, lo],
            parent,
            via: (rest >> 32) as u8,
            attacker_to_move: rest >> 40 & 1 == 1,
        });
    }
    let n = f.count(1 << 32)?;
    let mut waiting = Vec::with_capacity(n);
    for _ in 0..n {
        let word = f.get()?;
        waiting.push((word as u32, (word >> 32) as u8));
    }
    // A part being built (positions waiting, its member no longer among the parts still
    // to build) is not whole.
    let building = usize::from(!waiting.is_empty());
    let (split, held) = match f.version {
        1 => (Split::default(), members.len()),
        _ => {
            let split = read_split(&mut f, members.len(), building)?;
            (split, f.get()? as usize)
        }
    };
    checked.held = held;
    if split.top.is_some() {
        checked.parts = split.found;
        checked.parts_done = split.found.saturating_sub(split.parts.len() + building);
    }
    let unsafe_ = f.gaps()?;
    let repair_table = f.repairs_and_end()?;
    let another = || another_position(path);
    let mut todo = Vec::with_capacity(waiting.len());
    for (parent, via) in waiting {
        let (g, depth) = if parent == NO_PARENT {
            (*root, 0)
        } else {
            let at = members.get(parent as usize).ok_or_else(another)?;
            let from = replay(root, &members, at).ok_or_else(another)?;
            let g = *children(&from).get(usize::from(via)).ok_or_else(another)?;
            (g, depth(&members, parent) + 1)
        };
        todo.push(Pending {
            g,
            parent,
            via,
            depth,
        });
    }
    for &at in &split.parts {
        replay(root, &members, &members[at as usize]).ok_or_else(another)?;
    }
    checked.positions = split.released + members.len();
    Ok(SavedCheck {
        state: DisproofState {
            root: *root,
            members,
            todo,
            split,
            unsafe_,
            checked,
        },
        checked,
        repair_table,
    })
}

/// A split set's state ([`Split`]), its parts' places checked against the `members`.
fn read_split(f: &mut In, members: usize, building: usize) -> Result<Split, ProofCheckpointError> {
    let horizon = f.get()?;
    let top = f.get()?;
    let released = f.get()?;
    // Version 2 did not keep the number of parts: those left and the one being built.
    let found = match f.version {
        2 => None,
        _ => Some(f.get()?),
    };
    let n = f.count(members as u64)?;
    let found = found.unwrap_or((n + building) as u64);
    let mut parts = Vec::with_capacity(n);
    for _ in 0..n {
        parts.push(f.get()?);
    }
    // A part is a member of the top (of the set so far while the top is built).
    let fits = |word: u64| word < if top == NONE { members as u64 } else { top };
    let is_ply = |word: u64| word == NONE || word <= u64::from(u32::MAX);
    if !is_ply(horizon)
        || !(top == NONE || top <= members as u64)
        || !parts.iter().all(|&p| fits(p))
        || (top != NONE && found < n as u64)
    {
        return Err(f.damaged());
    }
    Ok(Split {
        horizon: (horizon != NONE).then_some(horizon as u32),
        top: (top != NONE).then_some(top as u32),
        released: released as usize,
        found: found as usize,
        parts: parts.into_iter().map(|p| p as u32).collect(),
    })
}

/// Plies from the root to the member at `at`.
fn depth(members: &[Member], at: u32) -> u32 {
    let mut plies = 0;
    let mut cur = at;
    while cur != NO_PARENT {
        plies += 1;
        cur = members[cur as usize].parent;
    }
    plies - 1
}
