//! Andada has no published records; this gives it the same start-and-rules interface as
//! the other games so the command line treats every game alike.

use crate::error::ParseError;
use crate::record::{RecordGame, Tags};
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

    fn apply_rule_tags(self, tags: &Tags) -> Result<Self, ParseError> {
        Ok(tags
            .rules(Rules::parse_variant)?
            .map_or(self, |r| self.with_rules(r)))
    }

    fn seat_names() -> [&'static str; 2] {
        seat_names::<Self>()
    }

    fn decided(&self) -> bool {
        false
    }
}
