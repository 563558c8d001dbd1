//! Exact game-tree search over the [`mancala_core::Game`] trait: a lock-free
//! transposition table, one generic alpha-beta, a parallel solver, and a plain minimax
//! reference for cross-checks.

pub mod checkpoint;
pub mod horizon;
pub mod limit;
pub mod minimax;
pub mod path;
pub mod proof;
pub mod retro;
pub mod search;
pub mod solve;
pub mod strategies;
pub mod tt;

pub use search::{Bracket, Deepening, Start, Techniques};
pub use solve::{
    Config, Progress, Proven, PvEnd, SEARCH_STACK, Solution, Solver, on_search_stack,
    root_fingerprint,
};
