//! Tables of solved classes, saved and loaded safely.
//!
//! A database file is one line of text (`mancala-db 1`), one line of JSON metadata (game,
//! variant, classes with their sizes, offsets and checksums) and the values, one signed
//! byte per position, class after class. A build writes each finished class to
//! `<file>.partial/class-<k>.bin` (through a temporary file and a rename, with its own
//! checksum), so an interrupted build loses at most the class in progress and resumes
//! where it stopped; the final file is assembled from the class files the same way. Values
//! are exact, so a resumed build ends with a byte-identical file.
//!
//! Loading maps the file into memory (memmap2) instead of reading it: a database of
//! hundreds of megabytes costs no copy and no heap, the page cache is shared between
//! processes, and pages come in as the search touches them. Every class's checksum is
//! still verified on load (one sequential read of the mapping, classes on all threads),
//! so a damaged file is refused before a single value is trusted. The file must not be
//! rewritten while it is mapped; builds only ever replace it through a rename, which
//! leaves an existing mapping on the old contents.

use std::collections::HashMap;
use std::fs;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use mancala_core::index::Indexed;
use memmap2::Mmap;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::layer::{LayerStats, Method, solve_class_with};

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
    #[error(
        "{path}: these classes need about {needed_mb} MB of memory ({positions} positions), \
         but {available_mb} MB are available"
    )]
    TooBig {
        path: String,
        positions: u64,
        needed_mb: u64,
        available_mb: u64,
    },
}

/// Memory a build of `classes` needs, in bytes: every value stays in memory (one byte a
/// position) and the class being solved takes four more bytes a position (its lower and
/// upper bounds). Classes a build copies from a smaller file are not among `classes`:
/// they stay in that file's mapping. Saturates rather than overflows for absurd requests.
pub fn build_bytes<G: Indexed>(classes: &[G::Class]) -> (u64, u64) {
    let positions = classes
        .iter()
        .map(G::class_size)
        .fold(0u64, u64::saturating_add);
    let largest = classes.iter().map(G::class_size).max().unwrap_or(0);
    (
        positions,
        positions.saturating_add(largest.saturating_mul(4)),
    )
}

/// Refuses a build of `classes` into `path` that cannot fit in the memory available, when
/// a process holds a share `1 / parts` of every class (1 on one machine).
pub(crate) fn fits_in_memory<G: Indexed>(
    path: &Path,
    classes: &[G::Class],
    parts: u64,
) -> Result<(), DbError> {
    let (positions, needed) = build_bytes::<G>(classes);
    let needed = needed / parts.max(1);
    match crate::tt::available_memory() {
        Some(available) if needed > available => Err(DbError::TooBig {
            path: path.display().to_string(),
            positions,
            needed_mb: needed >> 20,
            available_mb: available >> 20,
        }),
        _ => Ok(()),
    }
}

pub(crate) fn io(path: &Path) -> impl FnOnce(std::io::Error) -> DbError + '_ {
    move |source| DbError::Io {
        path: path.display().to_string(),
        source,
    }
}

/// A 64-bit checksum of the values (SplitMix finaliser over 8-byte words).
pub fn checksum(bytes: &[u8]) -> u64 {
    let mut c = Checksum::new(bytes.len() as u64);
    c.update(bytes);
    c.finish()
}

/// [`checksum`] of a class fed in pieces, in order (a class need not be in memory whole to
/// be checked or written).
pub(crate) struct Checksum {
    h: u64,
    /// The bytes of the word not complete yet.
    tail: [u8; 8],
    filled: usize,
}

impl Checksum {
    /// The checksum of `len` bytes to come.
    pub(crate) fn new(len: u64) -> Self {
        Checksum {
            h: 0x6D61_6E63_616C_6121 ^ len,
            tail: [0; 8],
            filled: 0,
        }
    }

    pub(crate) fn update(&mut self, mut bytes: &[u8]) {
        if self.filled > 0 {
            let take = (8 - self.filled).min(bytes.len());
            self.tail[self.filled..self.filled + take].copy_from_slice(&bytes[..take]);
            self.filled += take;
            bytes = &bytes[take..];
            if self.filled < 8 {
                return;
            }
            self.h = mancala_core::hash::mix64(self.h ^ u64::from_le_bytes(self.tail));
            self.filled = 0;
        }
        let mut words = bytes.chunks_exact(8);
        for w in &mut words {
            self.h = mancala_core::hash::mix64(self.h ^ u64::from_le_bytes(w.try_into().unwrap()));
        }
        let rest = words.remainder();
        self.tail[..rest.len()].copy_from_slice(rest);
        self.filled = rest.len();
    }

    pub(crate) fn finish(mut self) -> u64 {
        self.tail[self.filled..].fill(0);
        mancala_core::hash::mix64(self.h ^ u64::from_le_bytes(self.tail))
    }
}

/// Metadata of one class in a file.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct ClassInfo {
    pub name: String,
    pub positions: u64,
    pub offset: u64,
    pub checksum: String,
}

impl ClassInfo {
    /// A class of `positions` values at `offset` (from the first class's first value).
    pub(crate) fn new(name: String, positions: u64, offset: u64, checksum: u64) -> Self {
        ClassInfo {
            name,
            positions,
            offset,
            checksum: format!("{checksum:016x}"),
        }
    }
}

/// The first two lines of a database file: the format line and the metadata. Its length
/// depends on the checksums' values only through their fixed width (16 hex digits), so a
/// writer may put a header of placeholder checksums first and the real one over it.
pub(crate) fn head_bytes(header: &Header) -> Vec<u8> {
    let meta = serde_json::to_string(header).expect("header serialises");
    format!("{MAGIC}\n{meta}\n").into_bytes()
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

/// The values of one class: solved in this process, or a slice of a mapped file. A clone
/// of a mapped slice shares the mapping (no copy; the pages stay the page cache's to
/// evict).
#[derive(Clone)]
enum Table {
    Owned(Vec<i8>),
    Mapped {
        map: Arc<Mmap>,
        start: usize,
        len: usize,
    },
}

impl Table {
    #[inline(always)]
    fn values(&self) -> &[i8] {
        match self {
            Table::Owned(v) => v,
            Table::Mapped { map, start, len } => {
                let b = &map[*start..*start + *len];
                // i8 and u8 have the same layout.
                unsafe { std::slice::from_raw_parts(b.as_ptr() as *const i8, b.len()) }
            }
        }
    }
}

/// A cheap hasher for class keys (a few bytes, looked up at every probe, never chosen by
/// an adversary): the default SipHash cost a tenth of a Kalah build.
#[derive(Default, Clone, Copy)]
struct ClassHasher(u64);

impl std::hash::Hasher for ClassHasher {
    #[inline]
    fn finish(&self) -> u64 {
        mancala_core::hash::mix64(self.0)
    }
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ b as u64)
                .wrapping_mul(0x100_0000_01B3)
                .rotate_left(5);
        }
    }
    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.0 = (self.0 ^ i as u64)
            .wrapping_mul(0x100_0000_01B3)
            .rotate_left(5);
    }
    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0 ^ i)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .rotate_left(29);
    }
    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64);
    }
}

type ClassMap<K> = HashMap<K, Table, std::hash::BuildHasherDefault<ClassHasher>>;

/// Solved classes of a game: built in memory or mapped from a file.
pub struct Database<G: Indexed> {
    pub header: Header,
    tables: ClassMap<G::Class>,
    /// How classes are solved by [`Database::solve`] and [`Database::build`].
    pub method: Method,
}

/// Progress of a build, reported per class.
pub trait BuildObserver: Sync {
    /// A class starts (index, count, name, positions).
    fn start(&self, _k: usize, _of: usize, _name: &str, _positions: u64) {}
    /// A sweep of the current class ended.
    fn sweep(&self, _sweep: u32, _evaluations: u64) {}
    /// A class is done: solved now (`Some`) or loaded from an earlier, interrupted build.
    fn done(&self, _k: usize, _name: &str, _stats: Option<&LayerStats>) {}
    /// A class was copied from the smaller database a build extends (its checksum was
    /// verified when that file was loaded).
    fn reused(&self, _k: usize, _name: &str, _positions: u64) {}
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
            tables: ClassMap::default(),
            method: Method::Auto,
        }
    }

    /// The value of `g` for its player to move, if its class is in the database.
    #[inline]
    pub fn value(&self, g: &G) -> Option<i32> {
        let c = g.class()?;
        let t = self.tables.get(&c)?.values();
        Some(g.banked() + *t.get(g.index() as usize)? as i32)
    }

    /// Whether the class of `g` is in the database, prefetching its value's cache line
    /// when it is (the search asks for several children before reading any).
    #[inline]
    pub fn prefetch(&self, g: &G) -> bool {
        let Some(t) = g.class().and_then(|c| self.tables.get(&c)) else {
            return false;
        };
        let values = t.values();
        let i = g.index() as usize;
        if i < values.len() {
            #[cfg(target_arch = "x86_64")]
            // Safety: in bounds; a prefetch reads nothing.
            unsafe {
                use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
                _mm_prefetch(values.as_ptr().add(i), _MM_HINT_T0);
            }
        }
        true
    }

    pub fn contains(&self, c: &G::Class) -> bool {
        self.tables.contains_key(c)
    }

    /// Bytes of values held in this process's own memory rather than in a file's mapping
    /// (which the page cache can drop and read again): classes solved by
    /// [`Database::solve`] and not yet written.
    pub fn owned_bytes(&self) -> u64 {
        let owned = |t: &Table| match t {
            Table::Owned(v) => v.len() as u64,
            Table::Mapped { .. } => 0,
        };
        self.tables.values().map(owned).sum()
    }

    /// Positions and bytes held.
    pub fn positions(&self) -> u64 {
        self.tables.values().map(|t| t.values().len() as u64).sum()
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
        solve_class_with::<G>(c, self.method, &outside, &|s, e| obs.sweep(s, e))
    }

    pub(crate) fn add_class(&mut self, c: G::Class, values: Vec<i8>) {
        self.add_table(c, Table::Owned(values));
    }

    fn add_table(&mut self, c: G::Class, t: Table) {
        let offset = self.header.classes.iter().map(|x| x.positions).sum();
        let values = t.values();
        self.header.classes.push(ClassInfo::new(
            G::class_name(&c),
            values.len() as u64,
            offset,
            checksum(bytes(values)),
        ));
        self.tables.insert(c, t);
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
        Self::build_with(path, game, variant, scope, classes, Method::Auto, obs)
    }

    /// [`Database::build`] solving each class by `method`.
    pub fn build_with(
        path: &Path,
        game: &str,
        variant: &str,
        scope: &str,
        classes: &[G::Class],
        method: Method,
        obs: &dyn BuildObserver,
    ) -> Result<(Self, Vec<LayerStats>), DbError> {
        let mut db = Database::empty(game, variant);
        db.method = method;
        db.header.scope = scope.into();
        db.fill(path, classes, None, obs)
    }

    /// Builds `classes` into the file `path` as [`Database::build`] does, copying every
    /// class that `smaller` (a database of the same game and variant) already holds
    /// instead of solving it again: a database up to k + 1 seeds costs one class more
    /// than the one up to k.
    pub fn extend(
        path: &Path,
        smaller: &Database<G>,
        scope: &str,
        classes: &[G::Class],
        obs: &dyn BuildObserver,
    ) -> Result<(Self, Vec<LayerStats>), DbError> {
        let mut db = Database::empty(&smaller.header.game, &smaller.header.variant);
        db.method = smaller.method;
        db.header.scope = scope.into();
        db.fill(path, classes, Some(smaller), obs)
    }

    /// Solves (or takes from `smaller`, or from `<path>.partial/`) each of `classes` in
    /// turn, then writes the whole database to `path` and returns it mapped from there.
    /// The classes taken from `smaller` stay in its file's mapping instead of being
    /// copied into memory: extending the 28-seed Kalah file (5.6 GB) to 30 seeds held
    /// them twice, once in the page cache and once copied, and came within 2 GB of a
    /// 24 GB machine's memory.
    fn fill(
        mut self,
        path: &Path,
        classes: &[G::Class],
        smaller: Option<&Database<G>>,
        obs: &dyn BuildObserver,
    ) -> Result<(Self, Vec<LayerStats>), DbError> {
        let held = |c: &G::Class| smaller.is_some_and(|s| s.contains(c));
        let to_solve: Vec<G::Class> = classes.iter().filter(|c| !held(c)).copied().collect();
        fits_in_memory::<G>(path, &to_solve, 1)?;
        let partial = partial_dir(path);
        fs::create_dir_all(&partial).map_err(io(&partial))?;
        let db = &mut self;
        let mut stats = Vec::new();
        for (k, &c) in classes.iter().enumerate() {
            let name = G::class_name(&c);
            if let Some(t) = smaller.and_then(|s| s.tables.get(&c)) {
                obs.reused(k, &name, t.values().len() as u64);
                db.add_table(c, t.clone());
                continue;
            }
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
        // The file just written, mapped and its checksums verified, replaces the classes
        // held in memory (released first): what the caller gets is what was written.
        let (game, variant, method) = (
            self.header.game.clone(),
            self.header.variant.clone(),
            self.method,
        );
        drop(self);
        let mut written = Database::load(path, &game, &variant, classes)?;
        written.method = method;
        fs::remove_dir_all(&partial).map_err(io(&partial))?;
        Ok((written, stats))
    }

    /// Writes the whole database to `path` (through a temporary file and a rename).
    pub fn write(&self, path: &Path) -> Result<(), DbError> {
        let tmp = path.with_extension("tmp");
        {
            let mut f = std::io::BufWriter::new(fs::File::create(&tmp).map_err(io(&tmp))?);
            f.write_all(&head_bytes(&self.header)).map_err(io(&tmp))?;
            for info in &self.header.classes {
                let t = self
                    .table_named(&info.name)
                    .expect("every listed class is held");
                f.write_all(bytes(t.values())).map_err(io(&tmp))?;
            }
            f.flush().map_err(io(&tmp))?;
            f.get_ref().sync_all().map_err(io(&tmp))?;
        }
        fs::rename(&tmp, path).map_err(io(path))
    }

    fn table_named(&self, name: &str) -> Option<&Table> {
        self.tables
            .iter()
            .find(|(c, _)| G::class_name(c) == name)
            .map(|(_, t)| t)
    }

    /// Loads `path`, checking that it holds exactly `classes` (in order) of `game` and
    /// `variant`, and every checksum. The values stay in the file, mapped into memory.
    pub fn load(
        path: &Path,
        game: &str,
        variant: &str,
        classes: &[G::Class],
    ) -> Result<Self, DbError> {
        let p = path.display().to_string();
        let f = fs::File::open(path).map_err(io(path))?;
        // Safety: the mapping is read-only and builds replace files only by renaming a
        // new file over the old one, never by writing into it.
        let map = Arc::new(unsafe { Mmap::map(&f) }.map_err(io(path))?);
        let (header, data) = read_header(&map, &p)?;
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
        let spans = class_spans::<G>(&header, classes, data, map.len(), &p)?;
        verify_checksums(&header, &spans, &map, &p)?;
        let tables = classes
            .iter()
            .zip(spans)
            .map(|(&c, (start, len))| {
                let map = Arc::clone(&map);
                (c, Table::Mapped { map, start, len })
            })
            .collect();
        Ok(Database {
            header,
            tables,
            method: Method::Auto,
        })
    }
}

/// Where each class's values lie in a file of `file_len` bytes whose values start at
/// `data`: every class of the expected size, the file neither cut short nor longer.
fn class_spans<G: Indexed>(
    header: &Header,
    classes: &[G::Class],
    data: usize,
    file_len: usize,
    p: &str,
) -> Result<Vec<(usize, usize)>, DbError> {
    let mut start = data;
    let mut spans = Vec::with_capacity(classes.len());
    for (info, c) in header.classes.iter().zip(classes) {
        if info.positions != G::class_size(c) {
            return Err(DbError::Mismatch {
                path: p.into(),
                what: format!(
                    "class \"{}\" has {} positions, expected {}",
                    info.name,
                    info.positions,
                    G::class_size(c)
                ),
            });
        }
        let len = usize::try_from(info.positions).unwrap_or(usize::MAX);
        if file_len.saturating_sub(start) < len {
            return Err(DbError::Format {
                path: p.into(),
                what: format!("cut short in class \"{}\"", info.name),
            });
        }
        spans.push((start, len));
        start += len;
    }
    if start != file_len {
        return Err(DbError::Format {
            path: p.into(),
            what: "trailing bytes after the last class".into(),
        });
    }
    Ok(spans)
}

/// Every class's checksum against the header, classes in parallel; the first damaged
/// one is reported.
fn verify_checksums(
    header: &Header,
    spans: &[(usize, usize)],
    map: &[u8],
    p: &str,
) -> Result<(), DbError> {
    let bad = header
        .classes
        .par_iter()
        .zip(spans)
        .filter_map(|(info, &(s, len))| {
            let found = checksum(&map[s..s + len]);
            let expected = u64::from_str_radix(&info.checksum, 16).ok();
            (expected != Some(found)).then(|| (info.name.clone(), found, expected))
        })
        .collect::<Vec<_>>();
    match bad.into_iter().next() {
        Some((class, found, expected)) => Err(DbError::Checksum {
            path: p.into(),
            class,
            found,
            expected: expected.unwrap_or(0),
        }),
        None => Ok(()),
    }
}

/// The header of the database file `path` (nothing else is read).
pub fn read_header_file(path: &Path) -> Result<Header, DbError> {
    let p = path.display().to_string();
    let mut r = BufReader::new(fs::File::open(path).map_err(io(path))?);
    let mut head = Vec::new();
    for _ in 0..2 {
        r.read_until(b'\n', &mut head).map_err(io(path))?;
    }
    read_header(&head, &p).map(|(h, _)| h)
}

/// The header of a mapped database and where its values begin.
fn read_header(map: &[u8], p: &str) -> Result<(Header, usize), DbError> {
    let format = |what: String| DbError::Format {
        path: p.to_string(),
        what,
    };
    let first = map
        .iter()
        .position(|&b| b == b'\n')
        .ok_or_else(|| format("no header line".into()))?;
    if &map[..first] != MAGIC.as_bytes() {
        return Err(format(format!("first line is not \"{MAGIC}\"")));
    }
    let rest = &map[first + 1..];
    let second = rest
        .iter()
        .position(|&b| b == b'\n')
        .ok_or_else(|| format("no metadata line".into()))?;
    let header: Header =
        serde_json::from_slice(&rest[..second]).map_err(|e| format(format!("metadata: {e}")))?;
    Ok((header, first + 1 + second + 1))
}

pub(crate) fn bytes(v: &[i8]) -> &[u8] {
    // i8 and u8 have the same layout.
    unsafe { std::slice::from_raw_parts(v.as_ptr() as *const u8, v.len()) }
}

/// Where a build keeps its finished classes until the file is complete.
pub fn partial_dir(path: &Path) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(".partial");
    PathBuf::from(s)
}

pub(crate) fn write_class_file(file: &Path, name: &str, values: &[i8]) -> Result<(), DbError> {
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
pub(crate) fn read_class_file(
    file: &Path,
    name: &str,
    positions: u64,
) -> Result<Option<Vec<i8>>, DbError> {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The checksum as first written, over the whole slice at once: files written before
    /// [`Checksum`] must still load.
    fn whole(bytes: &[u8]) -> u64 {
        let mut h: u64 = 0x6D61_6E63_616C_6121 ^ bytes.len() as u64;
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            h = mancala_core::hash::mix64(h ^ u64::from_le_bytes(c.try_into().unwrap()));
        }
        let mut tail = [0u8; 8];
        tail[..chunks.remainder().len()].copy_from_slice(chunks.remainder());
        mancala_core::hash::mix64(h ^ u64::from_le_bytes(tail))
    }

    #[test]
    fn a_checksum_fed_in_pieces_is_the_checksum_of_the_whole() {
        let bytes: Vec<u8> = (0..61u32).map(|i| (i * 37 % 251) as u8).collect();
        for len in 0..bytes.len() {
            let b = &bytes[..len];
            assert_eq!(checksum(b), whole(b), "{len}");
            for piece in 1..10 {
                let mut c = Checksum::new(len as u64);
                b.chunks(piece).for_each(|p| c.update(p));
                assert_eq!(c.finish(), whole(b), "{len} in pieces of {piece}");
            }
        }
    }
}
