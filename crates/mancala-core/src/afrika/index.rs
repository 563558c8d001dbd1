//! Afrika positions indexed by the stones on the board, for endgame databases.
//!
//! Under the standard ending and the shared-stones repetition rule the rest of the game
//! does not depend on what was captured before, so a class is all distributions of `s`
//! stones over the 2m holes, with either player to move; its values are relative to the
//! captured margin ([`crate::Game::banked`]).

use crate::game::Game;
use crate::index::catalog::{Catalogued, Shelf};
use crate::index::{BINOMIALS, Indexed};

use super::rules::{Afrika, Ending, MAX_ROW, Repetition, Rules};

/// All positions with `stones` on a 2 x `m` board.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct StonesOnBoard {
    pub m: u8,
    pub stones: u8,
}

impl Indexed for Afrika {
    type Class = StonesOnBoard;

    fn class(&self) -> Option<StonesOnBoard> {
        let r = self.rules();
        (r.ending == Ending::Empty && r.repetition == Repetition::Shared).then(|| StonesOnBoard {
            m: self.holes_per_row() as u8,
            stones: self.on_board() as u8,
        })
    }

    fn classes_up_to(c: &StonesOnBoard) -> Vec<StonesOnBoard> {
        let with = |stones| StonesOnBoard { stones, ..*c };
        (0..=c.stones).map(with).collect()
    }

    fn class_size(c: &StonesOnBoard) -> u64 {
        BINOMIALS.with_either_mover(c.stones as usize, 2 * c.m as usize)
    }

    #[inline]
    fn index(&self) -> u64 {
        BINOMIALS.rank_with_mover(self.holes(), self.to_move())
    }

    fn from_index(c: &StonesOnBoard, i: u64) -> Self {
        let n = 2 * c.m as usize;
        let mut holes = [0u8; 2 * MAX_ROW];
        let to_move = BINOMIALS.unrank_with_mover(c.stones as usize, i, &mut holes[..n]);
        Afrika::from_parts(&holes[..n], [0, 0], to_move, Rules::default())
            .expect("an indexed position is valid")
    }

    fn class_name(c: &StonesOnBoard) -> String {
        format!(
            "afrika 2x{} standard, {} stones on the board",
            c.m, c.stones
        )
    }
}

/// Afrika databases: one per board width, standard rules, classes of 0..=k stones.
impl Catalogued for Afrika {
    fn shelf(&self) -> Option<Shelf> {
        self.class().map(|c| Shelf {
            game: super::INFO.name,
            board: format!("2x{}", c.m),
            variant: "standard".into(),
        })
    }

    fn classes(&self, k: u8) -> Vec<StonesOnBoard> {
        let m = self.holes_per_row() as u8;
        Afrika::classes_up_to(&StonesOnBoard { m, stones: k })
    }

    fn scope(&self, k: u8) -> String {
        format!("2x{}, up to {k} stones on the board", self.holes_per_row())
    }

    fn rules_held() -> &'static str {
        "the standard rules only"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_round_trips_over_small_classes() {
        for m in 1..=3u8 {
            for stones in 0..=5u8 {
                let c = StonesOnBoard { m, stones };
                for i in 0..Afrika::class_size(&c) {
                    let g = Afrika::from_index(&c, i);
                    assert_eq!(g.class(), Some(c));
                    assert_eq!(g.index(), i);
                }
            }
        }
    }

    #[test]
    fn variants_whose_values_depend_on_captures_have_no_class() {
        let g = Afrika::start(
            2,
            1,
            Rules {
                ending: Ending::Majority,
                ..Rules::default()
            },
        );
        assert_eq!(g.class(), None);
        let g = Afrika::start(
            2,
            1,
            Rules {
                repetition: Repetition::OwnSide,
                ..Rules::default()
            },
        );
        assert_eq!(g.class(), None);
        // Komi only shifts reported values: same class.
        let g = Afrika::start(
            2,
            1,
            Rules {
                komi_half: 5,
                ..Rules::default()
            },
        );
        assert_eq!(g.class(), Some(StonesOnBoard { m: 2, stones: 4 }));
    }
}
