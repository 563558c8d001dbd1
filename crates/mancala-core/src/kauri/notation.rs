//! Kauri notation: moves as the published games write them ("f", "D", "d-a-f", and the
//! digits of the published continuation "5,5,4,4,...") and the one-line position format.
//!
//! Hole letters follow the published games, which replay only with each row named from
//! its owner's left: South's `A..F`, North's `a..f`, sowing `a..f` then `A..F`, so `A`
//! faces `f` (see the module documentation of [`crate::kauri`]). A digit `1..6` is the
//! mover's hole counted the same way (`1` = `a`/`A`, `6` = `f`/`F`).

use crate::error::ParseError;
use crate::game::{Game, Notation, PositionText};
use crate::rows::Seated;
use crate::rows::{Row, letter, own_hole, read_to_move};
use crate::text::{Fields, number, one_char};

use super::rules::{HOLES, HOLES_PER_ROW, Kauri, KauriMove, Rules};

impl Notation for Kauri {
    /// The hole letter (never a digit).
    fn format_move(&self, mv: KauriMove) -> String {
        letter(mv.0 as usize, HOLES_PER_ROW).to_string()
    }

    /// A hole letter of the mover's row (`a-f` for North, `A-F` for South), or a digit
    /// `1-6` naming the mover's hole from his left.
    fn parse_move(&self, text: &str) -> Result<KauriMove, ParseError> {
        let t = text.trim();
        let c = one_char(
            t,
            t,
            "a Kauri move (a hole letter a-f or A-F, or 1-6 for the mover's hole)",
        )?;
        let mover = Kauri::row(self.to_move());
        if c.is_ascii_digit() {
            let d = c as usize - '0' as usize;
            if !(1..=HOLES_PER_ROW).contains(&d) {
                return Err(ParseError::new(format!(
                    "hole number {d}: the mover's holes are numbered 1-6 from his left"
                )));
            }
            return Ok(KauriMove((mover.start(HOLES_PER_ROW) + d - 1) as u8));
        }
        let h = own_hole(t, c, HOLES_PER_ROW, mover, "plays")?;
        Ok(KauriMove(h as u8))
    }
}

/// Reads a row `s+c,s+c,...` (seeds+cowries of six holes), naming the field and entry on
/// error.
fn row(key: &str, v: &str) -> Result<([u8; HOLES_PER_ROW], [u8; HOLES_PER_ROW]), ParseError> {
    let entries: Vec<&str> = v.split(',').collect();
    if entries.len() != HOLES_PER_ROW {
        return Err(ParseError::new(format!(
            "kauri position: \"{key}\" has {} holes, not {HOLES_PER_ROW}",
            entries.len()
        )));
    }
    let (mut seeds, mut cowries) = ([0u8; HOLES_PER_ROW], [0u8; HOLES_PER_ROW]);
    for (i, e) in entries.iter().enumerate() {
        let bad = || {
            ParseError::new(format!(
                "kauri position: \"{key}\" entry {} is \"{e}\", not seeds+cowries such as 5+1 (each 0-255)",
                i + 1
            ))
        };
        let (s, c) = e.trim().split_once('+').ok_or_else(bad)?;
        // `u8::from_str` accepts a leading "+": refuse it, "5++1" is a typo.
        if s.starts_with('+') || c.starts_with('+') {
            return Err(bad());
        }
        seeds[i] = s.parse().map_err(|_| bad())?;
        cowries[i] = c.parse().map_err(|_| bad())?;
    }
    Ok((seeds, cowries))
}

fn join_row(g: &Kauri, row: Row) -> String {
    let s = row.start(HOLES_PER_ROW);
    (s..s + HOLES_PER_ROW)
        .map(|h| format!("{}+{}", g.seeds()[h], g.cowries()[h]))
        .collect::<Vec<_>>()
        .join(",")
}

impl PositionText for Kauri {
    /// `kauri south:A,..,F north:a,..,f south-store:S north-store:N to-move:north`, each
    /// hole written seeds+cowries and each row from its owner's left (in letter order),
    /// plus `rules:tiebreak` when not the default.
    fn to_text(&self) -> String {
        let mut s = format!(
            "kauri south:{} north:{} south-store:{} north-store:{} to-move:{}",
            join_row(self, Row::South),
            join_row(self, Row::North),
            self.stores()[Kauri::owner(Row::South).index()],
            self.stores()[Kauri::owner(Row::North).index()],
            Kauri::row(self.to_move()).name().to_lowercase()
        );
        if self.rules() != Rules::default() {
            s += &format!(" rules:{}", self.rules().name());
        }
        s
    }

    /// Reads the format of [`PositionText::to_text`]. `south:`, `north:` and `to-move:` are
    /// required; the stores default to 0, the rules to `current`.
    fn from_text(text: &str) -> Result<Self, ParseError> {
        let g = "kauri";
        let mut f = Fields::parse(g, text)?;
        let (ss, sc) = row("south", f.required("south")?)?;
        let (ns, nc) = row("north", f.required("north")?)?;
        let south_store: u8 = number(g, "south-store", f.optional("south-store").unwrap_or("0"))?;
        let north_store: u8 = number(g, "north-store", f.optional("north-store").unwrap_or("0"))?;
        let to_move = read_to_move::<Kauri>(&mut f)?;
        let known = "current, tiebreak";
        let rules = f.parsed("rules", Rules::parse, known)?.unwrap_or_default();
        f.finish()?;
        let (mut seeds, mut cowries) = ([0u8; HOLES], [0u8; HOLES]);
        let s = Row::South.start(HOLES_PER_ROW);
        let n = Row::North.start(HOLES_PER_ROW);
        seeds[s..s + HOLES_PER_ROW].copy_from_slice(&ss);
        cowries[s..s + HOLES_PER_ROW].copy_from_slice(&sc);
        seeds[n..n + HOLES_PER_ROW].copy_from_slice(&ns);
        cowries[n..n + HOLES_PER_ROW].copy_from_slice(&nc);
        let mut stores = [0u8; 2];
        stores[Kauri::owner(Row::South).index()] = south_store;
        stores[Kauri::owner(Row::North).index()] = north_store;
        Kauri::from_parts(seeds, cowries, stores, to_move, rules)
            .map_err(|e| ParseError::new(format!("kauri position: {e}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "kauri south:5+1,5+1,5+1,5+1,5+1,5+1 north:5+1,5+1,5+1,5+1,5+1,5+1 south-store:0 north-store:0 to-move:north";

    #[test]
    fn moves_are_hole_letters_of_the_movers_row_or_digits() {
        let g = Kauri::start(Rules::Current);
        // Every legal move's name reads back: mancala-solver/tests/conformance.rs.
        assert_eq!(g.parse_move("a").unwrap(), KauriMove(6));
        assert_eq!(g.parse_move(" f ").unwrap(), KauriMove(11));
        // Digits: the mover's hole from his left.
        assert_eq!(g.parse_move("1").unwrap(), KauriMove(6));
        assert_eq!(g.parse_move("6").unwrap(), KauriMove(11));
        let s = g.play(KauriMove(6));
        assert_eq!(s.parse_move("1").unwrap(), KauriMove(0));
        assert_eq!(s.parse_move("5").unwrap(), KauriMove(4));
        assert_eq!(s.format_move(KauriMove(4)), "E");
        for (bad, want) in [
            (
                "A",
                "North to move plays from its own row; A is South's hole",
            ),
            ("g", "unknown hole \"g\""),
            ("G", "unknown hole \"G\""),
            ("W", "unknown hole \"W\""),
            ("0", "hole number 0"),
            ("7", "hole number 7"),
            ("", "not a Kauri move"),
            ("ab", "not a Kauri move"),
            ("d-a", "not a Kauri move"),
            ("é", "unknown hole"),
        ] {
            let e = g.parse_move(bad).unwrap_err();
            assert!(e.0.contains(want), "{bad:?}: {e}");
        }
    }

    #[test]
    fn the_start_position_text() {
        let g = Kauri::start(Rules::Current);
        assert_eq!(g.to_text(), START);
        assert_eq!(Kauri::from_text(START).unwrap(), g);
        let tb = Kauri::start(Rules::TieBreak);
        assert_eq!(tb.to_text(), format!("{START} rules:tiebreak"));
        assert_eq!(Kauri::from_text(&tb.to_text()).unwrap(), tb);
        // The stores and rules are optional.
        let short =
            "kauri south:5+1,5+1,5+1,5+1,5+1,5+1 north:5+1,5+1,5+1,5+1,5+1,5+1 to-move:north";
        assert_eq!(Kauri::from_text(short).unwrap(), g);
        // Rows from their owners' left: North's f is the last entry of north:.
        let t = "kauri south:0+0,0+0,0+0,0+0,0+0,0+1 north:0+0,0+0,0+0,0+0,0+0,7+2 south-store:3 north-store:4 to-move:south";
        let p = Kauri::from_text(t).unwrap();
        assert_eq!((p.seeds()[11], p.cowries()[11], p.cowries()[5]), (7, 2, 1));
        assert_eq!(p.stores(), [4, 3]);
        assert_eq!(p.to_text(), t);
    }

    #[test]
    fn malformed_positions_name_the_bad_field() {
        let z = "0+0,0+0,0+0,0+0,0+0,0+0";
        let z5 = "0+0,0+0,0+0,0+0,0+0";
        let one = "0+1,0+0,0+0,0+0,0+0,0+0";
        let cases = [
            (String::new(), "empty kauri position"),
            (
                format!("afrika south:{one} north:{z} to-move:south"),
                "must start with \"kauri\"",
            ),
            (
                format!("kauri south:{one} north:{z}"),
                "missing field \"to-move:\"",
            ),
            (
                format!("kauri north:{z} to-move:south"),
                "missing field \"south:\"",
            ),
            (
                format!("kauri south:{one} to-move:south"),
                "missing field \"north:\"",
            ),
            (
                format!("kauri south:0+1,0+0 north:{z} to-move:south"),
                "\"south\" has 2 holes, not 6",
            ),
            (
                format!("kauri south:{one} north:{z},0+0 to-move:south"),
                "\"north\" has 7 holes, not 6",
            ),
            (
                format!("kauri south:0+1,5,0+0,0+0,0+0,0+0 north:{z} to-move:south"),
                "\"south\" entry 2 is \"5\", not seeds+cowries",
            ),
            (
                format!("kauri south:0+1,x+1,0+0,0+0,0+0,0+0 north:{z} to-move:south"),
                "\"south\" entry 2 is \"x+1\"",
            ),
            (
                format!("kauri south:0+1,1+256,0+0,0+0,0+0,0+0 north:{z} to-move:south"),
                "entry 2 is \"1+256\"",
            ),
            (
                format!("kauri south:0+1,1++1,0+0,0+0,0+0,0+0 north:{z} to-move:south"),
                "entry 2 is \"1++1\"",
            ),
            (
                format!("kauri south:0+1,-1+1,0+0,0+0,0+0,0+0 north:{z} to-move:south"),
                "entry 2 is \"-1+1\"",
            ),
            (
                format!("kauri south:{one} north:{z} to-move:east"),
                "\"to-move:east\"",
            ),
            (
                format!("kauri south:{one} north:{z} south-store:x to-move:south"),
                "\"south-store:x\"",
            ),
            (
                format!("kauri south:{one} north:{z} north-store:300 to-move:south"),
                "\"north-store:300\"",
            ),
            (
                format!("kauri south:{one} north:{z} to-move:south rules:old"),
                "unknown rules \"rules:old\"",
            ),
            (
                format!("kauri south:{one} north:{z} to-move:south colour:red"),
                "unknown field \"colour:\"",
            ),
            (
                format!("kauri south:{one} south:{one} north:{z} to-move:south"),
                "given twice",
            ),
            (format!("kauri south:{one} north:{z} to-move"), "key:value"),
            (
                format!(
                    "kauri south:200+1,0+0,0+0,0+0,0+0,0+0 north:{z} north-store:100 to-move:south"
                ),
                "300 seeds in all; at most 255",
            ),
            (
                format!("kauri south:0+200,0+100,0+0,0+0,0+0,0+0 north:{z} to-move:south"),
                "300 cowries in all",
            ),
            (
                format!("kauri south:1+0,0+0,0+0,0+0,0+0,0+0 north:{z} to-move:south"),
                "no cowrie: no one could move",
            ),
            (
                format!("kauri south:1+0,0+0,0+0,0+0,0+0,0+0 north:0+1,{z5} to-move:south"),
                "South is to move but has no cowrie, so must pass: North is to move",
            ),
        ];
        for (text, want) in cases {
            let e = Kauri::from_text(&text).unwrap_err();
            assert!(e.0.contains(want), "{text}: {e}");
        }
        // With no seeds left the player to move may lack cowries (the game is over, or the
        // tie-break phase has decided it).
        assert!(Kauri::from_text(&format!("kauri south:{one} north:{z} to-move:north")).is_ok());
    }
}
