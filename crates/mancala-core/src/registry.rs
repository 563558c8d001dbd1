//! The registry of games: each game described once, so that the command line, the tables,
//! the statistics and the tests iterate it instead of naming games themselves.
//!
//! A game registers by implementing [`Registered`] (a [`GameInfo`] beside its rules) and
//! by one line in [`GameKind`] and [`with_game_type!`](crate::with_game_type); everything
//! that takes a game by name goes through [`find`].

use crate::diagram::Diagram;
use crate::error::ParseError;
use crate::record::{RecordGame, Tags};

/// Which registered game: the key the generic code dispatches on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameKind {
    Afrika,
    Kauri,
    Progressive,
    Andada,
    Kalah,
}

/// How a named start's size (`afrika:4x3`, `andada:6`) reads, and which sizes exist.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sizes {
    /// One board only (`kauri`).
    Fixed,
    /// `HxS`: holes per row and stones per hole, both required.
    HolesByStones,
    /// `H` or `HxS`, where the holes must be odd (a central hole by the goal).
    OddHolesOptionalStones,
    /// `H`: holes per row, a multiple of `multiple`; the stones per hole are fixed.
    Holes { multiple: u32 },
}

/// What is known about a game without its type.
#[derive(Debug)]
pub struct GameInfo {
    pub kind: GameKind,
    /// The name in `[Game "..."]` tags, position lines and on the command line.
    pub name: &'static str,
    /// Other names accepted for it (lower case).
    pub aliases: &'static [&'static str],
    /// Examples of named starts, for help and error messages.
    pub examples: &'static str,
    pub sizes: Sizes,
    /// The smallest and the largest number of holes per row the rules accept.
    pub holes: (u32, u32),
    /// Whether the game has a retrograde index (perfect hash of positions).
    pub has_index: bool,
}

/// A game as the registry sees it: records, diagrams and its description.
pub trait Registered: RecordGame + Diagram {
    const INFO: &'static GameInfo;
}

/// Defines a game's `INFO` entry and its `impl Registered`, in the game's own module:
/// `register! { Afrika: "afrika", aliases [], examples "...", sizes HolesByStones,
/// holes (1, 12), index true }`.
macro_rules! register {
    ($ty:ident: $name:literal, aliases [$($alias:literal),*], examples $examples:literal,
     sizes $($sizes:tt)+) => {
        $crate::registry::register!(@entry $ty, $name, [$($alias),*], $examples, $($sizes)+);
    };
    (@entry $ty:ident, $name:literal, [$($alias:literal),*], $examples:literal,
     $sizes:ident $({ $($f:tt)* })?, holes ($lo:literal, $hi:literal), index $index:literal) => {
        /// The registry entry of this game.
        pub const INFO: $crate::registry::GameInfo = $crate::registry::GameInfo {
            kind: $crate::registry::GameKind::$ty,
            name: $name,
            aliases: &[$($alias),*],
            examples: $examples,
            sizes: $crate::registry::Sizes::$sizes $({ $($f)* })?,
            holes: ($lo, $hi),
            has_index: $index,
        };

        impl $crate::registry::Registered for $ty {
            const INFO: &'static $crate::registry::GameInfo = &INFO;
        }
    };
}
pub(crate) use register;

/// Every registered game, in the order help texts list them.
pub const GAMES: &[&GameInfo] = &[
    &crate::afrika::INFO,
    &crate::kauri::INFO,
    &crate::progressive::INFO,
    &crate::andada::INFO,
    &crate::kalah::INFO,
];

/// A name that is no registered game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown game \"{name}\" (known games: {known})")]
pub struct UnknownGame {
    pub name: String,
    pub known: String,
}

/// The game a name or alias denotes, case and surrounding space ignored.
pub fn find(name: &str) -> Result<&'static GameInfo, UnknownGame> {
    let n = name.trim().to_lowercase();
    GAMES
        .iter()
        .copied()
        .find(|g| g.name == n || g.aliases.contains(&n.as_str()))
        .ok_or_else(|| UnknownGame {
            name: name.to_string(),
            known: names().join(", "),
        })
}

/// The names of the registered games.
pub fn names() -> Vec<&'static str> {
    GAMES.iter().map(|g| g.name).collect()
}

impl GameInfo {
    /// The record tags a named start's size describes: `4x3` gives `Board 2x4`,
    /// `Stones 3`; the empty size is the game's standard board.
    pub fn start_tags(&self, size: &str) -> Result<Tags, ParseError> {
        let mut t = Tags::default();
        if size.is_empty() {
            return Ok(t);
        }
        let bad = || {
            ParseError::new(format!(
                "\"{}:{size}\": unknown size (try {})",
                self.name, self.examples
            ))
        };
        let (holes, stones) = match (self.sizes, size.split_once('x')) {
            (Sizes::Holes { .. }, _) | (_, None) => (size, None),
            (_, Some((h, s))) => (h, Some(s)),
        };
        let (rows, stones) = match self.sizes {
            Sizes::Fixed => return Err(bad()),
            Sizes::HolesByStones => (2, Some(stones.ok_or_else(bad)?)),
            Sizes::OddHolesOptionalStones => (1, stones),
            Sizes::Holes { .. } => (2, None),
        };
        t.0.insert("Board".into(), format!("{rows}x{holes}"));
        if let Some(k) = stones {
            t.0.insert("Stones".into(), k.to_string());
        }
        Ok(t)
    }

    /// The named start of a board in a size table, or `None` where the game has no board
    /// of that size (Andada only on multiples of 3, Progressive only on odd rows).
    pub fn table_start(&self, holes: u32, stones: u32) -> Option<String> {
        match self.sizes {
            Sizes::Fixed => None,
            Sizes::HolesByStones => Some(format!("{}:{holes}x{stones}", self.name)),
            Sizes::OddHolesOptionalStones => {
                (holes % 2 == 1).then(|| format!("{}:{holes}x{stones}", self.name))
            }
            Sizes::Holes { multiple } => holes
                .is_multiple_of(multiple)
                .then(|| format!("{}:{holes}", self.name)),
        }
    }

    /// Whether the stones per hole can be chosen for a size table.
    pub fn stones_vary(&self) -> bool {
        !matches!(self.sizes, Sizes::Holes { .. })
    }
}

/// Runs `$body` with `$G` bound to the game type of a [`GameKind`]: the one place that
/// maps registry entries to types, used where generic code needs the type.
#[rustfmt::skip]
#[macro_export]
macro_rules! with_game_type {
    ($kind:expr, $G:ident => $body:expr) => {{
        use $crate::registry::GameKind as K;
        match $kind {
            K::Afrika => { type $G = $crate::afrika::Afrika; $body }
            K::Kauri => { type $G = $crate::kauri::Kauri; $body }
            K::Progressive => { type $G = $crate::progressive::Progressive; $body }
            K::Andada => { type $G = $crate::andada::Andada; $body }
            K::Kalah => { type $G = $crate::kalah::Kalah; $body }
        }
    }};
}

/// Like [`with_game_type!`], for the games with a retrograde index
/// ([`crate::index::Indexed`]): `Some(body)` with `$G` the game's type, `None` for the
/// others.
#[rustfmt::skip]
#[macro_export]
macro_rules! with_indexed_game_type {
    ($kind:expr, $G:ident => $body:expr) => {{
        use $crate::registry::GameKind as K;
        match $kind {
            K::Afrika => { type $G = $crate::afrika::Afrika; Some($body) }
            K::Kauri => { type $G = $crate::kauri::Kauri; Some($body) }
            K::Andada => { type $G = $crate::andada::Andada; Some($body) }
            K::Kalah => { type $G = $crate::kalah::Kalah; Some($body) }
            K::Progressive => None,
        }
    }};
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The registry's entries and the types' own names agree.
    #[test]
    fn every_entry_names_its_type() {
        for info in GAMES {
            let (name, own) = with_game_type!(info.kind, G => (G::NAME, G::INFO.name));
            assert_eq!(name, info.name);
            assert_eq!(own, info.name);
            assert_eq!(find(&info.name.to_uppercase()).unwrap().kind, info.kind);
            // The registry's index flag and the indexed dispatch agree.
            let indexed = with_indexed_game_type!(info.kind, G => G::NAME);
            assert_eq!(indexed.is_some(), info.has_index, "{}", info.name);
        }
        assert!(
            find("nogame")
                .unwrap_err()
                .to_string()
                .contains("known games")
        );
    }

    #[test]
    fn named_sizes_become_tags() {
        let afrika = find("afrika").unwrap();
        let t = afrika.start_tags("4x3").unwrap();
        assert_eq!((t.get("Board"), t.get("Stones")), (Some("2x4"), Some("3")));
        assert!(afrika.start_tags("4").is_err());
        assert!(find("kauri").unwrap().start_tags("6").is_err());
        let t = find("progressive").unwrap().start_tags("11").unwrap();
        assert_eq!((t.get("Board"), t.get("Stones")), (Some("1x11"), None));
        assert_eq!(find("andada").unwrap().table_start(4, 2), None);
        assert_eq!(
            find("andada").unwrap().table_start(6, 2).as_deref(),
            Some("andada:6")
        );
    }
}
