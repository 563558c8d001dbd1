//! Helpers shared by the solver's integration tests.
//!
//! Each test file is its own crate and uses a part of these only.
#![allow(dead_code)]

use std::sync::atomic::{AtomicBool, AtomicU64};

use mancala_core::Game;
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
