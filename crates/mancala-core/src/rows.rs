//! Two-row boards: hole indices, rows and hole letters shared by Afrika, Kauri, Andada
//! and Kalah.
//!
//! Holes are indexed in sowing (counterclockwise) order: `0..m` is South's row from
//! South's left to right, `m..2m` North's row from North's left to right. Opposite holes
//! therefore sum to `2m - 1`. Letters follow the convention of the published Afrika
//! games (seed 000: "both times as viewed from left to right by its respective owner"):
//! South's holes are `A, B, ...` and North's `a, b, ...`, each from its owner's left.

use crate::error::ParseError;
use crate::player::Player;

/// A row of a two-row board.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Row {
    South,
    North,
}

impl Row {
    pub fn name(self) -> &'static str {
        match self {
            Row::South => "South",
            Row::North => "North",
        }
    }
    pub fn other(self) -> Row {
        match self {
            Row::South => Row::North,
            Row::North => Row::South,
        }
    }
    /// The row player `p` owns when the first player sits on `first`.
    #[inline(always)]
    pub fn of(p: Player, first: Row) -> Row {
        match p {
            Player::First => first,
            Player::Second => first.other(),
        }
    }
    /// The owner of this row when the first player sits on `first`.
    #[inline(always)]
    pub fn owner(self, first: Row) -> Player {
        if self == first {
            Player::First
        } else {
            Player::Second
        }
    }
    /// First index of this row on a board of `m` holes per row.
    #[inline(always)]
    pub fn start(self, m: usize) -> usize {
        match self {
            Row::South => 0,
            Row::North => m,
        }
    }
}

/// Where the first player sits on a two-row board, and so which row each player owns.
pub trait Seated {
    /// The first player's row.
    const FIRST_ROW: Row;

    /// The row a player owns.
    #[inline(always)]
    fn row(p: Player) -> Row {
        Row::of(p, Self::FIRST_ROW)
    }

    /// The player owning a row.
    #[inline(always)]
    fn owner(row: Row) -> Player {
        row.owner(Self::FIRST_ROW)
    }
}

/// The row a hole belongs to.
#[inline(always)]
pub fn row_of(hole: usize, m: usize) -> Row {
    if hole < m { Row::South } else { Row::North }
}

/// The hole across the board.
#[inline(always)]
pub fn opposite(hole: usize, m: usize) -> usize {
    2 * m - 1 - hole
}

/// The letter of a hole: `A..` for South's row, `a..` for North's.
pub fn letter(hole: usize, m: usize) -> char {
    let i = (hole % m) as u8;
    match row_of(hole, m) {
        Row::South => (b'A' + i) as char,
        Row::North => (b'a' + i) as char,
    }
}

/// The hole named by a letter on a board of `m` holes per row.
pub fn hole_of_letter(c: char, m: usize) -> Result<usize, ParseError> {
    let bad = || {
        ParseError::new(format!(
            "unknown hole \"{c}\": holes are A-{} (South) and a-{} (North)",
            (b'A' + m as u8 - 1) as char,
            (b'a' + m as u8 - 1) as char
        ))
    };
    if c.is_ascii_uppercase() {
        let i = (c as u8 - b'A') as usize;
        if i < m { Ok(i) } else { Err(bad()) }
    } else if c.is_ascii_lowercase() {
        let i = (c as u8 - b'a') as usize;
        if i < m { Ok(m + i) } else { Err(bad()) }
    } else {
        Err(bad())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_round_trip_and_opposites_pair_up() {
        for m in 1..=12 {
            for h in 0..2 * m {
                assert_eq!(hole_of_letter(letter(h, m), m).unwrap(), h);
                assert_eq!(opposite(opposite(h, m), m), h);
                assert_ne!(row_of(h, m), row_of(opposite(h, m), m));
            }
        }
        // Seed 000 naming: A (South's leftmost) faces h (North's rightmost, seen by North).
        assert_eq!(letter(opposite(hole_of_letter('A', 8).unwrap(), 8), 8), 'h');
        assert!(hole_of_letter('i', 8).is_err());
        assert!(hole_of_letter('3', 8).is_err());
    }
}
