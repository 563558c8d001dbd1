//! How Kauri records name their start, rules and players.
//!
//! A group of moves in a record ("d-a-f (+34)", "B-B-A (+7)") is only a way of writing one
//! player's consecutive moves while the other must pass, so groups are not checked as
//! turns; the verifier still requires every move of a group to be the same player's.

use crate::error::ParseError;
use crate::player::Player;
use crate::record::{RecordGame, RuleChange, Tags, named_variant};
use crate::rows::seat_names;

use super::rules::{Kauri, Rules};

impl RecordGame for Kauri {
    const NAME: &'static str = super::INFO.name;

    /// Kauri has one board and one start: a [Board] or [Stones] tag would be ignored, so it
    /// is refused.
    fn standard_start(tags: &Tags) -> Result<Self, ParseError> {
        for tag in ["Board", "Stones"] {
            if let Some(v) = tags.get(tag) {
                return Err(ParseError::new(format!(
                    "[{tag} \"{v}\"]: Kauri has one board (2 x 6) and one start"
                )));
            }
        }
        Kauri::start(Rules::default()).apply_rule_tags(tags)
    }

    type Rules = Rules;

    /// `current` (the default) or `tiebreak`.
    fn parse_rules(text: &str) -> Result<Rules, ParseError> {
        named_variant(text, Rules::parse, "Kauri", "current, tiebreak")
    }

    /// A variant replaces the rules; Kauri has no komi (refused before this).
    fn change_rules(self, change: RuleChange<Rules>) -> Self {
        change.rules.map_or(self, |r| self.with_rules(r))
    }

    fn seat_names() -> [&'static str; 2] {
        seat_names::<Self>()
    }

    /// A player holds more than half of the seeds (31 of 60): records 1-3 stop at exactly
    /// that ply.
    fn decided(&self) -> bool {
        Player::BOTH.iter().any(|&p| self.over_half(p))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, PositionText};
    use crate::record::{start_from, start_position};

    #[test]
    fn tags_give_the_start_and_the_rules() {
        let g: Kauri = start_from(&[]).unwrap();
        assert_eq!(g, Kauri::start(Rules::Current));
        let g: Kauri = start_from(&[("Start", "standard"), ("Rules", "current")]).unwrap();
        assert_eq!(g, Kauri::start(Rules::Current));
        let g: Kauri = start_from(&[("Rules", "tiebreak")]).unwrap();
        assert_eq!(g, Kauri::start(Rules::TieBreak));
        let e = start_from::<Kauri>(&[("Rules", "65")]).unwrap_err();
        assert!(e.0.contains("unknown Kauri rules \"65\""), "{e}");
        // A given start with a rules tag: the tag wins.
        let t = Tags::from_pairs(&[
            (
                "Start",
                "kauri south:0+1,0+0,0+0,0+0,0+0,0+0 north:0+1,0+0,0+0,0+0,0+0,0+0 south-store:30 north-store:30 to-move:north",
            ),
            ("Rules", "tiebreak"),
        ]);
        let g: Kauri = start_position(&t).unwrap();
        assert_eq!(g.rules(), Rules::TieBreak);
        assert!(!g.is_terminal());
        assert!(g.with_rules(Rules::Current).is_terminal());
    }

    #[test]
    fn decided_means_more_than_half_of_the_seeds() {
        let g = Kauri::from_text(
            "kauri south:1+1,0+0,0+0,0+0,0+0,0+0 north:0+1,0+0,0+0,0+0,0+0,0+0 south-store:31 north-store:28 to-move:south",
        )
        .unwrap();
        assert!(g.decided() && !g.is_terminal());
        let g = Kauri::from_text(
            "kauri south:0+1,0+0,0+0,0+0,0+0,0+0 north:0+1,0+0,0+0,0+0,0+0,0+0 south-store:30 north-store:30 to-move:south",
        )
        .unwrap();
        assert!(!g.decided());
        assert!(!Kauri::start(Rules::Current).decided());
    }
}
