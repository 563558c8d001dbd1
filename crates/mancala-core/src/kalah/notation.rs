//! Kalah notation: a move is the letter of the sown hole (`A..` South, `a..` North, each
//! from its owner's left, as in [`crate::rows`]); and the one-line position format.

use crate::error::ParseError;
use crate::game::{Game, Notation, PositionText};
use crate::player::Player;
use crate::rows::Seated;
use crate::rows::{Row, hole_of_letter, letter, row_of};
use crate::text::{Fields, counts, join_counts, number};

use super::rules::{Capture, Kalah, KalahMove, Rules};

impl Notation for Kalah {
    fn format_move(&self, mv: KalahMove) -> String {
        letter(mv.0 as usize, self.m()).to_string()
    }

    fn parse_move(&self, text: &str) -> Result<KalahMove, ParseError> {
        let t = text.trim();
        let mut chars = t.chars();
        let (Some(c), None) = (chars.next(), chars.next()) else {
            return Err(ParseError::new(format!(
                "\"{t}\" is not a Kalah move (one hole letter)"
            )));
        };
        let h = hole_of_letter(c, self.m())?;
        let mover = Kalah::row(self.to_move());
        let row = row_of(h, self.m());
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

fn player_of_row_name(v: &str) -> Result<Player, ParseError> {
    match v {
        "south" | "South" | "S" => Ok(Kalah::owner(Row::South)),
        "north" | "North" | "N" => Ok(Kalah::owner(Row::North)),
        _ => Err(ParseError::new(format!(
            "kalah position: \"to-move:{v}\" must be south or north"
        ))),
    }
}

impl PositionText for Kalah {
    /// `kalah south:A,..,F north:a,..,f south-store:S north-store:N to-move:south`, plus
    /// `capture:standard` for the standard-capture variant. Each row is listed from its
    /// owner's left to right, in letter order.
    fn to_text(&self) -> String {
        let m = self.m();
        let h = self.holes();
        let mut s = format!(
            "kalah south:{} north:{} south-store:{} north-store:{} to-move:{}",
            join_counts(h[..m].iter().copied()),
            join_counts(h[m..].iter().copied()),
            self.stores()[Kalah::owner(Row::South).index()],
            self.stores()[Kalah::owner(Row::North).index()],
            Kalah::row(self.to_move()).name().to_lowercase()
        );
        if self.rules().capture == Capture::Standard {
            s += " capture:standard";
        }
        s
    }

    fn from_text(text: &str) -> Result<Self, ParseError> {
        let g = "kalah";
        let mut f = Fields::parse(g, text)?;
        let south = counts(g, "south", f.required("south")?)?;
        let north = counts(g, "north", f.required("north")?)?;
        if south.len() != north.len() {
            return Err(ParseError::new(format!(
                "kalah position: south has {} holes but north has {}",
                south.len(),
                north.len()
            )));
        }
        let ss: u8 = number(g, "south-store", f.optional("south-store").unwrap_or("0"))?;
        let ns: u8 = number(g, "north-store", f.optional("north-store").unwrap_or("0"))?;
        let to_move = player_of_row_name(f.required("to-move")?)?;
        let mut rules = Rules::default();
        if let Some(c) = f.optional("capture") {
            rules.capture = match c {
                "empty" => Capture::Empty,
                "standard" => Capture::Standard,
                _ => {
                    return Err(ParseError::new(format!(
                        "kalah position: unknown rule \"capture:{c}\" (empty or standard)"
                    )));
                }
            };
        }
        f.finish()?;
        let mut holes = south;
        holes.extend_from_slice(&north);
        let mut stores = [0u8; 2];
        stores[Kalah::owner(Row::South).index()] = ss;
        stores[Kalah::owner(Row::North).index()] = ns;
        Kalah::from_parts(&holes, stores, to_move, rules)
            .map_err(|e| ParseError::new(format!("kalah position: {e}")))
    }
}
