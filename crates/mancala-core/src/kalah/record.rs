//! Kalah has no records here; this gives it the same start-and-rules interface as the
//! other games so the command line treats every game alike.

use crate::error::ParseError;
use crate::record::{RecordGame, Tags};
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

    fn apply_rule_tags(self, tags: &Tags) -> Result<Self, ParseError> {
        Ok(tags
            .rules(Rules::parse_variant)?
            .map_or(self, |r| self.with_rules(r)))
    }

    fn seat_names() -> [&'static str; 2] {
        seat_names::<Self>()
    }

    fn decided(&self) -> bool {
        self.store_holds_majority()
    }
}
