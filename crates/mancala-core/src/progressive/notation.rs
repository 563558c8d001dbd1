//! Progressive Mancala notation: moves as the published games write them ("k", "c"; a
//! turn of several moves is written "c(+5)-a(+3)") and the one-line position format.
//!
//! Hole letters follow the published games, which replay only with `a` as the leftmost
//! hole: `a..k` on 1x11, `a..q` on 1x17, from left to right.

use crate::error::ParseError;
use crate::game::{Game, Notation, PositionText};
use crate::player::Player;
use crate::text::{Fields, counts, join_counts, number, one_char};

use super::rules::{Ending, Progressive, ProgressiveMove};

/// The letter of a hole (index 0 = `a`).
pub fn letter(hole: usize) -> char {
    (b'a' + hole as u8) as char
}

impl Progressive {
    /// "a-k": the letters of this board, for messages.
    pub fn letter_range(&self) -> String {
        format!("a-{}", letter(self.holes_per_row() - 1))
    }
}

impl Notation for Progressive {
    fn format_move(&self, mv: ProgressiveMove) -> String {
        letter(mv.0 as usize).to_string()
    }

    /// A lowercase hole letter of this board; anything else is refused with the valid
    /// letters named.
    fn parse_move(&self, text: &str) -> Result<ProgressiveMove, ParseError> {
        let t = text.trim();
        let c = one_char(
            t,
            t,
            &format!(
                "a Progressive Mancala move: a move is one hole letter, {}",
                self.letter_range()
            ),
        )?;
        if c.is_ascii_lowercase() && ((c as u8 - b'a') as usize) < self.holes_per_row() {
            return Ok(ProgressiveMove(c as u8 - b'a'));
        }
        Err(ParseError::new(format!(
            "unknown hole \"{c}\": the holes of 1x{} are the lowercase letters {}",
            self.holes_per_row(),
            self.letter_range()
        )))
    }
}

fn player_of_side_name(v: &str) -> Result<Player, ParseError> {
    match v {
        "east" | "East" | "E" => Ok(Player::First),
        "west" | "West" | "W" => Ok(Player::Second),
        _ => Err(ParseError::new(format!(
            "progressive position: \"to-move:{v}\" must be east or west"
        ))),
    }
}

impl PositionText for Progressive {
    /// `progressive holes:a,..,k goal:G east-store:E west-store:W to-move:east
    /// moves-left:M empties:K` plus `ending:all` when not the default. `moves-left` is
    /// what the player to move still has to play in this turn, `empties` how many moves of
    /// this turn ended in an empty hole (the opponent's next turn has one move more).
    fn to_text(&self) -> String {
        let mut s = format!(
            "progressive holes:{} goal:{} east-store:{} west-store:{} to-move:{} moves-left:{} empties:{}",
            join_counts(self.holes().iter().copied()),
            self.goal(),
            self.stores()[Player::First.index()],
            self.stores()[Player::Second.index()],
            Progressive::side_name(self.to_move()).to_lowercase(),
            self.moves_left(),
            self.empties()
        );
        if self.ending() != Ending::default() {
            s += &format!(" ending:{}", self.ending().name());
        }
        s
    }

    /// Reads the format of [`PositionText::to_text`]. `holes:` and `to-move:` are
    /// required; the goal and the stores default to 0, `moves-left` to 1, `empties` to 0.
    fn from_text(text: &str) -> Result<Self, ParseError> {
        let g = "progressive";
        let mut f = Fields::parse(g, text)?;
        let holes = counts(g, "holes", f.required("holes")?)?;
        let goal: u8 = number(g, "goal", f.optional("goal").unwrap_or("0"))?;
        let es: u8 = number(g, "east-store", f.optional("east-store").unwrap_or("0"))?;
        let ws: u8 = number(g, "west-store", f.optional("west-store").unwrap_or("0"))?;
        let to_move = player_of_side_name(f.required("to-move")?)?;
        let moves_left: u32 = number(g, "moves-left", f.optional("moves-left").unwrap_or("1"))?;
        let empties: u32 = number(g, "empties", f.optional("empties").unwrap_or("0"))?;
        let known = "majority, all";
        let ending = f
            .parsed("ending", Ending::parse, known)?
            .unwrap_or_default();
        f.finish()?;
        let mut stores = [0u8; 2];
        stores[Player::First.index()] = es;
        stores[Player::Second.index()] = ws;
        Progressive::from_parts(&holes, goal, stores, to_move, moves_left, empties, ending)
            .map_err(|e| ParseError::new(format!("progressive position: {e}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_are_lowercase_hole_letters() {
        let g = Progressive::standard();
        // Every legal move's name reads back: mancala-solver/tests/conformance.rs.
        assert_eq!(g.parse_move("a").unwrap(), ProgressiveMove(0));
        assert_eq!(g.parse_move(" k ").unwrap(), ProgressiveMove(10));
        for bad in ["K", "l", "z", "1", "", "kk", "xk", "é"] {
            let e = g.parse_move(bad).unwrap_err();
            assert!(e.0.contains("a-k"), "{bad}: {e}");
        }
        let e = g.parse_move("K").unwrap_err();
        assert!(e.0.contains("lowercase"), "{e}");
        let expert = Progressive::start(17, 5, Ending::Majority);
        assert_eq!(expert.parse_move("q").unwrap(), ProgressiveMove(16));
        assert!(expert.parse_move("r").unwrap_err().0.contains("a-q"));
    }

    #[test]
    fn the_start_position_text() {
        let g = Progressive::standard();
        let t = g.to_text();
        assert_eq!(
            t,
            "progressive holes:5,5,5,5,5,5,5,5,5,5,5 goal:0 east-store:0 west-store:0 to-move:east moves-left:1 empties:0"
        );
        assert_eq!(Progressive::from_text(&t).unwrap(), g);
        let all = g.with_ending(Ending::All);
        assert!(all.to_text().ends_with(" ending:all"));
        assert_eq!(Progressive::from_text(&all.to_text()).unwrap(), all);
        // Defaults for the optional fields.
        let short = Progressive::from_text("progressive holes:5,5,5,5,5,5,5,5,5,5,5 to-move:east");
        assert_eq!(short.unwrap(), g);
    }

    #[test]
    fn malformed_positions_name_the_bad_field() {
        let cases = [
            ("", "empty progressive position"),
            ("afrika holes:1,2,3 to-move:east", "must start with"),
            ("progressive holes:1,2,3", "missing field \"to-move:\""),
            ("progressive to-move:east", "missing field \"holes:\""),
            ("progressive holes:1,x,3 to-move:east", "\"holes\" entry 2"),
            ("progressive holes:1,2 to-move:east", "not 2"),
            ("progressive holes:1,2,3,4 to-move:east", "not 4"),
            ("progressive holes:1,2,3 to-move:north", "\"to-move:north\""),
            (
                "progressive holes:1,2,3 goal:-1 to-move:east",
                "\"goal:-1\"",
            ),
            (
                "progressive holes:1,2,3 east-store:300 to-move:east",
                "\"east-store:300\"",
            ),
            (
                "progressive holes:1,2,3 to-move:east moves-left:0",
                "moves left",
            ),
            (
                "progressive holes:1,2,3 to-move:east moves-left:x",
                "\"moves-left:x\"",
            ),
            (
                "progressive holes:1,2,3 to-move:east empties:99999999",
                "empty endings",
            ),
            (
                "progressive holes:1,2,3 to-move:east ending:65",
                "unknown ending",
            ),
            (
                "progressive holes:1,2,3 to-move:east colour:red",
                "unknown field \"colour:\"",
            ),
            (
                "progressive holes:1,2,3 holes:1,2,3 to-move:east",
                "given twice",
            ),
            ("progressive holes:0,0,0 goal:3 to-move:east", "unreachable"),
            ("progressive holes:200,50,10 to-move:east", "at most 255"),
            ("progressive holes:1,2,3 to-move", "key:value"),
        ];
        for (text, want) in cases {
            let e = Progressive::from_text(text).unwrap_err();
            assert!(e.0.contains(want), "{text}: {e}");
        }
    }
}
