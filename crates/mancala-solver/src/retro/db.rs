//! Tables of solved classes, saved and loaded safely.
//!
//! A database file is one line of text (`mancala-db 1`), one line of JSON metadata (game,
//! variant, classes with their sizes, offsets and checksums) and the values, one signed
//! byte per position, class after class. A build writes each finished class to
//! `<file>.partial/class-<k>.bin` (through a temporary file and a rename, with its own
//! checksum), so an interrupted build loses at most the class in progress and resumes
//! where it stopped; the final file is assembled from the class files the same way. Values
//! are exact, so a resumed build ends with a byte-identical file. Every checksum is
//! verified on load.

use std::collections::HashMap;
use std::fs;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};

use mancala_core::index::Indexed;
use serde::{Deserialize, Serialize};

use super::layer::{LayerStats, solve_class};

const MAGIC: &str = "mancala-db 1";

/// What can go wrong with a database file.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    #[error("{path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("{path}: not a mancala database ({what})")]
    Format { path: String, what: String },
    #[error(
        "{path}: class \"{class}\" is damaged (checksum {found:016x}, expected {expected:016x})"
    )]
    Checksum {
        path: String,
        class: String,
        found: u64,
        expected: u64,
    },
    #[error("{path}: {what}")]
    Mismatch { path: String, what: String },
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> DbError + '_ {
    move |source| DbError::Io {
        path: path.display().to_string(),
        source,
    }
}

/// A 64-bit checksum of the values (SplitMix finaliser over 8-byte words).
pub fn checksum(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0x6D61_6E63_616C_6121 ^ bytes.len() as u64;
    let mut chunks = bytes.chunks_exact(8);
    for c in &mut chunks {
        h = mancala_core::hash::mix64(h ^ u64::from_le_bytes(c.try_into().unwrap()));
    }
    let mut tail = [0u8; 8];
    tail[..chunks.remainder().len()].copy_from_slice(chunks.remainder());
    mancala_core::hash::mix64(h ^ u64::from_le_bytes(tail))
}

/// Metadata of one class in a file.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct ClassInfo {
    pub name: String,
    pub positions: u64,
    pub offset: u64,
    pub checksum: String,
}

/// The metadata line of a database file.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Header {
    pub format: u32,
    pub game: String,
    pub variant: String,
    /// What the database covers, e.g. "up to 12 stones on the board".
    pub scope: String,
    pub classes: Vec<ClassInfo>,
}

/// Solved classes of a game, in memory.
pub struct Database<G: Indexed> {
    pub header: Header,
    tables: HashMap<G::Class, Vec<i8>>,
}

/// Progress of a build, reported per class.
pub trait BuildObserver: Sync {
    /// A class starts (index, count, name, positions).
    fn start(&self, _k: usize, _of: usize, _name: &str, _positions: u64) {}
    /// A sweep of the current class ended.
    fn sweep(&self, _sweep: u32, _evaluations: u64) {}
    /// A class is done: solved now (`Some`) or loaded from an earlier, interrupted build.
    fn done(&self, _k: usize, _name: &str, _stats: Option<&LayerStats>) {}
}

/// An observer that reports nothing.
pub struct Quiet;
impl BuildObserver for Quiet {}

impl<G: Indexed> Database<G> {
    /// An empty database (the search then uses none).
    pub fn empty(game: &str, variant: &str) -> Self {
        Database {
            header: Header {
                format: 1,
                game: game.into(),
                variant: variant.into(),
                scope: String::new(),
                classes: vec![],
            },
            tables: HashMap::new(),
        }
    }

    /// The value of `g` for its player to move, if its class is in the database.
    #[inline]
    pub fn value(&self, g: &G) -> Option<i32> {
        let c = g.class()?;
        let t = self.tables.get(&c)?;
        Some(g.banked() + t[g.index() as usize] as i32)
    }

    pub fn contains(&self, c: &G::Class) -> bool {
        self.tables.contains_key(c)
    }

    /// Positions and bytes held.
    pub fn positions(&self) -> u64 {
        self.tables.values().map(|t| t.len() as u64).sum()
    }

    /// Solves `classes` in order (each may only leave for earlier ones or for classes
    /// already in `self`), in memory.
    pub fn solve(&mut self, classes: &[G::Class], obs: &dyn BuildObserver) -> Vec<LayerStats> {
        let mut stats = Vec::new();
        for (k, &c) in classes.iter().enumerate() {
            if self.tables.contains_key(&c) {
                continue;
            }
            let name = G::class_name(&c);
            obs.start(k, classes.len(), &name, G::class_size(&c));
            let (values, st) = self.solve_one(c, obs);
            obs.done(k, &name, Some(&st));
            self.add_class(c, values);
            stats.push(st);
        }
        stats
    }

    fn solve_one(&self, c: G::Class, obs: &dyn BuildObserver) -> (Vec<i8>, LayerStats) {
        let outside = |g: &G| -> i32 {
            if g.is_terminal() {
                return g.terminal_value();
            }
            self.value(g).unwrap_or_else(|| {
                panic!(
                    "{}: a move leaves the class for one not solved yet: {g:?}",
                    G::class_name(&c)
                )
            })
        };
        solve_class::<G>(c, &outside, &|s, e| obs.sweep(s, e))
    }

    fn add_class(&mut self, c: G::Class, values: Vec<i8>) {
        let offset = self.header.classes.iter().map(|x| x.positions).sum();
        self.header.classes.push(ClassInfo {
            name: G::class_name(&c),
            positions: values.len() as u64,
            offset,
            checksum: format!("{:016x}", checksum(bytes(&values))),
        });
        self.tables.insert(c, values);
    }

    /// Builds `classes` into the file `path`, resuming an interrupted build from
    /// `<path>.partial/`. Returns the stats of the classes solved now.
    pub fn build(
        path: &Path,
        game: &str,
        variant: &str,
        scope: &str,
        classes: &[G::Class],
        obs: &dyn BuildObserver,
    ) -> Result<(Self, Vec<LayerStats>), DbError> {
        let partial = partial_dir(path);
        fs::create_dir_all(&partial).map_err(io(&partial))?;
        let mut db = Database::empty(game, variant);
        db.header.scope = scope.into();
        let mut stats = Vec::new();
        for (k, &c) in classes.iter().enumerate() {
            let name = G::class_name(&c);
            let file = partial.join(format!("class-{k:03}.bin"));
            if let Some(values) = read_class_file(&file, &name, G::class_size(&c))? {
                obs.done(k, &name, None);
                db.add_class(c, values);
                continue;
            }
            obs.start(k, classes.len(), &name, G::class_size(&c));
            let (values, st) = db.solve_one(c, obs);
            write_class_file(&file, &name, &values)?;
            obs.done(k, &name, Some(&st));
            db.add_class(c, values);
            stats.push(st);
        }
        db.write(path)?;
        fs::remove_dir_all(&partial).map_err(io(&partial))?;
        Ok((db, stats))
    }

    /// Writes the whole database to `path` (through a temporary file and a rename).
    pub fn write(&self, path: &Path) -> Result<(), DbError> {
        let tmp = path.with_extension("tmp");
        {
            let mut f = std::io::BufWriter::new(fs::File::create(&tmp).map_err(io(&tmp))?);
            writeln!(f, "{MAGIC}").map_err(io(&tmp))?;
            let meta = serde_json::to_string(&self.header).expect("header serialises");
            writeln!(f, "{meta}").map_err(io(&tmp))?;
            for info in &self.header.classes {
                let t = self
                    .table_named(&info.name)
                    .expect("every listed class is held");
                f.write_all(bytes(t)).map_err(io(&tmp))?;
            }
            f.flush().map_err(io(&tmp))?;
            f.get_ref().sync_all().map_err(io(&tmp))?;
        }
        fs::rename(&tmp, path).map_err(io(path))
    }

    fn table_named(&self, name: &str) -> Option<&Vec<i8>> {
        self.tables
            .iter()
            .find(|(c, _)| G::class_name(c) == name)
            .map(|(_, t)| t)
    }

    /// Loads `path`, checking that it holds exactly `classes` (in order) of `game` and
    /// `variant`, and every checksum.
    pub fn load(
        path: &Path,
        game: &str,
        variant: &str,
        classes: &[G::Class],
    ) -> Result<Self, DbError> {
        let p = path.display().to_string();
        let f = fs::File::open(path).map_err(io(path))?;
        let mut r = BufReader::new(f);
        let mut line = String::new();
        r.read_line(&mut line).map_err(io(path))?;
        if line.trim_end() != MAGIC {
            return Err(DbError::Format {
                path: p,
                what: format!("first line is not \"{MAGIC}\""),
            });
        }
        line.clear();
        r.read_line(&mut line).map_err(io(path))?;
        let header: Header =
            serde_json::from_str(line.trim_end()).map_err(|e| DbError::Format {
                path: p.clone(),
                what: format!("metadata: {e}"),
            })?;
        if header.game != game || header.variant != variant {
            return Err(DbError::Mismatch {
                path: p,
                what: format!(
                    "holds {} ({}), not {game} ({variant})",
                    header.game, header.variant
                ),
            });
        }
        let names: Vec<String> = classes.iter().map(|c| G::class_name(c)).collect();
        let held: Vec<&str> = header.classes.iter().map(|c| c.name.as_str()).collect();
        if held != names.iter().map(String::as_str).collect::<Vec<_>>() {
            return Err(DbError::Mismatch {
                path: p,
                what: format!("holds classes {held:?}, expected {names:?}"),
            });
        }
        let mut db = Database {
            header: header.clone(),
            tables: HashMap::new(),
        };
        for (info, &c) in header.classes.iter().zip(classes) {
            if info.positions != G::class_size(&c) {
                return Err(DbError::Mismatch {
                    path: p,
                    what: format!(
                        "class \"{}\" has {} positions, expected {}",
                        info.name,
                        info.positions,
                        G::class_size(&c)
                    ),
                });
            }
            let mut buf = vec![0u8; info.positions as usize];
            r.read_exact(&mut buf).map_err(io(path))?;
            let found = checksum(&buf);
            let expected = u64::from_str_radix(&info.checksum, 16).unwrap_or(0);
            if found != expected {
                return Err(DbError::Checksum {
                    path: p,
                    class: info.name.clone(),
                    found,
                    expected,
                });
            }
            db.tables
                .insert(c, buf.into_iter().map(|b| b as i8).collect());
        }
        if r.read(&mut [0u8; 1]).map_err(io(path))? != 0 {
            return Err(DbError::Format {
                path: p,
                what: "trailing bytes after the last class".into(),
            });
        }
        Ok(db)
    }
}

fn bytes(v: &[i8]) -> &[u8] {
    // i8 and u8 have the same layout.
    unsafe { std::slice::from_raw_parts(v.as_ptr() as *const u8, v.len()) }
}

/// Where a build keeps its finished classes until the file is complete.
pub fn partial_dir(path: &Path) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(".partial");
    PathBuf::from(s)
}

fn write_class_file(file: &Path, name: &str, values: &[i8]) -> Result<(), DbError> {
    let tmp = file.with_extension("tmp");
    {
        let mut f = std::io::BufWriter::new(fs::File::create(&tmp).map_err(io(&tmp))?);
        writeln!(
            f,
            "{name}\t{}\t{:016x}",
            values.len(),
            checksum(bytes(values))
        )
        .map_err(io(&tmp))?;
        f.write_all(bytes(values)).map_err(io(&tmp))?;
        f.flush().map_err(io(&tmp))?;
        f.get_ref().sync_all().map_err(io(&tmp))?;
    }
    fs::rename(&tmp, file).map_err(io(file))
}

/// A finished class from an earlier build, if it is there and intact.
fn read_class_file(file: &Path, name: &str, positions: u64) -> Result<Option<Vec<i8>>, DbError> {
    let Ok(f) = fs::File::open(file) else {
        return Ok(None);
    };
    let mut r = BufReader::new(f);
    let mut line = String::new();
    r.read_line(&mut line).map_err(io(file))?;
    let parts: Vec<&str> = line.trim_end().split('\t').collect();
    if parts.len() != 3 || parts[0] != name || parts[1] != positions.to_string() {
        // A class file of another build: solve again.
        return Ok(None);
    }
    let mut buf = Vec::with_capacity(positions as usize);
    r.read_to_end(&mut buf).map_err(io(file))?;
    if buf.len() as u64 != positions || format!("{:016x}", checksum(&buf)) != parts[2] {
        // Damaged (e.g. cut short): solve again.
        return Ok(None);
    }
    Ok(Some(buf.into_iter().map(|b| b as i8).collect()))
}
