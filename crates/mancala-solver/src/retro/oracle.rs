//! Exact leaf values for the search from retrograde tables.

use mancala_core::Game;
use mancala_core::index::Indexed;

use super::db::Database;

/// Something that knows the exact value of some positions.
pub trait Oracle<G: Game>: Sync {
    /// The exact value of `g` for its player to move (banked part included), if known.
    fn probe(&self, g: &G) -> Option<i32>;

    /// Whether `g` may be known, starting to fetch what [`Oracle::probe`] of `g` will
    /// read (a hint: no effect on results). False only when [`Oracle::probe`] of `g`
    /// would return `None`, so the search need not probe it at all.
    fn prefetch(&self, _g: &G) -> bool {
        true
    }
}

impl<G: Indexed> Oracle<G> for Database<G> {
    #[inline]
    fn probe(&self, g: &G) -> Option<i32> {
        self.value(g)
    }

    #[inline]
    fn prefetch(&self, g: &G) -> bool {
        self.prefetch(g)
    }
}
