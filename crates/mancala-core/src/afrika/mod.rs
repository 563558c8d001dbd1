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

crate::registry::register! {
    Afrika: "afrika", aliases [], examples "afrika:8x8 or afrika:4x3 (holes per row x stones)",
    sizes HolesByStones, holes (1, 12), index true
}
