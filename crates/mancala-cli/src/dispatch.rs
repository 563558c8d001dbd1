//! From a game name to the generic code for that game.

use std::path::Path;

use anyhow::{Context, Result, bail};
use mancala_core::afrika::Afrika;
use mancala_core::diagram::Diagram;
use mancala_core::index::Indexed;
use mancala_core::kauri::Kauri;
use mancala_core::record::RecordGame;
use mancala_solver::retro::{Database, Oracle};

/// What the command line needs of a game: records, rules by name, drawing, and where it
/// has them, retrograde tables to use as an exact oracle.
pub trait CliGame: RecordGame + Diagram {
    /// The oracle `solve` uses for `root`: the database file given with `--db`, or one
    /// the game builds itself when it is cheap and needed (Kauri's tie-break phase).
    fn oracle(_root: &Self, db: Option<&Path>) -> Result<Option<Box<dyn Oracle<Self>>>> {
        match db {
            Some(p) => bail!(
                "{}: {} has no retrograde databases",
                p.display(),
                Self::NAME
            ),
            None => Ok(None),
        }
    }

    /// The databases in the directory `dir` that `solve` uses for `root` without being
    /// told (games whose databases have a place there; none by default).
    fn stored_oracle(_root: &Self, _dir: &Path) -> Stored<Self> {
        Stored {
            oracle: None,
            used: vec![],
            warnings: vec![],
        }
    }
}

/// Databases found in the data directory: the oracle, what was used, what was skipped.
pub struct Stored<G: mancala_core::Game> {
    pub oracle: Option<Box<dyn Oracle<G>>>,
    pub used: Vec<String>,
    pub warnings: Vec<String>,
}

impl CliGame for mancala_core::progressive::Progressive {}
impl CliGame for mancala_core::andada::Andada {
    fn oracle(root: &Self, db: Option<&Path>) -> Result<Option<Box<dyn Oracle<Self>>>> {
        use mancala_core::andada::index::SeedsOnBoard;
        let Some(path) = db else { return Ok(None) };
        // "andada 2xN <variant>, K seeds on the board"
        let (n, k) = db_scope(path)?;
        if n as usize != root.n() {
            bail!(
                "{}: a 2x{n} database, but the position is on 2x{}",
                path.display(),
                root.n()
            );
        }
        let rules = root.rules();
        let classes: Vec<SeedsOnBoard> = (0..=k)
            .map(|seeds| SeedsOnBoard { n, seeds, rules })
            .collect();
        let db = Database::<mancala_core::andada::Andada>::load(
            path,
            Self::NAME,
            &rules.variant_name(),
            &classes,
        )?;
        Ok(Some(Box::new(db)))
    }
}
impl CliGame for mancala_core::kalah::Kalah {
    fn oracle(root: &Self, db: Option<&Path>) -> Result<Option<Box<dyn Oracle<Self>>>> {
        let Some(path) = db else { return Ok(None) };
        let (db, _) = mancala_solver::retro::store::load_file(path, root)?;
        Ok(Some(Box::new(db)))
    }

    fn stored_oracle(root: &Self, dir: &Path) -> Stored<Self> {
        let (found, warnings) = mancala_solver::retro::store::find(dir, root);
        let used = found
            .as_ref()
            .map(|f| format!("{} (up to {} seeds in play)", f.path.display(), f.max_seeds))
            .into_iter()
            .collect();
        Stored {
            oracle: found.map(|f| Box::new(f.db) as Box<dyn Oracle<Self>>),
            used,
            warnings: warnings.iter().map(|w| w.to_string()).collect(),
        }
    }
}

impl CliGame for Afrika {
    fn oracle(root: &Self, db: Option<&Path>) -> Result<Option<Box<dyn Oracle<Self>>>> {
        let Some(path) = db else { return Ok(None) };
        let Some(class) = root.class() else {
            bail!("{}: databases hold the standard rules only", path.display());
        };
        let (m, k) = db_scope(path)?;
        if m != class.m {
            bail!(
                "{}: a 2x{m} database, but the position is on 2x{}",
                path.display(),
                class.m
            );
        }
        let db = Database::<Afrika>::load(
            path,
            Self::NAME,
            "standard",
            &crate::cmd::retro::afrika_classes(m, k),
        )?;
        Ok(Some(Box::new(db)))
    }
}

impl CliGame for Kauri {
    fn oracle(root: &Self, db: Option<&Path>) -> Result<Option<Box<dyn Oracle<Self>>>> {
        if root.rules() != mancala_core::kauri::Rules::TieBreak {
            return match db {
                Some(p) => bail!(
                    "{}: the Kauri database is for the old tie-breaker rules (--rules tiebreak)",
                    p.display()
                ),
                None => Ok(None),
            };
        }
        let classes = crate::cmd::retro::KAURI_TIEBREAK;
        let db = match db {
            Some(p) => Database::<Kauri>::load(p, Self::NAME, "tiebreak", &classes)?,
            None => {
                // The cowries-only phase is where alpha-beta wanders longest; its table takes
                // seconds to build.
                eprintln!(
                    "building the tie-break phase table (2,704,156 positions; save it with `mancala retro kauri`)"
                );
                let mut db = Database::<Kauri>::empty(Self::NAME, "tiebreak");
                db.solve(&classes, &mancala_solver::retro::db::Quiet);
                db
            }
        };
        Ok(Some(Box::new(db)))
    }
}

/// Reads the board width and largest stone count from a database file's header.
fn db_scope(path: &Path) -> Result<(u8, u8)> {
    use std::io::BufRead;
    let f = std::fs::File::open(path)
        .with_context(|| format!("{}: cannot open the database", path.display()))?;
    let mut lines = std::io::BufReader::new(f).lines();
    let _magic = lines.next();
    let meta = lines.next().transpose()?.unwrap_or_default();
    let h: mancala_solver::retro::db::Header = serde_json::from_str(&meta)
        .with_context(|| format!("{}: not a mancala database", path.display()))?;
    let last = h.classes.last().map(|c| c.name.clone()).unwrap_or_default();
    // "afrika 2xM standard, K stones on the board"
    let m = last
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.strip_prefix("2x"))
        .and_then(|s| s.parse().ok());
    let k = last
        .split(", ")
        .nth(1)
        .and_then(|s| s.split_whitespace().next())
        .and_then(|s| s.parse().ok());
    match (m, k) {
        (Some(m), Some(k)) => Ok((m, k)),
        _ => bail!(
            "{}: cannot read the board and size of this database",
            path.display()
        ),
    }
}
