//! How Progressive Mancala records name their start, rules and players.
//!
//! A group of moves in a record ("c(+5)-a(+3)") is one turn, so the verifier checks the
//! grouping against the bonus-move rule.

use crate::error::ParseError;
use crate::player::Player;
use crate::record::{RecordGame, RuleChange, Tags, named_variant};

use super::rules::{Ending, Progressive, STANDARD_STONES};

/// The boards a `[Board]` tag may name, for its error message.
const BOARDS: &str = "expected 1xN with N odd from 3 to 17";

impl RecordGame for Progressive {
    const NAME: &'static str = super::INFO.name;

    /// `[Board "1xN"]` (default 1x11), `[Stones "K"]` (default 5) and `[Rules]`.
    fn standard_start(tags: &Tags) -> Result<Self, ParseError> {
        let defaults = (11, STANDARD_STONES);
        let (n, k) = tags.board_and_stones(1, defaults, Progressive::valid_size, BOARDS)?;
        Progressive::start(n, k, Ending::default()).apply_rule_tags(tags)
    }

    type Rules = Ending;

    /// `majority` (the default) or `all`.
    fn parse_rules(text: &str) -> Result<Ending, ParseError> {
        named_variant(text, Ending::parse, "Progressive Mancala", "majority, all")
    }

    /// An ending replaces the ending; the game has no komi (refused before this).
    fn change_rules(self, change: RuleChange<Ending>) -> Self {
        change.rules.map_or(self, |e| self.with_ending(e))
    }

    fn seat_names() -> [&'static str; 2] {
        ["East", "West"]
    }

    fn group_is_turn() -> bool {
        true
    }

    fn decided(&self) -> bool {
        Player::BOTH.iter().any(|&p| self.over_half(p))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::record::{start_from, start_position};

    #[test]
    fn tags_give_the_board_stones_and_rules() {
        let g: Progressive = start_from(&[]).unwrap();
        assert_eq!(g, Progressive::standard());
        let g: Progressive = start_from(&[("Board", "1x17"), ("Rules", "all")]).unwrap();
        assert_eq!(
            (g.holes_per_row(), g.total(), g.ending()),
            (17, 85, Ending::All)
        );
        let g: Progressive = start_from(&[("Board", "1x5"), ("Stones", "3")]).unwrap();
        assert_eq!((g.holes_per_row(), g.total()), (5, 15));
        for (k, v) in [
            ("Board", "2x11"),
            ("Board", "1x12"),
            ("Board", "1x19"),
            ("Stones", "five"),
            ("Rules", "65"),
        ] {
            assert!(start_from::<Progressive>(&[(k, v)]).is_err(), "{k} {v}");
        }
        assert!(start_from::<Progressive>(&[("Board", "1x17"), ("Stones", "16")]).is_err());
        let t = Tags::from_pairs(&[
            (
                "Start",
                "progressive holes:1,2,3 goal:0 to-move:west moves-left:2",
            ),
            ("Rules", "all"),
        ]);
        let g: Progressive = start_position(&t).unwrap();
        assert_eq!(
            (g.to_move(), g.moves_left(), g.ending()),
            (Player::Second, 2, Ending::All)
        );
    }

    #[test]
    fn decided_means_more_than_half() {
        use crate::game::PositionText;
        let g = Progressive::from_text(
            "progressive holes:1,0,0,0,0 goal:0 east-store:0 west-store:5 to-move:east ending:all",
        )
        .unwrap();
        assert!(g.decided() && !g.is_terminal());
        assert!(!Progressive::standard().decided());
    }
}
