//! How Afrika records name their start, rules and players.

use crate::error::ParseError;
use crate::record::{RecordGame, Tags};
use crate::rows::seat_names;
use crate::text::parse_komi;

use super::rules::{Afrika, Rules};

/// The boards a `[Board]` tag may name, for its error message.
const BOARDS: &str = "expected 2xM with M from 1 to 12";

impl RecordGame for Afrika {
    const NAME: &'static str = super::INFO.name;

    /// `[Board "2xM"]` (default 2x8), `[Stones "K"]` (default 8), `[Rules]` and `[Komi]`.
    fn standard_start(tags: &Tags) -> Result<Self, ParseError> {
        let valid = |m| (1..=super::rules::MAX_ROW).contains(&m);
        let (m, k) = tags.board_and_stones(2, (8, 8), valid, BOARDS)?;
        Afrika::start(m, k, Rules::default()).apply_rule_tags(tags)
    }

    fn apply_rule_tags(self, tags: &Tags) -> Result<Self, ParseError> {
        let mut r = self.rules();
        if let Some(v) = tags.get("Rules") {
            let komi = r.komi_half;
            r = Rules::parse_variant(v)?;
            if r.komi_half == 0 {
                r.komi_half = komi;
            }
        }
        if let Some(k) = tags.get("Komi") {
            r.komi_half = parse_komi("afrika", "Komi", k)?;
        }
        Ok(self.with_rules(r))
    }

    const HAS_KOMI: bool = true;

    fn seat_names() -> [&'static str; 2] {
        seat_names::<Self>()
    }

    fn komi(&self) -> f64 {
        self.rules().komi_half as f64 / 2.0
    }

    fn decided(&self) -> bool {
        self.store_holds_majority()
    }
}
