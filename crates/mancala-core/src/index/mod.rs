//! Perfect indices of classes of positions, for retrograde analysis: every position of a
//! class has a number `0..size`, and every number names one position.
//!
//! A class is closed under the moves that stay in it; moves that leave it (captures, which
//! only ever remove stones) lead to classes solved before it.

pub mod catalog;
pub mod combin;

use std::fmt::Debug;
use std::hash::Hash;
use std::sync::LazyLock;

use crate::game::Game;

pub use combin::Binomials;

/// Binomial coefficients shared by every index.
pub static BINOMIALS: LazyLock<Binomials> = LazyLock::new(Binomials::default);

/// A game whose positions fall into perfectly indexed classes.
pub trait Indexed: Game {
    /// What names a class: for example the board size, the rules and the stones on the
    /// board.
    type Class: Copy + Eq + Hash + Debug + Send + Sync + 'static;

    /// The class of this position, if it belongs to an indexed one.
    fn class(&self) -> Option<Self::Class>;

    /// Number of positions in a class.
    fn class_size(c: &Self::Class) -> u64;

    /// The classes a database holding `c` is built from, in build order (each class's
    /// moves leave only for earlier ones), `c` last: the same board and rules with fewer
    /// stones.
    fn classes_up_to(c: &Self::Class) -> Vec<Self::Class>;

    /// This position's number within its class (the class must be `Some`).
    fn index(&self) -> u64;

    /// The position numbered `i` in class `c`. Captured totals are whatever the class
    /// fixes (zero where they do not matter): values in a class are kept relative to
    /// [`Game::banked`].
    fn from_index(c: &Self::Class, i: u64) -> Self;

    /// A short name for file headers and messages, e.g. "afrika 2x8 standard, 12 stones".
    fn class_name(c: &Self::Class) -> String;

    /// Whether [`Indexed::index`] numbers this position as its colour-swapped twin: games
    /// symmetric between the players may index relative to the side to move, so that the
    /// twin with the other player to move shares the entry (the value for the player to
    /// move, relative to [`Game::banked`], is the same). [`Indexed::from_index`] always
    /// gives the unmirrored representative.
    fn mirrored(&self) -> bool {
        false
    }

    /// Whether no line of play stays inside class `c` for ever (its moves within the
    /// class form no cycle). Such a class is solved in one pass, children first, instead
    /// of sweeping to a fixed point.
    fn class_acyclic(_c: &Self::Class) -> bool {
        false
    }
}
