//! Andada has no published records; this gives it the same start-and-rules interface as
//! the other games so the command line treats every game alike.

use crate::error::ParseError;
use crate::record::{RecordGame, RuleChange, Tags};
use crate::rows::seat_names;

use super::rules::{Andada, Rules};

/// The boards a `[Board]` tag may name, for its error message.
const BOARDS: &str = "Andada boards are 2xN, N = 3, 6, ..., 24";

impl RecordGame for Andada {
    const NAME: &'static str = super::INFO.name;

    /// `[Board "2xN"]` (N a multiple of 3, 3 to 24; default 2x12) and `[Rules]`.
    fn standard_start(tags: &Tags) -> Result<Self, ParseError> {
        let n = tags.board(2, 12, Andada::valid_row, BOARDS)?;
        Andada::start(n, Rules::default()).apply_rule_tags(tags)
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
        false
    }
}
