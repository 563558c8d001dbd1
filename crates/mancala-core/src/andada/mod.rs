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

pub use rules::{Andada, AndadaMove, Direction, Endless, Phase, Rules, Sowing};

/// The registry entry of Andada.
pub const INFO: crate::registry::GameInfo = crate::registry::GameInfo {
    kind: crate::registry::GameKind::Andada,
    name: "andada",
    aliases: &[],
    examples: "andada:6 (holes per row, a multiple of 3)",
    sizes: crate::registry::Sizes::Holes { multiple: 3 },
    holes: (3, 24),
    has_index: true,
};

impl crate::registry::Registered for Andada {
    const INFO: &'static crate::registry::GameInfo = &INFO;
}
