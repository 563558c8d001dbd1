//! Solves that survive an interruption. A checkpoint file holds what a solve has proven
//! of its root (the root's value and the values of the root moves finished so far) and
//! the whole transposition table, whose bounds carry the proof of everything under way:
//! the null-window tests MTD(f) had decided, and the subtrees searched. A solve resumed
//! from it skips what was proven and finds the rest of its work in the table, so an
//! interruption costs the time since the last checkpoint, not the whole run.
//!
//! The file is written beside its final name and renamed over it when complete, so a
//! kill while writing leaves the previous checkpoint whole. It names the position it
//! belongs to (a label the caller chooses, e.g. the game and the position text) and ends
//! with a checksum over everything before it. Every table entry is the pair Hyatt's
//! lockless table stores (key and data), so a table saved while threads search is as
//! sound as the live one, and it loads into a table of any size.

use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use crate::search::Bracket;
use crate::solve::{Proven, Solver};

const MAGIC: &[u8; 8] = b"MNCLCKPT";
/// Version 2 added where each unproven exact search stood ([`Bracket`]); version 1
/// files are still read (their searches start from a new first guess).
const VERSION: u64 = 2;
const OLDEST_READ: u64 = 1;

/// Why a checkpoint cannot be written or read.
#[derive(Debug, thiserror::Error)]
pub enum CheckpointError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: not a checkpoint of `mancala solve`")]
    NotACheckpoint { path: PathBuf },
    #[error("{path}: the checkpoint is cut short (truncated, or copied while it was written)")]
    Truncated { path: PathBuf },
    #[error(
        "{path}: checkpoint version {found}, this program reads versions {OLDEST_READ} to {VERSION}"
    )]
    Version { path: PathBuf, found: u64 },
    #[error("{path}: the checkpoint is damaged (checksum {found:016x}, expected {expected:016x})")]
    Damaged {
        path: PathBuf,
        found: u64,
        expected: u64,
    },
    #[error("{path}: a checkpoint of another solve ({found}), not of this one ({wanted})")]
    OtherSolve {
        path: PathBuf,
        found: String,
        wanted: String,
    },
}

/// `Ok` when a read failed because the file ended early (a checkpoint cut short: truncated,
/// or copied while it was written), else the error itself; shared by both checkpoints.
pub(crate) fn cut_short(e: std::io::Error) -> Result<(), std::io::Error> {
    match e.kind() {
        std::io::ErrorKind::UnexpectedEof => Ok(()),
        _ => Err(e),
    }
}

/// What a checkpoint says besides the table.
#[derive(Clone, Debug, PartialEq)]
pub struct Saved {
    /// Which solve it belongs to (chosen by the caller).
    pub label: String,
    pub proven: Proven,
    /// Nodes searched and seconds spent by the runs that wrote it, all together.
    pub nodes: u64,
    pub seconds: f64,
}

/// Writes `solver`'s proven values and table to `path` (atomically: a temporary file
/// renamed over it), with `nodes` and `seconds` of all runs so far.
pub fn save(
    solver: &Solver,
    path: &Path,
    label: &str,
    nodes: u64,
    seconds: f64,
) -> Result<(), CheckpointError> {
    write_atomically(path, |w| {
        let proven = solver.proven();
        w.put_bytes(MAGIC)?;
        w.put(VERSION)?;
        w.put_text(label)?;
        w.put(proven.root)?;
        w.put(value_word(proven.value))?;
        w.put(proven.moves.len() as u64)?;
        for &m in &proven.moves {
            w.put(value_word(m))?;
        }
        for &b in std::iter::once(&proven.value_bracket).chain(&proven.move_brackets) {
            w.put_bracket(b)?;
        }
        w.put(nodes)?;
        w.put(seconds.to_bits())?;
        for (key, data) in solver.tt.stored_entries() {
            w.put(key)?;
            w.put(data)?;
        }
        // The end: a zero key and data (no stored entry has data 0).
        w.put(0)?;
        w.put(0)
    })
    .map_err(|(path, source)| CheckpointError::Io { path, source })
}

/// Reads the checkpoint at `path` into `solver` (its table and proven values), if it
/// belongs to the solve named `label`; the table is emptied again when the file turns
/// out damaged.
pub fn load(solver: &Solver, path: &Path, label: &str) -> Result<Saved, CheckpointError> {
    let io = |source| match cut_short(source) {
        Ok(()) => CheckpointError::Truncated {
            path: path.to_path_buf(),
        },
        Err(source) => CheckpointError::Io {
            path: path.to_path_buf(),
            source,
        },
    };
    let file = File::open(path).map_err(io)?;
    let mut r = Words::new(BufReader::with_capacity(1 << 20, file));
    let not_ours = || CheckpointError::NotACheckpoint {
        path: path.to_path_buf(),
    };
    let mut magic = [0u8; 8];
    r.get_bytes(&mut magic).map_err(|_| not_ours())?;
    if &magic != MAGIC {
        return Err(not_ours());
    }
    let version = r.get().map_err(io)?;
    if !(OLDEST_READ..=VERSION).contains(&version) {
        return Err(CheckpointError::Version {
            path: path.to_path_buf(),
            found: version,
        });
    }
    let found = r.get_text().map_err(|_| not_ours())?;
    if found != label {
        return Err(CheckpointError::OtherSolve {
            path: path.to_path_buf(),
            found,
            wanted: label.to_string(),
        });
    }
    let root = r.get().map_err(io)?;
    let value = word_value(r.get().map_err(io)?);
    let n = r.get().map_err(io)?;
    if n > 1 << 16 {
        return Err(not_ours());
    }
    let moves = (0..n)
        .map(|_| r.get().map(word_value))
        .collect::<Result<Vec<_>, _>>()
        .map_err(io)?;
    let mut brackets = (0..=n).map(|_| {
        if version >= 2 {
            r.get_bracket()
        } else {
            Ok(None)
        }
    });
    let value_bracket = brackets.next().expect("n + 1 brackets").map_err(io)?;
    let move_brackets = brackets.collect::<Result<Vec<_>, _>>().map_err(io)?;
    let nodes = r.get().map_err(io)?;
    let seconds = f64::from_bits(r.get().map_err(io)?);
    solver.tt.clear();
    loop {
        let (key, data) = match (r.get(), r.get()) {
            (Ok(k), Ok(d)) => (k, d),
            (Err(e), _) | (_, Err(e)) => {
                solver.tt.clear();
                return Err(io(e));
            }
        };
        if data == 0 {
            break;
        }
        solver.tt.restore(key, data);
    }
    let expected = r.sum;
    let found_sum = r.get().map_err(io)?;
    if found_sum != expected {
        solver.tt.clear();
        return Err(CheckpointError::Damaged {
            path: path.to_path_buf(),
            found: found_sum,
            expected,
        });
    }
    let proven = Proven {
        root,
        value,
        moves,
        value_bracket,
        move_brackets,
    };
    solver.resume(proven.clone());
    Ok(Saved {
        label: found,
        proven,
        nodes,
        seconds,
    })
}

/// Writes a checkpoint file so that a kill while writing leaves the previous one whole:
/// `body` writes its words to a temporary file beside `path`, the checksum of every word
/// follows, and the file is synced and renamed over `path`. An error names the file it
/// concerns. A write that fails (a full disk) removes its temporary file: a table's
/// checkpoint is gigabytes, and a half-written one left behind only fills the disk more.
pub(crate) fn write_atomically(
    path: &Path,
    body: impl FnOnce(&mut Words<BufWriter<File>>) -> std::io::Result<()>,
) -> Result<(), (PathBuf, std::io::Error)> {
    let partial = partial_name(path);
    let write = || -> std::io::Result<()> {
        let file = File::create(&partial)?;
        let mut w = Words::new(BufWriter::with_capacity(1 << 20, file));
        body(&mut w)?;
        let sum = w.sum;
        w.put(sum)?;
        let file = w.inner.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()
    };
    if let Err(e) = write() {
        let _ = std::fs::remove_file(&partial);
        return Err((partial, e));
    }
    std::fs::rename(&partial, path).map_err(|e| (path.to_path_buf(), e))
}

/// The temporary name a checkpoint is written under.
pub(crate) fn partial_name(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".partial");
    PathBuf::from(name)
}

/// An optional value as a word (`u64::MAX` for none; values are small).
fn value_word(v: Option<i32>) -> u64 {
    v.map_or(u64::MAX, |v| v as u32 as u64)
}

fn word_value(w: u64) -> Option<i32> {
    (w != u64::MAX).then_some(w as u32 as i32)
}

/// 8-byte little-endian words in or out, with a running checksum of every word.
pub(crate) struct Words<T> {
    pub(crate) inner: T,
    pub(crate) sum: u64,
}

impl<T> Words<T> {
    pub(crate) fn new(inner: T) -> Self {
        Words {
            inner,
            sum: 0x6D61_6E63_616C_6143,
        }
    }

    fn add(&mut self, w: u64) {
        self.sum = mancala_core::hash::mix64(self.sum ^ w);
    }
}

impl<W: Write> Words<W> {
    pub(crate) fn put(&mut self, w: u64) -> std::io::Result<()> {
        self.add(w);
        self.inner.write_all(&w.to_le_bytes())
    }

    pub(crate) fn put_bytes(&mut self, b: &[u8; 8]) -> std::io::Result<()> {
        self.put(u64::from_le_bytes(*b))
    }

    /// An optional bracket: a presence word, then its three values.
    fn put_bracket(&mut self, b: Option<Bracket>) -> std::io::Result<()> {
        self.put(b.is_some() as u64)?;
        if let Some(b) = b {
            for v in [b.lower, b.upper, b.beta] {
                self.put(value_word(Some(v)))?;
            }
        }
        Ok(())
    }

    pub(crate) fn put_text(&mut self, s: &str) -> std::io::Result<()> {
        self.put(s.len() as u64)?;
        for chunk in s.as_bytes().chunks(8) {
            let mut b = [0u8; 8];
            b[..chunk.len()].copy_from_slice(chunk);
            self.put_bytes(&b)?;
        }
        Ok(())
    }
}

impl<R: Read> Words<R> {
    pub(crate) fn get(&mut self) -> std::io::Result<u64> {
        let mut b = [0u8; 8];
        self.inner.read_exact(&mut b)?;
        let w = u64::from_le_bytes(b);
        self.add(w);
        Ok(w)
    }

    pub(crate) fn get_bytes(&mut self, b: &mut [u8; 8]) -> std::io::Result<()> {
        *b = self.get()?.to_le_bytes();
        Ok(())
    }

    fn get_bracket(&mut self) -> std::io::Result<Option<Bracket>> {
        let value = |w: u64| word_value(w).ok_or(std::io::ErrorKind::InvalidData);
        match self.get()? {
            0 => Ok(None),
            1 => Ok(Some(Bracket {
                lower: value(self.get()?)?,
                upper: value(self.get()?)?,
                beta: value(self.get()?)?,
            })),
            _ => Err(std::io::ErrorKind::InvalidData.into()),
        }
    }

    pub(crate) fn get_text(&mut self) -> std::io::Result<String> {
        let len = self.get()?;
        if len > 1 << 20 {
            return Err(std::io::ErrorKind::InvalidData.into());
        }
        let mut bytes = Vec::with_capacity(len as usize);
        for _ in 0..len.div_ceil(8) {
            bytes.extend_from_slice(&self.get()?.to_le_bytes());
        }
        bytes.truncate(len as usize);
        String::from_utf8(bytes).map_err(|_| std::io::ErrorKind::InvalidData.into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A write that fails half-way (as on a full disk) leaves the previous checkpoint as
    /// it was and no temporary file behind.
    #[test]
    fn a_failed_write_keeps_the_old_file_and_removes_the_partial_one() {
        // Removed when dropped, at the end of the test, pass or fail.
        let dir = tempfile::Builder::new()
            .prefix("mancala-ckpt-")
            .tempdir()
            .unwrap();
        let path = dir.path().join("a.ckpt");
        std::fs::write(&path, b"the previous checkpoint").unwrap();
        let failed = write_atomically(&path, |w| {
            w.put(7)?;
            Err(std::io::Error::other("no space left"))
        });
        let (named, e) = failed.unwrap_err();
        assert_eq!(named, partial_name(&path));
        assert_eq!(e.to_string(), "no space left");
        assert!(!partial_name(&path).exists());
        assert_eq!(std::fs::read(&path).unwrap(), b"the previous checkpoint");
        write_atomically(&path, |w| w.put(7)).unwrap();
        assert!(!partial_name(&path).exists());
        assert_ne!(std::fs::read(&path).unwrap(), b"the previous checkpoint");
    }
}
