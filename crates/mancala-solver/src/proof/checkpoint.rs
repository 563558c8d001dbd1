//! Proof searches that survive an interruption: the whole proof table, which is all the
//! state a df-pn search has between two runs from the root, written to a file with the
//! question it belongs to and the effort so far. Written beside its final name and renamed
//! over it when complete (a kill while writing leaves the previous file whole), with a
//! checksum over everything; the words and the checksum are those of
//! [`crate::checkpoint`].

use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};

use super::table::{BUCKET_WORDS, ProofTable};
use crate::checkpoint::{Words, write_atomically};

const MAGIC: &[u8; 8] = b"MNCLPROF";
/// Version 2: leaves have their own rank in the table ([`ProofTable::put_leaf`]); a
/// version-1 table, whose leaves were settled entries of one node, is read with those
/// demoted to leaves.
const VERSION: u64 = 2;

/// Why a proof checkpoint cannot be written or read.
#[derive(Debug, thiserror::Error)]
pub enum ProofCheckpointError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: not a checkpoint of `mancala prove` (versions 1 to {VERSION}), or cut short")]
    NotACheckpoint { path: PathBuf },
    #[error(
        "{path}: not a certificate check saved by `mancala prove` (of this kind, in a layout this build reads), or cut short"
    )]
    NotACheck { path: PathBuf },
    #[error(
        "{path}: a certificate check saved from another position (its moves do not replay from this one)"
    )]
    CheckOfAnotherPosition { path: PathBuf },
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
    #[error(
        "{path}: the checkpoint's table of {saved_bytes} bytes is too small to be moved into a larger one (entries keep bits 16-63 of their keys)"
    )]
    CannotGrow { path: PathBuf, saved_bytes: usize },
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
    /// The size of the table that was saved, which `table` may not have.
    pub saved_bytes: usize,
    /// Entries that did not fit when the saved table was moved into a smaller one.
    pub dropped: u64,
    /// Settled entries of one node of a version-1 table, read as leaves.
    pub demoted: u64,
}

/// Writes `table` to `path` for the question `label`, with the effort so far.
pub fn save_proof(
    table: &ProofTable,
    path: &Path,
    label: &str,
    nodes: u64,
    seconds: f64,
) -> Result<(), ProofCheckpointError> {
    write_proof(table, path, label, nodes, seconds, VERSION)
}

/// [`save_proof`] in the layout of `version` (the same words in versions 1 and 2; only
/// what a settled entry of one node means differs), so the tests can write an old file.
fn write_proof(
    table: &ProofTable,
    path: &Path,
    label: &str,
    nodes: u64,
    seconds: f64,
    version: u64,
) -> Result<(), ProofCheckpointError> {
    write_atomically(path, |w| {
        w.put_bytes(MAGIC)?;
        w.put(version)?;
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

/// Reads the checkpoint at `path`, if it belongs to the question `label`, into a table of
/// `mb` megabytes (as [`ProofTable::try_with_mb`] sizes it), or of the size it was saved
/// with when `mb` is `None`. A table of another size takes the saved entries bucket by
/// bucket ([`ProofTable::take_bucket`]), so only the new table is ever in memory.
pub fn load_proof(
    path: &Path,
    label: &str,
    mb: Option<usize>,
) -> Result<SavedProof, ProofCheckpointError> {
    let not_ours = || ProofCheckpointError::NotACheckpoint {
        path: path.to_path_buf(),
    };
    let (mut r, version) = Reader::open(path, MAGIC, 1..=VERSION, label, not_ours)?;
    let nodes = r.get()?;
    let seconds = f64::from_bits(r.get()?);
    let len = r.get()?;
    let too_big = |source| ProofCheckpointError::Table {
        path: path.to_path_buf(),
        source,
    };
    let count = ProofTable::buckets_in_words(len).ok_or_else(not_ours)?;
    let saved_bytes = count * BUCKET_WORDS * 8;
    let resized = mb.filter(|&mb| ProofTable::bytes_for_mb(mb) != saved_bytes);
    let mut dropped = 0;
    let mut demoted = 0;
    // Version 1 stored leaves as settled entries of one node (see VERSION).
    let demote = version == 1;
    let table = match resized {
        None => {
            let mut table = ProofTable::with_words(len)
                .ok_or_else(not_ours)?
                .map_err(too_big)?;
            for x in table.words_mut() {
                *x = r.get()?;
            }
            if demote {
                demoted = table.demote_one_node_settled();
            }
            table
        }
        Some(mb) => {
            if !ProofTable::can_move(count, mb) {
                return Err(ProofCheckpointError::CannotGrow {
                    path: path.to_path_buf(),
                    saved_bytes,
                });
            }
            let mut table = ProofTable::try_with_mb(mb).map_err(too_big)?;
            for index in 0..count {
                let mut words = [0; BUCKET_WORDS];
                for x in &mut words {
                    *x = r.get()?;
                }
                // Demoted before they compete for the smaller table's slots, where a
                // version-1 leaf would otherwise outrank searched work.
                let taken = table.take_bucket(index, count, words, demote);
                dropped += taken.dropped;
                demoted += taken.demoted;
            }
            table
        }
    };
    r.finish()?;
    Ok(SavedProof {
        table,
        nodes,
        seconds,
        saved_bytes,
        dropped,
        demoted,
    })
}

/// A checkpoint file being read: its words after the magic, version and question, with
/// read errors told as the file's (cut short, or another error) and its checksum checked
/// at the end; shared by the proof search's checkpoint and the saved certificate check.
pub(crate) struct Reader<'p> {
    words: Words<BufReader<File>>,
    path: &'p Path,
}

impl<'p> Reader<'p> {
    /// Opens `path` and reads its header: `magic`, a version among `versions` (returned),
    /// and the question `label`. A file of another kind or version is `not_ours`.
    pub(crate) fn open(
        path: &'p Path,
        magic: &[u8; 8],
        versions: std::ops::RangeInclusive<u64>,
        label: &str,
        not_ours: impl Fn() -> ProofCheckpointError,
    ) -> Result<(Self, u64), ProofCheckpointError> {
        let file = File::open(path).map_err(|e| read_error(path, e))?;
        let mut r = Reader {
            words: Words::new(BufReader::with_capacity(1 << 20, file)),
            path,
        };
        let mut found = [0u8; 8];
        r.words.get_bytes(&mut found).map_err(|_| not_ours())?;
        if &found != magic {
            return Err(not_ours());
        }
        let version = r.get()?;
        if !versions.contains(&version) {
            return Err(not_ours());
        }
        let found = r.words.get_text().map_err(|_| not_ours())?;
        if found != label {
            return Err(ProofCheckpointError::OtherQuestion {
                path: path.to_path_buf(),
                found,
                wanted: label.to_string(),
            });
        }
        Ok((r, version))
    }

    /// The next word.
    pub(crate) fn get(&mut self) -> Result<u64, ProofCheckpointError> {
        self.words.get().map_err(|e| read_error(self.path, e))
    }

    /// Reads the checksum that ends the file and compares it with the words read.
    pub(crate) fn finish(mut self) -> Result<(), ProofCheckpointError> {
        let expected = self.words.sum;
        let found = self.get()?;
        if found != expected {
            return Err(ProofCheckpointError::Damaged {
                path: self.path.to_path_buf(),
                found,
                expected,
            });
        }
        Ok(())
    }
}

/// A failed read of `path`: cut short (the file ended early), or another error.
fn read_error(path: &Path, source: std::io::Error) -> ProofCheckpointError {
    match crate::checkpoint::cut_short(source) {
        Ok(()) => ProofCheckpointError::Truncated {
            path: path.to_path_buf(),
        },
        Err(source) => ProofCheckpointError::Io {
            path: path.to_path_buf(),
            source,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Keys spread over all 64 bits (a multiplicative hash of 1..=n).
    fn keys(n: u64) -> impl Iterator<Item = u64> {
        (1..=n).map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15))
    }

    #[test]
    fn a_saved_table_moves_whole_into_a_larger_one_and_partly_into_a_smaller_one() {
        let dir = std::env::temp_dir().join(format!("mancala-proof-ckpt-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.ckpt");
        // A 4 MB table (2^16 buckets) (262,144 entries) offered 400,000 positions: it is full.
        let mut t = ProofTable::with_mb(4);
        for (i, k) in keys(400_000).enumerate() {
            t.put(k, i as u32 % 50 + 1, 7, i as u64);
        }
        let held: Vec<_> = keys(400_000).filter_map(|k| Some((k, t.get(k)?))).collect();
        assert!(
            held.len() > 200_000 && held.len() < 400_000,
            "{}",
            held.len()
        );
        save_proof(&t, &path, "q", 123, 4.5).unwrap();

        let same = load_proof(&path, "q", None).unwrap();
        assert_eq!((same.nodes, same.seconds, same.dropped), (123, 4.5, 0));
        assert_eq!(same.table.bytes(), 4 << 20);

        let larger = load_proof(&path, "q", Some(16)).unwrap();
        assert_eq!(
            (larger.table.bytes(), larger.saved_bytes),
            (16 << 20, 4 << 20)
        );
        assert_eq!(larger.dropped, 0);
        for &(k, numbers) in &held {
            assert_eq!(larger.table.get(k), Some(numbers), "{k:x}");
        }

        let smaller = load_proof(&path, "q", Some(1)).unwrap();
        let kept: Vec<_> = held
            .iter()
            .filter(|(k, _)| smaller.table.get(*k).is_some())
            .collect();
        assert_eq!(kept.len() as u64 + smaller.dropped, held.len() as u64);
        assert!(
            kept.len() > 50_000 && kept.len() <= 65_536,
            "{}",
            kept.len()
        );
        assert!(kept.iter().all(|&&(k, n)| smaller.table.get(k) == Some(n)));

        // A table of under 2^16 buckets does not know its keys' bits 16 and below it.
        save_proof(&ProofTable::with_mb(1), &path, "q", 1, 1.0).unwrap();
        assert!(matches!(
            load_proof(&path, "q", Some(4)),
            Err(ProofCheckpointError::CannotGrow { .. })
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A version-1 file stored leaves as settled entries of one node: read back, those
    /// (and only those) become leaves, which searched work then replaces; a version-2
    /// file's entries of one node are searched work and stay so. An unknown version is
    /// refused.
    #[test]
    fn a_version_1_checkpoint_is_read_with_its_one_node_settled_entries_as_leaves() {
        use super::super::INFINITE;
        let dir = std::env::temp_dir().join(format!("mancala-proof-v1-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.ckpt");
        let key = |k: u64| k << 16;
        // One bucket (the table of 0 MB): three settled entries of one node, one of more.
        let mut t = ProofTable::with_mb(0);
        for k in 1..4 {
            t.put(key(k), 0, INFINITE, 1);
        }
        t.put(key(4), INFINITE, 0, 1 << 10);
        let unsettled = |table: &mut ProofTable| {
            table.put(key(5), 3, 3, 1 << 5);
            table.get(key(5))
        };

        write_proof(&t, &path, "q", 9, 1.5, 1).unwrap();
        let mut old = load_proof(&path, "q", None).unwrap();
        assert_eq!((old.demoted, old.nodes, old.seconds), (3, 9, 1.5));
        for k in 1..5 {
            assert!(old.table.get(key(k)).is_some(), "{k}");
        }
        assert_eq!(
            unsettled(&mut old.table),
            Some((3, 3)),
            "it replaces a leaf"
        );
        assert_eq!(
            old.table.get(key(4)),
            Some((INFINITE, 0)),
            "searched work stays"
        );

        save_proof(&t, &path, "q", 9, 1.5).unwrap();
        let mut new = load_proof(&path, "q", None).unwrap();
        assert_eq!(new.demoted, 0);
        assert_eq!(
            unsettled(&mut new.table),
            None,
            "settled entries outrank it"
        );

        write_proof(&t, &path, "q", 9, 1.5, VERSION + 1).unwrap();
        assert!(matches!(
            load_proof(&path, "q", None),
            Err(ProofCheckpointError::NotACheckpoint { .. })
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
