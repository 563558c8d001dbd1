//! A disproof check written to a file between two stretches and read back in another
//! process: the set built so far (its members in the order they joined, each with the
//! member and move that led to it), the positions still waiting to join (as that member
//! and move, played again from the root on reading), the positions found unsafe, the
//! tally, and the repairs' table. Written atomically with a checksum over every word, as
//! the search's checkpoint is ([`crate::checkpoint`]).

use std::collections::HashMap;
use std::path::Path;

use mancala_core::Game;

use super::safe_set::{DisproofCheck, Member, Members, NO_PARENT, Pending};
use super::{Checked, Gap, children, seen_key};
use crate::checkpoint::write_atomically;
use crate::proof::ProofTable;
use crate::proof::checkpoint::{ProofCheckpointError, Reader};

const MAGIC: &[u8; 8] = b"MNCLCHCK";
const VERSION: u64 = 1;

/// A disproof check read from a file: its state, and the repairs' table it had.
pub struct SavedCheck<G> {
    pub state: CheckState<G>,
    /// The repairs' table as it was saved (`None`: the check ran without repairs).
    pub repair_table: Option<ProofTable>,
}

/// The state of a saved check, for [`DisproofCheck::resumed`].
pub struct CheckState<G> {
    root: G,
    members: Vec<Member>,
    todo: Vec<Pending<G>>,
    unsafe_: HashMap<u128, Gap>,
    checked: Checked,
}

impl<G> CheckState<G> {
    /// What the check had looked at when it was saved.
    pub fn checked(&self) -> Checked {
        self.checked
    }
}

impl<'a, 't, 'r, G: Game> DisproofCheck<'a, 't, 'r, G> {
    /// Writes the check's state to `path` for the question `label`.
    pub fn save(&self, path: &Path, label: &str) -> Result<(), ProofCheckpointError> {
        let checked = self.checked();
        write_atomically(path, |w| {
            w.put_bytes(MAGIC)?;
            w.put(VERSION)?;
            w.put_text(label)?;
            w.put(checked.repairs)?;
            w.put(checked.repair_nodes)?;
            w.put(checked.retries)?;
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
            w.put(self.check.unsafe_.len() as u64)?;
            for (&seen, gap) in &self.check.unsafe_ {
                let (kind, key) = gap.code();
                for word in [(seen >> 64) as u64, seen as u64, kind, key] {
                    w.put(word)?;
                }
            }
            let repair = self.check.cx.tables.repair.as_ref();
            let words = repair.map_or(&[][..], |r| r.table.words());
            w.put(repair.is_some() as u64)?;
            w.put(words.len() as u64)?;
            for &x in words {
                w.put(x)?;
            }
            Ok(())
        })
        .map_err(|(path, source)| ProofCheckpointError::Io { path, source })
    }

    /// This check (made by [`DisproofCheck::new`] for the same question, its `repair`
    /// normally over the file's own repairs' table) going on from a check read by
    /// [`load_check`].
    pub fn resumed(mut self, state: CheckState<G>) -> Self {
        self.check.cx.tally.checked = state.checked;
        self.check.unsafe_ = state.unsafe_;
        self.root = state.root;
        self.safe = Members::from_list(state.members);
        self.todo = state.todo;
        self
    }
}

/// Reads the check saved at `path` for the question `label` from `root`.
pub fn load_check<G: Game>(
    path: &Path,
    label: &str,
    root: &G,
) -> Result<SavedCheck<G>, ProofCheckpointError> {
    let not_ours = || ProofCheckpointError::NotACheck {
        path: path.to_path_buf(),
    };
    let (mut r, _) = Reader::open(path, MAGIC, VERSION..=VERSION, label, not_ours)?;
    let (repairs, repair_nodes, retries) = (r.get()?, r.get()?, r.get()?);
    // Counts are checked against what they can be before anything is reserved, so a
    // damaged count is an error, not an allocation failure.
    let count = |r: &mut Reader, most: u64| -> Result<usize, ProofCheckpointError> {
        let n = r.get()?;
        if n > most {
            return Err(not_ours());
        }
        Ok(n as usize)
    };
    let n = count(&mut r, u64::from(u32::MAX))?;
    let mut members = Vec::with_capacity(n);
    for i in 0..n {
        let (hi, lo, rest) = (r.get()?, r.get()?, r.get()?);
        let parent = rest as u32;
        // A member joins after the member that led to it.
        if (parent == NO_PARENT) != (i == 0) || (parent != NO_PARENT && parent as usize >= i) {
            return Err(not_ours());
        }
        members.push(Member {
            seen: [hi, lo],
            parent,
            via: (rest >> 32) as u8,
            attacker_to_move: rest >> 40 & 1 == 1,
        });
    }
    let n = count(&mut r, 1 << 32)?;
    let mut waiting = Vec::with_capacity(n);
    for _ in 0..n {
        let word = r.get()?;
        waiting.push((word as u32, (word >> 32) as u8));
    }
    let n = count(&mut r, 1 << 32)?;
    let mut unsafe_ = HashMap::with_capacity(n);
    for _ in 0..n {
        let (hi, lo) = (r.get()?, r.get()?);
        let (kind, key) = (r.get()?, r.get()?);
        let gap = Gap::from_code(kind, key).ok_or_else(not_ours)?;
        unsafe_.insert(u128::from(hi) << 64 | u128::from(lo), gap);
    }
    let has_repairs = r.get()? == 1;
    let len = r.get()?;
    let repair_table = if has_repairs {
        let mut table = ProofTable::with_words(len)
            .ok_or_else(not_ours)?
            .map_err(|source| ProofCheckpointError::Table {
                path: path.to_path_buf(),
                source,
            })?;
        for x in table.words_mut() {
            *x = r.get()?;
        }
        Some(table)
    } else {
        None
    };
    r.finish()?;
    let another = || ProofCheckpointError::CheckOfAnotherPosition {
        path: path.to_path_buf(),
    };
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
    let checked = Checked {
        positions: members.len(),
        repairs,
        repair_nodes,
        retries,
    };
    Ok(SavedCheck {
        state: CheckState {
            root: *root,
            members,
            todo,
            unsafe_,
            checked,
        },
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
