//! Checks written to a file between two stretches and read back in another process, so
//! that a check of hundreds of millions of positions survives the end of a session: what
//! both kinds keep (the question, the tally, positions found not won or unsafe, the
//! repairs' table), in [`set`] what a disproof check adds and in [`strategy`] what a proof
//! check adds. Written atomically with a checksum over every word, as the search's
//! checkpoint is ([`crate::checkpoint`]).

use std::collections::HashMap;
use std::fs::File;
use std::io::BufWriter;
use std::path::Path;
use std::time::Instant;

use mancala_core::Game;

use super::{CheckError, CheckInputs, Checked, Gap, Repair, Step};
use crate::checkpoint::{Words, write_atomically};
use crate::proof::ProofTable;
use crate::proof::SavedEntries;
use crate::proof::checkpoint::{ProofCheckpointError, Reader, read_table};

pub mod set;
pub mod strategy;

/// A kind of file: its magic word and the version of its layout.
pub(super) struct Layout {
    magic: &'static [u8; 8],
    /// The version written.
    version: u64,
    /// The oldest version read.
    oldest: u64,
    /// The first version whose repairs' table has this build's entries
    /// ([`SavedEntries::Compact`]); older ones hold the wide entries.
    compact_since: u64,
}

/// A check read from a file: its state (for [`StretchedCheck::resumed`]), what it had
/// looked at, and the repairs' table it had.
pub struct SavedCheck<S> {
    pub state: S,
    pub checked: Checked,
    /// The repairs' table as it was saved (`None`: the check ran without repairs).
    pub repair_table: Option<ProofTable>,
}

/// Either kind of check as a caller runs it: in stretches, saved between them and
/// resumed in another process ([`super::DisproofCheck`], [`super::ProofCheck`]).
pub trait StretchedCheck<'a, 't, 'r, G: Game>: Sized {
    /// What a check that holds gives.
    type Found;
    /// What a saved check holds besides its tally and repairs' table.
    type State;
    /// A check of the question of `inputs` from `root`, from its start.
    fn new(root: &G, inputs: CheckInputs<'a, 't, 'r, G>) -> Self;
    /// This new check going on from a saved one ([`StretchedCheck::load`]).
    fn resumed(self, state: Self::State) -> Self;
    /// Reads the check saved at `path` for the question `label` from `root`.
    fn load(
        path: &Path,
        label: &str,
        root: &G,
    ) -> Result<SavedCheck<Self::State>, ProofCheckpointError>;
    /// Runs until the check ends, the stop flag is raised, or `pause` has passed.
    fn run(&mut self, pause: Option<Instant>) -> Step<Self::Found>;
    /// Writes the check to `path` for the question `label`.
    fn save(&self, path: &Path, label: &str) -> Result<(), ProofCheckpointError>;
}

/// Runs a check to its end at once.
pub(super) fn to_the_end<'a, 't, 'r, G: Game, C: StretchedCheck<'a, 't, 'r, G>>(
    mut check: C,
) -> Result<C::Found, CheckError> {
    match check.run(None) {
        Step::Done(found) => found,
        Step::Paused => unreachable!("a check without a pause runs to its end"),
    }
}

type Out = Words<BufWriter<File>>;

/// Writes a check of kind `layout` for the question `label` to `path`: the header, what
/// `body` writes, and the repairs' table.
fn write_check(
    path: &Path,
    layout: &Layout,
    label: &str,
    checked: Checked,
    repair: Option<&Repair>,
    body: impl FnOnce(&mut Out) -> std::io::Result<()>,
) -> Result<(), ProofCheckpointError> {
    write_atomically(path, |w| {
        put_header(w, layout, label, checked)?;
        body(w)?;
        put_repairs(w, repair)
    })
    .map_err(|(path, source)| ProofCheckpointError::Io { path, source })
}

/// The header: the magic word, the layout's version, the question and the tally's
/// counters.
fn put_header(w: &mut Out, layout: &Layout, label: &str, checked: Checked) -> std::io::Result<()> {
    w.put_bytes(layout.magic)?;
    w.put(layout.version)?;
    w.put_text(label)?;
    w.put(checked.repairs)?;
    w.put(checked.repair_nodes)?;
    w.put(checked.retries)
}

/// Positions with a gap: their keys and why.
fn put_gaps(w: &mut Out, gaps: &HashMap<u128, Gap>) -> std::io::Result<()> {
    w.put(gaps.len() as u64)?;
    for (&seen, gap) in gaps {
        let (kind, key) = gap.code();
        for word in [(seen >> 64) as u64, seen as u64, kind, key] {
            w.put(word)?;
        }
    }
    Ok(())
}

/// The repairs' table, if the check has one.
fn put_repairs(w: &mut Out, repair: Option<&Repair>) -> std::io::Result<()> {
    let words = repair.map_or(&[][..], |r| r.table.words());
    w.put(repair.is_some() as u64)?;
    w.put(repair.map_or(0, |r| u64::from(r.table.low_bits())))?;
    w.put(words.len() as u64)?;
    for &x in words {
        w.put(x)?;
    }
    Ok(())
}

fn put_key(w: &mut Out, seen: u128) -> std::io::Result<()> {
    w.put((seen >> 64) as u64)?;
    w.put(seen as u64)
}

/// A check saved from another root: a move is not there, or leads elsewhere.
fn another_position(path: &Path) -> ProofCheckpointError {
    ProofCheckpointError::CheckOfAnotherPosition {
        path: path.to_path_buf(),
    }
}

/// A file being read, with what a damaged one is told as.
struct In<'p> {
    r: Reader<'p>,
    path: &'p Path,
    not_ours: fn(&Path) -> ProofCheckpointError,
    /// The version of the file's layout.
    version: u64,
    /// Whether its repairs' table has this build's entries ([`SavedEntries::Compact`]).
    compact: bool,
}

impl<'p> In<'p> {
    /// Opens `path`, a file of `layout` for the question `label`; returns it with the
    /// tally's counters (the positions are the caller's to count).
    fn open(
        path: &'p Path,
        layout: &Layout,
        label: &str,
    ) -> Result<(Self, Checked), ProofCheckpointError> {
        let not_ours = |path: &Path| ProofCheckpointError::NotACheck {
            path: path.to_path_buf(),
        };
        let (r, version) = Reader::open(
            path,
            layout.magic,
            layout.oldest..=layout.version,
            label,
            || not_ours(path),
        )?;
        let mut f = In {
            r,
            path,
            not_ours,
            version,
            compact: version >= layout.compact_since,
        };
        let checked = Checked {
            repairs: f.get()?,
            repair_nodes: f.get()?,
            retries: f.get()?,
            ..Checked::default()
        };
        Ok((f, checked))
    }

    fn get(&mut self) -> Result<u64, ProofCheckpointError> {
        self.r.get()
    }

    fn damaged(&self) -> ProofCheckpointError {
        (self.not_ours)(self.path)
    }

    /// A count of at most `most`, checked before anything is reserved, so that a damaged
    /// count is an error, not an allocation failure.
    fn count(&mut self, most: u64) -> Result<usize, ProofCheckpointError> {
        let n = self.get()?;
        if n > most {
            return Err(self.damaged());
        }
        Ok(n as usize)
    }

    fn key(&mut self) -> Result<u128, ProofCheckpointError> {
        Ok(u128::from(self.get()?) << 64 | u128::from(self.get()?))
    }

    fn gaps(&mut self) -> Result<HashMap<u128, Gap>, ProofCheckpointError> {
        let n = self.count(1 << 32)?;
        let mut gaps = HashMap::with_capacity(n);
        for _ in 0..n {
            let seen = self.key()?;
            let (kind, key) = (self.get()?, self.get()?);
            let gap = Gap::from_code(kind, key).ok_or_else(|| self.damaged())?;
            gaps.insert(seen, gap);
        }
        Ok(gaps)
    }

    /// The repairs' table, then the checksum that ends the file.
    fn repairs_and_end(mut self) -> Result<Option<ProofTable>, ProofCheckpointError> {
        let has_repairs = self.get()? == 1;
        let entries = if self.compact {
            let low_bits = self.get()?.min(64) as u32;
            SavedEntries::Compact { low_bits }
        } else {
            SavedEntries::Wide { demote: false }
        };
        let len = self.get()?;
        let table = if has_repairs {
            let (path, not_ours) = (self.path, self.not_ours);
            let damaged = || not_ours(path);
            let read = read_table(&mut self.r, len, None, entries, path, damaged)?;
            Some(read.0)
        } else {
            None
        };
        self.r.finish()?;
        Ok(table)
    }
}
