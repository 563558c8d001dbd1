//! How Afrika records name their start, rules and players.

use crate::error::ParseError;
use crate::player::Player;
use crate::record::{RecordGame, Tags};
use crate::text::parse_komi;

use super::rules::{Afrika, Rules};

/// The boards a `[Board]` tag may name, for its error message.
const BOARDS: &str = "expected 2xM with M from 1 to 12";

/// Reads `[Board "2x8"]` and `[Stones "8"]` (the defaults).
fn size(tags: &Tags) -> Result<(usize, u8), ParseError> {
    let m = tags.board(2, 8, |m| (1..=super::rules::MAX_ROW).contains(&m), BOARDS)?;
    let k = tags.stones(8)?;
    if 2 * m * k as usize > 255 {
        return Err(ParseError::new("at most 255 stones are supported"));
    }
    Ok((m, k))
}

impl RecordGame for Afrika {
    const NAME: &'static str = super::INFO.name;

    fn standard_start(tags: &Tags) -> Result<Self, ParseError> {
        let (m, k) = size(tags)?;
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
        ["North", "South"]
    }

    fn komi(&self) -> f64 {
        self.rules().komi_half as f64 / 2.0
    }

    fn decided(&self) -> bool {
        let t = self.total();
        Player::BOTH
            .iter()
            .any(|&p| 2 * self.stores()[p.index()] as u32 > t)
    }
}
