//! How Afrika records name their start, rules and players.

use crate::error::ParseError;
use crate::record::{RecordGame, RuleChange, Tags};
use crate::rows::seat_names;

use super::rules::{Afrika, Ending, Rules};

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

    type Rules = Rules;

    fn parse_rules(text: &str) -> Result<Rules, ParseError> {
        Rules::parse_variant(text)
    }

    /// A variant replaces the ending and repetition rule, and the komi where it names
    /// one (`komi=X`); a komi given on its own replaces the komi.
    fn change_rules(self, change: RuleChange<Rules>) -> Self {
        let mut r = self.rules();
        if let Some(v) = change.rules {
            let komi = r.komi_half;
            r = v;
            if r.komi_half == 0 {
                r.komi_half = komi;
            }
        }
        if let Some(k) = change.komi_half {
            r.komi_half = k;
        }
        self.with_rules(r)
    }

    const HAS_KOMI: bool = true;

    /// "The only change of rules is that the first player who captures more than half of
    /// the stones loses": the Give-away game is won, drawn or lost, so a komi, which moves
    /// points, would be shown and have no effect.
    fn rules_conflict(&self) -> Option<String> {
        let r = self.rules();
        (r.ending == Ending::GiveAway && r.komi_half != 0).then(|| {
            format!(
                "komi {} has no effect under the Give-away rules (won, drawn or lost: the \
                 first player to capture more than half of the stones loses)",
                r.komi_half as f64 / 2.0
            )
        })
    }

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
