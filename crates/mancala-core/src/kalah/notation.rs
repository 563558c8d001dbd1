//! Kalah notation: a move is the letter of the sown hole (`A..` South, `a..` North, each
//! from its owner's left, as in [`crate::rows`]); and the one-line position format.

use crate::error::ParseError;
use crate::game::{Game, Notation, PositionText};
use crate::rows::Seated;
use crate::rows::{Board, letter, own_hole};
use crate::text::{Fields, one_char, rule_list};

use super::rules::{Capture, Kalah, KalahMove, Rules};

impl Notation for Kalah {
    fn format_move(&self, mv: KalahMove) -> String {
        letter(mv.0 as usize, self.holes_per_row()).to_string()
    }

    fn parse_move(&self, text: &str) -> Result<KalahMove, ParseError> {
        let t = text.trim();
        let c = one_char(t, t, "a Kalah move (one hole letter)")?;
        let mover = Kalah::row(self.to_move());
        let h = own_hole(t, c, self.holes_per_row(), mover, "sows")?;
        Ok(KalahMove(h as u8))
    }
}

impl Rules {
    /// Reads a variant list: `standard` (the default, empty capture), `empty-capture`,
    /// `standard-capture`.
    pub fn parse_variant(text: &str) -> Result<Rules, ParseError> {
        let known = "standard, empty-capture, standard-capture";
        rule_list(text, "Kalah", known, |r: &mut Rules, part| {
            r.capture = match part {
                "standard" | "empty-capture" => Capture::Empty,
                "standard-capture" => Capture::Standard,
                _ => return Ok(false),
            };
            Ok(true)
        })
    }

    /// The variant list that [`Rules::parse_variant`] reads back.
    pub fn variant_name(&self) -> String {
        match self.capture {
            Capture::Empty => "standard".into(),
            Capture::Standard => "standard-capture".into(),
        }
    }
}

impl PositionText for Kalah {
    /// `kalah south:A,..,F north:a,..,f south-store:S north-store:N to-move:south`, plus
    /// `capture:standard` for the standard-capture variant. Each row is listed from its
    /// owner's left to right, in letter order.
    fn to_text(&self) -> String {
        let mut s = self.board().text::<Kalah>("kalah", self.to_move());
        if self.rules().capture == Capture::Standard {
            s += " capture:standard";
        }
        s
    }

    fn from_text(text: &str) -> Result<Self, ParseError> {
        let mut f = Fields::parse("kalah", text)?;
        let (holes, stores, to_move) = Board::read::<Kalah>(&mut f)?;
        let captures = [("empty", Capture::Empty), ("standard", Capture::Standard)];
        let capture = f.choice("capture", &captures)?.unwrap_or_default();
        let rules = Rules { capture };
        f.finish_with(Kalah::from_parts(&holes, stores, to_move, rules))
    }
}
