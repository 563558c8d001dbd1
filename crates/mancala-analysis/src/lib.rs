//! Studies of particular games, built on the generic solver: the solver crate stays
//! game-agnostic, and what only one game needs (its published problems, its pie rule, its
//! tie-break phase) lives here.
//!
//! - [`reconstruct`]: the lost Afrika problem diagrams, recovered from the published lines.
//! - [`andada_pie`]: the value of every Andada opening and of the pie decision after it,
//!   read from a retrograde database of the regular phase.

pub mod andada_pie;
pub mod reconstruct;
