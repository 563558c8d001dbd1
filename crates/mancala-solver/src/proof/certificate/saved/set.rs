//! A disproof check in a file: the set built so far (its members in the order they
//! joined, each with the member and move that led to it), the positions still waiting to
//! join (as that member and move, played again from the root on reading), besides what
//! [`super`] keeps for both kinds.

use std::collections::HashMap;
use std::path::Path;

use mancala_core::Game;

use super::{In, SavedCheck, another_position, put_gaps, write_check};

use crate::proof::certificate::safe_set::{DisproofCheck, Member, Members, NO_PARENT, Pending};
use crate::proof::certificate::{Checked, Gap, children, seen_key};
use crate::proof::checkpoint::ProofCheckpointError;

const MAGIC: &[u8; 8] = b"MNCLCHCK";

/// The state of a saved disproof check, for [`DisproofCheck::resumed`].
pub struct DisproofState<G> {
    root: G,
    members: Vec<Member>,
    todo: Vec<Pending<G>>,
    unsafe_: HashMap<u128, Gap>,
    checked: Checked,
}

impl<'a, 't, 'r, G: Game> DisproofCheck<'a, 't, 'r, G> {
    /// Writes the check's state to `path` for the question `label`.
    pub(in crate::proof::certificate) fn save_to(
        &self,
        path: &Path,
        label: &str,
    ) -> Result<(), ProofCheckpointError> {
        let repair = self.check.cx.tables.repair.as_ref();
        write_check(path, MAGIC, label, self.checked(), repair, |w| {
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
        self
    }
}

/// Reads the disproof check saved at `path` for the question `label` from `root`.
pub fn load_disproof_check<G: Game>(
    path: &Path,
    label: &str,
    root: &G,
) -> Result<SavedCheck<DisproofState<G>>, ProofCheckpointError> {
    let (mut f, mut checked) = In::open(path, MAGIC, label)?;
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
    let unsafe_ = f.gaps()?;
    let repair_table = f.repairs_and_end()?;
    let another = || another_position(path);
    let mut todo = Vec::with_capacity(waiting.len());
    for (parent, via) in waiting {
        let g = if parent == NO_PARENT {
            *root
        } else {
            let at = members.get(parent as usize).ok_or_else(another)?;
            let from = replay(root, &members, at).ok_or_else(another)?;
            *children(&from).get(usize::from(via)).ok_or_else(another)?
        };
        todo.push(Pending { g, parent, via });
    }
    checked.positions = members.len();
    Ok(SavedCheck {
        state: DisproofState {
            root: *root,
            members,
            todo,
            unsafe_,
            checked,
        },
        checked,
        repair_table,
    })
}

/// The position of `member`: the moves that led to it played from `root` (`None` when a
/// move is not there or leads elsewhere: a check of another position).
fn replay<G: Game>(root: &G, members: &[Member], member: &Member) -> Option<G> {
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
