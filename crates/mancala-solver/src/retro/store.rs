//! Where databases live, what their files are called, and which of them can serve a
//! position, so that the solver uses them without being told.
//!
//! - The directory: `$MANCALA_DB_DIR` if set, else the platform's data directory for
//!   `mancala` (`directories`: `~/.local/share/mancala` on Linux,
//!   `~/Library/Application Support/mancala` on macOS, `%APPDATA%\mancala\data` on
//!   Windows). A command-line `--db-dir` overrides both.
//! - File names: `<game>-<board>-<variant>-<k>.db`, e.g. `kalah-2x6-empty-capture-20.db`,
//!   one file holding every class up to `k` seeds in play (the classes a game lists for
//!   that `k`, see [`Catalogued::classes`]).
//! - Lookup: [`find`] scans the directory for the files of the position's game, board and
//!   variant, and loads the largest whose checksums hold. A file that cannot be read, is
//!   damaged or holds something else is skipped and reported as a [`StoreWarning`], never
//!   trusted.

use std::path::{Path, PathBuf};

use mancala_core::index::Indexed;
pub use mancala_core::index::catalog::{Catalogued, Shelf};

use super::db::{Database, DbError};

/// The environment variable naming the database directory.
pub const ENV_VAR: &str = "MANCALA_DB_DIR";

/// The default database directory: `$MANCALA_DB_DIR`, else the platform data directory.
/// `None` only when neither is known (no home directory).
pub fn default_dir() -> Option<PathBuf> {
    if let Some(d) = std::env::var_os(ENV_VAR).filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(d));
    }
    directories::ProjectDirs::from("", "", "mancala").map(|p| p.data_dir().to_path_buf())
}

/// Something wrong with a database that was therefore not used.
#[derive(Debug, thiserror::Error)]
pub enum StoreWarning {
    /// The directory exists but cannot be listed.
    #[error("{dir}: cannot list the database directory: {source}")]
    Directory {
        dir: PathBuf,
        source: std::io::Error,
    },
    /// A file of the right name that does not load (damaged, cut short, other contents).
    #[error("skipped a database that does not load: {source}")]
    Skipped { path: PathBuf, source: DbError },
}

/// A database found for a position.
pub struct Found<G: Indexed> {
    pub db: Database<G>,
    pub path: PathBuf,
    /// Seeds in play of its largest class.
    pub max_seeds: u8,
}

/// The files in `dir` of `shelf`, largest `k` first.
pub fn files(dir: &Path, shelf: &Shelf) -> Result<Vec<(u8, PathBuf)>, std::io::Error> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir)? {
        let e = e?;
        if let Some(k) = e.file_name().to_str().and_then(|n| shelf.parse(n)) {
            out.push((k, e.path()));
        }
    }
    out.sort_by_key(|f| std::cmp::Reverse(f.0));
    Ok(out)
}

/// Loads the database of `root`'s shelf up to `k` from `path`.
pub fn load<G: Catalogued>(
    path: &Path,
    root: &G,
    shelf: &Shelf,
    k: u8,
) -> Result<Database<G>, DbError> {
    Database::load(path, shelf.game, &shelf.variant, &root.classes(k))
}

/// Loads a database file given by name (any name) for positions like `root`: the
/// header says how far it goes. Returns it with its largest seed count.
pub fn load_file<G: Catalogued>(path: &Path, root: &G) -> Result<(Database<G>, u8), DbError> {
    let mismatch = |what: String| DbError::Mismatch {
        path: path.display().to_string(),
        what,
    };
    let header = super::db::read_header_file(path)?;
    let shelf = root.shelf().ok_or_else(|| {
        mismatch(format!(
            "holds {} ({}), and this game's databases hold {}",
            header.game,
            header.variant,
            G::rules_held()
        ))
    })?;
    if header.game != shelf.game || header.variant != shelf.variant {
        return Err(mismatch(format!(
            "holds {} ({}), the position is {} ({})",
            header.game, header.variant, shelf.game, shelf.variant
        )));
    }
    let k = (0..=u8::MAX)
        .find(|&k| root.classes(k).len() == header.classes.len())
        .ok_or_else(|| mismatch("an unexpected number of classes".into()))?;
    Ok((load(path, root, &shelf, k)?, k))
}

/// The best database in `dir` for `root`: the largest of its shelf that loads intact.
/// Every file skipped on the way is reported; a missing directory means no database.
pub fn find<G: Catalogued>(dir: &Path, root: &G) -> (Option<Found<G>>, Vec<StoreWarning>) {
    let mut warnings = Vec::new();
    let Some(shelf) = root.shelf() else {
        return (None, warnings);
    };
    let list = match files(dir, &shelf) {
        Ok(l) => l,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return (None, warnings),
        Err(source) => {
            warnings.push(StoreWarning::Directory {
                dir: dir.to_path_buf(),
                source,
            });
            return (None, warnings);
        }
    };
    for (k, path) in list {
        match load::<G>(&path, root, &shelf, k) {
            Ok(db) => {
                return (
                    Some(Found {
                        db,
                        path,
                        max_seeds: k,
                    }),
                    warnings,
                );
            }
            Err(source) => warnings.push(StoreWarning::Skipped { path, source }),
        }
    }
    (None, warnings)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::retro::db::Quiet;
    use mancala_core::kalah::{Kalah, Rules};

    /// A fresh directory under the system's temporary directory, removed when the guard
    /// returned is dropped (at the end of the test, pass or fail).
    fn temp_dir(name: &str) -> tempfile::TempDir {
        tempfile::Builder::new()
            .prefix(&format!("mancala-store-{name}-"))
            .tempdir()
            .unwrap()
    }

    #[test]
    fn file_names_round_trip() {
        let root = Kalah::start(6, 4, Rules::default());
        let shelf = root.shelf().unwrap();
        assert_eq!(shelf.file_name(20), "kalah-2x6-empty-capture-20.db");
        assert_eq!(shelf.parse(&shelf.file_name(20)), Some(20));
        assert_eq!(shelf.parse("kalah-2x5-empty-capture-20.db"), None);
        assert_eq!(root.classes(4).len(), 3);
    }

    #[test]
    fn find_takes_the_largest_intact_file_and_reports_damaged_ones() {
        let guard = temp_dir("find");
        let dir = guard.path();
        let root = Kalah::start(3, 2, Rules::default());
        let shelf = root.shelf().unwrap();
        assert!(find(dir, &root).0.is_none());
        assert!(find(&dir.join("absent"), &root).0.is_none());
        for k in [5u8, 7] {
            Database::<Kalah>::build(
                &dir.join(shelf.file_name(k)),
                shelf.game,
                &shelf.variant,
                &root.scope(k),
                &root.classes(k),
                &Quiet,
            )
            .unwrap();
        }
        let (found, warnings) = find(dir, &root);
        let found = found.unwrap();
        assert_eq!(found.max_seeds, 7);
        assert!(warnings.is_empty());
        // Damage the larger one: the smaller one is used and the damage reported.
        let big = dir.join(shelf.file_name(7));
        let mut bytes = std::fs::read(&big).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 0x40;
        std::fs::write(&big, bytes).unwrap();
        let (found, warnings) = find(dir, &root);
        assert_eq!(found.unwrap().max_seeds, 5);
        assert_eq!(warnings.len(), 1);
        assert!(matches!(
            &warnings[0],
            StoreWarning::Skipped {
                source: DbError::Checksum { .. },
                ..
            }
        ));
        // The other capture rule has no database here.
        let other = root.with_rules(Rules {
            capture: mancala_core::kalah::Capture::Standard,
        });
        assert!(find(dir, &other).0.is_none());
    }

    #[test]
    fn the_environment_variable_names_the_directory() {
        // Only read here: setting it would race with other tests.
        match std::env::var_os(ENV_VAR).filter(|d| !d.is_empty()) {
            Some(d) => assert_eq!(default_dir(), Some(PathBuf::from(d))),
            None => {
                let d = default_dir();
                assert!(d.is_none_or(|d| d.ends_with("mancala") || d.ends_with("data")));
            }
        }
    }
}
