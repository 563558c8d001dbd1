//! Kalah has no records here; this gives it the same start-and-rules interface as the
//! other games so the command line treats every game alike.

use crate::error::ParseError;
use crate::record::{RecordGame, RuleChange, Tags};
use crate::rows::seat_names;

use super::rules::{Kalah, Rules};

/// The boards a `[Board]` tag may name, for its error message.
const BOARDS: &str = "expected 2xM with M from 1 to 12";

impl RecordGame for Kalah {
    const NAME: &'static str = super::INFO.name;

    /// `[Board "2xM"]` (default 2x6), `[Stones "N"]` (default 4) and `[Rules]`.
    fn standard_start(tags: &Tags) -> Result<Self, ParseError> {
        let (m, n) = tags.board_and_stones(2, (6, 4), |m| (1..=12).contains(&m), BOARDS)?;
        Kalah::start(m, n, Rules::default()).apply_rule_tags(tags)
    }

    type Rules = Rules;

    fn parse_rules(text: &str) -> Result<Rules, ParseError> {
        Rules::parse_variant(text)
    }

    /// A variant replaces the rules; the game has no komi (refused before this).
    fn change_rules(self, change: RuleChange<Rules>) -> Self {
        change.rules.map_or(self, |r| self.with_rules(r))
    }

    fn seat_names() -> [&'static str; 2] {
        seat_names::<Self>()
    }

    fn decided(&self) -> bool {
        self.store_holds_majority()
    }
}
