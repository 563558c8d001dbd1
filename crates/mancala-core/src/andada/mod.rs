//! Andada (the Kunama of Eritrea, after Pankhurst 1971): seed 004.
//!
//! - [`rules`]: the state and the [`Game`](crate::Game) implementation;
//! - [`notation`]: move notation and the one-line position format;
//! - [`diagram`]: the board as drawn.
//!
//! The rule decisions are argued in `docs/rules-andada.md`.

pub mod diagram;
pub mod index;
pub mod notation;
pub mod record;
pub mod rules;
mod sowing;

pub use rules::{Andada, AndadaMove, Direction, Endless, Phase, Rules, Sowing};

crate::registry::register! {
    Andada: "andada", aliases [], examples "andada:6 (holes per row, a multiple of 3)",
    sizes Holes { multiple: 3 }, holes (3, 24), index true
}
