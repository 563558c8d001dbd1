//! Helpers shared by the cross-check tests.

use std::sync::atomic::{AtomicBool, AtomicU64};

use mancala_core::Game;
use mancala_solver::search::{Searcher, Shared, Techniques};
use mancala_solver::tt::Table;

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
