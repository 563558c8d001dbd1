//! Afrika (Ralf Gering, 2004): seeds 000 and 001.
//!
//! - [`rules`]: the state and the [`Game`](crate::Game) implementation;
//! - [`notation`]: the published move notation and the one-line position format.

pub mod diagram;
pub mod index;
pub mod notation;
pub mod record;
pub mod rules;

pub use rules::{Afrika, AfrikaMove, Ending, Repetition, Rules};

/// The registry entry of Afrika.
pub const INFO: crate::registry::GameInfo = crate::registry::GameInfo {
    kind: crate::registry::GameKind::Afrika,
    name: "afrika",
    aliases: &[],
    examples: "afrika:8x8 or afrika:4x3 (holes per row x stones)",
    sizes: crate::registry::Sizes::HolesByStones,
    holes: (1, 12),
    has_index: true,
};

impl crate::registry::Registered for Afrika {
    const INFO: &'static crate::registry::GameInfo = &INFO;
}
