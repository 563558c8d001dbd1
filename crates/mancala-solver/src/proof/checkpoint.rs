//! Proof searches that survive an interruption: the whole proof table, which is all the
//! state a df-pn search has between two runs from the root, written to a file with the
//! question it belongs to and the effort so far. Written beside its final name and renamed
//! over it when complete (a kill while writing leaves the previous file whole), with a
//! checksum over everything; the words and the checksum are those of
//! [`crate::checkpoint`].

use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};

use super::table::ProofTable;
use crate::checkpoint::{Words, write_atomically};

const MAGIC: &[u8; 8] = b"MNCLPROF";
const VERSION: u64 = 1;

/// Why a proof checkpoint cannot be written or read.
#[derive(Debug, thiserror::Error)]
pub enum ProofCheckpointError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: not a checkpoint of `mancala prove` (version {VERSION}), or cut short")]
    NotACheckpoint { path: PathBuf },
    #[error("{path}: the checkpoint is cut short (truncated, or copied while it was written)")]
    Truncated { path: PathBuf },
    #[error("{path}: the checkpoint is damaged (checksum {found:016x}, expected {expected:016x})")]
    Damaged {
        path: PathBuf,
        found: u64,
        expected: u64,
    },
    #[error("{path}: a checkpoint of another question ({found}), not of this one ({wanted})")]
    OtherQuestion {
        path: PathBuf,
        found: String,
        wanted: String,
    },
    #[error("{path}: {source}")]
    Table {
        path: PathBuf,
        source: super::table::TableTooBig,
    },
}

/// What a checkpoint holds.
pub struct SavedProof {
    pub table: ProofTable,
    /// Nodes and seconds of all the runs that wrote it.
    pub nodes: u64,
    pub seconds: f64,
}

/// Writes `table` to `path` for the question `label`, with the effort so far.
pub fn save_proof(
    table: &ProofTable,
    path: &Path,
    label: &str,
    nodes: u64,
    seconds: f64,
) -> Result<(), ProofCheckpointError> {
    write_atomically(path, |w| {
        w.put_bytes(MAGIC)?;
        w.put(VERSION)?;
        w.put_text(label)?;
        w.put(nodes)?;
        w.put(seconds.to_bits())?;
        let words = table.words();
        w.put(words.len() as u64)?;
        for &x in words {
            w.put(x)?;
        }
        Ok(())
    })
    .map_err(|(path, source)| ProofCheckpointError::Io { path, source })
}

/// Reads the checkpoint at `path`, if it belongs to the question `label`. The table has
/// the size it was saved with.
pub fn load_proof(path: &Path, label: &str) -> Result<SavedProof, ProofCheckpointError> {
    let io = |source| match crate::checkpoint::cut_short(source) {
        Ok(()) => ProofCheckpointError::Truncated {
            path: path.to_path_buf(),
        },
        Err(source) => ProofCheckpointError::Io {
            path: path.to_path_buf(),
            source,
        },
    };
    let not_ours = || ProofCheckpointError::NotACheckpoint {
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
    let nodes = r.get().map_err(io)?;
    let seconds = f64::from_bits(r.get().map_err(io)?);
    let len = r.get().map_err(io)?;
    let mut table = ProofTable::with_words(len)
        .ok_or_else(not_ours)?
        .map_err(|source| ProofCheckpointError::Table {
            path: path.to_path_buf(),
            source,
        })?;
    for x in table.words_mut() {
        *x = r.get().map_err(io)?;
    }
    let expected = r.sum;
    let found = r.get().map_err(io)?;
    if found != expected {
        return Err(ProofCheckpointError::Damaged {
            path: path.to_path_buf(),
            found,
            expected,
        });
    }
    Ok(SavedProof {
        table,
        nodes,
        seconds,
    })
}
