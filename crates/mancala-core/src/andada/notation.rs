//! Andada notation and the one-line position format.
//!
//! No Andada record is published, so the notation follows the project's two-row convention
//! ([`crate::rows`]): a regular move or the opening is the letter of the sown hole (`A..`
//! for South, `a..` for North, from the owner's left), and the pie decision is the word
//! `play` (the deciding player plays the next move himself) or `pass` (his opponent does).

use crate::error::ParseError;
use crate::game::{Game, Notation, PositionText};
use crate::rows::Seated;
use crate::rows::{letter, own_hole, read_rows, read_to_move, rows_text, to_move_text};
use crate::text::{Fields, one_char, rule_list};

use super::rules::{Andada, AndadaMove, Direction, Endless, Phase, Rules};

impl Notation for Andada {
    fn format_move(&self, mv: AndadaMove) -> String {
        match mv {
            AndadaMove::Open(h) | AndadaMove::Sow(h) => {
                letter(h as usize, self.holes_per_row()).to_string()
            }
            AndadaMove::Play => "play".into(),
            AndadaMove::Pass => "pass".into(),
        }
    }

    fn parse_move(&self, text: &str) -> Result<AndadaMove, ParseError> {
        let t = text.trim();
        let mover = Andada::row(self.to_move());
        let lower = t.to_ascii_lowercase();
        if lower == "play" || lower == "pass" {
            if self.phase() != Phase::Pie {
                return Err(ParseError::new(format!(
                    "\"{t}\" is the pie decision, taken only right after the opening \
                     (this position is in the {} phase)",
                    phase_name(self.phase())
                )));
            }
            return Ok(if lower == "play" {
                AndadaMove::Play
            } else {
                AndadaMove::Pass
            });
        }
        let c = one_char(
            t,
            t,
            "an Andada move (a hole letter, or \"play\"/\"pass\" after the \
                 opening)",
        )?;
        let h = own_hole(t, c, self.holes_per_row(), mover, "sows")?;
        match self.phase() {
            Phase::Opening => Ok(AndadaMove::Open(h as u8)),
            Phase::Pie => Err(ParseError::new(format!(
                "\"{t}\": after the opening {} decides who plays the next move: \"play\" \
                 (itself) or \"pass\" (its opponent)",
                mover.name()
            ))),
            Phase::Play | Phase::Drawn => Ok(AndadaMove::Sow(h as u8)),
        }
    }
}

/// The name of a phase in position text.
pub fn phase_name(p: Phase) -> &'static str {
    match p {
        Phase::Opening => "opening",
        Phase::Pie => "pie",
        Phase::Play => "play",
        Phase::Drawn => "drawn",
    }
}

impl Rules {
    /// Reads a variant list such as `standard`, `clockwise`, `endless-draw`,
    /// `clockwise,endless-draw`.
    pub fn parse_variant(text: &str) -> Result<Rules, ParseError> {
        let known = "standard, clockwise, counterclockwise, endless-draw, endless-illegal";
        rule_list(text, "Andada", known, |r: &mut Rules, part| {
            match part {
                "standard" => *r = Rules::default(),
                "counterclockwise" | "anticlockwise" | "anti-clockwise" | "ccw" => {
                    r.direction = Direction::Counterclockwise
                }
                "clockwise" | "cw" => r.direction = Direction::Clockwise,
                "endless-draw" => r.endless = Endless::Draw,
                "endless-illegal" => r.endless = Endless::Illegal,
                _ => return Ok(false),
            }
            Ok(true)
        })
    }

    /// The variant list that [`Rules::parse_variant`] reads back.
    pub fn variant_name(&self) -> String {
        let mut v = Vec::new();
        if self.direction == Direction::Clockwise {
            v.push("clockwise");
        }
        if self.endless == Endless::Draw {
            v.push("endless-draw");
        }
        if v.is_empty() {
            "standard".into()
        } else {
            v.join(",")
        }
    }
}

impl PositionText for Andada {
    /// `andada south:A,..,L north:a,..,l to-move:south phase:play`, plus
    /// `direction:clockwise` and `endless:draw` when they differ from the defaults. Each
    /// row is listed from its owner's left to right, in letter order.
    fn to_text(&self) -> String {
        let mut s = format!(
            "andada {} {} phase:{}",
            rows_text(self.holes()),
            to_move_text::<Andada>(self.to_move()),
            phase_name(self.phase())
        );
        let r = self.rules();
        if r.direction == Direction::Clockwise {
            s += " direction:clockwise";
        }
        if r.endless == Endless::Draw {
            s += " endless:draw";
        }
        s
    }

    fn from_text(text: &str) -> Result<Self, ParseError> {
        let g = "andada";
        let mut f = Fields::parse(g, text)?;
        let holes = read_rows(&mut f)?;
        let to_move = read_to_move::<Andada>(&mut f)?;
        let phase = match f.required("phase")? {
            "opening" => Phase::Opening,
            "pie" => Phase::Pie,
            "play" => Phase::Play,
            "drawn" => Phase::Drawn,
            p => {
                return Err(ParseError::new(format!(
                    "andada position: unknown phase \"phase:{p}\" (opening, pie, play or \
                     drawn)"
                )));
            }
        };
        let directions = [
            ("counterclockwise", Direction::Counterclockwise),
            ("anticlockwise", Direction::Counterclockwise),
            ("clockwise", Direction::Clockwise),
        ];
        let endless = [("illegal", Endless::Illegal), ("draw", Endless::Draw)];
        let rules = Rules {
            direction: f.choice("direction", &directions)?.unwrap_or_default(),
            endless: f.choice("endless", &endless)?.unwrap_or_default(),
        };
        f.finish_with(Andada::from_parts(&holes, to_move, phase, rules))
    }
}
