//! Kalah (Irving, Donkers and Uiterwijk, "Solving Kalah", 2000): the validation game.
//!
//! - [`rules`]: the state and the [`Game`](crate::Game) implementation;
//! - [`notation`]: move notation and the one-line position format;
//! - [`diagram`]: the board as drawn.
//!
//! The rules are stated in `docs/rules-kalah.md`.

pub mod diagram;
pub mod index;
pub mod notation;
pub mod record;
pub mod rules;

pub use rules::{Capture, Kalah, KalahMove, Rules};

crate::registry::register! {
    Kalah: "kalah", aliases [], examples "kalah:6x4 (holes per row x seeds)",
    sizes HolesByStones, holes (1, 12), index true
}
