//! Kalah has no records here; this gives it the same start-and-rules interface as the
//! other games so the command line treats every game alike.

use crate::error::ParseError;
use crate::player::Player;
use crate::record::{RecordGame, Tags};

use super::rules::{Kalah, Rules};

/// The boards a `[Board]` tag may name, for its error message.
const BOARDS: &str = "expected 2xM with M from 1 to 12";

impl RecordGame for Kalah {
    const NAME: &'static str = super::INFO.name;

    /// `[Board "2xM"]` (default 2x6), `[Stones "N"]` (default 4) and `[Rules]`.
    fn standard_start(tags: &Tags) -> Result<Self, ParseError> {
        let m = tags.board(2, 6, |m| (1..=12).contains(&m), BOARDS)?;
        let n = tags.stones(4)?;
        if 2 * m * n as usize > 255 {
            return Err(ParseError::new("at most 255 seeds are supported"));
        }
        Kalah::start(m, n, Rules::default()).apply_rule_tags(tags)
    }

    fn apply_rule_tags(self, tags: &Tags) -> Result<Self, ParseError> {
        let rules = tags.rules(Rules::parse_variant)?;
        Ok(rules.map_or(self, |r| self.with_rules(r)))
    }

    fn seat_names() -> [&'static str; 2] {
        ["South", "North"]
    }

    fn decided(&self) -> bool {
        let t = self.total();
        Player::BOTH
            .iter()
            .any(|&p| 2 * self.stores()[p.index()] as u32 > t)
    }
}
