//! Kalah notation: a move is the letter of the sown hole (`A..` South, `a..` North, each
//! from its owner's left, as in [`crate::rows`]); and the one-line position format.

use crate::error::ParseError;
use crate::game::{Game, Notation, PositionText};
use crate::rows::Seated;
use crate::rows::{Board, hole_of_letter, letter, row_of};
use crate::text::{Fields, one_char};

use super::rules::{Capture, Kalah, KalahMove, Rules};

impl Notation for Kalah {
    fn format_move(&self, mv: KalahMove) -> String {
        letter(mv.0 as usize, self.holes_per_row()).to_string()
    }

    fn parse_move(&self, text: &str) -> Result<KalahMove, ParseError> {
        let t = text.trim();
        let c = one_char(t, t, "a Kalah move (one hole letter)")?;
        let h = hole_of_letter(c, self.holes_per_row())?;
        let mover = Kalah::row(self.to_move());
        let row = row_of(h, self.holes_per_row());
        if row != mover {
            return Err(ParseError::new(format!(
                "\"{t}\": {} to move sows from its own row; {c} is {}'s hole",
                mover.name(),
                row.name()
            )));
        }
        Ok(KalahMove(h as u8))
    }
}

impl Rules {
    /// Reads a variant list: `standard` (the default, empty capture), `empty-capture`,
    /// `standard-capture`.
    pub fn parse_variant(text: &str) -> Result<Rules, ParseError> {
        let mut r = Rules::default();
        for part in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            match part {
                "standard" => r = Rules::default(),
                "empty-capture" => r.capture = Capture::Empty,
                "standard-capture" => r.capture = Capture::Standard,
                _ => {
                    return Err(ParseError::new(format!(
                        "unknown Kalah rule \"{part}\" (known: standard, empty-capture, \
                         standard-capture)"
                    )));
                }
            }
        }
        Ok(r)
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
        let g = "kalah";
        let mut f = Fields::parse(g, text)?;
        let (holes, stores, to_move) = Board::read::<Kalah>(&mut f)?;
        let mut rules = Rules::default();
        let captures = [("empty", Capture::Empty), ("standard", Capture::Standard)];
        if let Some(c) = f.choice("capture", &captures, |c| {
            format!("unknown rule \"capture:{c}\" (empty or standard)")
        })? {
            rules.capture = c;
        }
        f.finish_with(Kalah::from_parts(&holes, stores, to_move, rules))
    }
}
