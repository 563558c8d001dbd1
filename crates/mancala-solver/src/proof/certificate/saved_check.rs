//! A disproof check written to a file between two stretches and read back in another
//! process: the set built so far (its members in the order they joined, each with the
//! member and move that led to it), the positions still waiting to join (as that member
//! and move, played again from the root on reading), the positions found unsafe, the
//! tally, and the repairs' table. Written atomically with a checksum over every word, as
//! the search's checkpoint is ([`crate::checkpoint`]).

use std::collections::HashMap;
use std::fs::File;
use std::io::BufReader;
use std::path::Path;
use std::sync::atomic::AtomicBool;

use mancala_core::Game;

use super::safe_set::{CLOCK_EVERY, DisproofCheck, Member, Members, NO_PARENT, Pending, SetCheck};
use super::{Checked, Context, Gap, Repair, children, seen_key};
use crate::checkpoint::{Words, cut_short, write_atomically};
use crate::proof::checkpoint::ProofCheckpointError;
use crate::proof::{Goal, ProofTable};
use crate::retro::Oracle;

const MAGIC: &[u8; 8] = b"MNCLCHCK";
const VERSION: u64 = 1;

/// A disproof check read from a file: its state, and the repairs' table it had.
pub struct SavedCheck<G> {
    pub state: CheckState<G>,
    /// The repairs' table as it was saved (`None`: the check ran without repairs).
    pub repair_table: Option<ProofTable>,
}

/// The state of a saved check, for [`DisproofCheck::resume`].
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

    /// Goes on with a check read by [`load_check`] (the other arguments as for
    /// [`DisproofCheck::new`]; `repair` normally over the file's own repairs' table).
    pub fn resume(
        state: CheckState<G>,
        goal: impl Into<Goal>,
        table: &'a ProofTable,
        oracle: Option<&'a dyn Oracle<G>>,
        repair: Option<Repair<'t>>,
        report: &'r mut dyn FnMut(&Checked),
        stop: Option<&'static AtomicBool>,
    ) -> Self {
        let mut cx = Context::new(goal.into(), table, oracle, repair, report, stop);
        cx.tally.checked = state.checked;
        DisproofCheck {
            check: SetCheck {
                cx,
                unsafe_: state.unsafe_,
            },
            root: state.root,
            safe: Members::from_list(state.members),
            todo: state.todo,
            clock_every: CLOCK_EVERY,
        }
    }
}

/// Reads the check saved at `path` for the question `label` from `root`.
pub fn load_check<G: Game>(
    path: &Path,
    label: &str,
    root: &G,
) -> Result<SavedCheck<G>, ProofCheckpointError> {
    let io = |source| match cut_short(source) {
        Ok(()) => ProofCheckpointError::Truncated {
            path: path.to_path_buf(),
        },
        Err(source) => ProofCheckpointError::Io {
            path: path.to_path_buf(),
            source,
        },
    };
    let not_ours = || ProofCheckpointError::NotACheck {
        path: path.to_path_buf(),
    };
    let file = File::open(path).map_err(io)?;
    let mut r = Words::new(BufReader::with_capacity(1 << 20, file));
    let mut magic = [0u8; 8];
    r.get_bytes(&mut magic).map_err(|_| not_ours())?;
    if &magic != MAGIC || r.get().map_err(io)? != VERSION {
        return Err(not_ours());
    }
    let found = r.get_text().map_err(|_| not_ours())?;
    if found != label {
        return Err(ProofCheckpointError::OtherQuestion {
            path: path.to_path_buf(),
            found,
            wanted: label.to_string(),
        });
    }
    let (repairs, repair_nodes, retries) = (
        r.get().map_err(io)?,
        r.get().map_err(io)?,
        r.get().map_err(io)?,
    );
    // Counts are checked against what they can be before anything is reserved, so a
    // damaged count is an error, not an allocation failure.
    let count = |r: &mut Words<_>, most: u64| -> Result<usize, ProofCheckpointError> {
        let n = r.get().map_err(io)?;
        if n > most {
            return Err(not_ours());
        }
        Ok(n as usize)
    };
    let n = count(&mut r, u64::from(u32::MAX))?;
    let mut members = Vec::with_capacity(n);
    for i in 0..n {
        let (hi, lo, rest) = (
            r.get().map_err(io)?,
            r.get().map_err(io)?,
            r.get().map_err(io)?,
        );
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
        let word = r.get().map_err(io)?;
        waiting.push((word as u32, (word >> 32) as u8));
    }
    let n = count(&mut r, 1 << 32)?;
    let mut unsafe_ = HashMap::with_capacity(n);
    for _ in 0..n {
        let (hi, lo) = (r.get().map_err(io)?, r.get().map_err(io)?);
        let (kind, key) = (r.get().map_err(io)?, r.get().map_err(io)?);
        let gap = Gap::from_code(kind, key).ok_or_else(not_ours)?;
        unsafe_.insert(u128::from(hi) << 64 | u128::from(lo), gap);
    }
    let has_repairs = r.get().map_err(io)? == 1;
    let len = r.get().map_err(io)?;
    let repair_table = if has_repairs {
        let mut table = ProofTable::with_words(len)
            .ok_or_else(not_ours)?
            .map_err(|source| ProofCheckpointError::Table {
                path: path.to_path_buf(),
                source,
            })?;
        for x in table.words_mut() {
            *x = r.get().map_err(io)?;
        }
        Some(table)
    } else {
        None
    };
    let expected = r.sum;
    let found = r.get().map_err(io)?;
    if found != expected {
        return Err(ProofCheckpointError::Damaged {
            path: path.to_path_buf(),
            found,
            expected,
        });
    }
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
