//! The two players, named by the order in which they move at the start of a game.

use serde::{Deserialize, Serialize};

/// A player. `First` is the player who moves first from the game's standard start
/// position (North in Afrika and Kauri, East in Progressive Mancala, South in Andada and
/// Kalah); positions may have either player to move.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord, Serialize, Deserialize)]
#[repr(u8)]
pub enum Player {
    First = 0,
    Second = 1,
}

impl Player {
    pub const BOTH: [Player; 2] = [Player::First, Player::Second];

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline(always)]
    pub const fn opponent(self) -> Player {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::First,
        }
    }

    #[inline(always)]
    pub const fn from_index(i: usize) -> Player {
        if i == 0 {
            Player::First
        } else {
            Player::Second
        }
    }

    /// +1 for `First`, -1 for `Second`: turns a value seen by `self` into the first
    /// player's point of view.
    #[inline(always)]
    pub const fn sign(self) -> i32 {
        match self {
            Player::First => 1,
            Player::Second => -1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opponent_is_an_involution() {
        for p in Player::BOTH {
            assert_ne!(p, p.opponent());
            assert_eq!(p, p.opponent().opponent());
            assert_eq!(Player::from_index(p.index()), p);
        }
        assert_eq!(Player::First.sign() + Player::Second.sign(), 0);
    }
}
