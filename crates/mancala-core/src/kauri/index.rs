//! The tie-break phase of Kauri's old rules indexed for retrograde analysis: no seeds
//! left, equal captures, only cowries moving ("the game continues until one player can't
//! move"). One class per number of cowries (12 in every real game): all distributions of
//! the cowries over the 12 holes, with either player to move (2,704,156 positions).

use crate::game::Game;
use crate::index::catalog::{Catalogued, Shelf};
use crate::index::{BINOMIALS, Indexed};

use super::rules::{HOLES, Kauri, Rules};

/// The tie-break phase of every real game: all 12 cowries on the board.
pub const TIEBREAK_PHASE: TieBreakPhase = TieBreakPhase { cowries: 12 };

/// The cowries-only tie-break positions with `cowries` cowries on the board.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct TieBreakPhase {
    pub cowries: u8,
}

impl Indexed for Kauri {
    type Class = TieBreakPhase;

    fn class(&self) -> Option<TieBreakPhase> {
        let s = self.stores();
        (self.rules() == Rules::TieBreak && self.on_board() == 0 && s[0] == s[1]).then(|| {
            TieBreakPhase {
                cowries: self.cowries().iter().sum(),
            }
        })
    }

    /// The tie-break phase is one class: captures end it.
    fn classes_up_to(c: &TieBreakPhase) -> Vec<TieBreakPhase> {
        vec![*c]
    }

    fn class_size(c: &TieBreakPhase) -> u64 {
        BINOMIALS.with_either_mover(c.cowries as usize, HOLES)
    }

    fn index(&self) -> u64 {
        BINOMIALS.rank_with_mover(self.cowries(), self.to_move())
    }

    fn from_index(c: &TieBreakPhase, i: u64) -> Self {
        let mut cowries = [0u8; HOLES];
        let to_move = BINOMIALS.unrank_with_mover(c.cowries as usize, i, &mut cowries);
        Kauri::from_parts([0; HOLES], cowries, [0, 0], to_move, Rules::TieBreak)
            .expect("an indexed position is valid")
    }

    fn class_name(c: &TieBreakPhase) -> String {
        format!("kauri tiebreak, cowries-only phase, {} cowries", c.cowries)
    }
}

/// The Kauri database: the tie-break phase of the old rules, one class of all 12 cowries.
impl Catalogued for Kauri {
    fn shelf(&self) -> Option<Shelf> {
        (self.rules() == Rules::TieBreak).then(|| Shelf {
            game: super::INFO.name,
            board: "2x6".into(),
            variant: "tiebreak".into(),
        })
    }

    fn classes(&self, _k: u8) -> Vec<TieBreakPhase> {
        vec![TIEBREAK_PHASE]
    }

    fn scope(&self, _k: u8) -> String {
        "tiebreak cowries-only phase".into()
    }

    fn rules_held() -> &'static str {
        "the old tie-breaker rules only (--rules tiebreak)"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player::Player;

    #[test]
    fn index_round_trips_and_sizes() {
        for cowries in 0..=4u8 {
            let c = TieBreakPhase { cowries };
            for i in 0..Kauri::class_size(&c) {
                let g = Kauri::from_index(&c, i);
                assert_eq!(g.class(), Some(c));
                assert_eq!(g.index(), i);
            }
        }
        assert_eq!(Kauri::class_size(&TieBreakPhase { cowries: 12 }), 2_704_156);
    }

    #[test]
    fn only_the_tie_break_phase_has_a_class() {
        assert_eq!(Kauri::start(Rules::TieBreak).class(), None);
        let end = Kauri::from_parts(
            [0; HOLES],
            [1; HOLES],
            [30, 30],
            Player::First,
            Rules::Current,
        )
        .unwrap();
        assert_eq!(end.class(), None);
        let tb = Kauri::from_parts(
            [0; HOLES],
            [1; HOLES],
            [30, 30],
            Player::First,
            Rules::TieBreak,
        )
        .unwrap();
        assert_eq!(tb.class(), Some(TieBreakPhase { cowries: 12 }));
        let won = Kauri::from_parts(
            [0; HOLES],
            [1; HOLES],
            [31, 29],
            Player::First,
            Rules::TieBreak,
        )
        .unwrap();
        assert_eq!(won.class(), None);
    }
}
