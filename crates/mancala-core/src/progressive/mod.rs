//! Progressive Mancala (Ralf Gering, 2004): seed 002.
//!
//! - [`rules`]: the state and the [`Game`](crate::Game) implementation;
//! - [`notation`]: the published move notation and the one-line position format;
//! - [`record`]: how records name their start, rules and players;
//! - [`diagram`]: the board as drawn.
//!
//! Where the seed is silent, the readings follow the evidence of the two published games
//! (every one of their 26 plies replays with the exact recorded capture): hole `a` is the
//! leftmost; the goal lies between the two ends of the row in the sowing cycle; the start
//! hole is not skipped; a turn has 1 + k moves, k being the number of the opponent's moves
//! in his previous turn that ended in an empty hole; the game ends at once when a player
//! holds more than half of the stones.

pub mod diagram;
pub mod notation;
pub mod record;
pub mod rules;

pub use rules::{Ending, MoveEnd, Progressive, ProgressiveMove, Sowing};

crate::registry::register! {
    Progressive: "progressive", aliases [], examples "progressive:11 or progressive:17",
    sizes OddHolesOptionalStones, holes (3, 17), index false
}
