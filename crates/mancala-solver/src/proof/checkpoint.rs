//! Proof searches that survive an interruption: the whole proof table, which is all the
//! state a df-pn search has between two runs from the root, written to a file with the
//! question it belongs to and the effort so far. Written beside its final name and renamed
//! over it when complete (a kill while writing leaves the previous file whole), with a
//! checksum over everything; the words and the checksum are those of
//! [`crate::checkpoint`].

use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};

use super::table::{BUCKET_WORDS, MOST_BORROWED, ProofTable, SavedEntries, Taken};
use crate::checkpoint::{Words, write_atomically};

const MAGIC: &[u8; 8] = b"MNCLPROF";
/// Version 2: leaves have their own rank in the table ([`ProofTable::put_leaf`]); a
/// version-1 table, whose leaves were settled entries of one node, is read with those
/// demoted to leaves. Version 3: the table's entries are 8 bytes, eight to a bucket
/// ([`SavedEntries::Compact`]); versions 1 and 2 held four of 16 bytes
/// ([`SavedEntries::Wide`]), moved into this layout on reading.
const VERSION: u64 = 3;

/// How a file of `version` holds its table: from version 3 on, the word read by
/// `low_bits` says how its index was made ([`ProofTable::low_bits`]).
fn entries_of(
    version: u64,
    low_bits: impl FnOnce() -> Result<u64, ProofCheckpointError>,
) -> Result<SavedEntries, ProofCheckpointError> {
    Ok(match version {
        1 | 2 => SavedEntries::Wide {
            demote: version == 1,
        },
        _ => SavedEntries::Compact {
            low_bits: low_bits()?.min(64) as u32,
        },
    })
}

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
        "{path}: the checkpoint's table of {saved_bytes} bytes cannot be moved into one of {asked_bytes}: its entries do not know the key bits the larger table's index needs, and taking more than {MOST_BORROWED} of them from the checked bits would leave too few to tell positions apart; resume with a --tt-mb at most 16 times the size its entries were saved from, or start over with --force"
    )]
    CannotGrow {
        path: PathBuf,
        saved_bytes: usize,
        asked_bytes: usize,
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
    /// The size of the table that was saved, which `table` may not have.
    pub saved_bytes: usize,
    /// Saved entries that did not fit, or met a more valuable one of the same check, when
    /// they were moved (into a table of another size, or out of 16-byte entries).
    pub dropped: u64,
    /// Settled entries of one node of a version-1 table, read as leaves.
    pub demoted: u64,
    /// The saved table had the 16-byte entries of earlier builds (versions 1 and 2),
    /// moved into this build's on reading.
    pub wide: bool,
    /// Bits of the table's bucket index taken from the checked bits (a table grown
    /// from a smaller one, now or in an earlier run: [`ProofTable::borrowed_bits`]).
    pub borrowed: u32,
}

/// Writes `table` to `path` for the question `label`, with the effort so far.
pub fn save_proof(
    table: &ProofTable,
    path: &Path,
    label: &str,
    nodes: u64,
    seconds: f64,
) -> Result<(), ProofCheckpointError> {
    let low_bits = table.low_bits();
    write_proof(
        table.words(),
        low_bits,
        path,
        label,
        nodes,
        seconds,
        VERSION,
    )
}

/// [`save_proof`] of a table's `words` in the layout of `version`, so that the tests can
/// write an old file.
fn write_proof(
    words: &[u64],
    low_bits: u32,
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
        if version >= 3 {
            w.put(u64::from(low_bits))?;
        }
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
/// with when `mb` is `None` ([`read_table`]).
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
    let saved = entries_of(version, || r.get())?;
    let len = r.get()?;
    let (table, count, taken) = read_table(&mut r, len, mb, saved, path, not_ours)?;
    let saved_bytes = count * BUCKET_WORDS * 8;
    let Taken { dropped, demoted } = taken;
    let wide = matches!(saved, SavedEntries::Wide { .. });
    let borrowed = table.borrowed();
    r.finish()?;
    Ok(SavedProof {
        table,
        nodes,
        seconds,
        saved_bytes,
        dropped,
        demoted,
        wide,
        borrowed,
    })
}

/// Reads a table of `len` words held as `saved` from `r` into a table of `mb` megabytes
/// (as [`ProofTable::try_with_mb`] sizes it), or of the size it was saved with when `mb`
/// is `None`; returns it with the saved table's number of buckets and what moving it
/// dropped or demoted. A table of this build's layout at its own size is read word for
/// word; any other moves bucket by bucket ([`ProofTable::take_bucket`]), so that only the
/// new table is ever in memory.
pub(crate) fn read_table(
    r: &mut Reader,
    len: u64,
    mb: Option<usize>,
    saved: SavedEntries,
    path: &Path,
    not_ours: impl Fn() -> ProofCheckpointError,
) -> Result<(ProofTable, usize, Taken), ProofCheckpointError> {
    let too_big = |source| ProofCheckpointError::Table {
        path: path.to_path_buf(),
        source,
    };
    let count = ProofTable::buckets_in_words(len).ok_or_else(&not_ours)?;
    let saved_bytes = count * BUCKET_WORDS * 8;
    let resized = mb.filter(|&mb| ProofTable::bytes_for_mb(mb) != saved_bytes);
    if let Some(mb) = resized {
        let asked_bytes = ProofTable::bytes_for_mb(mb);
        if ProofTable::borrowed_bits(saved, count, asked_bytes) > MOST_BORROWED {
            return Err(ProofCheckpointError::CannotGrow {
                path: path.to_path_buf(),
                saved_bytes,
                asked_bytes,
            });
        }
    }
    let table = match resized {
        None => ProofTable::with_words(len)
            .ok_or_else(&not_ours)?
            .map_err(too_big)?,
        Some(mb) => ProofTable::try_with_mb(mb).map_err(too_big)?,
    };
    if let (None, SavedEntries::Compact { low_bits }) = (resized, saved) {
        let mut table = table.with_low_bits(low_bits);
        for x in table.words_mut() {
            *x = r.get()?;
        }
        return Ok((table, count, Taken::default()));
    }
    let mut table = table.with_low_bits(saved.known_low_bits(count));
    let mut all = Taken::default();
    for index in 0..count {
        let mut words = [0; BUCKET_WORDS];
        for x in &mut words {
            *x = r.get()?;
        }
        // A version-1 leaf is demoted before it competes for a slot, where it would
        // otherwise outrank searched work.
        let taken = table.take_bucket(index, count, words, saved);
        all.dropped += taken.dropped;
        all.demoted += taken.demoted;
    }
    Ok((table, count, all))
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
    use super::super::table::WideEntry;
    use super::*;

    /// Keys spread over all 64 bits (a multiplicative hash of 1..=n).
    fn keys(n: u64) -> impl Iterator<Item = u64> {
        (1..=n).map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15))
    }

    #[test]
    fn a_saved_table_moves_whole_into_its_size_or_a_larger_one_and_partly_into_a_smaller_one() {
        // Removed when dropped, at the end of the test, pass or fail.
        let dir = tempfile::Builder::new()
            .prefix("mancala-proof-ckpt-")
            .tempdir()
            .unwrap();
        let path = dir.path().join("t.ckpt");
        // A 4 MB table (2^16 buckets, 524,288 entries) offered 800,000 positions: it is full.
        let t = ProofTable::with_mb(4);
        for (i, k) in keys(800_000).enumerate() {
            t.put(k, i as u32 % 50 + 1, 7, i as u64);
        }
        let held: Vec<_> = keys(800_000).filter_map(|k| Some((k, t.get(k)?))).collect();
        assert!(
            held.len() > 400_000 && held.len() <= 524_288,
            "{}",
            held.len()
        );
        save_proof(&t, &path, "q", 123, 4.5).unwrap();

        let same = load_proof(&path, "q", None).unwrap();
        assert_eq!((same.nodes, same.seconds, same.dropped), (123, 4.5, 0));
        assert!(!same.wide);
        assert_eq!(same.table.bytes(), 4 << 20);
        assert_eq!(same.table.words(), t.words());
        let asked_same = load_proof(&path, "q", Some(4)).unwrap();
        assert_eq!(asked_same.table.words(), t.words());

        let smaller = load_proof(&path, "q", Some(1)).unwrap();
        let kept: Vec<_> = held
            .iter()
            .filter(|(k, _)| smaller.table.get(*k).is_some())
            .collect();
        assert_eq!(kept.len() as u64 + smaller.dropped, held.len() as u64);
        assert!(
            kept.len() > 100_000 && kept.len() <= 131_072,
            "{}",
            kept.len()
        );
        assert!(kept.iter().all(|&&(k, n)| smaller.table.get(k) == Some(n)));

        // Into a larger table: whole, its index taking the rest of its bits from bits 28
        // and up; saved so and read back, the same.
        let larger = load_proof(&path, "q", Some(16)).unwrap();
        assert_eq!(
            (larger.table.bytes(), larger.saved_bytes, larger.dropped),
            (16 << 20, 4 << 20, 0)
        );
        assert_eq!((larger.table.low_bits(), larger.borrowed), (16, 2));
        // At most 16 times larger (4 bits borrowed); beyond, refused.
        assert_eq!(load_proof(&path, "q", Some(64)).unwrap().borrowed, 4);
        assert!(matches!(
            load_proof(&path, "q", Some(128)),
            Err(ProofCheckpointError::CannotGrow { .. })
        ));
        assert!(held.iter().all(|&(k, n)| larger.table.get(k) == Some(n)));
        save_proof(&larger.table, &path, "q", 5, 1.0).unwrap();
        let again = load_proof(&path, "q", None).unwrap();
        assert_eq!(again.table.low_bits(), 16);
        assert!(held.iter().all(|&(k, n)| again.table.get(k) == Some(n)));
    }

    /// The words of a wide table of `count` buckets holding the `offered` entries (key,
    /// keep, numbers) that fit, at most four a bucket as the old table kept them; and
    /// those entries.
    fn wide(count: usize, offered: impl Iterator<Item = WideEntry>) -> (Vec<u64>, Vec<WideEntry>) {
        let mut per = vec![0; count];
        let entries: Vec<_> = offered
            .filter(|&(k, ..)| {
                per[k as usize & (count - 1)] += 1;
                per[k as usize & (count - 1)] <= 4
            })
            .collect();
        (super::super::table::wide_words(count, &entries), entries)
    }

    /// Files of versions 1 and 2 hold four 16-byte entries a bucket, with bits 16-63 of
    /// the key: a table of 2^16 buckets or more moves whole into a larger table of this
    /// build's entries (their numbers rounded as the table rounds them), one of fewer
    /// buckets too (its index borrowing checked bits), and any into one of its own size. A version-1 file stored leaves as settled entries of one node: read
    /// back, those (and only those) become leaves, which searched work then replaces; a
    /// version-2 file's entries of one node are searched work and stay so. An unknown
    /// version is refused.
    #[test]
    fn wide_checkpoints_of_versions_1_and_2_are_read_into_this_layout() {
        use super::super::INFINITE;
        // Removed when dropped, at the end of the test, pass or fail.
        let dir = tempfile::Builder::new()
            .prefix("mancala-proof-v1-")
            .tempdir()
            .unwrap();
        let path = dir.path().join("t.ckpt");
        let offered = keys(200_000).enumerate();
        let (words, entries) = wide(
            1 << 16,
            offered.map(|(i, k)| (k, 3, 1000 + i as u32 % 7, 7)),
        );
        write_proof(&words, 0, &path, "q", 9, 1.5, 2).unwrap();
        // Its own size, and a larger one (all of the key known: nothing borrowed).
        for mb in [None, Some(16)] {
            let wide = load_proof(&path, "q", mb).unwrap();
            assert_eq!(wide.borrowed, 0);
            assert_eq!(
                (wide.dropped, wide.demoted, wide.saved_bytes),
                (0, 0, 4 << 20)
            );
            assert!(wide.wide);
            for &(k, _, pn, dn) in &entries {
                let back = wide.table.get(k).unwrap();
                assert!(back.0 >= pn && back.0 <= pn + 8 && back.1 == dn, "{k:x}");
            }
        }
        // A smaller one: what does not fit is counted.
        let small = load_proof(&path, "q", Some(1)).unwrap();
        let kept = entries.iter().filter(|e| small.table.get(e.0).is_some());
        assert_eq!(kept.count() as u64 + small.dropped, entries.len() as u64);
        assert!(small.dropped > 0);
        // A wide table of fewer than 2^16 buckets does not know its keys' bits from its
        // index up to 15: a larger table takes the rest of its index from bits 28 and up.
        let (words, entries) = wide(1 << 14, keys(20_000).map(|k| (k, 3, 5, 7)));
        write_proof(&words, 0, &path, "q", 9, 1.5, 2).unwrap();
        let grown = load_proof(&path, "q", Some(4)).unwrap();
        assert_eq!((grown.dropped, grown.borrowed), (0, 2));
        assert!(entries.iter().all(|e| grown.table.get(e.0) == Some((5, 7))));

        // One bucket: three settled entries of one node, one of more work (keys that
        // differ in bits 28 and up, which both layouts keep).
        let key = |k: u64| k << 28;
        let mut old = vec![(key(1), 1 << 15 | 1, 0, INFINITE)];
        old.extend((2..4).map(|k| (key(k), 1 << 15 | 1, 0, INFINITE)));
        old.push((key(4), 1 << 15 | 11, INFINITE, 0));
        let words = super::super::table::wide_words(1, &old);
        let unsettled = |table: &mut ProofTable| {
            // Eight unsettled positions of some work: those the leaves gave way to stay.
            for k in 5..13 {
                table.put(key(k), 3, 3, 1 << 5);
            }
            (5..13).filter(|&k| table.get(key(k)).is_some()).count()
        };
        write_proof(&words, 0, &path, "q", 9, 1.5, 1).unwrap();
        let mut v1 = load_proof(&path, "q", None).unwrap();
        assert_eq!((v1.demoted, v1.nodes, v1.seconds), (3, 9, 1.5));
        for k in 1..5 {
            assert!(v1.table.get(key(k)).is_some(), "{k}");
        }
        assert_eq!(unsettled(&mut v1.table), 7, "they replace the leaves");
        assert_eq!(
            v1.table.get(key(4)),
            Some((INFINITE, 0)),
            "searched work stays"
        );

        write_proof(&words, 0, &path, "q", 9, 1.5, 2).unwrap();
        let mut v2 = load_proof(&path, "q", None).unwrap();
        assert_eq!(v2.demoted, 0);
        assert_eq!(unsettled(&mut v2.table), 4, "settled entries outrank them");

        write_proof(&words, 0, &path, "q", 9, 1.5, VERSION + 1).unwrap();
        assert!(matches!(
            load_proof(&path, "q", None),
            Err(ProofCheckpointError::NotACheckpoint { .. })
        ));
    }
}
