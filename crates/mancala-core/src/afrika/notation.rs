//! Afrika notation: moves as the published games write them ("e", "G", "xd") and the
//! one-line position format.
//!
//! Hole letters follow seed 000, which the two published games confirm (see the README):
//! "The pits of the lower row are called A to H, the pits of the upper row a to h, both
//! times as viewed from left to right by its respective owner."

use crate::error::ParseError;
use crate::game::{Game, Notation, PositionText};
use crate::rows::Seated;
use crate::rows::{Board, hole_of_letter, letter, own_hole, row_of};
use crate::text::{Fields, half_points, one_char, parse_komi, rule_list};

use super::rules::{Afrika, AfrikaMove, Ending, Repetition, Rules};

impl Notation for Afrika {
    fn format_move(&self, mv: AfrikaMove) -> String {
        match mv {
            AfrikaMove::Sow(h) => letter(h as usize, self.holes_per_row()).to_string(),
            AfrikaMove::Capture(h) => format!("x{}", letter(h as usize, self.holes_per_row())),
        }
    }

    fn parse_move(&self, text: &str) -> Result<AfrikaMove, ParseError> {
        let t = text.trim();
        let (capture, name) = match t.strip_prefix('x') {
            Some(rest) => (true, rest),
            None => (false, t),
        };
        let c = one_char(
            name,
            t,
            "an Afrika move (a hole letter, or x and a hole letter)",
        )?;
        let (m, mover) = (self.holes_per_row(), Afrika::row(self.to_move()));
        if !capture {
            return Ok(AfrikaMove::Sow(own_hole(t, c, m, mover, "sows")? as u8));
        }
        let h = hole_of_letter(c, m)?;
        if row_of(h, m) == mover {
            return Err(ParseError::new(format!(
                "\"{t}\": {} to move captures from {}'s row, not from its own",
                mover.name(),
                mover.other().name()
            )));
        }
        Ok(AfrikaMove::Capture(h as u8))
    }
}

impl Rules {
    /// Reads a variant list such as `standard`, `65`, `giveaway`, `own-side`,
    /// `65,own-side`, `komi=2.5`.
    pub fn parse_variant(text: &str) -> Result<Rules, ParseError> {
        let known = "standard, 65, giveaway, shared, own-side, komi=X";
        rule_list(text, "Afrika", known, |r: &mut Rules, part| {
            match part {
                "standard" | "empty" => r.ending = Ending::Empty,
                "65" | "majority" => r.ending = Ending::Majority,
                "giveaway" | "give-away" | "misere" => r.ending = Ending::GiveAway,
                "shared" => r.repetition = Repetition::Shared,
                "own-side" | "ownside" => r.repetition = Repetition::OwnSide,
                _ => match part.strip_prefix("komi=") {
                    Some(k) => r.komi_half = parse_komi("afrika", "komi", k)?,
                    None => return Ok(false),
                },
            }
            Ok(true)
        })
    }

    /// The variant list that [`Rules::parse_variant`] reads back.
    pub fn variant_name(&self) -> String {
        let mut v = vec![
            match self.ending {
                Ending::Empty => "standard",
                Ending::Majority => "65",
                Ending::GiveAway => "giveaway",
            }
            .to_string(),
        ];
        if self.repetition == Repetition::OwnSide {
            v.push("own-side".into());
        }
        if self.komi_half != 0 {
            v.push(format!("komi={}", half_points(self.komi_half as i32)));
        }
        v.join(",")
    }
}

impl PositionText for Afrika {
    /// `afrika south:A,..,H north:a,..,h south-store:S north-store:N to-move:north`
    /// plus `komi:`, `ending:` and `repetition:` when they differ from the defaults.
    /// Each row is listed from its owner's left to right, in letter order.
    fn to_text(&self) -> String {
        let mut s = self.board().text::<Afrika>("afrika", self.to_move());
        let r = self.rules();
        if r.komi_half != 0 {
            s += &format!(" komi:{}", half_points(r.komi_half as i32));
        }
        match r.ending {
            Ending::Empty => {}
            Ending::Majority => s += " ending:65",
            Ending::GiveAway => s += " ending:giveaway",
        }
        if r.repetition == Repetition::OwnSide {
            s += " repetition:own-side";
        }
        s
    }

    fn from_text(text: &str) -> Result<Self, ParseError> {
        let g = "afrika";
        let mut f = Fields::parse(g, text)?;
        let (holes, stores, to_move) = Board::read::<Afrika>(&mut f)?;
        let mut rules = Rules::default();
        if let Some(k) = f.optional("komi") {
            rules.komi_half = parse_komi(g, "komi", k)?;
        }
        let endings = [
            ("empty", Ending::Empty),
            ("standard", Ending::Empty),
            ("65", Ending::Majority),
            ("majority", Ending::Majority),
            ("giveaway", Ending::GiveAway),
        ];
        rules.ending = f.choice("ending", &endings)?.unwrap_or_default();
        let repetitions = [
            ("shared", Repetition::Shared),
            ("own-side", Repetition::OwnSide),
        ];
        rules.repetition = f.choice("repetition", &repetitions)?.unwrap_or_default();
        f.finish_with(Afrika::from_parts(&holes, stores, to_move, rules))
    }
}
