//! Andada positions of the regular phase indexed by the seeds on the board, for strong
//! solutions of small boards. Captures and bear-off only remove seeds, so a class (all
//! distributions of `seeds` over the 2n holes, either player to move) only leaves for
//! classes with fewer seeds.

use crate::game::Game;
use crate::index::catalog::{Catalogued, Shelf};
use crate::index::{BINOMIALS, Indexed};

use super::rules::{Andada, CELLS, Phase, Rules};

/// All regular-phase positions with `seeds` on a 2 x `n` board under `rules`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct SeedsOnBoard {
    pub n: u8,
    pub seeds: u8,
    pub rules: Rules,
}

impl Indexed for Andada {
    type Class = SeedsOnBoard;

    fn class(&self) -> Option<SeedsOnBoard> {
        (self.phase() == Phase::Play).then(|| SeedsOnBoard {
            n: self.holes_per_row() as u8,
            seeds: self.on_board() as u8,
            rules: self.rules(),
        })
    }

    fn classes_up_to(c: &SeedsOnBoard) -> Vec<SeedsOnBoard> {
        let with = |seeds| SeedsOnBoard { seeds, ..*c };
        (0..=c.seeds).map(with).collect()
    }

    fn class_size(c: &SeedsOnBoard) -> u64 {
        BINOMIALS.with_either_mover(c.seeds as usize, 2 * c.n as usize)
    }

    fn index(&self) -> u64 {
        BINOMIALS.rank_with_mover(self.holes(), self.to_move())
    }

    fn from_index(c: &SeedsOnBoard, i: u64) -> Self {
        let cells = 2 * c.n as usize;
        let mut holes = [0u8; CELLS];
        let to_move = BINOMIALS.unrank_with_mover(c.seeds as usize, i, &mut holes[..cells]);
        Andada::from_parts(&holes[..cells], to_move, Phase::Play, c.rules)
            .expect("an indexed position is valid")
    }

    fn class_name(c: &SeedsOnBoard) -> String {
        format!(
            "andada 2x{} {}, {} seeds on the board",
            c.n,
            c.rules.variant_name(),
            c.seeds
        )
    }
}

/// Andada databases: one per board and rule variant, classes of 0..=k seeds; with every
/// class (4n seeds) the strong solution.
impl Catalogued for Andada {
    fn shelf(&self) -> Option<Shelf> {
        Some(Shelf {
            game: super::INFO.name,
            board: format!("2x{}", self.holes_per_row()),
            variant: self.rules().variant_name(),
        })
    }

    fn classes(&self, k: u8) -> Vec<SeedsOnBoard> {
        let (n, rules) = (self.holes_per_row() as u8, self.rules());
        Andada::classes_up_to(&SeedsOnBoard { n, seeds: k, rules })
    }

    fn scope(&self, k: u8) -> String {
        let n = self.holes_per_row();
        if k as usize >= 4 * n {
            format!("2x{n}, all regular positions")
        } else {
            format!("2x{n}, regular positions with up to {k} seeds on the board")
        }
    }

    fn rules_held() -> &'static str {
        "every rule variant"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_round_trips() {
        for seeds in 0..=6u8 {
            let c = SeedsOnBoard {
                n: 3,
                seeds,
                rules: Rules::default(),
            };
            for i in 0..Andada::class_size(&c) {
                let g = Andada::from_index(&c, i);
                assert_eq!(g.class(), Some(c));
                assert_eq!(g.index(), i);
            }
        }
        assert_eq!(Andada::start(3, Rules::default()).class(), None);
    }
}
