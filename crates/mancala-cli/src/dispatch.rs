//! From a game name to the generic code for that game.

use std::io::IsTerminal;
use std::path::Path;

use anyhow::{Result, bail};
use mancala_core::afrika::Afrika;
use mancala_core::diagram::Diagram;
use mancala_core::index::catalog::Catalogued;
use mancala_core::kauri::Kauri;
use mancala_core::record::RecordGame;
use mancala_solver::retro::{Database, Oracle};

/// What the command line needs of a game: records, rules by name, drawing, and where it
/// has them, retrograde tables to use as an exact oracle.
pub trait CliGame: RecordGame + Diagram {
    /// Whether the game keeps databases in the data directory (`--db-dir`).
    const STORED_DATABASES: bool = false;

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

/// An exact oracle, if there is one.
pub type OracleBox<G> = Option<Box<dyn Oracle<G>>>;

/// Where a command finds its endgame databases: one file, or a directory searched for
/// the largest database that fits the position.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct DbArgs {
    /// A retrograde database (from `mancala retro`) to use as an exact oracle.
    #[arg(long, value_name = "FILE")]
    pub db: Option<std::path::PathBuf>,
    /// Where to look for databases when --db is not given (default: $MANCALA_DB_DIR,
    /// else the platform data directory).
    #[arg(long, value_name = "DIR", conflicts_with = "db")]
    pub db_dir: Option<std::path::PathBuf>,
}

impl DbArgs {
    /// The oracle these arguments name for positions like `root`, and the files used.
    pub fn oracle<G: CliGame>(&self, root: &G) -> Result<(OracleBox<G>, Vec<String>)> {
        oracle_for(root, self.db.as_deref(), self.db_dir.as_deref())
    }

    /// [`DbArgs::oracle`], naming the databases on stderr at the start when the run shows
    /// its progress ([`shows_progress`] of the --progress flag `progress`): the answer
    /// names them too, but only at the end, and a run of hours should say at once what it
    /// rests on.
    pub fn oracle_announced<G: CliGame>(
        &self,
        root: &G,
        progress: bool,
    ) -> Result<(OracleBox<G>, Vec<String>)> {
        let found = self.oracle(root)?;
        if shows_progress(progress) && !found.1.is_empty() {
            errln!("databases: {}", found.1.join(", "));
        }
        Ok(found)
    }
}

/// Whether a run writes progress lines: asked for with --progress (`asked`), or stderr
/// is a terminal.
pub fn shows_progress(asked: bool) -> bool {
    asked || std::io::stderr().is_terminal()
}

/// The exact oracle for a search from `root`: the database file `db` when given, else
/// what the game builds itself, else the databases of the data directory (`db_dir`, or
/// the default one); with the names of the databases used. Skipped files are reported
/// on stderr.
pub fn oracle_for<G: CliGame>(
    root: &G,
    db: Option<&Path>,
    db_dir: Option<&Path>,
) -> Result<(OracleBox<G>, Vec<String>)> {
    if let Some(dir) = db_dir
        && !G::STORED_DATABASES
    {
        bail!(
            "--db-dir {}: {} keeps no databases in a data directory (give a file with --db)",
            dir.display(),
            G::NAME
        );
    }
    let oracle = G::oracle(root, db)?;
    if let Some(p) = db {
        return Ok((oracle, vec![p.display().to_string()]));
    }
    if oracle.is_some() {
        return Ok((oracle, Vec::new()));
    }
    if let Some(dir) = db_dir
        && !dir.is_dir()
    {
        bail!("--db-dir {}: no such folder", dir.display());
    }
    let Some(dir) = db_dir
        .map(Path::to_path_buf)
        .or_else(mancala_solver::retro::store::default_dir)
    else {
        return Ok((None, Vec::new()));
    };
    let found = G::stored_oracle(root, &dir);
    for w in &found.warnings {
        errln!("warning: {w}");
    }
    Ok((found.oracle, found.used))
}

/// Databases found in the data directory: the oracle, what was used, what was skipped.
pub struct Stored<G: mancala_core::Game> {
    pub oracle: Option<Box<dyn Oracle<G>>>,
    pub used: Vec<String>,
    pub warnings: Vec<String>,
}

impl CliGame for mancala_core::progressive::Progressive {}

impl CliGame for mancala_core::andada::Andada {
    fn oracle(root: &Self, db: Option<&Path>) -> Result<OracleBox<Self>> {
        db.map(|path| file_oracle(root, path)).transpose()
    }
}

impl CliGame for Afrika {
    fn oracle(root: &Self, db: Option<&Path>) -> Result<OracleBox<Self>> {
        db.map(|path| file_oracle(root, path)).transpose()
    }
}

impl CliGame for mancala_core::kalah::Kalah {
    const STORED_DATABASES: bool = true;

    fn oracle(root: &Self, db: Option<&Path>) -> Result<OracleBox<Self>> {
        db.map(|path| file_oracle(root, path)).transpose()
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

impl CliGame for Kauri {
    /// The tie-break phase's database: the file given, else built here (seconds), as it
    /// is where alpha-beta wanders longest.
    fn oracle(root: &Self, db: Option<&Path>) -> Result<OracleBox<Self>> {
        if let Some(path) = db {
            return Ok(Some(file_oracle(root, path)?));
        }
        let Some(shelf) = root.shelf() else {
            return Ok(None);
        };
        errln!(
            "building the tie-break phase table (2,704,156 positions; save it with `mancala retro kauri`)"
        );
        let mut db = Database::<Kauri>::empty(shelf.game, &shelf.variant);
        db.solve(&root.classes(0), &mancala_solver::retro::db::Quiet);
        Ok(Some(Box::new(db)))
    }
}

/// The database file `path` as an oracle for positions like `root`: the game's catalogue
/// says which classes it must hold, and a file holding anything else is an error.
fn file_oracle<G: CliGame + Catalogued>(root: &G, path: &Path) -> Result<Box<dyn Oracle<G>>> {
    let (db, _) = mancala_solver::retro::store::load_file(path, root)?;
    Ok(Box::new(db))
}
