//! A proof check in a file: the positions whose strategy is checked, and the line being
//! checked, each position on it with the moves below it still to check and the attacker's
//! moves in the order they are tried (as places among its moves, played again from the
//! root on reading), besides what [`super`] keeps for both kinds.

use std::collections::HashSet;
use std::path::Path;

use arrayvec::ArrayVec;
use mancala_core::Game;
use mancala_core::game::MAX_MOVES;

use super::{In, Layout, SavedCheck, another_position, put_gaps, put_key, write_check};

use crate::proof::certificate::strategy::{Choice, Frame, ProofCheck};
use crate::proof::certificate::{Checked, Gap, children, seen_key};
use crate::proof::checkpoint::ProofCheckpointError;

/// A proof check's file; version 2 has the repairs' table of 8-byte entries.
const LAYOUT: Layout = Layout {
    magic: b"MNCLSTRT",
    version: 2,
    oldest: 1,
    compact_since: 2,
};

/// The state of a saved proof check, for [`ProofCheck::resumed`].
pub struct ProofState<G> {
    root: G,
    done: HashSet<u128>,
    failed: std::collections::HashMap<u128, Gap>,
    stack: Vec<Frame<G>>,
    checked: Checked,
}

/// A frame's flags and small fields in one word.
fn frame_word<G>(f: &Frame<G>) -> u64 {
    u64::from(f.via)
        | u64::from(f.line_bound) << 8
        | u64::from(f.choosing) << 9
        | u64::from(f.chosen.is_some()) << 10
        | u64::from(f.choice.is_some()) << 11
        | u64::from(f.chosen.unwrap_or(0)) << 16
}

impl<'a, 't, 'r, G: Game> ProofCheck<'a, 't, 'r, G> {
    /// Writes the check's state to `path` for the question `label`.
    pub(in crate::proof::certificate) fn save_to(
        &self,
        path: &Path,
        label: &str,
    ) -> Result<(), ProofCheckpointError> {
        let repair = self.cx.tables.repair.as_ref();
        write_check(path, &LAYOUT, label, self.checked(), repair, |w| {
            w.put(self.done.len() as u64)?;
            for &seen in &self.done {
                put_key(w, seen)?;
            }
            put_gaps(w, &self.failed)?;
            w.put(self.stack.len() as u64)?;
            for f in &self.stack {
                put_key(w, f.seen)?;
                w.put(frame_word(f))?;
                w.put(f.below.len() as u64)?;
                for &i in &f.below {
                    w.put(u64::from(i))?;
                }
                if let Some(c) = &f.choice {
                    w.put(c.settled as u64)?;
                    w.put(c.next as u64)?;
                    w.put(c.order.len() as u64)?;
                    for &i in &c.order {
                        w.put(u64::from(i))?;
                    }
                }
            }
            Ok(())
        })
    }

    /// This check (made by [`ProofCheck::new`] for the same question, its `repair`
    /// normally over the file's own repairs' table) going on from a check read by
    /// [`load_proof_check`].
    pub(in crate::proof::certificate) fn resume_from(mut self, state: ProofState<G>) -> Self {
        self.cx.tally.checked = state.checked;
        self.root = state.root;
        self.done = state.done;
        self.failed = state.failed;
        self.on_line = state.stack.iter().map(|f| f.seen).collect();
        self.stack = state.stack;
        self
    }
}

/// Reads the proof check saved at `path` for the question `label` from `root`.
pub fn load_proof_check<G: Game>(
    path: &Path,
    label: &str,
    root: &G,
) -> Result<SavedCheck<ProofState<G>>, ProofCheckpointError> {
    let (mut f, mut checked) = In::open(path, &LAYOUT, label)?;
    let n = f.count(1 << 36)?;
    let mut done = HashSet::with_capacity(n);
    for _ in 0..n {
        done.insert(f.key()?);
    }
    let failed = f.gaps()?;
    let depth = f.count(1 << 24)?;
    let another = || another_position(path);
    let mut stack: Vec<Frame<G>> = Vec::with_capacity(depth);
    let mut at = *root;
    for k in 0..depth {
        let seen = f.key()?;
        let word = f.get()?;
        let via = word as u8;
        if k > 0 {
            let above = &stack[k - 1];
            at = *above.kids.get(usize::from(via)).ok_or_else(another)?;
        }
        if seen_key(&at) != seen {
            return Err(another());
        }
        let kids = children(&at);
        let place = |i: u64| -> Result<u8, ProofCheckpointError> {
            if (i as usize) < kids.len() {
                Ok(i as u8)
            } else {
                Err(another())
            }
        };
        let n = f.count(MAX_MOVES as u64)?;
        let mut below = Vec::with_capacity(n);
        for _ in 0..n {
            below.push(place(f.get()?)?);
        }
        let choice = if word >> 11 & 1 == 1 {
            let (settled, next) = (f.get()? as usize, f.get()? as usize);
            let n = f.count(MAX_MOVES as u64)?;
            let mut order = ArrayVec::<u8, MAX_MOVES>::new();
            for _ in 0..n {
                order.push(place(f.get()?)?);
            }
            if settled > order.len() || next > order.len() {
                return Err(f.damaged());
            }
            Some(Choice {
                order,
                settled,
                next,
            })
        } else {
            None
        };
        let chosen = if word >> 10 & 1 == 1 {
            Some(place(word >> 16 & 0xFF)?)
        } else {
            None
        };
        stack.push(Frame {
            seen,
            kids,
            via,
            below,
            choice,
            chosen,
            line_bound: word >> 8 & 1 == 1,
            choosing: word >> 9 & 1 == 1,
        });
    }
    let repair_table = f.repairs_and_end()?;
    checked.positions = done.len();
    checked.held = done.len();
    Ok(SavedCheck {
        state: ProofState {
            root: *root,
            done,
            failed,
            stack,
            checked,
        },
        checked,
        repair_table,
    })
}
