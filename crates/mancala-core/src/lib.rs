//! Board representation, rules and notation of the mancala games the project solves.
//!
//! Every game implements [`Game`]: a small `Copy` state, legal moves into a reusable buffer,
//! copy-make [`Game::play`], a terminal test, a final value, and a 64-bit key. Search,
//! statistics and retrograde analysis are written once against that trait (in
//! `mancala-solver`); this crate holds rules and notation only.

pub mod afrika;
pub mod andada;
pub mod diagram;
pub mod error;
pub mod game;
pub mod hash;
pub mod index;
pub mod kalah;
pub mod kauri;
pub mod lanes;
pub mod player;
pub mod progressive;
pub mod record;
pub mod registry;
pub mod rows;
#[cfg(test)]
pub(crate) mod test_util;
pub mod text;
pub mod twin;

pub use error::{Located, ParseError};
pub use game::{Game, MAX_MOVES, MOVE_SLOTS, Moves, Notation, PositionText};
pub use player::Player;
