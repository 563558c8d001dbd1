//! Helpers shared by the solver's integration tests.
//!
//! Each test file is its own crate and uses a part of these only.
#![allow(dead_code)]

use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64};

use mancala_core::Game;
use mancala_core::game::{SplitMix, random_line};
use mancala_core::kalah::Kalah;
use mancala_core::progressive::{Ending, Progressive};
use mancala_solver::search::{Searcher, Shared, Techniques};
use mancala_solver::tt::Table;
use mancala_solver::{Config, Solver};

/// What a test's solver computes besides the root value.
#[derive(Clone, Copy, Debug)]
pub enum Wants {
    /// The value of every root move and a principal variation (the defaults).
    Everything,
    /// A principal variation, but not the value of every root move.
    Pv,
    /// The root value alone: neither the root moves' values nor a principal variation.
    ValueOnly,
}

/// A solver of `threads` threads and a `tt_mb` MB table, otherwise the default
/// configuration, that computes what `wants` says.
pub fn solver(threads: usize, tt_mb: usize, wants: Wants) -> Solver {
    let defaults = Config::default();
    let (all_moves, max_pv) = match wants {
        Wants::Everything => (defaults.all_moves, defaults.max_pv),
        Wants::Pv => (false, defaults.max_pv),
        Wants::ValueOnly => (false, 0),
    };
    Solver::new(Config {
        threads,
        tt_mb,
        all_moves,
        max_pv,
        ..defaults
    })
}

/// The exact value of `g` by one serial searcher with the techniques `tech` and the
/// (possibly warm) table `tt`.
pub fn serial<G: Game>(g: &G, tech: Techniques, tt: &Table) -> i32 {
    let abort = AtomicBool::new(false);
    let nodes = AtomicU64::new(0);
    let shared = Shared {
        tt,
        abort: &abort,
        nodes: &nodes,
        stop: None,
        depth: None,
    };
    let mut s = Searcher::new(&shared, tech, 0, g);
    s.exact(g, 0).unwrap()
}

/// A random position `plies` moves into a random playout from `start`.
pub fn walk<G: Game>(start: G, rng: &mut SplitMix, plies: usize) -> G {
    *random_line(start, rng, plies).last().unwrap()
}

/// A random small Kalah position: 1-4 holes a side, 1-3 seeds a hole, 0-5 plies in.
pub fn small_kalah(rng: &mut SplitMix, rules: mancala_core::kalah::Rules) -> Kalah {
    let m = 1 + rng.below(4);
    let n = 1 + rng.below(3) as u8;
    let plies = rng.below(6);
    walk(Kalah::start(m, n, rules), rng, plies)
}

/// A random small Progressive position: 1 x 3, 5 or 7, 1-3 seeds a hole, 0-7 plies in.
pub fn small_progressive(rng: &mut SplitMix, ending: Ending) -> Progressive {
    let n = [3, 5, 7][rng.below(3)];
    let k = 1 + rng.below(3) as u8;
    let plies = rng.below(8);
    walk(Progressive::start(n, k, ending), rng, plies)
}

/// The path `name` in a fresh directory of its own under the system's temporary
/// directory, named `mancala-{tag}-` and a random suffix (so that one left behind says
/// which test made it); nothing is created at the path itself. The directory is removed
/// with all in it (the file, a database's `.partial` directory beside it) when the guard
/// returned is dropped: at the end of the test, pass or fail. Keep the guard in a named
/// binding until the test ends (`let path = temp_path(..)`, not `let _ = ..`); it
/// dereferences to the path.
pub fn temp_path(tag: &str, name: &str) -> TempPath {
    let dir = tempfile::Builder::new()
        .prefix(&format!("mancala-{tag}-"))
        .tempdir()
        .unwrap();
    TempPath {
        path: dir.path().join(name),
        _dir: dir,
    }
}

/// A path in a test's temporary directory (see [`temp_path`]), removed when dropped.
pub struct TempPath {
    path: PathBuf,
    _dir: tempfile::TempDir,
}

impl Deref for TempPath {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.path
    }
}

impl AsRef<Path> for TempPath {
    fn as_ref(&self) -> &Path {
        &self.path
    }
}
