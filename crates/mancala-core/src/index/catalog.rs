//! Where a game's databases belong: the shelf (game, board, rules) of the databases that
//! can serve a position, the name of each file on it, and the classes it holds. The
//! solver's store finds and loads the files; the games only say what they are.

use super::Indexed;

/// The databases that fit one kind of position: same game, board and rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shelf {
    /// The game, as in file names and headers ("kalah").
    pub game: &'static str,
    /// The board, e.g. "2x6".
    pub board: String,
    /// The rules the values hold under, e.g. "empty-capture".
    pub variant: String,
}

impl Shelf {
    /// The file name of the database up to `k` seeds.
    pub fn file_name(&self, k: u8) -> String {
        format!("{}-{}-{}-{k}.db", self.game, self.board, self.variant)
    }

    /// The `k` of a file name of this shelf.
    pub fn parse(&self, name: &str) -> Option<u8> {
        let prefix = format!("{}-{}-{}-", self.game, self.board, self.variant);
        name.strip_prefix(&prefix)?
            .strip_suffix(".db")?
            .parse()
            .ok()
    }
}

/// A game whose databases have a place in the data directory.
pub trait Catalogued: Indexed {
    /// The shelf of the databases that can give values of this position's line of play
    /// (`None` when no database can: other rules, or a board no index covers).
    fn shelf(&self) -> Option<Shelf>;

    /// The classes of the database of this position's shelf up to `k` seeds, in file
    /// order (smallest first: each class only leaves for earlier ones).
    fn classes(&self, k: u8) -> Vec<Self::Class>;

    /// What the header's scope line says of the database up to `k`.
    fn scope(&self, k: u8) -> String;

    /// The rules the game's databases hold, for the error when a position's have none.
    fn rules_held() -> &'static str;
}
