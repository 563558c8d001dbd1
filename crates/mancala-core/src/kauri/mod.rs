//! Kauri (Ralf Gering, 2006): seed 003.
//!
//! - [`rules`]: the state and the [`Game`](crate::Game) implementation;
//! - [`notation`]: the published move notation and the one-line position format;
//! - [`record`]: how records name their start, rules and players;
//! - [`diagram`]: the board as drawn.
//!
//! Where the seed is silent, the readings follow the evidence of the four published games
//! (games 2 and 3 replay with every annotation and the final score; games 1 and 4 with the
//! recording slips pinned in `tests/kauri_records.rs`):
//!
//! - each row is named from its owner's left (`a..f` for North, `A..F` for South) and
//!   sowing runs `a..f` then `A..F`, so `A` faces `f`; North moves first;
//! - a sowing of 12 or more counters drops its 12th counter back into the start hole (no
//!   skipping: game 2, 4...D then 5.a (-1));
//! - a direct capture takes the seeds sown into the hole earlier in the same move; a
//!   cowrie into an empty opponent hole takes nothing and stays, belonging from then on to
//!   that row's owner; a seed into the mover's own cowrie-only hole stays;
//! - passes are never written: while seeds are on the board and the opponent has no
//!   cowrie, the same player moves again ("d-a-f", "B-B-A");
//! - under the old tie-breaker ([`Rules::TieBreak`]) the cowrie-only phase has no passes:
//!   the player to move without a cowrie loses (the published continuation
//!   "5,5,4,4,..." is that phase after the end of game 4, South winning).
//!
//! Two points no record settles, taken literally: a second seed into an opponent hole that
//! still holds only cowries is captured too; and (the project's rule, the seed gives none)
//! a position that recurs ends the game with nothing more gained.

pub mod diagram;
pub mod index;
pub mod notation;
pub mod record;
pub mod rules;

pub use rules::{Kauri, KauriMove, Rules};

crate::registry::register! {
    Kauri: "kauri", aliases [], examples "kauri",
    sizes Fixed, holes (6, 6), index true
}
